// How many states: ChromHMM's CompareModels on hand-made emissions, the
// suggestion rule on hand-made residuals, and the whole K range on data sampled from an HMM of
// known K.
#include "core/common/error.h"
#include "core/hmm/state_count.h"
#include "core/hmm/synthetic_hmm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace cx {
namespace {

TEST(StateCount, CompareModelsIsTheBestPearsonCorrelationPerReferenceState) {
    // A = (1,0,0), B = (0,1,0) against o1 = (.5,.5,0) and o2 = (0,0,1): by hand, corr(A, o1) =
    // corr(B, o1) = (1/6) / (√6/3 · √6/6) = 0.5 and corr(A, o2) = corr(B, o2) = −0.5.
    Eigen::MatrixXd reference(2, 3);
    reference << 1, 0, 0, 0, 1, 0;
    Eigen::MatrixXd other(2, 3);
    other << 0.5, 0.5, 0, 0, 0, 1;
    const Eigen::VectorXd match = compareModels(reference, other);
    ASSERT_EQ(match.size(), 2);
    EXPECT_NEAR(match[0], 0.5, 1e-15);
    EXPECT_NEAR(match[1], 0.5, 1e-15);
    // An affine copy of a state matches it exactly; a constant state matches nothing.
    Eigen::MatrixXd copy(2, 3);
    copy << 0.2, 0.8, 0.2, 0.3, 0.3, 0.3;
    const Eigen::VectorXd exact = compareModels(reference, copy);
    EXPECT_NEAR(exact[1], 1.0, 1e-15);
    EXPECT_EQ(exact[0], 0.0); // (1,0,0) vs (.2,.8,.2): −0.5; vs the constant: 0
    // …but a constant state matches an identical one (a model compared with itself).
    const Eigen::VectorXd self = compareModels(copy, copy);
    EXPECT_EQ(self[0], 1.0);
    EXPECT_EQ(self[1], 1.0); // before: 0, and K's largest model did not match itself
    EXPECT_EQ(compareModels(copy.bottomRows(1), reference)[0], 0.0);
    EXPECT_THROW(compareModels(reference, Eigen::MatrixXd::Ones(2, 4)), std::invalid_argument);
}

TEST(StateCount, SuggestsTheSmallestKWithinTheNoiseOfTheBestResidual) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(suggestStateCount({2, 3, 4, 5}, {1.0, 0.5, 0.11, 0.10}, 0.02), 4);
    EXPECT_EQ(suggestStateCount({2, 3, 4, 5}, {1.0, 0.5, 0.11, 0.10}, 0.5), 3);
    EXPECT_EQ(suggestStateCount({2, 3, 4, 5}, {1.0, 0.5, 0.11, 0.10}, 0.0), 5);
    EXPECT_EQ(suggestStateCount({2, 3, 4, 5}, {nan, 0.5, 0.11, nan}, 0.02), 4);
    EXPECT_EQ(suggestStateCount({2, 3}, {nan, nan}, 0.02), 0);
    EXPECT_THROW(suggestStateCount({2, 3}, {0.1}, 0.02), std::invalid_argument);
}

TEST(StateCount, SuggestsTheTrueKOfSampledData) {
    // Four well separated states over six marks; 60,000 bins, half held out.
    const HmmParameters truth = randomSyntheticHmm(4, 6, 7, 0.9);
    const ChromatinData data = sampleChromatinData(truth, {30000, 30000}, 3);
    StateCountOptions options;
    options.minStates = 2;
    options.maxStates = 6;
    const StateCountResult result = chooseStateCount(data, options);
    ASSERT_EQ(result.fits.size(), 5u);
    for (const StateCountFit& fit : result.fits) {
        EXPECT_TRUE(fit.isFitted()) << "K = " << fit.numStates << ": " << fit.problem;
    }
    EXPECT_EQ(result.suggestedStates, 4) << "noise " << result.noiseLevel;
    EXPECT_EQ(result.largestStates, 6);
    EXPECT_GT(result.trainingBins, 25000);
    EXPECT_GT(result.heldOutBins, 25000);
    // Too few states leave the held-out moments unexplained; the true K reaches the noise.
    EXPECT_GT(result.fits[0].heldOutResidual, 5 * result.noiseLevel);
    EXPECT_LT(result.fits[2].heldOutResidual, 3 * result.noiseLevel);
    // More states never lower the training likelihood by much (nested models up to noise).
    EXPECT_GT(result.fits[2].logLikelihood, result.fits[0].logLikelihood);
    // CompareModels against K = 6: the largest model matches itself exactly.
    // (The solve keeps the components of positive weight: K = 6 may have fewer states.)
    const Eigen::Index largest = result.fits[4].markProbabilities.rows();
    ASSERT_EQ(result.fits[4].largestMatch.size(), largest);
    EXPECT_NEAR(result.fits[4].largestMatch.minCoeff(), 1.0, 1e-12);
    ASSERT_EQ(result.fits[2].largestMatch.size(), largest);
    EXPECT_GT(result.fits[2].largestMatch.mean(), result.fits[0].largestMatch.mean());
}

TEST(StateCount, BadRangesAndTooSmallDataAreRefused) {
    const HmmParameters truth = randomSyntheticHmm(2, 3, 1, 0.8);
    const ChromatinData data = sampleChromatinData(truth, {3000}, 1);
    StateCountOptions options;
    options.minStates = 5;
    options.maxStates = 3;
    EXPECT_THROW(chooseStateCount(data, options), std::invalid_argument);
    // K above the moment rank (3 marks + 1) is reported, not fitted.
    options.minStates = 2;
    options.maxStates = 5;
    const StateCountResult result = chooseStateCount(data, options);
    ASSERT_EQ(result.fits.size(), 4u);
    EXPECT_FALSE(result.fits[3].isFitted());
    EXPECT_NE(result.fits[3].problem.find("exceeds the moment rank 4"), std::string::npos)
        << result.fits[3].problem;
    EXPECT_EQ(result.largestStates, 4);
    // One block only: nothing held out.
    options.blockBins = 5000;
    EXPECT_THROW(chooseStateCount(data, options), InputError);
}

} // namespace
} // namespace cx
