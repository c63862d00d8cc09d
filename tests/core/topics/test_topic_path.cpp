#include "core/common/error.h"
#include "core/tensor/linalg.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/synthetic_topics.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"
#include "core/topics/topic_path.h"

#include "abc_spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace cx {
namespace {

using test::abcSpec;

struct Fixture {
    SyntheticTopicCorpus data;
    std::shared_ptr<const CountMatrix> counts;
    std::unique_ptr<ContrastiveTopicEngine> engine;
    std::vector<bool> positive; // foreground documents drawn from an A topic
};

Fixture makeFixture(std::int64_t documentsPerSide, std::uint64_t seed, int maxK) {
    Fixture f;
    f.data = generateSyntheticTopics(abcSpec(documentsPerSide, seed));
    f.counts = std::make_shared<const CountMatrix>(f.data.corpus.counts);
    f.engine = std::make_unique<ContrastiveTopicEngine>(f.counts, f.data.foregroundDocuments,
                                                        f.data.backgroundDocuments, maxK);
    const int setField = f.data.corpus.labelFieldIndex("set");
    const LabelField& set = f.data.corpus.labels[static_cast<size_t>(setField)];
    for (std::int64_t doc : f.data.foregroundDocuments) {
        const auto value = set.valueIds[static_cast<size_t>(set.offsets[static_cast<size_t>(doc)])];
        f.positive.push_back(set.values[static_cast<size_t>(value)] == "a");
    }
    return f;
}

/// Smallest ℓ1 distance from true topic `t` to a foreground-specific recovered topic.
double bestForegroundMatch(const Fixture& f, const TopicModelResult& r, int t) {
    double best = INFINITY;
    for (int j = 0; j < r.numComponents(); ++j) {
        if (r.foregroundSpecific[static_cast<size_t>(j)]) {
            best = std::min(best, (f.data.topics.col(t) - r.topics.col(j)).lpNorm<1>());
        }
    }
    return best;
}

TEST(KeptDirections, PositiveFirstOrderAndNoiseThreshold) {
    // Eigenvalues 5, −9, 0.5 (a positive direction below its noise), −20, 1 on e_0..e_4;
    // noise acts on e_2 only (‖N e_2‖ = 0.4 > 0.5/2) and a little on e_4 (0.1 < 1/2).
    Eigen::MatrixXd m2 = Eigen::MatrixXd::Zero(5, 5);
    m2.diagonal() << 5, -9, 0.5, -20, 1;
    Eigen::MatrixXd noise = Eigen::MatrixXd::Zero(5, 5);
    noise(2, 2) = 0.4;
    noise(4, 4) = 0.1;
    const KeptDirections positive = selectKeptDirections(m2, noise, 3, KeptOrder::PositiveFirst);
    EXPECT_EQ(positive.significant, 4);
    EXPECT_EQ(positive.significantPositive, 2);
    ASSERT_EQ(positive.low.values.size(), 3);
    EXPECT_DOUBLE_EQ(positive.low.values[0], 5);
    EXPECT_DOUBLE_EQ(positive.low.values[1], 1);
    EXPECT_DOUBLE_EQ(positive.low.values[2], -20);
    EXPECT_NEAR(positive.noise[1], 0.1, 1e-12);
    const KeptDirections magnitude = selectKeptDirections(m2, noise, 3, KeptOrder::ByMagnitude);
    EXPECT_DOUBLE_EQ(magnitude.low.values[0], -20);
    EXPECT_DOUBLE_EQ(magnitude.low.values[1], -9);
    EXPECT_DOUBLE_EQ(magnitude.low.values[2], 5);
    // No noise estimate: Alg. 2's truncation by magnitude, nothing counted significant.
    const KeptDirections literal = selectKeptDirections(m2, Eigen::MatrixXd(), 3);
    EXPECT_EQ(literal.significant, 0);
    EXPECT_DOUBLE_EQ(literal.low.values[0], -20);
    EXPECT_THROW(selectKeptDirections(m2, noise, 6), std::invalid_argument);
}

TEST(KeptDirections, ForegroundTopicsSurviveFarAboveTheBound) {
    // K = 5 < |A| + |B| + |C| = 7: the rank-K truncation by |eigenvalue| keeps the B and C
    // directions, whose eigenvalues grow with γ, and drops both A topics at every γ above the
    // bound. The A directions stay above their noise level, so they must be kept.
    const Fixture f = makeFixture(5000, 2024, 7);
    TopicModelOptions options;
    options.numComponents = 5;
    options.seed = 5;
    for (double gamma : {3.0, 15.0, 50.0}) { // 2×, 10×, 33× Prop. 1's bound
        const TopicModelResult r = f.engine->solve(gamma, options);
        EXPECT_EQ(r.numForegroundSpecific(), 2) << "gamma " << gamma;
        EXPECT_GE(r.significantPositive, 2) << "gamma " << gamma;
        for (int t = 0; t < 2; ++t) {
            EXPECT_LT(bestForegroundMatch(f, r, t), 0.1)
                << "A topic " << t << " at gamma " << gamma;
        }
        for (int t = 2; t < 7; ++t) { // no B or C topic is foreground-specific
            for (int j = 0; j < r.numComponents(); ++j) {
                if (r.foregroundSpecific[static_cast<size_t>(j)]) {
                    EXPECT_GT((f.data.topics.col(t) - r.topics.col(j)).lpNorm<1>(), 0.5);
                }
            }
        }
    }
}

TEST(TopicPath, IdentitiesAreStableAndTheSameSeedGivesTheSamePath) {
    const Fixture f = makeFixture(5000, 11, 7);
    TopicModelOptions options;
    options.numComponents = 7;
    options.seed = 3;
    std::vector<double> gammas;
    // From γ = 0.25 (at γ = 0 the foreground has rank 5 < K) through the zero crossings of the
    // shared topics' weights (γ = 2/3, 1, 1.5) to 4.
    for (int i = 1; i <= 16; ++i) {
        gammas.push_back(0.25 * i);
    }
    const TopicPath path = solveTopicPath(*f.engine, gammas, options);
    ASSERT_EQ(path.solutions.size(), gammas.size());
    // Each A topic keeps one identity along the whole path, and it stays foreground-specific.
    for (int t = 0; t < 2; ++t) {
        int id = -1;
        for (size_t i = 0; i < gammas.size(); ++i) {
            const TopicModelResult& s = path.solutions[i];
            int slot = -1;
            double best = INFINITY;
            for (int j = 0; j < s.numComponents(); ++j) {
                const double d = (f.data.topics.col(t) - s.topics.col(j)).lpNorm<1>();
                if (d < best) {
                    best = d;
                    slot = j;
                }
            }
            ASSERT_LT(best, 0.15) << "A topic " << t << " at gamma " << gammas[i] << " slot "
                                  << slot << " ids " << ::testing::PrintToString(path.ids[i])
                                  << " fs " << s.numForegroundSpecific();
            EXPECT_TRUE(s.foregroundSpecific[static_cast<size_t>(slot)]);
            if (id < 0) {
                id = path.ids[i][static_cast<size_t>(slot)];
            }
            EXPECT_EQ(path.ids[i][static_cast<size_t>(slot)], id)
                << "A topic " << t << " at gamma " << gammas[i];
        }
    }
    // The path continues its neighbours: after the first point, warm starts are kept (the data fit
    // the model, so a fresh start explains M3 no better).
    int warm = 0;
    for (size_t i = 1; i < gammas.size(); ++i) {
        warm += path.solutions[i].warmStarted ? 1 : 0;
    }
    EXPECT_GE(warm, static_cast<int>(gammas.size()) - 3);
    const TopicPath again = solveTopicPath(*f.engine, gammas, options);
    ASSERT_EQ(again.numIdentities, path.numIdentities);
    for (size_t i = 0; i < gammas.size(); ++i) {
        EXPECT_EQ(again.ids[i], path.ids[i]);
        EXPECT_EQ(again.solutions[i].topics, path.solutions[i].topics);
    }
    // A decreasing grid is refused.
    EXPECT_THROW(solveTopicPath(*f.engine, {1.0, 0.5}, options), InputError);
}

TEST(TopicPath, MatchComponentsUndoesAPermutation) {
    const Fixture f = makeFixture(3000, 5, 7);
    TopicModelOptions options;
    options.numComponents = 7;
    const TopicModelResult a = f.engine->solve(2.0, options);
    TopicModelResult b = a;
    const std::vector<int> order = {6, 2, 0, 5, 1, 3, 4};
    for (int t = 0; t < 7; ++t) {
        b.topics.col(t) = a.topics.col(order[static_cast<size_t>(t)]);
    }
    const std::vector<int> match = matchComponents(a, b);
    for (int t = 0; t < 7; ++t) {
        EXPECT_EQ(match[static_cast<size_t>(t)], order[static_cast<size_t>(t)]);
    }
    // A component unlike any other gets no partner.
    b.topics.col(0).setZero();
    b.topics(0, 0) = 1.0;
    EXPECT_EQ(matchComponents(a, b)[0], -1);
}

/// A path point whose topics are point masses on `words` (of a vocabulary of 8), with ids.
void addPoint(TopicPath& path, double gamma, const std::vector<int>& words,
              const std::vector<int>& ids) {
    TopicModelResult r;
    r.gamma = gamma;
    r.topics = Eigen::MatrixXd::Constant(8, static_cast<Eigen::Index>(words.size()), 0.01);
    r.lambdas = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(words.size()));
    for (size_t t = 0; t < words.size(); ++t) {
        r.topics(words[t], static_cast<Eigen::Index>(t)) = 1.0;
    }
    path.gammas.push_back(gamma);
    path.solutions.push_back(r);
    path.ids.push_back(ids);
    path.failures.emplace_back();
    for (int id : ids) {
        path.numIdentities = std::max(path.numIdentities, id + 1);
    }
}

TEST(TopicPath, CarryIdentitiesKeepsThoseThatPersistAcrossK) {
    // K = 3: topics on words 0, 1, 2 are T1, T2, T3.
    TopicPath k3;
    addPoint(k3, 0.0, {0, 1, 2}, {0, 1, 2});
    addPoint(k3, 1.0, {1, 0, 2}, {1, 0, 2});
    // K = 4 solved afresh: words 2, 5, 0, 3 got ids 0, 1, 2, 3 (a topic on word 3 appears at γ 1).
    TopicPath k4;
    addPoint(k4, 0.0, {2, 5, 0}, {0, 1, 2});
    addPoint(k4, 1.0, {2, 5, 0, 3}, {0, 1, 2, 3});
    carryIdentities(k3, k4);
    // Word 2 keeps T3 (id 2), word 0 keeps T1 (id 0); words 5 and 3 are new: ids 3 and 4, never
    // one of K = 3's (T2, word 1, is gone).
    EXPECT_EQ(k4.ids[0], (std::vector<int>{2, 3, 0}));
    EXPECT_EQ(k4.ids[1], (std::vector<int>{2, 3, 0, 4}));
    EXPECT_EQ(k4.numIdentities, 5);
    // What a fresh solve calls them (sessions): id 2 was 0, id 0 was 2, id 1 is unused.
    EXPECT_EQ(k4.canonicalIds, (std::vector<int>{2, -1, 0, 1, 3}));
    EXPECT_EQ(canonicalIdentity(k4, 2), 0);
    EXPECT_EQ(canonicalIdentity(k4, 1), -1);
    EXPECT_EQ(identityOfCanonical(k4, 0), 2);
    EXPECT_EQ(identityOfCanonical(k4, 3), 4);
    EXPECT_EQ(identityOfCanonical(k4, 7), -1);
    // A fresh path: its ids are the canonical ones.
    EXPECT_EQ(canonicalIdentity(k3, 1), 1);
    EXPECT_EQ(identityOfCanonical(k3, 1), 1);

    // Back down to K = 2 (words 0, 1): word 0 keeps T1 (id 0) through K = 4; word 1 (T2) was
    // not on K = 4's path, so it is new (id 5); canonical ids compose with K = 4's.
    TopicPath k2;
    addPoint(k2, 0.0, {1, 0}, {0, 1});
    carryIdentities(k4, k2);
    EXPECT_EQ(k2.ids[0], (std::vector<int>{5, 0}));
    EXPECT_EQ(canonicalIdentity(k2, 0), 1);
    EXPECT_EQ(canonicalIdentity(k2, 5), 0);

    // Another vocabulary: nothing to match, nothing changes.
    TopicPath other;
    addPoint(other, 0.0, {0}, {0});
    other.solutions[0].topics = Eigen::MatrixXd::Constant(5, 1, 0.2);
    const std::vector<std::vector<int>> before = other.ids;
    carryIdentities(k3, other);
    EXPECT_EQ(other.ids, before);
    EXPECT_TRUE(other.canonicalIds.empty());
    // An empty previous path changes nothing either.
    TopicPath fresh;
    addPoint(fresh, 0.0, {0, 1}, {0, 1});
    carryIdentities(TopicPath{}, fresh);
    EXPECT_EQ(fresh.ids[0], (std::vector<int>{0, 1}));
    EXPECT_TRUE(fresh.canonicalIds.empty());
}

TEST(TopicPath, SweepReportsEveryPointAndFailuresWithReasons) {
    const Fixture f = makeFixture(3000, 21, 7);
    TopicModelOptions options;
    options.numComponents = 7;
    const SpecificitySweep sweep =
        specificitySweep(*f.engine, {0.5, 1.0, 3.0}, f.positive, options);
    ASSERT_EQ(sweep.points.size(), 3u);
    ASSERT_EQ(sweep.path.gammas.size(), 4u); // γ = 0 joins the path as the baseline
    for (const SpecificityPoint& p : sweep.points) {
        EXPECT_TRUE(p.failure.empty()) << p.failure;
        EXPECT_TRUE(std::isfinite(p.auc));
    }
    EXPECT_GT(sweep.points[2].relativeAuc, 1.05);
}

TEST(TopicBootstrap, BandsAndStabilityAreSeededAndHonest) {
    const Fixture f = makeFixture(3000, 33, 7);
    TopicModelOptions options;
    options.numComponents = 7;
    const SpecificitySweep sweep = specificitySweep(*f.engine, {1.0, 3.0}, f.positive, options);
    BootstrapOptions bootstrap;
    bootstrap.replicates = 8;
    bootstrap.seed = 4;
    int calls = 0;
    const PathBootstrap b = bootstrapPath(*f.engine, sweep.path, f.positive, options, bootstrap,
                                          kAutoSmoothing, {}, [&](int done, int total) {
                                              ++calls;
                                              EXPECT_EQ(total, 8);
                                              EXPECT_EQ(done, calls);
                                          });
    EXPECT_EQ(calls, 8);
    ASSERT_EQ(b.aucLo.size(), sweep.path.gammas.size());
    for (size_t i = 0; i < b.aucLo.size(); ++i) {
        EXPECT_LE(b.aucLo[i], b.aucHi[i]);
        // Without contrast (γ = 0) the replicates' AUC spreads widely (band width 0.16 with -O3,
        // 0.40 with -O1: a different rounding picks other topics); with contrast it is narrow.
        if (sweep.path.gammas[i] > 0) {
            EXPECT_LT(b.aucHi[i] - b.aucLo[i], 0.2) << "γ = " << sweep.path.gammas[i];
        }
    }
    // At γ = 0 resampling moves the AUC; at γ = 3 the A topics separate their documents
    // perfectly in every replicate (band [1, 1]).
    EXPECT_GT(b.aucHi[0] - b.aucLo[0], 0.0);
    EXPECT_DOUBLE_EQ(b.aucLo[2], 1.0);
    // At γ = 3 the two A topics are real and reappear in (almost) every replicate.
    const size_t at3 = 2;
    ASSERT_DOUBLE_EQ(sweep.path.gammas[at3], 3.0);
    const TopicModelResult& s = sweep.path.solutions[at3];
    for (int t = 0; t < s.numComponents(); ++t) {
        if (s.foregroundSpecific[static_cast<size_t>(t)]) {
            EXPECT_GE(b.stability[at3][static_cast<size_t>(t)], 0.85);
            EXPECT_LE(b.weightLo[at3][static_cast<size_t>(t)], s.signedWeights[t] + 1e-12);
            EXPECT_GE(b.weightHi[at3][static_cast<size_t>(t)], s.signedWeights[t] - 1e-12);
        }
    }
    // Same seed, same bands.
    const PathBootstrap again =
        bootstrapPath(*f.engine, sweep.path, f.positive, options, bootstrap);
    EXPECT_EQ(again.aucLo, b.aucLo);
    EXPECT_EQ(again.stability, b.stability);
    bootstrap.replicates = 1;
    EXPECT_THROW(bootstrapPath(*f.engine, sweep.path, f.positive, options, bootstrap),
                 std::invalid_argument);
    // Suggestions: the best γ is a grid point, within its own band; K from the noise test.
    const TopicSuggestions suggestions = suggestTopics(sweep, &b, 7);
    EXPECT_DOUBLE_EQ(suggestions.bestGamma, 3.0);
    ASSERT_FALSE(suggestions.nearBest.empty());
    EXPECT_GE(suggestions.suggestedK, 6);
    EXPECT_LE(suggestions.suggestedK, 7);
}

TEST(TopicBootstrap, ResampledEngineIsSeeded) {
    const Fixture f = makeFixture(500, 2, 5);
    const ContrastiveTopicEngine a = f.engine->resampled(9);
    const ContrastiveTopicEngine b = f.engine->resampled(9);
    const ContrastiveTopicEngine c = f.engine->resampled(10);
    EXPECT_EQ(a.projectedM2Foreground(), b.projectedM2Foreground());
    EXPECT_NE(a.projectedM2Foreground(), c.projectedM2Foreground());
    EXPECT_EQ(a.basis(), f.engine->basis());
    EXPECT_EQ(a.foreground().numDocuments(), f.engine->foreground().numDocuments());
}

TEST(TopicEvaluation, AutomaticSmoothingMatchesItsFormulaForBothPriors) {
    // One topic over 4 words, documents of known length (T = 8 tokens, D = 4): the prior adds
    // D/2 = 2 pseudo-counts to the n_t = T tokens behind the topic, spread uniformly (Jeffreys)
    // or by each word's share of the scored documents' tokens.
    CountMatrix counts;
    counts.numRows = 2;
    counts.numCols = 4;
    counts.rowPtr = {0, 2, 4};
    counts.colIdx = {0, 1, 2, 3};
    counts.counts = {3, 1, 2, 2};
    TopicModelResult model;
    model.topics = Eigen::MatrixXd(4, 1);
    model.topics << 0.5, 0.5, 0.0, 0.0;
    model.lambdas = Eigen::VectorXd::Ones(1);
    model.weights = Eigen::VectorXd::Ones(1);
    model.foregroundSpecific = {true};
    const double n = 8.0;
    const double mass = 2.0;
    {
        const Eigen::VectorXd ll =
            perTokenLogLikelihood(counts, {0, 1}, model, {kAutoSmoothing, SmoothingPrior::Uniform});
        // The uniform prior is the Jeffreys rule α = 1/(2·T) of additive smoothing.
        const double alpha = 1.0 / (2.0 * n);
        auto p = [&](double mu) { return (mu + alpha) / (1.0 + 4 * alpha); };
        EXPECT_NEAR(ll[0], (3 * std::log(p(0.5)) + std::log(p(0.5))) / 4.0, 1e-12);
        EXPECT_NEAR(ll[1], (4 * std::log(p(0.0))) / 4.0, 1e-12);
    }
    {
        const Eigen::VectorXd ll = perTokenLogLikelihood(counts, {0, 1}, model); // the default
        const double share[4] = {3.0 / 8, 1.0 / 8, 2.0 / 8, 2.0 / 8};
        auto p = [&](int word, double mu) { return (n * mu + mass * share[word]) / (n + mass); };
        EXPECT_NEAR(ll[0], (3 * std::log(p(0, 0.5)) + std::log(p(1, 0.5))) / 4.0, 1e-12);
        EXPECT_NEAR(ll[1], (2 * std::log(p(2, 0.0)) + 2 * std::log(p(3, 0.0))) / 4.0, 1e-12);
        // Scoring one document alone: its own tokens are T and the shares.
        const Eigen::VectorXd alone = perTokenLogLikelihood(counts, {1}, model);
        auto q = [&](double mu, double s) { return (4.0 * mu + mass * s) / (4.0 + mass); };
        EXPECT_NEAR(alone[0], std::log(q(0.0, 0.5)), 1e-12);
    }
    // A fixed α ignores the prior.
    const Eigen::VectorXd fixedU =
        perTokenLogLikelihood(counts, {0, 1}, model, {0.1, SmoothingPrior::Uniform});
    const Eigen::VectorXd fixedF = perTokenLogLikelihood(counts, {0, 1}, model, 0.1);
    EXPECT_EQ(fixedU, fixedF);
    EXPECT_NEAR(fixedF[1], std::log(0.1 / 1.4), 1e-12);
    EXPECT_THROW(perTokenLogLikelihood(counts, {0}, model, -1.0), std::invalid_argument);
    EXPECT_EQ(parseSmoothingPrior("uniform"), SmoothingPrior::Uniform);
    EXPECT_STREQ(smoothingPriorName(parseSmoothingPrior("frequency")), "frequency");
    EXPECT_THROW(parseSmoothingPrior("zipf"), std::invalid_argument);
}

} // namespace
} // namespace cx
