#pragma once

#include "core/common/cancel.h"
#include "core/hmm/hmm_model.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <Eigen/Dense>

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

namespace cx {

/// Expected sufficient statistics of one or more sequences under an HMM (the E-step of
/// Baum–Welch): Σ_seq log P(x), Σ_seq P(h_1 = k | x), Σ_t P(h_t = i, h_{t+1} = j | x) and the
/// posterior mass Σ_{t: x_t = p} P(h_t = k | x) aggregated per distinct pattern p.
struct HmmSufficientStats {
    double logLikelihood = 0;
    std::int64_t numSequences = 0;
    Eigen::VectorXd start;             ///< K
    Eigen::MatrixXd transitions;       ///< K × K expected transition counts
    Eigen::MatrixXd patternPosteriors; ///< K × P

    void reset(int numStates, int numPatterns);
    void add(const HmmSufficientStats& other);
};

/// Scaled forward–backward (Rabiner) on one sequence of symbols (pattern ids).
///
/// α̂_t = normalised (α̂_{t−1}ᵀA) ∘ b(x_t) with scale c_t, log P(x) = Σ_t log c_t;
/// β̂_t = A (b(x_{t+1}) ∘ β̂_{t+1}) / c_{t+1}; posteriors γ_t = α̂_t ∘ β̂_t and pair posteriors
/// ξ_t(i, j) = α̂_t(i) A(i, j) b_j(x_{t+1}) β̂_{t+1}(j) / c_{t+1}.
/// `table` is K × P with table(k, p) = P(symbol p | state k) (see emissionLikelihoods). Every
/// output pointer may be null: `stats` accumulates (adds to) sufficient statistics, `argmax`
/// (length L) receives the posterior-decoded state of each position, `posteriors` (resized to
/// K × L) the posterior matrix. `workspace` is reused scratch memory.
/// \pre symbols non-empty and < table.cols(). Cost O(L·K²) time, O(L·K) memory.
/// Returns log P(x_1..L).
double forwardBackward(const Eigen::VectorXd& start, const Eigen::MatrixXd& transitions,
                       const Eigen::MatrixXd& table, std::span<const std::uint32_t> symbols,
                       std::vector<double>& workspace, HmmSufficientStats* stats = nullptr,
                       std::uint16_t* argmax = nullptr, Eigen::MatrixXd* posteriors = nullptr);

/// log P(x_1..L) by the scaled forward pass only. Cost O(L·K²), O(K) memory.
double forwardLogLikelihood(const Eigen::VectorXd& start, const Eigen::MatrixXd& transitions,
                            const Eigen::MatrixXd& table, std::span<const std::uint32_t> symbols);

/// Viterbi in log space: the most probable state path (written to `path`, length L) and its
/// log joint probability log P(x, path). Ties go to the lowest state index.
/// Cost O(L·K²) time, O(L·K) memory (2-byte back-pointers).
double viterbi(const Eigen::VectorXd& start, const Eigen::MatrixXd& transitions,
               const Eigen::MatrixXd& table, std::span<const std::uint32_t> symbols,
               std::vector<std::uint16_t>& path);

/// Total log-likelihood Σ_runs log P(run) of `runs` of `data` under `hmm` (runs in parallel,
/// summed in run order: identical for any thread count).
double logLikelihood(const ChromatinData& data, const std::vector<BinRun>& runs,
                     const HmmParameters& hmm, const CancelToken& cancel = {});

enum class DecodingMethod {
    Posterior, ///< argmax_k P(h_t = k | whole track)
    Viterbi,   ///< most probable joint path
};
const char* toString(DecodingMethod method);

/// A state for every bin of every track; each track is decoded as one sequence.
struct Segmentation {
    DecodingMethod method = DecodingMethod::Posterior;
    int numStates = 0;
    std::vector<std::vector<std::uint16_t>> states; ///< per track, per bin (0-based state)
    double logLikelihood = 0; ///< Σ over tracks of log P(track) (forward algorithm)
};

/// Decodes every bin of every track with `hmm`. Tracks run in parallel. \pre hmm valid for
/// data (emissionLikelihoods' preconditions), K ≤ 65535. Polls `cancel` between tracks.
Segmentation segmentTracks(const ChromatinData& data, const HmmParameters& hmm,
                           DecodingMethod method, const CancelToken& cancel = {});

/// Fixed, distinguishable palette for state k (0-based), as "R,G,B" (BED itemRgb). Cycles
/// after 20 states.
std::string stateColor(int state);

/// Default state labels E1…EK (ChromHMM's convention).
std::vector<std::string> defaultStateLabels(int numStates);

/// State labels E1…EK with state s labelled `names[s]` where a name is given — tabs and line
/// breaks as blanks, so that the label stays one field of a TSV or BED line (what `hmm`/`tree
/// --state-labels names` and the Tree workspace's export write).
std::vector<std::string> namedStateLabels(const std::vector<std::string>& names, int numStates);

/// Writes the segmentation as BED9 (chrom, start, end, label, 0, ., start, end, itemRgb), one
/// line per maximal run of equal states, tracks in order. With `trackLines`, each cell type
/// gets one `track name="CELL" itemRgb="On"` line (UCSC custom-track format) before all of its
/// tracks, so several cell types can share one file.
void writeSegmentationBed9(std::ostream& out, const ChromatinData& data,
                           const Segmentation& segmentation,
                           const std::vector<std::string>& stateLabels, bool trackLines,
                           int onlyTrack = -1);

/// Writes the segmentation as BED9 for a genome browser: one UCSC track line per sample
/// (cell type), `track name="CELL" description="CELL DESCRIPTION" itemRgb="On"`, followed by the
/// runs of all of that cell's tracks (chromosomes), cells in order of first appearance. With
/// `onlyCell`, only that cell. `colours[s]` ("R,G,B") colours state s (nameStates' colours,
/// what the views draw); empty: stateColor's palette. \throws std::invalid_argument as
/// writeSegmentationBed9, or when `colours` is given but shorter than the states.
void writeSampleTracksBed9(std::ostream& out, const ChromatinData& data,
                           const Segmentation& segmentation,
                           const std::vector<std::string>& stateLabels,
                           const std::string& description, const std::string& onlyCell = {},
                           const std::vector<std::string>& colours = {});

/// An IGV batch script (`new`, `load FILE` for each file, `goto LOCUS`), one command a line.
/// Paths are written as given; IGV resolves relative ones against its working folder, so pass
/// absolute paths for a script that runs from anywhere.
std::string igvBatchScript(const std::vector<std::string>& files, const std::string& locus);

} // namespace cx
