#include "core/crowd/synthetic_crowd.h"

#include "core/common/random.h"

#include <cmath>
#include <stdexcept>

namespace cx {

SyntheticCrowd generateSparseCrowd(const SparseCrowdSpec& spec) {
    const int numInformative = static_cast<int>(spec.informativeAccuracy.size());
    if (spec.numItems < 1 || spec.numWorkers < 1 || spec.numClasses < 2 ||
        numInformative > spec.numWorkers || !(spec.labelProbability >= 0) ||
        spec.labelProbability > 1) {
        throw std::invalid_argument("generateSparseCrowd: items " + std::to_string(spec.numItems) +
                                    ", workers " + std::to_string(spec.numWorkers) + ", classes " +
                                    std::to_string(spec.numClasses) + ", informative " +
                                    std::to_string(numInformative) + ", label probability " +
                                    std::to_string(spec.labelProbability));
    }
    for (double accuracy : spec.informativeAccuracy) {
        if (!(accuracy >= 0 && accuracy <= 1)) {
            throw std::invalid_argument("generateSparseCrowd: accuracy " +
                                        std::to_string(accuracy) + " outside [0, 1]");
        }
    }
    const int numClasses = spec.numClasses;
    Rng rng(spec.seed);
    SyntheticCrowd out;
    ProductMixture& truth = out.truth;
    truth.weights = Eigen::VectorXd::Constant(numClasses, 1.0 / numClasses);
    truth.missingRate = Eigen::VectorXd::Constant(spec.numWorkers, 1.0 - spec.labelProbability);
    out.informative.assign(static_cast<size_t>(spec.numWorkers), 0);
    for (int m = 0; m < spec.numWorkers; ++m) {
        Eigen::MatrixXd theta(numClasses, numClasses);
        if (m < numInformative) {
            const double accuracy = spec.informativeAccuracy[static_cast<size_t>(m)];
            theta.setConstant((1.0 - accuracy) / (numClasses - 1));
            theta.diagonal().setConstant(accuracy);
            out.informative[static_cast<size_t>(m)] = 1;
        } else {
            theta = rng.dirichlet(numClasses, 1.0).replicate(1, numClasses);
        }
        truth.conditionals.push_back(theta);
    }
    std::vector<int> labels(static_cast<size_t>(spec.numItems) * spec.numWorkers,
                            CrowdLabels::kMissingLabel);
    std::vector<int> gold(static_cast<size_t>(spec.numItems));
    auto draw = [&](const Eigen::VectorXd& probabilities) {
        const double u = rng.uniform();
        double cumulative = 0;
        for (Eigen::Index c = 0; c < probabilities.size(); ++c) {
            cumulative += probabilities[c];
            if (u < cumulative) {
                return static_cast<int>(c);
            }
        }
        return static_cast<int>(probabilities.size() - 1);
    };
    for (int n = 0; n < spec.numItems; ++n) {
        const int y = static_cast<int>(rng.below(static_cast<std::uint64_t>(numClasses)));
        gold[static_cast<size_t>(n)] = y;
        for (int m = 0; m < spec.numWorkers; ++m) {
            if (spec.labelProbability < 1 && rng.uniform() >= spec.labelProbability) {
                continue;
            }
            labels[static_cast<size_t>(n) * spec.numWorkers + static_cast<size_t>(m)] =
                draw(truth.conditionals[static_cast<size_t>(m)].col(y));
        }
    }
    out.data = crowdLabelsFromMatrix(spec.numItems, spec.numWorkers, numClasses, labels, gold);
    // Only the realised missing fractions are known to a fitted model; the generating model
    // keeps the nominal rate (labelProbability).
    return out;
}

SparseCrowdSpec betaSparseSpec(double beta, double accuracy, int numItems, int numWorkers,
                               int numClasses, std::uint64_t seed) {
    SparseCrowdSpec spec;
    spec.numItems = numItems;
    spec.numWorkers = numWorkers;
    spec.numClasses = numClasses;
    spec.seed = seed;
    const int numInformative = static_cast<int>(std::lround(beta * numWorkers));
    spec.informativeAccuracy.assign(static_cast<size_t>(std::max(0, numInformative)), accuracy);
    return spec;
}

SparseCrowdSpec decayingExpertsSpec(double first, double last, int numInformative, int numItems,
                                    int numWorkers, int numClasses, std::uint64_t seed) {
    SparseCrowdSpec spec;
    spec.numItems = numItems;
    spec.numWorkers = numWorkers;
    spec.numClasses = numClasses;
    spec.seed = seed;
    for (int m = 0; m < numInformative; ++m) {
        const double t = numInformative > 1 ? static_cast<double>(m) / (numInformative - 1) : 0.0;
        spec.informativeAccuracy.push_back(first + t * (last - first));
    }
    return spec;
}

} // namespace cx
