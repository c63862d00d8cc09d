#include "core/crowd/product_mixture.h"

#include "core/tensor/linalg.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cx {

ItemObservations::ItemObservations(const CrowdLabels& data) {
    offsets.assign(static_cast<size_t>(data.numItems) + 1, 0);
    for (const CrowdObservation& o : data.observations) {
        ++offsets[static_cast<size_t>(o.item) + 1];
    }
    for (size_t n = 0; n < static_cast<size_t>(data.numItems); ++n) {
        offsets[n + 1] += offsets[n];
    }
    workers.resize(data.observations.size());
    labels.resize(data.observations.size());
    std::vector<int> fill(offsets.begin(), offsets.end() - 1);
    // Within an item, keep worker order so that sums are taken in a fixed order.
    for (int n = 0; n < data.numItems; ++n) {
        for (int m = 0; m < data.numWorkers; ++m) {
            const int label = data.at(n, m);
            if (label != CrowdLabels::kMissingLabel) {
                const int slot = fill[static_cast<size_t>(n)]++;
                workers[static_cast<size_t>(slot)] = m;
                labels[static_cast<size_t>(slot)] = label;
            }
        }
    }
}

Eigen::VectorXd missingRates(const CrowdLabels& data) {
    Eigen::VectorXd counts = Eigen::VectorXd::Zero(data.numWorkers);
    for (const CrowdObservation& o : data.observations) {
        counts[o.worker] += 1;
    }
    return (Eigen::VectorXd::Ones(data.numWorkers) - counts / std::max(1, data.numItems))
        .cwiseMax(0.0);
}

ProductMixture empiricalMarginals(const CrowdLabels& data) {
    const Eigen::MatrixXd one = Eigen::MatrixXd::Ones(data.numItems, 1);
    return mStep(data, one, 0.0, missingRates(data));
}

EStepResult eStep(const ItemObservations& items, const ProductMixture& model,
                  const FeatureMask& mask) {
    const int numItems = static_cast<int>(items.offsets.size()) - 1;
    const int numComponents = model.numComponents();
    std::vector<Eigen::MatrixXd> logTheta(model.conditionals.size());
    for (size_t m = 0; m < model.conditionals.size(); ++m) {
        if (mask.empty() || mask[m]) {
            logTheta[m] = model.conditionals[m].array().max(1e-300).log().matrix();
        }
    }
    const Eigen::VectorXd logWeights = model.weights.array().max(1e-300).log().matrix();
    EStepResult result;
    result.posterior.resize(numItems, numComponents);
    Eigen::VectorXd row(numComponents);
    for (int n = 0; n < numItems; ++n) {
        row = logWeights;
        for (int p = items.offsets[static_cast<size_t>(n)];
             p < items.offsets[static_cast<size_t>(n) + 1]; ++p) {
            const auto m = static_cast<size_t>(items.workers[static_cast<size_t>(p)]);
            if (!mask.empty() && !mask[m]) {
                continue;
            }
            row += logTheta[m].row(items.labels[static_cast<size_t>(p)]).transpose();
        }
        const double top = row.maxCoeff();
        const Eigen::VectorXd shifted = (row.array() - top).exp().matrix();
        const double total = shifted.sum();
        result.logLikelihood += top + std::log(total);
        result.posterior.row(n) = (shifted / total).transpose();
    }
    return result;
}

ProductMixture mStep(const CrowdLabels& data, const Eigen::MatrixXd& posterior, double smoothing,
                     const Eigen::VectorXd& missing) {
    if (posterior.rows() != data.numItems || posterior.cols() < 1) {
        throw std::invalid_argument("mStep: posterior is " + std::to_string(posterior.rows()) +
                                    " × " + std::to_string(posterior.cols()) + ", expected " +
                                    std::to_string(data.numItems) + " rows");
    }
    const Eigen::Index numComponents = posterior.cols();
    ProductMixture model;
    model.weights = posterior.colwise().sum().transpose() / std::max(1, data.numItems);
    model.missingRate = missing;
    model.conditionals.assign(static_cast<size_t>(data.numWorkers),
                              Eigen::MatrixXd::Constant(data.numClasses, numComponents, smoothing));
    for (const CrowdObservation& o : data.observations) {
        model.conditionals[static_cast<size_t>(o.worker)].row(o.label) += posterior.row(o.item);
    }
    for (Eigen::MatrixXd& theta : model.conditionals) {
        for (Eigen::Index k = 0; k < numComponents; ++k) {
            const double total = theta.col(k).sum();
            if (total > 0) {
                theta.col(k) /= total;
            } else {
                theta.col(k).setConstant(1.0 / static_cast<double>(data.numClasses));
            }
        }
    }
    return model;
}

double missingLabelLogLikelihood(const CrowdLabels& data, const Eigen::VectorXd& missing) {
    double total = 0;
    for (int m = 0; m < data.numWorkers; ++m) {
        const double r = missing[m];
        const double missingCount = r * data.numItems;
        const double observedCount = data.numItems - missingCount;
        if (r > 0) {
            total += missingCount * std::log(r);
        }
        if (r < 1) {
            total += observedCount * std::log1p(-r);
        }
    }
    return total;
}

double logLikelihood(const CrowdLabels& data, const ItemObservations& items,
                     const ProductMixture& model) {
    return eStep(items, model).logLikelihood + missingLabelLogLikelihood(data, model.missingRate);
}

std::vector<int> componentClasses(const ProductMixture& model) {
    const int numComponents = model.numComponents();
    const int numClasses =
        model.conditionals.empty() ? 0 : static_cast<int>(model.conditionals.front().rows());
    Eigen::MatrixXd score = Eigen::MatrixXd::Zero(numComponents, numClasses);
    for (const Eigen::MatrixXd& theta : model.conditionals) {
        score += theta.transpose();
    }
    std::vector<int> classOf(static_cast<size_t>(numComponents), 0);
    if (numComponents <= numClasses) {
        return hungarianAssignment(-score);
    }
    for (int k = 0; k < numComponents; ++k) {
        score.row(k).maxCoeff(&classOf[static_cast<size_t>(k)]);
    }
    return classOf;
}

Eigen::MatrixXd classPosterior(const Eigen::MatrixXd& posterior, const std::vector<int>& classOf,
                               int numClasses) {
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(posterior.rows(), numClasses);
    for (Eigen::Index k = 0; k < posterior.cols(); ++k) {
        out.col(classOf[static_cast<size_t>(k)]) += posterior.col(k);
    }
    return out;
}

std::vector<int> argmaxRows(const Eigen::MatrixXd& matrix) {
    std::vector<int> out(static_cast<size_t>(matrix.rows()), 0);
    for (Eigen::Index n = 0; n < matrix.rows(); ++n) {
        Eigen::Index best = 0;
        for (Eigen::Index c = 1; c < matrix.cols(); ++c) {
            if (matrix(n, c) > matrix(n, best)) {
                best = c;
            }
        }
        out[static_cast<size_t>(n)] = static_cast<int>(best);
    }
    return out;
}

} // namespace cx
