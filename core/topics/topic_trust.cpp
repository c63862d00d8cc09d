#include "core/topics/topic_trust.h"

#include "core/common/format.h"
#include "core/topics/topic_admissibility.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_path.h"

#include <cmath>

namespace cx {

namespace {

std::string identityName(const TopicPath& path, size_t point, size_t slot) {
    const int id =
        point < path.ids.size() && slot < path.ids[point].size() ? path.ids[point][slot] : -1;
    return id >= 0 ? "T" + std::to_string(id + 1) : "c" + std::to_string(slot + 1);
}

std::string identityList(const std::vector<int>& ids) {
    std::string out;
    for (int id : ids) {
        out += (out.empty() ? "" : ", ") + ("T" + std::to_string(id + 1));
    }
    return out.empty() ? "none" : out;
}

/// Rule 6 of judgeSweep: "" unless point i's foreground-specific topics differ from both
/// neighbouring path points' (each solved, with components, at γ > 0: at γ = 0 every topic
/// with a positive weight counts as foreground-specific, so that set is no comparison).
std::string isolatedAlongGamma(const TopicPath& path, size_t i) {
    if (i == 0 || i + 1 >= path.solutions.size() || path.solutions[i - 1].numComponents() == 0 ||
        path.solutions[i + 1].numComponents() == 0 || !(path.gammas[i - 1] > 0)) {
        return {};
    }
    const std::vector<int> here = foregroundIdentities(path, i);
    const std::vector<int> before = foregroundIdentities(path, i - 1);
    const std::vector<int> after = foregroundIdentities(path, i + 1);
    if (here == before || here == after) {
        return {};
    }
    return "a solution of this gamma alone: its foreground-specific topics (" + identityList(here) +
           ") are neither gamma " + formatNumber(path.gammas[i - 1]) + "'s (" +
           identityList(before) + ") nor gamma " + formatNumber(path.gammas[i + 1]) + "'s (" +
           identityList(after) + "); a finer gamma grid tells a blip from a transition";
}

} // namespace

bool signalBelowNoise(const TopicModelResult& result) {
    return std::isfinite(result.positiveSignalToNoise) &&
           result.positiveSignalToNoise <= kMinSignalToNoise;
}

std::vector<GammaVerdict> judgeSweep(const SpecificitySweep& sweep,
                                     const PathBootstrap* bootstrap) {
    const TopicPath& path = sweep.path;
    const bool banded = bootstrap != nullptr && bootstrap->gammas == path.gammas;
    const PathBootstrap* halves = &sweep.halves;
    const bool split = halves->replicates > 0 && halves->gammas == path.gammas;
    std::vector<GammaVerdict> out;
    out.reserve(sweep.points.size());
    for (const SpecificityPoint& p : sweep.points) {
        GammaVerdict verdict;
        verdict.gamma = p.gamma;
        const int i = path.nearest(p.gamma);
        if (!p.failure.empty()) {
            verdict.trusted = false;
            verdict.reason = p.failure;
        } else if (i < 0 || !(std::abs(path.gammas[static_cast<size_t>(i)] - p.gamma) <= 1e-9)) {
            verdict.trusted = false;
            verdict.reason = "no solution on the path at this gamma";
        } else {
            const auto point = static_cast<size_t>(i);
            const TopicModelResult& result = path.solutions[point];
            const ComponentAdmissibility admissibility =
                checkPathPoint(path, i, banded ? bootstrap : nullptr);
            std::vector<std::string> reasons;
            for (int t = 0; t < result.numComponents(); ++t) {
                const auto slot = static_cast<size_t>(t);
                if (slot >= result.foregroundSpecific.size() || !result.foregroundSpecific[slot]) {
                    continue;
                }
                if (!admissibility.admissible(t)) {
                    reasons.push_back("inadmissible foreground-specific component " +
                                      identityName(path, point, slot) + " (" +
                                      admissibilityReason(admissibility.verdicts[slot],
                                                          result.signedWeights[t], result.gamma,
                                                          true) +
                                      ")");
                }
                if (banded && point < bootstrap->stability.size() &&
                    slot < bootstrap->stability[point].size() &&
                    std::isfinite(bootstrap->stability[point][slot]) &&
                    bootstrap->stability[point][slot] < kMinStability) {
                    reasons.push_back(
                        "unstable under bootstrap: " + identityName(path, point, slot) +
                        " reappears in " +
                        formatNumber(100 * bootstrap->stability[point][slot], 3) + " % of " +
                        std::to_string(bootstrap->replicates) + " resamples");
                }
                if (split && point < halves->stability.size() &&
                    slot < halves->stability[point].size() &&
                    std::isfinite(halves->stability[point][slot]) &&
                    halves->stability[point][slot] < 1.0) {
                    const long found =
                        std::lround(halves->stability[point][slot] * halves->replicates);
                    reasons.push_back("not reproduced in both halves of the documents: " +
                                      identityName(path, point, slot) + " found in " +
                                      std::to_string(found) + " of " +
                                      std::to_string(halves->replicates) + " seeded halves");
                }
            }
            // 4. The foreground-specific signal is not above the split-half noise: no positive
            //    eigen-direction of M2f − γ·M2b leaves it, so every foreground-specific component
            //    is fitted to sampling noise (whatever its weight).
            if (result.numForegroundSpecific() > 0 && signalBelowNoise(result)) {
                reasons.push_back(
                    "contrastive signal below the split-half noise (strongest positive "
                    "eigenvalue of M2f - gamma*M2b is " +
                    formatNumber(2 * result.positiveSignalToNoise, 3) +
                    " x its split-half noise, needs > " + formatNumber(2 * kMinSignalToNoise, 3) +
                    ")");
            }
            // 6. A one-point blip of the path: the set of foreground-specific topics here is
            //    neither neighbour's (the AUC jumps in and out at this γ alone).
            if (result.numForegroundSpecific() > 0) {
                std::string isolated = isolatedAlongGamma(path, point);
                if (!isolated.empty()) {
                    reasons.push_back(std::move(isolated));
                }
            }
            for (const std::string& reason : reasons) {
                verdict.reason += (verdict.reason.empty() ? "" : "; ") + reason;
            }
            verdict.trusted = reasons.empty();
        }
        out.push_back(std::move(verdict));
    }
    return out;
}

} // namespace cx
