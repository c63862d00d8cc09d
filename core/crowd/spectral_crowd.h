#pragma once

#include "core/common/cancel.h"
#include "core/common/status.h"
#include "core/crowd/product_mixture.h"

#include <cstdint>
#include <string>

namespace cx {

/// Spectral initialisation of Dawid–Skene (Zhang, Chen, Zhou & Jordan, NIPS 2014, Alg. 1).
struct SpectralCrowdResult {
    ProductMixture model; ///< K = numClasses components, component l = class l
    /// E[Z_g | y = l] per worker group (C × C, column l), after aligning components to classes.
    Eigen::MatrixXd groupMeans[3];
    Status status = Status::NotComputed; ///< NumericalIssue when a group is empty or degenerate
    std::string note;                    ///< why it failed, for the user
};

/// Partitions the workers into three groups (sorted by number of labels, dealt round-robin, so
/// the groups are balanced), forms each item's group vote vectors Z_g = Σ_{m ∈ g} e_{x_nm}
/// (conditionally independent given the true class), and for each group c symmetrises the other
/// two views onto it (Z_a' = M_cb M_ab⁺ Z_a, Z_b' = M_ca M_ba⁺ Z_b) so that
/// M2 = E[Z_a' ⊗ Z_b'] = Σ_l w_l μ_cl μ_clᵀ and M3 = E[Z_a' ⊗ Z_b' ⊗ Z_c] = Σ_l w_l μ_cl^{⊗3};
/// the generalized tensor power method (core/tensor) recovers μ_cl and w_l, components are
/// matched to classes by the Hungarian method on the normalised group means (workers are better
/// than chance on average). Worker m of group g then has
/// E[e_{x_m} (Z_a + Z_b)ᵀ] = (1 − r_m)·C_m diag(w) (μ_a + μ_b)ᵀ over the two other groups a, b
/// (as the authors' reference code does; one other group, as before, has about twice the
/// variance), solved for its confusion matrix C_m, clipped at δ = 10⁻⁶ (the reference code's δ)
/// and renormalised per class. Needs ≥ 3 workers.
/// Cost O(N·W·C + C⁴·iterations).
SpectralCrowdResult spectralCrowdInitialization(const CrowdLabels& data, std::uint64_t seed,
                                                const CancelToken& cancel = {});

} // namespace cx
