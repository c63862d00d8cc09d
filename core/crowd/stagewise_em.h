#pragma once

#include "core/common/cancel.h"
#include "core/common/status.h"
#include "core/crowd/conditional_mutual_information.h"
#include "core/crowd/product_mixture.h"

#include <vector>

namespace cx {

struct StagewiseOptions {
    int numComponents = 2; ///< the most components the model may grow to (crowds: classes)
    /// The most rounds that add nothing to S (rounds that add are bounded by the number of
    /// workers: each enters S once).
    int maxIterations = 50;
    /// Converged when an iteration adds no feature and the relative change of the full
    /// log-likelihood is below this.
    double tolerance = 1e-7;
    double smoothing = 0.01; ///< additive smoothing of the M-step (as EmOptions)
    /// 0 (default) = Zhao & Zucker 2015's rule: the pair of the largest entry joins S whenever one
    /// of the two is outside S. A level in (0, 1) also requires the entry to be significant:
    /// 2·N·entry above the χ² quantile of 1 − significance / (number of tests), Bonferroni over
    /// every (pair, component) — a guard against adding workers on sampling noise alone.
    double significance = 0;
    /// Sparse crowds (each pair of workers shares few items): > 0 = every round, each worker
    /// outside S is tested for dependence of its labels on the current responsibilities
    /// (workerComponentInformation: G = 2·N·entry against χ², Zhao & Zucker 2015's own definition
    /// of an uninformative feature — the same conditional in every component), and every worker the
    /// multiple-testing procedure rejects at this level (family: the workers outside S) joins S,
    /// strongest first. Not in a round that split a component. 0 = the paper's algorithm alone.
    double extensionSignificance = 0.05;
    /// The extension's procedure. Benjamini–Hochberg (default): choosing features is screening,
    /// where the error that matters is the fraction of noise workers among those admitted (a
    /// noise worker in S costs little: its fitted rows are nearly equal across components); on
    /// real crowds most workers are informative, and a family-wise procedure (Holm) then leaves
    /// out most workers with few labels. Holm: family-wise error at the level, per round.
    MultipleTesting extensionProcedure = MultipleTesting::BenjaminiHochberg;
};

/// One round of Alg. 1.
struct StagewiseIteration {
    double logLikelihood = 0;   ///< full log-likelihood (all workers) after the round's M-step
    double maxCmi = 0;          ///< max_{i≠j,k} Q(k)·I(x_i; x_j | k) at the start of the round
    int informativeSetSize = 0; ///< |S| after the round
    int numComponents = 0;      ///< after the round
    int addedFirst = -1;        ///< the pair the pair rule added this round (-1 = none)
    int addedSecond = -1;
    std::vector<int> added;  ///< every feature that joined S this round (pair, then extension)
    int splitComponent = -1; ///< the component duplicated this round (-1 = none)
};

struct StagewiseResult {
    ProductMixture model;
    Eigen::MatrixXd posterior;         ///< regularised E-step (features in S) of `model`
    std::vector<char> informative;     ///< per worker: in S
    std::vector<int> informativeOrder; ///< S in the order the workers entered it
    std::vector<StagewiseIteration> trace;
    int iterations = 0;
    Status status = Status::NotComputed;
};

/// Stagewise EM (Zhao & Zucker 2015, Alg. 1; SPEC §3.4). Starts from one component equal to the
/// empirical marginals and S = ∅. Each round: the regularised E-step's responsibilities give
/// the hybrid distribution's CMI tensor (conditionalMutualInformation); if the pair (i, j) of
/// its largest entry (i, j, k) is not inside S already (and, optionally, the entry is
/// significant), i and j join S and, while the model has fewer than numComponents components,
/// component k is split (splitComponent; with the extension on, also when i and j are both in
/// S: a large entry inside S means the model does not fit them yet, Prop. 3.1); in a round
/// without a split, the extension adds every worker outside S its multiple-testing procedure
/// rejects; then a regularised E-step (features in S only) and a full M-step (every feature).
/// Deterministic: no random draw anywhere. Cost per round
/// O(K·Σ_n L_n²) for the CMI (L_n labels of item n) plus O(observations·K).
StagewiseResult stagewiseEm(const CrowdLabels& data, const StagewiseOptions& options,
                            const CancelToken& cancel = {});

/// Duplicates component k (halving its weight; the copy is appended as component K) and breaks
/// the symmetry (Zhao & Zucker 2015, §3.2): with every parameter frozen except θ_i(·, k), θ_j(·, k)
/// and their copies, the negative log-likelihood of the features in `mask` is a saddle at the
/// duplicate; the step follows the eigenvector of the most negative eigenvalue of its Hessian
/// (analytic, on the tangent space of the simplices), its length chosen by a line search on
/// the same objective that keeps every probability ≥ 10⁻³. \pre mask[i] and mask[j] set.
ProductMixture splitComponent(const CrowdLabels& data, const ItemObservations& items,
                              const ProductMixture& model, int k, int i, int j,
                              const FeatureMask& mask);

/// The restricted objective's Hessian of splitComponent (tests): negative log-likelihood of
/// the features in mask, with respect to the raw parameters (θ_i(·,k), θ_j(·,k), θ_i(·,k'),
/// θ_j(·,k')) of a model that already holds both copies (k' = kCopy).
Eigen::MatrixXd splitHessian(const ItemObservations& items, const ProductMixture& model, int k,
                             int kCopy, int i, int j, const FeatureMask& mask);

} // namespace cx
