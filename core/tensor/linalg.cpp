#include "core/tensor/linalg.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace cx {

Eigen::VectorXd SymmetricLowRank::pinvApply(const Eigen::VectorXd& x) const {
    Eigen::VectorXd projected = vectors.transpose() * x;
    projected.array() /= values.array();
    return vectors * projected;
}

SymmetricLowRank truncatedSymmetricEigen(const Eigen::Ref<const Eigen::MatrixXd>& m, int k) {
    const auto n = m.rows();
    if (m.cols() != n || k < 1 || k > n) {
        throw std::invalid_argument("truncatedSymmetricEigen: need a square matrix and 1 <= k <= n "
                                    "(n = " +
                                    std::to_string(n) + ", k = " + std::to_string(k) + ")");
    }
    // Symmetrise first: estimated moments are symmetric only up to rounding.
    const Eigen::MatrixXd sym = 0.5 * (m + m.transpose());
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(sym);
    const Eigen::VectorXd& values = solver.eigenvalues();
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    // Stable: ties keep ascending-eigenvalue order, so results are deterministic.
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
        return std::abs(values[a]) > std::abs(values[b]);
    });
    SymmetricLowRank out;
    out.values.resize(k);
    out.vectors.resize(n, k);
    for (int j = 0; j < k; ++j) {
        out.values[j] = values[order[static_cast<size_t>(j)]];
        Eigen::VectorXd v = solver.eigenvectors().col(order[static_cast<size_t>(j)]);
        // Fix the eigenvector sign (largest-magnitude entry positive) for reproducibility.
        Eigen::Index arg = 0;
        v.cwiseAbs().maxCoeff(&arg);
        if (v[arg] < 0) {
            v = -v;
        }
        out.vectors.col(j) = v;
    }
    return out;
}

Eigen::MatrixXd rankKPseudoInverse(const Eigen::Ref<const Eigen::MatrixXd>& m, int k) {
    const auto minDim = std::min(m.rows(), m.cols());
    if (k < 1 || k > minDim) {
        throw std::invalid_argument("rankKPseudoInverse: need 1 <= k <= min(rows, cols) (k = " +
                                    std::to_string(k) + ", min = " + std::to_string(minDim) + ")");
    }
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(m, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::VectorXd& s = svd.singularValues();
    Eigen::VectorXd inv = Eigen::VectorXd::Zero(s.size());
    for (int j = 0; j < k; ++j) {
        if (s[j] > std::numeric_limits<double>::min()) {
            inv[j] = 1.0 / s[j];
        }
    }
    return svd.matrixV() * inv.asDiagonal() * svd.matrixU().transpose();
}

Eigen::VectorXd projectToSimplex(const Eigen::Ref<const Eigen::VectorXd>& v) {
    const auto n = v.size();
    if (n == 0) {
        return Eigen::VectorXd();
    }
    std::vector<double> sorted(v.data(), v.data() + n);
    std::sort(sorted.begin(), sorted.end(), std::greater<double>());
    double cumulative = 0;
    double theta = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
        cumulative += sorted[static_cast<size_t>(j)];
        const double candidate = (cumulative - 1.0) / static_cast<double>(j + 1);
        if (sorted[static_cast<size_t>(j)] - candidate > 0) {
            theta = candidate;
        }
    }
    return (v.array() - theta).max(0.0).matrix();
}

std::vector<int> hungarianAssignment(const Eigen::Ref<const Eigen::MatrixXd>& cost) {
    // Jonker–Volgenant style shortest augmenting path on a rows ≤ cols matrix (1-based arrays).
    const int rows = static_cast<int>(cost.rows());
    const int cols = static_cast<int>(cost.cols());
    if (rows > cols) {
        throw std::invalid_argument(
            "hungarianAssignment: need rows <= cols (rows = " + std::to_string(rows) +
            ", cols = " + std::to_string(cols) + ")");
    }
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> u(static_cast<size_t>(rows + 1), 0), v(static_cast<size_t>(cols + 1), 0);
    std::vector<int> p(static_cast<size_t>(cols + 1), 0), way(static_cast<size_t>(cols + 1), 0);
    for (int i = 1; i <= rows; ++i) {
        p[0] = i;
        int j0 = 0;
        std::vector<double> minv(static_cast<size_t>(cols + 1), inf);
        std::vector<char> used(static_cast<size_t>(cols + 1), 0);
        do {
            used[static_cast<size_t>(j0)] = 1;
            const int i0 = p[static_cast<size_t>(j0)];
            double delta = inf;
            int j1 = 0;
            for (int j = 1; j <= cols; ++j) {
                if (used[static_cast<size_t>(j)]) {
                    continue;
                }
                const double cur =
                    cost(i0 - 1, j - 1) - u[static_cast<size_t>(i0)] - v[static_cast<size_t>(j)];
                if (cur < minv[static_cast<size_t>(j)]) {
                    minv[static_cast<size_t>(j)] = cur;
                    way[static_cast<size_t>(j)] = j0;
                }
                if (minv[static_cast<size_t>(j)] < delta) {
                    delta = minv[static_cast<size_t>(j)];
                    j1 = j;
                }
            }
            for (int j = 0; j <= cols; ++j) {
                if (used[static_cast<size_t>(j)]) {
                    u[static_cast<size_t>(p[static_cast<size_t>(j)])] += delta;
                    v[static_cast<size_t>(j)] -= delta;
                } else {
                    minv[static_cast<size_t>(j)] -= delta;
                }
            }
            j0 = j1;
        } while (p[static_cast<size_t>(j0)] != 0);
        do {
            const int j1 = way[static_cast<size_t>(j0)];
            p[static_cast<size_t>(j0)] = p[static_cast<size_t>(j1)];
            j0 = j1;
        } while (j0 != 0);
    }
    std::vector<int> assignment(static_cast<size_t>(rows), -1);
    for (int j = 1; j <= cols; ++j) {
        if (p[static_cast<size_t>(j)] != 0) {
            assignment[static_cast<size_t>(p[static_cast<size_t>(j)] - 1)] = j - 1;
        }
    }
    return assignment;
}

Eigen::MatrixXd orthonormalBasis(const Eigen::Ref<const Eigen::MatrixXd>& m,
                                 double relativeTolerance) {
    if (m.cols() == 0) {
        return Eigen::MatrixXd(m.rows(), 0);
    }
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(m);
    const Eigen::MatrixXd r = qr.matrixR().template triangularView<Eigen::Upper>();
    const double maxDiag = r.diagonal().cwiseAbs().maxCoeff();
    Eigen::Index rank = 0;
    for (Eigen::Index j = 0; j < std::min(r.rows(), r.cols()); ++j) {
        if (std::abs(r(j, j)) > relativeTolerance * maxDiag) {
            ++rank;
        }
    }
    const Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(m.rows(), rank);
    return q;
}

} // namespace cx
