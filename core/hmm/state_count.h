#pragma once

// How many states: fit the foreground-only (γ = 0) HMM for every K of a
// range on half of the bins and judge each K on the other half — its log-likelihood, its
// held-out mark-moment residual and how well it matches the states of the largest model
// (ChromHMM's CompareModels) — and suggest K by a rule fixed in advance. `contrast-cli hmm
// --k-range A:B` and the Chromatin workspace's "How many states" chart show the same numbers.

#include "core/common/cancel.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/hmm_refine.h"
#include "core/hmm/moment_refit.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <Eigen/Dense>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace cx {

struct StateCountOptions {
    int minStates = 2;
    int maxStates = 8;
    /// The γ = 0 solve of every K (numComponents and seed are set per fit: K, options' seed).
    ContrastiveHmmOptions solve;
    SequenceMomentOptions moments;
    /// Baum–Welch rounds refining each spectral fit on the training bins (0: none), stopping
    /// at `refineTolerance` (the `hmm` defaults refine: kRefineMaxRounds, kRefineTolerance).
    int refineRounds = 0;
    double refineTolerance = kRefineTolerance;
    /// The held-out split: every track is cut into blocks of this many bins, even blocks train,
    /// odd blocks are held out (blocks keep the chain's neighbours together).
    std::int64_t blockBins = 1000;
};

/// One K of the range.
struct StateCountFit {
    int numStates = 0;
    /// log P(training bins) of the fitted model (forward algorithm over the training blocks).
    double logLikelihood = std::numeric_limits<double>::quiet_NaN();
    double logLikelihoodPerBin = std::numeric_limits<double>::quiet_NaN();
    /// cx::markMomentResidual of the model (stationary weights, per-mark probabilities) against
    /// the first and second mark moments of the held-out bins.
    double heldOutResidual = std::numeric_limits<double>::quiet_NaN();
    Eigen::VectorXd weights;           ///< stationary distribution of the fitted transitions
    Eigen::MatrixXd markProbabilities; ///< K × marks
    /// Per state of the largest fitted model: its best correlation with a state of this model
    /// (compareModels(largest, this)); 1 everywhere for the largest model itself.
    Eigen::VectorXd largestMatch;
    std::string problem; ///< why this K was not fitted (empty: fitted)

    bool isFitted() const { return problem.empty(); }
};

struct StateCountResult {
    std::vector<StateCountFit> fits; ///< one per K, ascending
    /// Sampling noise of the held-out residual, √(T·(1/N_train + 1/N_held)) with T the number
    /// of moment terms (M means + M(M−1)/2 pairs): the residual of the true model is about this.
    double noiseLevel = 0;
    /// suggestStateCount over the fitted K (0 when none was fitted).
    int suggestedStates = 0;
    int largestStates = 0; ///< the K compareModels compares against
    std::int64_t trainingBins = 0;
    std::int64_t heldOutBins = 0;
};

/// ChromHMM CompareModels: for every state (row) of `reference`, the largest Pearson
/// correlation of its emission vector with a row of `other` (both states × marks, same marks).
/// A constant row correlates with nothing (0). \throws std::invalid_argument when the mark
/// counts differ.
Eigen::VectorXd compareModels(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& other);

/// The rule: the smallest K whose held-out residual is within `noiseLevel` of the smallest
/// residual of the range — more states that do not lower the residual beyond its sampling
/// noise are not suggested. NaN residuals (K not fitted) are skipped; 0 when all are NaN.
/// \pre numStates.size() == residuals.size().
int suggestStateCount(const std::vector<int>& numStates, const std::vector<double>& residuals,
                      double noiseLevel);

/// First and second mark moments (E[x_i], E[x_i x_j]) over the bins of `data` whose flag in
/// `classes` carries `flag`, bins with a missing mark skipped; total 1, effectiveBins = bins.
MarkMomentTargets binMarkMoments(const ChromatinData& data, const BinClasses& classes,
                                 std::uint8_t flag);

/// Fits K = minStates … maxStates (γ = 0, MarkVector encoding) on the training blocks and
/// judges each on the held-out ones (see StateCountFit); a K above the moment rank (marks + 1)
/// or whose solve fails carries its problem instead. \throws std::invalid_argument for a bad
/// range, cx::InputError when the split leaves no training or held-out bins. Polls `cancel`;
/// `progress` gets the fraction of the K done.
StateCountResult chooseStateCount(const ChromatinData& data, const StateCountOptions& options,
                                  const CancelToken& cancel = {}, const ProgressFn& progress = {});

} // namespace cx
