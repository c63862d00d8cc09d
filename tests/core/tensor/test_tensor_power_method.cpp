#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/tensor/linalg.h"
#include "core/tensor/symmetric_tensor.h"
#include "core/tensor/tensor_power_method.h"
#include "structured_problem.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace cx {
namespace {

/// Exact moments M2 = Σ ω_t μ_t μ_tᵀ, M3 = Σ ω_t μ_t^{⊗3} with mixed-sign ω (the contrastive case).
struct ExactProblem {
    Eigen::MatrixXd mu;    // n × K
    Eigen::VectorXd omega; // K
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
    EXPECT_LT((rebuilt.unfolded() - p.m3.unfolded()).norm(),
              1e-10 * p.m3.unfolded().norm() + 1e-14);
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
        EXPECT_LT(
            (result.components.col(j) - sigma * std::sqrt(std::abs(omega[t])) * p.mu.col(t)).norm(),
            1e-8)
            << "component " << t;
    }
    EXPECT_LT(method.whitenedResidual(result), 1e-8);
    // The power method's answer is the same set.
    const PowerMethodResult power = method.run(options);
    EXPECT_LT(method.whitenedResidual(power), 1e-6);
}

TEST(TensorPowerMethod, PencilGivesThePowerMethodsPairsOnExactMomentsForAnyDirection) {
    // Mixed signs, non-orthogonal components: M(η) = T(W, W, η)·S has the z_t as eigenvectors
    // for every η, so three unrelated direction seeds give the same (â_t, λ_t), exactly.
    Eigen::VectorXd omega(6);
    omega << 0.3, 0.2, 0.1, -0.15, -0.4, -0.05;
    const ExactProblem p = makeProblem(25, omega, 42);
    PowerMethodOptions options;
    options.numComponents = 6;
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 6), p.m3);
    for (const std::uint64_t seed : {1u, 2u, 77u}) {
        const PowerMethodResult result =
            method.runPencil(options, method.pencilDirections(seed, 3));
        ASSERT_EQ(result.components.cols(), 6);
        EXPECT_EQ(result.status, Status::Successful);
        const std::vector<int> match = matchComponents(p.mu, result.components);
        for (int t = 0; t < 6; ++t) {
            const int j = match[static_cast<size_t>(t)];
            const double sigma = omega[t] > 0 ? 1.0 : -1.0;
            EXPECT_NEAR(result.lambdas[j], sigma / std::sqrt(std::abs(omega[t])), 1e-8) << t;
            EXPECT_LT(
                (result.components.col(j) - sigma * std::sqrt(std::abs(omega[t])) * p.mu.col(t))
                    .norm(),
                1e-8)
                << "component " << t << " seed " << seed;
        }
        EXPECT_LT(method.whitenedResidual(result), 1e-8);
    }
}

TEST(TensorPowerMethod, PencilEigenvaluesAreTheComponentsMeansOfTheDirection) {
    // λ_t·â_t = μ_t, so the pencil's eigenvalue for component t is ⟨μ_t, η⟩: it does not depend
    // on the weights. Two problems with the same μ and different ω (as at two values of γ) give
    // the same eigenvalues, hence the same order and separation.
    Eigen::VectorXd omegaA(4), omegaB(4);
    omegaA << 0.4, 0.3, -0.2, -0.1;
    omegaB << 0.1, 0.05, -0.6, -0.9;
    const ExactProblem a = makeProblem(12, omegaA, 8);
    const ExactProblem b = makeProblem(12, omegaB, 8); // same seed: same μ
    ASSERT_LT((a.mu - b.mu).norm(), 1e-15);
    PowerMethodOptions options;
    options.numComponents = 4;
    for (const ExactProblem* p : {&a, &b}) {
        const DensePowerMethod method(truncatedSymmetricEigen(p->m2, 4), p->m3);
        const Eigen::MatrixXd eta = method.pencilDirections(5, 1);
        const PowerMethodResult result = method.runPencil(options, eta);
        ASSERT_EQ(result.status, Status::Successful);
        const std::vector<int> match = matchComponents(p->mu, result.components);
        for (int t = 0; t < 4; ++t) {
            const int j = match[static_cast<size_t>(t)];
            const Eigen::VectorXd mu = result.lambdas[j] * result.components.col(j);
            EXPECT_LT((mu - p->mu.col(t)).norm(), 1e-9) << t;
        }
    }
}

TEST(TensorPowerMethod, PencilResolvesADirectionThatDoesNotSeparateTwoComponents) {
    // η orthogonal to μ_0 − μ_1 gives components 0 and 1 the same eigenvalue ⟨μ, η⟩: their
    // plane is not determined by η alone. The second direction resolves it, exactly.
    Eigen::VectorXd omega(4);
    omega << 0.3, 0.25, -0.2, -0.35;
    const ExactProblem p = makeProblem(10, omega, 19);
    PowerMethodOptions options;
    options.numComponents = 4;
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 4), p.m3);
    Eigen::MatrixXd eta = method.pencilDirections(3, 2);
    const Eigen::VectorXd d = p.mu.col(0) - p.mu.col(1);
    eta.col(0) -= d * (d.dot(eta.col(0)) / d.squaredNorm());
    ASSERT_NEAR(eta.col(0).dot(p.mu.col(0)), eta.col(0).dot(p.mu.col(1)), 1e-12);
    const PowerMethodResult result = method.runPencil(options, eta);
    const std::vector<int> match = matchComponents(p.mu, result.components);
    for (int t = 0; t < 4; ++t) {
        const int j = match[static_cast<size_t>(t)];
        ASSERT_FALSE(result.degenerate[static_cast<size_t>(j)]) << t;
        const double sigma = omega[t] > 0 ? 1.0 : -1.0;
        EXPECT_NEAR(result.lambdas[j], sigma / std::sqrt(std::abs(omega[t])), 1e-6) << t;
    }
    // One direction only: nothing can separate the pair; no garbage is returned for it.
    const PowerMethodResult alone = method.runPencil(options, eta.leftCols(1));
    int degenerate = 0;
    for (const bool b : alone.degenerate) {
        degenerate += b ? 1 : 0;
    }
    EXPECT_EQ(degenerate, 2);
    EXPECT_EQ(alone.status, Status::NumericalIssue);
    EXPECT_THROW(method.runPencil(options, Eigen::MatrixXd(10, 0)), std::invalid_argument);
    EXPECT_THROW(method.runPencil(options, Eigen::MatrixXd::Ones(9, 1)), std::invalid_argument);
}

TEST(TensorPowerMethod, PencilJointDiagonalisationDecidesWhatOneDirectionBarelySeparates) {
    // Noisy moments and a first direction that separates components 0 and 1 by only 10⁻³ of
    // the spectrum's spread (a near-collision of ⟨μ_0, η⟩ and ⟨μ_1, η⟩, as happens along γ on
    // real data): from η₀ alone their eigenvectors are mixed by the noise; with three more
    // directions the joint diagonalisation recovers both as accurately as the others.
    Eigen::VectorXd omega(5);
    omega << 0.3, 0.25, 0.15, -0.2, -0.35;
    ExactProblem p = makeProblem(14, omega, 23);
    Rng rng(4);
    SymmetricTensor3 e3(14);
    for (int r = 0; r < 12; ++r) {
        Eigen::VectorXd x(14);
        for (Eigen::Index i = 0; i < 14; ++i) {
            x[i] = rng.normal();
        }
        e3.addRankOne(2e-6 * rng.normal(), x);
    }
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 5), p.m3.plusScaled(1.0, e3));
    PowerMethodOptions options;
    options.numComponents = 5;
    Eigen::MatrixXd eta = method.pencilDirections(8, 4);
    const Eigen::VectorXd d = p.mu.col(0) - p.mu.col(1);
    eta.col(0) -= d * (d.dot(eta.col(0)) / d.squaredNorm());
    Eigen::VectorXd means = p.mu.transpose() * eta.col(0);
    eta.col(0) += d * (1e-3 * (means.maxCoeff() - means.minCoeff()) / d.squaredNorm());
    auto worstError = [&](const PowerMethodResult& result) {
        const std::vector<int> match = matchComponents(p.mu, result.components);
        double worst = 0;
        for (int t = 0; t < 5; ++t) {
            const int j = match[static_cast<size_t>(t)];
            if (result.degenerate[static_cast<size_t>(j)]) {
                return std::numeric_limits<double>::infinity();
            }
            Eigen::VectorXd g = result.components.col(j);
            g /= g.sum();
            worst = std::max(worst, (g - p.mu.col(t) / p.mu.col(t).sum()).lpNorm<1>());
        }
        return worst;
    };
    const double alone = worstError(method.runPencil(options, eta.leftCols(1)));
    const double joint = worstError(method.runPencil(options, eta));
    // Reference: four generic directions (no near-collision) on the same noisy moments.
    const double generic = worstError(method.runPencil(options, method.pencilDirections(8, 4)));
    std::printf("near-collision: worst l1 error, eta0 alone %.4f, joint (4 directions) %.4f, "
                "generic directions %.4f\n",
                alone, joint, generic);
    EXPECT_LT(joint, 2 * generic + 1e-3);
    EXPECT_LT(joint, 0.1);
    EXPECT_GT(alone, 10 * joint);
}

TEST(TensorPowerMethod, PencilAtLargeKIsTheSameForAnyThreadCount) {
    // From K = 24 the joint step's directions run on the worker threads: the result must not
    // depend on how many there are (noisy moments, so the joint step takes many steps).
    Eigen::VectorXd omega(30);
    for (Eigen::Index t = 0; t < 30; ++t) {
        omega[t] = (t % 3 == 0 ? -1.0 : 1.0) * (0.01 + 0.002 * static_cast<double>(t));
    }
    ExactProblem p = makeProblem(60, omega, 31);
    Rng rng(6);
    SymmetricTensor3 e3(60);
    for (int r = 0; r < 20; ++r) {
        Eigen::VectorXd x(60);
        for (Eigen::Index i = 0; i < 60; ++i) {
            x[i] = rng.normal();
        }
        e3.addRankOne(1e-9 * rng.normal(), x);
    }
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 30), p.m3.plusScaled(1.0, e3));
    PowerMethodOptions options;
    options.numComponents = 30;
    const Eigen::MatrixXd eta = method.pencilDirections(3, 6);
    setThreadCount(1);
    const PowerMethodResult one = method.runPencil(options, eta);
    setThreadCount(2);
    const PowerMethodResult two = method.runPencil(options, eta);
    setThreadCount(0);
    EXPECT_EQ(one.components, two.components);
    EXPECT_EQ(one.lambdas, two.lambdas);
    EXPECT_EQ(one.degenerate, two.degenerate);
    // And it is a decomposition: the matched components are close to the truth.
    EXPECT_LT(method.whitenedResidual(one), 0.05);
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
        e3.addRankOne(1e-9 * rng.normal(), x);
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
        EXPECT_NEAR(jennrich.lambdas[mj[static_cast<size_t>(t)]], truth, 0.05 * std::abs(truth))
            << t;
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
        starts.col(t) =
            p.mu.col(order[static_cast<size_t>(t)]) + 0.02 * rng.normalVector(20) / std::sqrt(20.0);
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

/// A random symmetric tensor that is not low-rank: a few mixed-sign rank-one terms of
/// non-orthogonal directions plus symmetrised Gaussian noise.
SymmetricTensor3 randomSymmetricTensor(Eigen::Index n, double noise, Rng& rng) {
    SymmetricTensor3 t(n);
    for (int r = 0; r < 4; ++r) {
        t.addRankOne(rng.normal(), rng.normalVector(n));
    }
    t.unfolded() += noise * rng.normalMatrix(n, n * n);
    t.symmetrize();
    return t;
}

/// Random symmetric indefinite n × n matrix.
Eigen::MatrixXd randomSymmetricMatrix(Eigen::Index n, Rng& rng) {
    const Eigen::MatrixXd g = rng.normalMatrix(n, n);
    return 0.5 * (g + g.transpose());
}

TEST(SymmetricTensor3, ContractSymmetricMatchesTheUnfoldingProducts) {
    Rng rng(17);
    for (const Eigen::Index n : {1, 7, 30}) {
        const SymmetricTensor3 a = randomSymmetricTensor(n, 0.3, rng);
        const SymmetricTensor3 b = randomSymmetricTensor(n, 0.3, rng);
        const Eigen::Index m = std::min<Eigen::Index>(n, 6);
        const Eigen::MatrixXd v = rng.normalMatrix(n, m);
        const SymmetricContraction single = contractSymmetric(a, v);
        const Eigen::MatrixXd partial = a.contractModes23(v);
        EXPECT_LT((single.partialT.transpose() - partial).norm(), 1e-12 * partial.norm()) << n;
        EXPECT_LT((single.core - a.multilinear(v).unfolded()).norm(), 1e-12 * single.core.norm())
            << n;
        // A − 1.7·B without forming it.
        const SymmetricTensor3 difference = a.plusScaled(-1.7, b);
        const SymmetricContraction combined = contractSymmetric(a, v, -1.7, &b);
        EXPECT_LT((combined.partialT.transpose() - difference.contractModes23(v)).norm(),
                  1e-12 * partial.norm())
            << n;
        EXPECT_LT((combined.core - difference.multilinear(v).unfolded()).norm(),
                  1e-12 * combined.core.norm())
            << n;
    }
    const SymmetricTensor3 a(5);
    EXPECT_THROW(contractSymmetric(a, Eigen::MatrixXd::Zero(4, 2)), std::invalid_argument);
    const SymmetricTensor3 b(4);
    EXPECT_THROW(contractSymmetric(a, Eigen::MatrixXd::Zero(5, 2), 1.0, &b), std::invalid_argument);
}

TEST(SymmetricTensor3, ContractSymmetricIsThreadCountIndependent) {
    // Large enough for the threaded path (n³m ≥ 2·10⁶).
    Rng rng(23);
    const SymmetricTensor3 a = randomSymmetricTensor(64, 0.1, rng);
    const SymmetricTensor3 b = randomSymmetricTensor(64, 0.1, rng);
    const Eigen::MatrixXd v = rng.normalMatrix(64, 12);
    const int saved = threadCount();
    setThreadCount(1);
    const SymmetricContraction one = contractSymmetric(a, v, -2.5, &b);
    setThreadCount(2);
    const SymmetricContraction two = contractSymmetric(a, v, -2.5, &b);
    setThreadCount(3);
    const SymmetricContraction three = contractSymmetric(a, v, -2.5, &b);
    setThreadCount(saved);
    EXPECT_EQ(one.partialT, two.partialT);
    EXPECT_EQ(one.core, two.core);
    EXPECT_EQ(one.partialT, three.partialT);
    EXPECT_EQ(one.core, three.core);
}

/// The batched DensePowerMethod::run against the previous one-trial-at-a-time implementation.
void expectSameDecomposition(const PowerMethodResult& fast, const PowerMethodResult& reference,
                             double tolerance, bool sameIterations) {
    ASSERT_EQ(fast.components.cols(), reference.components.cols());
    EXPECT_LT((fast.components - reference.components).norm(),
              tolerance * std::max(1.0, reference.components.norm()));
    EXPECT_LT((fast.lambdas - reference.lambdas).norm(),
              tolerance * std::max(1.0, reference.lambdas.norm()));
    EXPECT_EQ(fast.degenerate, reference.degenerate);
    EXPECT_EQ(fast.status, reference.status);
    if (sameIterations) {
        EXPECT_EQ(fast.iterations, reference.iterations);
        EXPECT_EQ(fast.converged, reference.converged);
    }
}

TEST(TensorPowerMethod, BatchedRunEqualsTheReferenceOnRandomSymmetricTensors) {
    // Structured random problems: with a fixed budget (tolerance 0) both implementations follow
    // the same iterates step for step, and with early stopping they stop together.
    Rng rng(31);
    for (int round = 0; round < 6; ++round) {
        const Eigen::Index n = 12 + 5 * round;
        const int k = 3 + round;
        const test::StructuredProblem p = test::randomStructuredProblem(n, k, 1e-3, rng);
        const SymmetricLowRank low = truncatedSymmetricEigen(p.m2, k);
        PowerMethodOptions options;
        options.numComponents = k;
        options.restarts = 5;
        options.seed = 100 + static_cast<std::uint64_t>(round);
        options.iterations = 40;
        options.tolerance = 0;
        const DensePowerMethod method(low, p.m3);
        const PowerMethodResult fast = method.run(options);
        expectSameDecomposition(fast, denseReferencePowerMethod(low, p.m3, options), 1e-10, true);
        // Same seed, same numbers.
        const PowerMethodResult again = method.run(options);
        EXPECT_EQ(fast.components, again.components);
        EXPECT_EQ(fast.lambdas, again.lambdas);
        EXPECT_EQ(fast.iterations, again.iterations);
        // Warm starts (slot t from a random vector; the last slot has none).
        const Eigen::MatrixXd starts = rng.normalMatrix(n, k - 1);
        expectSameDecomposition(method.run(options, {}, starts),
                                denseReferencePowerMethod(low, p.m3, options, {}, starts), 1e-10,
                                true);
        // A bound on |λ̂| that rejects some trials and components.
        PowerMethodOptions bounded = options;
        bounded.minAbsLambda = fast.lambdas.cwiseAbs().mean();
        expectSameDecomposition(method.run(bounded), denseReferencePowerMethod(low, p.m3, bounded),
                                1e-10, true);
        // Early stopping: the kept iterates agree. Several trials reach the same fixed point with
        // |λ̂| equal up to rounding, so the median rule may keep another of them (with another
        // iteration count) — the component is the same.
        options.iterations = 200;
        options.tolerance = 1e-8;
        const PowerMethodResult stopped = method.run(options);
        const PowerMethodResult stoppedReference = denseReferencePowerMethod(low, p.m3, options);
        expectSameDecomposition(stopped, stoppedReference, 1e-10, false);
        EXPECT_EQ(stopped.converged, stoppedReference.converged);
    }
}

TEST(TensorPowerMethod, BatchedRunEqualsTheReferenceOnUnstructuredTensors) {
    // A tensor without dominant components: the power map has no attractor, so over many steps
    // it amplifies rounding (the implicit and the dense forms of Alg. 2 also drift apart there),
    // but every step of the algebra — trials, median rule, deflation, rejection — must agree.
    Rng rng(37);
    for (int round = 0; round < 6; ++round) {
        const Eigen::Index n = 10 + 4 * round;
        const int k = 2 + round;
        const SymmetricTensor3 m3 = randomSymmetricTensor(n, 0.3, rng);
        const SymmetricLowRank low = truncatedSymmetricEigen(randomSymmetricMatrix(n, rng), k);
        PowerMethodOptions options;
        options.numComponents = k;
        options.restarts = 4;
        options.seed = 7 + static_cast<std::uint64_t>(round);
        options.iterations = 2;
        options.tolerance = 0;
        const DensePowerMethod method(low, m3);
        const PowerMethodResult fast = method.run(options);
        // Relative 1e-9: the two forms sum in different orders and the power map amplifies the
        // last-bit differences (the clang sanitizer build reached 1.65e-10 relative in one
        // round, over the former bound of 1e-10); a wrong step of the algebra differs at O(1).
        constexpr double kRounding = 1e-9;
        expectSameDecomposition(fast, denseReferencePowerMethod(low, m3, options), kRounding, true);
        options.minAbsLambda = fast.lambdas.cwiseAbs().mean();
        expectSameDecomposition(method.run(options), denseReferencePowerMethod(low, m3, options),
                                kRounding, true);
    }
}

TEST(TensorPowerMethod, BatchedRunEqualsTheReferenceWithEarlyStopping) {
    // Exact low-rank moments: trials converge to the same components.
    Eigen::VectorXd omega(6);
    omega << 0.3, 0.2, 0.1, -0.15, -0.4, -0.05;
    const ExactProblem p = makeProblem(25, omega, 42);
    PowerMethodOptions options;
    options.numComponents = 6;
    options.iterations = 100;
    options.seed = 9;
    const SymmetricLowRank low = truncatedSymmetricEigen(p.m2, 6);
    const PowerMethodResult fast = DensePowerMethod(low, p.m3).run(options);
    const PowerMethodResult reference = denseReferencePowerMethod(low, p.m3, options);
    // At tolerance 1e-10 the last steps' changes are at the rounding floor, so the step at which
    // a trial stops depends on rounding (it moved by 4 steps between -O3 and the sanitizer
    // build's -O2); the fixed point does not. Both stop early, at the tolerance.
    expectSameDecomposition(fast, reference, 1e-10, false);
    EXPECT_EQ(fast.converged, reference.converged);
    for (size_t t = 0; t < 6; ++t) {
        EXPECT_TRUE(fast.converged[t]) << t;
        EXPECT_LT(fast.iterations[t], options.iterations) << t;
        EXPECT_LT(reference.iterations[t], options.iterations) << t;
    }
}

TEST(TensorPowerMethod, DifferenceConstructorEqualsTheFormedDifference) {
    // What the topic engine does at contrast γ: M3f − γ·M3b without forming it.
    Rng rng(41);
    const Eigen::Index n = 20;
    const SymmetricTensor3 f = randomSymmetricTensor(n, 0.05, rng);
    const SymmetricTensor3 b = randomSymmetricTensor(n, 0.05, rng);
    const SymmetricLowRank low = truncatedSymmetricEigen(randomSymmetricMatrix(n, rng), 5);
    PowerMethodOptions options;
    options.numComponents = 5;
    options.iterations = 20;
    options.tolerance = 0;
    const double gamma = 2.3;
    const DensePowerMethod combined(low, f, -gamma, b);
    const DensePowerMethod formed(low, f.plusScaled(-gamma, b));
    const PowerMethodResult fast = combined.run(options);
    expectSameDecomposition(fast, formed.run(options), 1e-10, true);
    expectSameDecomposition(fast, denseReferencePowerMethod(low, f.plusScaled(-gamma, b), options),
                            1e-10, true);
    EXPECT_NEAR(combined.whitenedResidual(fast), formed.whitenedResidual(fast), 1e-12);
    const PowerMethodResult jc = combined.runJennrich(options);
    const PowerMethodResult jf = formed.runJennrich(options);
    EXPECT_LT((jc.lambdas - jf.lambdas).norm(), 1e-8 * jf.lambdas.norm());
}

TEST(TensorPowerMethod, BatchedRunIsThreadCountIndependent) {
    Rng rng(53);
    const Eigen::Index n = 64; // threaded contraction
    const SymmetricTensor3 m3 = randomSymmetricTensor(n, 0.02, rng);
    const SymmetricLowRank low = truncatedSymmetricEigen(randomSymmetricMatrix(n, rng), 12);
    PowerMethodOptions options;
    options.numComponents = 12;
    options.iterations = 30;
    const int saved = threadCount();
    setThreadCount(1);
    const PowerMethodResult one = DensePowerMethod(low, m3).run(options);
    setThreadCount(2);
    const PowerMethodResult two = DensePowerMethod(low, m3).run(options);
    setThreadCount(saved);
    EXPECT_EQ(one.components, two.components);
    EXPECT_EQ(one.lambdas, two.lambdas);
    EXPECT_EQ(one.iterations, two.iterations);
}

TEST(TensorPowerMethod, WhitenedResidualMatchesItsDefinition) {
    Rng rng(61);
    const Eigen::Index n = 15;
    const int k = 4;
    const SymmetricTensor3 m3 = randomSymmetricTensor(n, 0.1, rng);
    const SymmetricLowRank low = truncatedSymmetricEigen(randomSymmetricMatrix(n, rng), k);
    const DensePowerMethod method(low, m3);
    PowerMethodOptions options;
    options.numComponents = k;
    PowerMethodResult result = method.run(options);
    result.degenerate[1] = true; // left out of the sum
    // Brute force: T_w = T(W, W, W), W = V|Λ|^{-1/2}; z_t = Wᵀâ_t.
    Eigen::MatrixXd w = low.vectors;
    for (int h = 0; h < k; ++h) {
        w.col(h) /= std::sqrt(std::abs(low.values[h]));
    }
    const SymmetricTensor3 tw = m3.multilinear(w);
    SymmetricTensor3 residual = tw;
    for (int t = 0; t < k; ++t) {
        if (!result.degenerate[static_cast<size_t>(t)]) {
            residual.addRankOne(-std::abs(result.lambdas[t]),
                                Eigen::VectorXd(w.transpose() * result.components.col(t)));
        }
    }
    EXPECT_NEAR(method.whitenedResidual(result), residual.unfolded().norm() / tw.unfolded().norm(),
                1e-10);
}

} // namespace
} // namespace cx
