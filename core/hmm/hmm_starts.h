#pragma once

// Several seeded starts of the contrastive spectral HMM, the best kept by a stated criterion.

#include "core/common/cancel.h"
#include "core/common/multi_start.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <vector>

namespace cx {

struct ContrastiveHmmStarts {
    ContrastiveHmmResult best; ///< the kept start's solve
    StartSpread spread;        ///< every start's criterion and the kept one
};

/// solveContrastiveHmm from `starts` seeds (start i: startSeed(options.seed, i), every other
/// option as given) and keeps one:
///  - γ = 0 with `data` and `sequences` given: StartCriterion::LogLikelihood, the highest
///    Σ log P(sequence) of the start's foreground HMM made a valid EM start (smoothedForEm:
///    a clipped 0/1 emission would give −∞);
///  - otherwise (a contrast has no likelihood): StartCriterion::MomentResidual, the lowest
///    ContrastiveHmmResult::momentResidualFinal with the moment refit, else the lowest
///    ContrastiveHmmResult::residual (relative norm of the deflated tensor).
/// Ties keep the earlier start, so `starts` = 1 is exactly solveContrastiveHmm.
/// spread.emissionSpread compares the starts' markProbabilities (all K components).
/// \pre starts ≥ 1 (std::invalid_argument), solveContrastiveHmm's preconditions. Cost: `starts`
/// solves, plus one forward pass over `sequences` per start for the likelihood. Polls `cancel`.
ContrastiveHmmStarts solveContrastiveHmmStarts(const SequenceMoments& moments, double gamma,
                                               const ContrastiveHmmOptions& options, int starts,
                                               const ChromatinData* data = nullptr,
                                               const std::vector<BinRun>* sequences = nullptr,
                                               const CancelToken& cancel = {});

/// The options a γ path starts from, shared by `hmm --gamma-path` and the Chromatin tab so that
/// both show the same solution at every γ: `options` with the seed of the start
/// solveContrastiveHmmStarts keeps at γ = 0 (by likelihood over `sequences`), so
/// solveContrastiveHmm(moments, 0, result) is that kept start's solve and `hmm --gamma 0` with
/// the same seed and starts gives it too.
/// \pre as solveContrastiveHmmStarts. Cost: `starts` solves and likelihood passes.
ContrastiveHmmOptions keptStartOptions(const SequenceMoments& moments,
                                       const ContrastiveHmmOptions& options, int starts,
                                       const ChromatinData& data,
                                       const std::vector<BinRun>& sequences,
                                       const CancelToken& cancel = {});

} // namespace cx
