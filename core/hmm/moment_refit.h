#pragma once

#include <Eigen/Dense>

namespace cx {

/// Moments a per-mark (product-Bernoulli) state model must reproduce, for one contrast γ:
/// mean_i = Σ_h ω_h o_hi, total = Σ_h ω_h (= 1 − γ), second_ij = Σ_h ω_h o_hi o_hj (i ≠ j;
/// marks are independent given the state, so only off-diagonal entries carry information).
struct MarkMomentTargets {
    Eigen::VectorXd mean;       ///< M: E_f[x] − γ·E_b[x]
    Eigen::MatrixXd second;     ///< M × M: E_f[x xᵀ] − γ·E_b[x xᵀ] (diagonal ignored)
    double total = 1.0;         ///< 1 − γ (the constant coordinate)
    double effectiveBins = 1e6; ///< N_eff: sampling scale of the moments (row weights)
    /// Optional third-order block: third_t = E_f[x_a x_b x_c] − γ·E_b[x_a x_b x_c] at the
    /// three distinct marks (a, b, c) = markTriple(t), a < b < c in lexicographic order
    /// (M(M−1)(M−2)/6 entries; in a product-Bernoulli model Σ_h ω_h o_ha o_hb o_hc). Empty =
    /// first and second moments only. Second moments do not identify K product-Bernoulli states
    /// (2-state mixtures with equal first and second moments form a one-parameter family, whose
    /// third moments differ), so with this block the subset selection and the sweeps can tell a
    /// spurious component from a real small state.
    Eigen::VectorXd third;
};

/// Number of mark triples a < b < c of M marks, M(M−1)(M−2)/6.
int numMarkTriples(int numMarks);
/// The t-th mark triple (a, b, c), a < b < c, lexicographic order. \pre 0 ≤ t < numMarkTriples.
Eigen::Vector3i markTriple(int numMarks, int t);

/// Options of refitMarkStates.
struct MomentRefitOptions {
    int numStates = 6;             ///< K
    double minWeight = 0.0;        ///< ω ≥ −γ (0 at γ = 0)
    int sweeps = 200;              ///< coordinate-descent sweeps over weights and emissions
    bool addEmptyCandidate = true; ///< offer the all-zero emission as a candidate state
};

/// Result: K states (rows) sorted by decreasing weight.
struct MomentRefitResult {
    Eigen::VectorXd weights;
    Eigen::MatrixXd emissions; ///< K × M in [0, 1]
    /// Which candidate each state started from (candidates.rows() = the empty candidate).
    Eigen::VectorXi sourceCandidate;
    double residualSelected = 0; ///< weighted residual after the weight-only fit of the subset
    double residualFinal = 0;    ///< after the joint refinement
};

/// Chooses K of the candidate emission rows (plus the all-zero "unmarked" row) and fits
/// weights and emissions to the first and off-diagonal second mark moments.
///
/// Objective (weighted least squares, each entry divided by its sampling standard error
/// √(max(value, 1/N_eff)/N_eff) — the binomial standard error √(p(1 − p)/N) of an indicator
/// average, with p(1 − p) ≤ p and a floor of one bin — so rare marks count as much as frequent
/// ones; the common factor 1/√N_eff is left out, it does not move the minimum):
///   Σ_i ρ_i² (Σ_h ω_h o_hi − mean_i)² + Σ_{i<j} ρ_ij² (Σ_h ω_h o_hi o_hj − second_ij)²
///   [+ Σ_{a<b<c} ρ_abc² (Σ_h ω_h o_ha o_hb o_hc − third_abc)² when targets.third is given]
///   + ρ_0² (Σ_h ω_h − total)²,  ρ_0 = max of all other ρ (the constant is exact).
/// (1) every K-subset of the candidates (≤ 5000 subsets, else the first K) gets its weights
/// by non-negative least squares in ω − minWeight (Lawson–Hanson; ω ≤ 1 applied after); the subset
/// of least residual is kept — the weights are estimated from the moments against the recovered
/// emissions, not from the eigenvalues; the remainder of the first moment goes to the unmarked
/// state when the data have one. (2) `sweeps` rounds of exact coordinate minimisation over all ω_h
/// and o_hi (o ∈ [0, 1]); the objective never increases. \pre candidates.cols() == mean.size(), K ≥
/// 1, enough candidates (std::invalid_argument).
MomentRefitResult refitMarkStates(const Eigen::MatrixXd& candidates,
                                  const MarkMomentTargets& targets,
                                  const MomentRefitOptions& options);

/// Weighted residual of a state model against the targets (the objective above, square-rooted).
double markMomentResidual(const Eigen::VectorXd& weights, const Eigen::MatrixXd& emissions,
                          const MarkMomentTargets& targets);

} // namespace cx
