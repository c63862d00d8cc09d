#include "core/common/error.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/promoter_evaluation.h"
#include "core/tree/tree_spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

namespace cx {
namespace {

const std::string kDir = std::string(CX_TEST_DATA_DIR) + "/tree";

std::string messageOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(TreeSpec, ParsesStarAndNestedTreesInBreadthFirstOrder) {
    const TreeSpec star = parseTreeSpec(" H1-hESC > GM12878, K562 ");
    EXPECT_EQ(star.names, (std::vector<std::string>{"H1-hESC", "GM12878", "K562"}));
    EXPECT_EQ(star.parent, (std::vector<int>{-1, 0, 0}));
    const TreeSpec nested = parseTreeSpec("A>C;R>A,B");
    EXPECT_EQ(nested.names, (std::vector<std::string>{"R", "A", "B", "C"}));
    EXPECT_EQ(nested.pathFromRoot(3), (std::vector<int>{0, 1, 3}));
    EXPECT_EQ(parseTreeSpec(nested.toString()).names, nested.names);
    EXPECT_EQ(parseTreeSpec("solo").numNodes(), 1);
}

TEST(TreeSpec, RejectsWhatIsNotATree) {
    EXPECT_NE(messageOf([] { parseTreeSpec(""); }).find("empty"), std::string::npos);
    EXPECT_NE(messageOf([] { parseTreeSpec("A>B;C>B"); }).find("two parents"), std::string::npos);
    EXPECT_NE(messageOf([] { parseTreeSpec("A>B;B>A"); }).find("cycle"), std::string::npos);
    EXPECT_NE(messageOf([] { parseTreeSpec("A>B;C>D"); }).find("several roots"), std::string::npos);
    EXPECT_NE(messageOf([] { parseTreeSpec("A>B;C"); }).find("no '>'"), std::string::npos);
    EXPECT_NE(messageOf([] { parseTreeSpec("A>B,,C"); }).find("empty"), std::string::npos);
    EXPECT_NE(messageOf([] { parseTreeSpec("A>A"); }).find("own parent"), std::string::npos);
}

TEST(MultiCellTracks, ReadsAFolderAndDropsTheMarkHeLaLacks) {
    MultiCellReadOptions options;
    const MultiCellTracks tracks = readMultiCellTracks(expandTrackPaths({kDir}), options);
    EXPECT_EQ(tracks.numCells(), 4);
    EXPECT_EQ(tracks.numMarks(), 7);
    EXPECT_EQ(tracks.droppedMarks, (std::vector<std::string>{"H3K4me1"}));
    ASSERT_EQ(tracks.notes.size(), 1u);
    EXPECT_NE(tracks.notes[0].find("HeLa-S3"), std::string::npos);
    EXPECT_EQ(tracks.chromBins, (std::vector<std::int64_t>{15000}));
    // Without HeLa-S3 (the tree decides), all 8 marks are kept.
    options.cells = {"H1-hESC", "GM12878", "K562"};
    const MultiCellTracks three = readMultiCellTracks(expandTrackPaths({kDir}), options);
    EXPECT_EQ(three.numMarks(), 8);
    EXPECT_EQ(three.cells, options.cells);
    const ChromatinData data = three.cellData(2);
    EXPECT_EQ(data.tracks[0].cell, "K562");
    EXPECT_EQ(data.totalBins(), 15000);
}

TEST(MultiCellTracks, ClearErrorsForStrictMarksMissingCellsAndMisalignedBins) {
    MultiCellReadOptions strict;
    strict.strictMarks = true;
    const std::string s = messageOf([&] { readMultiCellTracks(expandTrackPaths({kDir}), strict); });
    EXPECT_NE(s.find("HeLa-S3"), std::string::npos) << s;
    EXPECT_NE(s.find("H3K4me1"), std::string::npos) << s;
    MultiCellReadOptions missing;
    missing.cells = {"H1-hESC", "NHEK"};
    const std::string m =
        messageOf([&] { readMultiCellTracks(expandTrackPaths({kDir}), missing); });
    EXPECT_NE(m.find("NHEK"), std::string::npos) << m;
    // A cell whose chr20 has fewer bins.
    const auto tmp = std::filesystem::temp_directory_path() / "cx_tree_misaligned";
    std::filesystem::create_directories(tmp);
    {
        std::ofstream out(tmp / "X_chr20_binary.txt");
        out << "X\tchr20\nH3K27ac\n0\n1\n";
    }
    {
        std::ofstream out(tmp / "Y_chr20_binary.txt");
        out << "Y\tchr20\nH3K27ac\n0\n1\n0\n";
    }
    const std::string a = messageOf([&] { readMultiCellTracks(expandTrackPaths({tmp.string()})); });
    EXPECT_NE(a.find("do not align"), std::string::npos) << a;
    EXPECT_NE(a.find("Y_chr20"), std::string::npos) << a;
    EXPECT_NE(messageOf([&] { expandTrackPaths({(tmp / "nope").string()}); }).find("no such"),
              std::string::npos);
    std::filesystem::remove_all(tmp);
}

TEST(PromoterEvaluation, AnchorFileMarksBinsWithinTheFlankAndScoresF1) {
    const TssTruth truth = readTssTruth(kDir + "/RefSeqTSS.chr20_3Mb.txt.gz", {"chr20", "chrX"},
                                        {15000, 10}, 200, 1000);
    EXPECT_EQ(truth.sites, 83);
    EXPECT_GT(truth.positives, 83 * 5); // ≥ 2 kb per site where they do not overlap
    EXPECT_LE(truth.positives, 83 * 11);
    // A segmentation that is exactly the truth has F1 = 1 and is the most enriched state.
    std::vector<std::vector<std::uint16_t>> states(2);
    for (size_t c = 0; c < 2; ++c) {
        states[c].assign(truth.bins[c].begin(), truth.bins[c].end());
    }
    EXPECT_EQ(promoterStateByEnrichment(states, truth, 2), 1);
    const PromoterScore perfect = scorePromoterState(states, truth, 1);
    EXPECT_DOUBLE_EQ(perfect.f1, 1.0);
    const PromoterScore wrong = scorePromoterState(states, truth, 0);
    EXPECT_DOUBLE_EQ(wrong.recall, 0.0);
    const std::string m =
        messageOf([&] { readTssTruth(kDir + "/RefSeqTSS.chr20_3Mb.txt.gz", {"chr1"}, {10}, 200); });
    EXPECT_NE(m.find("no TSS"), std::string::npos) << m;
}

} // namespace
} // namespace cx
