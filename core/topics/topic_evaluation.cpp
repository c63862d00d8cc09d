#include "core/topics/topic_evaluation.h"

#include "core/topics/topic_admissibility.h"

#include "core/common/parallel.h"
#include "core/common/timer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace cx {

SmoothedTopics
smoothedLogTopics(const CountMatrix& counts, const std::vector<std::int64_t>& documents,
                  const TopicModelResult& model, const std::vector<Eigen::Index>& components,
                  const Eigen::VectorXd& componentWeights, const ScorerSmoothing& smoothing) {
    const double fixedAlpha = smoothing.alpha;
    if (!(fixedAlpha >= 0) || !std::isfinite(fixedAlpha)) {
        throw std::invalid_argument("smoothedLogTopics: smoothing must be >= 0 (got " +
                                    std::to_string(fixedAlpha) + ")");
    }
    const Eigen::Index d = model.topics.rows();
    const auto k = static_cast<Eigen::Index>(components.size());
    if (componentWeights.size() != k) {
        throw std::invalid_argument("smoothedLogTopics: " + std::to_string(k) + " components but " +
                                    std::to_string(componentWeights.size()) + " weights");
    }
    double totalWeight = 0;
    for (Eigen::Index j = 0; j < k; ++j) {
        totalWeight += componentWeights[j];
    }
    SmoothedTopics out;
    // Row-major D × k table of log μ̃ so that one word's k values are contiguous.
    out.logTopics.resize(d, k);
    out.logPrior.resize(k);
    // T and the prior's shape p for the automatic rule (see perTokenLogLikelihood).
    const bool automatic = fixedAlpha == kAutoSmoothing;
    double tokens = 0;
    Eigen::ArrayXd shape;
    if (automatic) {
        shape = Eigen::ArrayXd::Zero(d);
        for (std::int64_t row : documents) {
            for (std::int64_t p = counts.rowPtr[row]; p < counts.rowPtr[row + 1]; ++p) {
                shape[counts.colIdx[p]] += counts.counts[p];
            }
        }
        tokens = shape.sum();
        if (smoothing.prior == SmoothingPrior::Uniform || !(tokens > 0)) {
            shape.setConstant(1.0 / static_cast<double>(d));
        } else {
            shape /= tokens;
        }
    }
    const double priorMass = 0.5 * static_cast<double>(d); // the Jeffreys prior's ½ per word
    for (Eigen::Index j = 0; j < k; ++j) {
        const Eigen::Index t = components[static_cast<size_t>(j)];
        const double prior = componentWeights[j] / totalWeight;
        if (automatic) {
            const double behind = std::max(prior * tokens, 1.0); // n_t
            out.logTopics.col(j) =
                ((behind * model.topics.col(t).array() + priorMass * shape) / (behind + priorMass))
                    .log()
                    .matrix();
        } else {
            const double normaliser = 1.0 + static_cast<double>(d) * fixedAlpha;
            out.logTopics.col(j) =
                ((model.topics.col(t).array() + fixedAlpha) / normaliser).log().matrix();
        }
        out.logPrior[j] = std::log(prior);
    }
    return out;
}

Eigen::VectorXd perTokenLogLikelihood(const CountMatrix& counts,
                                      const std::vector<std::int64_t>& documents,
                                      const TopicModelResult& model,
                                      const ScorerSmoothing& smoothing) {
    const double fixedAlpha = smoothing.alpha;
    if (!(fixedAlpha >= 0) || !std::isfinite(fixedAlpha)) {
        throw std::invalid_argument("perTokenLogLikelihood: smoothing must be >= 0 (got " +
                                    std::to_string(fixedAlpha) + ")");
    }
    const Eigen::Index d = model.topics.rows();
    if (d != counts.numCols) {
        throw std::invalid_argument("perTokenLogLikelihood: model vocabulary " + std::to_string(d) +
                                    " != corpus vocabulary " + std::to_string(counts.numCols));
    }
    std::vector<Eigen::Index> specific;
    double totalWeight = 0;
    for (Eigen::Index t = 0; t < model.numComponents(); ++t) {
        if (model.foregroundSpecific[static_cast<size_t>(t)]) {
            specific.push_back(t);
            totalWeight += model.weights[t];
        }
    }
    const auto n = static_cast<Eigen::Index>(documents.size());
    Eigen::VectorXd out(n);
    if (specific.empty() || !(totalWeight > 0)) {
        out.setConstant(std::numeric_limits<double>::quiet_NaN());
        return out;
    }
    Eigen::VectorXd specificWeights(static_cast<Eigen::Index>(specific.size()));
    for (size_t j = 0; j < specific.size(); ++j) {
        specificWeights[static_cast<Eigen::Index>(j)] = model.weights[specific[j]];
    }
    const SmoothedTopics smoothed =
        smoothedLogTopics(counts, documents, model, specific, specificWeights, smoothing);
    const auto& logTopic = smoothed.logTopics;
    const Eigen::VectorXd& logPrior = smoothed.logPrior;
    parallelFor(n, [&](std::int64_t index) {
        const std::int64_t row = documents[static_cast<size_t>(index)];
        Eigen::RowVectorXd score = logPrior.transpose();
        double length = 0;
        for (std::int64_t p = counts.rowPtr[row]; p < counts.rowPtr[row + 1]; ++p) {
            score.noalias() +=
                static_cast<double>(counts.counts[p]) * logTopic.row(counts.colIdx[p]);
            length += counts.counts[p];
        }
        const double top = score.maxCoeff();
        const double logSum = top + std::log((score.array() - top).exp().sum());
        out[index] = length > 0 ? logSum / length : std::numeric_limits<double>::quiet_NaN();
    });
    return out;
}

const char* smoothingPriorName(SmoothingPrior prior) {
    return prior == SmoothingPrior::Uniform ? "uniform" : "frequency";
}

SmoothingPrior parseSmoothingPrior(const std::string& name) {
    if (name == "frequency") {
        return SmoothingPrior::WordFrequency;
    }
    if (name == "uniform") {
        return SmoothingPrior::Uniform;
    }
    throw std::invalid_argument("smoothing prior '" + name + "': expected frequency or uniform");
}

double rocAuc(const Eigen::VectorXd& scores, const std::vector<bool>& positive) {
    const auto n = scores.size();
    if (static_cast<size_t>(n) != positive.size()) {
        throw std::invalid_argument("rocAuc: " + std::to_string(n) + " scores but " +
                                    std::to_string(positive.size()) + " labels");
    }
    std::int64_t numPositive = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        if (std::isnan(scores[i])) {
            return std::numeric_limits<double>::quiet_NaN();
        }
        numPositive += positive[static_cast<size_t>(i)] ? 1 : 0;
    }
    const std::int64_t numNegative = n - numPositive;
    if (numPositive == 0 || numNegative == 0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](Eigen::Index a, Eigen::Index b) { return scores[a] < scores[b]; });
    // Sum of mid-ranks of the positives (ties share the average rank).
    double rankSum = 0;
    for (Eigen::Index i = 0; i < n;) {
        Eigen::Index j = i;
        while (j < n &&
               scores[order[static_cast<size_t>(j)]] == scores[order[static_cast<size_t>(i)]]) {
            ++j;
        }
        const double midRank = 0.5 * static_cast<double>(i + 1 + j);
        for (Eigen::Index q = i; q < j; ++q) {
            if (positive[static_cast<size_t>(order[static_cast<size_t>(q)])]) {
                rankSum += midRank;
            }
        }
        i = j;
    }
    const double u =
        rankSum - 0.5 * static_cast<double>(numPositive) * static_cast<double>(numPositive + 1);
    return u / (static_cast<double>(numPositive) * static_cast<double>(numNegative));
}

double specificityAuc(const ContrastiveTopicEngine& engine, const TopicModelResult& model,
                      const std::vector<bool>& positive, const ScorerSmoothing& smoothing) {
    if (model.numForegroundSpecific() == 0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return rocAuc(
        perTokenLogLikelihood(engine.counts(), engine.foreground().documents(), model, smoothing),
        positive);
}

SpecificitySweep specificitySweep(const ContrastiveTopicEngine& engine,
                                  const std::vector<double>& gammas,
                                  const std::vector<bool>& positive,
                                  const TopicModelOptions& options,
                                  const ScorerSmoothing& smoothing, const CancelToken& cancel,
                                  const std::function<void(const SpecificityPoint&)>& onPoint) {
    const auto& documents = engine.foreground().documents();
    if (positive.size() != documents.size()) {
        throw std::invalid_argument("specificitySweep: " + std::to_string(positive.size()) +
                                    " labels for " + std::to_string(documents.size()) +
                                    " foreground documents");
    }
    for (double gamma : gammas) {
        validateGamma(gamma);
    }
    std::vector<double> pathGammas = gammas;
    pathGammas.push_back(0.0);
    std::sort(pathGammas.begin(), pathGammas.end());
    pathGammas.erase(std::unique(pathGammas.begin(), pathGammas.end()), pathGammas.end());

    SpecificitySweep sweep;
    std::vector<SpecificityPoint> byPath(pathGammas.size());
    // Points stream in path order; each grid γ is reported when its path point is done (a grid
    // in increasing order — the usual case — streams point by point).
    size_t nextToReport = 0;
    auto report = [&](int pathIndex) {
        while (nextToReport < gammas.size()) {
            const auto it =
                std::lower_bound(pathGammas.begin(), pathGammas.end(), gammas[nextToReport]);
            const auto index = static_cast<size_t>(it - pathGammas.begin());
            if (static_cast<int>(index) > pathIndex) {
                break;
            }
            SpecificityPoint point = byPath[index];
            point.relativeAuc = point.auc / sweep.baselineAuc;
            sweep.points.push_back(point);
            if (onPoint) {
                onPoint(point);
            }
            ++nextToReport;
        }
    };
    auto evaluate = [&](const TopicPath& path, int i) {
        SpecificityPoint& point = byPath[static_cast<size_t>(i)];
        const TopicModelResult& model = path.solutions[static_cast<size_t>(i)];
        point.gamma = pathGammas[static_cast<size_t>(i)];
        point.failure = path.failures[static_cast<size_t>(i)];
        point.solveMs = model.solveMs;
        point.numForegroundSpecific = model.numForegroundSpecific();
        point.numInadmissible = checkComponents(model).inadmissible;
        Stopwatch watch;
        point.auc = specificityAuc(engine, model, positive, smoothing);
        point.scoreMs = watch.elapsedMs();
        if (point.failure.empty() && std::isnan(point.auc)) {
            point.failure = "AUC undefined (a class of documents has no score)";
        }
        if (i == 0) {
            sweep.baselineAuc = point.auc; // γ = 0
        }
    };
    sweep.path =
        solveTopicPath(engine, pathGammas, options, cancel, [&](const TopicPath& path, int i) {
            evaluate(path, i);
            report(i);
        });
    return sweep;
}

std::vector<Eigen::Index> topEntries(const Eigen::VectorXd& column, int count) {
    std::vector<Eigen::Index> order(static_cast<size_t>(column.size()));
    std::iota(order.begin(), order.end(), 0);
    const auto take = static_cast<size_t>(std::clamp<Eigen::Index>(count, 0, column.size()));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(take), order.end(),
                      [&](Eigen::Index a, Eigen::Index b) {
                          return column[a] > column[b] || (column[a] == column[b] && a < b);
                      });
    order.resize(take);
    return order;
}

} // namespace cx
