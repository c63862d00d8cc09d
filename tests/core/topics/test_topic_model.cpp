#include "core/common/error.h"
#include "core/tensor/linalg.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/synthetic_topics.h"
#include "core/topics/topic_evaluation.h"

#include "abc_spec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace cx {
namespace {

using test::abcSpec;

/// ℓ1 distances between each true topic of `set` and its Hungarian-matched recovered topic.
struct Matching {
    std::vector<int> assignment; // truth topic → recovered column
    Eigen::MatrixXd cost;
};

Matching matchTopics(const Eigen::MatrixXd& truth, const Eigen::MatrixXd& recovered) {
    Matching m;
    m.cost.resize(truth.cols(), recovered.cols());
    for (Eigen::Index i = 0; i < truth.cols(); ++i) {
        for (Eigen::Index j = 0; j < recovered.cols(); ++j) {
            m.cost(i, j) = (truth.col(i) - recovered.col(j)).lpNorm<1>();
        }
    }
    m.assignment = hungarianAssignment(m.cost);
    return m;
}

TEST(ContrastiveTopicModel, RecoversForegroundSpecificTopicsAboveBound) {
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(40000, 2024));
    const double bound = data.gammaBound(); // max_B w_f / w_b = 0.3/0.2
    ASSERT_NEAR(bound, 1.5, 1e-12);
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        7);
    TopicModelOptions options;
    options.numComponents = 7; // |A| + |B| + |C| components in M2f − γ·M2b
    options.seed = 5;
    options.iterations = 50;
    const TopicModelResult result = engine.solve(1.5 * bound, options);

    // No B or C topic may come back with positive weight: exactly |A| = 2 foreground-specific.
    EXPECT_EQ(result.numForegroundSpecific(), 2);
    const Matching m = matchTopics(data.topics, result.topics);
    for (int t = 0; t < 2; ++t) { // the A topics
        const int j = m.assignment[static_cast<size_t>(t)];
        EXPECT_TRUE(result.foregroundSpecific[static_cast<size_t>(j)]) << "A topic " << t;
        EXPECT_LT(m.cost(t, j), 0.1) << "A topic " << t << " l1 error";
        EXPECT_NEAR(result.weights[j], data.foregroundWeights[t], 0.03) << "A topic " << t;
    }
    for (int t = 2; t < 7; ++t) {
        const int j = m.assignment[static_cast<size_t>(t)];
        EXPECT_FALSE(result.foregroundSpecific[static_cast<size_t>(j)]) << "B/C topic " << t;
    }
    // Every topic column is a distribution.
    for (Eigen::Index j = 0; j < result.topics.cols(); ++j) {
        EXPECT_NEAR(result.topics.col(j).sum(), 1.0, 1e-12);
        EXPECT_GE(result.topics.col(j).minCoeff(), 0.0);
    }
}

TEST(ContrastiveTopicModel, GammaZeroRecoversAllForegroundTopics) {
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(30000, 77));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        5);
    TopicModelOptions options;
    options.numComponents = 5; // A ∪ B
    const TopicModelResult result = engine.solve(0.0, options);
    EXPECT_EQ(result.numForegroundSpecific(), 5);
    const Matching m = matchTopics(data.topics.leftCols(5), result.topics);
    for (int t = 0; t < 5; ++t) {
        const int j = m.assignment[static_cast<size_t>(t)];
        EXPECT_LT(m.cost(t, j), 0.1) << "topic " << t;
        EXPECT_NEAR(result.weights[j], data.foregroundWeights[t], 0.03) << "topic " << t;
    }
}

TEST(ContrastiveTopicModel, ProjectedEngineMatchesDirectMethod) {
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(8000, 31));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        7);
    TopicModelOptions options;
    options.numComponents = 7;
    options.seed = 3;
    options.iterations = 60;
    // γ = 1 would give a shared topic zero weight (0.25 − 0.25): avoid such rank drops.
    for (double gamma : {0.0, 0.5, 3.0}) {
        options.numComponents = gamma == 0.0 ? 5 : 7;
        const TopicModelResult projected = engine.solve(gamma, options);
        const TopicModelResult direct =
            solveContrastiveTopicsDirect(engine.foreground(), engine.background(), gamma, options);
        ASSERT_EQ(projected.numComponents(), direct.numComponents());
        EXPECT_EQ(projected.numForegroundSpecific(), direct.numForegroundSpecific()) << gamma;
        const Matching m = matchTopics(direct.topics, projected.topics);
        for (Eigen::Index t = 0; t < direct.topics.cols(); ++t) {
            const int j = m.assignment[static_cast<size_t>(t)];
            EXPECT_LT(m.cost(t, j), 0.05) << "gamma " << gamma << " component " << t;
            EXPECT_NEAR(projected.signedWeights[j], direct.signedWeights[t],
                        0.05 * std::abs(direct.signedWeights[t]) + 1e-3)
                << "gamma " << gamma << " component " << t;
        }
    }
}

// The range finder runs in single precision by default; the double-precision range (the
// engine before that change) must give the same topics and weights at every γ. Measured here:
// topics within 0.0002–0.0047 in ℓ1 (the same size as the change from another range-finder
// seed in double, 0.0003–0.0064), weights equal to 5 digits.
TEST(ContrastiveTopicModel, SinglePrecisionRangeGivesTheTopicsOfTheDoubleRange) {
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(8000, 37));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    ProjectionOptions doubleRange;
    doubleRange.singlePrecisionRange = false;
    const ContrastiveTopicEngine single(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        7);
    const ContrastiveTopicEngine reference(counts, data.foregroundDocuments,
                                           data.backgroundDocuments, 7, doubleRange);
    EXPECT_GT((single.basis() - reference.basis()).norm(), 0.0); // the two paths do differ
    TopicModelOptions options;
    options.numComponents = 7;
    options.seed = 3;
    options.decomposition = Decomposition::Pencil;
    for (double gamma : {0.0, 0.5, 2.0}) {
        options.numComponents = gamma == 0.0 ? 5 : 7;
        const TopicModelResult a = single.solve(gamma, options);
        const TopicModelResult b = reference.solve(gamma, options);
        ASSERT_EQ(a.numComponents(), b.numComponents()) << gamma;
        EXPECT_EQ(a.numForegroundSpecific(), b.numForegroundSpecific()) << gamma;
        for (Eigen::Index t = 0; t < a.topics.cols(); ++t) {
            EXPECT_LT((a.topics.col(t) - b.topics.col(t)).lpNorm<1>(), 0.01)
                << "gamma " << gamma << " component " << t;
            EXPECT_NEAR(a.signedWeights[t], b.signedWeights[t], 1e-3 * std::abs(b.signedWeights[t]))
                << "gamma " << gamma << " component " << t;
        }
    }
}

// The topic–word product in single precision against the double one, for every decomposition:
// the same decomposition (weights, λ, components bit for bit) and topics within float rounding.
TEST(ContrastiveTopicModel, SinglePrecisionTopicWordsGiveTheTopicsOfTheDoubleProduct) {
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(8000, 43));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        7);
    for (const Decomposition decomposition :
         {Decomposition::Power, Decomposition::Pencil, Decomposition::Jennrich}) {
        TopicModelOptions options;
        options.seed = 5;
        options.decomposition = decomposition;
        TopicModelOptions reference = options;
        reference.singlePrecisionTopicWords = false;
        for (double gamma : {0.0, 1.0, 3.0}) {
            options.numComponents = reference.numComponents = gamma == 0.0 ? 5 : 7;
            const TopicModelResult a = engine.solve(gamma, options);
            const TopicModelResult b = engine.solve(gamma, reference);
            ASSERT_EQ(a.numComponents(), b.numComponents()) << gamma;
            EXPECT_EQ(a.signedWeights, b.signedWeights) << gamma;
            EXPECT_EQ(a.lambdas, b.lambdas) << gamma;
            EXPECT_EQ(a.projectedComponents, b.projectedComponents) << gamma;
            EXPECT_EQ(a.residual, b.residual) << gamma;
            EXPECT_GT((a.topics - b.topics).norm(), 0.0) << gamma; // the products do differ
            for (Eigen::Index t = 0; t < a.topics.cols(); ++t) {
                EXPECT_LT((a.topics.col(t) - b.topics.col(t)).lpNorm<1>(), 1e-5)
                    << "gamma " << gamma << " component " << t;
                EXPECT_LT((a.topics.col(t) - b.topics.col(t)).cwiseAbs().maxCoeff(), 1e-6)
                    << "gamma " << gamma << " component " << t;
            }
        }
    }
}

TEST(ContrastiveTopicModel, JennrichAndPowerMethodAgreeOnASampledCorpus) {
    // Estimated (noisy) moments of the A/B/C corpus above the bound: both decompositions find
    // the two A topics as the only foreground-specific ones, with the same weights.
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(40000, 2024));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        7);
    TopicModelOptions options;
    options.numComponents = 7;
    options.seed = 5;
    options.iterations = 50;
    const TopicModelResult power = engine.solve(2.25, options);
    options.decomposition = Decomposition::Jennrich;
    const TopicModelResult jennrich = engine.solve(2.25, options);
    EXPECT_EQ(jennrich.numForegroundSpecific(), 2);
    EXPECT_EQ(power.numForegroundSpecific(), 2);
    const Matching m = matchTopics(data.topics, jennrich.topics);
    for (int t = 0; t < 2; ++t) {
        const int j = m.assignment[static_cast<size_t>(t)];
        EXPECT_TRUE(jennrich.foregroundSpecific[static_cast<size_t>(j)]) << "A topic " << t;
        EXPECT_LT(m.cost(t, j), 0.1) << "A topic " << t;
        EXPECT_NEAR(jennrich.weights[j], data.foregroundWeights[t], 0.03) << "A topic " << t;
    }
    EXPECT_FALSE(jennrich.warmStarted);
    // The direct method refuses it by name.
    EXPECT_THROW(
        solveContrastiveTopicsDirect(engine.foreground(), engine.background(), 2.25, options),
        InputError);
}

TEST(ContrastiveTopicModel, PencilFindsTheForegroundTopicsAtEveryGammaWithoutAPath) {
    // Estimated moments of the A/B/C corpus: above Prop. 1's bound (1.5) the pencil finds the
    // two A topics as the only foreground-specific ones, with their weights, at 2, 4 and 10
    // times the bound; it has no random starts and no warm start, so continuing from a
    // neighbour gives the same numbers as a fresh solve (a path and the slider agree).
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(40000, 2024));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        7);
    TopicModelOptions options;
    options.numComponents = 7;
    options.seed = 5;
    options.decomposition = Decomposition::Pencil;
    TopicModelResult previous = engine.solve(2.0, options);
    for (const double gamma : {3.0, 6.0, 15.0}) {
        const TopicModelResult fresh = engine.solve(gamma, options);
        const TopicModelResult continued = engine.solveFrom(gamma, options, previous);
        EXPECT_EQ(fresh.lambdas, continued.lambdas) << gamma;
        EXPECT_FALSE(continued.warmStarted);
        EXPECT_EQ(fresh.numForegroundSpecific(), 2) << "gamma " << gamma;
        const Matching m = matchTopics(data.topics, fresh.topics);
        for (int t = 0; t < 2; ++t) {
            const int j = m.assignment[static_cast<size_t>(t)];
            EXPECT_TRUE(fresh.foregroundSpecific[static_cast<size_t>(j)]) << gamma << " A " << t;
            EXPECT_LT(m.cost(t, j), 0.1) << gamma << " A topic " << t;
            EXPECT_NEAR(fresh.weights[j], data.foregroundWeights[t], 0.03) << gamma << " A " << t;
            EXPECT_EQ(fresh.iterations[static_cast<size_t>(j)], 0);
        }
        previous = continued;
    }
    // Another seed draws another direction η: the same topics (the decomposition does not
    // depend on η for exact moments, and little for estimated ones).
    options.seed = 6;
    const TopicModelResult other = engine.solve(3.0, options);
    const Matching m = matchTopics(data.topics, other.topics);
    for (int t = 0; t < 2; ++t) {
        EXPECT_LT(m.cost(t, m.assignment[static_cast<size_t>(t)]), 0.1) << "seed 6, A " << t;
    }
}

TEST(ContrastiveTopicModel, EffectiveRankCountsEigenvaluesAboveSplitHalfNoise) {
    // γ = 0: the foreground has |A| + |B| = 5 topics, so M2f has 5 eigenvalues well above the
    // sampling noise and the rest at the noise floor.
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(20000, 41));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        9);
    TopicModelOptions options;
    options.numComponents = 9;
    const TopicModelResult over = engine.solve(0.0, options);
    EXPECT_TRUE(std::isfinite(over.noiseLevel));
    EXPECT_GT(over.noiseLevel, 0.0);
    EXPECT_EQ(over.effectiveRank, 5);
    options.numComponents = 5;
    EXPECT_EQ(engine.solve(0.0, options).effectiveRank, 5);
    // Above Prop. 1's bound all |A| + |B| + |C| = 7 components carry signal.
    options.numComponents = 7;
    EXPECT_EQ(engine.solve(3.0, options).effectiveRank, 7);
}

TEST(ContrastiveTopicModel, RejectsImpossibleParameters) {
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(500, 1));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        5);
    TopicModelOptions options;
    options.numComponents = 5;
    EXPECT_THROW(engine.solve(-1.0, options), InputError);
    EXPECT_THROW(engine.solve(std::nan(""), options), InputError);
    EXPECT_THROW(engine.solve(INFINITY, options), InputError);
    options.numComponents = engine.rank() + 1;
    EXPECT_THROW(engine.solve(1.0, options), InputError);
    EXPECT_THROW(ContrastiveTopicEngine(counts, {}, data.backgroundDocuments, 5), InputError);
    EXPECT_THROW(ContrastiveTopicEngine(counts, data.foregroundDocuments, {}, 5), InputError);
    EXPECT_THROW(
        ContrastiveTopicEngine(counts, data.foregroundDocuments, data.backgroundDocuments, 301),
        InputError);
}

TEST(ContrastiveTopicModel, KAboveDataRankIsRejected) {
    // Three documents over a tiny vocabulary: M2 has rank ≤ 3 whatever K asks.
    SyntheticTopicSpec spec = abcSpec(2, 9);
    spec.vocabularySize = 12;
    spec.documentLength = 5;
    spec.lengthSpread = 0;
    const SyntheticTopicCorpus data = generateSyntheticTopics(spec);
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const DocumentMoments fg(*counts, {data.foregroundDocuments[0]});
    const DocumentMoments bg(*counts, {data.backgroundDocuments[0]});
    TopicModelOptions options;
    options.numComponents = 10;
    EXPECT_THROW(solveContrastiveTopicsDirect(fg, bg, 0.0, options), InputError);
}

TEST(ContrastiveTopicModel, SameSeedSameNumbers) {
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(2000, 12));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    TopicModelOptions options;
    options.numComponents = 6;
    const ContrastiveTopicEngine first(counts, data.foregroundDocuments, data.backgroundDocuments,
                                       6);
    const ContrastiveTopicEngine second(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        6);
    const auto a = first.solve(1.0, options);
    const auto b = second.solve(1.0, options);
    EXPECT_EQ(a.topics, b.topics);
    EXPECT_EQ(a.lambdas, b.lambdas);
}

TEST(TopicEvaluation, AucMatchesPairCounting) {
    Eigen::VectorXd scores(6);
    scores << 0.1, 0.4, 0.35, 0.8, 0.4, 0.2;
    const std::vector<bool> positive = {false, true, false, true, false, true};
    // Brute force: P(score_pos > score_neg) + ½ P(tie).
    double wins = 0;
    int pairs = 0;
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            if (positive[i] && !positive[j]) {
                wins += scores[i] > scores[j] ? 1.0 : (scores[i] == scores[j] ? 0.5 : 0.0);
                ++pairs;
            }
        }
    }
    EXPECT_NEAR(rocAuc(scores, positive), wins / pairs, 1e-15);
    EXPECT_TRUE(std::isnan(rocAuc(scores, std::vector<bool>(6, true))));
}

TEST(TopicEvaluation, SpecificityRisesWithContrast) {
    // Positives = foreground documents drawn from A topics; contrast should rank them higher.
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(20000, 99));
    auto counts = std::make_shared<const CountMatrix>(data.corpus.counts);
    const ContrastiveTopicEngine engine(counts, data.foregroundDocuments, data.backgroundDocuments,
                                        7);
    const int setField = data.corpus.labelFieldIndex("set");
    ASSERT_GE(setField, 0);
    const LabelField& set = data.corpus.labels[static_cast<size_t>(setField)];
    std::vector<bool> positive;
    for (std::int64_t doc : data.foregroundDocuments) {
        positive.push_back(
            set.values[static_cast<size_t>(
                set.valueIds[static_cast<size_t>(set.offsets[static_cast<size_t>(doc)])])] == "a");
    }
    TopicModelOptions options;
    options.numComponents = 7;
    const SpecificitySweep sweep = specificitySweep(engine, {0.0, 1.0, 3.0}, positive, options);
    ASSERT_EQ(sweep.points.size(), 3u);
    EXPECT_DOUBLE_EQ(sweep.points[0].relativeAuc, 1.0);
    EXPECT_GT(sweep.points[2].relativeAuc, 1.05);
    EXPECT_GT(sweep.points[2].auc, 0.9);
}

TEST(TopicEvaluation, LikelihoodPrefersGeneratingTopic) {
    const SyntheticTopicCorpus data = generateSyntheticTopics(abcSpec(200, 5));
    TopicModelResult model;
    model.topics = data.topics.leftCols(2);
    model.lambdas = Eigen::VectorXd::Ones(2);
    model.weights = Eigen::VectorXd::Constant(2, 0.5);
    model.foregroundSpecific = {true, true};
    const Eigen::VectorXd ll = perTokenLogLikelihood(data.corpus.counts, {0, 1, 2}, model, 1e-3);
    for (Eigen::Index i = 0; i < ll.size(); ++i) {
        EXPECT_TRUE(std::isfinite(ll[i]));
        EXPECT_LT(ll[i], 0.0);
    }
    model.foregroundSpecific = {false, false};
    EXPECT_TRUE(std::isnan(perTokenLogLikelihood(data.corpus.counts, {0}, model)[0]));
}

} // namespace
} // namespace cx
