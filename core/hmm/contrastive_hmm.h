#pragma once

#include "core/common/cancel.h"
#include "core/common/status.h"
#include "core/hmm/hmm_model.h"
#include "core/hmm/sequence_moments.h"

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace cx {

/// How component weights ω_t are estimated after the decomposition.
enum class HmmWeightEstimator {
    Eigenvalue, ///< ω_t = sign(λ_t)/λ_t² from the power method (Alg. 1/2 convention)
    FirstMoment, ///< least squares Σ_t ω_t o_t = E_f[φ(x)] − γ·E_b[φ(x)] (uses all K columns)
};

/// How the foreground-specific transition matrix is estimated.
enum class TransitionEstimator {
    PairMoment, ///< Õ⁺ M23 Õ⁺ᵀ (joint of consecutive states), rows normalised
    /// Õ⁺ n_h, n_h = E[φ(x_{t+1}) | h_t = h] the decomposition's third view (default: on chr11
    /// it gives diagonal-dominant rows where PairMoment's noisy joint rounds to many zeros)
    NextView,
};

/// Diagonal rescaling of the features before the decomposition (undone afterwards).
enum class FeatureScaling {
    None,
    /// MarkVector only: coordinate i scaled by 1/√E_f[φ_i] (the constant stays 1), which
    /// balances rare and frequent marks; ignored for MarkCombination.
    InverseSqrtMean,
    /// Each view y is mapped to Σ^{-1/2} y, Σ = E_f[y yᵀ] its foreground second moment
    /// (ClassMoments::m11/m22/m33): the pair moments become canonical-correlation matrices
    /// (CCA), of which InverseSqrtMean is the diagonal approximation (E[x_i²] = E[x_i] for
    /// binary marks).
    Whitening,
};

/// Options of one contrastive spectral HMM solve.
struct ContrastiveHmmOptions {
    int numComponents = 7;    ///< K: rank of the decomposition (all components, any sign)
    int iterations = 100;     ///< power iterations per trial (stops early on convergence)
    int trials = 10;          ///< random starts per component (median-|λ| trial kept)
    double tolerance = 1e-12; ///< power-iteration convergence
    std::uint64_t seed = 1;   ///< every random draw derives from it
    /// Refinement rounds of the power method (asymmetricTensorPowerMethod).
    int refinementRounds = 0;
    HmmWeightEstimator weightEstimator = HmmWeightEstimator::Eigenvalue;
    TransitionEstimator transitionEstimator = TransitionEstimator::NextView;
    FeatureScaling featureScaling = FeatureScaling::InverseSqrtMean;
    /// E, reserve components: the decomposition is done at rank R = K + E, …, K + 1 and the K
    /// components of largest |ω_t| of the first rank whose kept components are all valid states
    /// are reported, else those of the least invalid rank (see solveContrastiveHmm). 0 = always
    /// rank K (Alg. 3 as printed).
    int extraComponents = 1;
    /// z of the validity test: a component's raw emission estimate may leave the valid set by
    /// at most z·s_t, s_t = 1/(2√(N_eff·|ω_t|)) the largest standard error of a proportion
    /// estimated from its N_eff·|ω_t| bins (z = 3: the usual three-sigma rule).
    double validityZ = 3.0;
    /// CP-ALS sweeps after the extraction (AsymmetricPowerOptions::alsSweeps). Evaluated, not
    /// the default: on chr11 it keeps the dominant quiescent state at every rank but sharpens
    /// the other states and lowers their weights (MAD to EM 0.18 at K = 7), and costs ~4 ms.
    int alsSweeps = 0;
    /// MarkVector only, < 0 = off: re-select and refit the K states against the first and
    /// off-diagonal second mark moments (refitMarkStates, with this many joint sweeps): the
    /// candidates are all R extracted emissions plus the all-zero (unmarked) one, the weights
    /// come from least squares of the moments (summing to 1 − γ), not from λ; transitions are
    /// then re-estimated by the PairMoment estimator from the refitted emissions.
    int momentRefitSweeps = -1;
    /// Highest order of the within-bin mark moments the refit matches: 2 (mean and pairs) or
    /// 3 (also E[x_a x_b x_c] at three distinct marks, ClassMoments::m222 — these identify the
    /// states that second moments leave free, see MarkMomentTargets::third).
    int momentRefitOrder = 2;
    /// First extraction of the components (AsymmetricPowerOptions::initialization).
    /// SimultaneousDiagonalization is exact on exact moments but, from one random slice, far
    /// less stable than deflation on real (misspecified) moments; a cross-check.
    AsymmetricInit initialization = AsymmetricInit::Deflation;
    /// Warm starts of the decomposition: a neighbouring solution's `warmStarts` on the SAME
    /// moments and options (a γ path, solveHmmPath). Component t < columns is first extracted
    /// by one power-iteration run from column t (AsymmetricPowerOptions::starts), so the
    /// solution continues its neighbour's. Empty = random starts only (deflation only).
    Eigen::MatrixXd warmStarts;
};

/// Result of a solve at one γ. Components are sorted by decreasing weight, so the
/// foreground-specific states (weight > 0) come first: rows 0 … numSpecific−1.
struct ContrastiveHmmResult {
    double gamma = 0;
    Status status = Status::NotComputed;
    Eigen::VectorXd weights; ///< K signed weights ω_t (average state occupancy in Mf − γ·Mb)
    Eigen::VectorXd lambdas; ///< K power-method eigenvalues λ_t = sign(ω_t)/√|ω_t|
    /// K × M per-mark presence probability of every component (clipped to [0, 1]): the
    /// emission heatmap, including the shared/background components (negative weight).
    Eigen::MatrixXd markProbabilities;
    int numSpecific = 0; ///< components with ω > 0
    /// The foreground-specific HMM (numSpecific states, same order as the first rows above).
    /// Empty (0 states) when no component has positive weight.
    HmmParameters hmm;
    double residual = 0; ///< relative Frobenius norm of the deflated tensor
    /// The R − K extracted components that were not kept (ContrastiveHmmOptions::
    /// extraComponents), sorted by decreasing weight: weights and per-mark probabilities.
    Eigen::VectorXd droppedWeights;
    Eigen::MatrixXd droppedMarkProbabilities;
    /// Per component: how far the raw emission estimate lies outside the valid set before
    /// rounding (MarkVector: max_m distance of õ_m from [0, 1]; combinations: largest change of
    /// a pattern probability by the projection onto the simplex). Exact moments give 0.
    Eigen::VectorXd emissionClipping;
    Eigen::VectorXd droppedEmissionClipping;
    /// Per kept component h: the largest negative entry of its raw next-view transition row
    /// Õ⁺n_h (over all R components), 0 for a valid state (n_h = Σ_j A(h, j) o_j).
    Eigen::VectorXd transitionClipping;
    /// Per kept component: the sampling tolerance validityZ/(2√(N_eff·|ω_t|)) of the validity
    /// test, N_eff = (1/N_f + γ²/N_b)⁻¹ from the triple counts.
    Eigen::VectorXd emissionTolerance;
    /// Per kept component: invalidStateMass() of its weight and emission; 0 for a valid state.
    Eigen::VectorXd componentInvalidMass;
    /// Σ_t componentInvalidMass_t: 0 when every reported component is a valid state (emission
    /// in the valid set, weight in [−γ, 1]) up to sampling error.
    double invalidMass = 0;
    /// Moment refit (ContrastiveHmmOptions::momentRefitSweeps): weighted moment residual of the
    /// selected subset before and after the joint sweeps (0 when off).
    double momentResidualSelected = 0;
    double momentResidualFinal = 0;
    int decompositionRank = 0; ///< R of the decomposition the result comes from
    /// The R extracted first-view factors of that decomposition in the solver's internal
    /// (rescaled) coordinates and extraction order: ContrastiveHmmOptions::warmStarts of the
    /// next point of a path.
    Eigen::MatrixXd warmStarts;
    int warmStarted = 0;    ///< components continued from ContrastiveHmmOptions::warmStarts
    int candidateRanks = 0; ///< decompositions tried (R = K + E, …, K + 1, K)
    int iterations = 0;
    double elapsedMs = 0;

    /// Whether kept component t passed the validity test (componentInvalidMass_t = 0).
    bool isValidComponent(Eigen::Index t) const { return !(componentInvalidMass[t] > 0); }
    /// Σ componentInvalidMass_t over the foreground-specific components (ω_t > 0): > 0 when a
    /// state of the reported HMM is no valid state.
    double specificInvalidMass() const {
        return (weights.array() > 0).select(componentInvalidMass.array(), 0.0).sum();
    }
};

/// How far one component is from a valid state of a contrastive HMM:
/// |ω|·max(0, clipping − clippingTolerance) (its raw emission outside the valid set beyond
/// sampling error) + max(0, excess − weightTolerance), excess = how far ω lies outside
/// [−γ, 1]. 0 for a valid state.
double invalidStateMass(double weight, double clipping, double clippingTolerance, double gamma,
                        double weightTolerance);

/// Contrastive spectral HMM at contrast γ (Zou et al. 2013, Sec. 4 and Alg. 3).
///
/// Model: foreground triples come from (1 − ρ)·HMM_A + ρ·HMM_B (segments), background from
/// HMM_B. For triples (x_{t−1}, x_t, x_{t+1}) the three views are independent given h_t, with
/// E[φ(x_t)|h] = o_h (the emission column), E[φ(x_{t+1})|h] = Σ_j A(h, j) o_j and
/// E[φ(x_{t−1})|h] = Σ_j P(h_{t−1} = j | h_t = h) o_j; hence, per class,
/// M123 = Σ_h w_h a_h ⊗ o_h ⊗ c_h with w_h the average occupancy, and pairs alike. The
/// contrastive moments M = Mf − γ·Mb have A's states with weight (1 − ρ)·π_A > 0 and B's with
/// weight ρπ_B − γπ_B ≤ 0 once γ ≥ ρ (Prop. 1).
///
/// Steps: (1) combine the cached moments (O(r³)); (2) optionally rescale the features by a
/// diagonal D (FeatureScaling, default 1/√E_f[φ_i]; exact moments give the same components,
/// but on real data rare marks are no longer drowned by the dominant quiescent/constant
/// direction: on chr11 the deflation residual drops from 0.77 to 0.14); with windows the side
/// modes are restricted to the row spaces of M(x_t, ψ_∓), which changes no emission column;
/// (3) run asymmetricTensorPowerMethod on the tensor with modes ordered (x_t, ψ_−, ψ_+) and
/// pairs (M21, M23, M13), so its FIRST view is the emission column (up to the ±1 scale of
/// App. D), then undo D; (4) scale every view by the exact constraint s̃ᵀv = 1 (constant
/// coordinate / pattern sum, see SequenceMoments), giving emission columns o_t and next-bin
/// views n_t; ω_t = sign(λ_t)/λ_t² (or FirstMoment least squares); (5) emissions:
/// MarkVector, the first M coordinates of o_t clipped to [0, 1]; MarkCombination, U·o_t
/// projected onto the simplex over patterns; (6) transitions of the foreground-specific states
/// S, with Õ = [o_1 … o_R] (all R extracted components, r × R) and its pseudo-inverse Õ⁺:
///   NextView (default): n_h = Σ_j A(h, j) o_j, so row h of A is Õ⁺ n_h (n_h = M_cb M_ab⁺ â_h
///     in Alg. 3's notation: pseudo-inverses of pair moments only);
///   PairMoment: P = Õ⁺ M23 Õ⁺ᵀ estimates P(h_t = i, h_{t+1} = j)·(class weights);
/// restricted to S × S, each row normalised by its sum and rounded onto the simplex
/// (projectToSimplex). With lagged triples (SequenceMoments::lag = d > 1) both give A^d and A
/// is its principal real d-th root (rows re-rounded); (7) start distribution = the specific
/// states' weights normalised (moments average over positions, so the stationary occupancy is
/// what is identified; a sequence start is one bin in a million).
///
/// Validity and reserve components. An emission column is a probability vector (MarkVector:
/// entries in [0, 1]; combinations: on the simplex), so a raw estimate õ_t outside that set by
/// more than sampling error (emissionClipping_t > validityZ/(2√(N_eff|ω_t|)), N_eff =
/// (1/N_f + γ²/N_b)⁻¹) is not a state of any HMM; nor is a weight outside [−γ, 1] by more than
/// validityZ/(2√N_eff) (ω = π_f − γ·π_b, occupancies in [0, 1]). Real chromatin has more than
/// K states, and the rank-K truncation of the pair moments keeps the K directions of largest
/// (1/√mean-scaled) signal, not the K most occupied states: a rare state with many marks (on chr11
/// an all-marks component covering 0.16 % of the bins) outranks the split between two frequent,
/// similar states (quiescent vs Polycomb), which the rank-K decomposition then merges — on chr11
/// into a column with a negative mark (−0.046, 45 standard errors); in the exact-moment test
/// ReserveComponent… into a valid but wrong column. Hence (extraComponents = E ≥ 1) the
/// decomposition is first done at rank R = K + E (then K + E − 1, …, capped by the moment rank
/// and by the numerical rank of the pair moments, so exact moments of a K-state model stay at
/// rank K), and the first R whose K components of largest |ω_t| (occupancy at γ = 0; foreground
/// minus γ·background occupancy otherwise) are all valid is used; the others are returned as
/// droppedWeights/droppedMarkProbabilities. If none is valid, the candidate of least
/// invalidMass is returned (ties: rank K; on the chr11 slice at γ = 1.4 this turns a junk state
/// of weight 2.0 into one of 0.28); invalidMass > 0 then says that some reported component is
/// not an identifiable state at this K and γ (componentInvalidMass names it). Cost: one
/// decomposition per rank tried. On chr11 (both cell types, K = 7, γ = 0) this moves the emission
/// MAD to the best of 12 EM runs from 0.159 to 0.096, and spectral + 10 EM rounds from 2.4 % below
/// to within 0.002 % of that run's log-likelihood (tests/bench/bench_hmm.cpp,
/// HmmChr11SpectralVsEm).
///
/// \pre 1 ≤ K ≤ moments.rank(); γ finite and ≥ 0; the foreground has triples
///      (std::invalid_argument otherwise). Cost: independent of the number of bins —
///      O(K·trials·iterations·r³), about a millisecond for r = 11, K = 7.
/// Deterministic given options.seed.
ContrastiveHmmResult solveContrastiveHmm(const SequenceMoments& moments, double gamma,
                                         const ContrastiveHmmOptions& options,
                                         const CancelToken& cancel = {});

/// Matches rows of `estimate` to rows of `reference` (both states × features) by minimum total
/// L1 distance (Hungarian): result[i] = row of `estimate` matched to reference row i.
/// \pre reference.rows() ≤ estimate.rows(), equal column counts.
std::vector<int> matchStates(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& estimate);

/// Mean absolute entry-wise difference between `reference` and the rows of `estimate` matched
/// to it by matchStates.
double matchedMeanAbsoluteDifference(const Eigen::MatrixXd& reference,
                                     const Eigen::MatrixXd& estimate);

} // namespace cx
