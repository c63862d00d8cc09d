#pragma once

// Several starts of a randomised fit, one kept by a stated criterion, and how much the starts
// disagreed. Shared by the per-cell spectral HMM (core/hmm/hmm_starts.h) and Spectral-Tree
// (core/tree/spectral_tree.h).

#include "core/common/random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace cx {

/// Starts tried by default: the power method's random starts are the only random draws of a
/// spectral fit, so a handful of starts costs a handful of decompositions (milliseconds each),
/// not a handful of passes over the data.
inline constexpr int kDefaultStarts = 5;

/// Starts of each Spectral-Tree node (and of the per-cell baseline beside it) by default. A
/// node's decompositions reach distinct solutions whose moment residuals differ by 0.7–30 %, the
/// best one often from a single start of 20 (ENCODE, 9 cell types); with 5 starts the tree's
/// mean promoter F1 moved by 0.022–0.030 with the seed, with 20, 50 or 100 by at most 0.012 on
/// the two data sets measured (docs/tree.md). The tree's starts run side by side over its
/// nodes: 20 cost 0.2 s of CPU on the 9 ENCODE cell types, and its learning time barely moves.
inline constexpr int kDefaultTreeStarts = 20;

/// Seed of start `start`: start 0 uses `seed` itself (one start reproduces the single-start
/// fit), start i ≥ 1 uses deriveSeed(seed, i). \pre start ≥ 0.
inline std::uint64_t startSeed(std::uint64_t seed, int start) {
    return start == 0 ? seed : deriveSeed(seed, static_cast<std::uint64_t>(start));
}

/// How the kept start is chosen.
enum class StartCriterion {
    LogLikelihood,  ///< highest log P(data) of the start's model
    MomentResidual, ///< lowest moment residual of the start's fit
};

inline const char* toString(StartCriterion criterion) {
    return criterion == StartCriterion::LogLikelihood ? "log_likelihood" : "moment_residual";
}

/// What several starts gave, in start order, and which one was kept.
struct StartSpread {
    StartCriterion criterion = StartCriterion::MomentResidual;
    std::vector<std::uint64_t> seeds; ///< startSeed(seed, i)
    std::vector<double> values;       ///< the criterion of each start
    int chosen = 0;                   ///< index of the kept start
    /// Largest mean |Δp| between the kept start's emissions and another start's, states
    /// matched by minimum total L1 distance (0 when every start found the same states).
    double emissionSpread = 0;

    int starts() const { return static_cast<int>(values.size()); }
    /// The kept start's seed. \pre starts() ≥ 1.
    std::uint64_t keptSeed() const { return seeds[static_cast<size_t>(chosen)]; }
    /// max − min of the criterion over the starts (0 for one start).
    double valueSpread() const {
        if (values.empty()) {
            return 0;
        }
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        return *hi - *lo;
    }
    /// Whether `value` beats the kept start's (strictly: ties keep the earlier start; a NaN
    /// never beats a number, a number always beats a NaN).
    bool better(double value, double kept) const {
        if (std::isnan(value)) {
            return false;
        }
        if (std::isnan(kept)) {
            return true;
        }
        return criterion == StartCriterion::LogLikelihood ? value > kept : value < kept;
    }
};

} // namespace cx
