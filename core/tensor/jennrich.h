#pragma once

#include "core/common/status.h"
#include "core/tensor/asymmetric_power_method.h"
#include "core/tensor/symmetric_tensor.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>

namespace cx {

/// Which decomposition a model uses for its third-order moment.
enum class Decomposition {
    Power,    ///< tensor power method with deflation (Zou et al. 2013, Alg. 2/3)
    Jennrich, ///< simultaneous diagonalisation (Blum 2015)
    /// eigenvectors of the pencil of the third and second moments (DensePowerMethod::runPencil;
    /// symmetric moments of the topic engine only)
    Pencil,
};
const char* toString(Decomposition decomposition);
/// "power" / "jennrich" / "pencil" (also "deflation" for Power). \throws InputError otherwise.
Decomposition parseDecomposition(const std::string& text);

/// Options of Jennrich's algorithm.
struct JennrichOptions {
    int rank = 0; ///< K, number of components (1 ≤ K ≤ every dimension)
    /// Random contraction pairs tried; the one whose eigenvalues are best separated (smallest
    /// relative gap minus largest imaginary part) is used. Exact tensors need one.
    int slices = 8;
    std::uint64_t seed = 1; ///< every random contraction derives from it
};

/// T ≈ Σ_t w_t a_t ⊗ b_t ⊗ c_t with unit-norm factor columns and signed weights w_t.
struct JennrichResult {
    Eigen::MatrixXd a; ///< d1 × K, unit columns
    Eigen::MatrixXd b; ///< d2 × K, unit columns
    Eigen::MatrixXd c; ///< d3 × K, unit columns
    /// w_t, signed: every factor column's sign is fixed so that its largest-magnitude entry is
    /// positive, and w_t carries the sign of the term.
    Eigen::VectorXd weights;
    /// Relative eigenvalue separation of the slice pair used (≤ 0: no usable real spectrum).
    double separation = 0;
    double residual = 0; ///< ‖T − Σ w_t a_t⊗b_t⊗c_t‖_F / ‖T‖_F
    Status status = Status::NotComputed;
};

/// Jennrich's algorithm (Blum 2015) for an asymmetric rank-K tensor whose three factor
/// matrices have full column rank K. Steps: (1) project every mode on the top-K left singular
/// vectors of its unfolding (U₁, U₂, U₃), so T' = T(U₁, U₂, U₃) is K×K×K and exact for a
/// rank-K tensor; (2) two random contractions of the third mode, T'_x = T'(I, I, x) =
/// A' diag(C'ᵀx) B'ᵀ and T'_y likewise, give T'_x T'_y⁻¹ = A' diag(⟨c'_t,x⟩/⟨c'_t,y⟩) A'⁻¹,
/// whose eigenvectors are the projected first factors (distinct ratios almost surely); (3)
/// a_t = U₁·(eigenvector), normalised; (4) the mode-1 unfolding T₍₁₎ = A (C ⊙ B)ᵀ gives
/// (A⁺T₍₁₎) row t = w_t (c_t ⊗ b_t)ᵀ, a rank-one d2 × d3 matrix whose top singular pair is
/// (b_t, c_t) and singular value |w_t|. Exact on exact tensors (any signs of w), no
/// deflation, no preference for large |w|; on noisy tensors the accuracy depends on the
/// separation of the eigenvalue ratios (reported).
/// \pre 1 ≤ K ≤ min(d1, d2, d3), slices ≥ 1 (std::invalid_argument otherwise).
/// Cost: three SVDs of the unfoldings, O(d1·d2·d3·K) for the projection, O(slices·K³).
/// Deterministic given options.seed.
JennrichResult jennrichDecomposition(const DenseTensor3& tensor, const JennrichOptions& options);

/// Symmetric version: T = Σ_t w_t v_t^{⊗3} (v_t linearly independent). The factors come from
/// the same simultaneous diagonalisation (first mode), then the weights from the linear least
/// squares fit T ≈ Σ w_t v_t^{⊗3} with unit v_t (each v_t's sign is fixed so that its largest
/// entry in magnitude is positive, w_t then carries the sign).
/// \pre 1 ≤ K ≤ n. Cost O(n³K + slices·K³ + n³K²).
JennrichResult jennrichSymmetric(const SymmetricTensor3& tensor, const JennrichOptions& options);

} // namespace cx
