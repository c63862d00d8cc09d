#pragma once

#include "core/io/crowd_labels.h"

#include <Eigen/Dense>

#include <vector>

namespace cx {

/// Mixture of discrete product distributions over the workers' labels (Zhao & Zucker 2015, §2):
///
///   P(x_n) = Σ_k w_k Π_m P(x_nm | z = k),
///
/// with a "missing label" category per worker whose probability r_m is the worker's observed
/// missing fraction, the same in every component and frozen (Zhao & Zucker 2015, §4). For the
/// observed categories P(x_nm = c | k) = (1 − r_m)·θ_m(c, k); r_m cancels from every posterior, so
/// the E-step and the M-step only involve θ. In crowdsourcing a component is a true class and
/// θ_m(·, k) is worker m's confusion row for that class.
struct ProductMixture {
    Eigen::VectorXd weights;                   ///< w_k, sums to 1
    std::vector<Eigen::MatrixXd> conditionals; ///< per worker: numClasses × K, column k = θ_m(·, k)
    Eigen::VectorXd missingRate;               ///< r_m, frozen

    int numComponents() const { return static_cast<int>(weights.size()); }
    int numFeatures() const { return static_cast<int>(conditionals.size()); }
};

/// The observed categories of every item, grouped by item (CSR), built once per data set so
/// that an E-step is one pass over the observations.
struct ItemObservations {
    std::vector<int> offsets; ///< item n's observations are [offsets[n], offsets[n+1])
    std::vector<int> workers;
    std::vector<int> labels;
    explicit ItemObservations(const CrowdLabels& data);
};

/// A feature subset for the regularised E-step: mask[m] != 0 keeps worker m. Empty = all.
using FeatureMask = std::vector<char>;

/// Posterior responsibilities (numItems × K, rows sum to 1) and the log-likelihood of the
/// features used.
struct EStepResult {
    Eigen::MatrixXd posterior;
    double logLikelihood = 0; ///< Σ_n log Σ_k w_k Π_{m ∈ mask} θ_m(x_nm, k) (observed only)
};

/// Every worker's missing fraction r_m = 1 − (labels of m)/numItems.
Eigen::VectorXd missingRates(const CrowdLabels& data);

/// The one-component model: θ_m = worker m's empirical label frequencies (Zhao & Zucker 2015, Alg.
/// 1's initialisation; a good estimate for every uninformative worker).
ProductMixture empiricalMarginals(const CrowdLabels& data);

/// E-step restricted to the features in `mask` (empty = all): q_nk ∝ w_k Π_{m∈mask} θ_m(x_nm,k),
/// computed in log space. Cost O(observations · K).
EStepResult eStep(const ItemObservations& items, const ProductMixture& model,
                  const FeatureMask& mask = {});

/// M-step for every feature given responsibilities: w_k = Σ_n q_nk / N and
/// θ_m(c, k) = (Σ_n q_nk [x_nm = c] + α) / (Σ_n q_nk [x_nm observed] + C·α) with α = smoothing
/// (α > 0 keeps every log finite). missingRate is copied from `missing`.
/// \pre posterior is numItems × K with rows summing to 1.
ProductMixture mStep(const CrowdLabels& data, const Eigen::MatrixXd& posterior, double smoothing,
                     const Eigen::VectorXd& missing);

/// Full marginal log-likelihood of the data under the model, missing-label categories
/// included: Σ_n log Σ_k w_k Π_m P(x_nm | k) (all workers).
double logLikelihood(const CrowdLabels& data, const ItemObservations& items,
                     const ProductMixture& model);

/// Log-likelihood contribution of the frozen missing-label categories,
/// Σ_m [(N − n_m)·log r_m + n_m·log(1 − r_m)] (0·log 0 = 0).
double missingLabelLogLikelihood(const CrowdLabels& data, const Eigen::VectorXd& missing);

/// Maps components to classes for crowdsourcing: score(k, c) = Σ_m θ_m(c, k) (the votes a
/// component expects for class c). With K ≤ C a one-to-one assignment maximising the total
/// score (Hungarian); with K > C each component goes to its best class.
std::vector<int> componentClasses(const ProductMixture& model);

/// Posterior over classes (numItems × C): the responsibilities of the components mapped to
/// each class summed.
Eigen::MatrixXd classPosterior(const Eigen::MatrixXd& posterior, const std::vector<int>& classOf,
                               int numClasses);

/// Arg-max class of each row (lowest index on exact ties).
std::vector<int> argmaxRows(const Eigen::MatrixXd& matrix);

} // namespace cx
