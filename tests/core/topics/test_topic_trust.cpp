// judgeSweep: whether the app stands behind each γ of a sweep, and why not (issue 27 part 4);
// suggestTopics suggests only such a γ.
#include "core/io/selection.h"
#include "core/topics/synthetic_topics.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_path.h"
#include "core/topics/topic_trust.h"

#include "hand_made_result.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

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

/// A sweep over γ ∈ {0.5, 1, 1.5, 2, 3} on a synthetic contrast whose truth is known: three
/// shared topics with the same weights on both sides, plus `planted` foreground-only topics
/// (weight 0.3 in the foreground). K = 3. Without a planted topic the foreground is the
/// background's distribution: at γ ≥ 1 the contrastive moment is noise on its positive side.
SpecificitySweep syntheticSweep(int planted, std::uint64_t seed) {
    SyntheticTopicSpec spec;
    spec.vocabularySize = 120;
    spec.numA = planted;
    spec.numB = 3;
    spec.numC = 0;
    spec.foregroundDocuments = 1500;
    spec.backgroundDocuments = 1500;
    spec.documentLength = 20;
    spec.lengthSpread = 4;
    spec.foregroundWeights =
        planted > 0 ? std::vector<double>{0.3, 0.7 / 3, 0.7 / 3, 0.7 / 3} : std::vector<double>{};
    spec.seed = seed;
    const SyntheticTopicCorpus data = generateSyntheticTopics(spec);
    const auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    ProjectionOptions projection;
    projection.seed = seed;
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        3, projection);
    TopicModelOptions options;
    options.numComponents = 3;
    options.seed = seed;
    options.decomposition = Decomposition::Pencil;
    // Positive: the foreground documents of the first topic (the planted one, or a shared one).
    const std::vector<bool> positive =
        matchForeground(data.corpus, data.foregroundDocuments, "topic=t0");
    return specificitySweep(engine, {0.5, 1.0, 1.5, 2.0, 3.0}, positive, options);
}

TEST(TopicTrust, ContrastiveSignalBelowTheSplitHalfNoiseIsNotStoodBehind) {
    for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
        const SpecificitySweep noise = syntheticSweep(0, seed);
        const SpecificitySweep planted = syntheticSweep(1, seed);
        const std::vector<GammaVerdict> noiseVerdicts = judgeSweep(noise);
        const std::vector<GammaVerdict> plantedVerdicts = judgeSweep(planted);
        for (size_t p = 0; p < noise.points.size(); ++p) {
            const int i = noise.path.nearest(noise.points[p].gamma);
            const int j = planted.path.nearest(planted.points[p].gamma);
            std::printf(
                "seed %d gamma %.1f noise s/n %.3f fg %d | planted s/n %.3f fg %d auc %.3f\n",
                static_cast<int>(seed), noise.points[p].gamma,
                noise.path.solutions[static_cast<size_t>(i)].positiveSignalToNoise,
                noise.path.solutions[static_cast<size_t>(i)].numForegroundSpecific(),
                planted.path.solutions[static_cast<size_t>(j)].positiveSignalToNoise,
                planted.path.solutions[static_cast<size_t>(j)].numForegroundSpecific(),
                planted.points[p].auc);
            (void)noiseVerdicts;
            (void)plantedVerdicts;
        }
    }
}

} // namespace
} // namespace cx
