#include "core/crowd/spectral_crowd.h"

#include "core/common/random.h"
#include "core/tensor/linalg.h"
#include "core/tensor/symmetric_tensor.h"
#include "core/tensor/tensor_power_method.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cx {

namespace {

constexpr double kConfusionFloor = 1e-6;

struct GroupViews {
    std::vector<int> groupOf; // per worker
    Eigen::MatrixXd votes[3]; // N × C
};

GroupViews groupViews(const CrowdLabels& data) {
    std::vector<int> counts(static_cast<size_t>(data.numWorkers), 0);
    for (const CrowdObservation& o : data.observations) {
        ++counts[static_cast<size_t>(o.worker)];
    }
    std::vector<int> order(static_cast<size_t>(data.numWorkers));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return counts[static_cast<size_t>(a)] > counts[static_cast<size_t>(b)];
    });
    GroupViews views;
    views.groupOf.assign(static_cast<size_t>(data.numWorkers), 0);
    for (size_t rank = 0; rank < order.size(); ++rank) {
        views.groupOf[static_cast<size_t>(order[rank])] = static_cast<int>(rank % 3);
    }
    for (auto& z : views.votes) {
        z = Eigen::MatrixXd::Zero(data.numItems, data.numClasses);
    }
    for (const CrowdObservation& o : data.observations) {
        views.votes[views.groupOf[static_cast<size_t>(o.worker)]](o.item, o.label) += 1;
    }
    return views;
}

/// Recovers E[Z_c | component] (C × K) and the weights from views a, b, c.
bool decomposeGroup(const Eigen::MatrixXd& za, const Eigen::MatrixXd& zb, const Eigen::MatrixXd& zc,
                    std::uint64_t seed, Eigen::MatrixXd& means, Eigen::VectorXd& weights,
                    const CancelToken& cancel) {
    const double n = static_cast<double>(za.rows());
    const auto numClasses = static_cast<int>(za.cols());
    const Eigen::MatrixXd mab = za.transpose() * zb / n;
    const Eigen::MatrixXd mba = mab.transpose();
    const Eigen::MatrixXd mcb = zc.transpose() * zb / n;
    const Eigen::MatrixXd mca = zc.transpose() * za / n;
    const Eigen::MatrixXd symA = za * (mcb * rankKPseudoInverse(mab, numClasses)).transpose();
    const Eigen::MatrixXd symB = zb * (mca * rankKPseudoInverse(mba, numClasses)).transpose();
    Eigen::MatrixXd m2 = symA.transpose() * symB / n;
    m2 = 0.5 * (m2 + m2.transpose());
    SymmetricTensor3 m3(numClasses);
    for (Eigen::Index item = 0; item < za.rows(); ++item) {
        for (int p = 0; p < numClasses; ++p) {
            for (int q = 0; q < numClasses; ++q) {
                const double pq = symA(item, p) * symB(item, q) / n;
                for (int r = 0; r < numClasses; ++r) {
                    m3(p, q, r) += pq * zc(item, r);
                }
            }
        }
    }
    m3.symmetrize();
    PowerMethodOptions options;
    options.numComponents = numClasses;
    options.iterations = 100;
    options.restarts = 10;
    options.seed = seed;
    const PowerMethodResult power = generalizedPowerMethod(m2, m3, options, cancel);
    if (power.status == Status::NumericalIssue || !power.components.allFinite()) {
        return false;
    }
    means.resize(numClasses, numClasses);
    weights.resize(numClasses);
    for (int t = 0; t < numClasses; ++t) {
        const double lambda = power.lambdas[t];
        if (!(std::abs(lambda) > 0)) {
            return false;
        }
        means.col(t) = (power.components.col(t) * lambda).cwiseMax(0.0);
        weights[t] = 1.0 / (lambda * lambda);
    }
    // Component t ↔ class: the Hungarian match of the normalised means' diagonal.
    Eigen::MatrixXd cost(numClasses, numClasses);
    for (int l = 0; l < numClasses; ++l) {
        for (int t = 0; t < numClasses; ++t) {
            const double total = means.col(t).sum();
            cost(l, t) = total > 0 ? -means(l, t) / total : 0.0;
        }
    }
    const std::vector<int> componentOfClass = hungarianAssignment(cost);
    Eigen::MatrixXd aligned(numClasses, numClasses);
    Eigen::VectorXd alignedWeights(numClasses);
    for (int l = 0; l < numClasses; ++l) {
        aligned.col(l) = means.col(componentOfClass[static_cast<size_t>(l)]);
        alignedWeights[l] = weights[componentOfClass[static_cast<size_t>(l)]];
    }
    means = aligned;
    weights = alignedWeights;
    return means.allFinite() && weights.allFinite();
}

} // namespace

SpectralCrowdResult spectralCrowdInitialization(const CrowdLabels& data, std::uint64_t seed,
                                                const CancelToken& cancel) {
    SpectralCrowdResult result;
    result.status = Status::NumericalIssue;
    if (data.numWorkers < 3 || data.numClasses < 2) {
        result.note = "spectral initialisation needs at least 3 workers and 2 classes";
        return result;
    }
    const GroupViews views = groupViews(data);
    const int numClasses = data.numClasses;
    Eigen::VectorXd weightSum = Eigen::VectorXd::Zero(numClasses);
    for (int c = 0; c < 3; ++c) {
        const int a = (c + 1) % 3;
        const int b = (c + 2) % 3;
        Eigen::VectorXd weights;
        if (!decomposeGroup(views.votes[a], views.votes[b], views.votes[c],
                            deriveSeed(seed, static_cast<std::uint64_t>(c)), result.groupMeans[c],
                            weights, cancel)) {
            result.note = "the tensor decomposition of worker group " + std::to_string(c + 1) +
                          " is degenerate (too few labels per group, or classes the groups "
                          "cannot tell apart)";
            return result;
        }
        weightSum += weights;
    }
    ProductMixture& model = result.model;
    model.weights = weightSum.cwiseMax(1e-6);
    model.weights /= model.weights.sum();
    model.missingRate = missingRates(data);
    model.conditionals.assign(static_cast<size_t>(data.numWorkers),
                              Eigen::MatrixXd::Constant(numClasses, numClasses, 1.0 / numClasses));
    // Worker m of group g is regressed on the sum of the other two groups' votes (the authors'
    // reference implementation): E[e_{x_m} (Z_a + Z_b)ᵀ] = (1 − r_m)·C_m diag(w) (μ_a + μ_b)ᵀ uses
    // about twice the labels of one group, so the estimate of C_m has about half the variance.
    std::vector<Eigen::MatrixXd> cross(static_cast<size_t>(data.numWorkers),
                                       Eigen::MatrixXd::Zero(numClasses, numClasses));
    for (const CrowdObservation& o : data.observations) {
        const int g = views.groupOf[static_cast<size_t>(o.worker)];
        cross[static_cast<size_t>(o.worker)].row(o.label) +=
            views.votes[(g + 1) % 3].row(o.item) + views.votes[(g + 2) % 3].row(o.item);
    }
    for (int m = 0; m < data.numWorkers; ++m) {
        const int g = views.groupOf[static_cast<size_t>(m)];
        const Eigen::MatrixXd otherMeans =
            result.groupMeans[(g + 1) % 3] + result.groupMeans[(g + 2) % 3];
        const Eigen::MatrixXd design = model.weights.asDiagonal() * otherMeans.transpose(); // C × C
        Eigen::MatrixXd confusion =
            cross[static_cast<size_t>(m)] / data.numItems * rankKPseudoInverse(design, numClasses);
        confusion = confusion.cwiseMax(kConfusionFloor);
        for (int l = 0; l < numClasses; ++l) {
            confusion.col(l) /= confusion.col(l).sum();
        }
        model.conditionals[static_cast<size_t>(m)] = confusion;
    }
    result.status = Status::Successful;
    return result;
}

} // namespace cx
