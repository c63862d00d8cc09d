// What is computed from a decoded segmentation: runs, background-like run labels, overlap fold
// enrichment against a brute-force count, the tracked state-weight sweep against direct
// solves, and BED9 text (one writer for the CLI's and the GUI's files).
#include "core/hmm/hmm_path.h"
#include "core/hmm/segmentation_analysis.h"
#include "core/hmm/synthetic_hmm.h"
#include "hmm_test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

using namespace cx;

namespace {

ChromatinData tinyData(int bins, int binSize) {
    ChromatinData data;
    data.markNames = {"M"};
    data.binSize = binSize;
    ChromatinTrack track;
    track.cell = "CELL";
    track.chrom = "chr1";
    track.bins.assign(static_cast<size_t>(bins), 0);
    data.tracks.push_back(track);
    data.patternValues = {0};
    data.patternCounts = {bins};
    return data;
}

} // namespace

TEST(SegmentationRuns, MaximalRunsOfEqualStates) {
    Segmentation segmentation;
    segmentation.numStates = 3;
    segmentation.states = {{0, 0, 1, 1, 1, 2, 0}, {2}, {}};
    const auto runs = segmentationRuns(segmentation);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0], (std::vector<StateRun>{{0, 2, 0}, {2, 5, 1}, {5, 6, 2}, {6, 7, 0}}));
    EXPECT_EQ(runs[1], (std::vector<StateRun>{{0, 1, 2}}));
    EXPECT_TRUE(runs[2].empty());
}

TEST(BackgroundRuns, RunsABackgroundStateExplainsBetterAreRelabelled) {
    // Two marks; bins 0–3 carry mark A (specific state 0 fits), bins 4–9 carry nothing: the
    // specific HMM's only other state (mark B) fits them worse than the background component.
    ChromatinData data;
    data.markNames = {"A", "B"};
    data.binSize = 200;
    ChromatinTrack track;
    track.cell = "C";
    track.chrom = "chr1";
    track.bins = {0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
    data.tracks.push_back(track);
    data.patternValues = {1, 0, 0, 0};
    data.patternCounts = {4, 6};
    ContrastiveHmmResult result;
    result.numSpecific = 2;
    result.markProbabilities.resize(3, 2);
    result.markProbabilities << 0.9, 0.05, // specific: mark A
        0.05, 0.8,                         // specific: mark B
        0.02, 0.02;                        // background-like: nothing
    std::vector<std::vector<StateRun>> runs = {{{0, 4, 0}, {4, 10, 1}}};
    EXPECT_EQ(labelBackgroundRuns(data, result, runs), 6);
    ASSERT_EQ(runs[0].size(), 2u);
    EXPECT_EQ(runs[0][0].state, 0);
    EXPECT_EQ(runs[0][1].state, 2);
    // All states specific: nothing to relabel.
    result.numSpecific = 3;
    std::vector<std::vector<StateRun>> same = {{{0, 4, 0}, {4, 10, 1}}};
    EXPECT_EQ(labelBackgroundRuns(data, result, same), 0);
}

TEST(StateWeightSweep, TracksThePathAlongGamma) {
    const test::ExactContrast exact;
    const SequenceMoments& moments = exact.moments;
    const ContrastiveHmmOptions& options = exact.options;
    const std::vector<double> gammas = {0.0, 0.5, 1.0, 1.5};
    const StateWeightSweep sweep = sweepStateWeights(moments, gammas, options);
    ASSERT_EQ(sweep.gammas, gammas);
    ASSERT_EQ(sweep.weights.size(), gammas.size());
    const HmmPath path = solveHmmPath(moments, gammas, options);
    for (size_t g = 0; g < gammas.size(); ++g) {
        // The sweep is the path; on exact moments the path equals the direct solves.
        const ContrastiveHmmResult& direct = path.solutions[g];
        const ContrastiveHmmResult fresh = solveContrastiveHmm(moments, gammas[g], options);
        EXPECT_LT(matchedMeanAbsoluteDifference(fresh.markProbabilities, direct.markProbabilities),
                  1e-8);
        EXPECT_NEAR(direct.weights.sum(), fresh.weights.sum(), 1e-8);
        EXPECT_DOUBLE_EQ(sweep.specificInvalidMass[g], direct.specificInvalidMass());
        // Row t of the sweep is some component of the direct solve, each used once.
        std::vector<bool> used(static_cast<size_t>(direct.weights.size()), false);
        for (Eigen::Index t = 0; t < sweep.weights[g].size(); ++t) {
            bool found = false;
            for (Eigen::Index c = 0; c < direct.weights.size() && !found; ++c) {
                if (!used[static_cast<size_t>(c)] && sweep.weights[g][t] == direct.weights[c] &&
                    sweep.profiles[g].row(t) == direct.markProbabilities.row(c)) {
                    used[static_cast<size_t>(c)] = true;
                    found = true;
                }
            }
            EXPECT_TRUE(found) << "γ " << gammas[g] << " row " << t;
        }
        if (g > 0) {
            // Tracking: each row stays close to the same row one γ earlier.
            const std::vector<int> order = matchStates(sweep.profiles[g - 1], sweep.profiles[g]);
            for (size_t t = 0; t < order.size(); ++t) {
                EXPECT_EQ(order[t], static_cast<int>(t)) << "γ " << gammas[g];
            }
        }
    }
}

TEST(RunsBed9, SameBytesAsTheSegmentationWriterAndChecksLabels) {
    ChromatinData data = tinyData(6, 200);
    ChromatinTrack second = data.tracks.front();
    second.cell = "OTHER";
    data.tracks.push_back(second);
    Segmentation segmentation;
    segmentation.numStates = 2;
    segmentation.states = {{0, 0, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}};
    std::ostringstream viaSegmentation;
    writeSegmentationBed9(viaSegmentation, data, segmentation, {"E1", "E2"}, true);
    std::ostringstream viaRuns;
    writeRunsBed9(viaRuns, data, segmentationRuns(segmentation), {"E1", "E2"},
                  {stateColor(0), stateColor(1)}, [](const ChromatinTrack& track) {
                      return "track name=\"" + track.cell +
                             "\" description=\"contrast-cli hmm states (" + track.cell +
                             ", posterior)\" itemRgb=\"On\"";
                  });
    EXPECT_EQ(viaRuns.str(), viaSegmentation.str());
    EXPECT_NE(viaRuns.str().find("chr1\t0\t400\tE1\t0\t.\t0\t400\t" + stateColor(0) + "\n"),
              std::string::npos);
    std::ostringstream only;
    writeRunsBed9(only, data, segmentationRuns(segmentation), {"E1", "E2"}, {"1,1,1", "2,2,2"}, {},
                  1);
    EXPECT_EQ(only.str(), "chr1\t0\t1200\tE2\t0\t.\t0\t1200\t2,2,2\n");
    std::ostringstream missing;
    EXPECT_THROW(writeRunsBed9(missing, data, segmentationRuns(segmentation), {"E1"}, {"1,1,1"}),
                 std::invalid_argument);
}

// Decoded contrast: shares and p_f − γ·p_b against a count by hand; a specific state the
// segmentation puts everywhere (the forced state of a model without an unmarked state) is
// contradicted, one whose decoded contrast matches its weight is not.
TEST(DecodedContrast, SharesAgainstACountAndTheForcedStateIsFlagged) {
    // Two tracks of 1,000 bins; the first 500 of each foreground, the rest background.
    const int bins = 1000;
    BinClasses classes;
    for (int track = 0; track < 2; ++track) {
        std::vector<std::uint8_t> flags(bins, kBackgroundBin);
        std::fill(flags.begin(), flags.begin() + 500, kForegroundBin);
        classes.flags.push_back(flags);
    }
    classes.foregroundBins = 1000;
    classes.backgroundBins = 1000;
    // State 0 (ω = 0.10): 150 foreground bins and 20 background bins in all → p_f 0.15, p_b 0.02.
    // State 1 (ω = 0.05): most other bins → p_f 0.85, p_b 0.97: decoded contrast 0.85 − 2·0.97.
    // State 2: background-like (ω < 0), never flagged.
    DecodedSegmentation segmentation;
    segmentation.numStates = 3;
    segmentation.numSpecific = 2;
    segmentation.runs = {{{0, 100, 0}, {100, 500, 1}, {500, 510, 0}, {510, 1000, 1}},
                         {{0, 50, 0}, {50, 500, 1}, {500, 510, 0}, {510, 990, 1}, {990, 1000, 2}}};
    ContrastiveHmmResult result;
    result.gamma = 2.0;
    result.weights = Eigen::Vector3d(0.10, 0.05, -0.3);

    const DecodedContrast contrast = decodedContrast(segmentation, classes, result);
    ASSERT_EQ(contrast.contrast.size(), 3u);
    EXPECT_DOUBLE_EQ(contrast.foregroundShare[0], 0.15);
    EXPECT_DOUBLE_EQ(contrast.backgroundShare[0], 0.02);
    EXPECT_DOUBLE_EQ(contrast.foregroundShare[1], 0.85);
    EXPECT_DOUBLE_EQ(contrast.backgroundShare[1], 0.97);
    EXPECT_DOUBLE_EQ(contrast.backgroundShare[2], 0.01);
    EXPECT_NEAR(contrast.contrast[0], 0.15 - 2 * 0.02, 1e-12);
    EXPECT_NEAR(contrast.contrast[1], 0.85 - 2 * 0.97, 1e-12);
    EXPECT_NEAR(contrast.standardError[0], std::sqrt(0.15 * 0.85 / 1000 + 4 * 0.02 * 0.98 / 1000),
                1e-12);
    EXPECT_EQ(contrast.contradicted, std::vector<int>{1});

    // Without background bins (whole genome), γ has no effect: contrast = foreground share.
    BinClasses whole = classes;
    for (auto& flags : whole.flags) {
        std::fill(flags.begin(), flags.end(), kForegroundBin);
    }
    whole.foregroundBins = 2000;
    whole.backgroundBins = 0;
    const DecodedContrast plain = decodedContrast(segmentation, whole, result);
    EXPECT_NEAR(plain.contrast[1], 1820.0 / 2000, 1e-12);
    EXPECT_TRUE(plain.contradicted.empty());

    // Classes of another data set: refused, not read out of bounds.
    BinClasses oneTrack = classes;
    oneTrack.flags.pop_back();
    EXPECT_THROW(decodedContrast(segmentation, oneTrack, result), std::invalid_argument);
    BinClasses shortTrack = classes;
    shortTrack.flags[1].resize(500);
    EXPECT_THROW(decodedContrast(segmentation, shortTrack, result), std::invalid_argument);
}
