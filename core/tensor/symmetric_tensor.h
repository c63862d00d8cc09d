#pragma once

#include <Eigen/Dense>

namespace cx {

/// Dense third-order tensor T ∈ ℝ^{n×n×n}, stored as its mode-1 unfolding
/// `unfolded(i, j + n·k) = T(i, j, k)` (n × n² column-major, so each column is a mode-1 fibre).
/// Used for projected moments (n = r ≈ 2K–4K) where n³ doubles are cheap. The class does not
/// enforce symmetry; moment estimators produce symmetric tensors and `symmetrize()` removes
/// rounding asymmetry.
class SymmetricTensor3 {
public:
    SymmetricTensor3() = default;
    explicit SymmetricTensor3(Eigen::Index n)
        : m_n(n), m_unfolded(Eigen::MatrixXd::Zero(n, n * n)) {}

    Eigen::Index dimension() const { return m_n; }
    double operator()(Eigen::Index i, Eigen::Index j, Eigen::Index k) const {
        return m_unfolded(i, j + m_n * k);
    }
    double& operator()(Eigen::Index i, Eigen::Index j, Eigen::Index k) {
        return m_unfolded(i, j + m_n * k);
    }
    const Eigen::MatrixXd& unfolded() const { return m_unfolded; }
    Eigen::MatrixXd& unfolded() { return m_unfolded; }

    /// T(I, v, v) ∈ ℝⁿ. Cost O(n³) (one GEMV over the unfolding after forming v⊗v).
    Eigen::VectorXd contract(const Eigen::VectorXd& v) const;
    /// T(a, b, c).
    double value(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                 const Eigen::VectorXd& c) const;
    /// T(I, V, V) as an n × m² matrix (mode-1 unfolding of the n × m × m result), for V n × m.
    /// Cost O(n³m + n²m²).
    Eigen::MatrixXd contractModes23(const Eigen::MatrixXd& v) const;
    /// T(V, V, V) ∈ ℝ^{m×m×m}.
    SymmetricTensor3 multilinear(const Eigen::MatrixXd& v) const;

    /// this + alpha · other (same dimension).
    SymmetricTensor3 plusScaled(double alpha, const SymmetricTensor3& other) const;
    /// Adds weight · a⊗a⊗a.
    void addRankOne(double weight, const Eigen::VectorXd& a);
    /// Replaces T by the average over the 6 index permutations.
    void symmetrize();
    /// Largest |T(i,j,k) − T(π(i,j,k))| over permutations (test helper).
    double asymmetry() const;

private:
    Eigen::Index m_n = 0;
    Eigen::MatrixXd m_unfolded;
};

/// T(I, V, V) and T(V, V, V) of a symmetric tensor.
struct SymmetricContraction {
    /// T(I, V, V) transposed: m² × n, partialT(a + m·b, i) = T(e_i, V_a, V_b) (the layout the
    /// contraction makes it in; T(I, V, V) itself is its transpose).
    Eigen::MatrixXd partialT;
    Eigen::MatrixXd core; ///< T(V, V, V): m × m², the mode-1 unfolding of the m × m × m core
};

/// T(I, V, V) and T(V, V, V) for the symmetric T = A + alpha·B (B == nullptr: T = A), without
/// forming T. Uses T's symmetry: only the unfolding columns (j, k) with j ≤ k of A and B are
/// read. Steps: X(a, j, k) = T(V_a, e_j, e_k) for j ≤ k by one GEMM per k (mirrored to j > k),
/// then partial(j, a + m·b) = Σ_k X(a, k, j)·V(k, b) by one m × n × m GEMM per j, then
/// core = Vᵀ·partial. Cost ≈ n³m + 2n²m² + 2nm³ flops (contractModes23 then Vᵀ·: 2n³m + 2n²m² +
/// 2nm³, plus n³ to form A + alpha·B). Work is split over threadCount() threads by fixed
/// per-k and per-j tasks, so the result is bit-identical for any thread count.
/// Equals contractModes23 / multilinear up to rounding when A and B are symmetric (as every
/// moment estimator here makes them; see symmetrize()); asymmetric parts are not seen.
/// \throws std::invalid_argument on a dimension mismatch.
SymmetricContraction contractSymmetric(const SymmetricTensor3& a, const Eigen::MatrixXd& v,
                                       double alpha = 0.0, const SymmetricTensor3* b = nullptr);

} // namespace cx
