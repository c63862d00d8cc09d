#pragma once

#include "core/common/cancel.h"
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
/// first in the file (the convention of the published reference numbers). Items nobody
/// labelled get class 0.
std::vector<int> majorityVote(const CrowdLabels& data);

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

/// Plain EM with random restarts: each restart draws responsibilities from Dirichlet(1) rows
/// (seeded by deriveSeed(seed, restart)); the fit of highest log-likelihood is returned.
/// \throws std::invalid_argument if numComponents < 1 or restarts < 1.
EmFit emWithRestarts(const CrowdLabels& data, int numComponents, int restarts, std::uint64_t seed,
                     const EmOptions& options, const CancelToken& cancel = {});

} // namespace cx
