#include "core/tensor/randomized_eigen.h"

#include "core/common/random.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cx {

SymmetricLowRank randomizedSymmetricEigen(const BlockOperator& apply, Eigen::Index n, int k,
                                          int oversample, int powerIterations, std::uint64_t seed,
                                          const CancelToken& cancel) {
    if (k < 1 || k > n) {
        throw std::invalid_argument("randomizedSymmetricEigen: k = " + std::to_string(k) +
                                    " must lie in [1, " + std::to_string(n) + "]");
    }
    const Eigen::Index width = std::min<Eigen::Index>(n, k + std::max(0, oversample));
    Rng rng(seed);
    Eigen::MatrixXd q = orthonormalBasis(apply(rng.normalMatrix(n, width)));
    Eigen::MatrixXd aq = apply(q);
    for (int it = 0; it < powerIterations; ++it) {
        throwIfCancelled(cancel);
        Eigen::MatrixXd next = orthonormalBasis(aq);
        if (next.cols() == 0) {
            break;
        }
        q = std::move(next);
        aq = apply(q);
    }
    if (q.cols() == 0) {
        // The operator is zero on the sampled space: report zero eigenvalues on an arbitrary basis.
        SymmetricLowRank zero;
        zero.values = Eigen::VectorXd::Zero(k);
        zero.vectors = Eigen::MatrixXd::Identity(n, k);
        return zero;
    }
    const Eigen::MatrixXd small = q.transpose() * aq;
    const int kept = static_cast<int>(std::min<Eigen::Index>(k, q.cols()));
    SymmetricLowRank ritz = truncatedSymmetricEigen(small, kept);
    SymmetricLowRank out;
    out.values = Eigen::VectorXd::Zero(k);
    out.values.head(kept) = ritz.values;
    out.vectors = Eigen::MatrixXd::Zero(n, k);
    out.vectors.leftCols(kept) = q * ritz.vectors;
    return out;
}

} // namespace cx
