// Forward–backward, Viterbi, segmentation and Baum–Welch EM.
#include "core/common/parallel.h"
#include "core/hmm/baum_welch.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/synthetic_hmm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

namespace cx {
namespace {

struct BruteForce {
    double logLikelihood = 0;
    Eigen::MatrixXd posteriors;  // K × L
    Eigen::MatrixXd transitions; // expected transition counts
    std::vector<std::uint16_t> bestPath;
    double bestLogJoint = -1e300;
};

BruteForce enumeratePaths(const Eigen::VectorXd& start, const Eigen::MatrixXd& a,
                          const Eigen::MatrixXd& table, const std::vector<std::uint32_t>& x) {
    const int k = static_cast<int>(start.size());
    const int length = static_cast<int>(x.size());
    BruteForce out;
    out.posteriors = Eigen::MatrixXd::Zero(k, length);
    out.transitions = Eigen::MatrixXd::Zero(k, k);
    std::vector<int> path(static_cast<size_t>(length), 0);
    double total = 0;
    std::vector<std::pair<std::vector<int>, double>> all;
    for (;;) {
        double p = start[path[0]] * table(path[0], x[0]);
        for (int t = 1; t < length; ++t) {
            p *= a(path[static_cast<size_t>(t - 1)], path[static_cast<size_t>(t)]) *
                 table(path[static_cast<size_t>(t)], x[static_cast<size_t>(t)]);
        }
        total += p;
        all.emplace_back(path, p);
        if (std::log(p) > out.bestLogJoint) {
            out.bestLogJoint = std::log(p);
            out.bestPath.assign(path.begin(), path.end());
        }
        int t = 0;
        while (t < length && ++path[static_cast<size_t>(t)] == k) {
            path[static_cast<size_t>(t)] = 0;
            ++t;
        }
        if (t == length) {
            break;
        }
    }
    for (const auto& [states, p] : all) {
        for (int t = 0; t < length; ++t) {
            out.posteriors(states[static_cast<size_t>(t)], t) += p / total;
            if (t > 0) {
                out.transitions(states[static_cast<size_t>(t - 1)],
                                states[static_cast<size_t>(t)]) += p / total;
            }
        }
    }
    out.logLikelihood = std::log(total);
    return out;
}

Eigen::MatrixXd randomStochastic(int rows, int cols, std::mt19937_64& engine) {
    std::uniform_real_distribution<double> u(0.05, 1.0);
    Eigen::MatrixXd m(rows, cols);
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            m(i, j) = u(engine);
        }
        m.row(i) /= m.row(i).sum();
    }
    return m;
}

TEST(HmmDecoding, ForwardBackwardAndViterbiMatchBruteForce) {
    std::mt19937_64 engine(5);
    const int k = 3;
    const Eigen::VectorXd start = randomStochastic(1, k, engine).row(0).transpose();
    const Eigen::MatrixXd a = randomStochastic(k, k, engine);
    const Eigen::MatrixXd table = randomStochastic(k, 4, engine); // P(symbol | state)
    const std::vector<std::uint32_t> x = {0, 3, 3, 1, 2, 0, 1};
    const BruteForce truth = enumeratePaths(start, a, table, x);

    std::vector<double> workspace;
    HmmSufficientStats stats;
    stats.reset(k, 4);
    Eigen::MatrixXd posteriors;
    std::vector<std::uint16_t> argmax(x.size());
    const double ll =
        forwardBackward(start, a, table, x, workspace, &stats, argmax.data(), &posteriors);
    EXPECT_NEAR(ll, truth.logLikelihood, 1e-12);
    EXPECT_NEAR(forwardLogLikelihood(start, a, table, x), truth.logLikelihood, 1e-12);
    EXPECT_LT((posteriors - truth.posteriors).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((stats.transitions - truth.transitions).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((stats.start - truth.posteriors.col(0)).cwiseAbs().maxCoeff(), 1e-12);
    for (size_t t = 0; t < x.size(); ++t) {
        Eigen::Index best = 0;
        truth.posteriors.col(static_cast<Eigen::Index>(t)).maxCoeff(&best);
        EXPECT_EQ(argmax[t], best);
        // Posterior mass aggregated per symbol.
    }
    Eigen::MatrixXd perSymbol = Eigen::MatrixXd::Zero(k, 4);
    for (size_t t = 0; t < x.size(); ++t) {
        perSymbol.col(x[t]) += truth.posteriors.col(static_cast<Eigen::Index>(t));
    }
    EXPECT_LT((stats.patternPosteriors - perSymbol).cwiseAbs().maxCoeff(), 1e-12);

    std::vector<std::uint16_t> path;
    const double logJoint = viterbi(start, a, table, x, path);
    EXPECT_EQ(path, truth.bestPath);
    EXPECT_NEAR(logJoint, truth.bestLogJoint, 1e-12);
}

TEST(HmmDecoding, TextbookHealthyFeverViterbi) {
    // Wikipedia's Viterbi example: states Healthy, Fever; observations normal, cold, dizzy.
    Eigen::VectorXd start(2);
    start << 0.6, 0.4;
    Eigen::MatrixXd a(2, 2);
    a << 0.7, 0.3, 0.4, 0.6;
    Eigen::MatrixXd table(2, 3);
    table << 0.5, 0.4, 0.1, 0.1, 0.3, 0.6;
    const std::vector<std::uint32_t> x = {0, 1, 2};
    std::vector<std::uint16_t> path;
    const double logJoint = viterbi(start, a, table, x, path);
    EXPECT_EQ(path, (std::vector<std::uint16_t>{0, 0, 1}));
    EXPECT_NEAR(std::exp(logJoint), 0.01512, 1e-12);
    // P(x) by the forward algorithm: 0.03628.
    EXPECT_NEAR(std::exp(forwardLogLikelihood(start, a, table, x)), 0.03628, 1e-12);
}

TEST(HmmDecoding, RejectsInconsistentInputs) {
    Eigen::VectorXd start = Eigen::VectorXd::Constant(2, 0.5);
    Eigen::MatrixXd a = Eigen::MatrixXd::Constant(2, 2, 0.5);
    Eigen::MatrixXd table = Eigen::MatrixXd::Constant(2, 3, 1.0 / 3);
    std::vector<double> workspace;
    const std::vector<std::uint32_t> bad = {0, 3};
    EXPECT_THROW(forwardBackward(start, a, table, bad, workspace), std::invalid_argument);
    EXPECT_THROW(forwardLogLikelihood(start, Eigen::MatrixXd::Constant(3, 3, 0.3), table,
                                      std::vector<std::uint32_t>{0}),
                 std::invalid_argument);
    EXPECT_THROW(forwardLogLikelihood(start, a, table, std::vector<std::uint32_t>{}),
                 std::invalid_argument);
}

TEST(HmmBaumWelch, LogLikelihoodNeverDecreases) {
    const HmmParameters truth = randomSyntheticHmm(4, 6, 3, 0.85);
    const ChromatinData data = sampleChromatinData(truth, {8000, 5000, 3000}, 7);
    BaumWelchOptions options;
    options.maxIterations = 40;
    options.tolerance = 0;
    const BaumWelchResult result =
        baumWelch(data, wholeTrackRuns(data),
                  randomHmm(4, data, ObservationEncoding::MarkVector, 11), options);
    ASSERT_EQ(result.logLikelihoods.size(), 41u);
    EXPECT_EQ(result.iterations, 40);
    for (size_t i = 1; i < result.logLikelihoods.size(); ++i) {
        EXPECT_GE(result.logLikelihoods[i],
                  result.logLikelihoods[i - 1] - 1e-9 * std::abs(result.logLikelihoods[i - 1]))
            << "iteration " << i;
    }
    // The reported log-likelihood is that of the returned model.
    EXPECT_NEAR(logLikelihood(data, wholeTrackRuns(data), result.hmm), result.finalLogLikelihood(),
                1e-6 * std::abs(result.finalLogLikelihood()));
}

TEST(HmmBaumWelch, CombinationEncodingAlsoIncreases) {
    const HmmParameters truth = randomSyntheticHmm(3, 4, 8, 0.85);
    const ChromatinData data = sampleChromatinData(truth, {6000}, 9);
    BaumWelchOptions options;
    options.maxIterations = 15;
    options.tolerance = 0;
    const BaumWelchResult result =
        baumWelch(data, wholeTrackRuns(data),
                  randomHmm(3, data, ObservationEncoding::MarkCombination, 2), options);
    for (size_t i = 1; i < result.logLikelihoods.size(); ++i) {
        EXPECT_GE(result.logLikelihoods[i],
                  result.logLikelihoods[i - 1] - 1e-9 * std::abs(result.logLikelihoods[i - 1]));
    }
    for (int s = 0; s < 3; ++s) {
        EXPECT_NEAR(result.hmm.emissions.row(s).sum(), 1.0, 1e-9);
    }
}

TEST(HmmBaumWelch, ConvergesFromTheSpectralSolutionToTheTruth) {
    const HmmParameters truth = randomSyntheticHmm(4, 8, 21, 0.9);
    const ChromatinData data = sampleChromatinData(truth, {60000, 40000}, 4);
    const SequenceMoments moments =
        computeSequenceMoments(data, classifyBins(data, nullptr, nullptr));
    ContrastiveHmmOptions spectralOptions;
    spectralOptions.numComponents = 4;
    const ContrastiveHmmResult spectral = solveContrastiveHmm(moments, 0.0, spectralOptions);
    ASSERT_EQ(spectral.numSpecific, 4);
    BaumWelchOptions options;
    options.tolerance = 1e-7;
    const BaumWelchResult result =
        baumWelch(data, wholeTrackRuns(data), smoothedForEm(spectral.hmm, data), options);
    EXPECT_EQ(result.status, Status::Successful);
    const auto match = matchStates(truth.emissions, result.hmm.emissions);
    for (int k = 0; k < 4; ++k) {
        EXPECT_LT((truth.emissions.row(k) - result.hmm.emissions.row(match[static_cast<size_t>(k)]))
                      .cwiseAbs()
                      .maxCoeff(),
                  0.02);
        for (int j = 0; j < 4; ++j) {
            EXPECT_NEAR(truth.transitions(k, j),
                        result.hmm.transitions(match[static_cast<size_t>(k)],
                                               match[static_cast<size_t>(j)]),
                        0.02);
        }
    }
    // The spectral start is already good: EM needs few iterations.
    EXPECT_LT(result.iterations, 50);
}

TEST(HmmBaumWelch, IdenticalForAnyThreadCount) {
    const HmmParameters truth = randomSyntheticHmm(3, 5, 1, 0.8);
    const ChromatinData data = sampleChromatinData(truth, {3000, 2000, 2500, 1000, 4000}, 2);
    BaumWelchOptions options;
    options.maxIterations = 5;
    options.tolerance = 0;
    const HmmParameters init = randomHmm(3, data, ObservationEncoding::MarkVector, 3);
    setThreadCount(1);
    const BaumWelchResult one = baumWelch(data, wholeTrackRuns(data), init, options);
    setThreadCount(2);
    const BaumWelchResult two = baumWelch(data, wholeTrackRuns(data), init, options);
    setThreadCount(0);
    EXPECT_EQ(one.logLikelihoods, two.logLikelihoods);
    EXPECT_EQ(one.hmm.emissions, two.hmm.emissions);
}

TEST(HmmBaumWelch, MissingMarksAreSkippedInLikelihoods) {
    ChromatinData data;
    data.markNames = {"A", "B"};
    appendTrackFromValues(data, "C", "chr1", {1, 2, 0, 1, 1, 1, 2, 2});
    HmmParameters hmm;
    hmm.start = Eigen::VectorXd::Constant(2, 0.5);
    hmm.transitions = Eigen::MatrixXd::Constant(2, 2, 0.5);
    hmm.emissions.resize(2, 2);
    hmm.emissions << 0.9, 0.2, 0.3, 0.6;
    const Eigen::MatrixXd table = emissionLikelihoods(hmm, data);
    const auto& bins = data.tracks[0].bins;
    EXPECT_NEAR(table(0, bins[0]), 0.9, 1e-12);       // (1, missing)
    EXPECT_NEAR(table(1, bins[1]), 0.7 * 0.6, 1e-12); // (0, 1)
    EXPECT_NEAR(table(1, bins[3]), 1.0, 1e-12);       // (missing, missing)
    BaumWelchOptions options;
    options.maxIterations = 3;
    const BaumWelchResult result = baumWelch(data, wholeTrackRuns(data), hmm, options);
    EXPECT_TRUE(std::isfinite(result.finalLogLikelihood()));
}

TEST(HmmBaumWelch, RejectsBadArguments) {
    ChromatinData data;
    data.markNames = {"A"};
    appendTrackFromValues(data, "C", "chr1", {0, 1, 0});
    const HmmParameters init = randomHmm(2, data, ObservationEncoding::MarkVector, 1);
    EXPECT_THROW(baumWelch(data, {{0, 0, 9}}, init), std::invalid_argument);
    EXPECT_THROW(baumWelch(data, {{1, 0, 2}}, init), std::invalid_argument);
    HmmParameters bad = init;
    bad.transitions.resize(3, 3);
    EXPECT_THROW(baumWelch(data, wholeTrackRuns(data), bad), std::invalid_argument);
    EXPECT_THROW(randomHmm(0, data, ObservationEncoding::MarkVector, 1), std::invalid_argument);
}

TEST(HmmDecoding, SegmentationAndBed9) {
    ChromatinData data;
    data.markNames = {"A"};
    data.binSize = 100;
    appendTrackFromValues(data, "C1", "chr1", {0, 0, 1, 1, 1, 0});
    appendTrackFromValues(data, "C2", "chr1", {1, 1});
    HmmParameters hmm;
    hmm.start = Eigen::VectorXd::Constant(2, 0.5);
    hmm.transitions.resize(2, 2);
    hmm.transitions << 0.9, 0.1, 0.1, 0.9;
    hmm.emissions.resize(2, 1);
    hmm.emissions << 0.01, 0.99;
    for (auto method : {DecodingMethod::Posterior, DecodingMethod::Viterbi}) {
        const Segmentation segmentation = segmentTracks(data, hmm, method);
        ASSERT_EQ(segmentation.states.size(), 2u);
        EXPECT_EQ(segmentation.states[0], (std::vector<std::uint16_t>{0, 0, 1, 1, 1, 0}));
        EXPECT_EQ(segmentation.states[1], (std::vector<std::uint16_t>{1, 1}));
        EXPECT_NEAR(segmentation.logLikelihood, logLikelihood(data, wholeTrackRuns(data), hmm),
                    1e-9);
        std::ostringstream bed;
        writeSegmentationBed9(bed, data, segmentation, {"E1", "E2"}, false);
        EXPECT_EQ(bed.str(), "chr1\t0\t200\tE1\t0\t.\t0\t200\t" + stateColor(0) + "\n" +
                                 "chr1\t200\t500\tE2\t0\t.\t200\t500\t" + stateColor(1) + "\n" +
                                 "chr1\t500\t600\tE1\t0\t.\t500\t600\t" + stateColor(0) + "\n" +
                                 "chr1\t0\t200\tE2\t0\t.\t0\t200\t" + stateColor(1) + "\n");
        std::ostringstream withTracks;
        writeSegmentationBed9(withTracks, data, segmentation, {"E1", "E2"}, true, 1);
        EXPECT_EQ(withTracks.str().rfind("track name=\"C2\"", 0), 0u);
    }
    EXPECT_NE(stateColor(0), stateColor(1));
    EXPECT_EQ(stateColor(0), stateColor(20));
}

} // namespace
} // namespace cx
