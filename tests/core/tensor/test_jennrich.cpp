#include "core/common/error.h"
#include "core/common/random.h"
#include "core/tensor/jennrich.h"
#include "core/tensor/tensor_power_method.h"

#include <gtest/gtest.h>

#include <cmath>

namespace cx {
namespace {

Eigen::MatrixXd randomMatrix(Rng& rng, int rows, int cols) {
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        m.data()[i] = rng.normal();
    }
    return m;
}

/// Largest |cosine| distance between each true unit column and its best match (1 − |cos|).
double worstColumnMismatch(const Eigen::MatrixXd& truth, const Eigen::MatrixXd& estimate) {
    double worst = 0;
    for (Eigen::Index t = 0; t < truth.cols(); ++t) {
        double best = 0;
        for (Eigen::Index s = 0; s < estimate.cols(); ++s) {
            best = std::max(best,
                            std::abs(truth.col(t).normalized().dot(estimate.col(s).normalized())));
        }
        worst = std::max(worst, 1.0 - best);
    }
    return worst;
}

TEST(Jennrich, AsymmetricExactWithSignedWeightsAndUnequalDimensions) {
    Rng rng(3);
    const int k = 4;
    const Eigen::MatrixXd a = randomMatrix(rng, 7, k), b = randomMatrix(rng, 5, k),
                          c = randomMatrix(rng, 6, k);
    const Eigen::Vector4d w(2.0, -1.5, 0.7, -0.3);
    DenseTensor3 t(7, 5, 6);
    for (int i = 0; i < k; ++i) {
        t.addRankOne(w[i], a.col(i), b.col(i), c.col(i));
    }
    JennrichOptions options;
    options.rank = k;
    const JennrichResult r = jennrichDecomposition(t, options);
    ASSERT_EQ(r.status, Status::Successful);
    EXPECT_LT(r.residual, 1e-9);
    EXPECT_LT(worstColumnMismatch(a, r.a), 1e-9);
    EXPECT_LT(worstColumnMismatch(b, r.b), 1e-9);
    EXPECT_LT(worstColumnMismatch(c, r.c), 1e-9);
    // |weights| in natural scale: |w_t|·‖a_t‖‖b_t‖‖c_t‖, matched by the first factor.
    for (int i = 0; i < k; ++i) {
        const double scale = std::abs(w[i]) * a.col(i).norm() * b.col(i).norm() * c.col(i).norm();
        bool found = false;
        for (int s = 0; s < k; ++s) {
            if (std::abs(std::abs(a.col(i).normalized().dot(r.a.col(s))) - 1) < 1e-9) {
                EXPECT_NEAR(std::abs(r.weights[s]), scale, 1e-8 * scale);
                found = true;
            }
        }
        EXPECT_TRUE(found);
    }
}

TEST(Jennrich, SymmetricExactMatchesPowerMethodOnWhitenedTensor) {
    // Orthogonal (whitened) rank-K tensor: both methods are exact; Jennrich needs no deflation.
    Rng rng(5);
    const int n = 6, k = 4;
    const Eigen::MatrixXd q =
        Eigen::HouseholderQR<Eigen::MatrixXd>(randomMatrix(rng, n, n)).householderQ();
    const Eigen::Vector4d lambdas(3.0, 2.0, 1.5, 1.1);
    SymmetricTensor3 t(n);
    for (int i = 0; i < k; ++i) {
        t.addRankOne(lambdas[i], q.col(i));
    }
    JennrichOptions jo;
    jo.rank = k;
    const JennrichResult j = jennrichSymmetric(t, jo);
    ASSERT_EQ(j.status, Status::Successful);
    EXPECT_LT(j.residual, 1e-9);
    EXPECT_LT(worstColumnMismatch(q.leftCols(k), j.a), 1e-9);
    PowerMethodOptions po;
    po.numComponents = k;
    po.iterations = 200;
    const Eigen::MatrixXd identity = q.leftCols(k) * q.leftCols(k).transpose();
    const PowerMethodResult p = generalizedPowerMethod(identity, t, po);
    EXPECT_LT(worstColumnMismatch(q.leftCols(k), p.components), 1e-6);
    for (int i = 0; i < k; ++i) {
        double jw = 0;
        for (int s = 0; s < k; ++s) {
            if (std::abs(q.col(i).dot(j.a.col(s))) > 0.99) {
                jw = std::abs(j.weights[s]);
            }
        }
        EXPECT_NEAR(jw, lambdas[i], 1e-9);
    }
}

TEST(Jennrich, NoisySymmetricTensorDegradesGracefullyLikeThePowerMethod) {
    // Noise of relative size 1e-3: both methods recover the factors to about that accuracy.
    Rng rng(9);
    const int n = 5, k = 3;
    const Eigen::MatrixXd q =
        Eigen::HouseholderQR<Eigen::MatrixXd>(randomMatrix(rng, n, n)).householderQ();
    SymmetricTensor3 t(n);
    for (int i = 0; i < k; ++i) {
        t.addRankOne(1.0 + i, q.col(i));
    }
    for (Eigen::Index i = 0; i < t.unfolded().size(); ++i) {
        t.unfolded().data()[i] += 1e-3 * rng.normal();
    }
    t.symmetrize();
    JennrichOptions jo;
    jo.rank = k;
    const JennrichResult j = jennrichSymmetric(t, jo);
    PowerMethodOptions po;
    po.numComponents = k;
    po.iterations = 200;
    const PowerMethodResult p =
        generalizedPowerMethod(Eigen::MatrixXd(q.leftCols(k) * q.leftCols(k).transpose()), t, po);
    const double jennrichError = worstColumnMismatch(q.leftCols(k), j.a);
    const double powerError = worstColumnMismatch(q.leftCols(k), p.components);
    EXPECT_LT(jennrichError, 1e-3);
    EXPECT_LT(powerError, 1e-3);
}

TEST(Jennrich, RejectsRankAboveDimension) {
    DenseTensor3 t(3, 3, 2);
    JennrichOptions options;
    options.rank = 3;
    EXPECT_THROW(jennrichDecomposition(t, options), std::invalid_argument);
    EXPECT_THROW(parseDecomposition("svd"), InputError);
    EXPECT_EQ(parseDecomposition("jennrich"), Decomposition::Jennrich);
}

} // namespace
} // namespace cx
