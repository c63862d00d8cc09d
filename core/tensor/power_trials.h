#pragma once

// The trials of DensePowerMethod::run (Algorithm 2 with batched trials): internal to
// core/tensor, shared by tensor_power_method.cpp and tested through DensePowerMethod.

#include "core/common/cancel.h"
#include "core/tensor/skinny_product.h"
#include "core/tensor/tensor_power_method.h"

#include <Eigen/Dense>

#include <vector>

namespace cx::power_trials {

/// One trial of Alg. 2: a start iterated to its fixed point (or its last allowed step).
struct Trial {
    Eigen::VectorXd a; // â (n-dimensional)
    double lambda = 0;
    int iterations = 0;
    bool converged = false;
    bool degenerate = false;
};

/// ‖next − previous‖ of two unit iterates.
double directionChange(const Eigen::VectorXd& previous, const Eigen::VectorXd& next);

/// Columns y ↦ [y_j y_l]_{j ≤ l} in the order of packPairs.
void pairProducts(const Eigen::MatrixXd& y, Eigen::MatrixXd& out);

/// The same pair products rounded to float (the single-precision steps' right-hand side, equal
/// to pairProducts' doubles rounded), into the first y.cols() columns of `out` (K(K+1)/2 rows).
void pairProductsSingle(const Eigen::Ref<const Eigen::MatrixXd>& y, Eigen::MatrixXf& out);

/// Deflations so far, in K coordinates: α_τ = V_Kᵀâ_τ (columns) and weights |λ̂_τ|.
struct KDeflations {
    Eigen::MatrixXd alpha;
    Eigen::VectorXd weight;
    Eigen::Index count = 0;

    /// Σ_{τ<used} |λ̂_τ|⟨α_τ, y⟩²·target_τ for every column y of ys (target: K × used or
    /// n × used, its columns the deflated vectors in α's or in ℝⁿ's coordinates).
    Eigen::MatrixXd term(const Eigen::MatrixXd& ys, const Eigen::Ref<const Eigen::MatrixXd>& target,
                         Eigen::Index used) const;
};

/// Trials of one component run together (DensePowerMethod::run): each power step of the trials
/// still running is one GEMM. â is not formed here (trial.a stays empty).
struct TrialBatch {
    std::vector<Trial> trials;
    Eigen::MatrixXd yLast;  // K × m: y of each trial's last power step
    Eigen::VectorXd scales; // 1/|⟨u, M2⁺u⟩|^{1/2} per trial (0 if degenerate)
    Eigen::MatrixXd coords; // K × m: V_Kᵀu of the last step
};

/// The packed core, and with options.singlePrecisionSteps its deflated single-precision copy.
struct PackedCores {
    const PaddedRows& full;
    const PaddedRowsSingle& deflatedSingle;
};

/// Deflates the packed core by w·a^{⊗3} in place (packPairs' layout) and writes the result,
/// rounded, into the rows of its single-precision copy (no allocation: once per component).
void deflatePacked(double w, const Eigen::VectorXd& a, Eigen::MatrixXd& core,
                   PaddedRowsSingle& single);

/// The trials x (K × m, one start a column) of one component, run together: each power step of
/// the trials still running is one product of the packed core.
TrialBatch iterateTrials(const PackedCores& cores, const KDeflations& deflations,
                         const Eigen::VectorXd& inverse, const PowerMethodOptions& options,
                         Eigen::MatrixXd x, const CancelToken& cancel);

} // namespace cx::power_trials
