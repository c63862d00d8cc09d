#pragma once

#include "core/common/cancel.h"
#include "core/common/status.h"

#include <Eigen/Dense>

#include <array>
#include <cstdint>
#include <vector>

namespace cx {

/// Dense third-order tensor T ∈ R^{d1×d2×d3}, stored column-major: entry (i, j, k) lives at
/// data[i + d1·(j + d2·k)]. Equivalently `matrix()` is the mode-1 unfolding, a d1 × (d2·d3)
/// matrix whose column j + d2·k is T(:, j, k). Meant for small dimensions (projected moments,
/// d ≲ 40), where d1·d2·d3 doubles are cheap.
class DenseTensor3 {
public:
    DenseTensor3() = default;
    DenseTensor3(Eigen::Index d1, Eigen::Index d2, Eigen::Index d3)
        : m_dims{d1, d2, d3}, m_unfolded(Eigen::MatrixXd::Zero(d1, d2 * d3)) {}

    Eigen::Index dim(int mode) const { return m_dims[static_cast<size_t>(mode)]; }
    double& operator()(Eigen::Index i, Eigen::Index j, Eigen::Index k) {
        return m_unfolded(i, j + m_dims[1] * k);
    }
    double operator()(Eigen::Index i, Eigen::Index j, Eigen::Index k) const {
        return m_unfolded(i, j + m_dims[1] * k);
    }
    /// Mode-1 unfolding (d1 × d2·d3).
    const Eigen::MatrixXd& matrix() const { return m_unfolded; }
    Eigen::MatrixXd& matrix() { return m_unfolded; }

    /// T(I, v, w) ∈ R^{d1}: Σ_jk T_ijk v_j w_k. Cost O(d1·d2·d3).
    Eigen::VectorXd contract23(const Eigen::VectorXd& v, const Eigen::VectorXd& w) const;
    /// T(x, v, w) = Σ_ijk T_ijk x_i v_j w_k.
    double contract(const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                    const Eigen::VectorXd& w) const;
    /// T += alpha · a ⊗ b ⊗ c.
    void addRankOne(double alpha, const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                    const Eigen::VectorXd& c);
    /// this − gamma · other (same dimensions).
    DenseTensor3 combined(double gamma, const DenseTensor3& other) const;
    /// Tensor with its modes reordered: result(i_{order[0]}, i_{order[1]}, i_{order[2]}) =
    /// this(i_0, i_1, i_2), i.e. mode m of the result is mode order[m] of this tensor.
    /// \pre order is a permutation of {0, 1, 2}.
    DenseTensor3 permuted(const std::array<int, 3>& order) const;
    /// Multilinear transform T(A, B, C)_{pqr} = Σ_ijk T_ijk A_ip B_jq C_kr. Cost O(d³·r).
    DenseTensor3 transformed(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                             const Eigen::MatrixXd& c) const;
    double norm() const { return m_unfolded.norm(); }

private:
    std::array<Eigen::Index, 3> m_dims{0, 0, 0};
    Eigen::MatrixXd m_unfolded;
};

/// How the K components are first extracted.
enum class AsymmetricInit {
    /// Alg. 3: K rounds of power iterations from random starts (median-|λ̂| trial), each
    /// followed by deflation.
    Deflation,
    /// Simultaneous diagonalisation (Jennrich; Blum 2015): all K components at once from one
    /// eigendecomposition, no deflation, no preference for large |λ| (see
    /// asymmetricTensorPowerMethod).
    SimultaneousDiagonalization,
};

/// Options of the asymmetric generalized tensor power method.
struct AsymmetricPowerOptions {
    int rank = 0;             ///< K, number of components (1 ≤ K ≤ min of the dimensions)
    int iterations = 50;      ///< N, maximum power iterations per trial
    int trials = 10;          ///< random starts per component; the median-|λ| trial is kept
    double tolerance = 1e-12; ///< stop a trial when 1 − |⟨u_new, u_old⟩| (unit vectors) < tol
    std::uint64_t seed = 0;   ///< every random start derives from it
    /// Refinement rounds after the K deflation steps: each component is re-extracted by power
    /// iterations on M_abc minus all the other components, warm-started at its estimate.
    int refinementRounds = 0;
    AsymmetricInit initialization = AsymmetricInit::Deflation;
    /// Joint refinement after extraction (and refinementRounds): up to this many CP-ALS sweeps
    /// on M_abc (see alsRefine); 0 = none.
    int alsSweeps = 0;
    /// Warm starts (d1 × S, Deflation only): component t < S is first tried as ONE power
    /// iteration run from the projection of starts.col(t) on range(M_ab) — a component of a
    /// neighbouring solution (e.g. the previous γ of a path), which the iteration then follows
    /// — and kept as it is; a start with no part in that range, or whose run degenerates, falls
    /// back to the random trials. Components t ≥ S always use the random trials.
    Eigen::MatrixXd starts;
};

/// Components of M_abc ≈ Σ_t λ_t â_t ⊗ b̂_t ⊗ ĉ_t in the ±1-normalised form of App. D.
///
/// With the moments written in their natural scale, M_ab = Σ_t w_t a_t b_tᵀ (likewise M_ac, M_bc)
/// and M_abc = Σ_t w_t a_t ⊗ b_t ⊗ c_t with signed weights w_t ≠ 0, the method returns
/// λ_t = sign(w_t)/√|w_t| and â_t = a_t/λ_t, b̂_t = b_t/λ_t, ĉ_t = c_t/λ_t. Hence
/// `weights()` = sign(λ)/λ² and `scaledA()` = λ·â recover (w_t, a_t) exactly for exact moments:
/// the factorisation is unique (pair moments fix the scales).
struct AsymmetricDecomposition {
    Eigen::VectorXd lambdas; ///< λ̂_t, signed, in extraction order
    Eigen::MatrixXd a;       ///< â_t as columns (d1 × K)
    Eigen::MatrixXd b;       ///< b̂_t (d2 × K)
    Eigen::MatrixXd c;       ///< ĉ_t (d3 × K)
    Status status = Status::NotComputed;
    int iterations = 0;  ///< total power iterations over all kept trials
    int warmStarted = 0; ///< components kept from AsymmetricPowerOptions::starts
    double residual = 0; ///< ‖T_final‖_F / ‖M_abc‖_F after K deflations

    /// w_t = sign(λ_t)/λ_t² (0 where λ_t = 0).
    Eigen::VectorXd weights() const;
    /// a_t = λ_t·â_t (natural scale), likewise for b and c.
    Eigen::MatrixXd scaledA() const;
    Eigen::MatrixXd scaledB() const;
    Eigen::MatrixXd scaledC() const;
};

/// Asymmetric generalized tensor power method (Zou et al. 2013, Alg. 3 / App. D), recovering the
/// FIRST view. Input: M_ab ∈ R^{d1×d2}, M_ac ∈ R^{d1×d3}, M_bc ∈ R^{d2×d3} and M_abc of the form
/// M_uv = Σ_t w_t u_t v_tᵀ, M_abc = Σ_t w_t a_t ⊗ b_t ⊗ c_t with linearly independent
/// {a_t}, {b_t}, {c_t} and signed w_t ≠ 0 (possibly indefinite, e.g. contrastive moments).
///
/// Derivation (checked against the printed algorithm, whose formulas are correct once the
/// index typos are fixed; write a'_t = √|w_t|·a_t, σ_t = sign w_t, so M_ab = A'ΣB'ᵀ):
///  * P_ab = (rank-K pinv of M_ab) = B'ᵀ⁺ Σ A'⁺ and P_ac = C'ᵀ⁺ Σ A'⁺; for u = A'f,
///    ⟨b'_t, P_ab u⟩ = ⟨c'_t, P_ac u⟩ = σ_t f_t, so the update u ← T(I, P_ab u, P_ac u) =
///    Σ_t λ_t f_t² a'_t with λ_t = σ_t/√|w_t| — the symmetric iteration of Alg. 2.
///  * M_aa⁺ := P_abᵀ M_bc P_ac = A'ᵀ⁺ Σ A'⁺ gives ⟨u, M_aa⁺ u⟩ = σ_t s² for u = s·a'_t, so
///    â = u/|⟨u, M_aa⁺ u⟩|^½ = σ_t a'_t (sign of s is σ_t after the iterations).
///  * b̂ = M_bc P_ac â = B'A'⁺â = σ_t b'_t and ĉ = M_bcᵀ P_ab â = σ_t c'_t.
///  * λ̂ = T(M_aa⁺â, P_ab â, P_ac â) = λ_t; deflation T −= |λ̂| â⊗b̂⊗ĉ removes λ_t a'⊗b'⊗c'.
/// SimultaneousDiagonalization (AsymmetricInit) instead projects every mode on the top-K
/// singular subspace of its pair moments (U_a of [M_ab M_ac], V_b of M_ab, V_c of M_ac), so
/// T' = T(U_a, V_b, V_c) = Σ w_t a'_t⊗b'_t⊗c'_t and M'_ab = A' diag(w) B'ᵀ are K-dimensional;
/// T'(I, I, v)·M'_ab⁻¹ = A' diag(⟨c'_t, v⟩) A'⁻¹ has the projected a_t as eigenvectors (of `trials`
/// random v the best separated real spectrum is used). Each eigenvector u = U_a e is
/// normalised like a converged power iterate; as its sign s is arbitrary (n = ⟨â, M_aa⁺â⟩ = σ_t
/// but λ̂ = s/√|w_t|), â and λ̂ are negated when their signs differ, giving â = σ_t a'_t.
/// Random starts u⁽⁰⁾ = U_K g, g ~ N(0, I), U_K the top-K left singular vectors of M_ab (full
/// support in range(M_ab)); each of `trials` starts per component runs up to `iterations`
/// updates (unit-normalised each step), and the trial with the median |λ̂| is kept (Sec. 5).
/// Deterministic given options.seed.
///
/// \pre dimensions consistent, 1 ≤ K ≤ min(d1, d2, d3), iterations ≥ 1, trials ≥ 1 (else
///      std::invalid_argument). Cost: three SVDs of the pair moments plus
///      O(K · trials · iterations · d1·d2·d3). Status::NumericalIssue when a normalisation
///      ⟨u, M_aa⁺ u⟩ vanishes for every trial of some component (its columns are then zero).
///      Each refinement round costs O(K²·d1·d2·d3 + K·iterations·d1·d2·d3).
///      Polls `cancel` between trials (throws Cancelled).
AsymmetricDecomposition
asymmetricTensorPowerMethod(const Eigen::MatrixXd& mab, const Eigen::MatrixXd& mac,
                            const Eigen::MatrixXd& mbc, const DenseTensor3& mabc,
                            const AsymmetricPowerOptions& options, const CancelToken& cancel = {});

/// Joint least-squares refinement of the `found` components of `dec` (CP-ALS): starting at
/// dec's natural-scale factors, alternately solves min ‖M_abc − Σ_t A_t ⊗ B_t ⊗ C_t‖_F for A,
/// B and C (each a linear least-squares problem), up to options.alsSweeps sweeps or until the
/// relative fit improves by less than options.tolerance; then fixes every component's three
/// scales from the pair moments (M_ab = Σ γ_t A_t B_tᵀ, M_ac = Σ β_t A_t C_tᵀ,
/// M_bc = Σ α_t B_t C_tᵀ, w_t = α_t β_t γ_t) and writes the ±1 form back into `dec`. Exact
/// moments are a fixed point. Cost per sweep O(R·d1·d2·d3 + R²·(d1 + d2 + d3)).
void alsRefine(const Eigen::MatrixXd& mab, const Eigen::MatrixXd& mac, const Eigen::MatrixXd& mbc,
               const DenseTensor3& mabc, const std::vector<char>& found,
               const AsymmetricPowerOptions& options, AsymmetricDecomposition& dec,
               const CancelToken& cancel = {});

} // namespace cx
