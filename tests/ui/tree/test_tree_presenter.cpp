// The Tree workspace's pure functions: tree text checks, the diagram layout, heatmap rows in
// the shared state order, track runs and differing-region lanes against brute force.
#include "ui/tree/tree_presenter.h"

#include <gtest/gtest.h>

#include <random>

using namespace cx::ui;

TEST(TreePresenter, TreeTextIsCheckedAgainstTheOpenedCells) {
    const QStringList cells = {"H1-hESC", "GM12878", "K562"};
    EXPECT_TRUE(treeSpecProblem("H1-hESC>GM12878,K562", cells).isEmpty());
    EXPECT_TRUE(treeSpecProblem("GM12878>K562", cells).isEmpty());
    EXPECT_FALSE(treeSpecProblem("A>B;B>A", cells).isEmpty());
    EXPECT_FALSE(treeSpecProblem("", cells).isEmpty());
    EXPECT_FALSE(treeSpecProblem("H1-hESC>GM12878;K562>HeLa-S3", {}).isEmpty()); // a forest
    const QString missing = treeSpecProblem("H1-hESC>GM12878,HeLa-S3", cells);
    EXPECT_TRUE(missing.contains("no tracks for: HeLa-S3")) << missing.toStdString();
    EXPECT_TRUE(treeSpecProblem("X>Y", {}).isEmpty());
}

TEST(TreePresenter, CellNamesFromFilesAndTheDefaultStar) {
    EXPECT_EQ(cellOfTrackFile("/d/GM12878_chr20_binary.txt.gz"), "GM12878");
    EXPECT_EQ(cellOfTrackFile("H1-hESC_chr1_binary.txt"), "H1-hESC");
    EXPECT_EQ(cellOfTrackFile("odd.txt"), "odd.txt");
    EXPECT_EQ(cellsOfTrackFiles({"K_chr1_binary.txt", "A_chr1_binary.txt", "K_chr2_binary.txt"}),
              (QStringList{"K", "A"}));
    EXPECT_EQ(defaultTreeText({"K562", "H1-hESC", "GM12878"}), "H1-hESC>GM12878,K562");
    EXPECT_EQ(defaultTreeText({"B", "A"}), "A>B");
    EXPECT_EQ(defaultTreeText({"A"}), "A");
}

TEST(TreePresenter, LayoutPutsTheRootOnTopAndParentsOverTheirChildren) {
    const auto places = layOutTree(cx::parseTreeSpec("A>B,C;B>D,E"));
    ASSERT_EQ(places.size(), 5u);
    // Breadth-first: A, B, C, D, E.
    EXPECT_EQ(places[0].name, "A");
    EXPECT_EQ(places[0].depth, 0);
    EXPECT_EQ(places[1].depth, 1);
    EXPECT_EQ(places[3].depth, 2);
    EXPECT_EQ(treeDepth(places), 2);
    EXPECT_DOUBLE_EQ(places[3].x, 1.0 / 6); // D
    EXPECT_DOUBLE_EQ(places[4].x, 3.0 / 6); // E
    EXPECT_DOUBLE_EQ(places[2].x, 5.0 / 6); // C
    EXPECT_DOUBLE_EQ(places[1].x, (1.0 / 6 + 3.0 / 6) / 2);
    EXPECT_DOUBLE_EQ(places[0].x, (places[1].x + places[2].x) / 2);
    EXPECT_EQ(places[3].parent, 1);
}

TEST(TreePresenter, EmissionRowsFollowTheSharedSlotOrder) {
    Eigen::MatrixXd e(3, 2);
    e << 0.1, 0.2, 0.3, 0.4, 0.5, 0.6;
    const auto content = emissionContent(e, {"m1", "m2"}, {2, 0, 1}, {"x", "y", "z"},
                                         {Qt::red, Qt::green, Qt::blue});
    ASSERT_EQ(content.values.rows(), 3);
    EXPECT_DOUBLE_EQ(content.values(0, 0), 0.5);
    EXPECT_DOUBLE_EQ(content.values(1, 1), 0.2);
    EXPECT_DOUBLE_EQ(content.values(2, 0), 0.3);
    EXPECT_EQ(content.rowLabels, (QStringList{"x", "y", "z"}));
    EXPECT_EQ(content.columnLabels, (QStringList{"m1", "m2"}));
    EXPECT_EQ(content.rowSlots, (QVector<int>{0, 1, 2}));
}

namespace {
cx::TreeSegmentation randomSegmentation(int cells, const std::vector<std::int64_t>& chromBins,
                                        int k, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    cx::TreeSegmentation segmentation;
    segmentation.states.resize(static_cast<size_t>(cells));
    for (auto& cell : segmentation.states) {
        for (const std::int64_t bins : chromBins) {
            std::vector<std::uint16_t> states(static_cast<size_t>(bins));
            int state = 0;
            for (auto& s : states) {
                if (rng() % 4 == 0) {
                    state = static_cast<int>(rng() % static_cast<std::uint64_t>(k));
                }
                s = static_cast<std::uint16_t>(state);
            }
            cell.push_back(std::move(states));
        }
    }
    return segmentation;
}
} // namespace

TEST(TreePresenter, RunsAndDifferingLanesMatchBruteForce) {
    const std::vector<std::int64_t> chromBins = {300, 171};
    const int k = 4;
    const auto segmentation = randomSegmentation(3, chromBins, k, 11);
    const SegmentationHandle runs = combinedRuns(segmentation, k, nullptr);
    ASSERT_EQ(runs->runs.size(), 6u); // cell by cell, chromosome by chromosome
    std::vector<std::int64_t> counts(k, 0);
    for (int c = 0; c < 3; ++c) {
        for (size_t chrom = 0; chrom < chromBins.size(); ++chrom) {
            const auto& bins = segmentation.states[static_cast<size_t>(c)][chrom];
            const auto& trackRuns = runs->runs[static_cast<size_t>(c) * 2 + chrom];
            std::int64_t next = 0;
            for (size_t r = 0; r < trackRuns.size(); ++r) {
                EXPECT_EQ(trackRuns[r].begin, next);
                if (r > 0) {
                    EXPECT_NE(trackRuns[r].state, trackRuns[r - 1].state); // maximal
                }
                for (std::int64_t t = trackRuns[r].begin; t < trackRuns[r].end; ++t) {
                    EXPECT_EQ(bins[static_cast<size_t>(t)], trackRuns[r].state);
                }
                next = trackRuns[r].end;
            }
            EXPECT_EQ(next, chromBins[chrom]);
            for (const auto s : bins) {
                ++counts[s];
            }
        }
    }
    EXPECT_EQ(runs->stateBins, counts);

    cx::MultiCellTracks tracks;
    tracks.cells = {"R", "A", "B"};
    tracks.chroms = {"chr1", "chr2"};
    tracks.chromBins = chromBins;
    tracks.binSize = 200;
    for (int cell : {1, 2}) {
        const auto lane = differingLane(tracks, segmentation, cell);
        for (size_t chrom = 0; chrom < chromBins.size(); ++chrom) {
            std::vector<bool> covered(static_cast<size_t>(chromBins[chrom]), false);
            const auto found = lane->byChrom.find(tracks.chroms[chrom]);
            if (found != lane->byChrom.end()) {
                for (size_t i = 0; i < found->second.size(); ++i) {
                    const auto& interval = found->second[i];
                    if (i > 0) {
                        EXPECT_GT(interval.start, found->second[i - 1].end); // merged
                    }
                    for (std::int64_t bp = interval.start; bp < interval.end; bp += 200) {
                        covered[static_cast<size_t>(bp / 200)] = true;
                    }
                }
            }
            for (std::int64_t t = 0; t < chromBins[chrom]; ++t) {
                const bool differs =
                    segmentation.states[static_cast<size_t>(cell)][chrom][static_cast<size_t>(t)] !=
                    segmentation.states[0][chrom][static_cast<size_t>(t)];
                EXPECT_EQ(covered[static_cast<size_t>(t)], differs)
                    << cell << " " << chrom << " " << t;
            }
        }
    }
    // The BED names every differing run "ROOT>CELL" by label.
    const QString bed = differingRegionsBed(tracks, segmentation, 1, {"a", "b", "c", "d"});
    EXPECT_FALSE(bed.isEmpty());
    EXPECT_TRUE(bed.startsWith("chr1\t")) << bed.left(80).toStdString();
    EXPECT_TRUE(bed.section('\t', 3, 3).contains('>'));
}
