#pragma once

// What is computed from a decoded segmentation and from a contrastive HMM over a γ grid: runs,
// background-like run labelling, overlap fold enrichment, the state-weight sweep with state
// tracking, and BED9 text. Plain std/Eigen types; the GUI's chromatin workspace and the CLI
// both call these.

#include "core/common/cancel.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/hmm_path.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace cx {

/// A maximal run of bins [begin, end) of one track decoded to one state.
struct StateRun {
    std::int64_t begin = 0;
    std::int64_t end = 0;
    int state = 0; ///< component index of the solution (see DecodedSegmentation)

    bool operator==(const StateRun&) const = default;
};

/// Maximal runs of equal states of every track (per-bin states → runs). Cost O(bins).
std::vector<std::vector<StateRun>> segmentationRuns(const Segmentation& segmentation);

/// A decoded segmentation of every track, as runs (runs are 10–100× smaller than the per-bin
/// vector). States are component indices of the solution: 0 … numSpecific−1 are the
/// foreground-specific HMM's states; numSpecific … numStates−1 label runs that a
/// background-like component explains better (see decodeSegmentation).
struct DecodedSegmentation {
    DecodingMethod method = DecodingMethod::Posterior;
    int numStates = 0;                       ///< all components K
    int numSpecific = 0;                     ///< states of the decoding HMM
    bool backgroundLabelled = false;         ///< decodeSegmentation's labelBackgroundRuns
    std::int64_t backgroundBins = 0;         ///< bins in runs relabelled as background-like
    std::vector<std::vector<StateRun>> runs; ///< per track, in genome order
    std::vector<std::int64_t> stateBins;     ///< bins per state, all tracks
    double logLikelihood = 0;
    double decodeMs = 0;
};

/// Decodes every track with the foreground-specific HMM of `result` (segmentTracks, the same
/// model and decoding as `contrast-cli hmm`) and returns the runs.
///
/// That HMM has no state for what the contrast removed (e.g. quiescent chromatin at γ = 1 with
/// genes as foreground), so it forces such stretches into its nearest specific state. With
/// `labelBackground`, every decoded run r of state a is then tested against the
/// background-like components b (ω_b ≤ 0) by their emission likelihoods over the run's bins,
///   Σ_{t∈r} log P(x_t | b)  >  Σ_{t∈r} log P(x_t | a)  (per-mark Bernoulli, missing marks
///   skipped, probabilities clamped to [1e−6, 1 − 1e−6]),
/// and relabelled with the best such b when one wins (adjacent equal labels merge). Run
/// boundaries stay those of the decoded HMM; no parameter is invented.
/// \pre result.numSpecific > 0. Cost O(bins · K²). Polls `cancel`.
DecodedSegmentation decodeSegmentation(const ChromatinData& data,
                                       const ContrastiveHmmResult& result, DecodingMethod method,
                                       bool labelBackground, const CancelToken& cancel = {});

/// The relabelling step of decodeSegmentation on existing runs. Returns the number of bins
/// relabelled.
std::int64_t labelBackgroundRuns(const ChromatinData& data, const ContrastiveHmmResult& result,
                                 std::vector<std::vector<StateRun>>& runs,
                                 const CancelToken& cancel = {});

/// Overlap fold enrichment of states with annotations, per state: the layout the GUI's
/// heatmaps take (ui/chromatin's EnrichmentTable fills it from core/hmm/enrichment.h, ChromHMM's
/// OverlapEnrichment and NeighborhoodEnrichment — stateSegmentation + overlapEnrichment — the
/// numbers `contrast-cli enrichment` writes).
struct OverlapEnrichment {
    Eigen::MatrixXd overlap; ///< states × annotations, bins
    Eigen::MatrixXd fold;    ///< states × annotations (NaN where a state or annotation is empty)
    std::vector<std::int64_t> stateBins;
    std::vector<std::int64_t> annotationBins;
    std::int64_t totalBins = 0;
};

/// What a decoded segmentation says about each state's contrast: its share of the foreground
/// bins p_f and of the background bins p_b, and p_f − γ·p_b — the quantity the model's weight ω
/// estimates (ω = foreground minus γ × background occupancy). The segmentation of a model that
/// describes the data reproduces ω; the decoding HMM has no state for what the contrast removed,
/// so where the components miss most of the data (e.g. no unmarked state at large γ) it forces
/// those bins into one specific state, whose decoded contrast then turns strongly negative.
struct DecodedContrast {
    std::vector<double> foregroundShare; ///< per state (DecodedSegmentation's indices)
    std::vector<double> backgroundShare; ///< 0 without background bins
    std::vector<double> contrast;        ///< p_f − γ·p_b
    std::vector<double> standardError;   ///< binomial standard error of the contrast
    /// Foreground-specific states (ω > 0) whose decoded contrast lies below −ω by more than
    /// three standard errors: the segmentation puts them in the background at least as much as
    /// the model puts them in the foreground. Empty when the segmentation agrees with the model.
    std::vector<int> contradicted;
};

/// DecodedContrast of `segmentation` (decoded from `result`) over the foreground and background
/// bins of `classes` (the classes the moments were computed on). Cost O(bins).
/// \throws std::invalid_argument when the classes do not cover the segmentation's tracks.
DecodedContrast decodedContrast(const DecodedSegmentation& segmentation, const BinClasses& classes,
                                const ContrastiveHmmResult& result);

/// State weights over a γ grid, with the components tracked from one γ to the next by
/// matchStates (row t of every matrix is the same "track" of states).
struct StateWeightSweep {
    std::vector<double> gammas;
    std::vector<Eigen::VectorXd> weights;  ///< per γ: K weights in track order
    std::vector<Eigen::MatrixXd> profiles; ///< per γ: K × M mark probabilities in track order
    /// per γ: invalid mass of the foreground-specific components (> 0: no valid model there)
    std::vector<double> specificInvalidMass;
    /// The path behind the sweep (solveOnPath continues from it, so a slider shows its solutions).
    std::shared_ptr<const HmmPath> path;
};

/// Solves along `gammas` (ascending) as a path (solveHmmPath, each γ continued from its
/// neighbour's states and checked against fresh starts) and tracks the components from one γ
/// to the next with matchStates, so that row t of every result is the same state followed
/// along γ. Cost: two solves per γ (about a millisecond each for K ≤ 10). Polls `cancel`.
StateWeightSweep sweepStateWeights(const SequenceMoments& moments,
                                   const std::vector<double>& gammas,
                                   const ContrastiveHmmOptions& options,
                                   const CancelToken& cancel = {});

/// Writes runs as BED9 (chrom, start, end, label, 0, ., start, end, itemRgb), one line per run,
/// tracks in order (only `onlyTrack` when ≥ 0; tracks without runs are skipped). `labels[s]` and
/// `colours[s]` ("R,G,B") name and colour state s. `trackLine`, when set, gives the line written
/// once per sample (UCSC `track name=… itemRgb="On"`, without the newline; called with the
/// sample's first track): the tracks are then grouped by cell, cells in order of first
/// appearance, so several cell types share one file as one browser track each. With `onlyCell`,
/// only that cell's tracks. \throws std::invalid_argument when a state has no label or colour.
/// Cost O(runs).
void writeRunsBed9(std::ostream& out, const ChromatinData& data,
                   const std::vector<std::vector<StateRun>>& runs,
                   const std::vector<std::string>& labels, const std::vector<std::string>& colours,
                   const std::function<std::string(const ChromatinTrack&)>& trackLine = {},
                   int onlyTrack = -1, const std::string& onlyCell = {});

} // namespace cx
