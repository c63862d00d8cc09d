// Contrastive spectral HMM: recovery against exact population moments and sampled data.
#include "core/common/parallel.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/sequence_moments.h"
#include "core/hmm/synthetic_hmm.h"
#include "core/io/bed.h"
#include "hmm_test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace cx {
namespace {

/// Max absolute transition error after matching states by emissions.
double matchedTransitionError(const HmmParameters& truth, const HmmParameters& estimate) {
    const auto match = matchStates(truth.emissions, estimate.emissions);
    double worst = 0;
    for (int i = 0; i < truth.numStates(); ++i) {
        for (int j = 0; j < truth.numStates(); ++j) {
            worst = std::max(worst, std::abs(truth.transitions(i, j) -
                                             estimate.transitions(match[static_cast<size_t>(i)],
                                                                  match[static_cast<size_t>(j)])));
        }
    }
    return worst;
}

using test::maxMatchedEmissionError;

TEST(HmmSpectral, PopulationMomentsRecoverPlainHmmExactly) {
    const HmmParameters truth = randomSyntheticHmm(5, 8, 42);
    const SequenceMoments moments = populationContrastiveMoments(truth, truth, 0.0);
    ContrastiveHmmOptions options;
    options.numComponents = 5;
    options.seed = 3;
    const auto result = solveContrastiveHmm(moments, 0.0, options);
    ASSERT_EQ(result.status, Status::Successful);
    ASSERT_EQ(result.numSpecific, 5);
    EXPECT_LT(maxMatchedEmissionError(truth.emissions, result.hmm.emissions), 1e-8);
    EXPECT_LT(matchedTransitionError(truth, result.hmm), 1e-8);
    // Weights are the stationary occupancies.
    const auto match = matchStates(truth.emissions, result.hmm.emissions);
    for (int k = 0; k < 5; ++k) {
        EXPECT_NEAR(result.weights[match[static_cast<size_t>(k)]], truth.start[k], 1e-8);
        EXPECT_NEAR(result.hmm.start[match[static_cast<size_t>(k)]], truth.start[k], 1e-8);
    }
}

TEST(HmmSpectral, QuiescentStateIsRecoveredThanksToTheConstantCoordinate) {
    // Emission vector exactly zero: without the appended constant it would be invisible.
    HmmParameters truth = randomSyntheticHmm(4, 6, 7);
    truth.emissions.row(0).setZero();
    const SequenceMoments moments = populationContrastiveMoments(truth, truth, 0.0);
    ContrastiveHmmOptions options;
    options.numComponents = 4;
    const auto result = solveContrastiveHmm(moments, 0.0, options);
    EXPECT_LT(maxMatchedEmissionError(truth.emissions, result.hmm.emissions), 1e-8);
}

TEST(HmmSpectral, ContrastRecoversForegroundSpecificHmmFromPopulationMoments) {
    const HmmParameters a = randomSyntheticHmm(3, 9, 101, 0.85);
    const HmmParameters b = randomSyntheticHmm(3, 9, 202, 0.7);
    const double rho = 0.4;
    const SequenceMoments moments = populationContrastiveMoments(a, b, rho);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    options.seed = 5;
    // γ > ρ: B's states get negative weight −(γ − ρ)π_B; A's keep (1 − ρ)π_A.
    const double gamma = 1.0;
    const auto result = solveContrastiveHmm(moments, gamma, options);
    ASSERT_EQ(result.numSpecific, 3);
    EXPECT_LT(maxMatchedEmissionError(a.emissions, result.hmm.emissions), 1e-7);
    EXPECT_LT(matchedTransitionError(a, result.hmm), 1e-7);
    const auto match = matchStates(a.emissions, result.hmm.emissions);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(result.weights[match[static_cast<size_t>(k)]], (1 - rho) * a.start[k], 1e-8);
    }
    // The negative components are B's states with weight (ρ − γ)π_B.
    const Eigen::MatrixXd negatives = result.markProbabilities.bottomRows(3);
    EXPECT_LT(maxMatchedEmissionError(b.emissions, negatives), 1e-7);
    const double negativeMass = result.weights.tail(3).sum();
    EXPECT_NEAR(negativeMass, rho - gamma, 1e-8);
}

TEST(HmmSpectral, WithoutContrastTheForegroundMixesBothHmms) {
    const HmmParameters a = randomSyntheticHmm(3, 9, 101, 0.85);
    const HmmParameters b = randomSyntheticHmm(3, 9, 202, 0.7);
    const SequenceMoments moments = populationContrastiveMoments(a, b, 0.4);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    const auto result = solveContrastiveHmm(moments, 0.0, options);
    EXPECT_EQ(result.numSpecific, 6); // γ = 0: every state of the mixture is positive
    // At γ = ρ exactly the B states cancel: K = 3 suffices and recovers A.
    options.numComponents = 3;
    const auto cancelled = solveContrastiveHmm(moments, 0.4, options);
    ASSERT_EQ(cancelled.numSpecific, 3);
    EXPECT_LT(maxMatchedEmissionError(a.emissions, cancelled.hmm.emissions), 1e-7);
}

TEST(HmmSpectral, SampledDataRecoversEmissionsAndTransitions) {
    const HmmParameters truth = randomSyntheticHmm(4, 8, 9, 0.85);
    const ChromatinData data = sampleChromatinData(truth, {300000}, 17);
    const BinClasses classes = classifyBins(data, nullptr, nullptr);
    const SequenceMoments moments = computeSequenceMoments(data, classes);
    ContrastiveHmmOptions options;
    options.numComponents = 4;
    const auto result = solveContrastiveHmm(moments, 0.0, options);
    ASSERT_EQ(result.numSpecific, 4);
    EXPECT_LT(maxMatchedEmissionError(truth.emissions, result.hmm.emissions), 0.05);
    EXPECT_LT(matchedTransitionError(truth, result.hmm), 0.05);
}

TEST(HmmSpectral, SampledContrastiveMixtureRecoversForegroundHmm) {
    const HmmParameters a = randomSyntheticHmm(3, 10, 31, 0.9);
    HmmParameters b = randomSyntheticHmm(3, 10, 32, 0.85);
    // Both generated HMMs have a quiescent state 0; two (near-)identical emission columns make
    // the 6-component problem ill-posed, so give B a distinct state 0 instead.
    b.emissions.row(0) << 0.7, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.8, 0.75, 0.05;
    const SyntheticContrast synth = syntheticContrastiveData(a, b, 300, 1000, 0.4, 5);
    const BinClasses classes = classifyBins(synth.data, &synth.foreground, &synth.background);
    EXPECT_EQ(classes.foregroundBins, 300000);
    EXPECT_EQ(classes.backgroundBins, 300000);
    const SequenceMoments moments = computeSequenceMoments(synth.data, classes);
    EXPECT_EQ(moments.foreground.numTriples, 300 * 998);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    const auto result = solveContrastiveHmm(moments, 2 * synth.rho, options);
    ASSERT_EQ(result.numSpecific, 3);
    EXPECT_LT(maxMatchedEmissionError(a.emissions, result.hmm.emissions), 0.06);
    EXPECT_LT(matchedTransitionError(a, result.hmm), 0.06);
    // Without the contrast the positive states are a mixture of A and B (K = 6): the
    // foreground-only model does not single out A.
    const auto plain = solveContrastiveHmm(moments, 0.0, options);
    EXPECT_EQ(plain.numSpecific, 6);
}

TEST(HmmSpectral, CombinationEncodingRecoversMarkProbabilities) {
    const HmmParameters truth = randomSyntheticHmm(3, 5, 13, 0.85);
    const ChromatinData data = sampleChromatinData(truth, {300000}, 23);
    const BinClasses classes = classifyBins(data, nullptr, nullptr);
    for (bool scaled : {true, false}) {
        SequenceMomentOptions momentOptions;
        momentOptions.encoding = ObservationEncoding::MarkCombination;
        momentOptions.projectionRank = 8;
        momentOptions.scaleCategories = scaled;
        const SequenceMoments moments = computeSequenceMoments(data, classes, momentOptions);
        EXPECT_EQ(moments.rank(), 8);
        EXPECT_EQ(moments.featureDim, 32);
        ContrastiveHmmOptions options;
        options.numComponents = 3;
        const auto result = solveContrastiveHmm(moments, 0.0, options);
        ASSERT_EQ(result.numSpecific, 3);
        EXPECT_LT(maxMatchedEmissionError(truth.emissions, result.markProbabilities), 0.05)
            << "scaled " << scaled;
        EXPECT_EQ(result.hmm.emissions.cols(), data.numPatterns());
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(result.hmm.emissions.row(k).sum(), 1.0, 1e-9);
        }
        HmmParameters asMarks = result.hmm;
        asMarks.emissions = result.markProbabilities.topRows(3);
        EXPECT_LT(matchedTransitionError(truth, asMarks), 0.06) << "scaled " << scaled;
    }
}

TEST(HmmSpectral, FastMomentsMatchDirectReference) {
    const HmmParameters a = randomSyntheticHmm(3, 6, 1);
    const HmmParameters b = randomSyntheticHmm(2, 6, 2);
    const SyntheticContrast synth = syntheticContrastiveData(a, b, 20, 50, 0.5, 3);
    const BinClasses classes = classifyBins(synth.data, &synth.foreground, nullptr);
    struct Case {
        ObservationEncoding encoding;
        int lag;
        int window;
    };
    for (const Case& c : {Case{ObservationEncoding::MarkVector, 1, 1},
                          Case{ObservationEncoding::MarkCombination, 1, 1},
                          Case{ObservationEncoding::MarkVector, 3, 1},
                          Case{ObservationEncoding::MarkCombination, 2, 1},
                          Case{ObservationEncoding::MarkVector, 1, 2},
                          Case{ObservationEncoding::MarkVector, 2, 3}}) {
        SCOPED_TRACE(std::string(toString(c.encoding)) + " lag " + std::to_string(c.lag) +
                     " window " + std::to_string(c.window));
        SequenceMomentOptions options;
        options.encoding = c.encoding;
        options.projectionRank = 10;
        options.lag = c.lag;
        options.window = c.window;
        const SequenceMoments fast = computeSequenceMoments(synth.data, classes, options);
        const SequenceMoments direct =
            computeSequenceMomentsDirect(synth.data, classes, c.encoding, c.lag, c.window);
        EXPECT_EQ(fast.window, c.window);
        EXPECT_EQ(fast.sideDim(), c.window == 1 ? fast.rank() : c.window * 6 + 1);
        // Middle view y = uᵀφ, side views ψ (identity for MarkVector).
        const Eigen::MatrixXd u = fast.projection();
        const Eigen::MatrixXd v =
            c.window == 1 ? u : Eigen::MatrixXd::Identity(fast.sideDim(), fast.sideDim());
        for (const auto& [f, d] : {std::pair{&fast.foreground, &direct.foreground},
                                   std::pair{&fast.background, &direct.background}}) {
            EXPECT_EQ(f->numTriples, d->numTriples);
            EXPECT_EQ(f->numBins, d->numBins);
            EXPECT_LT((f->m12 - v.transpose() * d->m12 * u).norm(), 1e-12);
            EXPECT_LT((f->m13 - v.transpose() * d->m13 * v).norm(), 1e-12);
            EXPECT_LT((f->m23 - u.transpose() * d->m23 * v).norm(), 1e-12);
            EXPECT_LT((f->m123.matrix() - d->m123.transformed(v, u, v).matrix()).norm(), 1e-12);
            EXPECT_LT((f->m11 - v.transpose() * d->m11 * v).norm(), 1e-12);
            EXPECT_LT((f->m22 - u.transpose() * d->m22 * u).norm(), 1e-12);
            EXPECT_LT((f->m33 - v.transpose() * d->m33 * v).norm(), 1e-12);
        }
        if (c.encoding == ObservationEncoding::MarkVector) {
            EXPECT_LT((fast.scale - u.transpose() * direct.scale).norm(), 1e-12);
            EXPECT_LT((fast.sideScale - direct.sideScale).norm(), 1e-12);
        } else {
            EXPECT_LT(
                (fast.scale - fast.basis.transpose() * fast.categoryScale.cwiseInverse()).norm(),
                1e-12);
        }
    }
    // Centres need both whole windows inside a run: 20 foreground blocks of 50 bins.
    SequenceMomentOptions windowed;
    windowed.window = 3;
    windowed.lag = 2;
    EXPECT_EQ(computeSequenceMoments(synth.data, classes, windowed).foreground.numTriples,
              20 * (50 - 2 * (2 + 3 - 1)));
    windowed.window = 0;
    EXPECT_THROW(computeSequenceMoments(synth.data, classes, windowed), std::invalid_argument);
}

TEST(HmmSpectral, PopulationWindowMomentsMatchALongSample) {
    // populationMoments(hmm, lag, window) against the moments of 600,000 sampled bins.
    const HmmParameters truth = randomSyntheticHmm(3, 5, 21, 0.85);
    const ChromatinData data = sampleChromatinData(truth, {600000}, 5);
    SequenceMomentOptions options;
    options.lag = 2;
    options.window = 3;
    const SequenceMoments sampled =
        computeSequenceMoments(data, classifyBins(data, nullptr, nullptr), options);
    const ClassMoments exact = populationMoments(truth, 2, 3);
    const ClassMoments& f = sampled.foreground;
    EXPECT_LT((f.m12 - exact.m12).cwiseAbs().maxCoeff(), 0.01);
    EXPECT_LT((f.m13 - exact.m13).cwiseAbs().maxCoeff(), 0.01);
    EXPECT_LT((f.m23 - exact.m23).cwiseAbs().maxCoeff(), 0.01);
    EXPECT_LT((f.m123.matrix() - exact.m123.matrix()).cwiseAbs().maxCoeff(), 0.01);
    EXPECT_LT((f.m11 - exact.m11).cwiseAbs().maxCoeff(), 0.01);
    EXPECT_LT((f.m22 - exact.m22).cwiseAbs().maxCoeff(), 0.01);
    EXPECT_LT((f.m33 - exact.m33).cwiseAbs().maxCoeff(), 0.01);
}

TEST(HmmSpectral, MomentsAreIdenticalForAnyThreadCount) {
    const HmmParameters a = randomSyntheticHmm(3, 6, 1);
    const HmmParameters b = randomSyntheticHmm(2, 6, 2);
    const SyntheticContrast synth = syntheticContrastiveData(a, b, 50, 400, 0.5, 3);
    const BinClasses classes = classifyBins(synth.data, &synth.foreground, nullptr);
    SequenceMomentOptions options;
    options.encoding = ObservationEncoding::MarkCombination;
    setThreadCount(1);
    const SequenceMoments one = computeSequenceMoments(synth.data, classes, options);
    setThreadCount(3);
    const SequenceMoments three = computeSequenceMoments(synth.data, classes, options);
    setThreadCount(0);
    EXPECT_EQ(one.foreground.m123.matrix(), three.foreground.m123.matrix());
    EXPECT_EQ(one.basis, three.basis);
}

TEST(HmmSpectral, SolveIsDeterministicAndRejectsBadArguments) {
    const HmmParameters truth = randomSyntheticHmm(3, 6, 4);
    const SequenceMoments moments = populationContrastiveMoments(truth, truth, 0.0);
    ContrastiveHmmOptions options;
    options.numComponents = 3;
    const auto first = solveContrastiveHmm(moments, 0.0, options);
    const auto second = solveContrastiveHmm(moments, 0.0, options);
    EXPECT_EQ(first.weights, second.weights);
    EXPECT_EQ(first.hmm.emissions, second.hmm.emissions);
    options.numComponents = 8; // > M + 1 = 7
    EXPECT_THROW(solveContrastiveHmm(moments, 0.0, options), std::invalid_argument);
    options.numComponents = 3;
    EXPECT_THROW(solveContrastiveHmm(moments, std::nan(""), options), std::invalid_argument);
    EXPECT_THROW(solveContrastiveHmm(moments, -1.0, options), std::invalid_argument);
    SequenceMoments empty = moments;
    empty.foreground.numTriples = 0;
    EXPECT_THROW(solveContrastiveHmm(empty, 0.0, options), std::invalid_argument);
}

TEST(HmmSpectral, NoPositiveComponentGivesAnEmptyModel) {
    const HmmParameters truth = randomSyntheticHmm(3, 6, 4);
    const SequenceMoments moments = populationContrastiveMoments(truth, truth, 0.0);
    ContrastiveHmmOptions options;
    options.numComponents = 3;
    // Foreground = background: at γ = 2 every weight is −π.
    const auto result = solveContrastiveHmm(moments, 2.0, options);
    EXPECT_EQ(result.numSpecific, 0);
    EXPECT_EQ(result.hmm.numStates(), 0);
    EXPECT_EQ(result.status, Status::NumericalIssue);
    // −π ∈ [−γ, 1] and exact emissions: every component is a valid (background) state.
    ASSERT_EQ(result.componentInvalidMass.size(), 3);
    EXPECT_NEAR(result.invalidMass, 0.0, 1e-9);
}

TEST(HmmSpectral, InvalidStateMassCountsEmissionAndWeightViolations) {
    // Valid: emission within tolerance, weight inside [−γ, 1].
    EXPECT_EQ(invalidStateMass(0.4, 0.01, 0.02, 1.0, 0.01), 0.0);
    EXPECT_EQ(invalidStateMass(-0.9, 0.0, 0.02, 1.0, 0.01), 0.0);
    EXPECT_EQ(invalidStateMass(1.005, 0.0, 0.02, 0.0, 0.01), 0.0); // within the weight tolerance
    // Emission part: |ω|·(clipping − tolerance).
    EXPECT_NEAR(invalidStateMass(-0.5, 0.12, 0.02, 1.0, 0.01), 0.05, 1e-12);
    // Weight part: an occupancy difference above 1 or below −γ is no state.
    EXPECT_NEAR(invalidStateMass(2.0, 0.0, 0.02, 1.4, 0.01), 0.99, 1e-12);
    EXPECT_NEAR(invalidStateMass(-1.5, 0.0, 0.02, 1.0, 0.01), 0.49, 1e-12);
    EXPECT_NEAR(invalidStateMass(-1.5, 0.0, 0.02, 2.0, 0.01), 0.0, 1e-12);
    // Both.
    EXPECT_NEAR(invalidStateMass(1.5, 0.22, 0.02, 0.0, 0.01), 1.5 * 0.2 + 0.49, 1e-12);
}

} // namespace
} // namespace cx

namespace cx {
namespace {

TEST(HmmSpectral, EveryEstimatorOptionIsExactOnPopulationMoments) {
    const HmmParameters a = randomSyntheticHmm(3, 8, 61, 0.85);
    const HmmParameters b = randomSyntheticHmm(2, 8, 62, 0.8);
    const SequenceMoments moments = populationContrastiveMoments(a, b, 0.3);
    for (auto scaling : {FeatureScaling::None, FeatureScaling::InverseSqrtMean}) {
        for (auto transitions : {TransitionEstimator::PairMoment, TransitionEstimator::NextView}) {
            for (int rounds : {0, 2}) {
                ContrastiveHmmOptions options;
                options.numComponents = 5;
                options.featureScaling = scaling;
                options.transitionEstimator = transitions;
                options.refinementRounds = rounds;
                const auto result = solveContrastiveHmm(moments, 0.9, options);
                ASSERT_EQ(result.numSpecific, 3);
                EXPECT_LT(maxMatchedEmissionError(a.emissions, result.hmm.emissions), 1e-7);
                EXPECT_LT(matchedTransitionError(a, result.hmm), 1e-7);
                EXPECT_LT(result.residual, 1e-6);
            }
        }
    }
}

TEST(HmmSpectral, WindowsScalingsAndInitialisationsAreExactOnPopulationMoments) {
    // Windowed side views (whole past/future windows are independent of x_t given h_t), every
    // feature transform and both extraction methods recover the foreground HMM exactly.
    const HmmParameters a = randomSyntheticHmm(3, 8, 61, 0.85);
    const HmmParameters b = randomSyntheticHmm(2, 8, 62, 0.8);
    for (int lag : {1, 2}) {
        for (int window : {1, 2, 4}) {
            const SequenceMoments moments = populationContrastiveMoments(a, b, 0.3, lag, window);
            EXPECT_EQ(moments.sideDim(), window == 1 ? 9 : 8 * window + 1);
            for (auto scaling : {FeatureScaling::None, FeatureScaling::InverseSqrtMean,
                                 FeatureScaling::Whitening}) {
                for (auto init :
                     {AsymmetricInit::Deflation, AsymmetricInit::SimultaneousDiagonalization}) {
                    SCOPED_TRACE("lag " + std::to_string(lag) + " window " +
                                 std::to_string(window) + " scaling " +
                                 std::to_string(static_cast<int>(scaling)) + " init " +
                                 std::to_string(static_cast<int>(init)));
                    ContrastiveHmmOptions options;
                    options.numComponents = 5;
                    options.featureScaling = scaling;
                    options.initialization = init;
                    const auto result = solveContrastiveHmm(moments, 0.9, options);
                    ASSERT_EQ(result.numSpecific, 3);
                    EXPECT_EQ(result.decompositionRank, 5); // exact moments have rank 5
                    EXPECT_EQ(result.invalidMass, 0.0);
                    EXPECT_LT(maxMatchedEmissionError(a.emissions, result.hmm.emissions), 1e-7);
                    EXPECT_LT(matchedTransitionError(a, result.hmm), 1e-7);
                }
            }
        }
    }
}

TEST(HmmSpectral, ReserveComponentRecoversTheOccupiedStatesWhenARareStrongStateExists) {
    // The chr11 situation in miniature, with exact moments: 5 true states, K = 4 requested.
    // State 4 covers ~0.5 % of bins but has every mark at 0.85, so after the 1/√mean scaling it
    // dominates the moments; states 0 (quiescent) and 1 (quiescent + mark 0 at 0.25) are close.
    // The rank-4 decomposition keeps the rare state and merges/distorts the occupied ones; the
    // rank-5 decomposition is exact, and its 4 heaviest components are the occupied states.
    HmmParameters truth = randomSyntheticHmm(5, 8, 1, 0.9);
    truth.emissions.row(1) = truth.emissions.row(0);
    truth.emissions(1, 0) = 0.25;
    truth.emissions.row(4).setConstant(0.85);
    for (int i = 0; i < 5; ++i) {
        if (i != 4) {
            truth.transitions(i, 4) *= 0.02;
        }
        truth.transitions.row(i) /= truth.transitions.row(i).sum();
    }
    truth.start = stationaryDistribution(truth.transitions);
    ASSERT_LT(truth.start[4], 0.01);
    SequenceMoments moments = populationContrastiveMoments(truth, truth, 0.0);
    moments.foreground.numTriples = 10000000; // sampling scale of the validity test
    moments.background.numTriples = 10000000;
    const Eigen::MatrixXd occupied = truth.emissions.topRows(4);
    ContrastiveHmmOptions options;
    options.numComponents = 4;
    options.extraComponents = 0;
    const auto plain = solveContrastiveHmm(moments, 0.0, options);
    EXPECT_EQ(plain.decompositionRank, 4);
    EXPECT_GT(matchedMeanAbsoluteDifference(occupied, plain.markProbabilities), 0.1);
    options.extraComponents = 1; // the default
    const auto reserve = solveContrastiveHmm(moments, 0.0, options);
    EXPECT_EQ(reserve.decompositionRank, 5);
    EXPECT_EQ(reserve.candidateRanks, 1);
    EXPECT_EQ(reserve.invalidMass, 0.0);
    EXPECT_LT(maxMatchedEmissionError(occupied, reserve.markProbabilities), 1e-8);
    ASSERT_EQ(reserve.droppedWeights.size(), 1);
    EXPECT_NEAR(reserve.droppedWeights[0], truth.start[4], 1e-8);
    EXPECT_LT((reserve.droppedMarkProbabilities.row(0) - truth.emissions.row(4)).norm(), 1e-8);
    // The reported transitions are A restricted to the occupied states, rows renormalised.
    HmmParameters restricted = truth;
    restricted.emissions = occupied;
    restricted.transitions = truth.transitions.topLeftCorner(4, 4);
    for (int i = 0; i < 4; ++i) {
        restricted.transitions.row(i) /= restricted.transitions.row(i).sum();
    }
    restricted.start = truth.start.head(4) / truth.start.head(4).sum();
    EXPECT_LT(matchedTransitionError(restricted, reserve.hmm), 1e-8);
    // Exact moments of a 4-state model cap the rank at 4 (numerical rank of the pairs).
    const HmmParameters four = randomSyntheticHmm(4, 8, 3, 0.85);
    const auto capped =
        solveContrastiveHmm(populationContrastiveMoments(four, four, 0.0), 0.0, options);
    EXPECT_EQ(capped.decompositionRank, 4);
    EXPECT_EQ(capped.droppedWeights.size(), 0);
    EXPECT_LT(maxMatchedEmissionError(four.emissions, capped.hmm.emissions), 1e-8);
}

TEST(HmmSpectral, SampledWindowsRecoverEmissionsAndTransitions) {
    const HmmParameters truth = randomSyntheticHmm(4, 8, 9, 0.9);
    const ChromatinData data = sampleChromatinData(truth, {400000}, 3);
    SequenceMomentOptions momentOptions;
    momentOptions.window = 3;
    const SequenceMoments moments =
        computeSequenceMoments(data, classifyBins(data, nullptr, nullptr), momentOptions);
    EXPECT_EQ(moments.foreground.numTriples, 400000 - 6);
    ContrastiveHmmOptions options;
    options.numComponents = 4;
    const auto result = solveContrastiveHmm(moments, 0.0, options);
    ASSERT_EQ(result.numSpecific, 4);
    EXPECT_EQ(result.invalidMass, 0.0);
    EXPECT_LT(maxMatchedEmissionError(truth.emissions, result.hmm.emissions), 0.05);
    EXPECT_LT(matchedTransitionError(truth, result.hmm), 0.05);
}

TEST(HmmSpectral, LaggedTriplesRecoverEmissionsAndTheOneStepTransitions) {
    // Triples (x_{t−d}, x_t, x_{t+d}) are still conditionally independent given h_t; the
    // decomposition then yields A^d, whose principal d-th root is A.
    const HmmParameters truth = randomSyntheticHmm(4, 8, 9, 0.9);
    const ChromatinData data = sampleChromatinData(truth, {400000}, 3);
    const BinClasses classes = classifyBins(data, nullptr, nullptr);
    SequenceMomentOptions momentOptions;
    momentOptions.lag = 3;
    const SequenceMoments moments = computeSequenceMoments(data, classes, momentOptions);
    EXPECT_EQ(moments.lag, 3);
    EXPECT_EQ(moments.foreground.numTriples, 400000 - 6);
    ContrastiveHmmOptions options;
    options.numComponents = 4;
    const auto result = solveContrastiveHmm(moments, 0.0, options);
    ASSERT_EQ(result.numSpecific, 4);
    EXPECT_LT(maxMatchedEmissionError(truth.emissions, result.hmm.emissions), 0.05);
    EXPECT_LT(matchedTransitionError(truth, result.hmm), 0.05);
    SequenceMomentOptions bad;
    bad.lag = 0;
    EXPECT_THROW(computeSequenceMoments(data, classes, bad), std::invalid_argument);
}

} // namespace
} // namespace cx

namespace cx {
namespace {

/// Index of the first component whose marks satisfy `rule`, or −1.
template <typename Rule>
int findState(const ContrastiveHmmResult& result, const std::vector<std::string>& marks,
              Rule rule) {
    auto mark = [&](int k, const char* name) {
        const auto it = std::find(marks.begin(), marks.end(), name);
        return result.markProbabilities(k, static_cast<Eigen::Index>(it - marks.begin()));
    };
    for (int k = 0; k < static_cast<int>(result.weights.size()); ++k) {
        if (rule([&](const char* name) { return mark(k, name); })) {
            return k;
        }
    }
    return -1;
}

TEST(HmmRealSlice, SpectralStatesAreRecognisableAndContrastMovesThem) {
    // 2 × 20,000 real bins of chr11 (GM12878, K562); see tests/data/hmm/README.md.
    const std::string dir = std::string(CX_TEST_DATA_DIR) + "/hmm/";
    const ChromatinData data =
        readChromHmmTracks({dir + "GM12878_chr11_slice.txt.gz", dir + "K562_chr11_slice.txt.gz"});
    const auto quiescent = [](auto m) {
        for (const char* name : {"H3K27ac", "H3K27me3", "H3K36me3", "H3K4me1", "H3K4me3"}) {
            if (m(name) > 0.1) {
                return false;
            }
        }
        return true;
    };
    const auto promoter = [](auto m) { return m("H3K4me3") > 0.8 && m("H3K27ac") > 0.7; };
    const auto enhancer = [](auto m) { return m("H3K4me1") > 0.7 && m("H3K4me3") < 0.5; };
    const auto transcribed = [](auto m) { return m("H3K36me3") > 0.5 && m("H3K4me3") < 0.3; };
    const auto repressed = [](auto m) { return m("H3K27me3") > 0.3 && m("H3K4me3") < 0.2; };
    const auto insulator = [](auto m) { return m("CTCF") > 0.8; };

    ContrastiveHmmOptions options;
    options.numComponents = 7;
    const SequenceMoments whole =
        computeSequenceMoments(data, classifyBins(data, nullptr, nullptr));
    const auto plain = solveContrastiveHmm(whole, 0.0, options);
    ASSERT_EQ(plain.numSpecific, 7);
    EXPECT_EQ(plain.invalidMass, 0.0);
    for (const auto& [name, found] :
         {std::pair{"quiescent", findState(plain, data.markNames, quiescent)},
          std::pair{"promoter", findState(plain, data.markNames, promoter)},
          std::pair{"enhancer", findState(plain, data.markNames, enhancer)},
          std::pair{"transcribed", findState(plain, data.markNames, transcribed)},
          std::pair{"insulator", findState(plain, data.markNames, insulator)}}) {
        EXPECT_GE(found, 0) << name << " state not found";
    }
    EXPECT_EQ(findState(plain, data.markNames, quiescent), 0); // the largest weight
    // On this 40,000-bin slice the seven most occupied states have no Polycomb state (nor has
    // the best of 12 Baum–Welch runs at K = 7: its largest H3K27me3 probability is 0.05); the
    // eight-state model has it as its least occupied state.
    options.numComponents = 8;
    const auto eight = solveContrastiveHmm(whole, 0.0, options);
    const int polycomb = findState(eight, data.markNames, repressed);
    ASSERT_GE(polycomb, 0);
    EXPECT_EQ(polycomb, 7);
    options.numComponents = 7;

    // Foreground = genes ∪ TSS ± 2 kb: at γ = 1 quiescent and Polycomb-repressed chromatin
    // are background-like (negative weight), transcription and promoters stay specific.
    const BedRegions genes =
        readBedFiles({dir + "RefSeqGene.chr11_slice.bed", dir + "RefSeqTSS2kb.chr11_slice.bed"});
    const SequenceMoments contrast =
        computeSequenceMoments(data, classifyBins(data, &genes, nullptr));
    const auto specific = solveContrastiveHmm(contrast, 1.0, options);
    const int tx = findState(specific, data.markNames, transcribed);
    const int prom = findState(specific, data.markNames, promoter);
    const int rep = findState(specific, data.markNames, repressed);
    ASSERT_GE(tx, 0);
    ASSERT_GE(prom, 0);
    ASSERT_GE(rep, 0);
    EXPECT_GT(specific.weights[tx], 0);
    EXPECT_GT(specific.weights[prom], 0);
    EXPECT_LT(specific.weights[rep], 0);
    EXPECT_LT(specific.weights.minCoeff(), -0.1); // the quiescent state, now background

    // The reserve ranks never report a less valid model than Alg. 3 at rank K alone, at any γ.
    ContrastiveHmmOptions plainRank = options;
    plainRank.extraComponents = 0;
    for (double gamma = 0; gamma <= 2.0; gamma += 0.1) {
        const auto chosen = solveContrastiveHmm(contrast, gamma, options);
        const auto rankK = solveContrastiveHmm(contrast, gamma, plainRank);
        EXPECT_LE(chosen.invalidMass, rankK.invalidMass) << "γ = " << gamma;
        EXPECT_NEAR(chosen.invalidMass, chosen.componentInvalidMass.sum(), 1e-12);
    }
}

} // namespace
} // namespace cx
