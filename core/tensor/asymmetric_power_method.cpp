#include "core/tensor/asymmetric_power_method.h"

#include "core/tensor/linalg.h"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <random>
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

/// SplitMix64 finaliser: an independent stream seed for (seed, index).
std::uint64_t streamSeed(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// Portable standard normal (Box–Muller on 53-bit uniforms), identical on every libstdc++.
double standardNormal(std::mt19937_64& engine) {
    auto uniform = [&] { return static_cast<double>(engine() >> 11) * 0x1.0p-53; };
    double u1 = uniform();
    while (u1 <= 0.0) {
        u1 = uniform();
    }
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

struct Trial {
    Eigen::VectorXd a;
    double lambda = 0;
    int iterations = 0;
};

} // namespace

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
    auto runTrial = [&](const DenseTensor3& target, Eigen::VectorXd u, Trial& trial) {
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
    auto keep = [&](int t, const Trial& kept) {
        out.lambdas[t] = kept.lambda;
        out.a.col(t) = kept.a;
        out.b.col(t) = bMap * kept.a;
        out.c.col(t) = cMap * kept.a;
        out.iterations += kept.iterations;
    };

    DenseTensor3 tensor = mabc;
    std::vector<Trial> trials;
    std::vector<char> found(static_cast<size_t>(k), 0);
    for (int t = 0; t < k; ++t) {
        trials.clear();
        for (int r = 0; r < options.trials; ++r) {
            throwIfCancelled(cancel);
            std::mt19937_64 engine(
                streamSeed(options.seed, static_cast<std::uint64_t>(t) *
                                                 static_cast<std::uint64_t>(options.trials) +
                                             static_cast<std::uint64_t>(r)));
            Eigen::VectorXd g(k);
            for (int i = 0; i < k; ++i) {
                g[i] = standardNormal(engine);
            }
            Trial trial;
            if (runTrial(tensor, range * g, trial)) {
                trials.push_back(std::move(trial));
            }
        }
        if (trials.empty()) {
            out.status = Status::NumericalIssue;
            continue;
        }
        // Median |λ̂| over the trials (lower median; stable sort keeps it deterministic).
        std::stable_sort(trials.begin(), trials.end(), [](const Trial& x, const Trial& y) {
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
            Trial trial;
            if (runTrial(others, out.a.col(t), trial)) {
                keep(t, trial);
            }
        }
    }
    if (options.refinementRounds > 0) {
        tensor = mabc;
        for (int t = 0; t < k; ++t) {
            tensor.addRankOne(-std::abs(out.lambdas[t]), out.a.col(t), out.b.col(t), out.c.col(t));
        }
    }
    const double total = mabc.norm();
    out.residual = total > 0 ? tensor.norm() / total : 0.0;
    return out;
}

} // namespace cx
