// contrast-cli tree --save-session and run --workspace tree: the session
// repeats the tree command's result files byte for byte, also when added to a session that
// holds another workspace; a bad tree section is refused naming the entry.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cx {
namespace {

using test::readText;
using test::runCli;
using test::TempDir;

const std::string kTreeData = std::string(CX_TEST_DATA_DIR) + "/tree";

TEST(CliTreeSession, RunReproducesTheTreeCommandByteForByte) {
    TempDir dir;
    std::filesystem::create_directories(dir / "project");
    auto result = runCli({"tree",
                          "--tracks",
                          kTreeData,
                          "--tree",
                          "H1-hESC>GM12878;GM12878>K562",
                          "--k",
                          "3",
                          "--seed",
                          "5",
                          "--decode",
                          "path",
                          "--flank",
                          "600",
                          "--tss",
                          kTreeData + "/RefSeqTSS.chr20_3Mb.txt.gz",
                          "--compare",
                          "per-cell,em",
                          "--em-iterations",
                          "2",
                          "--restarts",
                          "4",
                          "--out",
                          dir / "tree",
                          "--save-session",
                          dir / "project/analysis.cxproj"},
                         dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string session = readText(dir / "project/analysis.cxproj");
    EXPECT_NE(session.find("\"active\": \"tree\""), std::string::npos) << session;
    EXPECT_NE(session.find("\"saved_by\": \"tree\""), std::string::npos) << session;
    EXPECT_NE(session.find("\"tree\": \"H1-hESC>GM12878;GM12878>K562\""), std::string::npos);

    const std::vector<std::string> files = {"emissions_H1-hESC.tsv", "emissions_GM12878.tsv",
                                            "emissions_K562.tsv",    "transitions_H1-hESC.tsv",
                                            "transitions_K562.tsv",  "segments_H1-hESC.bed",
                                            "segments_K562.bed",     "changes_GM12878.bed",
                                            "changes_K562.bed",      "promoter_f1.tsv"};
    result = runCli(
        {"run", dir / "project/analysis.cxproj", "--out", dir / "again", "--workspace", "tree"},
        dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    for (const std::string& name : files) {
        const std::string want = readText(dir / ("tree/" + name));
        ASSERT_FALSE(want.empty()) << name;
        EXPECT_EQ(readText(dir / ("again/" + name)), want) << name << " differs";
    }

    // A second workspace in the same session: run writes each into its own folder.
    const std::string hmmData = std::string(CX_TEST_DATA_DIR) + "/hmm/";
    result =
        runCli({"hmm", "--tracks", hmmData + "GM12878_chr11_slice.txt.gz", "--k", "3", "--gamma",
                "0", "--out", dir / "hmm", "--save-session", dir / "project/analysis.cxproj"},
               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    result = runCli({"run", dir / "project/analysis.cxproj", "--out", dir / "both"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readText(dir / "both/tree/promoter_f1.tsv"), readText(dir / "tree/promoter_f1.tsv"));
    EXPECT_EQ(readText(dir / "both/tree/segments_K562.bed"),
              readText(dir / "tree/segments_K562.bed"));
    EXPECT_FALSE(readText(dir / "both/chromatin/emissions.tsv").empty());
}

TEST(CliTreeSession, BadTreeSectionIsRefusedNamingTheEntry) {
    TempDir dir;
    std::ofstream(dir / "bad.cxproj")
        << R"j({"format": "contrast-explorer-session", "version": 1, "workspaces": {"tree": {"tracks": [")j"
        << kTreeData << R"j("], "tree": "A>B;B>A", "model": {"k": 3}}}})j";
    const auto result = runCli({"run", dir / "bad.cxproj", "--out", dir / "o"}, dir);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find(dir / "bad.cxproj"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("/workspaces/tree/tree: "), std::string::npos) << result.err;
}

} // namespace
} // namespace cx
