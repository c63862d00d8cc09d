// DensePowerMethod::run with single-precision steps (PowerMethodOptions::singlePrecisionSteps)
// against the plain double-precision run: the same fixed points, the same numbers for any thread
// count.
#include "core/common/cancel.h"
#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/tensor/linalg.h"
#include "core/tensor/symmetric_tensor.h"
#include "core/tensor/tensor_power_method.h"
#include "structured_problem.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace cx {
namespace {

double relativeDifference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return (a - b).norm() / std::max(1.0, b.norm());
}

TEST(PowerMethodFastSteps, SinglePrecisionStepsReachTheFixedPointsOfDoubleSteps) {
    // Every component an attractor: each trial converges, and the single-precision steps that
    // bring it near its fixed point change neither the fixed point nor which trial is kept.
    Rng rng(61);
    for (int round = 0; round < 5; ++round) {
        const int k = round < 4 ? 3 + 2 * round : 18; // 18: the trials in two groups
        const Eigen::Index n = k + 6 + 3 * round;
        const test::StructuredProblem p = test::randomStructuredProblem(n, k, 1e-3, rng);
        const DensePowerMethod method(truncatedSymmetricEigen(p.m2, k), p.m3);
        PowerMethodOptions options;
        options.numComponents = k;
        options.seed = 5 + static_cast<std::uint64_t>(round);
        options.iterations = 300;
        const PowerMethodResult plain = method.run(options);
        options.singlePrecisionSteps = true;
        const PowerMethodResult fast = method.run(options);
        for (int t = 0; t < k; ++t) {
            ASSERT_TRUE(plain.converged[static_cast<size_t>(t)]) << round << " " << t;
        }
        EXPECT_EQ(fast.converged, plain.converged) << round;
        EXPECT_LT(relativeDifference(fast.components, plain.components), 1e-8) << round;
        EXPECT_LT(relativeDifference(fast.lambdas, plain.lambdas), 1e-8) << round;
    }
}

TEST(PowerMethodFastSteps, SameNumbersForTheSameSeedAndAnyThreadCount) {
    Rng rng(67);
    const test::StructuredProblem p = test::randomStructuredProblem(30, 6, 0.05, rng);
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 20), p.m3);
    PowerMethodOptions options;
    options.numComponents = 20; // noise components too; the trials in two groups
    options.seed = 11;
    options.iterations = 100;
    options.singlePrecisionSteps = true;
    const int saved = threadCount();
    setThreadCount(1);
    const PowerMethodResult one = method.run(options);
    setThreadCount(2);
    const PowerMethodResult two = method.run(options);
    const PowerMethodResult again = method.run(options);
    setThreadCount(saved);
    EXPECT_EQ(one.components, two.components);
    EXPECT_EQ(one.lambdas, two.lambdas);
    EXPECT_EQ(one.iterations, two.iterations);
    EXPECT_EQ(two.components, again.components);
    EXPECT_EQ(two.iterations, again.iterations);
}

// A run whose trials go on in two groups (the second on the helper thread) and is cancelled
// from another thread while they step: Cancelled, with both groups stopped (the helper's group
// writes into the run's frame, so the run may not unwind before it ends — ASan would see it).
TEST(PowerMethodFastSteps, ACancelledRunStopsBothTrialGroups) {
    Rng rng(71);
    const test::StructuredProblem p = test::randomStructuredProblem(40, 6, 0.05, rng);
    const DensePowerMethod method(truncatedSymmetricEigen(p.m2, 24), p.m3);
    PowerMethodOptions options;
    options.numComponents = 24;
    options.iterations = 100000; // the noise components' trials would step for seconds
    options.tolerance = 0;
    options.singlePrecisionSteps = true;
    const int saved = threadCount();
    setThreadCount(2);
    const CancelToken token = CancelToken::create();
    std::thread canceller([token] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        token.cancel();
    });
    EXPECT_THROW(method.run(options, token), Cancelled);
    canceller.join();
    setThreadCount(saved);
}

} // namespace
} // namespace cx
