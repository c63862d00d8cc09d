// The seeded synthetic tree data set (writeSyntheticTreeData, `contrast-cli generate-tree`):
// deterministic by seed, readable by the tree's readers, and learned back by Spectral-Tree.
#include "core/common/error.h"
#include "core/hmm/contrastive_hmm.h" // matchStates
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/promoter_evaluation.h"
#include "core/tree/spectral_tree.h"
#include "core/tree/synthetic_tree_data.h"
#include "support/files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace cx {
namespace {

namespace fs = std::filesystem;

std::string fileText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Every file under `dir` (relative name → content).
std::map<std::string, std::string> folderText(const std::string& dir) {
    std::map<std::string, std::string> out;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (entry.is_regular_file()) {
            out[fs::relative(entry.path(), dir).string()] = fileText(entry.path());
        }
    }
    return out;
}

SyntheticTreeDataSpec smallSpec(std::uint64_t seed) {
    SyntheticTreeDataSpec spec;
    spec.tree = parseTreeSpec("R>A,B");
    spec.model.numStates = 3;
    spec.model.numMarks = 5;
    spec.chroms = {"chr1", "chr2"};
    spec.chromBins = {3000, 2000};
    spec.tssPerMb = 50;
    spec.seed = seed;
    return spec;
}

TEST(SyntheticTreeData, Hg19TableHasTheUcscSizes) {
    std::int64_t total = 0, bins = 0;
    for (const ChromSize& size : kHg19ChromSizes) {
        total += size.bases;
        bins += size.bases / 200;
    }
    EXPECT_EQ(total, 3095677412);
    EXPECT_EQ(bins, 15478375);
    EXPECT_EQ(assemblyChromSizes("hg19")[17].bases / 200, 390386); // chr18 of the ENCODE data
    EXPECT_THROW(assemblyChromSizes("hg38"), InputError);
}

TEST(SyntheticTreeData, SameSeedSameFilesOtherSeedOtherFiles) {
    test::TempDir dir;
    const auto first = writeSyntheticTreeData(smallSpec(5), dir / "a");
    writeSyntheticTreeData(smallSpec(5), dir / "b");
    writeSyntheticTreeData(smallSpec(6), dir / "c");
    const auto a = folderText(dir / "a");
    EXPECT_EQ(a.size(), 3u * 2u + 1u + 3u + 3u * 2u); // tracks, tss, emissions, states
    EXPECT_EQ(a, folderText(dir / "b"));
    EXPECT_NE(a.at("A_chr1_binary.txt"), folderText(dir / "c").at("A_chr1_binary.txt"));
    EXPECT_EQ(first.trackFiles.size(), 6u);
    EXPECT_EQ(first.binsPerCell, 5000);
    EXPECT_GT(first.tssSites, 0);
    // The tracks read back as one multi-cell data set, and the TSS file as promoter truth.
    const MultiCellTracks tracks = readMultiCellTracks(expandTrackPaths({dir / "a"}));
    EXPECT_EQ(tracks.cells, (std::vector<std::string>{"A", "B", "R"}));
    EXPECT_EQ(tracks.chromBins, (std::vector<std::int64_t>{3000, 2000}));
    EXPECT_EQ(tracks.numMarks(), 5);
    const TssTruth tss =
        readTssTruth(dir / "a/tss.txt", tracks.chroms, tracks.chromBins, tracks.binSize, 0);
    EXPECT_EQ(tss.sites, first.tssSites);
}

TEST(SyntheticTreeData, RejectsSpecsItCannotWrite) {
    test::TempDir dir;
    SyntheticTreeDataSpec spec = smallSpec(1);
    spec.chromBins = {3000, 0};
    EXPECT_THROW(writeSyntheticTreeData(spec, dir / "x"), InputError);
    spec = smallSpec(1);
    spec.tssPerMb = 1e5; // 20 per 200-bp bin
    EXPECT_THROW(writeSyntheticTreeData(spec, dir / "x"), InputError);
    spec = smallSpec(1);
    spec.model.numMarks = kMaxTreeMarks + 1;
    EXPECT_THROW(writeSyntheticTreeData(spec, dir / "x"), InputError);
}

TEST(SyntheticTreeData, SpectralTreeLearnsTheWrittenDataBack) {
    test::TempDir dir;
    SyntheticTreeDataSpec spec = smallSpec(3);
    spec.model.numMarks = 6;
    spec.chromBins = {60000, 40000};
    const SyntheticTreeDataSummary truth = writeSyntheticTreeData(spec, dir / "d");
    MultiCellReadOptions read;
    read.cells = spec.tree.names;
    const MultiCellTracks tracks = readMultiCellTracks(expandTrackPaths({dir / "d"}), read);
    SpectralTreeOptions options;
    options.numStates = 3;
    options.starts = 1;
    const SpectralTreeResult learned = learnSpectralTree(tracks, spec.tree, options);
    // One labelling for every cell type (matched on the root), as the tree's states are shared.
    const std::vector<int> perm = matchStates(truth.model.emissions[0], learned.model.emissions[0]);
    for (int v = 0; v < spec.tree.numNodes(); ++v) {
        const auto& e = truth.model.emissions[static_cast<size_t>(v)];
        double error = 0;
        for (int h = 0; h < 3; ++h) {
            error += (e.row(h) - learned.model.emissions[static_cast<size_t>(v)].row(
                                     perm[static_cast<size_t>(h)]))
                         .cwiseAbs()
                         .sum();
        }
        EXPECT_LT(error / static_cast<double>(e.size()), 0.03) << spec.tree.names[v];
    }
}

} // namespace
} // namespace cx
