#pragma once

#include "core/common/random.h"
#include "core/tensor/symmetric_tensor.h"

#include <Eigen/Dense>

namespace cx::test {

/// A random symmetric problem with structure: M2 and M3 of `rank` mixed-sign, non-orthogonal
/// random components plus symmetric Gaussian noise of relative size `noise`, so that each
/// component is an attractor of the power map.
struct StructuredProblem {
    Eigen::MatrixXd m2;
    SymmetricTensor3 m3;
};

inline StructuredProblem randomStructuredProblem(Eigen::Index n, int rank, double noise, Rng& rng) {
    StructuredProblem p;
    const Eigen::MatrixXd g = rng.normalMatrix(n, n);
    p.m2 = noise * (0.5 * (g + g.transpose()));
    p.m3 = SymmetricTensor3(n);
    for (int t = 0; t < rank; ++t) {
        const double weight = (t % 2 == 0 ? 1.0 : -1.0) * (1.0 + rng.uniform());
        const Eigen::VectorXd a = rng.normalVector(n).normalized();
        p.m2 += weight * a * a.transpose();
        p.m3.addRankOne(weight, a);
    }
    p.m3.unfolded() += noise * rng.normalMatrix(n, n * n);
    p.m3.symmetrize();
    return p;
}

} // namespace cx::test
