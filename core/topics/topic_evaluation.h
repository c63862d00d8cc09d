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

/// Smoothing argument of perTokenLogLikelihood that selects the automatic rule (below).
constexpr double kAutoSmoothing = 0.0;

/// Where the automatic smoothing puts its pseudo-counts.
enum class SmoothingPrior {
    /// In proportion to each word's frequency in the scored documents (the default).
    WordFrequency,
    /// The same for every word: the Jeffreys prior ½ per word (the rule before sessions carried
    /// a prior; such sessions reopen with it).
    Uniform,
};

/// Name in sessions, the CLI and --json ("frequency", "uniform").
const char* smoothingPriorName(SmoothingPrior prior);
/// \throws std::invalid_argument for another name.
SmoothingPrior parseSmoothingPrior(const std::string& name);

/// The scorer's smoothing: a fixed additive α > 0, or kAutoSmoothing with a prior.
struct ScorerSmoothing {
    double alpha = kAutoSmoothing;
    SmoothingPrior prior = SmoothingPrior::WordFrequency;
    ScorerSmoothing() = default;
    ScorerSmoothing(
        double fixedAlpha,
        SmoothingPrior autoPrior = SmoothingPrior::WordFrequency) // NOLINT: a bare α converts
        : alpha(fixedAlpha), prior(autoPrior) {}
    bool operator==(const ScorerSmoothing&) const = default;
};

/// The scorer's smoothed topics (the rule perTokenLogLikelihood documents below), shared by every
/// scorer so that there is one smoothing: a row-major D × k table of log μ̃ over the listed
/// components (column j = components[j]) and log π_j = log(componentWeights[j] / Σ weights).
/// `documents` are the documents the automatic rule counts tokens over.
struct SmoothedTopics {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> logTopics;
    Eigen::VectorXd logPrior;
};
/// \throws std::invalid_argument for a negative or non-finite smoothing, or a weight count that
/// differs from the component count.
SmoothedTopics
smoothedLogTopics(const CountMatrix& counts, const std::vector<std::int64_t>& documents,
                  const TopicModelResult& model, const std::vector<Eigen::Index>& components,
                  const Eigen::VectorXd& componentWeights, const ScorerSmoothing& smoothing);

/// Per-token log marginal likelihood of each listed document under the foreground-specific
/// topics of `model` (components with λ̂ > 0):
///   (1/ℓ_n) · log Σ_{t: λ̂_t>0} π_t Π_i μ̃_t(i)^{c_n(i)},   π_t = ω_t / Σ ω.
/// Fixed α > 0: μ̃_t = (μ_t + α)/(1 + D·α) (additive smoothing).
/// kAutoSmoothing: topic t stands for about n_t = π_t·T tokens of the listed documents (T their
/// total) and a Dirichlet prior of total mass D/2 (the Jeffreys prior's mass, ½ per word) is
/// added to them, μ̃_t = (n_t μ_t + (D/2)·p)/(n_t + D/2): the smoothing shrinks as the data
/// behind a topic grow, whatever the corpus. The prior's shape p is
///  - WordFrequency (default): p(i) = the word's share of the listed documents' tokens. A word
///    that the spectral estimate puts at zero (clipped noise) then costs what its frequency
///    says, not the same ½ pseudo-count for a common and a rare word; with the uniform shape
///    the AUC hinges on which words fall just below zero, which changes from one γ to the next.
///  - Uniform: p(i) = 1/D, i.e. α_t = 1/(2 n_t) (the Jeffreys rule).
/// The multinomial coefficient is omitted (it is the same for every model). Returns NaN for every
/// document when the model has no foreground-specific topic. Cost O(nnz·K + D·K).
/// \throws std::invalid_argument for a negative or non-finite smoothing.
Eigen::VectorXd perTokenLogLikelihood(const CountMatrix& counts,
                                      const std::vector<std::int64_t>& documents,
                                      const TopicModelResult& model,
                                      const ScorerSmoothing& smoothing = {});

/// Area under the ROC curve of `scores` for the binary labels `positive` (Mann–Whitney U with
/// ties counted one half). Higher score = more likely positive. NaN if either class is empty
/// or any score is NaN. Cost O(n log n).
double rocAuc(const Eigen::VectorXd& scores, const std::vector<bool>& positive);

/// One point of a specificity sweep (Zou et al. 2013 §3.2, Fig. 2a).
struct SpecificityPoint {
    double gamma = 0;
    double auc = 0;         ///< AUC of per-token likelihood for positives vs other fg documents
    double relativeAuc = 0; ///< auc / auc(γ = 0)
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
    /// The split-half check of `path` (splitHalfPath; replicates == 0 when it was not run):
    /// judgeSweep does not stand behind a γ whose foreground-specific components are not
    /// found in both halves of the documents.
    PathBootstrap halves;
};

/// Specificity test over a γ grid on the path of solutions (solveTopicPath over {0} ∪ the grid,
/// so every point continues its neighbour and γ = 0 is the baseline): per-token likelihood of
/// every foreground document, AUC with `positive` (one flag per engine.foreground() document),
/// and AUC relative to γ = 0. `onPoint` (optional) is called after each grid point, e.g. to
/// stream results to a chart.
SpecificitySweep
specificitySweep(const ContrastiveTopicEngine& engine, const std::vector<double>& gammas,
                 const std::vector<bool>& positive, const TopicModelOptions& options,
                 const ScorerSmoothing& smoothing = {}, const CancelToken& cancel = {},
                 const std::function<void(const SpecificityPoint&)>& onPoint = {});

/// AUC of one model on the engine's foreground documents (NaN without a foreground-specific
/// topic). \pre positive has one flag per engine.foreground() document.
double specificityAuc(const ContrastiveTopicEngine& engine, const TopicModelResult& model,
                      const std::vector<bool>& positive, const ScorerSmoothing& smoothing = {});

/// Indices of the `count` largest entries of a topic column, largest first (ties by index).
std::vector<Eigen::Index> topEntries(const Eigen::VectorXd& column, int count);

} // namespace cx
