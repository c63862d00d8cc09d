#pragma once

#include "core/common/cancel.h"
#include "core/common/status.h"
#include "core/hmm/hmm_model.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <cstdint>
#include <vector>

namespace cx {

struct BaumWelchOptions {
    int maxIterations = 1000;
    /// Converged when the relative log-likelihood gain (LL_i − LL_{i−1}) / |LL_{i−1}| falls
    /// below this (1e-5 ≈ ChromHMM's default absolute 0.001 on its per-bin-averaged scale is
    /// much stricter; see the report). 0 = run exactly maxIterations.
    double tolerance = 1e-5;
};

struct BaumWelchResult {
    HmmParameters hmm; ///< the last model whose log-likelihood was evaluated
    /// logLikelihoods[i] = log P(data | θ_i) for θ_0 = initial, θ_1, … (non-decreasing up to
    /// rounding, by the EM inequality); the last entry is hmm's.
    std::vector<double> logLikelihoods;
    int iterations = 0;                  ///< M-steps performed
    Status status = Status::NotComputed; ///< Successful = converged, NotConverged = hit max
    double elapsedMs = 0;

    double finalLogLikelihood() const { return logLikelihoods.empty() ? 0 : logLikelihoods.back(); }
};

/// Baum–Welch EM for the HMM over `sequences` (runs of bins, each an independent sequence).
///
/// E-step: scaled forward–backward (forwardBackward) per sequence with the per-pattern emission
/// table (only the distinct patterns are evaluated, not every bin), sequences spread over
/// kReductionSlots fixed slots and reduced in slot order — identical results for any thread
/// count. M-step: start = mean first-bin posterior; transitions = normalised expected counts;
/// MarkVector emissions e_km = Σ_t γ_t(k)[x_tm = 1] / Σ_t γ_t(k)[x_tm observed] (missing marks
/// skipped), clamped to [kProbabilityFloor, 1 − kProbabilityFloor]; MarkCombination emissions =
/// normalised expected pattern counts. Rows without mass keep their previous values.
/// Cost per iteration O(bins·K² + P·K·M); memory O(longest sequence · K) per active slot.
/// \pre initial valid for data; sequences inside their tracks. Polls `cancel` each iteration.
BaumWelchResult baumWelch(const ChromatinData& data, const std::vector<BinRun>& sequences,
                          const HmmParameters& initial, const BaumWelchOptions& options = {},
                          const CancelToken& cancel = {}, const ProgressFn& progress = {});

/// A random starting point for EM: uniform start, transition rows and MarkVector emissions drawn
/// uniformly in (0, 1) (rows normalised); MarkCombination emissions random on the simplex over
/// the data's patterns without missing marks. Deterministic in `seed`.
HmmParameters randomHmm(int numStates, const ChromatinData& data, ObservationEncoding encoding,
                        std::uint64_t seed);

/// Makes an estimate (e.g. spectral, with exact zeros after simplex rounding) a valid EM start:
/// start and transition rows are mixed (1 − ε)·p + ε/K, emissions clamped to [ε, 1 − ε]
/// (MarkVector) or mixed with the uniform distribution over non-missing patterns.
HmmParameters smoothedForEm(const HmmParameters& hmm, const ChromatinData& data,
                            double epsilon = 1e-3);

} // namespace cx
