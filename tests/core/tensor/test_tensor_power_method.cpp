#include "core/common/random.h"
#include "core/tensor/linalg.h"
#include "core/tensor/symmetric_tensor.h"
#include "core/tensor/tensor_power_method.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cx {
namespace {

/// Exact moments M2 = Σ ω_t μ_t μ_tᵀ, M3 = Σ ω_t μ_t^{⊗3} with mixed-sign ω (the contrastive case).
struct ExactProblem {
    Eigen::MatrixXd mu;      // n × K
    Eigen::VectorXd omega;   // K
    Eigen::MatrixXd m2;
    SymmetricTensor3 m3;
};

ExactProblem makeProblem(int n, const Eigen::VectorXd& omega, std::uint64_t seed) {
    Rng rng(seed);
    ExactProblem p;
    const int k = static_cast<int>(omega.size());
    p.mu.resize(n, k);
    for (int t = 0; t < k; ++t) {
        p.mu.col(t) = rng.dirichlet(n, 0.5); // non-orthogonal, positive, linearly independent
    }
    p.omega = omega;
    p.m2 = Eigen::MatrixXd::Zero(n, n);
    p.m3 = SymmetricTensor3(n);
    for (int t = 0; t < k; ++t) {
        p.m2 += omega[t] * p.mu.col(t) * p.mu.col(t).transpose();
        p.m3.addRankOne(omega[t], p.mu.col(t));
    }
    return p;
}

/// Matches recovered components to the truth by ℓ1 distance of normalised, oriented vectors.
std::vector<int> matchComponents(const Eigen::MatrixXd& truth, const Eigen::MatrixXd& got) {
    const auto k = truth.cols();
    Eigen::MatrixXd cost(k, got.cols());
    for (Eigen::Index i = 0; i < k; ++i) {
        for (Eigen::Index j = 0; j < got.cols(); ++j) {
            Eigen::VectorXd g = got.col(j);
            if (g.sum() < 0) {
                g = -g;
            }
            cost(i, j) = (truth.col(i) / truth.col(i).sum() - g / g.sum()).lpNorm<1>();
        }
    }
    return hungarianAssignment(cost);
}

TEST(TensorPowerMethod, RecoversMixedSignComponentsExactly) {
    Eigen::VectorXd omega(6);
    omega << 0.3, 0.2, 0.1, -0.15, -0.4, -0.05;
    const ExactProblem p = makeProblem(25, omega, 42);
    PowerMethodOptions options;
    options.numComponents = 6;
    options.iterations = 100;
    options.restarts = 5;
    options.seed = 9;
    const PowerMethodResult result = generalizedPowerMethod(p.m2, p.m3, options);
    ASSERT_EQ(result.components.cols(), 6);
    const std::vector<int> match = matchComponents(p.mu, result.components);
    for (int t = 0; t < 6; ++t) {
        const int j = match[static_cast<size_t>(t)];
        const Eigen::VectorXd a = result.components.col(j);
        const double lambda = result.lambdas[j];
        // λ_t = sign(ω_t)/|ω_t|^{1/2}; â = σ_t a_t with a_t = |ω_t|^{1/2} μ_t.
        const double sigma = omega[t] > 0 ? 1.0 : -1.0;
        EXPECT_NEAR(lambda, sigma / std::sqrt(std::abs(omega[t])), 1e-8) << "component " << t;
        EXPECT_LT((a - sigma * std::sqrt(std::abs(omega[t])) * p.mu.col(t)).norm(), 1e-8)
            << "component " << t;
        EXPECT_NEAR(std::copysign(1.0 / (lambda * lambda), lambda), omega[t], 1e-8);
    }
    EXPECT_EQ(result.converged, std::vector<bool>(6, true));
    EXPECT_EQ(result.status, Status::Successful);
}

TEST(TensorPowerMethod, ImplicitAndDenseFormsAgree) {
    Eigen::VectorXd omega(4);
    omega << 0.5, 0.25, -0.2, -0.3;
    const ExactProblem p = makeProblem(12, omega, 5);
    PowerMethodOptions options;
    options.numComponents = 4;
    options.iterations = 12; // fixed budget so both follow the same iterates
    options.tolerance = 0;
    options.seed = 77;
    const PowerMethodResult dense = generalizedPowerMethod(p.m2, p.m3, options);
    const SymmetricLowRank low = truncatedSymmetricEigen(p.m2, 4);
    const PowerMethodResult implicit = generalizedPowerMethod(
        low, [&](const Eigen::VectorXd& v) { return p.m3.contract(v); }, options);
    EXPECT_LT((dense.components - implicit.components).norm(), 1e-9);
    EXPECT_LT((dense.lambdas - implicit.lambdas).norm(), 1e-9);
    EXPECT_EQ(dense.iterations, implicit.iterations);
    // Tolerance 0 is never met: every component is reported as not converged.
    EXPECT_EQ(dense.converged, std::vector<bool>(4, false));
    EXPECT_EQ(dense.status, Status::NotConverged);
}

TEST(TensorPowerMethod, SameSeedSameNumbers) {
    Eigen::VectorXd omega(3);
    omega << 0.5, -0.3, 0.2;
    const ExactProblem p = makeProblem(10, omega, 1);
    PowerMethodOptions options;
    options.numComponents = 3;
    options.seed = 123;
    const auto first = generalizedPowerMethod(p.m2, p.m3, options);
    const auto second = generalizedPowerMethod(p.m2, p.m3, options);
    EXPECT_EQ(first.components, second.components);
    EXPECT_EQ(first.lambdas, second.lambdas);
}

TEST(TensorPowerMethod, RecoversPsdCaseAndReportsResidual) {
    Eigen::VectorXd omega(5);
    omega << 0.3, 0.25, 0.2, 0.15, 0.1;
    const ExactProblem p = makeProblem(30, omega, 8);
    PowerMethodOptions options;
    options.numComponents = 5;
    options.iterations = 100;
    const auto result = generalizedPowerMethod(p.m2, p.m3, options);
    // Residual invariant: Σ λ̂ â^{⊗3} reproduces M3, Σ sign(λ̂) â âᵀ reproduces M2.
    SymmetricTensor3 rebuilt(30);
    Eigen::MatrixXd m2 = Eigen::MatrixXd::Zero(30, 30);
    for (int t = 0; t < 5; ++t) {
        rebuilt.addRankOne(result.lambdas[t], result.components.col(t));
        m2 += (result.lambdas[t] > 0 ? 1.0 : -1.0) * result.components.col(t) *
              result.components.col(t).transpose();
    }
    EXPECT_LT((rebuilt.unfolded() - p.m3.unfolded()).norm(), 1e-10 * p.m3.unfolded().norm() + 1e-14);
    EXPECT_LT((m2 - p.m2).norm(), 1e-10 * p.m2.norm());
    EXPECT_EQ(result.status, Status::Successful);
}

TEST(TensorPowerMethod, TrialsBelowTheLambdaBoundAreRejectedNotDeflated) {
    Eigen::VectorXd omega(4);
    omega << 0.3, 0.2, 0.1, -0.15; // λ = 1.83, 2.24, 3.16, −2.58
    const ExactProblem p = makeProblem(15, omega, 21);
    PowerMethodOptions options;
    options.numComponents = 4;
    options.iterations = 200;
    options.restarts = 9;
    options.minAbsLambda = 2.0; // excludes the ω = 0.3 component only
    const PowerMethodResult result = generalizedPowerMethod(p.m2, p.m3, options);
    ASSERT_EQ(result.degenerate.size(), 4u);
    EXPECT_EQ(result.status, Status::NumericalIssue);
    int accepted = 0;
    for (int t = 0; t < 4; ++t) {
        if (result.degenerate[static_cast<size_t>(t)]) {
            EXPECT_EQ(result.components.col(t).norm(), 0.0);
            continue;
        }
        ++accepted;
        EXPECT_GE(std::abs(result.lambdas[t]), 2.0);
    }
    EXPECT_GE(accepted, 3); // the three admissible components are all found
    std::vector<double> found;
    for (int t = 0; t < 4; ++t) {
        if (!result.degenerate[static_cast<size_t>(t)]) {
            found.push_back(result.lambdas[t]);
        }
    }
    std::sort(found.begin(), found.end());
    ASSERT_EQ(found.size(), 3u);
    EXPECT_NEAR(found[0], -1.0 / std::sqrt(0.15), 1e-6);
    EXPECT_NEAR(found[1], 1.0 / std::sqrt(0.2), 1e-6);
    EXPECT_NEAR(found[2], 1.0 / std::sqrt(0.1), 1e-6);
}

TEST(TensorPowerMethod, RejectsBadArguments) {
    const ExactProblem p = makeProblem(5, Eigen::VectorXd::Constant(2, 0.5), 2);
    PowerMethodOptions options;
    options.numComponents = 6;
    EXPECT_THROW(generalizedPowerMethod(p.m2, p.m3, options), std::invalid_argument);
    options.numComponents = 0;
    EXPECT_THROW(generalizedPowerMethod(p.m2, p.m3, options), std::invalid_argument);
    options.numComponents = 2;
    options.restarts = 0;
    EXPECT_THROW(generalizedPowerMethod(p.m2, p.m3, options), std::invalid_argument);
}

TEST(TensorPowerMethod, CancelStopsBetweenTrials) {
    const ExactProblem p = makeProblem(8, Eigen::VectorXd::Constant(3, 0.3), 4);
    PowerMethodOptions options;
    options.numComponents = 3;
    const CancelToken token = CancelToken::create();
    token.cancel();
    EXPECT_THROW(generalizedPowerMethod(p.m2, p.m3, options, token), Cancelled);
}

TEST(SymmetricTensor3, MultilinearMatchesDefinition) {
    Rng rng(1);
    SymmetricTensor3 t(4);
    for (int i = 0; i < 3; ++i) {
        t.addRankOne(rng.normal(), rng.normalVector(4));
    }
    const Eigen::MatrixXd v = rng.normalMatrix(4, 2);
    const SymmetricTensor3 m = t.multilinear(v);
    for (int a = 0; a < 2; ++a) {
        for (int b = 0; b < 2; ++b) {
            for (int c = 0; c < 2; ++c) {
                EXPECT_NEAR(m(a, b, c), t.value(v.col(a), v.col(b), v.col(c)), 1e-12);
            }
        }
    }
    const Eigen::VectorXd x = rng.normalVector(4);
    EXPECT_NEAR(x.dot(t.contract(x)), t.value(x, x, x), 1e-12);
    EXPECT_LT(t.asymmetry(), 1e-12);
}

TEST(Linalg, SimplexProjectionAndHungarian) {
    Eigen::VectorXd v(4);
    v << 0.5, -0.2, 0.9, 0.1;
    const Eigen::VectorXd p = projectToSimplex(v);
    EXPECT_NEAR(p.sum(), 1.0, 1e-12);
    EXPECT_GE(p.minCoeff(), 0.0);
    EXPECT_NEAR(p[2] - p[0], 0.4, 1e-12); // shifts by a common threshold
    Eigen::MatrixXd cost(3, 3);
    cost << 4, 1, 3, 2, 0, 5, 3, 2, 2;
    const auto assignment = hungarianAssignment(cost);
    EXPECT_EQ(assignment, (std::vector<int>{1, 0, 2}));
}

TEST(TensorPowerMethod, JennrichGivesThePowerMethodsPairsOnExactMoments) {
    // Mixed signs, non-orthogonal components: the same (â_t, λ_t) as Alg. 2, with its sign
    // conventions, from one simultaneous diagonalisation.
    Eigen::VectorXd omega(6);
    omega << 0.3, 0.2, 0.1, -0.15, -0.4, -0.05;
    const ExactProblem p = makeProblem(25, omega, 42);
    PowerMethodOptions options;
    options.numComponents = 6;
    options.restarts = 4;
    options.seed = 9;
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 6), p.m3);
    const PowerMethodResult result = method.runJennrich(options);
    ASSERT_EQ(result.components.cols(), 6);
    EXPECT_EQ(result.status, Status::Successful);
    const std::vector<int> match = matchComponents(p.mu, result.components);
    for (int t = 0; t < 6; ++t) {
        const int j = match[static_cast<size_t>(t)];
        const double sigma = omega[t] > 0 ? 1.0 : -1.0;
        EXPECT_NEAR(result.lambdas[j], sigma / std::sqrt(std::abs(omega[t])), 1e-8) << t;
        EXPECT_LT((result.components.col(j) - sigma * std::sqrt(std::abs(omega[t])) * p.mu.col(t))
                      .norm(),
                  1e-8)
            << "component " << t;
    }
    EXPECT_LT(method.whitenedResidual(result), 1e-8);
    // The power method's answer is the same set.
    const PowerMethodResult power = method.run(options);
    EXPECT_LT(method.whitenedResidual(power), 1e-6);
}

TEST(TensorPowerMethod, JennrichOnNoisyMomentsStaysCloseAndRejectsBelowTheBound) {
    Eigen::VectorXd omega(4);
    omega << 0.35, 0.25, -0.2, -0.3;
    ExactProblem p = makeProblem(15, omega, 5);
    // Symmetric noise of relative size ~1e-4 in M2 and M3.
    Rng rng(11);
    Eigen::MatrixXd e2(15, 15);
    for (Eigen::Index i = 0; i < 15; ++i) {
        for (Eigen::Index j = 0; j <= i; ++j) {
            e2(i, j) = e2(j, i) = 1e-4 * p.m2.norm() / 15 * rng.normal();
        }
    }
    SymmetricTensor3 e3(15);
    for (int r = 0; r < 10; ++r) {
        Eigen::VectorXd x(15);
        for (Eigen::Index i = 0; i < 15; ++i) {
            x[i] = rng.normal();
        }
        e3.addRankOne(1e-5 * rng.normal(), x);
    }
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2 + e2, 4), p.m3.plusScaled(1.0, e3));
    PowerMethodOptions options;
    options.numComponents = 4;
    options.seed = 3;
    const PowerMethodResult jennrich = method.runJennrich(options);
    const PowerMethodResult power = method.run(options);
    const std::vector<int> mj = matchComponents(p.mu, jennrich.components);
    const std::vector<int> mp = matchComponents(p.mu, power.components);
    for (int t = 0; t < 4; ++t) {
        const double truth = omega[t] > 0 ? 1 / std::sqrt(omega[t]) : -1 / std::sqrt(-omega[t]);
        // Jennrich is less accurate under noise than Alg. 2 (one eigendecomposition of a
        // noisy slice ratio against iterations that average the whole tensor): within 5 %
        // here, against 2 % (README "Jennrich's algorithm" has the numbers on real moments).
        EXPECT_NEAR(jennrich.lambdas[mj[static_cast<size_t>(t)]], truth, 0.05 * std::abs(truth)) << t;
        EXPECT_NEAR(power.lambdas[mp[static_cast<size_t>(t)]], truth, 0.02 * std::abs(truth)) << t;
    }
    std::printf("noisy moments: whitened residual jennrich %.4f, power %.4f\n",
                method.whitenedResidual(jennrich), method.whitenedResidual(power));
    EXPECT_LT(method.whitenedResidual(jennrich), 0.1);
    // A bound on |λ| that two of the components violate marks them degenerate.
    options.minAbsLambda = 1.9;
    const PowerMethodResult bounded = method.runJennrich(options);
    EXPECT_EQ(std::count(bounded.degenerate.begin(), bounded.degenerate.end(), true), 2);
    EXPECT_EQ(bounded.status, Status::NumericalIssue);
}

TEST(TensorPowerMethod, WhitenedResidualIsZeroAtTheExactDecomposition) {
    Eigen::VectorXd omega(5);
    omega << 0.3, 0.2, -0.15, -0.4, 0.1;
    const ExactProblem p = makeProblem(20, omega, 7);
    PowerMethodOptions options;
    options.numComponents = 5;
    options.iterations = 200;
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 5), p.m3);
    const PowerMethodResult result = method.run(options);
    EXPECT_LT(method.whitenedResidual(result), 1e-6);
    // Leaving a component out leaves its share of the tensor unexplained.
    PowerMethodResult partial = result;
    partial.degenerate[0] = true;
    EXPECT_GT(method.whitenedResidual(partial), 0.05);
}

TEST(TensorPowerMethod, WarmStartsFollowTheirComponents) {
    Eigen::VectorXd omega(5);
    omega << 0.3, 0.2, -0.15, -0.4, 0.1;
    const ExactProblem p = makeProblem(20, omega, 8);
    PowerMethodOptions options;
    options.numComponents = 5;
    options.iterations = 200;
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 5), p.m3);
    // Start each slot from a slightly perturbed true component, in a chosen order: slot t must
    // converge to the component it started from (continuity), in a few iterations.
    const std::vector<int> order = {3, 0, 4, 1, 2};
    Eigen::MatrixXd starts(20, 5);
    Rng rng(3);
    for (int t = 0; t < 5; ++t) {
        starts.col(t) = p.mu.col(order[static_cast<size_t>(t)]) + 0.02 * rng.normalVector(20) / std::sqrt(20.0);
    }
    const PowerMethodResult warm = method.run(options, {}, starts);
    for (int t = 0; t < 5; ++t) {
        Eigen::VectorXd got = warm.components.col(t);
        if (got.sum() < 0) {
            got = -got;
        }
        const Eigen::VectorXd truth = p.mu.col(order[static_cast<size_t>(t)]);
        EXPECT_LT((got / got.sum() - truth / truth.sum()).lpNorm<1>(), 1e-6) << "slot " << t;
        EXPECT_TRUE(warm.converged[static_cast<size_t>(t)]);
        EXPECT_LT(warm.iterations[static_cast<size_t>(t)], 30) << "slot " << t;
    }
    EXPECT_LT(method.whitenedResidual(warm), 1e-6);
    // Same inputs, same numbers.
    EXPECT_EQ(method.run(options, {}, starts).components, warm.components);
}

} // namespace
} // namespace cx
