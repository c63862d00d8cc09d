// contrast-cli tree end to end on the real chr20 slices in tests/data/tree.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace cx {
namespace {

using test::parseTsv;
using test::readText;
using test::runCli;
using test::TempDir;

const std::string kTreeSlice = std::string(CX_TEST_DATA_DIR) + "/tree";

TEST(CliTree, StarTreeWritesPerCellFilesAndPromoterF1) {
    TempDir dir;
    const std::string out = dir / "out";
    const auto result =
        runCli({"tree", "--tracks", kTreeSlice, "--tree", "H1-hESC>GM12878,K562", "--k", "4",
                "--tss", kTreeSlice + "/RefSeqTSS.chr20_3Mb.txt.gz", "--compare", "per-cell,em",
                "--em-iterations", "2", "--out", out, "--json"},
               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json["data"]["marks"].size(), 8u); // HeLa-S3 is not in the tree: all 8 marks
    EXPECT_GT(json["timings_ms"]["learn"].get<double>(), 0.0);
    EXPECT_GT(json["peak_memory_mb"].get<double>(), 0.0);
    // 4^3 = 64 product states over 15,000 bins fit: EM ran.
    EXPECT_TRUE(json["compare"]["em"]["fits"].get<bool>());
    for (const char* method : {"spectral-tree", "per-cell", "em"}) {
        for (const char* cell : {"H1-hESC", "GM12878", "K562"}) {
            const auto& score = json["promoter_f1"][method][cell];
            ASSERT_TRUE(score.is_object()) << method << " " << cell;
            EXPECT_GE(score["f1"].get<double>(), 0.0);
            EXPECT_LE(score["f1"].get<double>(), 1.0);
        }
    }
    for (const char* cell : {"H1-hESC", "GM12878", "K562"}) {
        const auto emissions = parseTsv(readText(out + "/emissions_" + cell + ".tsv"));
        ASSERT_EQ(emissions.size(), 5u);
        EXPECT_EQ(emissions[0][0], "state");
        EXPECT_EQ(emissions[0].size(), 9u);
        // Segment names are the emission table's state labels.
        const auto segments = parseTsv(readText(out + "/segments_" + std::string(cell) + ".bed"));
        ASSERT_GE(segments.size(), 2u);
        // One browser track per sample: named by the cell, described by the model, coloured.
        const std::string& track = segments[0][0];
        EXPECT_EQ(track.rfind("track name=\"" + std::string(cell) + "\" description=\"" + cell +
                                  " Spectral-Tree, K=4, ",
                              0),
                  0u)
            << track;
        EXPECT_NE(track.find("itemRgb=\"On\""), std::string::npos) << track;
        EXPECT_EQ(std::count_if(segments.begin(), segments.end(),
                                [](const auto& row) { return row[0].rfind("track ", 0) == 0; }),
                  1);
        EXPECT_EQ(segments[1].size(), 9u);
        bool known = false;
        for (size_t r = 1; r < emissions.size(); ++r) {
            known = known || emissions[r][0] == segments[1][3];
        }
        EXPECT_TRUE(known) << segments[1][3];
        EXPECT_FALSE(readText(out + "/transitions_" + std::string(cell) + ".tsv").empty());
    }
    EXPECT_FALSE(readText(out + "/changes_K562.bed").empty());
    // The IGV batch script loads every cell's segments and the TSS file, then goes to chr20.
    const std::string igv = readText(out + "/igv_batch.txt");
    const std::string folder = std::filesystem::absolute(out).lexically_normal().string();
    EXPECT_EQ(igv.rfind("new\n", 0), 0u) << igv;
    for (const char* cell : {"H1-hESC", "GM12878", "K562"}) {
        EXPECT_NE(igv.find("load " + folder + "/segments_" + cell + ".bed\n"), std::string::npos)
            << igv;
    }
    EXPECT_NE(igv.find("RefSeqTSS.chr20_3Mb.txt.gz\n"), std::string::npos) << igv;
    EXPECT_NE(igv.find("\ngoto chr20:1-"), std::string::npos) << igv;
}

// states.tsv names and colours the tree's states as the Tree workspace does (core's rule on the
// root's emissions and occupancy); the segments carry those colours; --state-labels names puts
// the names into the emissions, transitions and segments, and leaves the numbers the same model.
TEST(CliTree, StatesAreNamedAndColouredAsTheGuiAndLabelsFollowStateLabels) {
    TempDir dir;
    const auto run = [&](const std::string& name, const std::vector<std::string>& extra) {
        std::vector<std::string> args = {
            "tree", "--tracks", kTreeSlice, "--tree",  "H1-hESC>GM12878,K562",
            "--k",  "4",        "--out",    dir / name};
        args.insert(args.end(), extra.begin(), extra.end());
        return runCli(args, dir);
    };
    auto result = run("numbers", {"--json"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out);
    result = run("names", {"--state-labels", "names"});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto states = parseTsv(readText(dir / "numbers/states.tsv"));
    ASSERT_EQ(states.size(), 5u);
    EXPECT_EQ(states[0], (std::vector<std::string>{"state", "name", "colour", "root_occupancy"}));
    std::map<std::string, std::string> colourOf; // label → colour
    std::map<std::string, std::string> nameOf;
    double share = 0;
    for (size_t r = 1; r < states.size(); ++r) {
        EXPECT_EQ(states[r][0], "E" + std::to_string(r));
        EXPECT_FALSE(states[r][1].empty());
        colourOf[states[r][0]] = states[r][2];
        nameOf[states[r][0]] = states[r][1];
        share += std::stod(states[r][3]);
    }
    EXPECT_NEAR(share, 1.0, 1e-5);
    ASSERT_EQ(json["states"].size(), 4u); // --json: the same labels, names and colours
    for (size_t r = 1; r < states.size(); ++r) {
        const auto& state = json["states"][r - 1];
        EXPECT_EQ(state["label"], states[r][0]);
        EXPECT_EQ(state["name"], states[r][1]);
        EXPECT_EQ(state["colour"], states[r][2]);
    }
    const auto named = parseTsv(readText(dir / "names/states.tsv"));
    ASSERT_EQ(named.size(), states.size());
    for (size_t r = 1; r < states.size(); ++r) {
        EXPECT_EQ(named[r][0], states[r][1]); // labelled by the name
        EXPECT_EQ(named[r][1], states[r][1]);
        EXPECT_EQ(named[r][2], states[r][2]);
    }
    for (const char* cell : {"H1-hESC", "GM12878", "K562"}) {
        // Same model, other labels: the emissions agree line by line but for the label.
        const auto a =
            parseTsv(readText(dir / ("numbers/emissions_" + std::string(cell) + ".tsv")));
        const auto b = parseTsv(readText(dir / ("names/emissions_" + std::string(cell) + ".tsv")));
        ASSERT_EQ(a.size(), b.size());
        for (size_t r = 1; r < a.size(); ++r) {
            EXPECT_EQ(b[r][0], nameOf[a[r][0]]);
            EXPECT_TRUE(std::equal(a[r].begin() + 1, a[r].end(), b[r].begin() + 1));
        }
        const auto numbered =
            parseTsv(readText(dir / ("numbers/segments_" + std::string(cell) + ".bed")));
        const auto byName =
            parseTsv(readText(dir / ("names/segments_" + std::string(cell) + ".bed")));
        ASSERT_EQ(numbered.size(), byName.size());
        for (size_t r = 1; r < numbered.size(); ++r) {
            ASSERT_EQ(numbered[r].size(), 9u);
            EXPECT_EQ(numbered[r][8], colourOf[numbered[r][3]]) << cell << " line " << r;
            EXPECT_EQ(byName[r][3], nameOf[numbered[r][3]]);
            EXPECT_EQ(byName[r][8], numbered[r][8]);
        }
    }
    result = run("bad", {"--state-labels", "letters"});
    EXPECT_NE(result.exitCode, 0);
    EXPECT_NE(result.err.find("parameter --state-labels: 'letters' is not 'numbers' or 'names'"),
              std::string::npos)
        << result.err;
}

TEST(CliTree, HeLaWithoutItsMarkIsDroppedOrRefusedWhenStrict) {
    TempDir dir;
    const auto lenient = runCli({"tree", "--tracks", kTreeSlice, "--tree", "H1-hESC>HeLa-S3", "--k",
                                 "4", "--out", dir / "a", "--json", "--no-segments"},
                                dir);
    ASSERT_EQ(lenient.exitCode, 0) << lenient.err;
    EXPECT_NE(lenient.err.find("mark H3K4me1 dropped: HeLa-S3 lacks it"), std::string::npos)
        << lenient.err;
    const auto strict = runCli({"tree", "--tracks", kTreeSlice, "--tree", "H1-hESC>HeLa-S3", "--k",
                                "4", "--out", dir / "b", "--strict-marks"},
                               dir);
    EXPECT_NE(strict.exitCode, 0);
    EXPECT_NE(strict.err.find("HeLa-S3_chr20_binary.txt.gz:2: cell HeLa-S3 lacks mark H3K4me1"),
              std::string::npos)
        << strict.err;
}

TEST(CliTree, BadTreesAndParametersExitWithAMessage) {
    TempDir dir;
    const auto missing = runCli(
        {"tree", "--tracks", kTreeSlice, "--tree", "H1-hESC>NHEK", "--k", "4", "--out", dir / "o"},
        dir);
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("no file provides cell type 'NHEK'"), std::string::npos)
        << missing.err;
    const auto cycle = runCli(
        {"tree", "--tracks", kTreeSlice, "--tree", "A>B;B>A", "--k", "4", "--out", dir / "o"}, dir);
    EXPECT_NE(cycle.err.find("cycle"), std::string::npos) << cycle.err;
    const auto bigK = runCli(
        {"tree", "--tracks", kTreeSlice, "--tree", "H1-hESC>K562", "--k", "12", "--out", dir / "o"},
        dir);
    EXPECT_NE(bigK.exitCode, 0);
    EXPECT_NE(bigK.err.find("parameter K: 12 states need 1 <= K <= 9"), std::string::npos)
        << bigK.err;
    const auto method = runCli({"tree", "--tracks", kTreeSlice, "--tree", "H1-hESC>K562", "--k",
                                "4", "--decomposition", "svd", "--out", dir / "o"},
                               dir);
    EXPECT_NE(method.err.find("'svd' is not 'power' or 'jennrich'"), std::string::npos)
        << method.err;
}

} // namespace
} // namespace cx
