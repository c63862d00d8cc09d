#pragma once

// Shared synthetic truth for the contrastive HMM tests.

#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/sequence_moments.h"
#include "core/hmm/synthetic_hmm.h"

#include <Eigen/Dense>

#include <algorithm>

namespace cx::test {

/// Largest |Δ| of any emission entry after matching each true state to an estimated one.
inline double maxMatchedEmissionError(const Eigen::MatrixXd& truth,
                                      const Eigen::MatrixXd& estimate) {
    const auto match = matchStates(truth, estimate);
    double worst = 0;
    for (Eigen::Index i = 0; i < truth.rows(); ++i) {
        worst = std::max(
            worst,
            (truth.row(i) - estimate.row(match[static_cast<size_t>(i)])).cwiseAbs().maxCoeff());
    }
    return worst;
}

/// Exact population moments of a foreground HMM A (3 states, 9 marks) mixed with a background
/// HMM B at weight rho, and the decomposition options the tests use (K = 6, seed 5).
struct ExactContrast {
    HmmParameters a = randomSyntheticHmm(3, 9, 101, 0.85);
    HmmParameters b = randomSyntheticHmm(3, 9, 202, 0.7);
    double rho = 0.4;
    SequenceMoments moments = populationContrastiveMoments(a, b, rho);
    ContrastiveHmmOptions options = [] {
        ContrastiveHmmOptions o;
        o.numComponents = 6;
        o.seed = 5;
        return o;
    }();
};

} // namespace cx::test
