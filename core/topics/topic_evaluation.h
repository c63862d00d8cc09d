#pragma once

#include "core/common/cancel.h"
#include "core/io/corpus.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/topic_path.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cx {

/// Smoothing argument of perTokenLogLikelihood that selects the Jeffreys rule (below).
constexpr double kAutoSmoothing = 0.0;

/// Per-token log marginal likelihood of each listed document under the foreground-specific
/// topics of `model` (components with λ̂ > 0):
///   (1/ℓ_n) · log Σ_{t: λ̂_t>0} π_t Π_i μ̃_t(i)^{c_n(i)},   π_t = ω_t / Σ ω,
///   μ̃_t = (μ_t + α_t) / (1 + D·α_t)   (additive smoothing).
/// `smoothing` > 0 is a fixed α for every topic. kAutoSmoothing (0) applies the Jeffreys rule:
/// topic t stands for about n_t = π_t·T tokens of the listed documents (T their total), and a
/// Jeffreys prior adds a pseudo-count ½ per word, μ̃_t = (n_t μ_t + ½)/(n_t + D/2), i.e.
/// α_t = 1/(2 n_t): the smoothing shrinks as the data behind a topic grow, whatever the corpus.
/// The multinomial coefficient is omitted (it is the same for every model). Returns NaN for every
/// document when the model has no foreground-specific topic. Cost O(nnz·K + D·K).
/// \throws std::invalid_argument for a negative or non-finite smoothing.
Eigen::VectorXd perTokenLogLikelihood(const CountMatrix& counts,
                                      const std::vector<std::int64_t>& documents,
                                      const TopicModelResult& model,
                                      double smoothing = kAutoSmoothing);

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
    /// Components whose weight is outside [−γ, 1] (topic_admissibility.h, point rule): kept and
    /// scored like any other, but no genuine topic.
    int numInadmissible = 0;
    double solveMs = 0;
    double scoreMs = 0;
    /// Why the AUC is missing (NaN) at this γ: no solution (K above the rank, …) or no
    /// foreground-specific topic; "" for a valid point. Points are never dropped.
    std::string failure;
};

struct SpecificitySweep {
    double baselineAuc = 0; ///< AUC at γ = 0
    std::vector<SpecificityPoint> points;
    /// The path behind the points: solveTopicPath over {0} ∪ the grid, sorted (the points
    /// follow the grid's order).
    TopicPath path;
};

/// Specificity test over a γ grid on the path of solutions (solveTopicPath over {0} ∪ the grid,
/// so every point continues its neighbour and γ = 0 is the baseline): per-token likelihood of
/// every foreground document, AUC with `positive` (one flag per engine.foreground() document),
/// and AUC relative to γ = 0. `onPoint` (optional) is called after each grid point, e.g. to
/// stream results to a chart.
SpecificitySweep specificitySweep(const ContrastiveTopicEngine& engine,
                                  const std::vector<double>& gammas,
                                  const std::vector<bool>& positive,
                                  const TopicModelOptions& options,
                                  double smoothing = kAutoSmoothing,
                                  const CancelToken& cancel = {},
                                  const std::function<void(const SpecificityPoint&)>& onPoint = {});

/// AUC of one model on the engine's foreground documents (NaN without a foreground-specific
/// topic). \pre positive has one flag per engine.foreground() document.
double specificityAuc(const ContrastiveTopicEngine& engine, const TopicModelResult& model,
                      const std::vector<bool>& positive, double smoothing = kAutoSmoothing);

/// Indices of the `count` largest entries of a topic column, largest first (ties by index).
std::vector<Eigen::Index> topEntries(const Eigen::VectorXd& column, int count);

} // namespace cx
