// Block bootstrap of the contrastive HMM γ path: block moments against brute force, bands and
// stability against synthetic truth, determinism, automatic block length.
#include "core/common/random.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/hmm_bootstrap.h"
#include "core/hmm/hmm_path.h"
#include "core/hmm/sequence_moments.h"
#include "core/hmm/synthetic_hmm.h"
#include "core/io/bed.h"
#include "hmm_test_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace cx {
namespace {

void expectSameClass(const ClassMoments& a, const ClassMoments& b, const char* what) {
    EXPECT_EQ(a.numTriples, b.numTriples) << what;
    EXPECT_EQ(a.numBins, b.numBins) << what;
    EXPECT_EQ(a.m12, b.m12) << what;
    EXPECT_EQ(a.m13, b.m13) << what;
    EXPECT_EQ(a.m23, b.m23) << what;
    EXPECT_EQ(a.m11, b.m11) << what;
    EXPECT_EQ(a.m22, b.m22) << what;
    EXPECT_EQ(a.m33, b.m33) << what;
    EXPECT_EQ(a.m123.matrix(), b.m123.matrix()) << what;
}

void expectNearClass(const ClassMoments& a, const ClassMoments& b, double tol, const char* what) {
    EXPECT_EQ(a.numTriples, b.numTriples) << what;
    EXPECT_LT((a.m12 - b.m12).cwiseAbs().maxCoeff(), tol) << what;
    EXPECT_LT((a.m13 - b.m13).cwiseAbs().maxCoeff(), tol) << what;
    EXPECT_LT((a.m23 - b.m23).cwiseAbs().maxCoeff(), tol) << what;
    EXPECT_LT((a.m11 - b.m11).cwiseAbs().maxCoeff(), tol) << what;
    EXPECT_LT((a.m22 - b.m22).cwiseAbs().maxCoeff(), tol) << what;
    EXPECT_LT((a.m33 - b.m33).cwiseAbs().maxCoeff(), tol) << what;
    EXPECT_LT((a.m123.matrix() - b.m123.matrix()).cwiseAbs().maxCoeff(), tol) << what;
}

/// Small contrastive data: 12 foreground and 12 background regions of 37 bins (block lengths
/// that do not divide 37 leave a shorter last block in every run).
SyntheticContrast smallContrast() {
    const HmmParameters a = randomSyntheticHmm(3, 5, 11, 0.8);
    const HmmParameters b = randomSyntheticHmm(2, 5, 12, 0.7);
    SyntheticContrast synth = syntheticContrastiveData(a, b, 12, 37, 0.3, 3);
    return synth;
}

std::vector<std::int64_t> ones(int n) {
    return std::vector<std::int64_t>(static_cast<size_t>(n), 1);
}

TEST(HmmBootstrap, UnitBlockWeightsReproduceTheFullDataMomentsExactly) {
    const SyntheticContrast synth = smallContrast();
    const BinClasses classes = classifyBins(synth.data, &synth.foreground, &synth.background);
    struct Case {
        ObservationEncoding encoding;
        int lag, window, blockLength;
    };
    for (const Case c : {Case{ObservationEncoding::MarkVector, 1, 1, 7},
                         Case{ObservationEncoding::MarkVector, 2, 1, 1},
                         Case{ObservationEncoding::MarkVector, 1, 3, 10},
                         Case{ObservationEncoding::MarkVector, 1, 1, 0},
                         Case{ObservationEncoding::MarkCombination, 1, 1, 5},
                         Case{ObservationEncoding::MarkCombination, 2, 1, 0}}) {
        SequenceMomentOptions options;
        options.encoding = c.encoding;
        options.lag = c.lag;
        options.window = c.window;
        if (c.encoding == ObservationEncoding::MarkCombination) {
            options.projectionRank = 6; // fewer than the patterns: a real projection
        }
        const SequenceMoments full = computeSequenceMoments(synth.data, classes, options);
        const HmmBlockMoments blocks =
            computeBlockMoments(synth.data, classes, full, c.blockLength);
        ASSERT_GT(blocks.foreground.numBlocks(), 1);
        ASSERT_GT(blocks.background.numBlocks(), 1);
        const SequenceMoments summed = blocks.weighted(ones(blocks.foreground.numBlocks()),
                                                       ones(blocks.background.numBlocks()));
        // Same integer counts, same formulas: identical to the fast pass.
        expectSameClass(summed.foreground, full.foreground, "foreground");
        expectSameClass(summed.background, full.background, "background");
        if (c.encoding == ObservationEncoding::MarkVector) {
            // … and equal to the brute-force dense loop.
            const SequenceMoments direct = computeSequenceMomentsDirect(
                synth.data, classes, ObservationEncoding::MarkVector, c.lag, c.window);
            expectNearClass(summed.foreground, direct.foreground, 1e-12, "direct foreground");
            expectNearClass(summed.background, direct.background, 1e-12, "direct background");
        }
    }
}

TEST(HmmBootstrap, WeightedBlocksEqualABruteForceWeightedSumOverCentres) {
    const SyntheticContrast synth = smallContrast();
    const BinClasses classes = classifyBins(synth.data, &synth.foreground, &synth.background);
    const SequenceMoments full = computeSequenceMoments(synth.data, classes);
    const int length = 9;
    const HmmBlockMoments blocks = computeBlockMoments(synth.data, classes, full, length);
    const SequenceMoments replicate = blocks.replicate(7, 0);
    // Reconstruct the replicate's foreground weights from a fresh draw with the same seed.
    Rng rng(deriveSeed(7, 0));
    std::vector<std::int64_t> w(static_cast<size_t>(blocks.foreground.numBlocks()), 0);
    for (int i = 0; i < blocks.foreground.numBlocks(); ++i) {
        ++w[rng.below(static_cast<std::uint64_t>(blocks.foreground.numBlocks()))];
    }
    // Brute force: every centre t of every foreground run, in blocks of `length` bins from the
    // run start, weighted by its block's count.
    const int m = synth.data.numMarks();
    auto phi = [&](std::uint32_t p) {
        Eigen::VectorXd v = Eigen::VectorXd::Zero(m + 1);
        for (int j = 0; j < m; ++j) {
            v[j] = synth.data.value(static_cast<int>(p), j) ==
                           static_cast<std::uint8_t>(MarkValue::Present)
                       ? 1
                       : 0;
        }
        v[m] = 1;
        return v;
    };
    Eigen::MatrixXd m12 = Eigen::MatrixXd::Zero(m + 1, m + 1);
    DenseTensor3 m123(m + 1, m + 1, m + 1);
    double total = 0;
    size_t block = 0;
    for (const BinRun& run : runsWithFlag(synth.data, classes, kForegroundBin, true)) {
        const auto& bins = synth.data.tracks[static_cast<size_t>(run.track)].bins;
        for (std::int64_t begin = run.begin; begin < run.end; begin += length, ++block) {
            const std::int64_t end = std::min<std::int64_t>(begin + length, run.end);
            for (std::int64_t t = std::max(begin, run.begin + 1); t < std::min(end, run.end - 1);
                 ++t) {
                const double weight = static_cast<double>(w[block]);
                const Eigen::VectorXd x0 = phi(bins[static_cast<size_t>(t - 1)]);
                const Eigen::VectorXd x1 = phi(bins[static_cast<size_t>(t)]);
                const Eigen::VectorXd x2 = phi(bins[static_cast<size_t>(t + 1)]);
                m12 += weight * x0 * x1.transpose();
                m123.addRankOne(weight, x0, x1, x2);
                total += weight;
            }
        }
    }
    ASSERT_EQ(block, static_cast<size_t>(blocks.foreground.numBlocks()));
    ASSERT_GT(total, 0);
    EXPECT_EQ(replicate.foreground.numTriples, static_cast<std::int64_t>(total));
    EXPECT_LT((replicate.foreground.m12 - m12 / total).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((replicate.foreground.m123.matrix() - m123.matrix() / total).cwiseAbs().maxCoeff(),
              1e-12);
    // A replicate is a different sample than the data.
    EXPECT_NE(replicate.foreground.m12, full.foreground.m12);
    EXPECT_THROW(blocks.weighted({1, 2}, ones(blocks.background.numBlocks())),
                 std::invalid_argument);
    std::vector<std::int64_t> negative = ones(blocks.foreground.numBlocks());
    negative[0] = -1;
    EXPECT_THROW(blocks.weighted(negative, ones(blocks.background.numBlocks())),
                 std::invalid_argument);
    EXPECT_THROW(computeBlockMoments(synth.data, classes, full, -1), std::invalid_argument);
}

TEST(HmmBootstrap, AutomaticBlockLengthGrowsWithTheChainsMemory) {
    auto lengthFor = [](double stickiness, bool independent) {
        HmmParameters hmm = randomSyntheticHmm(3, 6, 21, stickiness);
        if (independent) {
            for (Eigen::Index i = 0; i < hmm.transitions.rows(); ++i) {
                hmm.transitions.row(i) = hmm.start.transpose(); // no memory: i.i.d. bins
            }
        }
        const ChromatinData data = sampleChromatinData(hmm, {40000}, 9);
        const BinClasses classes = classifyBins(data, nullptr, nullptr);
        return automaticBlockLength(data, classes, kForegroundBin);
    };
    const int iid = lengthFor(0.5, true);
    const int mild = lengthFor(0.5, false);
    const int sticky = lengthFor(0.95, false);
    EXPECT_LE(iid, 3);
    EXPECT_GT(mild, iid);
    EXPECT_GT(sticky, mild);
    EXPECT_LE(sticky, static_cast<int>(std::ceil(3 * std::sqrt(40000.0))));
}

/// Foreground = (1 − ρ)·A + ρ·B, background B, with strongly separated states.
struct SampledContrast {
    HmmParameters a = randomSyntheticHmm(3, 10, 31, 0.9);
    HmmParameters b = [] {
        HmmParameters h = randomSyntheticHmm(3, 10, 32, 0.85);
        h.emissions.row(0) << 0.7, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.8, 0.75, 0.05;
        return h;
    }();
    SyntheticContrast synth = syntheticContrastiveData(a, b, 200, 1000, 0.4, 5);
    BinClasses classes = classifyBins(synth.data, &synth.foreground, &synth.background);
    SequenceMoments moments = computeSequenceMoments(synth.data, classes);
};

TEST(HmmBootstrap, BandsContainTheTrueWeightsAndStrongStatesAreStable) {
    const SampledContrast s;
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    const std::vector<double> gammas{0.8, 1.2, 1.6};
    const HmmPath path = solveHmmPath(s.moments, gammas, options);
    const HmmBlockMoments blocks = computeBlockMoments(s.synth.data, s.classes, s.moments);
    EXPECT_GE(blocks.foreground.blockLength, 1);
    HmmBootstrapOptions bootstrap;
    bootstrap.replicates = 20;
    bootstrap.seed = 3;
    int calls = 0;
    const HmmPathBootstrap result = bootstrapHmmPath(
        blocks, path, options, bootstrap, HmmPathStarts::Continued, {}, [&](int done, int total) {
            ++calls;
            EXPECT_EQ(total, 20);
            EXPECT_EQ(done, calls);
        });
    EXPECT_EQ(calls, 20);
    ASSERT_EQ(result.stability.size(), gammas.size());
    const Eigen::VectorXd piA = stationaryDistribution(s.a.transitions);
    const Eigen::VectorXd piB = stationaryDistribution(s.b.transitions);
    const double rho = s.synth.rho;
    for (size_t i = 0; i < gammas.size(); ++i) {
        const ContrastiveHmmResult& r = path.solutions[i];
        // Every true state (A's with ω = (1 − ρ)π_A, B's with ω = (ρ − γ)π_B) is found, its
        // band contains the true weight and it reappears in (almost) every replicate.
        Eigen::MatrixXd truth(6, 10);
        truth << s.a.emissions, s.b.emissions;
        Eigen::VectorXd trueWeights(6);
        trueWeights << (1 - rho) * piA, (rho - gammas[i]) * piB;
        const std::vector<int> match = matchStates(truth, r.markProbabilities);
        for (int h = 0; h < 6; ++h) {
            const auto t = static_cast<size_t>(match[static_cast<size_t>(h)]);
            EXPECT_GE(result.stability[i][t], 0.9) << "γ " << gammas[i] << " state " << h;
            EXPECT_LE(result.weightLo[i][t], trueWeights[h]) << "γ " << gammas[i] << " state " << h;
            EXPECT_GE(result.weightHi[i][t], trueWeights[h]) << "γ " << gammas[i] << " state " << h;
            EXPECT_LE(result.weightLo[i][t], r.weights[static_cast<Eigen::Index>(t)]);
            EXPECT_GE(result.weightHi[i][t], r.weights[static_cast<Eigen::Index>(t)]);
            const int id = path.ids[i][t];
            EXPECT_FALSE(result.isUnstable(id));
        }
    }
    // Same seed → identical bands; another seed → other bands.
    const HmmPathBootstrap again = bootstrapHmmPath(blocks, path, options, bootstrap);
    EXPECT_EQ(again.weightLo, result.weightLo);
    EXPECT_EQ(again.weightHi, result.weightHi);
    EXPECT_EQ(again.stability, result.stability);
    EXPECT_EQ(again.identityStability, result.identityStability);
    bootstrap.seed = 4;
    const HmmPathBootstrap other = bootstrapHmmPath(blocks, path, options, bootstrap);
    EXPECT_NE(other.weightLo, result.weightLo);
}

TEST(HmmBootstrap, ComponentsFittedToNoiseAreUnstable) {
    // The same data with K = 7, one component more than the six states they have: the rank-7
    // decomposition has to fit a noise direction and its components are no longer the true
    // states (each misses its nearest true emission by > 0.3 in some mark). Resampling the
    // blocks moves the noise, so no component reappears: every one is flagged unstable, while
    // with K = 6 (the test above) every state is stable.
    const SampledContrast s;
    ContrastiveHmmOptions options;
    options.numComponents = 7;
    const HmmPath path = solveHmmPath(s.moments, {1.2}, options);
    const HmmBlockMoments blocks = computeBlockMoments(s.synth.data, s.classes, s.moments);
    HmmBootstrapOptions bootstrap;
    bootstrap.replicates = 20;
    const HmmPathBootstrap result = bootstrapHmmPath(blocks, path, options, bootstrap);
    const ContrastiveHmmResult& r = path.solutions[0];
    ASSERT_EQ(r.weights.size(), 7);
    Eigen::MatrixXd truth(6, 10);
    truth << s.a.emissions, s.b.emissions;
    EXPECT_GT(test::maxMatchedEmissionError(truth, r.markProbabilities), 0.3);
    for (size_t t = 0; t < 7; ++t) {
        EXPECT_LT(result.stability[0][t], kMinStateStability) << "component " << t;
        EXPECT_TRUE(result.isUnstable(path.ids[0][t])) << "component " << t;
    }
}

TEST(HmmBootstrap, RejectsBadParameters) {
    const test::ExactContrast exact;
    const SampledContrast s;
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    const HmmPath path = solveHmmPath(s.moments, {1.0}, options);
    const HmmBlockMoments blocks = computeBlockMoments(s.synth.data, s.classes, s.moments, 50);
    EXPECT_EQ(blocks.foreground.blockLength, 50);
    HmmBootstrapOptions bootstrap;
    bootstrap.replicates = 1;
    EXPECT_THROW(bootstrapHmmPath(blocks, path, options, bootstrap), std::invalid_argument);
    bootstrap.replicates = kMaxHmmBootstrapReplicates + 1;
    EXPECT_THROW(bootstrapHmmPath(blocks, path, options, bootstrap), std::invalid_argument);
    bootstrap.replicates = 2;
    bootstrap.level = 1.0;
    EXPECT_THROW(bootstrapHmmPath(blocks, path, options, bootstrap), std::invalid_argument);
    bootstrap.level = 0.95;
    EXPECT_THROW(bootstrapHmmPath(blocks, HmmPath{}, options, bootstrap), std::invalid_argument);
    // Moments of other data.
    EXPECT_THROW(computeBlockMoments(s.synth.data, s.classes, exact.moments),
                 std::invalid_argument);
}

} // namespace
} // namespace cx
