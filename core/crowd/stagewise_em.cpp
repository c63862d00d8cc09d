#include "core/crowd/stagewise_em.h"

#include "core/tensor/linalg.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cx {

namespace {

constexpr double kProbabilityFloor = 1e-3;

/// The four free blocks of a split: (component, feature) pairs, each a column of C entries.
struct FreeBlocks {
    int component[4];
    int feature[4];
};

FreeBlocks freeBlocks(int k, int kCopy, int i, int j) {
    return {{k, k, kCopy, kCopy}, {i, j, i, j}};
}

/// Gradient-of-likelihood ratios and second-derivative ratios (Zhao & Zucker 2015, §3.2) summed
/// into the Hessian of −log-likelihood. For item n with responsibilities r_nl: ∂p_n/∂θ_f(a,l) / p_n
/// = r_nl [x_nf = a] / θ_f(a,l), and ∂²p_n/∂θ_i(a,l)∂θ_j(b,l) / p_n = r_nl [x_ni=a][x_nj=b] /
/// (θ_i(a,l)·θ_j(b,l)) (zero for the same feature: p is linear in each column, and zero across
/// components). H(−log p_n) = g gᵀ − P2.
Eigen::MatrixXd hessianFromPosterior(const ItemObservations& items, const ProductMixture& model,
                                     const Eigen::MatrixXd& posterior, const FreeBlocks& blocks) {
    const int numClasses = static_cast<int>(model.conditionals.front().rows());
    const int size = 4 * numClasses;
    Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(size, size);
    Eigen::VectorXd gradient(size);
    const int numItems = static_cast<int>(items.offsets.size()) - 1;
    for (int n = 0; n < numItems; ++n) {
        int observed[4] = {-1, -1, -1, -1}; // label of block b's feature on item n
        for (int p = items.offsets[static_cast<size_t>(n)];
             p < items.offsets[static_cast<size_t>(n) + 1]; ++p) {
            for (int b = 0; b < 4; ++b) {
                if (items.workers[static_cast<size_t>(p)] == blocks.feature[b]) {
                    observed[b] = items.labels[static_cast<size_t>(p)];
                }
            }
        }
        gradient.setZero();
        for (int b = 0; b < 4; ++b) {
            if (observed[b] < 0) {
                continue;
            }
            const double theta = model.conditionals[static_cast<size_t>(blocks.feature[b])](
                observed[b], blocks.component[b]);
            gradient[b * numClasses + observed[b]] = posterior(n, blocks.component[b]) / theta;
        }
        hessian.noalias() += gradient * gradient.transpose();
        // Cross terms within a component: blocks (0, 1) and (2, 3).
        for (int b = 0; b < 4; b += 2) {
            if (observed[b] < 0 || observed[b + 1] < 0) {
                continue;
            }
            const int l = blocks.component[b];
            const double value =
                posterior(n, l) /
                (model.conditionals[static_cast<size_t>(blocks.feature[b])](observed[b], l) *
                 model.conditionals[static_cast<size_t>(blocks.feature[b + 1])](observed[b + 1],
                                                                                l));
            const int r = b * numClasses + observed[b];
            const int c = (b + 1) * numClasses + observed[b + 1];
            hessian(r, c) -= value;
            hessian(c, r) -= value;
        }
    }
    return hessian;
}

/// Orthonormal basis (4C × 4(C−1)) of the directions that keep every block on its simplex.
Eigen::MatrixXd tangentBasis(int numClasses) {
    const Eigen::MatrixXd centering =
        Eigen::MatrixXd::Identity(numClasses, numClasses) -
        Eigen::MatrixXd::Constant(numClasses, numClasses, 1.0 / numClasses);
    const Eigen::MatrixXd block = orthonormalBasis(centering, 1e-8);
    const Eigen::Index width = block.cols();
    Eigen::MatrixXd basis = Eigen::MatrixXd::Zero(4 * numClasses, 4 * width);
    for (int b = 0; b < 4; ++b) {
        basis.block(b * numClasses, b * width, numClasses, width) = block;
    }
    return basis;
}

ProductMixture moved(const ProductMixture& model, const FreeBlocks& blocks,
                     const Eigen::VectorXd& direction, double step) {
    ProductMixture out = model;
    const auto numClasses = model.conditionals.front().rows();
    for (int b = 0; b < 4; ++b) {
        out.conditionals[static_cast<size_t>(blocks.feature[b])].col(blocks.component[b]) +=
            step * direction.segment(b * numClasses, numClasses);
    }
    return out;
}

/// Largest step along `direction` keeping every free probability ≥ kProbabilityFloor.
double maxStep(const ProductMixture& model, const FreeBlocks& blocks,
               const Eigen::VectorXd& direction) {
    double limit = std::numeric_limits<double>::infinity();
    const auto numClasses = model.conditionals.front().rows();
    for (int b = 0; b < 4; ++b) {
        for (Eigen::Index a = 0; a < numClasses; ++a) {
            const double d = direction[b * numClasses + a];
            const double theta =
                model.conditionals[static_cast<size_t>(blocks.feature[b])](a, blocks.component[b]);
            if (d < -1e-15) {
                limit = std::min(limit, std::max(0.0, theta - kProbabilityFloor) / -d);
            }
        }
    }
    return std::isfinite(limit) ? limit : 1.0;
}

} // namespace

Eigen::MatrixXd splitHessian(const ItemObservations& items, const ProductMixture& model, int k,
                             int kCopy, int i, int j, const FeatureMask& mask) {
    const EStepResult e = eStep(items, model, mask);
    return hessianFromPosterior(items, model, e.posterior, freeBlocks(k, kCopy, i, j));
}

ProductMixture splitComponent(const CrowdLabels& data, const ItemObservations& items,
                              const ProductMixture& model, int k, int i, int j,
                              const FeatureMask& mask) {
    if (k < 0 || k >= model.numComponents() || i == j || i < 0 || j < 0 || i >= data.numWorkers ||
        j >= data.numWorkers ||
        (!mask.empty() && (!mask[static_cast<size_t>(i)] || !mask[static_cast<size_t>(j)]))) {
        throw std::invalid_argument("splitComponent: k = " + std::to_string(k) +
                                    ", i = " + std::to_string(i) + ", j = " + std::to_string(j) +
                                    " (features must be distinct and in the mask)");
    }
    ProductMixture split = model;
    const int kCopy = model.numComponents();
    split.weights.conservativeResize(kCopy + 1);
    split.weights[k] *= 0.5;
    split.weights[kCopy] = split.weights[k];
    for (Eigen::MatrixXd& theta : split.conditionals) {
        theta.conservativeResize(Eigen::NoChange, kCopy + 1);
        theta.col(kCopy) = theta.col(k);
    }
    // Keep the free columns off the boundary so the Hessian (1/θ terms) is finite.
    const FreeBlocks blocks = freeBlocks(k, kCopy, i, j);
    for (int b = 0; b < 4; ++b) {
        auto column =
            split.conditionals[static_cast<size_t>(blocks.feature[b])].col(blocks.component[b]);
        column = column.cwiseMax(2 * kProbabilityFloor);
        column /= column.sum();
    }
    const int numClasses = data.numClasses;
    const Eigen::MatrixXd hessian = splitHessian(items, split, k, kCopy, i, j, mask);
    const Eigen::MatrixXd basis = tangentBasis(numClasses);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(basis.transpose() * hessian *
                                                                basis);
    const Eigen::VectorXd direction = basis * solver.eigenvectors().col(0);
    // Line search on the restricted objective over both signs and halving steps.
    const double reach = std::min(maxStep(split, blocks, direction),
                                  maxStep(split, blocks, Eigen::VectorXd(-direction)));
    ProductMixture best = split;
    double bestValue = -std::numeric_limits<double>::infinity();
    double step = reach;
    for (int halving = 0; halving < 8; ++halving, step *= 0.5) {
        for (double sign : {1.0, -1.0}) {
            ProductMixture candidate = moved(split, blocks, direction, sign * step);
            const double value = eStep(items, candidate, mask).logLikelihood;
            if (value > bestValue) {
                bestValue = value;
                best = std::move(candidate);
            }
        }
    }
    return best;
}

StagewiseResult stagewiseEm(const CrowdLabels& data, const StagewiseOptions& options,
                            const CancelToken& cancel) {
    if (options.numComponents < 1 || options.maxIterations < 1 ||
        !(options.significance >= 0 && options.significance < 1) ||
        !(options.extensionSignificance >= 0 && options.extensionSignificance < 1)) {
        throw std::invalid_argument(
            "stagewiseEm: numComponents = " + std::to_string(options.numComponents) +
            ", maxIterations = " + std::to_string(options.maxIterations) +
            ", significance = " + std::to_string(options.significance) +
            ", extensionSignificance = " + std::to_string(options.extensionSignificance));
    }
    const ItemObservations items(data);
    const LabelPairs pairs(data);
    const Eigen::VectorXd missing = missingRates(data);
    const double missingTerm = missingLabelLogLikelihood(data, missing);
    StagewiseResult result;
    result.informative.assign(static_cast<size_t>(data.numWorkers), 0);
    ProductMixture model =
        mStep(data, Eigen::MatrixXd::Ones(data.numItems, 1), options.smoothing, missing);
    const double numTests =
        std::max(1.0, 0.5 * data.numWorkers * (data.numWorkers - 1.0) * options.numComponents);
    const double level = 1.0 - std::max(options.significance, 1e-300) / numTests;
    std::vector<double> thresholdByDof(static_cast<size_t>(data.numClasses) * data.numClasses + 1,
                                       -1.0);
    auto threshold = [&](int dof) {
        double& cached = thresholdByDof[static_cast<size_t>(dof)];
        if (cached < 0) {
            cached = chiSquareQuantile(level, dof) / (2.0 * std::max(1, data.numItems));
        }
        return cached;
    };
    auto anyInformative = [&]() {
        return std::any_of(result.informative.begin(), result.informative.end(),
                           [](char c) { return c != 0; });
    };
    auto regularizedPosterior = [&](const ProductMixture& current) {
        // With S = ∅ no feature informs the posterior: every item gets the mixing weights.
        if (!anyInformative()) {
            return Eigen::MatrixXd(current.weights.transpose().replicate(data.numItems, 1));
        }
        return eStep(items, current, result.informative).posterior;
    };
    double previous = logLikelihood(data, items, model);
    result.status = Status::NotConverged;
    int idleRounds = 0; // rounds that added nothing to S
    for (int iteration = 0; idleRounds < options.maxIterations; ++iteration) {
        throwIfCancelled(cancel);
        StagewiseIteration round;
        const Eigen::MatrixXd posterior = regularizedPosterior(model);
        const CmiTensor cmi = conditionalMutualInformation(data, pairs, posterior);
        // Zhao & Zucker 2015, Alg. 1: the largest entry over every pair and component; its pair
        // joins S unless both are in S already (then this round only runs EM, or the extension
        // below adds one worker).
        int bestI = -1;
        int bestJ = -1;
        int bestK = -1;
        auto isSignificant = [&](int i, int j, double value) {
            const int dof = cmi.degreesOfFreedom[static_cast<size_t>(i) * data.numWorkers +
                                                 static_cast<size_t>(j)];
            return dof >= 1 && value > threshold(dof);
        };
        for (int i = 0; i < data.numWorkers; ++i) {
            for (int j = i + 1; j < data.numWorkers; ++j) {
                for (int k = 0; k < cmi.numComponents; ++k) {
                    const double value = cmi.at(i, j, k);
                    round.maxCmi = std::max(round.maxCmi, value);
                    if (value > 0 && (bestI < 0 || value > cmi.at(bestI, bestJ, bestK))) {
                        bestI = i;
                        bestJ = j;
                        bestK = k;
                    }
                }
            }
        }
        bool added = false;
        if (bestI >= 0) {
            const bool outside = !result.informative[static_cast<size_t>(bestI)] ||
                                 !result.informative[static_cast<size_t>(bestJ)];
            const bool significant = options.significance <= 0 ||
                                     isSignificant(bestI, bestJ, cmi.at(bestI, bestJ, bestK));
            if (outside && significant) {
                for (int feature : {bestI, bestJ}) {
                    if (!result.informative[static_cast<size_t>(feature)]) {
                        result.informative[static_cast<size_t>(feature)] = 1;
                        result.informativeOrder.push_back(feature);
                        round.added.push_back(feature);
                    }
                }
                round.addedFirst = bestI;
                round.addedSecond = bestJ;
                added = true;
            }
            // A large entry inside S means the model does not fit that pair (Prop. 3.1): the
            // component still mixes classes, so it splits while more are allowed, whether or
            // not the pair was new.
            if (significant && (outside || options.extensionSignificance > 0) &&
                model.numComponents() < options.numComponents) {
                model = splitComponent(data, items, model, bestK, bestI, bestJ, result.informative);
                round.splitComponent = bestK;
            }
        }
        if (options.extensionSignificance > 0 && posterior.cols() > 1 && round.splitComponent < 0) {
            // Sparse crowds: a worker whose labels depend significantly on the responsibilities
            // is informative even when it shares too few items with any other worker for a
            // significant pair. G = 2·N·entry against χ², one hypothesis per worker outside S
            // (before this round's pair), every rejection of the multiple-testing procedure
            // joins S, strongest first. Not in a round that split a component: the split's
            // new component is only fitted by this round's EM step, and a test against the
            // responsibilities of the merged component would bring in, at once, workers that
            // pull the E-step back to the model before the split.
            const WorkerDependence dependence = workerComponentInformation(data, posterior);
            std::vector<int> candidates;
            std::vector<double> pValues;
            std::vector<double> strength;
            int family = 0;
            for (int m = 0; m < data.numWorkers; ++m) {
                if (result.informative[static_cast<size_t>(m)] &&
                    std::find(round.added.begin(), round.added.end(), m) == round.added.end()) {
                    continue;
                }
                ++family;
                const int dof = dependence.degreesOfFreedom[static_cast<size_t>(m)];
                if (dof < 1 || result.informative[static_cast<size_t>(m)]) {
                    continue; // untestable, or entered S with this round's pair
                }
                const double value = dependence.values[static_cast<size_t>(m)];
                candidates.push_back(m);
                pValues.push_back(chiSquareUpperTail(2.0 * data.numItems * value, dof));
                strength.push_back(value);
            }
            for (int index : rejectedHypotheses(pValues, strength, options.extensionSignificance,
                                                options.extensionProcedure, std::max(1, family))) {
                const int m = candidates[static_cast<size_t>(index)];
                result.informative[static_cast<size_t>(m)] = 1;
                result.informativeOrder.push_back(m);
                round.added.push_back(m);
                added = true;
            }
        }
        model = mStep(data, regularizedPosterior(model), options.smoothing, missing);
        const double current = eStep(items, model).logLikelihood + missingTerm;
        round.logLikelihood = current;
        round.informativeSetSize = static_cast<int>(result.informativeOrder.size());
        round.numComponents = model.numComponents();
        result.trace.push_back(round);
        result.iterations = iteration + 1;
        if (!added && std::abs(current - previous) <= options.tolerance * std::abs(previous)) {
            result.status = Status::Successful;
            break;
        }
        idleRounds += added ? 0 : 1;
        previous = current;
    }
    result.posterior = regularizedPosterior(model);
    result.model = std::move(model);
    return result;
}

} // namespace cx
