// Likelihood refinement of the spectral γ = 0 HMM (refineWithBaumWelch): the spectral-then-EM
// pipeline on seeded synthetic HMMs with known truth.
#include "core/hmm/baum_welch.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/hmm_refine.h"
#include "core/hmm/sequence_moments.h"
#include "core/hmm/synthetic_hmm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace cx {
namespace {

/// A 4-state, 6-mark truth whose first state is unmarked and covers most bins (as on the
/// ENCODE data), with persistent states.
HmmParameters unmarkedTruth() {
    HmmParameters truth = randomSyntheticHmm(4, 6, 77, 0.9);
    truth.emissions.row(0).setConstant(0.01);
    // Most transitions go to the unmarked state.
    for (int i = 1; i < 4; ++i) {
        const double stay = truth.transitions(i, i);
        truth.transitions.row(i).setConstant((1 - stay) * 0.1 / 2);
        truth.transitions(i, i) = stay;
        truth.transitions(i, 0) = (1 - stay) * 0.9;
    }
    truth.transitions.row(0) << 0.97, 0.01, 0.01, 0.01;
    truth.start = stationaryDistribution(truth.transitions);
    return truth;
}

TEST(HmmRefine, RaisesTheLikelihoodAndConvergesToAnEmFixedPointNearTheTruth) {
    const HmmParameters truth = unmarkedTruth();
    const ChromatinData data = sampleChromatinData(truth, {80000, 60000}, 11);
    const std::vector<BinRun> runs = wholeTrackRuns(data);
    const SequenceMoments moments =
        computeSequenceMoments(data, classifyBins(data, nullptr, nullptr));
    ContrastiveHmmOptions options;
    options.numComponents = 4;
    options.seed = 3;
    options.momentRefitSweeps = 0;
    const ContrastiveHmmResult spectral = solveContrastiveHmm(moments, 0.0, options);
    ASSERT_EQ(spectral.numSpecific, 4);

    const RefinedHmm refined = refineWithBaumWelch(data, runs, spectral.hmm);
    ASSERT_GE(refined.logLikelihoods.size(), 2U);
    EXPECT_TRUE(refined.converged);
    EXPECT_LT(refined.rounds, kRefineMaxRounds);
    EXPECT_EQ(refined.bins, 140000);
    // The likelihood never decreases from the (smoothed) spectral start, and the refined model
    // is at least as likely as the spectral one itself.
    for (size_t i = 1; i < refined.logLikelihoods.size(); ++i) {
        EXPECT_GE(refined.logLikelihoods[i], refined.logLikelihoods[i - 1] - 1e-6);
    }
    const double spectralLl = logLikelihood(data, runs, smoothedForEm(spectral.hmm, data));
    EXPECT_NEAR(refined.startLogLikelihood(), spectralLl, 1e-6 * std::abs(spectralLl));
    EXPECT_GT(refined.logLikelihood(), spectralLl);
    EXPECT_NEAR(refined.logLikelihood(), logLikelihood(data, runs, refined.hmm),
                1e-9 * std::abs(refined.logLikelihood()));
    EXPECT_NEAR(refined.logLikelihoodPerBin(), refined.logLikelihood() / 140000.0, 1e-12);

    // An EM fixed point: further rounds gain less than the tolerance and hardly move it.
    BaumWelchOptions more;
    more.maxIterations = 20;
    more.tolerance = 0;
    const BaumWelchResult after = baumWelch(data, runs, refined.hmm, more);
    EXPECT_LT((after.finalLogLikelihood() - refined.logLikelihood()) /
                  std::abs(refined.logLikelihood()),
              20 * kRefineTolerance);
    EXPECT_LT((after.hmm.emissions - refined.hmm.emissions).cwiseAbs().maxCoeff(), 0.01);

    // Near the truth, and no farther than the spectral start (emissions after matching).
    const auto match = matchStates(truth.emissions, refined.markProbabilities);
    const auto spectralMatch = matchStates(truth.emissions, spectral.markProbabilities);
    double refinedError = 0;
    double spectralError = 0;
    for (int k = 0; k < 4; ++k) {
        const double error =
            (truth.emissions.row(k) - refined.markProbabilities.row(match[static_cast<size_t>(k)]))
                .cwiseAbs()
                .maxCoeff();
        EXPECT_LT(error, 0.02) << "state " << k;
        refinedError += error;
        spectralError += (truth.emissions.row(k) -
                          spectral.markProbabilities.row(spectralMatch[static_cast<size_t>(k)]))
                             .cwiseAbs()
                             .maxCoeff();
        EXPECT_NEAR(refined.occupancy[match[static_cast<size_t>(k)]], truth.start[k], 0.02);
    }
    EXPECT_LE(refinedError, spectralError + 1e-9);
    // Each refined state continues its spectral start (the identity the GUI keeps).
    EXPECT_EQ(matchStates(spectral.markProbabilities.topRows(4), refined.markProbabilities),
              (std::vector<int>{0, 1, 2, 3}));
}

TEST(HmmRefine, ExactRoundsWithoutToleranceAndCancel) {
    const HmmParameters truth = randomSyntheticHmm(3, 5, 8, 0.85);
    const ChromatinData data = sampleChromatinData(truth, {20000}, 2);
    const std::vector<BinRun> runs = wholeTrackRuns(data);
    const RefinedHmm three = refineWithBaumWelch(
        data, runs, randomHmm(3, data, ObservationEncoding::MarkVector, 1), 3, 0.0);
    EXPECT_EQ(three.rounds, 3);
    EXPECT_EQ(three.logLikelihoods.size(), 4U);
    EXPECT_FALSE(three.converged);
    int calls = 0;
    const RefinedHmm again = refineWithBaumWelch(
        data, runs, randomHmm(3, data, ObservationEncoding::MarkVector, 1), 3, 0.0, {},
        [&](double, const char* phase) {
            ++calls;
            EXPECT_NE(std::string(phase).find("Baum–Welch round"), std::string::npos);
        });
    EXPECT_EQ(calls, 4);
    EXPECT_EQ(again.hmm.emissions, three.hmm.emissions); // deterministic
    CancelToken cancel = CancelToken::create();
    cancel.cancel();
    EXPECT_THROW(refineWithBaumWelch(data, runs, three.hmm, 5, 0.0, cancel), Cancelled);
    EXPECT_THROW(refineWithBaumWelch(data, runs, three.hmm, 0, 0.0), std::invalid_argument);
    EXPECT_THROW(refineWithBaumWelch(data, runs, three.hmm, 5, -1.0), std::invalid_argument);
}

} // namespace
} // namespace cx
