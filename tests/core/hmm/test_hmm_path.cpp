// Contrastive HMM along γ as a path: warm starts, identities, valid ranges.
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/hmm_path.h"
#include "core/hmm/sequence_moments.h"
#include "core/hmm/synthetic_hmm.h"
#include "core/io/bed.h"
#include "hmm_test_helpers.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

namespace cx {
namespace {

std::vector<double> grid(double from, double to, double step) {
    std::vector<double> out;
    for (double g = from; g <= to + 1e-9; g += step) {
        out.push_back(g);
    }
    return out;
}

using test::maxMatchedEmissionError;

TEST(HmmPath, WarmStartFromTheExactSolutionReproducesItWithoutRandomTrials) {
    const HmmParameters a = randomSyntheticHmm(3, 9, 101, 0.85);
    const HmmParameters b = randomSyntheticHmm(3, 9, 202, 0.7);
    const SequenceMoments moments = populationContrastiveMoments(a, b, 0.4);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    options.extraComponents = 0;
    const ContrastiveHmmResult cold = solveContrastiveHmm(moments, 1.0, options);
    ASSERT_EQ(cold.warmStarts.cols(), 6);
    EXPECT_EQ(cold.warmStarted, 0);
    ContrastiveHmmOptions warm = options;
    warm.warmStarts = cold.warmStarts;
    warm.seed = 999; // the random trials are not used
    const ContrastiveHmmResult continued = solveContrastiveHmm(moments, 1.0, warm);
    EXPECT_EQ(continued.warmStarted, 6);
    EXPECT_LT((continued.weights - cold.weights).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_LT((continued.markProbabilities - cold.markProbabilities).cwiseAbs().maxCoeff(), 1e-9);
    // One run per component instead of `trials`, each converged at once.
    EXPECT_LT(continued.iterations, cold.iterations);
    EXPECT_LE(continued.iterations, 6 * 3);
    // Starts from other moments are refused.
    ContrastiveHmmOptions wrong = options;
    wrong.warmStarts = Eigen::MatrixXd::Ones(3, 2);
    EXPECT_THROW(solveContrastiveHmm(moments, 1.0, wrong), std::invalid_argument);
}

TEST(HmmPath, ExactMomentsGiveOneIdentityPerStateAlongTheWholePath) {
    const test::ExactContrast exact;
    const HmmParameters& a = exact.a;
    const SequenceMoments& moments = exact.moments;
    const ContrastiveHmmOptions& options = exact.options;
    const std::vector<double> gammas = grid(0.5, 2.0, 0.1);
    for (HmmPathStarts starts : {HmmPathStarts::Continued, HmmPathStarts::Fresh}) {
        int called = 0;
        const HmmPath path =
            solveHmmPath(moments, gammas, options, starts, {}, [&](const HmmPath& p, int i) {
                EXPECT_EQ(static_cast<int>(p.solutions.size()), i + 1);
                ++called;
            });
        ASSERT_EQ(path.solutions.size(), gammas.size());
        EXPECT_EQ(called, static_cast<int>(gammas.size()));
        EXPECT_EQ(path.numIdentities, 6);
        EXPECT_EQ(path.identityChanges(), 0);
        EXPECT_EQ(path.validPoints(), static_cast<int>(gammas.size()));
        ASSERT_EQ(path.validRanges().size(), 1u);
        EXPECT_DOUBLE_EQ(path.validRanges()[0].first, 0.5);
        EXPECT_NEAR(path.validRanges()[0].second, 2.0, 1e-9);
        for (size_t i = 0; i < gammas.size(); ++i) {
            const ContrastiveHmmResult& r = path.solutions[i];
            ASSERT_EQ(r.numSpecific, 3) << "γ = " << gammas[i];
            EXPECT_LT(maxMatchedEmissionError(a.emissions, r.hmm.emissions), 1e-7);
            // The same identity follows the same true state of A along the path.
            const auto match = matchStates(a.emissions, r.markProbabilities.topRows(3));
            const auto first =
                matchStates(a.emissions, path.solutions[0].markProbabilities.topRows(3));
            for (size_t s = 0; s < 3; ++s) {
                EXPECT_EQ(path.ids[i][static_cast<size_t>(match[s])],
                          path.ids[0][static_cast<size_t>(first[s])]);
            }
            if (starts == HmmPathStarts::Continued && i > 0) {
                EXPECT_TRUE(path.continued[i]) << "γ = " << gammas[i];
                EXPECT_EQ(r.warmStarted, r.decompositionRank);
            } else {
                EXPECT_FALSE(path.continued[i]);
            }
        }
        EXPECT_EQ(path.nearest(1.04), 5);
        EXPECT_EQ(path.nearest(-3), 0);
    }
}

TEST(HmmPath, IdentityIsLostWhenAMarkAppearsOrVanishes) {
    Eigen::MatrixXd previous(2, 3);
    previous << 0.0, 0.0, 0.0, //
        1.0, 1.0, 0.0;
    Eigen::MatrixXd next(2, 3);
    next << 0.6, 0.0, 0.0, // 0.6 > 0.5 away from the quiescent state: a new state
        0.9, 1.0, 0.1;     // within 0.1 of state 1
    int numIdentities = 2;
    const std::vector<int> ids = continueIdentities(previous, {7, 1}, next, numIdentities);
    EXPECT_EQ(ids, (std::vector<int>{2, 1}));
    EXPECT_EQ(numIdentities, 3);
    // Exactly at the limit the identity is kept.
    next.row(0) << 0.5, 0.0, 0.0;
    numIdentities = 2;
    EXPECT_EQ(continueIdentities(previous, {7, 1}, next, numIdentities), (std::vector<int>{7, 1}));
    // Fewer components than before: the matched ones keep their ids.
    numIdentities = 8;
    EXPECT_EQ(continueIdentities(previous, {7, 1}, next.bottomRows(1), numIdentities),
              (std::vector<int>{1}));
    // More: the new one gets the next id.
    Eigen::MatrixXd more(3, 3);
    more << 0.0, 0.0, 0.05, 1.0, 0.9, 0.0, 0.0, 0.0, 1.0;
    EXPECT_EQ(continueIdentities(previous, {7, 1}, more, numIdentities),
              (std::vector<int>{7, 1, 8}));
    EXPECT_EQ(numIdentities, 9);
    EXPECT_THROW(continueIdentities(previous, {7}, more, numIdentities), std::invalid_argument);
}

TEST(HmmPath, SolveOnPathGivesThePathsSolutionAtItsPointsAndContinuesBetweenThem) {
    const test::ExactContrast exact;
    const HmmParameters& a = exact.a;
    const SequenceMoments& moments = exact.moments;
    const ContrastiveHmmOptions& options = exact.options;
    const HmmPath path = solveHmmPath(moments, grid(0.5, 2.0, 0.25), options);
    // At a grid point: the path's own solution, bit for bit.
    bool continued = false;
    const ContrastiveHmmResult atPoint = solveOnPath(moments, path, 1.0, options, {}, &continued);
    EXPECT_EQ(atPoint.weights, path.solutions[2].weights);
    EXPECT_EQ(atPoint.markProbabilities, path.solutions[2].markProbabilities);
    EXPECT_EQ(continued, path.continued[2] != 0);
    // Between points: continued from the nearest point's components, and the exact solution.
    const ContrastiveHmmResult between = solveOnPath(moments, path, 1.1, options, {}, &continued);
    EXPECT_TRUE(continued);
    EXPECT_EQ(between.warmStarted, between.decompositionRank);
    EXPECT_EQ(between.numSpecific, 3);
    EXPECT_LT(maxMatchedEmissionError(a.emissions, between.hmm.emissions), 1e-7);
    const ContrastiveHmmResult fresh = solveContrastiveHmm(moments, 1.1, options);
    EXPECT_LT(maxMatchedEmissionError(fresh.markProbabilities, between.markProbabilities), 1e-7);
    // Without a path: the fresh solve.
    const ContrastiveHmmResult alone =
        solveOnPath(moments, HmmPath{}, 1.1, options, {}, &continued);
    EXPECT_FALSE(continued);
    EXPECT_EQ(alone.weights, fresh.weights);
}

TEST(HmmPath, SampledDataKeepsTheForegroundStatesAndRejectsABadGrid) {
    const HmmParameters a = randomSyntheticHmm(3, 10, 31, 0.9);
    HmmParameters b = randomSyntheticHmm(3, 10, 32, 0.85);
    b.emissions.row(0) << 0.7, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.8, 0.75, 0.05;
    const SyntheticContrast synth = syntheticContrastiveData(a, b, 200, 1000, 0.4, 5);
    const BinClasses classes = classifyBins(synth.data, &synth.foreground, &synth.background);
    const SequenceMoments moments = computeSequenceMoments(synth.data, classes);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    const std::vector<double> gammas = grid(0.8, 2.0, 0.1);
    const HmmPath path = solveHmmPath(moments, gammas, options);
    // A's three states are foreground-specific at every γ > ρ, with the same three ids.
    std::set<int> specificIds;
    for (size_t i = 0; i < gammas.size(); ++i) {
        const ContrastiveHmmResult& r = path.solutions[i];
        ASSERT_EQ(r.numSpecific, 3) << "γ = " << gammas[i];
        EXPECT_LT(maxMatchedEmissionError(a.emissions, r.hmm.emissions), 0.08)
            << "γ = " << gammas[i];
        for (int t = 0; t < 3; ++t) {
            specificIds.insert(path.ids[i][static_cast<size_t>(t)]);
        }
    }
    EXPECT_EQ(specificIds.size(), 3u);
    EXPECT_EQ(path.specificIdentityChanges(), 0);
    // Same seed, same path.
    const HmmPath again = solveHmmPath(moments, gammas, options);
    for (size_t i = 0; i < gammas.size(); ++i) {
        EXPECT_EQ(again.ids[i], path.ids[i]);
        EXPECT_EQ(again.solutions[i].weights, path.solutions[i].weights);
    }
    EXPECT_THROW(solveHmmPath(moments, {1.0, 0.5}, options), std::invalid_argument);
    EXPECT_THROW(solveHmmPath(moments, {-1.0}, options), std::invalid_argument);
    EXPECT_THROW(solveHmmPath(moments, {std::nan("")}, options), std::invalid_argument);
}

} // namespace
} // namespace cx
