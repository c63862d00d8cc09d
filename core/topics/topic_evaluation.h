#pragma once

#include "core/common/cancel.h"
#include "core/io/corpus.h"
#include "core/topics/contrastive_topic_model.h"

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace cx {

/// Per-token log marginal likelihood of each listed document under the foreground-specific
/// topics of `model` (components with λ̂ > 0):
///   (1/ℓ_n) · log Σ_{t: λ̂_t>0} π_t Π_i μ̃_t(i)^{c_n(i)},   π_t = ω_t / Σ ω,
///   μ̃_t = (μ_t + α) / (1 + D·α)   (additive smoothing α = `smoothing` > 0).
/// The multinomial coefficient is omitted (it is the same for every model). Returns NaN for every
/// document when the model has no foreground-specific topic. Cost O(nnz·K + D·K).
Eigen::VectorXd perTokenLogLikelihood(const CountMatrix& counts,
                                      const std::vector<std::int64_t>& documents,
                                      const TopicModelResult& model, double smoothing = 0.01);

/// Area under the ROC curve of `scores` for the binary labels `positive` (Mann–Whitney U with
/// ties counted one half). Higher score = more likely positive. NaN if either class is empty
/// or any score is NaN. Cost O(n log n).
double rocAuc(const Eigen::VectorXd& scores, const std::vector<bool>& positive);

/// One point of a specificity sweep (paper 001 §3.2, Fig. 2a).
struct SpecificityPoint {
    double gamma = 0;
    double auc = 0;          ///< AUC of per-token likelihood for positives vs other fg documents
    double relativeAuc = 0;  ///< auc / auc(γ = 0)
    int numForegroundSpecific = 0;
    double solveMs = 0;
    double scoreMs = 0;
};

struct SpecificitySweep {
    double baselineAuc = 0; ///< AUC at γ = 0
    std::vector<SpecificityPoint> points;
};

/// Specificity test over a γ grid: for each γ, Alg. 1 on the engine, per-token likelihood of
/// every foreground document, AUC with `positive` (one flag per engine.foreground() document),
/// and AUC relative to γ = 0 (computed once even if the grid lacks 0).
/// `onPoint` (optional) is called after each point, e.g. to stream results to a chart.
SpecificitySweep specificitySweep(const ContrastiveTopicEngine& engine,
                                  const std::vector<double>& gammas,
                                  const std::vector<bool>& positive,
                                  const TopicModelOptions& options, double smoothing = 0.01,
                                  const CancelToken& cancel = {},
                                  const std::function<void(const SpecificityPoint&)>& onPoint = {});

/// Indices of the `count` largest entries of a topic column, largest first (ties by index).
std::vector<Eigen::Index> topEntries(const Eigen::VectorXd& column, int count);

} // namespace cx
