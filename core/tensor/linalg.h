#pragma once

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace cx {

/// Rank-k truncated symmetric eigendecomposition M ≈ V·diag(values)·Vᵀ keeping the k
/// eigenvalues of largest magnitude (M may be indefinite). `values` are ordered by decreasing
/// |value|; columns of `vectors` are orthonormal.
struct SymmetricLowRank {
    Eigen::VectorXd values;  ///< k eigenvalues, |values| decreasing
    Eigen::MatrixXd vectors; ///< n × k, orthonormal columns
    /// Pseudo-inverse of the rank-k part applied to x: V·diag(1/values)·Vᵀ·x.
    Eigen::VectorXd pinvApply(const Eigen::VectorXd& x) const;
};

/// \pre m square and symmetric, 1 ≤ k ≤ n. Cost O(n³) (dense self-adjoint solver).
SymmetricLowRank truncatedSymmetricEigen(const Eigen::Ref<const Eigen::MatrixXd>& m, int k);

/// Moore–Penrose pseudo-inverse of the best rank-k approximation of a general matrix (via SVD),
/// as used by Alg. 3 for the pair moments. \pre 1 ≤ k ≤ min(rows, cols).
Eigen::MatrixXd rankKPseudoInverse(const Eigen::Ref<const Eigen::MatrixXd>& m, int k);

/// Euclidean projection of v onto the probability simplex {x ≥ 0, Σx = 1}
/// (Duchi et al. 2008, O(n log n)).
Eigen::VectorXd projectToSimplex(const Eigen::Ref<const Eigen::VectorXd>& v);

/// Minimum-cost perfect assignment on a square cost matrix (Hungarian / Kuhn–Munkres, O(n³)).
/// Returns assignment[row] = column. Rectangular costs (rows ≤ cols) are accepted: every row
/// gets a distinct column.
std::vector<int> hungarianAssignment(const Eigen::Ref<const Eigen::MatrixXd>& cost);

/// Orthonormal basis of the column space of `m` (thin Householder QR); columns whose
/// R-diagonal falls below `relativeTolerance`·max are dropped, so the result may have fewer
/// columns than `m`.
Eigen::MatrixXd orthonormalBasis(const Eigen::Ref<const Eigen::MatrixXd>& m,
                                 double relativeTolerance = 1e-10);

} // namespace cx
