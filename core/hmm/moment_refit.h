#pragma once

#include <Eigen/Dense>

namespace cx {

/// Moments a per-mark (product-Bernoulli) state model must reproduce, for one contrast γ:
/// mean_i = Σ_h ω_h o_hi, total = Σ_h ω_h (= 1 − γ), second_ij = Σ_h ω_h o_hi o_hj (i ≠ j;
/// marks are independent given the state, so only off-diagonal entries carry information).
struct MarkMomentTargets {
    Eigen::VectorXd mean;   ///< M: E_f[x] − γ·E_b[x]
    Eigen::MatrixXd second; ///< M × M: E_f[x xᵀ] − γ·E_b[x xᵀ] (diagonal ignored)
    double total = 1.0;     ///< 1 − γ (the constant coordinate)
    double effectiveBins = 1e6; ///< N_eff: sampling scale of the moments (row weights)
};

/// Options of refitMarkStates.
struct MomentRefitOptions {
    int numStates = 6;       ///< K
    double minWeight = 0.0;  ///< ω ≥ −γ (0 at γ = 0)
    int sweeps = 200;        ///< coordinate-descent sweeps over weights and emissions
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
/// √(max(value, 1/N_eff)/N_eff), so rare marks count as much as frequent ones):
///   Σ_i ρ_i² (Σ_h ω_h o_hi − mean_i)² + Σ_{i<j} ρ_ij² (Σ_h ω_h o_hi o_hj − second_ij)²
///   + ρ_0² (Σ_h ω_h − total)²,  ρ_0 = max(ρ_i, ρ_ij) (the constant is exact).
/// (1) every K-subset of the candidates (≤ 5000 subsets, else the first K) gets its weights
/// by non-negative least squares in ω − minWeight (Lawson–Hanson; ω ≤ 1 applied after); the subset of least residual is
/// kept — the weights are estimated from the moments against the recovered emissions, not from
/// the eigenvalues; the remainder of the first moment goes to the unmarked state when the data
/// have one. (2) `sweeps` rounds of exact coordinate minimisation over all ω_h and o_hi
/// (o ∈ [0, 1]); the objective never increases.
/// \pre candidates.cols() == mean.size(), K ≥ 1, enough candidates (std::invalid_argument).
MomentRefitResult refitMarkStates(const Eigen::MatrixXd& candidates,
                                  const MarkMomentTargets& targets,
                                  const MomentRefitOptions& options);

/// Weighted residual of a state model against the targets (the objective above, square-rooted).
double markMomentResidual(const Eigen::VectorXd& weights, const Eigen::MatrixXd& emissions,
                          const MarkMomentTargets& targets);

} // namespace cx
