#pragma once

// Whether the app stands behind the solution at each γ of a sweep, and why not.

#include "core/topics/topic_evaluation.h"

#include <string>
#include <vector>

namespace cx {

struct PathBootstrap;

/// The verdict at one grid γ.
struct GammaVerdict {
    double gamma = 0;
    bool trusted = true;
    /// Why not ("" when trusted), e.g. "inadmissible foreground-specific component T3
    /// (ω = 2.31 > 1)", "unstable under bootstrap: T2 reappears in 35 % of 20 resamples".
    std::string reason;
};

/// Smallest ratio λ / (2‖N·v‖) (TopicModelResult::positiveSignalToNoise) at which the strongest
/// positive eigen-direction of M2f − γ·M2b counts as foreground-specific signal rather than
/// split-half noise. 1 is selectKeptDirections' significance edge (|λ| > 2‖N·v‖), but on
/// pure-noise contrasts the ratio scatters widely around it (‖N·v‖ is one realisation along one
/// direction): over 50 seeded contrasts without a foreground topic (25 seeds × 1,500 and 5,000
/// documents per side, γ = 1) it reached 2.86, while a planted foreground topic of weight 0.3
/// gave at least 5.1 (docs/methods.md, the split-half noise criterion). Hence 3.
constexpr double kMinSignalToNoise = 3.0;

/// True when `result` has a split-half noise estimate and no positive eigen-direction of its
/// contrastive second moment above it (positiveSignalToNoise ≤ kMinSignalToNoise).
bool signalBelowNoise(const TopicModelResult& result);

/// Per sweep point (sweep.points order), the app does not stand behind the solution when
///  1. the point has no AUC (SpecificityPoint::failure is the reason);
///  2. a foreground-specific component is inadmissible (checkPathPoint, with `bootstrap`'s
///     bands when given: ω ∉ [−γ, 1] means the component shown is no topic and the AUC mixes
///     a blend — on small noisy corpora the AUC jumps between neighbouring γ there);
///  3. with a bootstrap of sweep.path, a foreground-specific component reappears in fewer than
///     kMinStability of the resamples (PathBootstrap::stability);
///  4. foreground-specific components are shown but the contrastive signal is below the
///     split-half noise (signalBelowNoise): M2f − γ·M2b = Σ_t (ω_t^f − γ ω_t^b) μ_t μ_tᵀ + E, so a
///     foreground-specific topic is a positive eigen-direction; when no positive eigenvalue
///     exceeds 2·kMinSignalToNoise times the noise N (the half difference of the moments of
///     the even- and odd-numbered documents of each side, N = N_f − γ·N_b, same law as E)
///     along its eigenvector, noise alone can explain them (a pure-noise contrast at γ ≥ 1).
///  5. with a split-half check of sweep.path (sweep.halves, from splitHalfPath), a
///     foreground-specific component is not found (matched, same sign) in both halves of the
///     documents: one sample cannot tell it from noise or its weight from 0. On small noisy
///     contrasts a second foreground-specific component of small weight dilutes the AUC just
///     before it leaves the set; its eigenvalue is far above the split-half noise, so rule 4
///     cannot see it, but it does not come back in both halves.
///  6. the point is a one-point blip of the path: its set of foreground-specific topics (by path
///     identity) is neither the previous path point's nor the next one's (each solved, both at
///     γ > 0; at γ = 0 every positive topic counts as foreground-specific). On the
///     demo's 5,000 stories the AUC jumped by 0.14–0.18 into and out of such a γ, whose
///     solution had lost a topic both neighbours have; a genuine change of the set differs
///     from one neighbour only.
/// Reasons name components by path identity ("T3" = id 2), as the views do, and are ASCII-free
/// of tabs and newlines (a TSV field). Cost O(points × K).
std::vector<GammaVerdict> judgeSweep(const SpecificitySweep& sweep,
                                     const PathBootstrap* bootstrap = nullptr);

} // namespace cx
