#include "core/topics/topic_bootstrap.h"

#include "core/topics/topic_trust.h"

#include "core/common/random.h"
#include "core/common/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace cx {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

namespace {

/// Compares `path` with the same γ path solved on each of `count` other engines
/// (`replicate(r)`) point by point: reappearance, weight and AUC bands (PathBootstrap).
PathBootstrap comparePaths(const ContrastiveTopicEngine& engine, const TopicPath& path,
                           const std::vector<bool>& positive, const TopicModelOptions& options,
                           int count, double level,
                           const std::function<ContrastiveTopicEngine(int)>& replicate,
                           const ScorerSmoothing& smoothing, const CancelToken& cancel,
                           const std::function<void(int, int)>& progress) {
    const bool withAuc = !positive.empty();
    const size_t points = path.gammas.size();
    // samples[i][slot] = replicate signed weights of the matched component (NaN = none)
    std::vector<std::vector<std::vector<double>>> weights(points);
    std::vector<std::vector<int>> reappear(points);
    for (size_t i = 0; i < points; ++i) {
        const int k = path.solutions[i].numComponents();
        weights[i].assign(static_cast<size_t>(k), {});
        reappear[i].assign(static_cast<size_t>(k), 0);
    }
    std::vector<std::vector<double>> aucs(points), relatives(points);
    for (int r = 0; r < count; ++r) {
        throwIfCancelled(cancel);
        const ContrastiveTopicEngine other = replicate(r);
        const TopicPath replicatePath = solveTopicPath(other, path.gammas, options, cancel);
        double baseline = kNaN;
        for (size_t i = 0; i < points; ++i) {
            const TopicModelResult& original = path.solutions[i];
            const TopicModelResult& solution = replicatePath.solutions[i];
            if (withAuc) {
                const double auc = solution.numComponents() > 0
                                       ? specificityAuc(engine, solution, positive, smoothing)
                                       : kNaN;
                if (path.gammas[i] == 0.0 && std::isnan(baseline)) {
                    baseline = auc;
                }
                aucs[i].push_back(auc);
                relatives[i].push_back(auc / baseline);
            }
            const std::vector<int> match = matchComponents(original, solution);
            std::vector<double> matched(static_cast<size_t>(original.numComponents()), kNaN);
            for (size_t t = 0; t < match.size(); ++t) {
                const int slot = match[t];
                if (slot >= 0 && (solution.lambdas[static_cast<Eigen::Index>(t)] > 0) ==
                                     (original.lambdas[slot] > 0)) {
                    matched[static_cast<size_t>(slot)] =
                        solution.signedWeights[static_cast<Eigen::Index>(t)];
                }
            }
            for (size_t slot = 0; slot < matched.size(); ++slot) {
                weights[i][slot].push_back(matched[slot]);
                reappear[i][slot] += std::isnan(matched[slot]) ? 0 : 1;
            }
        }
        if (progress) {
            progress(r + 1, count);
        }
    }
    const double lo = 0.5 * (1 - level);
    const double hi = 1 - lo;
    PathBootstrap out;
    out.replicates = count;
    out.level = level;
    out.gammas = path.gammas;
    out.stability.resize(points);
    out.weightLo.resize(points);
    out.weightHi.resize(points);
    std::vector<double> stabilitySum(static_cast<size_t>(path.numIdentities), 0.0);
    std::vector<int> stabilityCount(static_cast<size_t>(path.numIdentities), 0);
    for (size_t i = 0; i < points; ++i) {
        if (withAuc) {
            out.aucLo.push_back(percentileOf(aucs[i], lo));
            out.aucHi.push_back(percentileOf(aucs[i], hi));
            out.relativeLo.push_back(percentileOf(relatives[i], lo));
            out.relativeHi.push_back(percentileOf(relatives[i], hi));
        }
        for (size_t slot = 0; slot < weights[i].size(); ++slot) {
            const double stability = static_cast<double>(reappear[i][slot]) / count;
            out.stability[i].push_back(stability);
            out.weightLo[i].push_back(percentileOf(weights[i][slot], lo));
            out.weightHi[i].push_back(percentileOf(weights[i][slot], hi));
            const int id = path.ids[i][slot];
            stabilitySum[static_cast<size_t>(id)] += stability;
            stabilityCount[static_cast<size_t>(id)] += 1;
        }
    }
    for (size_t id = 0; id < stabilitySum.size(); ++id) {
        out.identityStability.push_back(
            stabilityCount[id] > 0 ? stabilitySum[id] / stabilityCount[id] : kNaN);
    }
    return out;
}

} // namespace

PathBootstrap bootstrapPath(const ContrastiveTopicEngine& engine, const TopicPath& path,
                            const std::vector<bool>& positive, const TopicModelOptions& options,
                            const BootstrapOptions& bootstrap, const ScorerSmoothing& smoothing,
                            const CancelToken& cancel,
                            const std::function<void(int, int)>& progress) {
    if (bootstrap.replicates < 2) {
        throw std::invalid_argument("parameter bootstrap: needs at least 2 replicates (got " +
                                    std::to_string(bootstrap.replicates) + ")");
    }
    if (!(bootstrap.level > 0 && bootstrap.level < 1)) {
        throw std::invalid_argument("bootstrapPath: level must lie in (0, 1)");
    }
    return comparePaths(
        engine, path, positive, options, bootstrap.replicates, bootstrap.level,
        [&](int r) {
            return engine.resampled(deriveSeed(bootstrap.seed, static_cast<std::uint64_t>(r)),
                                    cancel);
        },
        smoothing, cancel, progress);
}

PathBootstrap splitHalfPath(const ContrastiveTopicEngine& engine, const TopicPath& path,
                            const TopicModelOptions& options, std::uint64_t seed,
                            const CancelToken& cancel,
                            const std::function<void(int, int)>& progress) {
    // The split's own stream, apart from the bootstrap's deriveSeed(seed, r).
    const std::uint64_t splitSeed = deriveSeed(seed, 0x5EED'4A1F'0000'0002ULL);
    PathBootstrap out = comparePaths(
        engine, path, {}, options, 2, 0.95,
        [&](int which) { return engine.half(splitSeed, which, cancel); }, {}, cancel, progress);
    out.splitHalves = true;
    return out;
}

TopicSuggestions suggestTopics(const SpecificitySweep& sweep, const PathBootstrap* bootstrap,
                               int maxK) {
    TopicSuggestions out;
    out.setChanges = foregroundSetChanges(sweep.path);
    out.bestGamma = kNaN;
    double bestAuc = -std::numeric_limits<double>::infinity();
    // Only a γ the app stands behind is suggested (judgeSweep).
    const std::vector<GammaVerdict> verdicts = judgeSweep(sweep, bootstrap);
    for (size_t q = 0; q < sweep.points.size(); ++q) {
        const SpecificityPoint& p = sweep.points[q];
        if (verdicts[q].trusted && std::isfinite(p.auc) && p.auc > bestAuc) {
            bestAuc = p.auc;
            out.bestGamma = p.gamma;
        }
    }
    const TopicPath& path = sweep.path;
    double threshold = bestAuc;
    if (std::isfinite(out.bestGamma) && bootstrap != nullptr && !bootstrap->aucLo.empty()) {
        const int i = path.nearest(out.bestGamma);
        if (i >= 0 && std::isfinite(bootstrap->aucLo[static_cast<size_t>(i)])) {
            threshold = std::min(bestAuc, bootstrap->aucLo[static_cast<size_t>(i)]);
        }
    }
    if (std::isfinite(out.bestGamma)) {
        for (size_t q = 0; q < sweep.points.size(); ++q) {
            const SpecificityPoint& p = sweep.points[q];
            if (verdicts[q].trusted && std::isfinite(p.auc) && p.auc >= threshold) {
                out.nearBest.push_back(p.gamma);
            }
        }
    }
    const int at = path.nearest(std::isfinite(out.bestGamma) ? out.bestGamma : 0.0);
    if (at >= 0) {
        out.suggestedK =
            std::min(maxK, path.solutions[static_cast<size_t>(at)].significantDirections);
    }
    return out;
}

} // namespace cx
