#include "core/topics/contrastive_topic_model.h"
#include "core/topics/synthetic_topics.h"
#include "core/topics/topic_admissibility.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"
#include "core/topics/topic_path.h"

#include "abc_spec.h"
#include "hand_made_result.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

namespace cx {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TopicModelResult handMade(double gamma, const std::vector<double>& signedWeights) {
    return test::handMadeResult(gamma, signedWeights);
}

TEST(TopicAdmissibility, ClosedIntervalFromMinusGammaToOne) {
    EXPECT_EQ(weightAdmissibility(1.0, 2.0), Admissibility::Admissible);
    EXPECT_EQ(weightAdmissibility(std::nextafter(1.0, 2.0), 2.0), Admissibility::AboveOne);
    EXPECT_EQ(weightAdmissibility(2.5, 2.0), Admissibility::AboveOne); // a blend, whatever γ
    EXPECT_EQ(weightAdmissibility(0.3, 2.0), Admissibility::Admissible);
    EXPECT_EQ(weightAdmissibility(0.0, 2.0), Admissibility::Admissible);
    // Negative side: a background topic weighs at least −γ.
    EXPECT_EQ(weightAdmissibility(-2.0, 2.0), Admissibility::Admissible);
    EXPECT_EQ(weightAdmissibility(std::nextafter(-2.0, -3.0), 2.0), Admissibility::BelowMinusGamma);
    EXPECT_EQ(weightAdmissibility(-1.5, 1.0), Admissibility::BelowMinusGamma);
    EXPECT_EQ(weightAdmissibility(-7.0, 8.0), Admissibility::Admissible);
    // The upper bound does not grow with γ (unlike the decomposition's |ω| ≤ 2·max(1, γ)).
    EXPECT_EQ(weightAdmissibility(1.5, 8.0), Admissibility::AboveOne);
    EXPECT_EQ(weightAdmissibility(kNaN, 1.0), Admissibility::NotFinite);
    EXPECT_EQ(weightAdmissibility(INFINITY, 1.0), Admissibility::NotFinite);
}

TEST(TopicAdmissibility, AtGammaZeroEveryNegativeWeightIsInadmissible) {
    EXPECT_EQ(weightAdmissibility(0.0, 0.0), Admissibility::Admissible);
    EXPECT_EQ(weightAdmissibility(1.0, 0.0), Admissibility::Admissible);
    EXPECT_EQ(weightAdmissibility(-1e-12, 0.0), Admissibility::BelowMinusGamma);
    EXPECT_EQ(weightAdmissibility(-0.05, 0.0), Admissibility::BelowMinusGamma);
}

TEST(TopicAdmissibility, BadGammaThrows) {
    EXPECT_THROW(weightAdmissibility(0.5, -0.1), std::invalid_argument);
    EXPECT_THROW(weightAdmissibility(0.5, kNaN), std::invalid_argument);
    EXPECT_THROW(weightAdmissibility(0.5, INFINITY, 0.1, 0.2), std::invalid_argument);
}

TEST(TopicAdmissibility, BandNeverClearsAnEstimateOutside) {
    // Point above 1 and the band reaches into [−γ, 1]: still no topic (Prop. 1 is about the
    // component shown).
    EXPECT_EQ(weightAdmissibility(1.3, 2.0, 0.8, 1.6), Admissibility::AboveOne);
    EXPECT_EQ(weightAdmissibility(1.3, 2.0, 1.0, 1.6), Admissibility::AboveOne);
    // The whole band above 1.
    EXPECT_EQ(weightAdmissibility(1.3, 2.0, std::nextafter(1.0, 2.0), 1.6),
              Admissibility::AboveOne);
    EXPECT_EQ(weightAdmissibility(3.0, 2.0, 2.1, 4.2), Admissibility::AboveOne);
    // Negative side, and a reversed band read as [min, max].
    EXPECT_EQ(weightAdmissibility(-2.5, 2.0, -3.0, -1.9), Admissibility::BelowMinusGamma);
    EXPECT_EQ(weightAdmissibility(-1.5, 2.0, -2.1, -3.0), Admissibility::BelowMinusGamma);
    EXPECT_EQ(weightAdmissibility(-1.5, 2.0, -1.9, -1.2), Admissibility::Admissible);
    // A band wholly outside flags even when the point estimate sits inside.
    EXPECT_EQ(weightAdmissibility(0.9, 2.0, 1.1, 1.4), Admissibility::AboveOne);
    EXPECT_EQ(weightAdmissibility(0.9, 2.0, 0.7, 1.4), Admissibility::Admissible);
    // Without a band (NaN end) the point rule decides.
    EXPECT_EQ(weightAdmissibility(1.3, 2.0, kNaN, 1.6), Admissibility::AboveOne);
    EXPECT_EQ(weightAdmissibility(0.3, 2.0, kNaN, kNaN), Admissibility::Admissible);
}

TEST(TopicAdmissibility, ReasonsNameTheBound) {
    EXPECT_EQ(admissibilityReason(Admissibility::Admissible, 0.3, 1.0), "");
    EXPECT_EQ(admissibilityReason(Admissibility::AboveOne, 2.31, 1.0), "ω = 2.31 > 1");
    EXPECT_EQ(admissibilityReason(Admissibility::BelowMinusGamma, -3.2, 2.0), "ω = -3.2 < −γ = -2");
    EXPECT_EQ(admissibilityReason(Admissibility::NotFinite, kNaN, 1.0), "ω is not finite");
    // The console's ASCII form.
    EXPECT_EQ(admissibilityReason(Admissibility::Admissible, 0.3, 1.0, true), "");
    EXPECT_EQ(admissibilityReason(Admissibility::AboveOne, 2.31, 1.0, true), "weight 2.31 > 1");
    EXPECT_EQ(admissibilityReason(Admissibility::BelowMinusGamma, -3.2, 2.0, true),
              "weight -3.2 < -gamma = -2");
    EXPECT_EQ(admissibilityReason(Admissibility::NotFinite, kNaN, 1.0, true), "weight not finite");
}

TEST(TopicAdmissibility, CountsPerResultAndNoAdmissibleForeground) {
    const TopicModelResult r = handMade(2.0, {2.7, 0.4, -0.5, -2.5});
    const ComponentAdmissibility a = checkComponents(r);
    ASSERT_EQ(a.verdicts.size(), 4u);
    EXPECT_FALSE(a.admissible(0));
    EXPECT_TRUE(a.admissible(1));
    EXPECT_TRUE(a.admissible(2));
    EXPECT_FALSE(a.admissible(3));
    EXPECT_EQ(a.inadmissible, 2);
    EXPECT_EQ(a.inadmissibleForeground, 1);
    EXPECT_EQ(a.admissibleForeground, 1);
    EXPECT_FALSE(a.noAdmissibleForeground());

    const ComponentAdmissibility only = checkComponents(handMade(3.0, {2.2, 1.5, -0.4}));
    EXPECT_EQ(only.admissibleForeground, 0);
    EXPECT_EQ(only.inadmissibleForeground, 2);
    EXPECT_TRUE(only.noAdmissibleForeground());
    // No foreground-specific component at all is a different situation (nothing to present).
    EXPECT_FALSE(checkComponents(handMade(3.0, {-0.2, -0.4})).noAdmissibleForeground());
    EXPECT_EQ(checkComponents(TopicModelResult{}).inadmissible, 0);

    // Bands per component: the first one's band reaches below 1 (still flagged); the second's
    // lies wholly above 1 (flagged although ω = 0.4).
    const ComponentAdmissibility banded =
        checkComponents(r, {0.9, 1.2, kNaN, -2.6}, {3.1, 1.5, kNaN, -2.4});
    EXPECT_FALSE(banded.admissible(0));
    EXPECT_FALSE(banded.admissible(1));
    EXPECT_FALSE(banded.admissible(3));
    EXPECT_EQ(banded.inadmissible, 3);
    EXPECT_THROW(checkComponents(r, {0.1}, {0.2}), std::invalid_argument);
}

TEST(TopicAdmissibility, PathPointsUseTheBootstrapBandsOfTheirPath) {
    TopicPath path;
    path.gammas = {0.0, 1.0, 2.0};
    path.solutions = {handMade(0.0, {0.6, -0.1}), handMade(1.0, {1.4, -0.6}),
                      handMade(2.0, {2.5, -2.4})};
    path.ids = {{0, 1}, {0, 1}, {0, 1}};
    path.failures = {"", "", ""};
    path.numIdentities = 2;
    EXPECT_EQ(checkPathPoint(path, 0).inadmissible, 1); // ω < 0 at γ = 0
    EXPECT_EQ(checkPathPoint(path, 1).inadmissible, 1);
    EXPECT_EQ(checkPathPoint(path, 2).inadmissible, 2);
    EXPECT_THROW(checkPathPoint(path, 3), std::invalid_argument);

    PathBootstrap bands;
    bands.replicates = 10;
    bands.gammas = path.gammas;
    bands.weightLo = {{0.5, -0.2}, {0.95, -0.7}, {2.1, -2.45}};
    bands.weightHi = {{0.7, 0.05}, {1.8, -0.5}, {2.9, -2.41}};
    bands.stability = {{1.0, 0.9}, {0.4, 0.8}, {0.2, 0.3}};
    // A band reaching into [−γ, 1] keeps the point's flag.
    EXPECT_EQ(checkPathPoint(path, 0, &bands).inadmissible, 1);
    EXPECT_EQ(checkPathPoint(path, 1, &bands).inadmissible, 1);
    const ComponentAdmissibility last = checkPathPoint(path, 2, &bands);
    EXPECT_EQ(last.inadmissible, 2);
    EXPECT_TRUE(last.noAdmissibleForeground());
    // A bootstrap of another grid does not apply.
    PathBootstrap other = bands;
    other.gammas = {0.0, 1.0, 2.5};
    EXPECT_EQ(checkPathPoint(path, 1, &other).inadmissible, 1);

    // The slider's solution at a grid γ, components in another order: matched by topic.
    TopicModelResult live = path.solutions[1];
    live.topics.col(0).swap(live.topics.col(1));
    std::swap(live.signedWeights[0], live.signedWeights[1]);
    std::vector<double> lo, hi;
    std::vector<double> stability;
    bandsOnPath(path, bands, live, lo, hi, &stability);
    ASSERT_EQ(lo.size(), 2u);
    EXPECT_DOUBLE_EQ(lo[0], -0.7);
    EXPECT_DOUBLE_EQ(hi[1], 1.8);
    ASSERT_EQ(stability.size(), 2u);
    EXPECT_DOUBLE_EQ(stability[0], 0.8);
    EXPECT_DOUBLE_EQ(stability[1], 0.4);
    EXPECT_EQ(checkComponents(live, lo, hi).inadmissible, 1);
    // Off the grid: no band.
    live.gamma = 1.5;
    bandsOnPath(path, bands, live, lo, hi);
    EXPECT_TRUE(std::isnan(lo[0]) && std::isnan(hi[1]));
}

TEST(TopicAdmissibility, TrueTopicsOfASyntheticCorpusAreAdmissible) {
    // A/B/C corpus with K = the true number of components: every recovered weight estimates a
    // true ω ∈ [−γ, 1], so none is flagged — at γ = 0, below and above Prop. 1's bound (1.5).
    const SyntheticTopicCorpus data = generateSyntheticTopics(test::abcSpec(4000, 77));
    const auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        7);
    TopicModelOptions options;
    options.decomposition = Decomposition::Pencil;
    for (double gamma : {0.5, 3.0}) {
        options.numComponents = 7;
        const TopicModelResult r = engine.solve(gamma, options);
        const ComponentAdmissibility a = checkComponents(r);
        EXPECT_EQ(a.inadmissible, 0) << "gamma " << gamma;
        EXPECT_GT(a.admissibleForeground, 0) << "gamma " << gamma;
    }
    options.numComponents = 5; // the foreground alone has 5 topics
    const ComponentAdmissibility atZero = checkComponents(engine.solve(0.0, options));
    EXPECT_EQ(atZero.inadmissible, 0);
    EXPECT_EQ(atZero.admissibleForeground, 5);

    // The sweep's per-point count is the point rule's.
    std::vector<bool> positive(data.foregroundDocuments.size(), false);
    for (size_t i = 0; i < positive.size(); i += 2) {
        positive[i] = true;
    }
    options.numComponents = 7;
    const SpecificitySweep sweep = specificitySweep(engine, {0.5, 2.0}, positive, options);
    for (size_t p = 0; p < sweep.points.size(); ++p) {
        const int i = sweep.path.nearest(sweep.points[p].gamma);
        EXPECT_EQ(sweep.points[p].numInadmissible, checkPathPoint(sweep.path, i).inadmissible);
    }
}

} // namespace
} // namespace cx
