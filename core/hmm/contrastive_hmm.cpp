#include "core/hmm/contrastive_hmm.h"

#include "core/hmm/moment_refit.h"

#include "core/common/timer.h"
#include "core/tensor/asymmetric_power_method.h"
#include "core/tensor/linalg.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>
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

/// Σ^{-1/2} of a symmetric positive semi-definite matrix (eigenvalues floored at 1e-12·max).
Eigen::MatrixXd inverseSqrt(const Eigen::MatrixXd& sigma) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(0.5 * (sigma + sigma.transpose()));
    const double floor = 1e-12 * std::max(eigen.eigenvalues().cwiseAbs().maxCoeff(), 1e-300);
    const Eigen::VectorXd inv = eigen.eigenvalues().cwiseMax(floor).cwiseSqrt().cwiseInverse();
    return eigen.eigenvectors() * inv.asDiagonal() * eigen.eigenvectors().transpose();
}

} // namespace

namespace {

/// N_eff = (1/N_f + γ²/N_b)⁻¹: the number of bins behind the contrast's moments at γ.
double effectiveBins(const SequenceMoments& moments, double gamma) {
    const double nf = static_cast<double>(moments.foreground.numTriples);
    const double nb = static_cast<double>(std::max<std::int64_t>(moments.background.numTriples, 1));
    return 1.0 / (1.0 / nf + gamma * gamma / nb);
}

/// The validity test of the first K states of `out` from their weights and emission clipping:
/// a proportion estimated from the N_eff·|ω_t| bins of a component has a standard error of at
/// most 1/(2√(N_eff|ω_t|)); fills emissionTolerance, componentInvalidMass and invalidMass.
void assessValidity(ContrastiveHmmResult& out, int k, double effective, double gamma,
                    double validityZ) {
    out.emissionTolerance.resize(k);
    out.componentInvalidMass.resize(k);
    const double weightTolerance = validityZ * 0.5 / std::sqrt(effective);
    for (int t = 0; t < k; ++t) {
        out.emissionTolerance[t] =
            validityZ * 0.5 / std::sqrt(effective * std::max(std::abs(out.weights[t]), 1e-300));
        out.componentInvalidMass[t] =
            invalidStateMass(out.weights[t], out.emissionClipping[t], out.emissionTolerance[t],
                             gamma, weightTolerance);
    }
    out.invalidMass = out.componentInvalidMass.sum();
}

/// The combined (contrastive) moments at one γ in the coordinates of the decomposition: modes
/// (x_t, ψ_−, ψ_+) of sizes r × S × S, each mode transformed by y ↦ Wᵀy (FeatureScaling), and
/// the maps back to natural coordinates (a = W⁻ᵀa').
struct PreparedMoments {
    Eigen::MatrixXd mab, mac, mbc; ///< M(x_t, ψ_−), M(x_t, ψ_+), M(ψ_−, ψ_+) transformed
    DenseTensor3 tensor;
    Eigen::MatrixXd backA, backB, backC; ///< W⁻ᵀ per mode (empty = identity)
    Eigen::VectorXd diagA, diagB, diagC; ///< diagonal W⁻ᵀ (empty = not diagonal)
};

PreparedMoments prepareMoments(const SequenceMoments& moments, double gamma,
                               const ContrastiveHmmOptions& options) {
    const int r = moments.rank();
    const int side = moments.sideDim();
    const ClassMoments& fg = moments.foreground;
    const ClassMoments& bg = moments.background;
    const Eigen::VectorXd& sideScale =
        moments.sideScale.size() == side ? moments.sideScale : moments.scale;
    const Eigen::MatrixXd m12 = fg.m12 - gamma * bg.m12;
    const Eigen::MatrixXd m13 = fg.m13 - gamma * bg.m13;
    const Eigen::MatrixXd m23 = fg.m23 - gamma * bg.m23;
    // Modes (x_t, ψ_−, ψ_+): the first (recovered) view is the emission column.
    DenseTensor3 tensor = fg.m123.combined(gamma, bg.m123).permuted({1, 0, 2});
    PreparedMoments out;
    const bool whiten = options.featureScaling == FeatureScaling::Whitening && fg.m22.rows() == r &&
                        fg.m11.rows() == side && fg.m33.rows() == side;
    if (whiten) {
        // y' = Wᵀy with W = Σ^{-1/2} (Σ the view's foreground second moment): the pair moments
        // become canonical-correlation matrices; factors map back with a = Σ^{1/2} a'.
        const Eigen::MatrixXd wa = inverseSqrt(fg.m22);
        const Eigen::MatrixXd wb = inverseSqrt(fg.m11);
        const Eigen::MatrixXd wc = inverseSqrt(fg.m33);
        out.mab = wa.transpose() * m12.transpose() * wb;
        out.mac = wa.transpose() * m23 * wc;
        out.mbc = wb.transpose() * m13 * wc;
        out.tensor = tensor.transformed(wa, wb, wc);
        out.backA = wa.transpose().completeOrthogonalDecomposition().pseudoInverse();
        out.backB = wb.transpose().completeOrthogonalDecomposition().pseudoInverse();
        out.backC = wc.transpose().completeOrthogonalDecomposition().pseudoInverse();
        return out;
    }
    // Diagonal feature scaling D (decompose D-transformed moments, map back with D⁻¹): exact
    // moments give the same components, but rare marks stop being drowned by the dominant
    // constant/quiescent direction in the rank-K truncations and deflations.
    Eigen::VectorXd d = Eigen::VectorXd::Ones(r);
    Eigen::VectorXd dSide = Eigen::VectorXd::Ones(side);
    if (options.featureScaling == FeatureScaling::InverseSqrtMean &&
        moments.encoding == ObservationEncoding::MarkVector) {
        const Eigen::VectorXd mean = fg.m23 * sideScale; // E_f[φ(x_t)], constant entry = 1
        for (int i = 0; i < r; ++i) {
            d[i] = 1.0 / std::sqrt(std::max(mean[i], 1e-6));
        }
        // Every bin of a window has the same marginal (stationarity): block l gets the same
        // scaling as the middle view, E_lᵀ d.
        for (int l = 0; l < moments.window; ++l) {
            const Eigen::MatrixXd block = moments.sideBlock(l);
            for (int i = 0; i < side; ++i) {
                for (int j = 0; j < r; ++j) {
                    if (block(j, i) != 0) {
                        dSide[i] = d[j];
                    }
                }
            }
        }
    }
    if ((d.array() == 1.0).all() && (dSide.array() == 1.0).all()) {
        out.mab = m12.transpose();
        out.mac = m23;
        out.mbc = m13;
        out.tensor = std::move(tensor);
        return out;
    }
    for (int c = 0; c < side; ++c) {
        for (int b = 0; b < side; ++b) {
            for (int a = 0; a < r; ++a) {
                tensor(a, b, c) *= d[a] * dSide[b] * dSide[c];
            }
        }
    }
    const auto dm = d.asDiagonal();
    const auto ds = dSide.asDiagonal();
    out.mab = dm * m12.transpose() * ds;
    out.mac = dm * m23 * ds;
    out.mbc = ds * m13 * ds;
    out.tensor = std::move(tensor);
    out.diagA = d.cwiseInverse();
    out.diagB = dSide.cwiseInverse();
    out.diagC = dSide.cwiseInverse();
    return out;
}

/// Windows (S > r): restricts each side mode to the row space of its pair moment with x_t
/// (ψ_− ↦ P_bᵀψ_−, P_b the r right singular vectors of M_ab; P_c likewise of M_ac). The power
/// method only ever contracts the side modes with P_ab·u and P_ac·u, which lie in these row
/// spaces (and rank-R truncations of M_ab are truncations inside them), so the extracted
/// emission columns are unchanged; the returned side views become their projections (exact
/// for exact moments, where b_h, c_h lie in the row spaces). Each contraction then costs
/// O(r³) instead of O(r·S²).
void compressSides(PreparedMoments& prepared) {
    const Eigen::Index r = prepared.mab.rows();
    const Eigen::Index side = prepared.mab.cols();
    if (side <= r) {
        return;
    }
    const Eigen::MatrixXd pb =
        Eigen::JacobiSVD<Eigen::MatrixXd>(prepared.mab, Eigen::ComputeFullV).matrixV().leftCols(r);
    const Eigen::MatrixXd pc =
        Eigen::JacobiSVD<Eigen::MatrixXd>(prepared.mac, Eigen::ComputeFullV).matrixV().leftCols(r);
    prepared.mab = prepared.mab * pb;
    prepared.mac = prepared.mac * pc;
    prepared.mbc = pb.transpose() * prepared.mbc * pc;
    prepared.tensor = prepared.tensor.transformed(Eigen::MatrixXd::Identity(r, r), pb, pc);
    // Back map: natural side factor = W⁻ᵀ·P·b'.
    auto compose = [&](Eigen::MatrixXd& full, Eigen::VectorXd& diagonal, const Eigen::MatrixXd& p) {
        if (diagonal.size() > 0) {
            full = diagonal.asDiagonal() * p;
            diagonal.resize(0);
        } else if (full.size() > 0) {
            full = full * p;
        } else {
            full = p;
        }
    };
    compose(prepared.backB, prepared.diagB, pb);
    compose(prepared.backC, prepared.diagC, pc);
}

Eigen::MatrixXd mapBack(const Eigen::MatrixXd& factor, const Eigen::MatrixXd& full,
                        const Eigen::VectorXd& diagonal) {
    if (diagonal.size() > 0) {
        return diagonal.asDiagonal() * factor;
    }
    if (full.size() > 0) {
        return full * factor;
    }
    return factor;
}

/// Decomposes the prepared moments at rank R and maps the factors back to natural coordinates.
/// `internalA` receives the first-view factors before the back map (warm starts of a path).
AsymmetricDecomposition decomposeAtRank(const PreparedMoments& prepared, int rank,
                                        const ContrastiveHmmOptions& options,
                                        Eigen::MatrixXd& internalA, const CancelToken& cancel) {
    AsymmetricPowerOptions powerOptions;
    powerOptions.rank = rank;
    powerOptions.iterations = options.iterations;
    powerOptions.trials = options.trials;
    powerOptions.tolerance = options.tolerance;
    powerOptions.seed = options.seed;
    powerOptions.refinementRounds = options.refinementRounds;
    powerOptions.initialization = options.initialization;
    powerOptions.alsSweeps = options.alsSweeps;
    if (options.warmStarts.size() > 0) {
        if (options.warmStarts.rows() != prepared.mab.rows()) {
            throw std::invalid_argument(
                "solveContrastiveHmm: warm starts have " +
                std::to_string(options.warmStarts.rows()) + " rows but the moments need " +
                std::to_string(prepared.mab.rows()) + " (they come from other moments)");
        }
        powerOptions.starts =
            options.warmStarts.leftCols(std::min<Eigen::Index>(rank, options.warmStarts.cols()));
    }
    AsymmetricDecomposition dec = asymmetricTensorPowerMethod(
        prepared.mab, prepared.mac, prepared.mbc, prepared.tensor, powerOptions, cancel);
    internalA = dec.a;
    dec.a = mapBack(dec.a, prepared.backA, prepared.diagA);
    dec.b = mapBack(dec.b, prepared.backB, prepared.diagB);
    dec.c = mapBack(dec.c, prepared.backC, prepared.diagC);
    return dec;
}

/// Number of singular values of `m` above 1e-9·σ_max (the numerical rank; exact moments of a
/// K-state model have rank K, so a larger decomposition rank would invert rounding noise).
int numericalRank(const Eigen::MatrixXd& m) {
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(m);
    const Eigen::VectorXd& values = svd.singularValues();
    if (values.size() == 0 || !(values[0] > 0)) {
        return 0;
    }
    return static_cast<int>((values.array() > 1e-9 * values[0]).count());
}

/// Builds the result from a rank-R decomposition: keeps the K components of largest |ω|.
ContrastiveHmmResult assembleResult(const SequenceMoments& moments, double gamma,
                                    const ContrastiveHmmOptions& options,
                                    const AsymmetricDecomposition& dec, int rank) {
    const int r = moments.rank();
    const int k = options.numComponents;
    const int side = moments.sideDim();
    const ClassMoments& fg = moments.foreground;
    const ClassMoments& bg = moments.background;
    const Eigen::VectorXd& sideScale =
        moments.sideScale.size() == side ? moments.sideScale : moments.scale;
    const Eigen::MatrixXd m23 = fg.m23 - gamma * bg.m23;

    // Natural-scale views normalised by the exact constraint s̃ᵀv = 1: emission columns o_t
    // (middle view) and next-bin views n_t.
    auto normalised = [&](const Eigen::MatrixXd& hat, const Eigen::VectorXd& s) {
        Eigen::MatrixXd outColumns(hat.rows(), rank);
        for (int t = 0; t < rank; ++t) {
            const double sum = s.dot(hat.col(t));
            outColumns.col(t) = std::abs(sum) > 1e-12 * std::max(hat.col(t).norm(), 1e-300)
                                    ? Eigen::VectorXd(hat.col(t) / sum)
                                    : Eigen::VectorXd(dec.lambdas[t] * hat.col(t));
        }
        return outColumns;
    };
    const Eigen::VectorXd& s = moments.scale;
    const Eigen::MatrixXd columns = normalised(dec.a, s);
    // Next-bin view n_t (first block of the future window, in middle coordinates).
    const Eigen::MatrixXd next = moments.sideBlock(0) * normalised(dec.c, sideScale);
    Eigen::VectorXd weights = dec.weights();
    if (options.weightEstimator == HmmWeightEstimator::FirstMoment) {
        // E[y_t] = m23·s̃_ψ for every observation (s̃_ψᵀψ = 1; exact for MarkVector).
        const Eigen::VectorXd mean = m23 * sideScale;
        weights = columns.completeOrthogonalDecomposition().solve(mean);
    }
    // Keep the K components of largest |ω| (ties: extraction order), each group sorted by
    // decreasing ω: order = [kept…, dropped…].
    std::vector<int> order(static_cast<size_t>(rank));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int x, int y) { return std::abs(weights[x]) > std::abs(weights[y]); });
    std::stable_sort(order.begin(), order.begin() + k,
                     [&](int x, int y) { return weights[x] > weights[y]; });
    std::stable_sort(order.begin() + k, order.end(),
                     [&](int x, int y) { return weights[x] > weights[y]; });

    ContrastiveHmmResult out;
    out.gamma = gamma;
    out.status = dec.status;
    out.residual = dec.residual;
    out.iterations = dec.iterations;
    out.decompositionRank = rank;
    out.weights.resize(k);
    out.lambdas.resize(k);
    Eigen::MatrixXd sorted(r, rank); // kept components first
    Eigen::MatrixXd sortedNext(r, rank);
    for (int t = 0; t < rank; ++t) {
        const int src = order[static_cast<size_t>(t)];
        if (t < k) {
            out.weights[t] = weights[src];
            out.lambdas[t] = dec.lambdas[src];
        }
        sorted.col(t) = columns.col(src);
        sortedNext.col(t) = next.col(src);
    }
    out.droppedWeights.resize(rank - k);
    for (int t = k; t < rank; ++t) {
        out.droppedWeights[t - k] = weights[order[static_cast<size_t>(t)]];
    }
    out.numSpecific = static_cast<int>((out.weights.array() > 0).count());

    // Emissions of every component, and how far each raw estimate lies outside the valid set.
    const int m = moments.numMarks();
    Eigen::MatrixXd allMarks(rank, m);
    Eigen::MatrixXd patternEmissions; // combinations: R × numPatterns
    Eigen::VectorXd clipping = Eigen::VectorXd::Zero(rank);
    if (moments.encoding == ObservationEncoding::MarkVector) {
        const Eigen::MatrixXd raw = sorted.topRows(m).transpose();
        allMarks = raw.array().max(0.0).min(1.0).matrix();
        clipping = (raw - allMarks).cwiseAbs().rowwise().maxCoeff();
    } else {
        patternEmissions = Eigen::MatrixXd::Zero(rank, moments.numPatterns);
        Eigen::MatrixXd full = moments.basis * sorted; // C × R, scaled coordinates
        if (moments.categoryScale.size() == full.rows()) {
            full = moments.categoryScale.cwiseInverse().asDiagonal() * full;
        }
        for (int t = 0; t < rank; ++t) {
            const Eigen::VectorXd dist = projectToSimplex(full.col(t));
            clipping[t] = (full.col(t) - dist).cwiseAbs().maxCoeff();
            for (Eigen::Index c = 0; c < dist.size(); ++c) {
                patternEmissions(t, moments.categoryPattern[static_cast<size_t>(c)]) = dist[c];
            }
            allMarks.row(t) =
                categoryMarkProbabilities(moments, dist, moments.categoryMarks).transpose();
        }
    }
    out.markProbabilities = allMarks.topRows(k);
    out.droppedMarkProbabilities = allMarks.bottomRows(rank - k);
    out.emissionClipping = clipping.head(k);
    out.droppedEmissionClipping = clipping.tail(rank - k);
    assessValidity(out, k, effectiveBins(moments, gamma), gamma, options.validityZ);

    // Next-view rows over all R components: n_h = Σ_j A(h, j) o_j, so Õ⁺n_h is a probability
    // vector for a valid state; its negative mass is the transition part of the validity test.
    const Eigen::MatrixXd pinv = sorted.completeOrthogonalDecomposition().pseudoInverse(); // R × r
    const Eigen::MatrixXd nextRows = (pinv * sortedNext).transpose(); // R × R, row h = Õ⁺n_h
    out.transitionClipping.resize(k);
    for (int t = 0; t < k; ++t) {
        out.transitionClipping[t] = std::max(0.0, -nextRows.row(t).minCoeff());
    }
    // Transitions from all R components (a dropped state's share of a row is removed by the
    // restriction to the specific states and the row normalisation below).
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
        return out;
    }
    // Joint (pair moment) or conditional (next-bin view, rows n_h = Σ_j A(h, j) o_j) estimate.
    const Eigen::MatrixXd joint =
        options.transitionEstimator == TransitionEstimator::PairMoment
            ? Eigen::MatrixXd(pinv * m23 * moments.sideBlock(0).transpose() * pinv.transpose())
            : nextRows;
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
    return out;
}

/// ContrastiveHmmOptions::momentRefitSweeps: replaces the kept states of `out` by the
/// moment-refitted ones (MarkVector moments, y = (x, 1)).
void applyMomentRefit(const SequenceMoments& moments, double gamma,
                      const ContrastiveHmmOptions& options, ContrastiveHmmResult& out) {
    const int m = moments.numMarks();
    const int k = options.numComponents;
    const ClassMoments& fg = moments.foreground;
    const ClassMoments& bg = moments.background;
    if (fg.m22.rows() != m + 1 || moments.rank() != m + 1) {
        return;
    }
    const Eigen::MatrixXd m22 =
        bg.numTriples > 0 && gamma != 0 ? Eigen::MatrixXd(fg.m22 - gamma * bg.m22) : fg.m22;
    MarkMomentTargets targets;
    targets.mean = m22.col(m).head(m);
    targets.second = m22.topLeftCorner(m, m);
    targets.total = m22(m, m);
    targets.effectiveBins = effectiveBins(moments, gamma);
    if (options.momentRefitOrder >= 3 && m >= 3 && fg.m222.dim(0) == m + 1) {
        const bool contrast = bg.numTriples > 0 && gamma != 0 && bg.m222.dim(0) == m + 1;
        targets.third.resize(numMarkTriples(m));
        for (int q = 0; q < targets.third.size(); ++q) {
            const Eigen::Vector3i abc = markTriple(m, q);
            targets.third[q] = fg.m222(abc[0], abc[1], abc[2]) -
                               (contrast ? gamma * bg.m222(abc[0], abc[1], abc[2]) : 0.0);
        }
    }
    Eigen::MatrixXd candidates(out.markProbabilities.rows() + out.droppedMarkProbabilities.rows(),
                               m);
    candidates << out.markProbabilities, out.droppedMarkProbabilities;
    MomentRefitOptions refit;
    refit.numStates = k;
    refit.minWeight = -gamma;
    refit.sweeps = options.momentRefitSweeps;
    const MomentRefitResult fit = refitMarkStates(candidates, targets, refit);
    out.momentResidualSelected = fit.residualSelected;
    out.momentResidualFinal = fit.residualFinal;
    out.weights = fit.weights;
    out.markProbabilities = fit.emissions;
    out.lambdas = out.weights.unaryExpr(
        [](double w) { return w == 0 ? 0.0 : std::copysign(1.0 / std::sqrt(std::abs(w)), w); });
    // The validity test stays that of the extraction: a state keeps the emission clipping of
    // the extracted component it started from (the all-zero candidate: 0), judged against the
    // sampling tolerance of its refitted weight, so a γ where the decomposition leaves the valid
    // set (the states are not identifiable there) is still flagged; the weights lie in [−γ, 1]
    // by construction. Transitions come from the pair moment (no next-view clipping).
    Eigen::VectorXd sourceClipping(candidates.rows());
    sourceClipping << out.emissionClipping, out.droppedEmissionClipping;
    out.emissionClipping = Eigen::VectorXd::Zero(k);
    out.transitionClipping = Eigen::VectorXd::Zero(k);
    for (int h = 0; h < k; ++h) {
        const int source = fit.sourceCandidate[h];
        out.emissionClipping[h] =
            source >= 0 && source < sourceClipping.size() ? sourceClipping[source] : 0.0;
    }
    assessValidity(out, k, targets.effectiveBins, gamma, options.validityZ);
    out.numSpecific = static_cast<int>((out.weights.array() > 0).count());
    const int specific = out.numSpecific;
    out.hmm.encoding = moments.encoding;
    if (specific == 0) {
        out.hmm.start.resize(0);
        out.hmm.transitions.resize(0, 0);
        out.hmm.emissions.resize(0, m);
        return;
    }
    // PairMoment transitions: m23 = Σ_ij P(h_t = i, h_{t+1} = j)·o_i o_jᵀ (y-coordinates).
    Eigen::MatrixXd columns(m + 1, k);
    columns.topRows(m) = out.markProbabilities.transpose();
    columns.row(m).setOnes();
    const Eigen::MatrixXd m23 =
        (bg.numTriples > 0 && gamma != 0 ? Eigen::MatrixXd(fg.m23 - gamma * bg.m23) : fg.m23) *
        moments.sideBlock(0).transpose();
    const Eigen::MatrixXd pinv = columns.completeOrthogonalDecomposition().pseudoInverse();
    const Eigen::MatrixXd joint = pinv * m23 * pinv.transpose();
    out.hmm.transitions.resize(specific, specific);
    for (int i = 0; i < specific; ++i) {
        Eigen::VectorXd row = joint.block(i, 0, 1, specific).transpose();
        const double sum = row.sum();
        row = sum > 0 && std::isfinite(sum) ? Eigen::VectorXd(row / sum)
                                            : Eigen::VectorXd(Eigen::VectorXd::Unit(specific, i));
        out.hmm.transitions.row(i) = projectToSimplex(row).transpose();
    }
    if (moments.lag > 1) {
        out.hmm.transitions = transitionRoot(out.hmm.transitions, moments.lag);
    }
    out.hmm.start = projectToSimplex(out.weights.head(specific) / out.weights.head(specific).sum());
    out.hmm.emissions = out.markProbabilities.topRows(specific);
}

} // namespace

double invalidStateMass(double weight, double clipping, double clippingTolerance, double gamma,
                        double weightTolerance) {
    // The emission part: the weight of a state times how far its raw emission estimate lies
    // outside the valid set beyond sampling error.
    const double emission = std::abs(weight) * std::max(0.0, clipping - clippingTolerance);
    // The weight part: ω = π_f − γ·π_b with occupancies π ∈ [0, 1], so ω ∈ [−γ, 1].
    const double excess = std::max(weight - 1.0, -gamma - weight);
    return emission + std::max(0.0, excess - weightTolerance);
}

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
    if (options.extraComponents < 0 || !(options.validityZ >= 0)) {
        throw std::invalid_argument("solveContrastiveHmm: need extraComponents >= 0 and "
                                    "validityZ >= 0");
    }
    if (options.momentRefitOrder != 2 && options.momentRefitOrder != 3) {
        throw std::invalid_argument("solveContrastiveHmm: momentRefitOrder must be 2 or 3 (it is " +
                                    std::to_string(options.momentRefitOrder) + ")");
    }
    PreparedMoments prepared = prepareMoments(moments, gamma, options);
    compressSides(prepared);
    // Candidate ranks R = K … K + E, capped by the numerical rank of the pair moments.
    const int maxRank =
        std::max(k, std::min({k + options.extraComponents, r, moments.sideDim(),
                              std::min(numericalRank(prepared.mab), numericalRank(prepared.mac))}));
    // Reserve components: ranks R = K + E, …, K + 1, then K; the first whose K heaviest
    // components are all valid states is used, else the least invalid (ties: rank K).
    ContrastiveHmmResult best;
    int candidates = 0;
    for (int rank = maxRank; rank >= k; --rank) {
        ++candidates;
        Eigen::MatrixXd internalA;
        const AsymmetricDecomposition dec =
            decomposeAtRank(prepared, rank, options, internalA, cancel);
        ContrastiveHmmResult result = assembleResult(moments, gamma, options, dec, rank);
        result.warmStarts = std::move(internalA);
        result.warmStarted = dec.warmStarted;
        const bool better = rank == k ? result.invalidMass <= best.invalidMass
                                      : result.invalidMass < best.invalidMass;
        if (candidates == 1 || better) {
            best = std::move(result);
        }
        if (best.invalidMass == 0) {
            break;
        }
    }
    if (options.momentRefitSweeps >= 0 && moments.encoding == ObservationEncoding::MarkVector &&
        moments.window == 1) {
        applyMomentRefit(moments, gamma, options, best);
    }
    best.candidateRanks = candidates;
    best.elapsedMs = watch.elapsedMs();
    return best;
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
