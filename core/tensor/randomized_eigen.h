#pragma once

#include "core/common/cancel.h"
#include "core/tensor/linalg.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>

namespace cx {

/// Applies a symmetric n × n operator to an n × m block.
using BlockOperator = std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)>;

/// Top-k eigenpairs (by |eigenvalue|) of a symmetric, possibly indefinite operator known only
/// through block products, by randomized subspace iteration with Rayleigh–Ritz extraction
/// (Halko, Martinsson & Tropp 2011, Alg. 4.4 + 5.3): Q₀ = orth(A·Ω) with Ω Gaussian n × (k+p),
/// Q_{j+1} = orth(A·Q_j) for `powerIterations` steps, then the eigenpairs of Q_qᵀ·A·Q_q using the
/// last product. Cost: (powerIterations + 1) operator applications to n × (k+p) blocks plus
/// O(n(k+p)²). Deterministic for a given seed.
///
/// \pre 1 ≤ k ≤ n. If k + oversample > n the block is capped at n.
SymmetricLowRank randomizedSymmetricEigen(const BlockOperator& apply, Eigen::Index n, int k,
                                          int oversample, int powerIterations, std::uint64_t seed,
                                          const CancelToken& cancel = {});

} // namespace cx
