#include "core/hmm/enrichment.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace cx {

namespace {

/// ChromHMM caps −log10 p-values here.
constexpr double kMaxLog10PValue = 300;
/// ChromHMM refuses an annotation whose total overlap is below this (in bins).
constexpr double kMinOverlap = 1e-8;
/// Largest state index accepted (ChromHMM stores them as Java shorts).
constexpr int kMaxStateIndex = 32767;

/// Parses a non-negative integer; false for anything else.
bool parseIndex(const std::string& text, int& value) {
    if (text.empty() || text.size() > 5) {
        return false;
    }
    int v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') {
            return false;
        }
        v = v * 10 + (c - '0');
    }
    if (v > kMaxStateIndex) {
        return false;
    }
    value = v;
    return true;
}

/// ChromHMM's state number of a label: "3" → 3, "E3" → 3 (one leading character skipped).
bool numberedLabel(const std::string& label, int& index) {
    return parseIndex(label, index) || (label.size() > 1 && parseIndex(label.substr(1), index));
}

/// ChromHMM's `-labels` rule for "N_name" / "EN_name" labels.
bool underscoreLabel(const std::string& label, int& index) {
    const size_t underscore = label.find('_');
    return underscore != std::string::npos && underscore > 0 &&
           numberedLabel(label.substr(0, underscore), index);
}

std::string orderNameOf(const std::string& lastLabel) {
    switch (lastLabel.empty() ? ' ' : lastLabel[0]) {
    case 'E':
        return "Emission";
    case 'T':
        return "Transition";
    case 'F':
        return "Fixed";
    default:
        return "User";
    }
}

/// Fixed decimals as ChromHMM's Java prints them ("NaN", "Infinity" for the non-finite).
std::string javaFixed(double value, int decimals) {
    if (std::isnan(value)) {
        return "NaN";
    }
    if (std::isinf(value)) {
        return value > 0 ? "Infinity" : "-Infinity";
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

/// Java's Math.round for the non-negative counts ChromHMM rounds.
std::int64_t javaRound(double value) {
    return static_cast<std::int64_t>(std::floor(value + 0.5));
}

double logBinomial(std::int64_t k, std::int64_t n) {
    return std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(k) + 1) -
           std::lgamma(static_cast<double>(n - k) + 1);
}

/// log(e^a + e^b).
double logAdd(double a, double b) {
    return a >= b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

double clampProbability(double logProbability) {
    const double p = std::exp(logProbability);
    return p <= 0 ? 0.0 : (p >= 1 ? 1.0 : p);
}

/// Adds state bins [begin, end] (clipped to the chromosome) of `bins` to `tally`, `amount`
/// each; with base resolution, removes the parts of the first and last bin outside the bases
/// [firstBase, lastBase] (ChromHMM's fractional edges).
void tallyRange(const std::vector<int>& bins, std::int64_t firstBase, std::int64_t lastBase,
                int binSize, bool baseResolution, double amount, std::vector<double>& tally) {
    const auto length = static_cast<std::int64_t>(bins.size());
    std::int64_t begin = firstBase / binSize; // truncation toward zero, as in Java
    std::int64_t end = lastBase / binSize;
    begin = std::max<std::int64_t>(begin, 0);
    end = std::min(end, length - 1);
    for (std::int64_t bin = begin; bin <= end; ++bin) {
        const int state = bins[static_cast<size_t>(bin)];
        if (state >= 0) {
            tally[static_cast<size_t>(state)] += amount;
        }
    }
    if (!baseResolution) {
        return;
    }
    const double beginFraction = static_cast<double>(firstBase - begin * binSize) / binSize;
    const double endFraction = static_cast<double>((end + 1) * binSize - lastBase - 1) / binSize;
    if (begin < length && bins[static_cast<size_t>(begin)] >= 0 && beginFraction > 0) {
        tally[static_cast<size_t>(bins[static_cast<size_t>(begin)])] -= amount * beginFraction;
    }
    if (end >= 0 && end < length && bins[static_cast<size_t>(end)] >= 0 && endFraction > 0) {
        tally[static_cast<size_t>(bins[static_cast<size_t>(end)])] -= amount * endFraction;
    }
}

/// The overlap tally of one annotation (bins per state index).
std::vector<double> overlapTally(const StateSegmentation& segmentation,
                                 const EnrichmentAnnotation& annotation,
                                 const OverlapEnrichmentOptions& options,
                                 std::vector<std::string>& warnings) {
    const int binSize = segmentation.binSize;
    std::vector<double> tally(static_cast<size_t>(segmentation.numIndices()), 0.0);
    for (const auto& [chrom, intervals] : annotation.regions.byChrom) {
        const int c = segmentation.chromIndex(chrom);
        if (c < 0) {
            warnings.push_back(annotation.path + ": " + std::to_string(intervals.size()) +
                               " interval(s) on " + chrom +
                               ", which the segmentation does not have, are ignored");
            continue;
        }
        const auto& bins = segmentation.bins[static_cast<size_t>(c)];
        std::vector<std::pair<std::int64_t, std::int64_t>> inclusive;
        inclusive.reserve(intervals.size());
        for (const auto& interval : intervals) {
            std::int64_t first = interval.start - options.offsetStart;
            std::int64_t last = interval.end - options.offsetEnd;
            if (options.center) {
                first = last = (first + last) / 2;
            }
            inclusive.emplace_back(first, last);
        }
        if (options.multiCount) {
            // Every interval counts, 1/binSize per bin (ChromHMM >= 1.26).
            const double amount = 1.0 / binSize;
            for (const auto& [first, last] : inclusive) {
                if (options.center) {
                    // The bin of the centre ((start + end) / 2 / binSize, as ChromHMM's
                    // (start + end) / (2 · binSize) for non-negative coordinates).
                    const std::int64_t centre = first / binSize;
                    if (centre >= 0 && centre < static_cast<std::int64_t>(bins.size()) &&
                        bins[static_cast<size_t>(centre)] >= 0) {
                        tally[static_cast<size_t>(bins[static_cast<size_t>(centre)])] += amount;
                    }
                } else {
                    tallyRange(bins, first, last, binSize, options.baseResolution, amount, tally);
                }
            }
            continue;
        }
        // Union of the intervals: sort, merge those sharing a base, count each merged run once.
        std::sort(inclusive.begin(), inclusive.end());
        size_t i = 0;
        while (i < inclusive.size()) {
            std::int64_t first = inclusive[i].first;
            std::int64_t last = inclusive[i].second;
            size_t j = i + 1;
            while (j < inclusive.size() && inclusive[j].first <= last) {
                last = std::max(last, inclusive[j].second);
                ++j;
            }
            tallyRange(bins, first, last, binSize, options.baseResolution, 1.0, tally);
            i = j;
        }
    }
    return tally;
}

std::vector<int> occurringStates(const StateSegmentation& segmentation) {
    std::vector<int> rows;
    for (int s = 0; s < segmentation.numIndices(); ++s) {
        if (segmentation.stateBins[static_cast<size_t>(s)] > 0) {
            rows.push_back(s);
        }
    }
    return rows;
}

void writeRowStart(std::ostream& out, const EnrichmentTable& table, Eigen::Index row) {
    out << table.rowLabels[static_cast<size_t>(row)];
    if (table.genomePercent.size() > 0) {
        out << '\t' << javaFixed(table.genomePercent(row), 5);
    }
}

void writeHeader(std::ostream& out, const EnrichmentTable& table) {
    out << table.corner;
    if (table.genomePercent.size() > 0) {
        out << "\tGenome %";
    }
    for (const auto& name : table.columnNames) {
        out << '\t' << name;
    }
    out << '\n';
}

void writeBaseRow(std::ostream& out, const EnrichmentTable& table) {
    if (table.basePercent.size() == 0) {
        return;
    }
    out << "Base";
    if (table.genomePercent.size() > 0) {
        out << "\t100";
    }
    for (Eigen::Index c = 0; c < table.basePercent.size(); ++c) {
        out << '\t' << javaFixed(table.basePercent(c), 10);
    }
    out << '\n';
}

} // namespace

int StateSegmentation::chromIndex(const std::string& chrom) const {
    const auto it = std::find(chroms.begin(), chroms.end(), chrom);
    return it == chroms.end() ? -1 : static_cast<int>(it - chroms.begin());
}

StateSegmentation binSegments(const std::vector<SegmentRecord>& segments, int binSize,
                              const std::string& path) {
    if (binSize < 1) {
        throw std::invalid_argument("binSegments: binSize " + std::to_string(binSize) +
                                    " must be >= 1");
    }
    StateSegmentation out;
    out.binSize = binSize;
    if (segments.empty()) {
        throw InputError(path, 0, "no segments");
    }

    // State indices: ChromHMM's numbered labels, else "N_name" labels, else first appearance.
    std::vector<int> index(segments.size(), 0);
    bool numbered = true;
    bool underscored = true;
    for (size_t i = 0; i < segments.size() && (numbered || underscored); ++i) {
        int value = 0;
        numbered = numbered && numberedLabel(segments[i].label, value);
        underscored = underscored && underscoreLabel(segments[i].label, value);
    }
    std::map<std::string, int> byLabel;
    for (size_t i = 0; i < segments.size(); ++i) {
        const std::string& label = segments[i].label;
        int value = 0;
        if (numbered) {
            numberedLabel(label, value);
        } else if (underscored) {
            underscoreLabel(label, value);
        } else {
            auto it = byLabel.find(label);
            if (it == byLabel.end()) {
                it = byLabel.emplace(label, static_cast<int>(byLabel.size()) + 1).first;
            }
            value = it->second;
        }
        index[i] = value;
        if (value >= out.numIndices()) {
            out.stateLabels.resize(static_cast<size_t>(value) + 1);
        }
        if (out.stateLabels[static_cast<size_t>(value)].empty()) {
            out.stateLabels[static_cast<size_t>(value)] = label;
        }
    }
    out.orderName = orderNameOf(segments.back().label);
    out.stateBins.assign(out.stateLabels.size(), 0.0);

    // Chromosome lengths in bins (last bin of any segment).
    std::vector<std::int64_t> lastBin;
    std::map<std::string, int> chromIndex;
    std::vector<int> segmentChrom(segments.size());
    for (size_t i = 0; i < segments.size(); ++i) {
        const SegmentRecord& segment = segments[i];
        if (segment.start % binSize != 0) {
            throw InputError(path, segment.line,
                             "segment start " + std::to_string(segment.start) +
                                 " is not a multiple of the bin size " + std::to_string(binSize) +
                                 "; give the bin size the segmentation was made with (1 for a "
                                 "lifted-over segmentation)");
        }
        auto it = chromIndex.find(segment.chrom);
        if (it == chromIndex.end()) {
            it = chromIndex.emplace(segment.chrom, static_cast<int>(out.chroms.size())).first;
            out.chroms.push_back(segment.chrom);
            lastBin.push_back(0);
        }
        segmentChrom[i] = it->second;
        const std::int64_t last = (segment.end - 1) / binSize;
        lastBin[static_cast<size_t>(it->second)] =
            std::max(lastBin[static_cast<size_t>(it->second)], last);
    }
    out.bins.resize(out.chroms.size());
    for (size_t c = 0; c < out.chroms.size(); ++c) {
        out.bins[c].assign(static_cast<size_t>(lastBin[c]) + 1, -1);
    }
    bool warnedOverlap = false;
    for (size_t i = 0; i < segments.size(); ++i) {
        auto& bins = out.bins[static_cast<size_t>(segmentChrom[i])];
        const int state = index[i];
        const std::int64_t first = segments[i].start / binSize;
        const std::int64_t last = (segments[i].end - 1) / binSize;
        for (std::int64_t bin = first; bin <= last; ++bin) {
            int& slot = bins[static_cast<size_t>(bin)];
            if (!warnedOverlap && slot >= 0 && slot != state) {
                warnedOverlap = true;
                out.warnings.push_back(path + ":" + std::to_string(segments[i].line) + ": " +
                                       segments[i].chrom + ":" + std::to_string(bin * binSize + 1) +
                                       " is already in another state; the later segment is used "
                                       "(further overlaps are not reported)");
            }
            slot = state;
            // ChromHMM counts every segment's bins, overlapping or not.
            out.stateBins[static_cast<size_t>(state)] += 1;
        }
    }
    for (double bins : out.stateBins) {
        out.totalBins += bins;
    }
    return out;
}

StateSegmentation readStateSegmentation(const std::string& path, int binSize,
                                        const CancelToken& cancel) {
    return binSegments(readSegmentsBed(path, cancel), binSize, path);
}

StateSegmentation stateSegmentation(const ChromatinData& data,
                                    const DecodedSegmentation& segmentation,
                                    const std::vector<std::string>& labels,
                                    const std::string& cell) {
    std::vector<SegmentRecord> records;
    for (size_t t = 0; t < data.tracks.size() && t < segmentation.runs.size(); ++t) {
        const ChromatinTrack& track = data.tracks[t];
        if (!cell.empty() && track.cell != cell) {
            continue;
        }
        for (const StateRun& run : segmentation.runs[t]) {
            if (run.state < 0 || static_cast<size_t>(run.state) >= labels.size()) {
                throw std::invalid_argument("stateSegmentation: state " +
                                            std::to_string(run.state) + " has no label");
            }
            records.push_back({track.chrom, run.begin * data.binSize, run.end * data.binSize,
                               labels[static_cast<size_t>(run.state)], 0});
        }
    }
    if (records.empty()) {
        throw std::invalid_argument("stateSegmentation: no segments for cell '" + cell + "'");
    }
    return binSegments(records, data.binSize, cell.empty() ? "segmentation" : cell);
}

std::vector<EnrichmentAnnotation> readEnrichmentAnnotations(const std::vector<std::string>& paths,
                                                            const CancelToken& cancel) {
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, std::string>> files; // name, path
    for (const auto& path : paths) {
        std::error_code error;
        if (fs::is_directory(path, error)) {
            std::vector<std::string> names;
            for (const auto& entry : fs::directory_iterator(path, error)) {
                const std::string name = entry.path().filename().string();
                if (!name.empty() && name[0] != '.' && entry.is_regular_file(error)) {
                    names.push_back(name);
                }
            }
            if (error) {
                throw InputError(path, 0, "cannot list the folder: " + error.message());
            }
            if (names.empty()) {
                throw InputError(path, 0, "no annotation files in the folder");
            }
            std::sort(names.begin(), names.end());
            for (const auto& name : names) {
                files.emplace_back(name, (fs::path(path) / name).string());
            }
        } else if (fs::exists(path, error)) {
            files.emplace_back(fs::path(path).filename().string(), path);
        } else {
            throw InputError(path, 0, "no such file or folder");
        }
    }
    std::vector<EnrichmentAnnotation> out;
    out.reserve(files.size());
    for (const auto& [name, path] : files) {
        throwIfCancelled(cancel);
        EnrichmentAnnotation annotation;
        annotation.name = name;
        annotation.path = path;
        appendBedFile(annotation.regions, path, cancel);
        out.push_back(std::move(annotation));
    }
    return out;
}

EnrichmentTable overlapEnrichment(const StateSegmentation& segmentation,
                                  const std::vector<EnrichmentAnnotation>& annotations,
                                  const OverlapEnrichmentOptions& options,
                                  const CancelToken& cancel) {
    if (annotations.empty()) {
        throw std::invalid_argument("overlapEnrichment: no annotations");
    }
    EnrichmentTable table;
    table.corner = "State (" + segmentation.orderName + " order)";
    table.rowStates = occurringStates(segmentation);
    for (int state : table.rowStates) {
        table.rowLabels.push_back(segmentation.stateLabels[static_cast<size_t>(state)]);
    }
    const auto numRows = static_cast<Eigen::Index>(table.rowStates.size());
    const auto numColumns = static_cast<Eigen::Index>(annotations.size());
    table.fold.resize(numRows, numColumns);
    table.overlap.resize(numRows, numColumns);
    table.basePercent.resize(numColumns);
    if (options.pValues) {
        table.log10PValues.resize(numRows, numColumns);
    }
    const double total = segmentation.totalBins;
    const int binSize = segmentation.binSize;
    for (Eigen::Index c = 0; c < numColumns; ++c) {
        throwIfCancelled(cancel);
        const EnrichmentAnnotation& annotation = annotations[static_cast<size_t>(c)];
        table.columnNames.push_back(annotation.name);
        const std::vector<double> tally =
            overlapTally(segmentation, annotation, options, table.warnings);
        double sum = 0;
        for (double value : tally) {
            sum += value;
        }
        if (sum < kMinOverlap) {
            // No interval on any segmented chromosome: the names differ (chr1 against 1), an
            // error. Intervals on them that all miss the segmented bins (a segmentation of a
            // small region): an empty column, said in a warning.
            const bool sharesAChrom =
                std::any_of(segmentation.chroms.begin(), segmentation.chroms.end(),
                            [&](const std::string& chrom) {
                                return annotation.regions.byChrom.count(chrom) != 0;
                            });
            if (sharesAChrom) {
                table.warnings.push_back(annotation.path +
                                         ": no interval falls in the segmented bins; its column "
                                         "is empty (fold enrichment 0)");
                table.basePercent(c) = 0;
                for (Eigen::Index r = 0; r < numRows; ++r) {
                    table.overlap(r, c) = 0;
                    table.fold(r, c) = 0;
                    if (options.pValues) {
                        table.log10PValues(r, c) = 0;
                    }
                }
                continue;
            }
            std::string chroms;
            for (size_t i = 0; i < segmentation.chroms.size() && i < 5; ++i) {
                chroms += (i ? ", " : "") + segmentation.chroms[i];
            }
            throw InputError(annotation.path, 0,
                             "no interval overlaps a state of the segmentation; check that its "
                             "chromosome names match the segmentation's (" +
                                 chroms + (segmentation.chroms.size() > 5 ? ", …" : "") + ")");
        }
        table.basePercent(c) = 100 * (sum / total);
        for (Eigen::Index r = 0; r < numRows; ++r) {
            const auto state = static_cast<size_t>(table.rowStates[static_cast<size_t>(r)]);
            const double stateBins = segmentation.stateBins[state];
            table.overlap(r, c) = tally[state];
            table.fold(r, c) = (tally[state] / sum) / (stateBins / total);
            if (!options.pValues) {
                continue;
            }
            double p = 0;
            const std::int64_t observed = javaRound(tally[state] * binSize - 1);
            if (options.multiCount) {
                p = binomialTail(observed, javaRound(sum * binSize), stateBins / total);
            } else {
                p = hypergeometricTail(observed, javaRound(stateBins * binSize),
                                       javaRound((total - stateBins) * binSize),
                                       javaRound(sum * binSize));
            }
            double log10p = -std::log(p) / std::log(10.0);
            if (log10p > kMaxLog10PValue) {
                log10p = kMaxLog10PValue;
            } else if (log10p == 0) {
                log10p = 0; // no "-0"
            }
            table.log10PValues(r, c) = log10p;
        }
    }
    if (options.genomeColumn) {
        table.genomePercent.resize(numRows);
        for (Eigen::Index r = 0; r < numRows; ++r) {
            const auto state = static_cast<size_t>(table.rowStates[static_cast<size_t>(r)]);
            table.genomePercent(r) = 100 * (segmentation.stateBins[state] / total);
        }
    }
    return table;
}

EnrichmentTable neighborhoodEnrichment(const StateSegmentation& segmentation,
                                       const std::vector<AnchorRecord>& anchors,
                                       const std::string& anchorPath,
                                       const NeighborhoodEnrichmentOptions& options) {
    if (options.numLeft < 0 || options.numRight < 0 || options.spacing < 0) {
        throw std::invalid_argument("neighborhoodEnrichment: numLeft " +
                                    std::to_string(options.numLeft) + ", numRight " +
                                    std::to_string(options.numRight) + ", spacing " +
                                    std::to_string(options.spacing) + " must be >= 0");
    }
    const int binSize = segmentation.binSize;
    const std::int64_t spacing = options.spacing > 0 ? options.spacing : binSize;
    const int numPositions = 1 + options.numLeft + options.numRight;
    Eigen::MatrixXd tally = Eigen::MatrixXd::Zero(segmentation.numIndices(), numPositions);
    bool matched = false;
    std::map<std::string, std::int64_t> skipped;
    for (const auto& anchor : anchors) {
        const int c = segmentation.chromIndex(anchor.chrom);
        if (c < 0) {
            ++skipped[anchor.chrom];
            continue;
        }
        matched = true;
        const auto& bins = segmentation.bins[static_cast<size_t>(c)];
        const std::int64_t position = anchor.position - options.anchorOffset;
        const bool forward = anchor.forward || !options.useStrand;
        for (int column = 0; column < numPositions; ++column) {
            const int offset = forward ? column - options.numLeft : options.numRight - column;
            // Integer division toward zero, as ChromHMM's Java: −1 … −(binSize−1) fall in bin 0.
            const std::int64_t bin = (position + spacing * offset) / binSize;
            if (bin >= 0 && bin < static_cast<std::int64_t>(bins.size()) &&
                bins[static_cast<size_t>(bin)] >= 0) {
                tally(bins[static_cast<size_t>(bin)], column) += 1;
            }
        }
    }
    if (!matched) {
        throw InputError(anchorPath, 0,
                         "no anchor lies on a chromosome of the segmentation; check the "
                         "chromosome names");
    }
    EnrichmentTable table;
    for (const auto& [chrom, count] : skipped) {
        table.warnings.push_back(anchorPath + ": " + std::to_string(count) + " anchor(s) on " +
                                 chrom + ", which the segmentation does not have, are skipped");
    }
    table.corner = "State (" + segmentation.orderName + " order)";
    table.rowStates = occurringStates(segmentation);
    for (int state : table.rowStates) {
        table.rowLabels.push_back(segmentation.stateLabels[static_cast<size_t>(state)]);
    }
    for (int column = 0; column < numPositions; ++column) {
        table.columnNames.push_back(std::to_string((column - options.numLeft) * spacing));
    }
    const auto numRows = static_cast<Eigen::Index>(table.rowStates.size());
    table.fold.resize(numRows, numPositions);
    table.overlap.resize(numRows, numPositions);
    const Eigen::RowVectorXd sums = tally.colwise().sum();
    const double total = segmentation.totalBins;
    for (Eigen::Index r = 0; r < numRows; ++r) {
        const int state = table.rowStates[static_cast<size_t>(r)];
        const double share = segmentation.stateBins[static_cast<size_t>(state)] / total;
        for (int column = 0; column < numPositions; ++column) {
            table.overlap(r, column) = tally(state, column);
            table.fold(r, column) = (tally(state, column) / sums(column)) / share;
        }
    }
    return table;
}

void writeEnrichmentTable(std::ostream& out, const EnrichmentTable& table) {
    writeHeader(out, table);
    for (Eigen::Index r = 0; r < table.fold.rows(); ++r) {
        writeRowStart(out, table, r);
        for (Eigen::Index c = 0; c < table.fold.cols(); ++c) {
            out << '\t' << javaFixed(table.fold(r, c), 5);
        }
        out << '\n';
    }
    writeBaseRow(out, table);
}

void writeEnrichmentPValues(std::ostream& out, const EnrichmentTable& table) {
    if (table.log10PValues.size() == 0) {
        throw std::invalid_argument("writeEnrichmentPValues: the table has no p-values");
    }
    writeHeader(out, table);
    for (Eigen::Index r = 0; r < table.log10PValues.rows(); ++r) {
        writeRowStart(out, table, r);
        for (Eigen::Index c = 0; c < table.log10PValues.cols(); ++c) {
            out << '\t' << javaFixed(table.log10PValues(r, c), 5);
        }
        out << '\n';
    }
    writeBaseRow(out, table);
}

double hypergeometricTail(std::int64_t x, std::int64_t typeA, std::int64_t typeB,
                          std::int64_t drawn) {
    if (x < 0) {
        return 1;
    }
    // Support of the count of type A: max(0, drawn − typeB) … min(typeA, drawn).
    const std::int64_t first = std::max({x + 1, std::int64_t{0}, drawn - typeB});
    const std::int64_t last = std::min(typeA, drawn);
    if (first > last) {
        return x + 1 < drawn - typeB ? 1.0 : 0.0;
    }
    double term = -logBinomial(drawn, typeA + typeB) + logBinomial(first, typeA) +
                  logBinomial(drawn - first, typeB);
    double logSum = term;
    double previous = term;
    for (std::int64_t i = first + 1; i <= last; ++i) {
        // Ratio of consecutive hypergeometric probabilities.
        term += std::log(static_cast<double>(typeA - i + 1)) -
                std::log(static_cast<double>(typeB - drawn + i)) +
                std::log(static_cast<double>(drawn - i + 1)) - std::log(static_cast<double>(i));
        logSum = logAdd(logSum, term);
        if (term < previous && term < logSum - 40) {
            break; // past the mode and below 1e-17 of the sum: the rest cannot matter
        }
        previous = term;
    }
    return clampProbability(logSum);
}

double binomialTail(std::int64_t x, std::int64_t trials, double p) {
    if (x >= trials) {
        return 0;
    }
    if (x < 0 || p <= 0 || p >= 1) {
        return 1;
    }
    const std::int64_t first = x + 1;
    const double logP = std::log(p);
    const double logQ = std::log1p(-p);
    double term = logBinomial(first, trials) + static_cast<double>(first) * logP +
                  static_cast<double>(trials - first) * logQ;
    double logSum = term;
    double previous = term;
    for (std::int64_t i = first + 1; i <= trials; ++i) {
        term += std::log(static_cast<double>(trials - i + 1)) - std::log(static_cast<double>(i)) +
                logP - logQ;
        logSum = logAdd(logSum, term);
        if (term < previous && term < logSum - 40) {
            break;
        }
        previous = term;
    }
    return clampProbability(logSum);
}

} // namespace cx
