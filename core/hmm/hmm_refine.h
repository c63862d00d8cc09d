#pragma once

// Likelihood refinement of a spectral HMM: the standard spectral-then-EM pipeline (Hsu, Kakade
// & Zhang 2012 for HMMs; Zhang et al. 2014 for crowds) — the method-of-moments estimate is
// the start, Baum–Welch rounds climb the likelihood from there. Only the γ = 0 model has a
// likelihood (γ > 0 is a contrast of moments, no distribution), so only it can be refined.

#include "core/common/cancel.h"
#include "core/hmm/baum_welch.h"
#include "core/hmm/hmm_model.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace cx {

/// The stopping rule of the refinement, fixed in advance (not tuned to any data set): the
/// convergence rule of the Baum–Welch baseline it is compared with (`hmm --method em`,
/// BaumWelchOptions defaults) — stop when a round's relative log-likelihood gain is below
/// 1e-5, at most 1000 rounds.
inline constexpr double kRefineTolerance = 1e-5;
inline constexpr int kRefineMaxRounds = 1000;

struct RefinedHmm {
    HmmParameters hmm;                 ///< the refined HMM (same states, same order as the start)
    Eigen::MatrixXd markProbabilities; ///< states × marks
    Eigen::VectorXd
        occupancy; ///< stationary distribution of hmm.transitions (stationaryDistribution)
    /// log P(data) of the smoothed start (round 0) and of the refined model, and per round.
    std::vector<double> logLikelihoods;
    std::int64_t bins = 0;  ///< bins of the sequences the likelihood is over
    int rounds = 0;         ///< Baum–Welch rounds run
    bool converged = false; ///< stopped by the tolerance (not the cap)
    double elapsedMs = 0;

    double startLogLikelihood() const {
        return logLikelihoods.empty() ? 0 : logLikelihoods.front();
    }
    double logLikelihood() const { return logLikelihoods.empty() ? 0 : logLikelihoods.back(); }
    double logLikelihoodPerBin() const {
        return bins > 0 ? logLikelihood() / static_cast<double>(bins) : 0;
    }
};

/// Baum–Welch from `start` (made a valid EM start by smoothedForEm) over `sequences`, at most
/// `maxRounds` rounds, stopping when a round's relative log-likelihood gain is below
/// `tolerance` (0 = exactly maxRounds). \pre start valid for data, maxRounds ≥ 1, tolerance in [0,
/// 1]. Polls `cancel` every round (throws cx::Cancelled); `progress` gets (round, maxRounds).
RefinedHmm refineWithBaumWelch(const ChromatinData& data, const std::vector<BinRun>& sequences,
                               const HmmParameters& start, int maxRounds = kRefineMaxRounds,
                               double tolerance = kRefineTolerance, const CancelToken& cancel = {},
                               const ProgressFn& progress = {});

} // namespace cx
