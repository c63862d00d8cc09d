// Asymmetric generalized tensor power method (Zou et al. 2013, Alg. 3) against exact low-rank
// input.
#include "core/tensor/asymmetric_power_method.h"
#include "core/tensor/linalg.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace cx {
namespace {

struct Factors {
    Eigen::MatrixXd a, b, c;
    Eigen::VectorXd w;
};

Factors randomFactors(int d1, int d2, int d3, const Eigen::VectorXd& weights, unsigned seed) {
    std::mt19937_64 engine(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Factors f;
    f.w = weights;
    const auto k = weights.size();
    f.a.resize(d1, k);
    f.b.resize(d2, k);
    f.c.resize(d3, k);
    for (auto* m : {&f.a, &f.b, &f.c}) {
        for (Eigen::Index j = 0; j < m->cols(); ++j) {
            for (Eigen::Index i = 0; i < m->rows(); ++i) {
                (*m)(i, j) = u(engine);
            }
        }
    }
    return f;
}

struct Moments {
    Eigen::MatrixXd ab, ac, bc;
    DenseTensor3 abc;
};

Moments exactMoments(const Factors& f) {
    Moments m;
    m.ab = f.a * f.w.asDiagonal() * f.b.transpose();
    m.ac = f.a * f.w.asDiagonal() * f.c.transpose();
    m.bc = f.b * f.w.asDiagonal() * f.c.transpose();
    m.abc = DenseTensor3(f.a.rows(), f.b.rows(), f.c.rows());
    for (Eigen::Index t = 0; t < f.w.size(); ++t) {
        m.abc.addRankOne(f.w[t], f.a.col(t), f.b.col(t), f.c.col(t));
    }
    return m;
}

/// Max over true components of the relative error of the best-matching recovered component.
double recoveryError(const Eigen::MatrixXd& truth, const Eigen::MatrixXd& estimate) {
    double worst = 0;
    for (Eigen::Index t = 0; t < truth.cols(); ++t) {
        double best = 1e300;
        for (Eigen::Index s = 0; s < estimate.cols(); ++s) {
            best = std::min(best, (truth.col(t) - estimate.col(s)).norm() / truth.col(t).norm());
        }
        worst = std::max(worst, best);
    }
    return worst;
}

TEST(AsymmetricPowerMethod, DenseTensorContractionsMatchDefinition) {
    DenseTensor3 t(2, 3, 4);
    for (int k = 0; k < 4; ++k) {
        for (int j = 0; j < 3; ++j) {
            for (int i = 0; i < 2; ++i) {
                t(i, j, k) = 1 + i + 10 * j + 100 * k;
            }
        }
    }
    Eigen::VectorXd v(3), w(4), x(2);
    v << 1, -2, 0.5;
    w << 0.1, 0.2, -0.3, 1;
    x << 2, -1;
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(2);
    for (int k = 0; k < 4; ++k) {
        for (int j = 0; j < 3; ++j) {
            for (int i = 0; i < 2; ++i) {
                expected[i] += t(i, j, k) * v[j] * w[k];
            }
        }
    }
    EXPECT_LT((t.contract23(v, w) - expected).norm(), 1e-12);
    EXPECT_NEAR(t.contract(x, v, w), x.dot(expected), 1e-10);
    const DenseTensor3 p = t.permuted({1, 0, 2});
    EXPECT_EQ(p.dim(0), 3);
    EXPECT_EQ(p.dim(1), 2);
    EXPECT_DOUBLE_EQ(p(2, 1, 3), t(1, 2, 3));
    Eigen::MatrixXd a = Eigen::MatrixXd::Random(2, 2), b = Eigen::MatrixXd::Random(3, 2),
                    c = Eigen::MatrixXd::Random(4, 3);
    const DenseTensor3 tr = t.transformed(a, b, c);
    double direct = 0;
    for (int k = 0; k < 4; ++k) {
        for (int j = 0; j < 3; ++j) {
            for (int i = 0; i < 2; ++i) {
                direct += t(i, j, k) * a(i, 1) * b(j, 0) * c(k, 2);
            }
        }
    }
    EXPECT_NEAR(tr(1, 0, 2), direct, 1e-10);
}

TEST(AsymmetricPowerMethod, RecoversPositiveComponentsExactly) {
    Eigen::VectorXd w(4);
    w << 0.4, 0.3, 0.2, 0.1;
    const Factors f = randomFactors(8, 7, 9, w, 3);
    const Moments m = exactMoments(f);
    AsymmetricPowerOptions options;
    options.rank = 4;
    options.seed = 11;
    const auto dec = asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options);
    ASSERT_EQ(dec.status, Status::Successful);
    EXPECT_LT(recoveryError(f.a, dec.scaledA()), 1e-8);
    EXPECT_LT(recoveryError(f.b, dec.scaledB()), 1e-8);
    EXPECT_LT(recoveryError(f.c, dec.scaledC()), 1e-8);
    Eigen::VectorXd weights = dec.weights();
    std::sort(weights.data(), weights.data() + weights.size());
    EXPECT_NEAR(weights[0], 0.1, 1e-8);
    EXPECT_NEAR(weights[3], 0.4, 1e-8);
    EXPECT_LT(dec.residual, 1e-8);
}

TEST(AsymmetricPowerMethod, RecoversSignedWeights) {
    // Contrastive moments: indefinite pair moments, negative weights for shared components.
    Eigen::VectorXd w(5);
    w << 0.35, 0.25, -0.2, -0.4, 0.1;
    const Factors f = randomFactors(6, 6, 6, w, 5);
    const Moments m = exactMoments(f);
    AsymmetricPowerOptions options;
    options.rank = 5;
    options.seed = 2;
    const auto dec = asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options);
    ASSERT_EQ(dec.status, Status::Successful);
    const Eigen::VectorXd weights = dec.weights();
    const Eigen::MatrixXd a = dec.scaledA();
    for (Eigen::Index t = 0; t < 5; ++t) {
        // Find the recovered component matching a_t and compare its weight (sign included).
        Eigen::Index best = 0;
        double bestError = 1e300;
        for (Eigen::Index s = 0; s < 5; ++s) {
            const double e = (a.col(s) - f.a.col(t)).norm();
            if (e < bestError) {
                bestError = e;
                best = s;
            }
        }
        EXPECT_LT(bestError / f.a.col(t).norm(), 1e-7) << "component " << t;
        EXPECT_NEAR(weights[best], w[t], 1e-7) << "component " << t;
    }
}

TEST(AsymmetricPowerMethod, DeterministicForASeed) {
    Eigen::VectorXd w(3);
    w << 0.5, -0.3, 0.2;
    const Factors f = randomFactors(5, 5, 5, w, 9);
    Moments m = exactMoments(f);
    // A little noise so that trials differ.
    m.abc.matrix() += 1e-4 * Eigen::MatrixXd::Ones(5, 25);
    AsymmetricPowerOptions options;
    options.rank = 3;
    options.seed = 77;
    const auto first = asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options);
    const auto second = asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options);
    EXPECT_EQ(first.lambdas, second.lambdas);
    EXPECT_EQ(first.a, second.a);
}

TEST(AsymmetricPowerMethod, RejectsBadArguments) {
    const Factors f = randomFactors(4, 4, 4, Eigen::VectorXd::Constant(2, 0.5), 1);
    const Moments m = exactMoments(f);
    AsymmetricPowerOptions options;
    options.rank = 5;
    EXPECT_THROW(asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options),
                 std::invalid_argument);
    options.rank = 2;
    EXPECT_THROW(
        asymmetricTensorPowerMethod(m.ab.transpose().eval().topRows(3), m.ac, m.bc, m.abc, options),
        std::invalid_argument);
    options.trials = 0;
    EXPECT_THROW(asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options),
                 std::invalid_argument);
}

TEST(AsymmetricPowerMethod, SimultaneousDiagonalizationIsExactWithSignedWeights) {
    // Jennrich: all components from one eigendecomposition; different view dimensions and an
    // indefinite (contrastive) weight vector.
    Eigen::VectorXd w(5);
    w << 0.35, 0.25, -0.2, -0.4, 0.1;
    const Factors f = randomFactors(6, 9, 8, w, 5);
    const Moments m = exactMoments(f);
    AsymmetricPowerOptions options;
    options.rank = 5;
    options.seed = 4;
    options.initialization = AsymmetricInit::SimultaneousDiagonalization;
    const auto dec = asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options);
    ASSERT_EQ(dec.status, Status::Successful);
    EXPECT_LT(recoveryError(f.a, dec.scaledA()), 1e-8);
    EXPECT_LT(recoveryError(f.b, dec.scaledB()), 1e-8);
    EXPECT_LT(recoveryError(f.c, dec.scaledC()), 1e-8);
    Eigen::VectorXd found = dec.weights();
    Eigen::VectorXd expected = w;
    std::sort(found.data(), found.data() + 5);
    std::sort(expected.data(), expected.data() + 5);
    EXPECT_LT((found - expected).norm(), 1e-8); // signs included: â = σ_t a'_t
    EXPECT_LT(dec.residual, 1e-8);
}

TEST(AsymmetricPowerMethod, AlsRefinementKeepsExactMomentsAndRepairsAPerturbedStart) {
    Eigen::VectorXd w(4);
    w << 0.4, -0.3, 0.2, 0.1;
    const Factors f = randomFactors(7, 8, 9, w, 12);
    const Moments m = exactMoments(f);
    AsymmetricPowerOptions options;
    options.rank = 4;
    options.seed = 3;
    options.alsSweeps = 50;
    // Exact moments: the power-method solution is a fixed point of the sweeps.
    const auto dec = asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options);
    EXPECT_LT(recoveryError(f.a, dec.scaledA()), 1e-8);
    EXPECT_LT(dec.residual, 1e-8);
    // A perturbed decomposition (5 % noise on every factor) is pulled back to the truth.
    options.alsSweeps = 0;
    AsymmetricDecomposition start = asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options);
    std::mt19937_64 engine(8);
    std::normal_distribution<double> noise(0.0, 0.05);
    for (auto* factor : {&start.a, &start.b, &start.c}) {
        for (Eigen::Index i = 0; i < factor->size(); ++i) {
            factor->data()[i] *= 1 + noise(engine);
        }
    }
    EXPECT_GT(recoveryError(f.a, start.scaledA()), 1e-3);
    options.alsSweeps = 500;
    options.tolerance = 1e-14;
    alsRefine(m.ab, m.ac, m.bc, m.abc, std::vector<char>(4, 1), options, start);
    EXPECT_LT(recoveryError(f.a, start.scaledA()), 1e-6);
    EXPECT_LT(recoveryError(f.c, start.scaledC()), 1e-6);
    Eigen::VectorXd found = start.weights();
    Eigen::VectorXd expected = w;
    std::sort(found.data(), found.data() + 4);
    std::sort(expected.data(), expected.data() + 4);
    EXPECT_LT((found - expected).norm(), 1e-6);
}

TEST(AsymmetricPowerMethod, CancelStops) {
    const Factors f = randomFactors(4, 4, 4, Eigen::VectorXd::Constant(2, 0.5), 1);
    const Moments m = exactMoments(f);
    AsymmetricPowerOptions options;
    options.rank = 2;
    auto token = CancelToken::create();
    token.cancel();
    EXPECT_THROW(asymmetricTensorPowerMethod(m.ab, m.ac, m.bc, m.abc, options, token), Cancelled);
}

} // namespace
} // namespace cx
