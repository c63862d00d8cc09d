#include "core/tree/promoter_evaluation.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/io/bed.h"
#include "core/io/text_input.h"
#include "core/io/tokenizer.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string_view>

namespace cx {

namespace {

std::vector<std::string_view> splitFields(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == '\t' || line[i] == ' ')) {
            ++i;
        }
        const size_t begin = i;
        while (i < line.size() && line[i] != '\t' && line[i] != ' ') {
            ++i;
        }
        if (i > begin) {
            out.push_back(line.substr(begin, i - begin));
        }
    }
    return out;
}

void markInterval(TssTruth& truth, size_t chrom, std::int64_t begin, std::int64_t end,
                  int binSize) {
    auto& bins = truth.bins[chrom];
    if (bins.empty() || end <= 0) {
        return;
    }
    const std::int64_t first = std::max<std::int64_t>(0, begin) / binSize;
    const std::int64_t last =
        std::min<std::int64_t>(static_cast<std::int64_t>(bins.size()) - 1, (end - 1) / binSize);
    for (std::int64_t b = first; b <= last; ++b) {
        bins[static_cast<size_t>(b)] = 1;
    }
}

bool isAnchorFile(const std::string& path) {
    LineReader reader(path);
    std::string_view line;
    while (reader.next(line)) {
        const auto f = splitFields(line);
        if (f.empty() || f[0][0] == '#' || f[0] == "track" || f[0] == "browser") {
            continue;
        }
        return f.size() == 3 && (f[2] == "+" || f[2] == "-" || f[2] == ".");
    }
    return false;
}

} // namespace

TssTruth readTssTruth(const std::string& path, const std::vector<std::string>& chroms,
                      const std::vector<std::int64_t>& chromBins, int binSize, std::int64_t flank) {
    TssTruth truth;
    truth.source = path;
    truth.bins.resize(chroms.size());
    for (size_t c = 0; c < chroms.size(); ++c) {
        truth.bins[c].assign(static_cast<size_t>(chromBins[c]), 0);
    }
    auto chromIndex = [&](std::string_view name) {
        const auto it = std::find(chroms.begin(), chroms.end(), name);
        return it == chroms.end() ? -1 : static_cast<int>(it - chroms.begin());
    };
    if (isAnchorFile(path)) {
        LineReader reader(path);
        std::string_view line;
        while (reader.next(line)) {
            const auto f = splitFields(line);
            if (f.empty() || f[0][0] == '#') {
                continue;
            }
            if (f.size() < 2) {
                throw InputError(path, reader.lineNumber(),
                                 "expected 'chrom position strand', found one column");
            }
            std::int64_t pos = 0;
            const auto [ptr, ec] = std::from_chars(f[1].data(), f[1].data() + f[1].size(), pos);
            if (ec != std::errc() || ptr != f[1].data() + f[1].size() || pos < 0) {
                throw InputError(path, reader.lineNumber(),
                                 "column 2 (position) '" + std::string(f[1]) +
                                     "' is not a non-negative integer");
            }
            const int c = chromIndex(f[0]);
            if (c < 0) {
                continue;
            }
            ++truth.sites;
            markInterval(truth, static_cast<size_t>(c), pos - flank, pos + flank + 1, binSize);
        }
    } else {
        BedRegions regions;
        appendBedFile(regions, path);
        for (const auto& [chrom, intervals] : regions.byChrom) {
            const int c = chromIndex(chrom);
            if (c < 0) {
                continue;
            }
            for (const BedInterval& interval : intervals) {
                ++truth.sites;
                markInterval(truth, static_cast<size_t>(c), interval.start - flank,
                             interval.end + flank, binSize);
            }
        }
    }
    if (truth.sites == 0) {
        throw InputError(path, 0, "no TSS on the tracks' chromosomes");
    }
    for (const auto& bins : truth.bins) {
        truth.positives += std::count(bins.begin(), bins.end(), std::uint8_t{1});
    }
    return truth;
}

namespace {

/// Fold enrichment of every state in TSS bins (fraction of its bins that are TSS bins / overall
/// fraction); −1 for a state without bins (or no bin / no TSS bin at all).
std::vector<double> tssFoldEnrichment(const std::vector<std::vector<std::uint16_t>>& states,
                                      const TssTruth& truth, int numStates) {
    std::vector<std::int64_t> total(static_cast<size_t>(numStates), 0), hits(total);
    std::int64_t all = 0, allHits = 0;
    for (size_t c = 0; c < states.size() && c < truth.bins.size(); ++c) {
        for (size_t t = 0; t < states[c].size() && t < truth.bins[c].size(); ++t) {
            const auto s = static_cast<size_t>(states[c][t]);
            if (s < total.size()) {
                ++total[s];
                hits[s] += truth.bins[c][t];
                ++all;
                allHits += truth.bins[c][t];
            }
        }
    }
    std::vector<double> fold(static_cast<size_t>(numStates), -1.0);
    for (size_t s = 0; s < fold.size(); ++s) {
        if (total[s] == 0 || all == 0 || allHits == 0) {
            continue;
        }
        fold[s] = (static_cast<double>(hits[s]) / static_cast<double>(total[s])) /
                  (static_cast<double>(allHits) / static_cast<double>(all));
    }
    return fold;
}

/// The state of largest fold among those `allowed` (first on ties); −1 if none has bins.
int mostEnriched(const std::vector<double>& fold, const std::vector<bool>& allowed) {
    int best = -1;
    for (size_t s = 0; s < fold.size(); ++s) {
        if (allowed[s] && fold[s] >= 0 && (best < 0 || fold[s] > fold[static_cast<size_t>(best)])) {
            best = static_cast<int>(s);
        }
    }
    return best;
}

/// Columns of `markNames` that are among rule.marks (ASCII case-insensitive).
std::vector<Eigen::Index> promoterMarkColumns(const std::vector<std::string>& markNames,
                                              const PromoterRule& rule) {
    std::vector<Eigen::Index> columns;
    for (size_t j = 0; j < markNames.size(); ++j) {
        for (const std::string& mark : rule.marks) {
            if (toLowerAscii(markNames[j]) == toLowerAscii(mark)) {
                columns.push_back(static_cast<Eigen::Index>(j));
                break;
            }
        }
    }
    return columns;
}

} // namespace

int promoterStateByEnrichment(const std::vector<std::vector<std::uint16_t>>& states,
                              const TssTruth& truth, int numStates) {
    const std::vector<double> fold = tssFoldEnrichment(states, truth, numStates);
    return mostEnriched(fold, std::vector<bool>(fold.size(), true));
}

int choosePromoterState(const std::vector<std::vector<std::uint16_t>>& states,
                        const TssTruth& truth, int numStates, const Eigen::MatrixXd& profiles,
                        const std::vector<std::string>& markNames, const PromoterRule& rule) {
    if (profiles.size() > 0 && profiles.cols() != static_cast<Eigen::Index>(markNames.size())) {
        throw std::invalid_argument("choosePromoterState: " + std::to_string(profiles.cols()) +
                                    " profile columns but " + std::to_string(markNames.size()) +
                                    " mark names");
    }
    const std::vector<double> fold = tssFoldEnrichment(states, truth, numStates);
    const std::vector<bool> all(fold.size(), true);
    const std::vector<Eigen::Index> columns = promoterMarkColumns(markNames, rule);
    if (columns.empty() || profiles.rows() < numStates) {
        return mostEnriched(fold, all);
    }
    std::vector<double> level(fold.size(), 0.0);
    double highest = 0;
    for (size_t s = 0; s < fold.size(); ++s) {
        for (Eigen::Index j : columns) {
            level[s] += profiles(static_cast<Eigen::Index>(s), j);
        }
        level[s] /= static_cast<double>(columns.size());
        if (fold[s] >= 0) {
            highest = std::max(highest, level[s]);
        }
    }
    std::vector<bool> candidate(fold.size(), false);
    for (size_t s = 0; s < fold.size(); ++s) {
        candidate[s] = highest > 0 && level[s] >= rule.relativeLevel * highest;
    }
    const int best = mostEnriched(fold, candidate);
    return best >= 0 ? best : mostEnriched(fold, all);
}

PromoterScore scorePromoterState(const std::vector<std::vector<std::uint16_t>>& states,
                                 const TssTruth& truth, int state) {
    PromoterScore score;
    score.state = state;
    for (size_t c = 0; c < states.size() && c < truth.bins.size(); ++c) {
        for (size_t t = 0; t < states[c].size() && t < truth.bins[c].size(); ++t) {
            const bool predicted = states[c][t] == state;
            const bool positive = truth.bins[c][t] != 0;
            score.predicted += predicted;
            score.positives += positive;
            score.truePositives += predicted && positive;
        }
    }
    score.precision = score.predicted > 0 ? static_cast<double>(score.truePositives) /
                                                static_cast<double>(score.predicted)
                                          : 0.0;
    score.recall = score.positives > 0 ? static_cast<double>(score.truePositives) /
                                             static_cast<double>(score.positives)
                                       : 0.0;
    score.f1 = score.precision + score.recall > 0
                   ? 2 * score.precision * score.recall / (score.precision + score.recall)
                   : 0.0;
    return score;
}

std::vector<PromoterF1Row>
scorePromoterCells(const std::vector<std::string>& cells,
                   const std::vector<std::vector<std::vector<std::uint16_t>>>& states,
                   const TssTruth& truth, int numStates, int fixedState, const std::string& method,
                   const std::vector<Eigen::MatrixXd>& profiles,
                   const std::vector<std::string>& markNames, const PromoterRule& rule) {
    const bool byMarks = !promoterMarkColumns(markNames, rule).empty();
    std::vector<PromoterF1Row> rows;
    for (size_t c = 0; c < cells.size() && c < states.size(); ++c) {
        int state = fixedState;
        std::string choice = "named";
        if (fixedState < 0) {
            const bool withProfile =
                byMarks && c < profiles.size() && profiles[c].rows() >= numStates &&
                profiles[c].cols() == static_cast<Eigen::Index>(markNames.size());
            state = withProfile ? choosePromoterState(states[c], truth, numStates, profiles[c],
                                                      markNames, rule)
                                : promoterStateByEnrichment(states[c], truth, numStates);
            choice = withProfile ? "marks+tss" : "tss";
        }
        PromoterF1Row row{method, cells[c], scorePromoterState(states[c], truth, state), choice};
        row.score.state = state;
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string promoterF1Tsv(const std::vector<PromoterF1Row>& rows,
                          const std::vector<std::string>& labels) {
    std::string out = "method\tcell\tstate\tprecision\trecall\tf1\n";
    for (const PromoterF1Row& row : rows) {
        const int state = row.score.state;
        const std::string label = state >= 0 && state < static_cast<int>(labels.size())
                                      ? labels[static_cast<size_t>(state)]
                                      : std::string();
        out += row.method + '\t' + row.cell + '\t' + label + '\t' +
               formatNumber(row.score.precision, 6) + '\t' + formatNumber(row.score.recall, 6) +
               '\t' + formatNumber(row.score.f1, 6) + '\n';
    }
    return out;
}

} // namespace cx
