#pragma once

#include "core/common/cancel.h"
#include "core/common/multi_start.h"
#include "core/common/status.h"
#include "core/tensor/jennrich.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_hmm.h"
#include "core/tree/tree_spec.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// Options of Spectral-Tree.
struct SpectralTreeOptions {
    int numStates = 6; ///< K, states per cell type (K ≤ shared marks + 1)
    Decomposition decomposition = Decomposition::Power;
    /// m of the product projections: each node's observation is projected on the top-m left
    /// singular vectors of its own pair moment. 0 = K (the rank of its emission matrix).
    int projectionDim = 0;
    int iterations = 100; ///< power iterations per trial
    int trials = 10;      ///< random starts per component (median trial kept); Jennrich slices
    /// Each node's marks scaled by 1/√E[x_i] before its moments are formed (undone on the
    /// recovered emissions), as the chromatin engine's FeatureScaling::InverseSqrtMean. Off by
    /// default: together with the moment refit it recovered a 5-cell synthetic star with weak
    /// children at emission error 0.060 (0.012 without; SpectralTree.DefaultsRecoverWeakChildren…).
    bool featureScaling = false;
    /// ≥ 0: per node, decompose at rank R = K + reserveComponents (≤ M + 1) and re-select and
    /// refit K states (plus the all-zero unmarked candidate) against the node's own first and
    /// off-diagonal second mark moments with this many joint sweeps (refitMarkStates, as the
    /// chromatin engine's --moment-fit); occupancies are the refit's weights. −1 = off (rank K,
    /// occupancies 1/λ²).
    int momentFitSweeps = 200;
    int reserveComponents = 1; ///< E of momentFitSweeps
    /// Seeded starts of each node's decomposition (start i: startSeed(seed, i) + node index);
    /// per node the start of lowest moment residual is kept (the refit's final residual, or
    /// without the refit the decomposition's residual). 1 = the single-start fit.
    int starts = kDefaultTreeStarts;
    std::uint64_t seed = 1;
};

/// What happened at one node.
struct SpectralTreeNodeReport {
    std::string cell;
    int pathLength = 0; ///< |P|, nodes from the root to this one
    int metaDim = 0;    ///< m^|P|, dimension of the product-projected path observation
    /// Rank of E[z_t−1 z_t+1ᵀ] used by the symmetrisation (singular values above 3σ₁/√N).
    int symmetrizationRank = 0;
    std::int64_t positions = 0;       ///< bins whose triple (t−1, t, t+1) entered the moments
    std::int64_t distinctTriples = 0; ///< distinct (path obs t−1, own obs t, path obs t+1)
    Status status = Status::NotComputed;
    double residual = 0; ///< relative residual of the whitened skeletensor's decomposition
    double clipping = 0; ///< largest distance of a raw emission entry from [0, 1]
    /// Child only: Σ_h P(h_child = h, h_parent = h) of the recovered same-bin joint after the
    /// state matching (how much of the genome keeps its parent's state label).
    double agreement = 1;
    /// R of the node's decomposition: K, or with the refit up to K + E (the eigenvalues of the
    /// symmetrised M2 above 3|λ₁|/√N)
    int decompositionRank = 0;
    /// Moment refit only: weighted moment residual of the selected states before/after the
    /// joint sweeps (markMomentResidual).
    double momentResidualSelected = 0;
    double momentResidualFinal = 0;
    /// Every start's criterion (SpectralTreeOptions::starts), the kept one and how far the
    /// other starts' emissions lie from it. The fields above are the kept start's.
    StartSpread starts;
};

struct SpectralTreeResult {
    TreeHmmParameters model;
    std::vector<SpectralTreeNodeReport> nodes; ///< per tree node
    /// Counting and product-projected moments; this and decompositionMs are summed over the
    /// nodes, which run side by side (one depth at a time), so they can exceed elapsedMs.
    double momentMs = 0;
    double decompositionMs = 0; ///< skeletensor whitening + decomposition
    double transitionMs = 0;    ///< transitions, start, state matching
    double elapsedMs = 0;
};

/// Spectral-Tree (Zhang et al. 2015, rebuilt from SPEC §3.4) for K states per cell type.
///
/// Features φ(x) = (x₁ … x_M, 1) ∈ ℝ^{D}, D = M + 1; node v's emission column is
/// μ_v,h = E[φ(x_v) | h_v = h] = (O_v[h, :], 1).
///  1. Product projections: U_v = top-m left singular vectors of E[φ(x_v,t) φ(x_v,t+1)ᵀ]
///     (its range is range(O_v)); a path P = (root … u) is observed through
///     z_P = ⊗_{v∈P} U_vᵀφ(x_v) ∈ ℝ^{m^|P|} (Lemma 4: range of the path's emission matrix ⊂
///     product of the nodes' ranges). Distinct path observations are numbered hierarchically
///     (parent's id, own code), so no D^|P| object is ever formed.
///  2. Skeletensor per node u (partitioning, Lemma 1 / Cor. 1: the path is an ordinary HMM over
///     meta-states H): views v₁ = z_P,t−1, v₂ = φ(x_u,t), v₃ = z_P,t+1 are independent given
///     H_t. Symmetrise the outer views onto the middle one: x̃₁ = E[v₂v₃ᵀ]E[v₁v₃ᵀ]⁺v₁,
///     x̃₃ = E[v₂v₁ᵀ]E[v₃v₁ᵀ]⁺v₃ (E[x̃₁|H] = E[x̃₃|H] = μ_u,h_u(H)). Then
///     M2 = E[x̃₁x̃₃ᵀ] = Σ_h π_u(h) μ_u,h μ_u,hᵀ and M3 = E[x̃₁ ⊗ v₂ ⊗ x̃₃] = Σ_h π_u(h) μ_u,h^{⊗3}
///     (meta-states sharing h_u pool), a rank-K tensor of dimension D. E[v₁v₃ᵀ]⁺ keeps the
///     singular values above 3σ₁/√N (N positions; at least K): directions of rarely visited
///     meta-states sit at the noise level and their inverse would amplify it (on a synthetic
///     tree whose children follow their parent 75 % of the time the full inverse gives emission
///     errors of 0.25–0.42, the truncated one 0.006–0.009). Moments come from the
///     counts of distinct (id_t−1, code_t, id_t+1) triples over every position of every
///     chromosome (steady-state averages, never across chromosomes or missing bins).
///  3. Whiten with W = V|Λ|^{-1/2} (top-K eigenpairs of M2), decompose M3(W, W, W) = Σ λ_h v_h^{⊗3}
///     by the tensor power method (Zou et al. 2013, Alg. 2 with M2 = I) or Jennrich's algorithm;
///     μ_h = λ_h (Wᵀ)⁺ v_h, rescaled so its constant coordinate is 1; π_u(h) ∝ 1/λ_h²;
///     emissions clipped to [0, 1].
///  4. Transitions by O⁺ on low-order cross moments (Õ_v = [μ_v,h]_h, D × K):
///     root: Õ_r⁺ E[φ(x_r,t)φ(x_r,t+1)ᵀ] Õ_r⁺ᵀ = P(h_t, h_t+1); child u of p:
///     E[φ(x_u,t) ⊗ φ(x_u,t+1) ⊗ φ(x_p,t+1)](Õ_u⁺ᵀ, Õ_u⁺ᵀ, Õ_p⁺ᵀ) = P(h_u,t, h_u,t+1, h_p,t+1);
///     normalised over the next state and rounded onto the simplex (projectToSimplex).
///     rootStart = π_root (the moments identify the stationary occupancy).
///  5. States across cell types: each node's decomposition returns its states in its own order;
///     the recovered same-bin joint P(h_u,t, h_p,t) = Õ_u⁺ E[φ(x_u,t)φ(x_p,t)ᵀ] Õ_p⁺ᵀ says which
///     child state co-occurs with which parent state, and the child's states take the labels of
///     the parent states they co-occur with most (Hungarian on the joint, root first): the
///     transition tensors are recovered in these labels, so the permutation is global
///     (Theorem 1), not a renaming by emission similarity. Root states are ordered by
///     decreasing occupancy.
///
/// \pre data.cells == tree.names (read with MultiCellReadOptions::cells = tree.names);
///      1 ≤ K ≤ M + 1 (InputError otherwise, naming the parameter). Cost: one pass over the
///      bins per node (O(bins·|P|)) + O(distinct triples · (m^{2|P|} + K³)) + O(D³K) per node;
///      memory O(bins) for the path ids. Deterministic given options.seed. Polls `cancel`.
SpectralTreeResult learnSpectralTree(const MultiCellTracks& data, const TreeSpec& tree,
                                     const SpectralTreeOptions& options,
                                     const CancelToken& cancel = {},
                                     const ProgressFn& progress = {});

} // namespace cx
