// DensePowerMethod's closed-form decompositions of the whitened core: Jennrich's simultaneous
// diagonalisation (runJennrich), the randomized pencil of slices (runPencil), and the residual
// that ranks them against the power method (whitenedResidual). The iterative power method is in
// tensor_power_method.cpp.
#include "core/tensor/tensor_power_method.h"

#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/tensor/jennrich.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace cx {

namespace {

/// T_w = T(W, W, W) of the K×K×K core T(V, V, V) with W = V·diag(s), s = |Λ|^{-1/2}: the
/// unfolding T_w(i, j + K·l) = t(i, j, l)·s_i·s_j·s_l.
Eigen::MatrixXd whitenCore(const Eigen::MatrixXd& core, const Eigen::ArrayXd& s) {
    const Eigen::Index k = core.rows();
    Eigen::MatrixXd whitened(k, k * k);
    for (Eigen::Index l = 0; l < k; ++l) {
        for (Eigen::Index j = 0; j < k; ++j) {
            whitened.col(j + k * l) = (core.col(j + k * l).array() * s * (s[j] * s[l])).matrix();
        }
    }
    return whitened;
}

/// A result of K zero components, none degenerate, no iterations (the closed-form
/// decompositions fill it in).
PowerMethodResult closedFormResult(Eigen::Index n, const Eigen::VectorXd& m2Values) {
    const Eigen::Index k = m2Values.size();
    PowerMethodResult out;
    out.components = Eigen::MatrixXd::Zero(n, k);
    out.lambdas = Eigen::VectorXd::Zero(k);
    out.iterations.assign(static_cast<size_t>(k), 0);
    out.converged.assign(static_cast<size_t>(k), true);
    out.degenerate.assign(static_cast<size_t>(k), false);
    out.m2Eigenvalues = m2Values;
    return out;
}

} // namespace

PowerMethodResult DensePowerMethod::runJennrich(const PowerMethodOptions& options) const {
    const Eigen::Index k = m_low.vectors.cols();
    validatePowerMethodOptions(options, m_low.vectors.rows(), "runJennrich");
    if (options.numComponents != k) {
        throw std::invalid_argument(
            "runJennrich: M2 factor has " + std::to_string(k) +
            " columns, numComponents = " + std::to_string(options.numComponents));
    }
    const Eigen::ArrayXd s = m_low.values.cwiseAbs().cwiseInverse().cwiseSqrt().array();
    const Eigen::ArrayXd sign = m_low.values.array().sign();
    SymmetricTensor3 whitened(k); // T_w(i, j, l) = t(i, j, l)·s_i·s_j·s_l
    whitened.unfolded() = whitenCore(m_core, s);
    whitened.symmetrize(); // estimated moments are symmetric only up to rounding
    JennrichOptions jennrich;
    jennrich.rank = static_cast<int>(k);
    jennrich.slices = std::max(1, options.restarts);
    jennrich.seed = options.seed;
    const JennrichResult found = jennrichSymmetric(whitened, jennrich);

    PowerMethodResult out = closedFormResult(m_low.vectors.rows(), m_low.values);
    const Eigen::ArrayXd rootAbs = m_low.values.cwiseAbs().cwiseSqrt().array();
    bool anyDegenerate = found.status != Status::Successful;
    for (Eigen::Index t = 0; t < k; ++t) {
        const Eigen::VectorXd v = found.a.col(t);
        const double norm = (v.array().square() * sign).sum(); // v_tᵀ S v_t
        const double w = found.weights[t];
        if (!(std::abs(norm) > 1e-12) || !std::isfinite(w) || w == 0 || !v.allFinite()) {
            out.degenerate[static_cast<size_t>(t)] = true;
            anyDegenerate = true;
            continue;
        }
        const double c = std::copysign(1.0 / std::sqrt(std::abs(norm)), w);
        const double lambda = std::copysign(std::abs(w) / std::pow(std::abs(c), 3.0), norm);
        if (std::abs(lambda) < options.minAbsLambda) {
            out.degenerate[static_cast<size_t>(t)] = true;
            anyDegenerate = true;
            continue;
        }
        out.lambdas[t] = lambda;
        out.components.col(t) = m_low.vectors * (rootAbs * (c * v).array()).matrix();
    }
    out.status = anyDegenerate ? Status::NumericalIssue : Status::Successful;
    return out;
}

namespace {

/// K × K slice T(V, V, η) of the symmetric tensor from its packed partial contraction
/// T(I, V, V) (n × K(K+1)/2, off-diagonal pairs doubled, see packPairs).
Eigen::MatrixXd sliceOfPartial(const Eigen::MatrixXd& partialPacked, const Eigen::VectorXd& eta,
                               Eigen::Index k) {
    const Eigen::VectorXd packed = partialPacked.transpose() * eta;
    Eigen::MatrixXd slice(k, k);
    Eigen::Index p = 0;
    for (Eigen::Index l = 0; l < k; ++l) {
        for (Eigen::Index j = 0; j <= l; ++j, ++p) {
            const double value = j < l ? 0.5 * packed[p] : packed[p];
            slice(j, l) = value;
            slice(l, j) = value;
        }
    }
    return slice;
}

} // namespace

Eigen::MatrixXd DensePowerMethod::pencilDirections(std::uint64_t seed, int count) const {
    Rng rng(deriveSeed(seed, 0x70656e63696cULL)); // "pencil"
    Eigen::MatrixXd eta(m_low.vectors.rows(), count);
    for (Eigen::Index c = 0; c < eta.cols(); ++c) {
        for (Eigen::Index i = 0; i < eta.rows(); ++i) {
            eta(i, c) = rng.normal();
        }
    }
    return eta;
}

PowerMethodResult DensePowerMethod::runPencil(const PowerMethodOptions& options,
                                              const Eigen::MatrixXd& directions) const {
    const Eigen::Index k = m_low.vectors.cols();
    const Eigen::Index n = m_low.vectors.rows();
    validatePowerMethodOptions(options, n, "runPencil");
    if (options.numComponents != k) {
        throw std::invalid_argument(
            "runPencil: M2 factor has " + std::to_string(k) +
            " columns, numComponents = " + std::to_string(options.numComponents));
    }
    if (directions.rows() != n || directions.cols() < 1) {
        throw std::invalid_argument("runPencil: directions must be n × (≥ 1)");
    }
    const Eigen::ArrayXd s = m_low.values.cwiseAbs().cwiseInverse().cwiseSqrt().array();
    const Eigen::ArrayXd sign = m_low.values.array().sign();
    // M(η) = T_w(I, I, η)·S with T_w(I, I, η) = diag(s)·T(V, V, η)·diag(s): for
    // T = Σ|λ_t| â_t^{⊗3} and Z = [Wᵀâ_t] (ZᵀSZ = Σ = diag sign λ) it equals
    // Z·diag(λ_t⟨â_t, η⟩)·Z⁻¹, so its eigenvectors are the z_t.
    // Every direction's matrix, formed once: the first gives the initial basis, the others
    // split its clusters and all of them enter the joint diagonalisation.
    std::vector<Eigen::MatrixXd> slices;
    for (Eigen::Index c = 0; c < directions.cols(); ++c) {
        const Eigen::MatrixXd slice = sliceOfPartial(m_partialPacked, directions.col(c), k);
        slices.emplace_back(s.matrix().asDiagonal() * slice * (s * sign).matrix().asDiagonal());
    }
    // Real basis of the eigenvectors of M(η₀), in clusters: eigenvalues closer than
    // kClusterGap × their spread, and every complex pair (its real and imaginary parts), form
    // one cluster whose invariant subspace η₀ does not split reliably. Each cluster of two or
    // more is re-diagonalised with the direction among columns 1, 2, … whose restriction
    // R⁻¹M(η_c)R to the cluster's block has a real spectrum with the widest smallest gap; a
    // cluster no column splits is degenerate.
    constexpr double kClusterGap = 1e-3;
    Eigen::EigenSolver<Eigen::MatrixXd> eigen(slices[0], true);
    const Eigen::VectorXcd values = eigen.eigenvalues();
    const Eigen::MatrixXcd vectors = eigen.eigenvectors();
    std::vector<Eigen::Index> order(static_cast<size_t>(k));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
        return values[a].real() < values[b].real() ||
               (values[a].real() == values[b].real() && values[a].imag() > values[b].imag());
    });
    const double spread = std::max(values.real().maxCoeff() - values.real().minCoeff(),
                                   values.cwiseAbs().maxCoeff()) +
                          1e-300;
    // Clusters over the sorted order: neighbours closer than the tolerance, and conjugates.
    std::vector<int> cluster(static_cast<size_t>(k), -1);
    int clusters = 0;
    for (size_t i = 0; i < order.size(); ++i) {
        const Eigen::Index t = order[i];
        if (cluster[static_cast<size_t>(t)] >= 0) {
            continue;
        }
        cluster[static_cast<size_t>(t)] = clusters;
        for (size_t j = i + 1; j < order.size(); ++j) {
            const Eigen::Index u = order[j];
            if (cluster[static_cast<size_t>(u)] >= 0) {
                continue;
            }
            const bool conjugate = std::abs(values[t].imag()) > 0 &&
                                   std::abs(values[u] - std::conj(values[t])) <= 1e-12 * spread;
            const bool close =
                std::abs(values[u].real() - values[order[j - 1]].real()) < kClusterGap * spread &&
                cluster[static_cast<size_t>(order[j - 1])] == clusters;
            if (conjugate || close || std::abs(values[u] - values[t]) < kClusterGap * spread) {
                cluster[static_cast<size_t>(u)] = clusters;
            }
        }
        ++clusters;
    }
    // Columns of the real basis, cluster by cluster.
    Eigen::MatrixXd basis(k, k);
    std::vector<std::pair<Eigen::Index, Eigen::Index>> blocks; // (first column, size)
    {
        Eigen::Index column = 0;
        for (int c = 0; c < clusters; ++c) {
            const Eigen::Index first = column;
            std::vector<bool> usedConjugate(static_cast<size_t>(k), false);
            for (const Eigen::Index t : order) {
                if (cluster[static_cast<size_t>(t)] != c || usedConjugate[static_cast<size_t>(t)]) {
                    continue;
                }
                if (values[t].imag() == 0) {
                    basis.col(column++) = vectors.col(t).real();
                    continue;
                }
                basis.col(column++) = vectors.col(t).real();
                basis.col(column++) = vectors.col(t).imag();
                for (const Eigen::Index u : order) { // its conjugate is spanned already
                    if (u != t && !usedConjugate[static_cast<size_t>(u)] &&
                        std::abs(values[u] - std::conj(values[t])) <= 1e-12 * spread) {
                        usedConjugate[static_cast<size_t>(u)] = true;
                        break;
                    }
                }
            }
            blocks.emplace_back(first, column - first);
        }
    }
    std::vector<bool> unresolved(static_cast<size_t>(k), false);
    bool needsSplit = false;
    for (const auto& [first, size] : blocks) {
        needsSplit = needsSplit || size > 1;
    }
    if (needsSplit) {
        const Eigen::FullPivLU<Eigen::MatrixXd> lu(basis);
        std::vector<Eigen::MatrixXd> restricted; // R⁻¹M(η_c)R, c = 1, 2, …
        if (lu.isInvertible()) {
            for (size_t c = 1; c < slices.size(); ++c) {
                restricted.push_back(lu.solve(slices[c] * basis));
            }
        }
        for (const auto& [first, size] : blocks) {
            if (size < 2) {
                continue;
            }
            double bestGap = 0;
            Eigen::MatrixXd bestMix;
            for (const Eigen::MatrixXd& r : restricted) {
                const Eigen::MatrixXd block = r.block(first, first, size, size);
                Eigen::EigenSolver<Eigen::MatrixXd> small(block, true);
                const Eigen::VectorXcd v = small.eigenvalues();
                const double blockScale = v.cwiseAbs().maxCoeff() + 1e-300;
                if (v.imag().cwiseAbs().maxCoeff() > 1e-12 * blockScale) {
                    continue;
                }
                double gap = std::numeric_limits<double>::infinity();
                for (Eigen::Index i = 0; i < size; ++i) {
                    for (Eigen::Index j = i + 1; j < size; ++j) {
                        gap = std::min(gap, std::abs(v[i].real() - v[j].real()) / blockScale);
                    }
                }
                if (gap > bestGap) {
                    bestGap = gap;
                    bestMix = small.eigenvectors().real();
                }
            }
            if (bestMix.size() == 0) {
                // No single direction splits the cluster. With several directions the joint
                // diagonalisation below still can (it weighs them all); with one, nothing can.
                if (restricted.empty()) {
                    for (Eigen::Index i = first; i < first + size; ++i) {
                        unresolved[static_cast<size_t>(i)] = true;
                    }
                }
                continue;
            }
            const Eigen::MatrixXd mixed = basis.middleCols(first, size) * bestMix;
            basis.middleCols(first, size) = mixed;
        }
    }

    // Joint diagonalisation: every M(η_c) has the same eigenvectors Z for exact moments. With
    // unit columns of R and B_c = R⁻¹M(η_c)R = D_c + E_c (E_c off-diagonal), the objective is
    // the off-diagonal energy Σ_c ‖E_c‖². R ← R(I + αΔ) changes E_c(i, j) by (d_ci − d_cj)·Δ_ij to
    // first order; Δ_ij is the least-squares solution over all directions,
    // Δ_ij = −Σ_c (d_ci − d_cj)E_c(i, j) / Σ_c (d_ci − d_cj)², so a pair that one direction
    // barely separates is decided by the directions that separate it well. The step length α
    // (1, ½, ¼, …, 2⁻⁹) is the first that lowers the objective; no such step ends the descent, so
    // the result is a local minimum of a defined objective (on real moments the matrices are not
    // exactly jointly diagonalisable), not wherever an iteration count stops. A step that lowers
    // the objective only below α = 2⁻⁹ means the first-order model no longer describes it: the
    // descent stops there (the further gains are tiny, and searching for them cost half the
    // evaluations at K = 50).
    if (slices.size() > 1) {
        constexpr int kJointSteps = 100;
        constexpr int kHalvings = 10;
        // Off-diagonal energy of a unit-column basis, and the B_c (empty if R is singular). The
        // directions are independent: from K = kThreadedJointFromK they run on the worker
        // threads, each B_c computed the same way whichever thread runs it and the energies
        // summed in direction order, so the thread count changes nothing but the wall time.
        constexpr Eigen::Index kThreadedJointFromK = 24;
        const bool threaded = k >= kThreadedJointFromK;
        auto offDiagonal = [&](const Eigen::MatrixXd& r,
                               std::vector<Eigen::MatrixXd>* transformed) {
            const Eigen::PartialPivLU<Eigen::MatrixXd> lu(r);
            if (!(std::abs(lu.determinant()) > 0) || !(lu.rcond() > 1e-12)) {
                return std::numeric_limits<double>::infinity();
            }
            std::vector<Eigen::MatrixXd> b(slices.size());
            std::vector<double> energy(slices.size());
            auto one = [&](std::int64_t c) {
                const auto index = static_cast<size_t>(c);
                b[index] = lu.solve(slices[index] * r);
                energy[index] = b[index].squaredNorm() - b[index].diagonal().squaredNorm();
            };
            if (threaded) {
                parallelFor(static_cast<std::int64_t>(slices.size()), one);
            } else {
                for (size_t c = 0; c < slices.size(); ++c) {
                    one(static_cast<std::int64_t>(c));
                }
            }
            double off = 0;
            for (const double e : energy) {
                off += e;
            }
            if (transformed != nullptr) {
                *transformed = std::move(b);
            }
            return std::isfinite(off) ? off : std::numeric_limits<double>::infinity();
        };
        basis.colwise().normalize();
        std::vector<Eigen::MatrixXd> transformed;
        double current = offDiagonal(basis, &transformed);
        for (int step = 0; step < kJointSteps && std::isfinite(current) && current > 0; ++step) {
            Eigen::MatrixXd numerator = Eigen::MatrixXd::Zero(k, k);
            Eigen::MatrixXd denominator = Eigen::MatrixXd::Zero(k, k);
            for (const Eigen::MatrixXd& b : transformed) {
                for (Eigen::Index j = 0; j < k; ++j) {
                    for (Eigen::Index i = 0; i < k; ++i) {
                        if (i != j) {
                            const double gap = b(i, i) - b(j, j);
                            numerator(i, j) += gap * b(i, j);
                            denominator(i, j) += gap * gap;
                        }
                    }
                }
            }
            Eigen::MatrixXd delta = Eigen::MatrixXd::Zero(k, k);
            for (Eigen::Index j = 0; j < k; ++j) {
                for (Eigen::Index i = 0; i < k; ++i) {
                    if (i != j && denominator(i, j) > 0) {
                        delta(i, j) = -numerator(i, j) / denominator(i, j);
                    }
                }
            }
            if (!(delta.cwiseAbs().maxCoeff() > 1e-14)) {
                break;
            }
            bool improved = false;
            double alpha = 1.0;
            for (int h = 0; h < kHalvings && !improved; ++h, alpha *= 0.5) {
                Eigen::MatrixXd trial = basis * (Eigen::MatrixXd::Identity(k, k) + alpha * delta);
                trial.colwise().normalize();
                std::vector<Eigen::MatrixXd> trialTransformed;
                const double value = offDiagonal(trial, &trialTransformed);
                if (value < current) {
                    improved = true;
                    const double decrease = current - value;
                    basis = std::move(trial);
                    transformed = std::move(trialTransformed);
                    current = value;
                    if (decrease <= 1e-9 * current) {
                        step = kJointSteps; // converged: the objective no longer moves
                    }
                }
            }
            if (!improved) {
                break;
            }
        }
    }

    // Whitened core T_w(i, j + K·l) for the weights λ_t = T_w(y_t, y_t, y_t)·σ_t.
    const Eigen::MatrixXd whitened = whitenCore(m_core, s);
    PowerMethodResult out = closedFormResult(n, m_low.values);
    const Eigen::ArrayXd rootAbs = m_low.values.cwiseAbs().cwiseSqrt().array();
    for (Eigen::Index t = 0; t < k; ++t) {
        Eigen::VectorXd z = basis.col(t);
        const double norm = (z.array().square() * sign).sum(); // zᵀSz = σ_t after scaling
        if (unresolved[static_cast<size_t>(t)] || !(std::abs(norm) > 1e-12 * z.squaredNorm()) ||
            !z.allFinite()) {
            out.degenerate[static_cast<size_t>(t)] = true;
            continue;
        }
        z /= std::sqrt(std::abs(norm));
        const double sigma = norm > 0 ? 1.0 : -1.0;
        // Dual y_t = σ_t·S·z_t (y_tᵀz_τ = δ_tτ), so T_w(y, y, y) = |λ_t| when z_t has the sign of
        // the term; the other sign gives −|λ_t|.
        const Eigen::VectorXd y = sigma * (sign.matrix().asDiagonal() * z);
        Eigen::VectorXd yy(k * k);
        for (Eigen::Index l = 0; l < k; ++l) {
            yy.segment(l * k, k) = y[l] * y;
        }
        const double g = y.dot(whitened * yy);
        if (!std::isfinite(g) || g == 0) {
            out.degenerate[static_cast<size_t>(t)] = true;
            continue;
        }
        if (g < 0) {
            z = -z;
        }
        const double lambda = sigma * std::abs(g);
        if (std::abs(lambda) < options.minAbsLambda) {
            out.degenerate[static_cast<size_t>(t)] = true;
            continue;
        }
        out.lambdas[t] = lambda;
        out.components.col(t) = m_low.vectors * (rootAbs * z.array()).matrix();
    }
    const bool anyDegenerate =
        std::find(out.degenerate.begin(), out.degenerate.end(), true) != out.degenerate.end();
    out.status = anyDegenerate ? Status::NumericalIssue : Status::Successful;
    return out;
}

double DensePowerMethod::whitenedResidual(const PowerMethodResult& result) const {
    const Eigen::Index k = m_low.vectors.cols();
    const Eigen::ArrayXd s = m_low.values.cwiseAbs().cwiseInverse().cwiseSqrt().array();
    Eigen::MatrixXd residual = whitenCore(m_core, s);
    const double total = residual.norm();
    if (!(total > 0)) {
        return 0.0;
    }
    // Deflation's convention: M3 = Σ |λ̂_t| â_t^{⊗3} (â carries the sign). With z_t = Wᵀâ_t the
    // subtracted tensor is Z·diag(|λ̂|)·(Z ⊙ Z)ᵀ in the unfolding (⊙: column-wise Kronecker),
    // one GEMM.
    std::vector<Eigen::Index> used;
    for (Eigen::Index t = 0; t < result.lambdas.size(); ++t) {
        const bool degenerate = static_cast<size_t>(t) < result.degenerate.size() &&
                                result.degenerate[static_cast<size_t>(t)];
        if (!degenerate) {
            used.push_back(t);
        }
    }
    const auto count = static_cast<Eigen::Index>(used.size());
    if (count > 0) {
        Eigen::MatrixXd z(k, count);
        Eigen::MatrixXd weighted(k, count);
        Eigen::MatrixXd kron(k * k, count);
        for (Eigen::Index c = 0; c < count; ++c) {
            const Eigen::Index t = used[static_cast<size_t>(c)];
            z.col(c) =
                (s * (m_low.vectors.transpose() * result.components.col(t)).array()).matrix();
            weighted.col(c) = std::abs(result.lambdas[t]) * z.col(c);
            for (Eigen::Index l = 0; l < k; ++l) {
                kron.col(c).segment(k * l, k) = z(l, c) * z.col(c);
            }
        }
        residual.noalias() -= weighted * kron.transpose();
    }
    return residual.norm() / total;
}

} // namespace cx
