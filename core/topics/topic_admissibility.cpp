#include "core/topics/topic_admissibility.h"

#include "core/common/format.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_path.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cx {

namespace {

void checkGamma(double gamma) {
    if (!std::isfinite(gamma) || gamma < 0) {
        throw std::invalid_argument("weightAdmissibility: gamma must be finite and >= 0 (got " +
                                    formatNumber(gamma) + ")");
    }
}

} // namespace

Admissibility weightAdmissibility(double weight, double gamma) {
    checkGamma(gamma);
    if (!std::isfinite(weight)) {
        return Admissibility::NotFinite;
    }
    if (weight > 1.0) {
        return Admissibility::AboveOne;
    }
    if (weight < -gamma) {
        return Admissibility::BelowMinusGamma;
    }
    return Admissibility::Admissible;
}

Admissibility weightAdmissibility(double weight, double gamma, double bandLow, double bandHigh) {
    const Admissibility point = weightAdmissibility(weight, gamma);
    if (!isAdmissible(point) || !std::isfinite(bandLow) || !std::isfinite(bandHigh)) {
        // Prop. 1 is about the component shown: a band that reaches into [−γ, 1] never
        // clears an estimate outside it (the band is reported beside the flag instead).
        return point;
    }
    const double low = std::min(bandLow, bandHigh);
    const double high = std::max(bandLow, bandHigh);
    if (low > 1.0) {
        return Admissibility::AboveOne;
    }
    if (high < -gamma) {
        return Admissibility::BelowMinusGamma;
    }
    return Admissibility::Admissible;
}

std::string admissibilityReason(Admissibility verdict, double weight, double gamma, bool ascii) {
    const std::string omega = ascii ? "weight " : "ω = ";
    switch (verdict) {
    case Admissibility::Admissible:
        return {};
    case Admissibility::AboveOne:
        return omega + formatNumber(weight, 3) + " > 1";
    case Admissibility::BelowMinusGamma:
        return omega + formatNumber(weight, 3) + (ascii ? " < -gamma = " : " < −γ = ") +
               formatNumber(0.0 - gamma, 3);
    case Admissibility::NotFinite:
        return ascii ? "weight not finite" : "ω is not finite";
    }
    return {};
}

ComponentAdmissibility checkComponents(const TopicModelResult& result) {
    const auto k = static_cast<size_t>(result.numComponents());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return checkComponents(result, std::vector<double>(k, nan), std::vector<double>(k, nan));
}

ComponentAdmissibility checkComponents(const TopicModelResult& result,
                                       const std::vector<double>& bandLow,
                                       const std::vector<double>& bandHigh) {
    const int k = result.numComponents();
    if (bandLow.size() != static_cast<size_t>(k) || bandHigh.size() != static_cast<size_t>(k)) {
        throw std::invalid_argument("checkComponents: " + std::to_string(bandLow.size()) + " and " +
                                    std::to_string(bandHigh.size()) + " bands for " +
                                    std::to_string(k) + " components");
    }
    ComponentAdmissibility out;
    out.verdicts.reserve(static_cast<size_t>(k));
    for (int t = 0; t < k; ++t) {
        const auto slot = static_cast<size_t>(t);
        const Admissibility verdict = weightAdmissibility(result.signedWeights[t], result.gamma,
                                                          bandLow[slot], bandHigh[slot]);
        out.verdicts.push_back(verdict);
        const bool foreground =
            slot < result.foregroundSpecific.size() && result.foregroundSpecific[slot];
        if (!isAdmissible(verdict)) {
            ++out.inadmissible;
            out.inadmissibleForeground += foreground ? 1 : 0;
        } else if (foreground) {
            ++out.admissibleForeground;
        }
    }
    return out;
}

ComponentAdmissibility checkPathPoint(const TopicPath& path, int i,
                                      const PathBootstrap* bootstrap) {
    if (i < 0 || static_cast<size_t>(i) >= path.solutions.size()) {
        throw std::invalid_argument("checkPathPoint: point " + std::to_string(i) +
                                    " outside the path of " +
                                    std::to_string(path.solutions.size()) + " points");
    }
    const auto point = static_cast<size_t>(i);
    const TopicModelResult& result = path.solutions[point];
    const auto k = static_cast<size_t>(result.numComponents());
    const bool banded = bootstrap != nullptr && bootstrap->gammas == path.gammas &&
                        point < bootstrap->weightLo.size() &&
                        bootstrap->weightLo[point].size() == k &&
                        bootstrap->weightHi[point].size() == k;
    if (!banded) {
        return checkComponents(result);
    }
    return checkComponents(result, bootstrap->weightLo[point], bootstrap->weightHi[point]);
}

void bandsOnPath(const TopicPath& path, const PathBootstrap& bootstrap,
                 const TopicModelResult& result, std::vector<double>& bandLow,
                 std::vector<double>& bandHigh, std::vector<double>* stability) {
    const auto k = static_cast<size_t>(result.numComponents());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    bandLow.assign(k, nan);
    bandHigh.assign(k, nan);
    if (stability != nullptr) {
        stability->assign(k, nan);
    }
    const int i = path.nearest(result.gamma);
    if (i < 0 || bootstrap.gammas != path.gammas ||
        !(std::abs(path.gammas[static_cast<size_t>(i)] - result.gamma) <= 1e-9)) {
        return;
    }
    const auto point = static_cast<size_t>(i);
    const TopicModelResult& onPath = path.solutions[point];
    if (onPath.numComponents() == 0 || point >= bootstrap.weightLo.size()) {
        return;
    }
    const std::vector<int> match = matchComponents(onPath, result);
    for (size_t t = 0; t < k && t < match.size(); ++t) {
        const int slot = match[t];
        if (slot >= 0 && static_cast<size_t>(slot) < bootstrap.weightLo[point].size() &&
            static_cast<size_t>(slot) < bootstrap.weightHi[point].size()) {
            bandLow[t] = bootstrap.weightLo[point][static_cast<size_t>(slot)];
            bandHigh[t] = bootstrap.weightHi[point][static_cast<size_t>(slot)];
        }
        if (stability != nullptr && slot >= 0 && point < bootstrap.stability.size() &&
            static_cast<size_t>(slot) < bootstrap.stability[point].size()) {
            (*stability)[t] = bootstrap.stability[point][static_cast<size_t>(slot)];
        }
    }
}

} // namespace cx
