#pragma once

#include "core/common/cancel.h"
#include "core/common/random.h"
#include "core/common/status.h"
#include "core/crowd/product_mixture.h"

#include <cstdint>
#include <vector>

namespace cx {

struct EmOptions {
    int maxIterations = 100;
    /// Converged when the relative log-likelihood gain falls below this (0 = run maxIterations).
    double tolerance = 1e-9;
    /// Additive (Dirichlet) smoothing α of every θ_m(·, k) in the M-step.
    double smoothing = 0.01;
};

/// An EM run: the model and responsibilities after the last E-step.
struct EmFit {
    ProductMixture model;
    Eigen::MatrixXd posterior;          ///< numItems × K, from the last E-step on `model`
    std::vector<double> logLikelihoods; ///< full log-likelihood after each M-step (non-decreasing)
    int iterations = 0;
    Status status = Status::NotComputed; ///< Successful = converged, NotConverged = hit the cap
    double finalLogLikelihood() const { return logLikelihoods.empty() ? 0 : logLikelihoods.back(); }
};

/// Majority vote: the most frequent label of each item, ties broken toward the label seen
/// first in the file. Items nobody labelled get class 0. Not the `mv` method's rule: the order
/// of a file is not a property of the crowd (in TEMP the first label of an item tends to come
/// from an accurate worker), so this is reported only for comparison (`error_rate_first_seen`).
std::vector<int> majorityVote(const CrowdLabels& data);

/// Majority vote with every tie broken uniformly at random among the classes tied for the most
/// votes (an item nobody labelled ties all classes): one draw per tied item, in item order, from
/// Rng(seed). The `mv` method's labels; independent of the order of the file and of the labels.
std::vector<int> majorityVoteRandomTieBreak(const CrowdLabels& data, std::uint64_t seed);

/// Majority vote's gold error when every tie is broken uniformly at random among the tied
/// classes (the convention of Zhang, Chen, Zhou & Jordan 2014, whose reference code counts a
/// tied item as 1/|tied classes| correct when gold is among them): the expected error rate over
/// the tie-breaks, and the number of gold items with a tie for the most votes (an item nobody
/// labelled ties all classes). NaN error and 0 ties without gold.
struct MajorityVoteTies {
    double expectedErrorRate = 0;
    int tiedGoldItems = 0;
};
MajorityVoteTies majorityVoteRandomTies(const CrowdLabels& data);

/// Soft majority vote: row n = the fractions of item n's labels per class (uniform when the
/// item has none). The initial responsibilities of Dawid–Skene EM ("MV-EM").
Eigen::MatrixXd majorityVoteFractions(const CrowdLabels& data);

/// EM (Dawid & Skene 1979 when K = number of classes) from initial responsibilities: M-step,
/// E-step, … until the relative gain < tolerance. The log-likelihood never decreases (up to
/// rounding). Cost O(iterations · observations · K).
EmFit emFromPosterior(const CrowdLabels& data, const Eigen::MatrixXd& initialPosterior,
                      const EmOptions& options, const CancelToken& cancel = {});

/// EM from initial parameters: E-step first, then as above.
EmFit emFromModel(const CrowdLabels& data, const ProductMixture& initial, const EmOptions& options,
                  const CancelToken& cancel = {});

/// Soft weighted vote: row n ∝ Σ_{m labelled n} w_m·e_{x_nm} (uniform when the item has no label
/// of positive weight). With every w_m = 1 this is majorityVoteFractions.
/// \pre workerWeights has numWorkers non-negative entries.
Eigen::MatrixXd weightedVoteFractions(const CrowdLabels& data,
                                      const Eigen::VectorXd& workerWeights);

/// Class responsibilities (numItems × C) turned into K component responsibilities: K = C keeps
/// them; K < C merges class c into component c mod K; K > C shares class c among components
/// c, c + C, c + 2C, … < K with Dirichlet(1) proportions drawn per item from `rng`.
Eigen::MatrixXd classFractionsToComponents(const Eigen::MatrixXd& fractions, int numComponents,
                                           Rng& rng);

/// The starting responsibilities of restart r of emWithRestarts: r = 0 the majority vote
/// (majorityVoteFractions, i.e. MV-EM's start); r ≥ 1 a random weighted vote whose worker
/// weights are i.i.d. Exp(1) (uniform on the simplex up to scale), drawn from
/// Rng(deriveSeed(seed, r)). Data-driven and diverse: each start is a vote that trusts a
/// random subset of workers more, so EM explores the optima a reliability-weighted
/// aggregation can reach, not the arbitrary confusion matrices of Dirichlet draws (which on
/// sparse crowds — 10 labels per item — mostly end in poor optima). Parameter-free.
Eigen::MatrixXd restartResponsibilities(const CrowdLabels& data, int numComponents, int restart,
                                        std::uint64_t seed);

/// Plain EM with restarts from restartResponsibilities (restart 0 = majority vote, the others
/// random weighted votes); the fit of highest log-likelihood is returned (ties: the earlier
/// restart). Every restart's final log-likelihood is written to `restartLogLikelihoods` when
/// given. \throws std::invalid_argument if numComponents < 1 or restarts < 1.
EmFit emWithRestarts(const CrowdLabels& data, int numComponents, int restarts, std::uint64_t seed,
                     const EmOptions& options, const CancelToken& cancel = {},
                     std::vector<double>* restartLogLikelihoods = nullptr);

} // namespace cx
