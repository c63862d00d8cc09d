#include "core/crowd/conditional_mutual_information.h"

#include "core/crowd/product_mixture.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace cx {

namespace {

/// Mutual information (nats) of a joint table of weights, and the χ² degrees of freedom of its
/// used rows and columns. Returns the total weight in `total`.
double tableInformation(const Eigen::Ref<const Eigen::MatrixXd>& joint, double& total,
                        int& degreesOfFreedom) {
    total = joint.sum();
    degreesOfFreedom = 0;
    if (total <= 0) {
        return 0;
    }
    const Eigen::VectorXd rows = joint.rowwise().sum();
    const Eigen::RowVectorXd cols = joint.colwise().sum();
    double information = 0;
    for (Eigen::Index a = 0; a < joint.rows(); ++a) {
        for (Eigen::Index b = 0; b < joint.cols(); ++b) {
            const double p = joint(a, b);
            if (p > 0) {
                information += p * std::log(p * total / (rows[a] * cols[b]));
            }
        }
    }
    const auto usedRows = (rows.array() > 1e-12 * total).count();
    const auto usedCols = (cols.array() > 1e-12 * total).count();
    degreesOfFreedom = static_cast<int>(std::max<Eigen::Index>(0, (usedRows - 1) * (usedCols - 1)));
    return std::max(0.0, information / total);
}

/// Regularised lower incomplete gamma P(a, x) (Numerical Recipes' gser/gcf).
double regularizedGammaP(double a, double x) {
    if (x <= 0) {
        return 0;
    }
    const double logPrefactor = -x + a * std::log(x) - std::lgamma(a);
    if (x < a + 1) {
        double term = 1.0 / a;
        double sum = term;
        for (int n = 1; n < 1000; ++n) {
            term *= x / (a + n);
            sum += term;
            if (std::abs(term) < std::abs(sum) * 1e-15) {
                break;
            }
        }
        return sum * std::exp(logPrefactor);
    }
    double b = x + 1 - a;
    double c = 1e300;
    double d = 1 / b;
    double h = d;
    for (int i = 1; i < 1000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        d = std::abs(d) < 1e-300 ? 1e-300 : d;
        c = b + an / c;
        c = std::abs(c) < 1e-300 ? 1e-300 : c;
        d = 1 / d;
        const double delta = d * c;
        h *= delta;
        if (std::abs(delta - 1) < 1e-15) {
            break;
        }
    }
    return 1 - std::exp(logPrefactor) * h;
}

} // namespace

Eigen::MatrixXd CmiTensor::summed() const {
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(numWorkers, numWorkers);
    for (int i = 0; i < numWorkers; ++i) {
        for (int j = 0; j < numWorkers; ++j) {
            for (int k = 0; k < numComponents; ++k) {
                out(i, j) += at(i, j, k);
            }
        }
    }
    return out;
}

double CmiTensor::maxEntry() const {
    double best = 0;
    for (double v : values) {
        best = std::max(best, v);
    }
    return best;
}

LabelPairs::LabelPairs(const CrowdLabels& data) {
    const ItemObservations items(data);
    const auto numWorkers = static_cast<size_t>(data.numWorkers);
    // Slot lookup: a dense W × W table while it is small, a hash map beyond.
    const bool dense = numWorkers <= 4096;
    std::vector<int> denseSlot(dense ? numWorkers * numWorkers : 0, -1);
    std::unordered_map<std::uint64_t, int> sparseSlot;
    m_itemOffsets.assign(1, 0);
    for (int n = 0; n < data.numItems; ++n) {
        const int begin = items.offsets[static_cast<size_t>(n)];
        const int end = items.offsets[static_cast<size_t>(n) + 1];
        for (int p = begin; p < end; ++p) {
            for (int q = p + 1; q < end; ++q) {
                // Workers are ascending within an item, so (i, j) has i < j.
                const auto i = static_cast<size_t>(items.workers[static_cast<size_t>(p)]);
                const auto j = static_cast<size_t>(items.workers[static_cast<size_t>(q)]);
                int* slot = nullptr;
                if (dense) {
                    slot = &denseSlot[i * numWorkers + j];
                } else {
                    slot = &sparseSlot.try_emplace(i * numWorkers + j, -1).first->second;
                }
                if (*slot < 0) {
                    *slot = static_cast<int>(m_slotWorkers.size());
                    m_slotWorkers.emplace_back(static_cast<int>(i), static_cast<int>(j));
                }
                m_entrySlot.push_back(*slot);
                m_entryCell.push_back(items.labels[static_cast<size_t>(p)] * data.numClasses +
                                      items.labels[static_cast<size_t>(q)]);
            }
        }
        m_itemOffsets.push_back(static_cast<int>(m_entrySlot.size()));
    }
}

CmiTensor conditionalMutualInformation(const CrowdLabels& data, const Eigen::MatrixXd& posterior) {
    return conditionalMutualInformation(data, LabelPairs(data), posterior);
}

CmiTensor conditionalMutualInformation(const CrowdLabels& data, const LabelPairs& pairs,
                                       const Eigen::MatrixXd& posterior) {
    if (posterior.rows() != data.numItems || posterior.cols() < 1) {
        throw std::invalid_argument("conditionalMutualInformation: posterior has " +
                                    std::to_string(posterior.rows()) + " rows, expected " +
                                    std::to_string(data.numItems));
    }
    const auto numWorkers = static_cast<size_t>(data.numWorkers);
    const int numClasses = data.numClasses;
    const auto numComponents = static_cast<int>(posterior.cols());
    const auto cells = static_cast<size_t>(numClasses) * static_cast<size_t>(numClasses);
    const auto stride = cells * static_cast<size_t>(numComponents);
    // counts[slot · K·C² + k·C² + cell] = Σ_n q_nk over the items where the pair has that cell.
    std::vector<double> counts(static_cast<size_t>(pairs.numSlots()) * stride, 0.0);
    for (int n = 0; n < data.numItems; ++n) {
        for (int e = pairs.m_itemOffsets[static_cast<size_t>(n)];
             e < pairs.m_itemOffsets[static_cast<size_t>(n) + 1]; ++e) {
            double* base = counts.data() +
                           static_cast<size_t>(pairs.m_entrySlot[static_cast<size_t>(e)]) * stride +
                           static_cast<size_t>(pairs.m_entryCell[static_cast<size_t>(e)]);
            for (int k = 0; k < numComponents; ++k) {
                base[static_cast<size_t>(k) * cells] += posterior(n, k);
            }
        }
    }
    CmiTensor tensor;
    tensor.numWorkers = data.numWorkers;
    tensor.numComponents = numComponents;
    tensor.values.assign(numWorkers * numWorkers * static_cast<size_t>(numComponents), 0.0);
    tensor.degreesOfFreedom.assign(numWorkers * numWorkers, 0);
    const double numItems = std::max(1, data.numItems);
    for (int slot = 0; slot < pairs.numSlots(); ++slot) {
        const auto [i, j] = pairs.m_slotWorkers[static_cast<size_t>(slot)];
        const size_t ij = static_cast<size_t>(i) * numWorkers + static_cast<size_t>(j);
        const size_t ji = static_cast<size_t>(j) * numWorkers + static_cast<size_t>(i);
        for (int k = 0; k < numComponents; ++k) {
            // Row-major C × C table (a = worker i's label) viewed as Eigen's column-major
            // transpose: information is symmetric in the two margins.
            const Eigen::Map<const Eigen::MatrixXd> joint(
                counts.data() + static_cast<size_t>(slot) * stride + static_cast<size_t>(k) * cells,
                numClasses, numClasses);
            double total = 0;
            int dof = 0;
            const double entry = tableInformation(joint, total, dof) * total / numItems;
            tensor.values[ij * static_cast<size_t>(numComponents) + static_cast<size_t>(k)] = entry;
            tensor.values[ji * static_cast<size_t>(numComponents) + static_cast<size_t>(k)] = entry;
            tensor.degreesOfFreedom[ij] = std::max(tensor.degreesOfFreedom[ij], dof);
            tensor.degreesOfFreedom[ji] = tensor.degreesOfFreedom[ij];
        }
    }
    return tensor;
}

double conditionalMutualInformationEntry(const CrowdLabels& data, const Eigen::MatrixXd& posterior,
                                         int i, int j, int k) {
    if (i == j) {
        return 0;
    }
    // Q(x_i = a, x_j = b, z = k) over the items both labelled, straight from the definition.
    const int numClasses = data.numClasses;
    Eigen::MatrixXd joint = Eigen::MatrixXd::Zero(numClasses, numClasses);
    for (int n = 0; n < data.numItems; ++n) {
        const int a = data.at(n, i);
        const int b = data.at(n, j);
        if (a != CrowdLabels::kMissingLabel && b != CrowdLabels::kMissingLabel) {
            joint(a, b) += posterior(n, k) / data.numItems;
        }
    }
    const double qk = joint.sum();
    double information = 0;
    for (int a = 0; a < numClasses; ++a) {
        for (int b = 0; b < numClasses; ++b) {
            const double pab = joint(a, b) / qk;
            const double pa = joint.row(a).sum() / qk;
            const double pb = joint.col(b).sum() / qk;
            if (pab > 0) {
                information += pab * std::log(pab / (pa * pb));
            }
        }
    }
    return qk > 0 ? qk * information : 0.0;
}

WorkerDependence workerComponentInformation(const CrowdLabels& data,
                                            const Eigen::MatrixXd& posterior) {
    if (posterior.rows() != data.numItems || posterior.cols() < 1) {
        throw std::invalid_argument("workerComponentInformation: posterior has " +
                                    std::to_string(posterior.rows()) + " rows, expected " +
                                    std::to_string(data.numItems));
    }
    const auto numWorkers = static_cast<size_t>(data.numWorkers);
    std::vector<Eigen::MatrixXd> tables(numWorkers,
                                        Eigen::MatrixXd::Zero(data.numClasses, posterior.cols()));
    for (const CrowdObservation& o : data.observations) {
        tables[static_cast<size_t>(o.worker)].row(o.label) += posterior.row(o.item);
    }
    WorkerDependence out;
    out.values.assign(numWorkers, 0.0);
    out.degreesOfFreedom.assign(numWorkers, 0);
    const double numItems = std::max(1, data.numItems);
    for (size_t m = 0; m < numWorkers; ++m) {
        double total = 0;
        out.values[m] =
            tableInformation(tables[m], total, out.degreesOfFreedom[m]) * total / numItems;
    }
    return out;
}

double chiSquareUpperTail(double x, int degreesOfFreedom) {
    if (degreesOfFreedom < 1) {
        throw std::invalid_argument("chiSquareUpperTail: df " + std::to_string(degreesOfFreedom));
    }
    return x <= 0 ? 1.0 : std::max(0.0, 1.0 - regularizedGammaP(degreesOfFreedom / 2.0, x / 2));
}

const char* multipleTestingName(MultipleTesting procedure) {
    return procedure == MultipleTesting::Holm ? "holm" : "bh";
}

std::vector<int> rejectedHypotheses(const std::vector<double>& pValues,
                                    const std::vector<double>& strength, double alpha,
                                    MultipleTesting procedure, int familySize) {
    const auto tested = static_cast<int>(pValues.size());
    if (!(alpha > 0 && alpha < 1) || (familySize != 0 && familySize < tested) ||
        (!strength.empty() && strength.size() != pValues.size())) {
        throw std::invalid_argument("rejectedHypotheses: alpha " + std::to_string(alpha) +
                                    ", family " + std::to_string(familySize) + " for " +
                                    std::to_string(tested) + " p-values");
    }
    const double m = familySize > 0 ? familySize : std::max(1, tested);
    std::vector<int> order(static_cast<size_t>(tested));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const double pa = pValues[static_cast<size_t>(a)];
        const double pb = pValues[static_cast<size_t>(b)];
        if (pa != pb) {
            return pa < pb;
        }
        return !strength.empty() &&
               strength[static_cast<size_t>(a)] > strength[static_cast<size_t>(b)];
    });
    int rejected = 0;
    if (procedure == MultipleTesting::Holm) {
        while (rejected < tested &&
               pValues[static_cast<size_t>(order[static_cast<size_t>(rejected)])] <=
                   alpha / (m - rejected)) {
            ++rejected;
        }
    } else {
        for (int r = tested; r >= 1; --r) {
            if (pValues[static_cast<size_t>(order[static_cast<size_t>(r - 1)])] <= r * alpha / m) {
                rejected = r;
                break;
            }
        }
    }
    order.resize(static_cast<size_t>(rejected));
    return order;
}

double chiSquareQuantile(double probability, int degreesOfFreedom) {
    if (!(probability > 0 && probability < 1) || degreesOfFreedom < 1) {
        throw std::invalid_argument("chiSquareQuantile: probability " +
                                    std::to_string(probability) + ", df " +
                                    std::to_string(degreesOfFreedom));
    }
    const double a = degreesOfFreedom / 2.0;
    double low = 0;
    double high = std::max(1.0, 2.0 * degreesOfFreedom);
    while (regularizedGammaP(a, high / 2) < probability) {
        high *= 2;
    }
    for (int step = 0; step < 200 && high - low > 1e-12 * high; ++step) {
        const double mid = 0.5 * (low + high);
        (regularizedGammaP(a, mid / 2) < probability ? low : high) = mid;
    }
    return 0.5 * (low + high);
}

} // namespace cx
