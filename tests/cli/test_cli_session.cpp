// contrast-cli --save-session and run: a session saved by topics, sweep or hmm
// reproduces that command's result files byte for byte; sessions with several workspaces;
// bad sessions are refused naming the file and the entry.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace cx {
namespace {

using test::readText;
using test::runCli;
using test::TempDir;

const std::string kHmmSlice = std::string(CX_TEST_DATA_DIR) + "/hmm/";

void expectSameFiles(const std::string& expected, const std::string& actual,
                     const std::vector<std::string>& names) {
    for (const std::string& name : names) {
        const std::string want = readText(expected + "/" + name);
        ASSERT_FALSE(want.empty()) << expected << "/" << name;
        EXPECT_EQ(readText(actual + "/" + name), want) << name << " differs";
    }
}

std::string sessionCorpus(const TempDir& dir) {
    return cx::test::generateCorpus(
        dir,
        {.documentsPerSide = 1500, .vocabulary = 300, .length = 50, .seed = 9, .folder = "corpus"});
}

TEST(CliSession, RunReproducesTopicsSweepAndHmmByteForByte) {
    TempDir dir;
    const std::string corpus = sessionCorpus(dir);
    const std::vector<std::string> common = {"--corpus",     corpus,
                                             "--fg",         "group=foreground",
                                             "--bg",         "group=background",
                                             "--k",          "5",
                                             "--seed",       "4",
                                             "--min-df",     "1",
                                             "--restarts",   "3",
                                             "--iterations", "60",
                                             "--top",        "7"};
    auto topics = common;
    topics.insert(topics.begin(), "topics");
    for (const char* extra : {"--gamma", "1.25", "--out", "", "--save-session", ""}) {
        topics.emplace_back(extra);
    }
    topics[topics.size() - 3] = dir / "topics";
    topics.back() = dir / "project/analysis.cxproj";
    std::filesystem::create_directories(dir / "project");
    auto result = runCli(topics, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;

    auto sweep = common;
    sweep.insert(sweep.begin(), "sweep");
    for (const std::string& extra :
         {std::string("--positive"), std::string("set=a"), std::string("--gammas"),
          std::string("0:2:0.5"), std::string("--out"), dir / "sweep",
          std::string("--save-session"), dir / "sweep.cxproj"}) {
        sweep.push_back(extra);
    }
    result = runCli(sweep, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;

    // hmm adds its section to the same session: one file, two workspaces.
    result =
        runCli({"hmm",
                "--tracks",
                kHmmSlice + "GM12878_chr11_slice.txt.gz," + kHmmSlice + "K562_chr11_slice.txt.gz",
                "--fg-regions",
                kHmmSlice + "RefSeqGene.chr11_slice.bed",
                "--k",
                "5",
                "--gamma",
                "0.5",
                "--seed",
                "2",
                "--extra-components",
                "0",
                "--starts",
                "3",
                "--decode",
                "viterbi",
                "--moment-fit",
                "0",
                "--out",
                dir / "hmm",
                "--save-session",
                dir / "project/analysis.cxproj"},
               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string session = readText(dir / "project/analysis.cxproj");
    EXPECT_NE(session.find("\"format\": \"contrast-explorer-session\""), std::string::npos);
    EXPECT_NE(session.find("\"topics\""), std::string::npos);
    EXPECT_NE(session.find("\"chromatin\""), std::string::npos);
    EXPECT_NE(session.find("\"moment_fit\": 0"), std::string::npos) << session;
    EXPECT_NE(session.find("\"starts\": 3"), std::string::npos) << "hmm --starts is saved";
    EXPECT_NE(session.find("\"path\": \"../corpus/docword.synthetic.txt\""), std::string::npos)
        << session;

    // Both workspaces: a folder each.
    result = runCli({"run", dir / "project/analysis.cxproj", "--out", dir / "both"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameFiles(dir / "topics", dir / "both/topics",
                    {"topic_word.tsv", "components.tsv", "top_words.tsv"});
    expectSameFiles(dir / "hmm", dir / "both/chromatin",
                    {"emissions.tsv", "transitions.tsv", "states.tsv", "components.tsv",
                     "segments.bed", "segments.GM12878.bed", "segments.K562.bed"});
    EXPECT_FALSE(std::filesystem::exists(dir / "both/topics/sweep.tsv"))
        << "a session saved by topics repeats topics only";
    // One workspace: its files directly in --out.
    result = runCli(
        {"run", dir / "project/analysis.cxproj", "--out", dir / "one", "--workspace", "chromatin"},
        dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameFiles(dir / "hmm", dir / "one", {"emissions.tsv", "states.tsv", "segments.bed"});
    EXPECT_FALSE(std::filesystem::exists(dir / "one/topics"));

    result = runCli({"run", dir / "sweep.cxproj", "--out", dir / "sweep2"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameFiles(dir / "sweep", dir / "sweep2", {"sweep.tsv"});
    EXPECT_FALSE(std::filesystem::exists(dir / "sweep2/topic_word.tsv"));

    // The project folder moved as a whole: relative paths still resolve.
    // (Its absolute paths point at the old name, which does not exist during this run.)
    const TempDir scratch;
    std::filesystem::rename(dir.path(), dir.path().string() + "_moved");
    const std::filesystem::path moved = dir.path().string() + "_moved";
    result = runCli({"run", (moved / "project/analysis.cxproj").string(), "--out",
                     (moved / "after_move").string(), "--workspace", "topics"},
                    scratch);
    std::filesystem::rename(moved, dir.path());
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameFiles(dir / "topics", dir / "after_move", {"topic_word.tsv"});
}

// The bootstrap of `sweep --bootstrap B` and `hmm --gamma-path … --bootstrap B` is part of the
// saved session: `run` repeats it (seeded alike) and writes the same bands byte for byte.
TEST(CliSession, RunRepeatsTheBootstrapOfSweepAndHmmPath) {
    TempDir dir;
    const std::string corpus = sessionCorpus(dir);
    auto result = runCli({"sweep",
                          "--corpus",
                          corpus,
                          "--fg",
                          "group=foreground",
                          "--bg",
                          "group=background",
                          "--k",
                          "4",
                          "--seed",
                          "5",
                          "--min-df",
                          "1",
                          "--restarts",
                          "2",
                          "--iterations",
                          "40",
                          "--positive",
                          "set=a",
                          "--gammas",
                          "0:1.5:0.5",
                          "--bootstrap",
                          "3",
                          "--out",
                          dir / "sweep",
                          "--save-session",
                          dir / "sweep.cxproj"},
                         dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string sweepSession = readText(dir / "sweep.cxproj");
    EXPECT_NE(sweepSession.find("\"bootstrap\": 3"), std::string::npos) << sweepSession;
    ASSERT_NE(readText(dir / "sweep/sweep.tsv").find("auc_lo"), std::string::npos);
    result = runCli({"run", dir / "sweep.cxproj", "--out", dir / "sweep2"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameFiles(dir / "sweep", dir / "sweep2", {"sweep.tsv"});

    result =
        runCli({"hmm",
                "--tracks",
                kHmmSlice + "GM12878_chr11_slice.txt.gz," + kHmmSlice + "K562_chr11_slice.txt.gz",
                "--fg-regions",
                kHmmSlice + "RefSeqGene.chr11_slice.bed",
                "--k",
                "4",
                "--gamma",
                "0.5",
                "--seed",
                "3",
                "--no-segments",
                "--gamma-path",
                "0:1:0.25",
                "--bootstrap",
                "3",
                "--block-length",
                "50",
                "--out",
                dir / "hmm",
                "--save-session",
                dir / "hmm.cxproj"},
               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string hmmSession = readText(dir / "hmm.cxproj");
    EXPECT_NE(hmmSession.find("\"gammas\": \"0:1:0.25\""), std::string::npos) << hmmSession;
    EXPECT_NE(hmmSession.find("\"bootstrap\": 3"), std::string::npos) << hmmSession;
    EXPECT_NE(hmmSession.find("\"block_length\": 50"), std::string::npos) << hmmSession;
    ASSERT_NE(readText(dir / "hmm/path.tsv").find("weight_lo"), std::string::npos);
    result = runCli({"run", dir / "hmm.cxproj", "--out", dir / "hmm2"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameFiles(dir / "hmm", dir / "hmm2", {"path.tsv", "emissions.tsv", "states.tsv"});

    // A path without a bootstrap is repeated too (path.tsv without bands).
    result = runCli({"hmm", "--tracks", kHmmSlice + "GM12878_chr11_slice.txt.gz", "--fg-regions",
                     kHmmSlice + "RefSeqGene.chr11_slice.bed", "--k", "3", "--gamma", "1",
                     "--no-segments", "--gamma-path", "0:1:0.5", "--out", dir / "plain",
                     "--save-session", dir / "plain.cxproj"},
                    dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(readText(dir / "plain.cxproj").find("\"bootstrap\""), std::string::npos);
    result = runCli({"run", dir / "plain.cxproj", "--out", dir / "plain2"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameFiles(dir / "plain", dir / "plain2", {"path.tsv"});
    EXPECT_EQ(readText(dir / "plain2/path.tsv").find("weight_lo"), std::string::npos);
}

TEST(CliSession, BadSessionsAreRefusedNamingFileAndEntry) {
    TempDir dir;
    const auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return dir / name;
    };
    const std::string corrupt =
        write("corrupt.cxproj", "{\n\"format\": \"contrast-explorer-session\",\n}");
    auto result = runCli({"run", corrupt, "--out", dir / "o"}, dir);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find(corrupt + ":3: not valid JSON"), std::string::npos) << result.err;

    const std::string newer =
        write("newer.cxproj",
              R"j({"format": "contrast-explorer-session", "version": 3, "workspaces": {}})j");
    result = runCli({"run", newer, "--out", dir / "o"}, dir);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("written by a newer Contrast Explorer (session version 3"),
              std::string::npos)
        << result.err;

    const std::string missing =
        write("missing.cxproj", R"j({"format": "contrast-explorer-session", "version": 1,
        "workspaces": {"chromatin": {"tracks": [{"path": "gone_binary.txt.gz"}], "model": {"k": 4}}}})j");
    result = runCli({"run", missing, "--out", dir / "o"}, dir);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find(missing + ": /workspaces/chromatin/tracks/0/path: "),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("gone_binary.txt.gz: no such file or folder"), std::string::npos);

    const std::string badValue =
        write("k.cxproj", R"j({"format": "contrast-explorer-session", "version": 1,
        "workspaces": {"chromatin": {"tracks": [{"path": "k.cxproj"}], "model": {"k": "seven"}}}})j");
    result = runCli({"run", badValue, "--out", dir / "o"}, dir);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("/workspaces/chromatin/model/k: expected an integer, got a string"),
              std::string::npos)
        << result.err;

    const std::string other =
        write("tree.cxproj", R"j({"format": "contrast-explorer-session", "version": 1,
        "workspaces": {"tree": {"k": 3}}})j");
    result = runCli({"run", other, "--out", dir / "o", "--workspace", "topics"}, dir);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(
        result.err.find("--workspace: " + other + " has no workspace 'topics' (it has: tree)"),
        std::string::npos)
        << result.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "o"));
}

} // namespace
} // namespace cx
