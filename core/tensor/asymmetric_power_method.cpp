#include "core/tensor/asymmetric_power_method.h"

#include "core/common/random.h"

#include "core/tensor/linalg.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace cx {

namespace {

/// z[j + d2·k] = v_j·w_k, the vector that contracts modes 2 and 3 of a mode-1 unfolding.
Eigen::VectorXd kron(const Eigen::VectorXd& w, const Eigen::VectorXd& v) {
    const Eigen::Index d2 = v.size();
    Eigen::VectorXd z(d2 * w.size());
    for (Eigen::Index k = 0; k < w.size(); ++k) {
        z.segment(k * d2, d2) = w[k] * v;
    }
    return z;
}

struct AsymmetricTrial {
    Eigen::VectorXd a;
    double lambda = 0;
    int iterations = 0;
};

/// Mode-n unfoldings of a DenseTensor3: mode 2 is d2 × (d1·d3) with column i + d1·k, mode 3 is
/// d3 × (d1·d2) with column i + d1·j.
Eigen::MatrixXd unfoldMode2(const DenseTensor3& t) {
    const Eigen::Index d1 = t.dim(0), d2 = t.dim(1), d3 = t.dim(2);
    Eigen::MatrixXd out(d2, d1 * d3);
    for (Eigen::Index k = 0; k < d3; ++k) {
        for (Eigen::Index j = 0; j < d2; ++j) {
            for (Eigen::Index i = 0; i < d1; ++i) {
                out(j, i + d1 * k) = t(i, j, k);
            }
        }
    }
    return out;
}

Eigen::MatrixXd unfoldMode3(const DenseTensor3& t) {
    const Eigen::Index d1 = t.dim(0), d2 = t.dim(1), d3 = t.dim(2);
    Eigen::MatrixXd out(d3, d1 * d2);
    for (Eigen::Index k = 0; k < d3; ++k) {
        for (Eigen::Index j = 0; j < d2; ++j) {
            for (Eigen::Index i = 0; i < d1; ++i) {
                out(k, i + d1 * j) = t(i, j, k);
            }
        }
    }
    return out;
}

/// Khatri–Rao product: row i + rows(x)·k of the result is x(i, :) ∘ y(k, :).
Eigen::MatrixXd khatriRao(const Eigen::MatrixXd& y, const Eigen::MatrixXd& x) {
    Eigen::MatrixXd out(x.rows() * y.rows(), x.cols());
    for (Eigen::Index k = 0; k < y.rows(); ++k) {
        out.middleRows(k * x.rows(), x.rows()) = x * y.row(k).asDiagonal();
    }
    return out;
}

/// One least-squares factor update of CP-ALS: argmin_F ‖T_(n) − F·KRᵀ‖ = T_(n)·KR·G⁺ with
/// G = KRᵀKR formed as the Hadamard product of the other factors' Gram matrices.
Eigen::MatrixXd alsUpdate(const Eigen::MatrixXd& unfolded, const Eigen::MatrixXd& kr,
                          const Eigen::MatrixXd& gram) {
    const Eigen::MatrixXd rhs = unfolded * kr;
    return gram.completeOrthogonalDecomposition().solve(rhs.transpose()).transpose();
}

} // namespace

void alsRefine(const Eigen::MatrixXd& mab, const Eigen::MatrixXd& mac, const Eigen::MatrixXd& mbc,
               const DenseTensor3& mabc, const std::vector<char>& found,
               const AsymmetricPowerOptions& options, AsymmetricDecomposition& dec,
               const CancelToken& cancel) {
    std::vector<int> active;
    for (int t = 0; t < static_cast<int>(found.size()); ++t) {
        if (found[static_cast<size_t>(t)]) {
            active.push_back(t);
        }
    }
    const auto n = static_cast<Eigen::Index>(active.size());
    if (n == 0) {
        return;
    }
    // CP factors with the weight in the first mode: T ≈ Σ_t A_t ⊗ B_t ⊗ C_t, A_t = w_t a_t.
    const Eigen::VectorXd w = dec.weights();
    Eigen::MatrixXd a(mabc.dim(0), n), b(mabc.dim(1), n), c(mabc.dim(2), n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const int t = active[static_cast<size_t>(i)];
        a.col(i) = w[t] * dec.lambdas[t] * dec.a.col(t);
        b.col(i) = dec.lambdas[t] * dec.b.col(t);
        c.col(i) = dec.lambdas[t] * dec.c.col(t);
    }
    const Eigen::MatrixXd& t1 = mabc.matrix();
    const Eigen::MatrixXd t2 = unfoldMode2(mabc);
    const Eigen::MatrixXd t3 = unfoldMode3(mabc);
    const double norm = std::max(mabc.norm(), 1e-300);
    double previous = std::numeric_limits<double>::infinity();
    for (int sweep = 0; sweep < options.alsSweeps; ++sweep) {
        throwIfCancelled(cancel);
        a = alsUpdate(t1, khatriRao(c, b), (c.transpose() * c).cwiseProduct(b.transpose() * b));
        b = alsUpdate(t2, khatriRao(c, a), (c.transpose() * c).cwiseProduct(a.transpose() * a));
        c = alsUpdate(t3, khatriRao(b, a), (b.transpose() * b).cwiseProduct(a.transpose() * a));
        const double fit = (t3 - c * khatriRao(b, a).transpose()).norm() / norm;
        if (previous - fit < options.tolerance * std::max(fit, 1e-300)) {
            break;
        }
        previous = fit;
    }
    // Scales from the pair moments: with A_t = α_t a_t, B_t = β_t b_t, C_t = γ_t c_t and
    // w_t = α_t β_t γ_t, M_ab = Σ γ_t A_t B_tᵀ, M_ac = Σ β_t A_t C_tᵀ, M_bc = Σ α_t B_t C_tᵀ.
    auto pairScales = [&](const Eigen::MatrixXd& pair, const Eigen::MatrixXd& x,
                          const Eigen::MatrixXd& y) {
        Eigen::MatrixXd design(pair.size(), n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::MatrixXd outer = x.col(i) * y.col(i).transpose();
            design.col(i) = Eigen::Map<const Eigen::VectorXd>(outer.data(), outer.size());
        }
        return Eigen::VectorXd(design.completeOrthogonalDecomposition().solve(
            Eigen::Map<const Eigen::VectorXd>(pair.data(), pair.size())));
    };
    const Eigen::VectorXd gammas = pairScales(mab, a, b);
    const Eigen::VectorXd betas = pairScales(mac, a, c);
    const Eigen::VectorXd alphas = pairScales(mbc, b, c);
    for (Eigen::Index i = 0; i < n; ++i) {
        const int t = active[static_cast<size_t>(i)];
        const double weight = alphas[i] * betas[i] * gammas[i];
        if (!(std::abs(weight) > 0) || !std::isfinite(weight)) {
            dec.status = Status::NumericalIssue;
            continue;
        }
        // Natural scale a = A/α, …; ±1 form â = a/λ with λ = sign(w)/√|w|.
        const double lambda = (weight > 0 ? 1.0 : -1.0) / std::sqrt(std::abs(weight));
        dec.lambdas[t] = lambda;
        dec.a.col(t) = a.col(i) / (alphas[i] * lambda);
        dec.b.col(t) = b.col(i) / (betas[i] * lambda);
        dec.c.col(t) = c.col(i) / (gammas[i] * lambda);
    }
}

namespace {} // namespace

Eigen::VectorXd DenseTensor3::contract23(const Eigen::VectorXd& v, const Eigen::VectorXd& w) const {
    if (v.size() != m_dims[1] || w.size() != m_dims[2]) {
        throw std::invalid_argument("DenseTensor3::contract23: vector sizes " +
                                    std::to_string(v.size()) + ", " + std::to_string(w.size()) +
                                    " do not match dimensions " + std::to_string(m_dims[1]) + ", " +
                                    std::to_string(m_dims[2]));
    }
    return m_unfolded * kron(w, v);
}

double DenseTensor3::contract(const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& w) const {
    if (x.size() != m_dims[0]) {
        throw std::invalid_argument("DenseTensor3::contract: first vector has size " +
                                    std::to_string(x.size()) + ", dimension is " +
                                    std::to_string(m_dims[0]));
    }
    return x.dot(contract23(v, w));
}

void DenseTensor3::addRankOne(double alpha, const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                              const Eigen::VectorXd& c) {
    if (a.size() != m_dims[0] || b.size() != m_dims[1] || c.size() != m_dims[2]) {
        throw std::invalid_argument("DenseTensor3::addRankOne: vector sizes do not match");
    }
    m_unfolded.noalias() += (alpha * a) * kron(c, b).transpose();
}

DenseTensor3 DenseTensor3::combined(double gamma, const DenseTensor3& other) const {
    if (other.m_dims != m_dims) {
        throw std::invalid_argument("DenseTensor3::combined: dimensions differ");
    }
    DenseTensor3 out = *this;
    out.m_unfolded -= gamma * other.m_unfolded;
    return out;
}

DenseTensor3 DenseTensor3::permuted(const std::array<int, 3>& order) const {
    std::array<int, 3> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != std::array<int, 3>{0, 1, 2}) {
        throw std::invalid_argument("DenseTensor3::permuted: order is not a permutation of 0,1,2");
    }
    DenseTensor3 out(m_dims[static_cast<size_t>(order[0])], m_dims[static_cast<size_t>(order[1])],
                     m_dims[static_cast<size_t>(order[2])]);
    std::array<Eigen::Index, 3> index{};
    for (index[2] = 0; index[2] < m_dims[2]; ++index[2]) {
        for (index[1] = 0; index[1] < m_dims[1]; ++index[1]) {
            for (index[0] = 0; index[0] < m_dims[0]; ++index[0]) {
                out(index[static_cast<size_t>(order[0])], index[static_cast<size_t>(order[1])],
                    index[static_cast<size_t>(order[2])]) = (*this)(index[0], index[1], index[2]);
            }
        }
    }
    return out;
}

DenseTensor3 DenseTensor3::transformed(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                                       const Eigen::MatrixXd& c) const {
    if (a.rows() != m_dims[0] || b.rows() != m_dims[1] || c.rows() != m_dims[2]) {
        throw std::invalid_argument("DenseTensor3::transformed: matrix rows do not match");
    }
    const Eigen::Index p = a.cols();
    const Eigen::Index q = b.cols();
    const Eigen::Index r = c.cols();
    const Eigen::Index d2 = m_dims[1];
    const Eigen::Index d3 = m_dims[2];
    // Mode 1: (p × d2·d3).
    const Eigen::MatrixXd t1 = a.transpose() * m_unfolded;
    // Mode 2: for each k, (p × d2)·B → (p × q); stored as p·q × d3 column-major.
    Eigen::MatrixXd t2(p * q, d3);
    for (Eigen::Index k = 0; k < d3; ++k) {
        const Eigen::MatrixXd block = t1.middleCols(k * d2, d2) * b;
        t2.col(k) = Eigen::Map<const Eigen::VectorXd>(block.data(), p * q);
    }
    // Mode 3: (p·q × d3)·C → (p·q × r), which is the mode-1 unfolding in memory order.
    const Eigen::MatrixXd t3 = t2 * c;
    DenseTensor3 out(p, q, r);
    out.m_unfolded = Eigen::Map<const Eigen::MatrixXd>(t3.data(), p, q * r);
    return out;
}

Eigen::VectorXd AsymmetricDecomposition::weights() const {
    Eigen::VectorXd w(lambdas.size());
    for (Eigen::Index t = 0; t < lambdas.size(); ++t) {
        const double l = lambdas[t];
        w[t] = l == 0 ? 0.0 : (l > 0 ? 1.0 : -1.0) / (l * l);
    }
    return w;
}

Eigen::MatrixXd AsymmetricDecomposition::scaledA() const {
    return a * lambdas.asDiagonal();
}
Eigen::MatrixXd AsymmetricDecomposition::scaledB() const {
    return b * lambdas.asDiagonal();
}
Eigen::MatrixXd AsymmetricDecomposition::scaledC() const {
    return c * lambdas.asDiagonal();
}

AsymmetricDecomposition
asymmetricTensorPowerMethod(const Eigen::MatrixXd& mab, const Eigen::MatrixXd& mac,
                            const Eigen::MatrixXd& mbc, const DenseTensor3& mabc,
                            const AsymmetricPowerOptions& options, const CancelToken& cancel) {
    const Eigen::Index d1 = mabc.dim(0);
    const Eigen::Index d2 = mabc.dim(1);
    const Eigen::Index d3 = mabc.dim(2);
    if (mab.rows() != d1 || mab.cols() != d2 || mac.rows() != d1 || mac.cols() != d3 ||
        mbc.rows() != d2 || mbc.cols() != d3) {
        throw std::invalid_argument(
            "asymmetricTensorPowerMethod: pair moments do not match the tensor dimensions (" +
            std::to_string(d1) + " x " + std::to_string(d2) + " x " + std::to_string(d3) + ")");
    }
    const int k = options.rank;
    const Eigen::Index minDim = std::min({d1, d2, d3});
    if (k < 1 || k > minDim) {
        throw std::invalid_argument("asymmetricTensorPowerMethod: need 1 <= K <= " +
                                    std::to_string(minDim) + " (K = " + std::to_string(k) + ")");
    }
    if (options.iterations < 1 || options.trials < 1) {
        throw std::invalid_argument("asymmetricTensorPowerMethod: iterations (" +
                                    std::to_string(options.iterations) + ") and trials (" +
                                    std::to_string(options.trials) + ") must be >= 1");
    }

    const Eigen::MatrixXd pab = rankKPseudoInverse(mab, k); // d2 × d1
    const Eigen::MatrixXd pac = rankKPseudoInverse(mac, k); // d3 × d1
    const Eigen::MatrixXd maaPinv = pab.transpose() * mbc * pac;
    const Eigen::MatrixXd bMap = mbc * pac;             // â ↦ b̂
    const Eigen::MatrixXd cMap = mbc.transpose() * pab; // â ↦ ĉ
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(mab, Eigen::ComputeThinU);
    const Eigen::MatrixXd range = svd.matrixU().leftCols(k);
    const double normScale = std::max(maaPinv.norm(), 1e-300);

    AsymmetricDecomposition out;
    out.lambdas = Eigen::VectorXd::Zero(k);
    out.a = Eigen::MatrixXd::Zero(d1, k);
    out.b = Eigen::MatrixXd::Zero(d2, k);
    out.c = Eigen::MatrixXd::Zero(d3, k);
    out.status = Status::Successful;

    // One power-iteration run from u on `target`; false if the normalisation degenerates.
    auto runTrial = [&](const DenseTensor3& target, Eigen::VectorXd u, AsymmetricTrial& trial) {
        u.normalize();
        trial.iterations = 0;
        for (int i = 0; i < options.iterations; ++i) {
            Eigen::VectorXd next = target.contract23(pab * u, pac * u);
            const double norm = next.norm();
            ++trial.iterations;
            if (!(norm > 0) || !std::isfinite(norm)) {
                return false;
            }
            next /= norm;
            const double change = 1.0 - std::abs(next.dot(u));
            u = next;
            if (change < options.tolerance) {
                break;
            }
        }
        const double n = u.dot(maaPinv * u);
        if (!std::isfinite(n) || std::abs(n) <= 1e-14 * normScale) {
            return false;
        }
        trial.a = u / std::sqrt(std::abs(n));
        trial.lambda = target.contract(maaPinv * trial.a, pab * trial.a, pac * trial.a);
        return std::isfinite(trial.lambda);
    };
    auto keep = [&](int t, const AsymmetricTrial& kept) {
        out.lambdas[t] = kept.lambda;
        out.a.col(t) = kept.a;
        out.b.col(t) = bMap * kept.a;
        out.c.col(t) = cMap * kept.a;
        out.iterations += kept.iterations;
    };

    DenseTensor3 tensor = mabc;
    std::vector<AsymmetricTrial> trials;
    std::vector<char> found(static_cast<size_t>(k), 0);
    if (options.initialization == AsymmetricInit::SimultaneousDiagonalization) {
        // Project every mode on its top-K singular subspace: T' = T(U_a, V_b, V_c) (K×K×K),
        // M'_ab = U_aᵀ M_ab V_b = A' diag(w) B'ᵀ. Then T'(I, I, v)·M'_ab⁻¹ = A' diag(C'ᵀv) A'⁻¹:
        // its eigenvectors are the projected first-view factors for any v with distinct
        // ⟨c'_t, v⟩. Of `trials` random v the one with the best-separated real spectrum is kept.
        Eigen::MatrixXd joint(d1, d2 + d3);
        joint << mab, mac;
        Eigen::JacobiSVD<Eigen::MatrixXd> svdA(joint, Eigen::ComputeThinU);
        Eigen::JacobiSVD<Eigen::MatrixXd> svdB(mab, Eigen::ComputeThinV);
        Eigen::JacobiSVD<Eigen::MatrixXd> svdC(mac, Eigen::ComputeThinV);
        const Eigen::MatrixXd ua = svdA.matrixU().leftCols(k);
        const Eigen::MatrixXd vb = svdB.matrixV().leftCols(k);
        const Eigen::MatrixXd vc = svdC.matrixV().leftCols(k);
        const DenseTensor3 projected = mabc.transformed(ua, vb, vc);
        const Eigen::MatrixXd pairInverse =
            (ua.transpose() * mab * vb).completeOrthogonalDecomposition().pseudoInverse();
        double bestSeparation = -1;
        Eigen::MatrixXd bestVectors;
        for (int r = 0; r < options.trials; ++r) {
            throwIfCancelled(cancel);
            Rng rng(deriveSeed(options.seed, static_cast<std::uint64_t>(r)));
            const Eigen::VectorXd v = rng.normalVector(k);
            Eigen::MatrixXd slice = Eigen::MatrixXd::Zero(k, k);
            for (int c = 0; c < k; ++c) {
                slice += v[c] * projected.matrix().middleCols(c * k, k);
            }
            Eigen::EigenSolver<Eigen::MatrixXd> eigen(slice * pairInverse);
            if (eigen.info() != Eigen::Success) {
                continue;
            }
            const Eigen::VectorXcd values = eigen.eigenvalues();
            const double scale = std::max(values.cwiseAbs().maxCoeff(), 1e-300);
            // Smallest eigenvalue gap minus the largest imaginary part (relative): exact
            // moments give a real spectrum, and well separated eigenvalues give well
            // conditioned eigenvectors.
            double gap = std::numeric_limits<double>::infinity();
            double imaginary = 0;
            for (int i = 0; i < k; ++i) {
                imaginary = std::max(imaginary, std::abs(values[i].imag()) / scale);
                for (int j = i + 1; j < k; ++j) {
                    gap = std::min(gap, std::abs(values[i] - values[j]) / scale);
                }
            }
            const double separation = (k == 1 ? 1.0 : gap) - imaginary;
            if (separation > bestSeparation || bestVectors.size() == 0) {
                bestSeparation = separation;
                bestVectors = eigen.eigenvectors().real();
            }
        }
        for (int t = 0; t < k && bestVectors.size() > 0; ++t) {
            AsymmetricTrial trial;
            Eigen::VectorXd u = ua * bestVectors.col(t);
            const double n = u.dot(maaPinv * u);
            if (!(u.norm() > 0) || !std::isfinite(n) ||
                std::abs(n) <= 1e-14 * normScale * u.squaredNorm()) {
                out.status = Status::NumericalIssue;
                continue;
            }
            trial.a = u / std::sqrt(std::abs(n));
            trial.lambda = mabc.contract(maaPinv * trial.a, pab * trial.a, pac * trial.a);
            if (!std::isfinite(trial.lambda)) {
                out.status = Status::NumericalIssue;
                continue;
            }
            // An eigenvector has an arbitrary sign s: for â = s·a'_t, n = σ_t but λ̂ = s/√|w_t|.
            // The convention â = σ_t a'_t (λ̂ = σ_t/√|w_t|) needs s = σ_t, i.e. equal signs.
            if ((trial.lambda < 0) != (n < 0)) {
                trial.a = -trial.a;
                trial.lambda = -trial.lambda;
            }
            keep(t, trial);
            found[static_cast<size_t>(t)] = 1;
            tensor.addRankOne(-std::abs(out.lambdas[t]), out.a.col(t), out.b.col(t), out.c.col(t));
        }
        if (bestVectors.size() == 0) {
            out.status = Status::NumericalIssue;
        }
    }
    if (options.starts.size() > 0 && options.starts.rows() != d1) {
        throw std::invalid_argument("asymmetricTensorPowerMethod: warm starts have " +
                                    std::to_string(options.starts.rows()) + " rows, the tensor " +
                                    std::to_string(d1));
    }
    for (int t = 0; t < k && options.initialization == AsymmetricInit::Deflation; ++t) {
        if (t < options.starts.cols()) {
            throwIfCancelled(cancel);
            const Eigen::VectorXd start = options.starts.col(t);
            const Eigen::VectorXd u0 = range * (range.transpose() * start);
            AsymmetricTrial trial;
            if (std::isfinite(u0.norm()) && u0.norm() > 1e-9 * start.norm() &&
                runTrial(tensor, u0, trial)) {
                keep(t, trial);
                ++out.warmStarted;
                found[static_cast<size_t>(t)] = 1;
                tensor.addRankOne(-std::abs(out.lambdas[t]), out.a.col(t), out.b.col(t),
                                  out.c.col(t));
                continue;
            }
        }
        trials.clear();
        for (int r = 0; r < options.trials; ++r) {
            throwIfCancelled(cancel);
            Rng rng(deriveSeed(options.seed, static_cast<std::uint64_t>(t) *
                                                     static_cast<std::uint64_t>(options.trials) +
                                                 static_cast<std::uint64_t>(r)));
            const Eigen::VectorXd g = rng.normalVector(k);
            AsymmetricTrial trial;
            if (runTrial(tensor, range * g, trial)) {
                trials.push_back(std::move(trial));
            }
        }
        if (trials.empty()) {
            out.status = Status::NumericalIssue;
            continue;
        }
        // Median |λ̂| over the trials (lower median; stable sort keeps it deterministic).
        std::stable_sort(trials.begin(), trials.end(),
                         [](const AsymmetricTrial& x, const AsymmetricTrial& y) {
                             return std::abs(x.lambda) < std::abs(y.lambda);
                         });
        keep(t, trials[(trials.size() - 1) / 2]);
        found[static_cast<size_t>(t)] = 1;
        tensor.addRankOne(-std::abs(out.lambdas[t]), out.a.col(t), out.b.col(t), out.c.col(t));
    }
    // Refinement: re-extract each component from M_abc minus all the others, warm-started at
    // its current estimate (removes the error that early deflations pass on to later ones).
    for (int round = 0; round < options.refinementRounds; ++round) {
        for (int t = 0; t < k; ++t) {
            if (!found[static_cast<size_t>(t)]) {
                continue;
            }
            throwIfCancelled(cancel);
            DenseTensor3 others = mabc;
            for (int u = 0; u < k; ++u) {
                if (u != t && found[static_cast<size_t>(u)]) {
                    others.addRankOne(-std::abs(out.lambdas[u]), out.a.col(u), out.b.col(u),
                                      out.c.col(u));
                }
            }
            AsymmetricTrial trial;
            if (runTrial(others, out.a.col(t), trial)) {
                keep(t, trial);
            }
        }
    }
    if (options.alsSweeps > 0) {
        alsRefine(mab, mac, mbc, mabc, found, options, out, cancel);
    }
    if (options.refinementRounds > 0 || options.alsSweeps > 0) {
        tensor = mabc;
        for (int t = 0; t < k; ++t) {
            if (!found[static_cast<size_t>(t)]) {
                continue;
            }
            tensor.addRankOne(-std::abs(out.lambdas[t]), out.a.col(t), out.b.col(t), out.c.col(t));
        }
    }
    const double total = mabc.norm();
    out.residual = total > 0 ? tensor.norm() / total : 0.0;
    return out;
}

} // namespace cx
