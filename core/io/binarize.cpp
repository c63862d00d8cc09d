#include "core/io/binarize.h"

#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/io/binarize_counts.h"
#include "core/io/text_input.h"

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

namespace cx {

using binarize_detail::FileCounts;
using binarize_detail::Genome;

namespace {

/// Java's (int) cast of a double: NaN → 0, saturating at the int range.
int javaInt(double value) {
    if (std::isnan(value)) {
        return 0;
    }
    if (value >= static_cast<double>(INT_MAX)) {
        return INT_MAX;
    }
    if (value <= static_cast<double>(INT_MIN)) {
        return INT_MIN;
    }
    return static_cast<int>(value);
}

int callThreshold(double lambda, const BinarizeOptions& options) {
    const int poisson = poissonThreshold(lambda, options.poissonThreshold, options.strictThreshold);
    return std::max({javaInt(std::ceil(options.foldThreshold * lambda)), poisson, 1,
                     javaInt(std::ceil(options.signalThreshold))});
}

/// The control columns of one cell, as ChromHMM builds them: one column for all marks when the
/// cell has exactly one control file and every line of the cell names it; else one per mark
/// (a mark without control then gets the pseudocount alone).
struct CellPlan {
    std::string name;
    std::vector<std::vector<int>> markFiles;    ///< per mark: input ids (empty: missing mark)
    std::vector<std::vector<int>> controlFiles; ///< per control column: input ids
    bool hasControl = false;
    std::vector<char> present;             ///< per chromosome: some mark has a read there
    std::vector<char> controlPresent;      ///< per chromosome: some control has a read there
    std::vector<double> uniformThresholds; ///< per mark (no control)
    std::vector<std::vector<int>> controlThresholds; ///< per mark, by background value
    int controlColumn(size_t mark) const {
        return controlFiles.size() == 1 ? 0 : static_cast<int>(mark);
    }
    bool writes(size_t chrom) const {
        return present[chrom] && (!hasControl || controlPresent[chrom]);
    }
};

/// Sum over ±flank bins of max(count + pseudocount, 0), clipped at the chromosome's ends.
void windowSums(const std::vector<std::int32_t>& counts, int pseudocount, int flank,
                std::vector<std::int32_t>& sums) {
    const std::int64_t n = static_cast<std::int64_t>(counts.size());
    sums.assign(counts.size(), 0);
    auto value = [&](std::int64_t i) {
        return std::max(counts[static_cast<size_t>(i)] + pseudocount, 0);
    };
    std::int64_t running = 0;
    for (std::int64_t i = 0; i <= std::min<std::int64_t>(flank, n - 1); ++i) {
        running += value(i);
    }
    for (std::int64_t bin = 0; bin < n; ++bin) {
        sums[static_cast<size_t>(bin)] = static_cast<std::int32_t>(running);
        const std::int64_t leaving = bin - flank;
        const std::int64_t entering = bin + flank + 1;
        if (leaving >= 0) {
            running -= value(leaving);
        }
        if (entering < n) {
            running += value(entering);
        }
    }
}

void loadColumn(const std::vector<FileCounts>& inputs, const std::vector<int>& files, int chrom,
                std::vector<std::int32_t>& bins) {
    std::fill(bins.begin(), bins.end(), 0);
    for (int id : files) {
        binarize_detail::addSpilledCounts(inputs[static_cast<size_t>(id)], chrom, bins);
    }
}

std::string gzipBytes(const std::string& text, const std::string& target) {
    z_stream stream{};
    if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        throw InputError(target, 0, "zlib could not start compressing");
    }
    std::string out(deflateBound(&stream, static_cast<uLong>(text.size())) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    if (status != Z_STREAM_END) {
        throw InputError(target, 0, "zlib could not compress the output");
    }
    return out;
}

std::string chromNamesHint(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size() && i < 4; ++i) {
        out += (i ? ", " : "") + quoteForMessage(names[i]);
    }
    return out;
}

/// The chr-prefix mapping that would put `unknown` contigs on the sizes file's names.
std::string suggestMapping(const std::vector<std::string>& unknown, const Genome& genome) {
    std::string mapping;
    int found = 0;
    for (const auto& name : unknown) {
        std::string other;
        if (name.rfind("chr", 0) == 0 && genome.find(name.substr(3)) >= 0) {
            other = name.substr(3);
        } else if (genome.find("chr" + name) >= 0) {
            other = "chr" + name;
        } else if (name == "MT" && genome.find("chrM") >= 0) {
            other = "chrM";
        }
        if (!other.empty() && found < 4) {
            mapping += (found ? ", " : "") + name + " → " + other;
            ++found;
        }
    }
    return mapping;
}

} // namespace

int poissonThreshold(double lambda, double p, bool strict) {
    // ChromHMM sums the Poisson pmf term by term in log space until the cumulative probability
    // exceeds 1 − p; the same operations in the same order give the same threshold.
    const double cumulativeThreshold = 1 - p;
    double cumulative = 0;
    short threshold = 0;
    double logFactorial = 0;
    while (cumulative <= cumulativeThreshold) {
        const double probability = std::exp(std::log(lambda) * threshold - lambda - logFactorial);
        cumulative += probability;
        ++threshold;
        logFactorial += std::log(static_cast<double>(threshold));
    }
    return strict ? threshold : threshold - 1;
}

namespace {

void checkOptions(const BinarizeOptions& options) {
    auto fail = [](const std::string& problem) { throw InputError(problem); };
    if (options.binSize < 1) {
        fail("bin size must be >= 1 bp (got " + std::to_string(options.binSize) + ")");
    }
    if (!(options.poissonThreshold > 0 && options.poissonThreshold < 1)) {
        fail("Poisson threshold must be in (0, 1) (got " + formatNumber(options.poissonThreshold) +
             ")");
    }
    if (options.flankWidth < 0) {
        fail("flank width must be >= 0 bins (got " + std::to_string(options.flankWidth) + ")");
    }
    if (options.paired && (options.center || options.format == BinarizeFormat::Peaks)) {
        fail("--paired cannot be combined with --center or peaks (ChromHMM refuses it too)");
    }
}

struct Plan {
    Genome genome;
    std::vector<std::string> marks;
    std::vector<CellPlan> cells;
    std::vector<std::string> inputPaths;
    std::vector<char> inputIsControl;
    BinarizeFormat format = BinarizeFormat::Auto;
};

int inputId(Plan& plan, const std::string& path, bool control) {
    const auto at = std::find(plan.inputPaths.begin(), plan.inputPaths.end(), path);
    if (at != plan.inputPaths.end()) {
        const auto id = static_cast<size_t>(at - plan.inputPaths.begin());
        plan.inputIsControl[id] = plan.inputIsControl[id] && control;
        return static_cast<int>(id);
    }
    plan.inputPaths.push_back(path);
    plan.inputIsControl.push_back(control);
    return static_cast<int>(plan.inputPaths.size() - 1);
}

Plan makePlan(const std::string& chromSizesPath, const std::string& inputDir,
              const std::string& tablePath, const std::string& controlDir,
              const BinarizeOptions& options, std::vector<std::string>& warnings) {
    Plan plan;
    plan.genome.chromosomes = readChromosomeSizes(chromSizesPath);
    for (size_t c = 0; c < plan.genome.chromosomes.size(); ++c) {
        plan.genome.numBins.push_back(plan.genome.chromosomes[c].length / options.binSize);
        plan.genome.index.emplace(plan.genome.chromosomes[c].name, static_cast<int>(c));
    }
    const std::vector<CellMarkEntry> entries = readCellMarkFileTable(tablePath);
    std::set<std::string> markSet;
    std::vector<std::string> cellOrder;
    for (const auto& entry : entries) {
        markSet.insert(entry.mark);
        if (std::find(cellOrder.begin(), cellOrder.end(), entry.cell) == cellOrder.end()) {
            cellOrder.push_back(entry.cell);
        }
    }
    plan.marks.assign(markSet.begin(), markSet.end()); // std::string order = Java's for ASCII
    const std::filesystem::path markFolder(inputDir);
    const std::filesystem::path controlFolder(controlDir.empty() ? inputDir : controlDir);
    auto resolve = [&](const std::filesystem::path& folder, const CellMarkEntry& entry,
                       const std::string& name) {
        const std::string path = (folder / name).string();
        if (!std::filesystem::is_regular_file(path)) {
            throw InputError(path, 0,
                             "file not found (named on line " + std::to_string(entry.line) +
                                 " of " + tablePath + ")");
        }
        return path;
    };
    for (const auto& cellName : cellOrder) {
        CellPlan cell;
        cell.name = cellName;
        cell.markFiles.resize(plan.marks.size());
        std::map<std::string, std::vector<std::string>> controlsByMark;
        std::set<std::string> distinctControls;
        bool lineWithoutControl = false;
        for (const auto& entry : entries) {
            if (entry.cell != cellName) {
                continue;
            }
            const size_t mark = static_cast<size_t>(
                std::find(plan.marks.begin(), plan.marks.end(), entry.mark) - plan.marks.begin());
            const int id = inputId(plan, resolve(markFolder, entry, entry.file), false);
            auto& files = cell.markFiles[mark];
            if (std::find(files.begin(), files.end(), id) == files.end()) {
                files.push_back(id);
            }
            if (entry.control.empty()) {
                lineWithoutControl = true;
                continue;
            }
            if (options.format == BinarizeFormat::Peaks ||
                formatFromFileName(entry.file) == BinarizeFormat::Peaks) {
                throw InputError(tablePath, entry.line,
                                 "peaks take no control (remove the 4th column)");
            }
            resolve(controlFolder, entry, entry.control);
            distinctControls.insert(entry.control);
            auto& names = controlsByMark[entry.mark];
            if (std::find(names.begin(), names.end(), entry.control) == names.end()) {
                names.push_back(entry.control);
            }
        }
        for (size_t m = 0; m < plan.marks.size(); ++m) {
            if (cell.markFiles[m].empty()) {
                const std::string problem = "cell " + quoteForMessage(cellName, 60) +
                                            " has no file for mark " +
                                            quoteForMessage(plan.marks[m], 60);
                if (!options.allowMissingMarks) {
                    throw InputError(tablePath, 0,
                                     problem + "; ChromHMM would write 2 (missing) in that "
                                               "column: pass --allow-missing-marks to do the same");
                }
                warnings.push_back(problem + ": written as 2 (missing)");
            }
        }
        cell.hasControl = !distinctControls.empty();
        if (cell.hasControl) {
            auto ids = [&](const std::vector<std::string>& names) {
                std::vector<int> out;
                for (const auto& name : names) {
                    out.push_back(inputId(plan, (controlFolder / name).string(), true));
                }
                return out;
            };
            if (distinctControls.size() == 1 && !lineWithoutControl) {
                cell.controlFiles.push_back(ids({*distinctControls.begin()}));
            } else {
                for (const auto& mark : plan.marks) {
                    const auto at = controlsByMark.find(mark);
                    cell.controlFiles.push_back(at == controlsByMark.end() ? std::vector<int>{}
                                                                           : ids(at->second));
                }
            }
        }
        plan.cells.push_back(std::move(cell));
    }
    plan.format = options.format;
    for (size_t i = 0; i < plan.inputPaths.size(); ++i) {
        if (options.format != BinarizeFormat::Auto) {
            break;
        }
        const BinarizeFormat guessed = formatFromFileName(plan.inputPaths[i]);
        if (guessed == BinarizeFormat::Auto) {
            throw InputError(plan.inputPaths[i], 0,
                             "cannot tell the format from the name (.bam/.sam/.cram, .bed[.gz], "
                             "*Peak[.gz]): give --format");
        }
        if (plan.format != BinarizeFormat::Auto && guessed != plan.format) {
            throw InputError(plan.inputPaths[i], 0,
                             "its format differs from " + plan.inputPaths[0] +
                                 "'s: all inputs must be one format (or give --format)");
        }
        plan.format = guessed;
    }
    return plan;
}

/// Genome-wide thresholds of one cell (ChromHMM's determineMarkThresholds…).
void computeThresholds(CellPlan& cell, const Plan& plan, const std::vector<FileCounts>& inputs,
                       const BinarizeOptions& options) {
    const size_t numChroms = plan.genome.chromosomes.size();
    const size_t numMarks = plan.marks.size();
    cell.present.assign(numChroms, 0);
    cell.controlPresent.assign(numChroms, 0);
    for (size_t c = 0; c < numChroms; ++c) {
        for (const auto& files : cell.markFiles) {
            for (int id : files) {
                cell.present[c] |= inputs[static_cast<size_t>(id)].present[c];
            }
        }
        for (const auto& files : cell.controlFiles) {
            for (int id : files) {
                cell.controlPresent[c] |= inputs[static_cast<size_t>(id)].present[c];
            }
        }
    }
    if (plan.format == BinarizeFormat::Peaks) {
        return;
    }
    std::vector<std::int64_t> markTotals(numMarks, 0);
    std::int64_t totalBins = 0;
    for (size_t c = 0; c < numChroms; ++c) {
        if (!cell.writes(c)) {
            continue;
        }
        totalBins += plan.genome.numBins[c];
        for (size_t m = 0; m < numMarks; ++m) {
            if (cell.markFiles[m].empty()) {
                markTotals[m] -= plan.genome.numBins[c]; // ChromHMM fills a missing mark with -1
            }
            for (int id : cell.markFiles[m]) {
                markTotals[m] += inputs[static_cast<size_t>(id)].totals[c];
            }
        }
    }
    if (!cell.hasControl) {
        for (size_t m = 0; m < numMarks; ++m) {
            // ChromHMM keeps the number of bins in a Java int.
            const double lambda = static_cast<double>(markTotals[m]) /
                                  static_cast<double>(static_cast<std::int32_t>(totalBins));
            cell.uniformThresholds.push_back(callThreshold(lambda, options));
        }
        return;
    }
    const size_t numColumns = cell.controlFiles.size();
    std::vector<std::int64_t> controlTotals(numColumns, 0);
    std::vector<std::vector<char>> seen(numColumns);
    std::vector<std::int32_t> counts;
    std::vector<std::int32_t> sums;
    for (size_t c = 0; c < numChroms; ++c) {
        if (!cell.writes(c)) {
            continue;
        }
        counts.assign(static_cast<size_t>(plan.genome.numBins[c]), 0);
        for (size_t k = 0; k < numColumns; ++k) {
            loadColumn(inputs, cell.controlFiles[k], static_cast<int>(c), counts);
            windowSums(counts, options.pseudocount, options.flankWidth, sums);
            for (std::int32_t value : sums) {
                controlTotals[k] += value;
                if (static_cast<size_t>(value) >= seen[k].size()) {
                    seen[k].resize(static_cast<size_t>(value) + 1, 0);
                }
                seen[k][static_cast<size_t>(value)] = 1;
            }
        }
    }
    for (size_t m = 0; m < numMarks; ++m) {
        const size_t k = static_cast<size_t>(cell.controlColumn(m));
        const double ratio =
            static_cast<double>(markTotals[m]) / static_cast<double>(controlTotals[k]);
        std::vector<int> thresholds(std::max<size_t>(seen[k].size(), 1), 0);
        thresholds[0] = std::max(javaInt(std::ceil(options.signalThreshold)), 1);
        for (size_t value = 1; value < seen[k].size(); ++value) {
            if (seen[k][value]) {
                thresholds[value] = callThreshold(ratio * static_cast<double>(value), options);
            }
        }
        cell.controlThresholds.push_back(std::move(thresholds));
    }
}

/// The text of CELL_CHROM_binary.txt.
std::string binaryText(const CellPlan& cell, const Plan& plan,
                       const std::vector<FileCounts>& inputs, int chrom,
                       const BinarizeOptions& options) {
    const size_t numBins = static_cast<size_t>(plan.genome.numBins[static_cast<size_t>(chrom)]);
    const size_t numMarks = plan.marks.size();
    std::vector<std::vector<std::int32_t>> marks(numMarks, std::vector<std::int32_t>(numBins, 0));
    for (size_t m = 0; m < numMarks; ++m) {
        loadColumn(inputs, cell.markFiles[m], chrom, marks[m]);
    }
    std::vector<std::vector<std::int32_t>> backgrounds(cell.controlFiles.size());
    std::vector<std::int32_t> counts(numBins, 0);
    for (size_t k = 0; k < cell.controlFiles.size(); ++k) {
        loadColumn(inputs, cell.controlFiles[k], chrom, counts);
        windowSums(counts, options.pseudocount, options.flankWidth, backgrounds[k]);
    }
    std::string text =
        cell.name + "\t" + plan.genome.chromosomes[static_cast<size_t>(chrom)].name + "\n";
    for (size_t m = 0; m < numMarks; ++m) {
        text += plan.marks[m] + (m + 1 < numMarks ? "\t" : "\n");
    }
    const size_t header = text.size();
    text.resize(header + numBins * numMarks * 2);
    char* out = text.data() + header;
    const bool peaks = plan.format == BinarizeFormat::Peaks;
    for (size_t bin = 0; bin < numBins; ++bin) {
        for (size_t m = 0; m < numMarks; ++m) {
            char value = '0';
            const std::int32_t count = marks[m][bin];
            if (cell.markFiles[m].empty()) {
                value = '2';
            } else if (peaks) {
                value = count >= 1 ? '1' : '0';
            } else if (cell.hasControl) {
                const auto& background = backgrounds[static_cast<size_t>(cell.controlColumn(m))];
                value = cell.controlThresholds[m][static_cast<size_t>(background[bin])] <= count
                            ? '1'
                            : '0';
            } else {
                value = cell.uniformThresholds[m] <= count ? '1' : '0';
            }
            *out++ = value;
            *out++ = m + 1 < numMarks ? '\t' : '\n';
        }
    }
    return text;
}

void diagnoseNames(const Plan& plan, const std::vector<FileCounts>& inputs,
                   const std::string& chromSizesPath, std::vector<std::string>& warnings) {
    for (const auto& input : inputs) {
        if (input.unknownContigs.empty()) {
            continue;
        }
        const std::string mapping = suggestMapping(input.unknownContigs, plan.genome);
        const std::string theirs =
            "its chromosomes are named like " + chromNamesHint(input.unknownContigs) + ", " +
            chromSizesPath + "'s like " + chromNamesHint({plan.genome.chromosomes.front().name});
        if (input.summary.counted == 0 && !mapping.empty()) {
            throw InputError(input.summary.path, 0,
                             "no read is on a chromosome of " + chromSizesPath + ": " + theirs +
                                 ". Rename to match (" + mapping +
                                 ", …), e.g. in the sizes file or with samtools reheader");
        }
        if (!mapping.empty()) {
            warnings.push_back(input.summary.path + ": " +
                               std::to_string(input.summary.otherContig) +
                               " reads on chromosomes missing from the sizes file that would "
                               "match with another chr prefix (" +
                               mapping + ")");
        }
    }
    for (const auto& input : inputs) {
        if (input.summary.counted == 0) {
            warnings.push_back(input.summary.path + ": no read fell into a bin of " +
                               chromSizesPath + " (ChromHMM warns and writes 0s)");
        }
    }
}

} // namespace

BinarizeResult binarize(const std::string& chromSizesPath, const std::string& inputDir,
                        const std::string& cellMarkTablePath, const std::string& controlDir,
                        const std::string& outDir, const BinarizeOptions& options,
                        const CancelToken& cancel, const ProgressFn& progress) {
    Stopwatch watch;
    checkOptions(options);
    BinarizeResult result;
    Plan plan =
        makePlan(chromSizesPath, inputDir, cellMarkTablePath, controlDir, options, result.warnings);
    BinarizeOptions effective = options;
    effective.format = plan.format;
    checkOptions(effective);
    result.marks = plan.marks;

    std::mutex progressMutex;
    size_t done = 0;
    const size_t numInputs = plan.inputPaths.size();
    auto report = [&](double weight, size_t total, const char* phase) {
        if (!progress) {
            return;
        }
        std::lock_guard<std::mutex> lock(progressMutex);
        ++done;
        progress(weight * static_cast<double>(done) / static_cast<double>(total), phase);
    };

    // Pass 1: every input file once (files in parallel), counts spilled per chromosome.
    binarize_detail::SpillFolder spill(options.tempDir);
    std::vector<FileCounts> inputs(numInputs);
    parallelFor(static_cast<std::int64_t>(numInputs), [&](std::int64_t i) {
        const auto index = static_cast<size_t>(i);
        throwIfCancelled(cancel);
        binarize_detail::countFile(plan.inputPaths[index], plan.format, effective, plan.genome,
                                   spill.path() / ("input" + std::to_string(i)), inputs[index],
                                   cancel);
        inputs[index].summary.isControl = plan.inputIsControl[index];
        report(0.7, numInputs, "reading reads");
    });
    diagnoseNames(plan, inputs, chromSizesPath, result.warnings);
    for (const auto& input : inputs) {
        result.inputs.push_back(input.summary);
    }

    for (auto& cell : plan.cells) {
        throwIfCancelled(cancel);
        computeThresholds(cell, plan, inputs, effective);
    }

    // Pass 2: one (cell, chromosome) at a time per thread; each file is written atomically.
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error || !std::filesystem::is_directory(outDir)) {
        throw InputError(outDir, 0, "cannot create output folder: " + error.message());
    }
    std::vector<std::pair<size_t, int>> jobs;
    for (size_t cell = 0; cell < plan.cells.size(); ++cell) {
        for (size_t c = 0; c < plan.genome.chromosomes.size(); ++c) {
            if (plan.cells[cell].writes(c)) {
                jobs.emplace_back(cell, static_cast<int>(c));
            } else if (plan.cells[cell].present[c]) {
                result.warnings.push_back("cell " + plan.cells[cell].name + " has reads on " +
                                          plan.genome.chromosomes[c].name +
                                          " but its controls have none: no file (as ChromHMM)");
            }
        }
    }
    result.files.resize(jobs.size());
    done = 0;
    parallelFor(static_cast<std::int64_t>(jobs.size()), [&](std::int64_t j) {
        throwIfCancelled(cancel);
        const auto [cellIndex, chrom] = jobs[static_cast<size_t>(j)];
        const CellPlan& cell = plan.cells[cellIndex];
        const std::string& chromName = plan.genome.chromosomes[static_cast<size_t>(chrom)].name;
        const std::filesystem::path target =
            std::filesystem::path(outDir) /
            (cell.name + "_" + chromName + "_binary.txt" + (options.gzip ? ".gz" : ""));
        const std::string text = binaryText(cell, plan, inputs, chrom, effective);
        writeFileAtomically(target, options.gzip ? gzipBytes(text, target.string()) : text);
        result.files[static_cast<size_t>(j)] = {target.string(), cell.name, chromName,
                                                plan.genome.numBins[static_cast<size_t>(chrom)]};
        if (progress) {
            std::lock_guard<std::mutex> lock(progressMutex);
            ++done;
            progress(0.7 + 0.3 * static_cast<double>(done) / static_cast<double>(jobs.size()),
                     "writing binarized files");
        }
    });
    result.seconds = watch.elapsedMs() / 1000.0;
    return result;
}

} // namespace cx
