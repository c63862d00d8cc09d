// judgeSweep: whether the app stands behind each γ of a sweep, and why not (issue 27 part 4);
// suggestTopics suggests only such a γ.
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_path.h"
#include "core/topics/topic_trust.h"

#include "hand_made_result.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace cx {
namespace {

TopicModelResult weighted(double gamma, const std::vector<double>& signedWeights) {
    return test::handMadeResult(gamma, signedWeights);
}

/// Four grid points: 0 fine, 1 with an inadmissible foreground topic (and the best AUC), 2 with
/// an inadmissible *background* component only (trusted), 3 without an AUC.
SpecificitySweep sampleSweep() {
    SpecificitySweep sweep;
    sweep.path.gammas = {0.0, 1.0, 2.0, 3.0};
    sweep.path.solutions = {weighted(0.0, {0.6, 0.3}), weighted(1.0, {2.4, -0.6}),
                            weighted(2.0, {0.5, -2.5}), weighted(3.0, {0.5, -0.2})};
    sweep.path.ids = {{0, 1}, {0, 1}, {0, 1}, {0, 1}};
    sweep.path.failures = {"", "", "", ""};
    sweep.path.numIdentities = 2;
    const double aucs[] = {0.70, 0.95, 0.80, std::numeric_limits<double>::quiet_NaN()};
    for (int i = 0; i < 4; ++i) {
        SpecificityPoint p;
        p.gamma = sweep.path.gammas[static_cast<size_t>(i)];
        p.auc = aucs[i];
        p.numForegroundSpecific = 1;
        sweep.points.push_back(p);
    }
    sweep.points[3].failure = "no foreground-specific topic";
    return sweep;
}

TEST(TopicTrust, ReasonsForEveryGammaTheAppDoesNotStandBehind) {
    const SpecificitySweep sweep = sampleSweep();
    const std::vector<GammaVerdict> verdicts = judgeSweep(sweep);
    ASSERT_EQ(verdicts.size(), 4u);
    EXPECT_TRUE(verdicts[0].trusted);
    EXPECT_EQ(verdicts[0].reason, "");
    EXPECT_FALSE(verdicts[1].trusted);
    EXPECT_EQ(verdicts[1].reason, "inadmissible foreground-specific component T1 (weight 2.4 > 1)");
    // A background component outside [−γ, 1] does not make the foreground topics untrustworthy.
    EXPECT_TRUE(verdicts[2].trusted);
    EXPECT_FALSE(verdicts[3].trusted);
    EXPECT_EQ(verdicts[3].reason, "no foreground-specific topic");

    // The best AUC (0.95 at γ = 1) is not suggested: the best γ the app stands behind is.
    const TopicSuggestions suggestions = suggestTopics(sweep, nullptr, 5);
    EXPECT_DOUBLE_EQ(suggestions.bestGamma, 2.0);
    EXPECT_EQ(suggestions.nearBest, std::vector<double>{2.0});
}

TEST(TopicTrust, BootstrapAddsInstability) {
    const SpecificitySweep sweep = sampleSweep();
    PathBootstrap bootstrap;
    bootstrap.replicates = 20;
    bootstrap.gammas = sweep.path.gammas;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    bootstrap.weightLo = {{0.5, nan}, {1.8, nan}, {0.4, nan}, {0.4, nan}};
    bootstrap.weightHi = {{0.7, nan}, {2.9, nan}, {0.6, nan}, {0.6, nan}};
    bootstrap.stability = {{1.0, 1.0}, {0.9, 1.0}, {0.35, 1.0}, {1.0, 1.0}};
    const std::vector<GammaVerdict> verdicts = judgeSweep(sweep, &bootstrap);
    EXPECT_TRUE(verdicts[0].trusted);
    EXPECT_FALSE(verdicts[1].trusted);
    EXPECT_FALSE(verdicts[2].trusted);
    EXPECT_EQ(verdicts[2].reason, "unstable under bootstrap: T1 reappears in 35 % of 20 resamples");
    // Nothing better than γ = 0 is left.
    EXPECT_DOUBLE_EQ(suggestTopics(sweep, &bootstrap, 5).bestGamma, 0.0);
    // A bootstrap of another grid is ignored.
    bootstrap.gammas = {0.0, 1.0};
    EXPECT_TRUE(judgeSweep(sweep, &bootstrap)[2].trusted);
    // Nothing trusted with an AUC: no suggestion.
    SpecificitySweep none = sampleSweep();
    none.points[0].failure = "K above the rank";
    none.points[2].failure = "K above the rank";
    EXPECT_TRUE(std::isnan(suggestTopics(none, nullptr, 5).bestGamma));
}

} // namespace
} // namespace cx
