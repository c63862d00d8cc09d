#pragma once

#include "core/topics/contrastive_topic_model.h"

#include <string>
#include <vector>

namespace cx {

struct TopicPath;
struct PathBootstrap;

/// Whether a component's weight is one a genuine topic can have.
///
/// In the contrastive model M2f − γ·M2b = Σ_t ω_t μ_t μ_tᵀ every topic has
/// ω_t = w_t^f − γ·w_t^b with mixture weights w^f, w^b ∈ [0, 1], so ω_t ∈ [−γ, 1]: a
/// foreground topic cannot weigh more than 1, a background topic not less than −γ. A component
/// outside that interval is no topic of the model — typically a *blend* of several topics that
/// the rank-K fit on misspecified data lumps into one direction (ω ≈ 2–4 on Reuters). The
/// decomposition keeps such components (up to its own looser rejection bound); the views flag
/// them instead of presenting them as topics.
enum class Admissibility {
    Admissible,      ///< ω ∈ [−γ, 1] (and, with a band, the band reaches into that interval)
    AboveOne,        ///< ω > 1 (with a band: or the whole band above 1)
    BelowMinusGamma, ///< ω < −γ (with a band: or the whole band below −γ)
    NotFinite,       ///< ω is NaN or infinite
};

/// The rule for a point estimate: the closed interval [−γ, 1], compared exactly (no
/// tolerance; at γ = 0 every negative weight is inadmissible).
/// \throws std::invalid_argument if γ is negative or not finite.
Admissibility weightAdmissibility(double weight, double gamma);

/// The rule with a bootstrap band [bandLow, bandHigh] of the weight (e.g. the 95 % percentile
/// band of PathBootstrap): inadmissible when the point estimate is (the point rule: a band
/// that reaches into [−γ, 1] never clears it — the component shown is no topic whatever its
/// resamples do), and also when the whole band lies outside [−γ, 1]
/// (bandLow > 1 or bandHigh < −γ) though the estimate sits inside. When either band end is not
/// finite (no bootstrap, or fewer than two resamples matched the component) the point rule
/// decides. A reversed band is read as [min, max]. \throws std::invalid_argument if γ is
/// negative or not finite.
Admissibility weightAdmissibility(double weight, double gamma, double bandLow, double bandHigh);

inline bool isAdmissible(Admissibility verdict) {
    return verdict == Admissibility::Admissible;
}

/// Short reason, e.g. "ω = 2.31 > 1" or "ω = -3.2 < −γ = -2" ("" when admissible); with
/// `ascii` the same in plain ASCII for a console ("weight 2.31 > 1", "weight -3.2 < -gamma = -2").
std::string admissibilityReason(Admissibility verdict, double weight, double gamma,
                                bool ascii = false);

/// The verdicts for every component of one result.
struct ComponentAdmissibility {
    std::vector<Admissibility> verdicts; ///< per component (result order)
    int inadmissible = 0;                ///< components of any sign that fail the rule
    int inadmissibleForeground = 0;      ///< of them, foreground-specific (λ̂ > 0)
    int admissibleForeground = 0;        ///< foreground-specific components that pass

    bool admissible(int component) const {
        return isAdmissible(verdicts[static_cast<size_t>(component)]);
    }
    /// True when the result has foreground-specific components but none passes: the model
    /// has no admissible foreground-specific topic to present.
    bool noAdmissibleForeground() const {
        return admissibleForeground == 0 && inadmissibleForeground > 0;
    }
};

/// Point rule for every component of `result` (its γ and signed weights).
ComponentAdmissibility checkComponents(const TopicModelResult& result);

/// Band rule: bandLow/bandHigh hold one band per component of `result` (NaN = none, point rule
/// for that component). \throws std::invalid_argument when the sizes differ from K.
ComponentAdmissibility checkComponents(const TopicModelResult& result,
                                       const std::vector<double>& bandLow,
                                       const std::vector<double>& bandHigh);

/// Verdicts at point i of a path, with the bootstrap's weight bands when `bootstrap` is given
/// and was computed on this path (same γ grid); else the point rule.
ComponentAdmissibility checkPathPoint(const TopicPath& path, int i,
                                      const PathBootstrap* bootstrap = nullptr);

/// Bootstrap weight bands for the components of `result` (e.g. the slider's solution): when
/// result.gamma is a grid point of `path` (within 1e-9) and the bootstrap was computed on that
/// path, each component matched to a component of that point (matchComponents) gets the band
/// of its match; every other entry is NaN. Outputs have one entry per component. With
/// `stability`, the same for PathBootstrap::stability (the fraction of resamples that
/// reproduce the matched component).
void bandsOnPath(const TopicPath& path, const PathBootstrap& bootstrap,
                 const TopicModelResult& result, std::vector<double>& bandLow,
                 std::vector<double>& bandHigh, std::vector<double>* stability = nullptr);

} // namespace cx
