#include "core/hmm/contrastive_hmm.h"

#include "core/common/timer.h"
#include "core/tensor/asymmetric_power_method.h"
#include "core/tensor/linalg.h"

#include <Eigen/QR>
#include <unsupported/Eigen/MatrixFunctions>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace cx {

namespace {

/// Per-mark presence probabilities of a distribution over the moment categories.
Eigen::VectorXd categoryMarkProbabilities(const SequenceMoments& moments,
                                          const Eigen::VectorXd& categoryDistribution,
                                          const std::vector<std::uint8_t>& categoryMarks) {
    const int m = moments.numMarks();
    Eigen::VectorXd out = Eigen::VectorXd::Zero(m);
    for (Eigen::Index c = 0; c < categoryDistribution.size(); ++c) {
        for (int j = 0; j < m; ++j) {
            if (categoryMarks[static_cast<size_t>(c) * static_cast<size_t>(m) +
                              static_cast<size_t>(j)] != 0) {
                out[j] += categoryDistribution[c];
            }
        }
    }
    return out;
}

/// With triples (x_{t−d}, x_t, x_{t+d}) the estimators above give the d-step matrix A^d: take
/// its principal real d-th root (Schur–Padé, Eigen's MatrixPower) and round the rows onto the
/// simplex. Falls back to the first-order root I + (B − I)/d if the principal root is not real.
Eigen::MatrixXd transitionRoot(const Eigen::MatrixXd& stepMatrix, int lag) {
    const auto k = stepMatrix.rows();
    Eigen::MatrixXd root = stepMatrix.pow(1.0 / static_cast<double>(lag));
    if (!root.allFinite()) {
        root = Eigen::MatrixXd::Identity(k, k) +
               (stepMatrix - Eigen::MatrixXd::Identity(k, k)) / static_cast<double>(lag);
    }
    for (Eigen::Index i = 0; i < k; ++i) {
        root.row(i) = projectToSimplex(root.row(i).transpose()).transpose();
    }
    return root;
}

} // namespace

ContrastiveHmmResult solveContrastiveHmm(const SequenceMoments& moments, double gamma,
                                         const ContrastiveHmmOptions& options,
                                         const CancelToken& cancel) {
    Stopwatch watch;
    const int r = moments.rank();
    const int k = options.numComponents;
    if (k < 1 || k > r) {
        throw std::invalid_argument("solveContrastiveHmm: need 1 <= K <= " + std::to_string(r) +
                                    " (the moment rank) but K = " + std::to_string(k));
    }
    if (!std::isfinite(gamma) || gamma < 0) {
        throw std::invalid_argument("solveContrastiveHmm: gamma must be finite and >= 0 (gamma = " +
                                    std::to_string(gamma) + ")");
    }
    if (moments.foreground.numTriples == 0) {
        throw std::invalid_argument("solveContrastiveHmm: the foreground has no bin triples");
    }
    const ClassMoments& fg = moments.foreground;
    const ClassMoments& bg = moments.background;
    const Eigen::MatrixXd m12 = fg.m12 - gamma * bg.m12;
    const Eigen::MatrixXd m13 = fg.m13 - gamma * bg.m13;
    const Eigen::MatrixXd m23 = fg.m23 - gamma * bg.m23;
    // Modes (x_t, x_{t−1}, x_{t+1}): the first (recovered) view is the emission column.
    const DenseTensor3 tensor = fg.m123.combined(gamma, bg.m123).permuted({1, 0, 2});

    AsymmetricPowerOptions powerOptions;
    powerOptions.rank = k;
    powerOptions.iterations = options.iterations;
    powerOptions.trials = options.trials;
    powerOptions.tolerance = options.tolerance;
    powerOptions.seed = options.seed;
    powerOptions.refinementRounds = options.refinementRounds;
    // Optional diagonal feature scaling D (decompose D-transformed moments, map back with
    // D⁻¹): exact moments give the same components, but rare marks stop being drowned by the
    // dominant constant/quiescent direction in the rank-K truncations and deflations.
    Eigen::VectorXd d = Eigen::VectorXd::Ones(r);
    if (options.featureScaling == FeatureScaling::InverseSqrtMean &&
        moments.encoding == ObservationEncoding::MarkVector) {
        const Eigen::VectorXd mean = fg.m23 * moments.scale; // E_f[φ(x)], constant entry = 1
        for (int i = 0; i < r; ++i) {
            d[i] = 1.0 / std::sqrt(std::max(mean[i], 1e-6));
        }
    }
    AsymmetricDecomposition dec;
    if ((d.array() == 1.0).all()) {
        dec = asymmetricTensorPowerMethod(m12.transpose(), m23, m13, tensor, powerOptions, cancel);
    } else {
        DenseTensor3 scaled = tensor;
        for (int c = 0; c < r; ++c) {
            for (int b = 0; b < r; ++b) {
                for (int a = 0; a < r; ++a) {
                    scaled(a, b, c) *= d[a] * d[b] * d[c];
                }
            }
        }
        const auto dm = d.asDiagonal();
        dec = asymmetricTensorPowerMethod(dm * m12.transpose() * dm, dm * m23 * dm, dm * m13 * dm,
                                          scaled, powerOptions, cancel);
        const Eigen::VectorXd inv = d.cwiseInverse();
        dec.a = inv.asDiagonal() * dec.a;
        dec.b = inv.asDiagonal() * dec.b;
        dec.c = inv.asDiagonal() * dec.c;
    }

    // Natural-scale views normalised by the exact constraint s̃ᵀv = 1: emission columns o_t
    // (middle view), previous-bin views p_t and next-bin views n_t.
    const Eigen::VectorXd& s = moments.scale;
    auto normalised = [&](const Eigen::MatrixXd& hat) {
        Eigen::MatrixXd outColumns(hat.rows(), k);
        for (int t = 0; t < k; ++t) {
            const double sum = s.dot(hat.col(t));
            outColumns.col(t) = std::abs(sum) > 1e-12 * std::max(hat.col(t).norm(), 1e-300)
                                    ? Eigen::VectorXd(hat.col(t) / sum)
                                    : Eigen::VectorXd(dec.lambdas[t] * hat.col(t));
        }
        return outColumns;
    };
    Eigen::MatrixXd columns = normalised(dec.a);
    Eigen::MatrixXd next = normalised(dec.c);
    Eigen::VectorXd weights = dec.weights();
    if (options.weightEstimator == HmmWeightEstimator::FirstMoment) {
        // E[y_t] = m23·s̃ for every observation has s̃ᵀy = 1 (exact for MarkVector).
        const Eigen::VectorXd mean = m23 * s;
        weights = columns.completeOrthogonalDecomposition().solve(mean);
    }
    std::vector<int> order(static_cast<size_t>(k));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return weights[x] > weights[y]; });

    ContrastiveHmmResult out;
    out.gamma = gamma;
    out.status = dec.status;
    out.residual = dec.residual;
    out.iterations = dec.iterations;
    out.weights.resize(k);
    out.lambdas.resize(k);
    Eigen::MatrixXd sorted(r, k);
    Eigen::MatrixXd sortedNext(r, k);
    for (int t = 0; t < k; ++t) {
        const int src = order[static_cast<size_t>(t)];
        out.weights[t] = weights[src];
        out.lambdas[t] = dec.lambdas[src];
        sorted.col(t) = columns.col(src);
        sortedNext.col(t) = next.col(src);
    }
    out.numSpecific = static_cast<int>((out.weights.array() > 0).count());

    // Emissions of every component.
    const int m = moments.numMarks();
    out.markProbabilities.resize(k, m);
    Eigen::MatrixXd patternEmissions; // combinations: K × numPatterns
    if (moments.encoding == ObservationEncoding::MarkVector) {
        out.markProbabilities = sorted.topRows(m).transpose().array().max(0.0).min(1.0).matrix();
    } else {
        patternEmissions = Eigen::MatrixXd::Zero(k, moments.numPatterns);
        Eigen::MatrixXd full = moments.basis * sorted; // C × K, scaled coordinates
        if (moments.categoryScale.size() == full.rows()) {
            full = moments.categoryScale.cwiseInverse().asDiagonal() * full;
        }
        for (int t = 0; t < k; ++t) {
            const Eigen::VectorXd dist = projectToSimplex(full.col(t));
            for (Eigen::Index c = 0; c < dist.size(); ++c) {
                patternEmissions(t, moments.categoryPattern[static_cast<size_t>(c)]) = dist[c];
            }
            out.markProbabilities.row(t) =
                categoryMarkProbabilities(moments, dist, moments.categoryMarks).transpose();
        }
    }

    // Transitions from the pair moment with all K components.
    const int specific = out.numSpecific;
    out.hmm.encoding = moments.encoding;
    if (specific == 0) {
        out.hmm.start.resize(0);
        out.hmm.transitions.resize(0, 0);
        out.hmm.emissions.resize(
            0, moments.encoding == ObservationEncoding::MarkVector ? m : moments.numPatterns);
        if (out.status == Status::Successful) {
            out.status = Status::NumericalIssue;
        }
        out.elapsedMs = watch.elapsedMs();
        return out;
    }
    const Eigen::MatrixXd pinv = sorted.completeOrthogonalDecomposition().pseudoInverse(); // K × r
    // Joint (pair moment) or conditional (next-bin view, rows n_h = Σ_j A(h, j) o_j) estimate.
    const Eigen::MatrixXd joint = options.transitionEstimator == TransitionEstimator::PairMoment
                                      ? Eigen::MatrixXd(pinv * m23 * pinv.transpose())
                                      : Eigen::MatrixXd((pinv * sortedNext).transpose());
    out.hmm.transitions.resize(specific, specific);
    for (int i = 0; i < specific; ++i) {
        Eigen::VectorXd row = joint.block(i, 0, 1, specific).transpose();
        const double sum = row.sum();
        if (sum > 0 && std::isfinite(sum)) {
            row /= sum;
        } else {
            row = Eigen::VectorXd::Unit(specific, i);
        }
        out.hmm.transitions.row(i) = projectToSimplex(row).transpose();
    }
    if (moments.lag > 1) {
        out.hmm.transitions = transitionRoot(out.hmm.transitions, moments.lag);
    }
    out.hmm.start = projectToSimplex(out.weights.head(specific) / out.weights.head(specific).sum());
    if (moments.encoding == ObservationEncoding::MarkVector) {
        out.hmm.emissions = out.markProbabilities.topRows(specific);
    } else {
        out.hmm.emissions = patternEmissions.topRows(specific);
    }
    out.elapsedMs = watch.elapsedMs();
    return out;
}

std::vector<int> matchStates(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& estimate) {
    if (reference.rows() > estimate.rows() || reference.cols() != estimate.cols()) {
        throw std::invalid_argument("matchStates: need reference rows (" +
                                    std::to_string(reference.rows()) + ") <= estimate rows (" +
                                    std::to_string(estimate.rows()) + ") and equal column counts");
    }
    Eigen::MatrixXd cost(reference.rows(), estimate.rows());
    for (Eigen::Index i = 0; i < reference.rows(); ++i) {
        for (Eigen::Index j = 0; j < estimate.rows(); ++j) {
            cost(i, j) = (reference.row(i) - estimate.row(j)).cwiseAbs().sum();
        }
    }
    return hungarianAssignment(cost);
}

double matchedMeanAbsoluteDifference(const Eigen::MatrixXd& reference,
                                     const Eigen::MatrixXd& estimate) {
    const auto match = matchStates(reference, estimate);
    double total = 0;
    for (Eigen::Index i = 0; i < reference.rows(); ++i) {
        total += (reference.row(i) - estimate.row(match[static_cast<size_t>(i)])).cwiseAbs().sum();
    }
    return total / static_cast<double>(reference.size());
}

} // namespace cx
