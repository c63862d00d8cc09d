#pragma once

#include "core/topics/contrastive_topic_model.h"

#include <Eigen/Core>

#include <cmath>
#include <vector>

namespace cx::test {

/// A topic-model result with the given signed weights at γ (topics: distinct point masses, so
/// matching by cosine is unambiguous). Shared by the admissibility and trust tests.
inline TopicModelResult handMadeResult(double gamma, const std::vector<double>& signedWeights) {
    const auto k = static_cast<Eigen::Index>(signedWeights.size());
    TopicModelResult r;
    r.gamma = gamma;
    r.topics = Eigen::MatrixXd::Zero(k + 2, k);
    r.lambdas.resize(k);
    r.weights.resize(k);
    r.signedWeights.resize(k);
    r.clippedMass = Eigen::VectorXd::Zero(k);
    for (Eigen::Index t = 0; t < k; ++t) {
        const double w = signedWeights[static_cast<size_t>(t)];
        r.topics(t, t) = 0.9;
        r.topics(k, t) = 0.1;
        r.signedWeights[t] = w;
        r.lambdas[t] = (w > 0 ? 1.0 : -1.0) / std::sqrt(std::abs(w));
        r.weights[t] = w > 0 ? w : 0.0;
        r.foregroundSpecific.push_back(w > 0);
    }
    r.status = Status::Successful;
    return r;
}

} // namespace cx::test
