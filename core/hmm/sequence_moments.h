#pragma once

#include "core/common/cancel.h"
#include "core/hmm/hmm_model.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"
#include "core/tensor/asymmetric_power_method.h"
#include "core/tensor/linalg.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// Cross moments of consecutive observation triples of one class of bins (foreground or
/// background), in the r-dimensional coordinates y = Uᵀφ(x) of SequenceMoments (U = basis):
///   m12 = avg y_{t−1} y_tᵀ,  m13 = avg y_{t−1} y_{t+1}ᵀ,  m23 = avg y_t y_{t+1}ᵀ,
///   m123 = avg y_{t−1} ⊗ y_t ⊗ y_{t+1},
/// averaged over every position t whose triple (t−1, t, t+1) lies inside one run of
/// consecutive bins of the class (never across a region, chromosome or file boundary, never
/// through a bin with a missing mark). With a lag d > 1 (SequenceMomentOptions::lag) the
/// outer bins are t − d and t + d instead.
///
/// Windows (SequenceMomentOptions::window = L > 1, MarkVector): the outer views are the
/// windows ψ_− = (x_{t−d}, …, x_{t−d−L+1}, 1) and ψ_+ = (x_{t+d}, …, x_{t+d+L−1}, 1) (marks of
/// the nearest bin first, one shared constant; dimension S = L·M + 1, SequenceMoments::sideDim),
/// so m12 is S × r (ψ_− y_tᵀ), m13 is S × S, m23 is r × S and m123 is S × r × S; only centres
/// whose two whole windows lie in the run count. Without windows S = r.
struct ClassMoments {
    std::int64_t numTriples = 0;
    std::int64_t numBins = 0; ///< bins of the class without a missing mark
    std::int64_t numRuns = 0; ///< maximal runs of such bins (any length)
    Eigen::MatrixXd m12;
    Eigen::MatrixXd m13;
    Eigen::MatrixXd m23;
    DenseTensor3 m123;
    /// Second moments of each view over the same centres: m11 = avg ψ_−ψ_−ᵀ (S × S),
    /// m22 = avg y_t y_tᵀ (r × r), m33 = avg ψ_+ψ_+ᵀ (S × S) (FeatureScaling::Whitening).
    Eigen::MatrixXd m11;
    Eigen::MatrixXd m22;
    Eigen::MatrixXd m33;
    /// Within-bin third moment of the middle view over the same centres, m222 = avg y_t ⊗ y_t ⊗
    /// y_t (r × r × r). MarkVector only (y = (x, 1), so it also holds m22 and the mean; its
    /// entries at three distinct marks, E[x_a x_b x_c] = Σ_h π_h o_ha o_hb o_hc in an HMM, are
    /// what second moments cannot pin down: see MarkMomentTargets::third). Empty (0 × 0 × 0)
    /// for MarkCombination.
    DenseTensor3 m222;
};

/// Options of the moment pass.
struct SequenceMomentOptions {
    ObservationEncoding encoding = ObservationEncoding::MarkVector;
    /// MarkCombination only: rank r of the projection basis (≥ the largest K you will ask
    /// for). 0 = min(number of patterns, 20).
    int projectionRank = 0;
    std::uint64_t seed = 12345; ///< randomized range finder of the projection (combinations)
    /// d: the outer views are x_{t−d} and x_{t+d} (still independent of x_t given h_t in an
    /// HMM). d = 1 is the classic consecutive triple; see SequenceMoments::lag.
    int lag = 1;
    /// MarkCombination only: scale category c by d_c = 1/√(f_c + τ), f_c the frequency of its
    /// pattern over all bins and τ = categorySmoothing, i.e. φ(x) = d_c·e_c (a smoothed
    /// diagonal whitening, as in CCA/LSA weighting). Without it the quiescent all-zero pattern
    /// (≈ 87 % of chr11 bins) dominates every moment and the rank-K decomposition loses the
    /// quiescent state; with τ → 0 singleton patterns (weight up to √bins) dominate instead.
    /// τ = 0.01 caps the boost of rare patterns at 10. Exact moments give the same model.
    bool scaleCategories = true;
    double categorySmoothing = 0.01;
    /// L: MarkVector only (ignored, i.e. 1, for MarkCombination). The outer views become
    /// windows of L bins, ψ_− = (x_{t−d}, …, x_{t−d−L+1}, 1) and ψ_+ = (x_{t+d}, …,
    /// x_{t+d+L−1}, 1). By the Markov property the whole past and the whole future are
    /// independent of each other and of x_t given h_t, so the three views still satisfy
    /// M_{ψ_−, x_t, ψ_+} = Σ_h w_h b_h ⊗ o_h ⊗ c_h with the same emission columns o_h; the side
    /// factors b_h = (p_h^{(1)}, …, p_h^{(L)}, 1), p_h^{(l)} = E[x_{t−d−l+1} | h_t = h], stack
    /// L one-bin views, so their K-th singular value can only grow with L (states whose
    /// one-bin neighbourhoods nearly coincide but differ in persistence are separated).
    int window = 1;
};

/// Cached foreground and background moments: computed once per (data, fg/bg choice, encoding);
/// every γ then only combines the two and decomposes r-dimensional objects.
///
/// Feature map φ and the scale functional s (sᵀφ(x) = 1 for every observation, so every
/// view's conditional mean v satisfies sᵀv = 1, which fixes the scale and sign of recovered
/// emission columns exactly):
///  * MarkVector: φ(x) = (x_1, …, x_M, 1) ∈ R^{M+1} — the constant coordinate; U = I_{M+1},
///    s = e_{M+1}. The constant coordinate also makes an all-zero ("quiescent") emission
///    vector a non-zero view (0, …, 0, 1), so it is recoverable; hence K ≤ M + 1.
///  * MarkCombination: φ(x) = d_{c(x)}·e_{c(x)} ∈ R^C over the C patterns without missing
///    marks (d: SequenceMomentOptions::scaleCategories, categorySmoothing); the C³ tensor is never
///    formed: U (C × r) is an orthonormal basis of the dominant joint range of all (scaled)
///    foreground and background pair moments (randomized range finder on their sparse counts), and
///    m123 = M123(W, W, W) with W = D·U is accumulated from sparse pattern-triple counts.
///    s = D⁻¹1_C, s̃ = UᵀD⁻¹1. Exact for exact moments when r ≥ the number of distinct
///    emission columns (the pair moments' range is the span of the emission columns).
struct SequenceMoments {
    ObservationEncoding encoding = ObservationEncoding::MarkVector;
    std::vector<std::string> markNames;
    int featureDim = 0;    ///< D: M + 1 (MarkVector) or C (MarkCombination)
    Eigen::MatrixXd basis; ///< U, D × r with orthonormal columns
    Eigen::VectorXd scale; ///< s̃ = Uᵀs (length r)
    /// MarkCombination: category c ↦ pattern id of the ChromatinData. Empty for MarkVector.
    std::vector<int> categoryPattern;
    /// MarkCombination: C × M presence flags (0/1) of each category's marks, row-major.
    std::vector<std::uint8_t> categoryMarks;
    /// MarkCombination: category scaling d (φ(x) = d_c·e_c; all ones when off). Empty for
    /// MarkVector. An emission column õ (r-vector) maps back to the pattern distribution
    /// D⁻¹·U·õ.
    Eigen::VectorXd categoryScale;
    int numPatterns = 0; ///< patterns of the ChromatinData the moments came from
    int lag = 1;         ///< d of the triples (x_{t−d}, x_t, x_{t+d})
    int window = 1;      ///< L of the side windows (SequenceMomentOptions::window)
    /// s_ψ with s_ψᵀψ = 1 for every side view (length sideDim()); equals `scale` when L = 1.
    Eigen::VectorXd sideScale;
    ClassMoments foreground;
    ClassMoments background;
    double elapsedMs = 0;

    int rank() const { return static_cast<int>(basis.cols()); }
    /// S, dimension of the outer views (L·M + 1 with windows, else rank()).
    int sideDim() const;
    /// E_l (r × S): the middle-view coordinates of bin t ± (d + l) inside a side view,
    /// φ(x_{t±(d+l)}) = E_l ψ_±, l = 0 … L − 1 (identity without windows).
    Eigen::MatrixXd sideBlock(int offset) const;
    /// W = D·U (D×r): moments are in the coordinates y = Wᵀ·e_{c(x)} (MarkVector: W = U = I).
    Eigen::MatrixXd projection() const;
    int numMarks() const { return static_cast<int>(markNames.size()); }
};

/// Computes foreground and background triple moments (fast path). MarkVector: exact integer
/// counts per feature triple (each bin contributes only its present marks and the constant;
/// with windows, O(nnz(ψ_−)·nnz(x_t)·nnz(ψ_+)) per centre),
/// accumulated in kReductionSlots fixed slots, so the result is identical for any thread
/// count. MarkCombination: sparse pattern-triple counts, projected as described above.
/// Cost O(triples · nnz³) + O(P·r³); memory O(D³) (marks) or O(distinct triples) (combinations).
/// \throws std::invalid_argument if classes do not match data. Polls `cancel`.
SequenceMoments computeSequenceMoments(const ChromatinData& data, const BinClasses& classes,
                                       const SequenceMomentOptions& options = {},
                                       const CancelToken& cancel = {},
                                       const ProgressFn& progress = {});

/// Reference implementation: loops over every triple and adds φ(x_{t−1})⊗φ(x_t)⊗φ(x_{t+1})
/// densely in the full feature space (U = I_D, no projection). O(triples · D³): for tests on
/// small data only.
SequenceMoments computeSequenceMomentsDirect(const ChromatinData& data, const BinClasses& classes,
                                             ObservationEncoding encoding, int lag = 1,
                                             int window = 1);

} // namespace cx
