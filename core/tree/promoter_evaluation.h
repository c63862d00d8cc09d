#pragma once

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// Bins near transcription start sites, per chromosome of a MultiCellTracks layout.
struct TssTruth {
    std::vector<std::vector<std::uint8_t>> bins; ///< [chrom][bin] = 1 within flank of a TSS
    std::int64_t sites = 0;                      ///< TSS read on the chromosomes of the layout
    std::int64_t positives = 0;                  ///< bins marked
    std::string source;
};

/// Reads TSS from a ChromHMM ANCHORFILES file (`chrom pos strand`, plain or .gz) or a BED file
/// (3+ columns; each interval's bases count as TSS) and marks every bin overlapping
/// [pos − flank, pos + flank] (BED: [start − flank, end + flank)). Rows on other chromosomes
/// are ignored. \throws InputError(file, line, problem) for a malformed row or a file with no
/// TSS on any of `chroms`.
TssTruth readTssTruth(const std::string& path, const std::vector<std::string>& chroms,
                      const std::vector<std::int64_t>& chromBins, int binSize,
                      std::int64_t flank = 1000);

/// Precision, recall and F1 of "state == promoter state" against the TSS bins.
struct PromoterScore {
    int state = -1;
    double precision = 0;
    double recall = 0;
    double f1 = 0;
    std::int64_t predicted = 0;
    std::int64_t truePositives = 0;
    std::int64_t positives = 0;
};

/// The state whose bins are most enriched in TSS bins (fold enrichment = fraction of its bins
/// that are TSS bins / overall fraction); −1 if no state has a bin.
int promoterStateByEnrichment(const std::vector<std::vector<std::uint16_t>>& states,
                              const TssTruth& truth, int numStates);

/// What makes a state promoter-like by its emissions: the active-promoter marks (H3K4me3, the
/// mark ChromHMM's and Roadmap's promoter states are defined by; classifyChromatinState's
/// promoter rules start from it too).
struct PromoterRule {
    std::vector<std::string> marks = {"H3K4me3"}; ///< matched ASCII case-insensitively
    /// A state is a candidate when its mean probability of `marks` is at least this fraction
    /// of the largest such mean over the states.
    double relativeLevel = 0.5;
};

/// The promoter state by emission profile and TSS enrichment together: the candidates are the
/// states whose mean probability of rule.marks (profiles: states × marks, columns named by
/// `markNames`) is at least rule.relativeLevel × the largest over the states that have bins;
/// of them, the one most enriched in TSS bins (as promoterStateByEnrichment). A state that is
/// TSS-enriched but lacks the promoter marks (an enhancer-like or all-marks state covering a few
/// TSS bins) is thus never chosen over one that carries them. Without any of rule.marks among
/// `markNames`, or with fewer profile rows than states, or when no candidate has a bin, it is
/// promoterStateByEnrichment. −1 if no state has a bin.
/// \pre profiles.cols() == markNames.size() when profiles is non-empty.
int choosePromoterState(const std::vector<std::vector<std::uint16_t>>& states,
                        const TssTruth& truth, int numStates, const Eigen::MatrixXd& profiles,
                        const std::vector<std::string>& markNames, const PromoterRule& rule = {});

/// Scores one cell's decoded states ([chrom][bin]) with `state` as the promoter prediction.
PromoterScore scorePromoterState(const std::vector<std::vector<std::uint16_t>>& states,
                                 const TssTruth& truth, int state);

/// One row of the promoter F1 table: one method's score of one cell.
struct PromoterF1Row {
    std::string method; ///< "spectral-tree", "per-cell", "em"
    std::string cell;
    PromoterScore score; ///< score.state: the 0-based state scored as the promoter
    /// How the state was chosen: "named" (fixed by the user), "marks+tss" (choosePromoterState
    /// with the promoter marks) or "tss" (TSS enrichment alone).
    std::string choice;
};

/// Scores every cell (`states[cell][chrom][bin]`, cells named by `cells`): the promoter state is
/// `fixedState` (0-based) when it is ≥ 0, else each cell's choosePromoterState with
/// `profiles[cell]` (states × marks; TSS enrichment alone where `profiles` has no entry for
/// the cell). Rows in cell order, tagged with `method`.
std::vector<PromoterF1Row>
scorePromoterCells(const std::vector<std::string>& cells,
                   const std::vector<std::vector<std::vector<std::uint16_t>>>& states,
                   const TssTruth& truth, int numStates, int fixedState, const std::string& method,
                   const std::vector<Eigen::MatrixXd>& profiles = {},
                   const std::vector<std::string>& markNames = {}, const PromoterRule& rule = {});

/// The promoter F1 table as TSV, what `contrast-cli tree` writes to promoter_f1.tsv and the
/// Tree workspace exports: a header `method cell state precision recall f1`, one line per row,
/// the state by `labels[state]` (empty when out of range), numbers as %.6g.
std::string promoterF1Tsv(const std::vector<PromoterF1Row>& rows,
                          const std::vector<std::string>& labels);

} // namespace cx
