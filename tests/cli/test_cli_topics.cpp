#include "cli_runner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace cx {
namespace {

using test::parseTsv;
using test::readText;
using test::runCli;
using test::TempDir;

/// A seeded synthetic A/B/C corpus written by `contrast-cli generate` (small, fast).
std::string generateCorpus(const TempDir& dir) {
    const auto result = runCli({"generate", "--out", dir.path().string(), "--fg-docs", "3000",
                                "--bg-docs", "3000", "--vocab", "400", "--length", "60",
                                "--a", "2", "--b", "2", "--c", "2", "--seed", "5"},
                               dir);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    return dir / "docword.synthetic.txt";
}

TEST(CliTopics, WritesTopicWordComponentsAndTopWords) {
    TempDir dir;
    const std::string corpus = generateCorpus(dir);
    const std::string out = dir / "out";
    const auto result = runCli({"topics", "--corpus", corpus, "--fg", "group=foreground", "--bg",
                                "group=background", "--k", "6", "--gamma", "2", "--seed", "3",
                                "--min-df", "1", "--out", out},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;

    const auto topicWord = parseTsv(readText(out + "/topic_word.tsv"));
    ASSERT_GT(topicWord.size(), 1u);
    ASSERT_EQ(topicWord[0].size(), 7u);
    EXPECT_EQ(topicWord[0][0], "word");
    EXPECT_EQ(topicWord[0][1], "c1");
    EXPECT_EQ(topicWord[0][6], "c6");
    // Header + one row per vocabulary word (words never drawn by the generator are absent).
    EXPECT_GT(topicWord.size(), 300u);
    EXPECT_LE(topicWord.size(), 401u);
    std::set<std::string> words;
    for (size_t row = 1; row < topicWord.size(); ++row) {
        ASSERT_EQ(topicWord[row].size(), 7u);
        words.insert(topicWord[row][0]);
    }
    EXPECT_EQ(words.size(), topicWord.size() - 1);
    for (size_t c = 1; c < 7; ++c) {
        double total = 0;
        for (size_t row = 1; row < topicWord.size(); ++row) {
            const double p = std::stod(topicWord[row][c]);
            EXPECT_GE(p, 0.0);
            total += p;
        }
        EXPECT_NEAR(total, 1.0, 1e-6) << "column c" << c;
    }

    const auto components = parseTsv(readText(out + "/components.tsv"));
    ASSERT_EQ(components.size(), 7u);
    EXPECT_EQ(components[0], (std::vector<std::string>{"component", "lambda", "weight", "foreground_specific"}));
    int specific = 0;
    for (size_t row = 1; row < components.size(); ++row) {
        EXPECT_EQ(components[row][0], "c" + std::to_string(row));
        const double lambda = std::stod(components[row][1]);
        const double weight = std::stod(components[row][2]);
        const int flag = std::stoi(components[row][3]);
        EXPECT_EQ(flag, lambda > 0 ? 1 : 0);
        if (lambda > 0) {
            EXPECT_NEAR(weight, 1.0 / (lambda * lambda), 1e-6 * weight);
            ++specific;
        } else {
            EXPECT_EQ(weight, 0.0);
        }
    }
    EXPECT_EQ(specific, 2); // the two A topics; γ = 2 is above the bound (1)

    const auto top = parseTsv(readText(out + "/top_words.tsv"));
    ASSERT_GT(top.size(), 1u);
    EXPECT_EQ(top[0][0], "component");
    EXPECT_EQ(top.size(), 1u + 6u * 10u);
}

TEST(CliTopics, JsonHasParametersReportTimingsAndFigures) {
    TempDir dir;
    const std::string corpus = generateCorpus(dir);
    const auto result = runCli({"topics", "--corpus", corpus, "--fg", "group=foreground", "--bg",
                                "group=background", "--k", "6", "--gamma", "2", "--min-df", "1",
                                "--positive", "set=a", "--json"},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    for (const char* key : {"\"parameters\"", "\"load_report\"", "\"documents_read\":6000",
                            "\"timings_ms\"", "\"load\"", "\"moments\"", "\"projection\"",
                            "\"decompositions\"", "\"foreground_specific\":2", "\"auc\"",
                            "\"relative_auc\"", "\"top_words\"", "\"iterations\":["}) {
        EXPECT_NE(result.out.find(key), std::string::npos) << key << " in " << result.out;
    }
    EXPECT_EQ(result.out.front(), '{');
}

TEST(CliTopics, ADirectoryHoldingOneUciCorpusLoadsAsUci) {
    // `generate --out DIR` then `topics --corpus DIR`: the folder names the corpus.
    TempDir dir;
    generateCorpus(dir);
    const auto result = runCli({"topics", "--corpus", dir.path().string(), "--fg",
                                "group=foreground", "--bg", "group=background", "--k", "4",
                                "--gamma", "1", "--min-df", "1"},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("corpus: 6000 documents"), std::string::npos) << result.out;
}

TEST(CliTopics, SameSeedSameFiles) {
    TempDir dir;
    const std::string corpus = generateCorpus(dir);
    for (const char* name : {"a", "b"}) {
        const auto result = runCli({"topics", "--corpus", corpus, "--fg", "group=foreground", "--bg",
                                    "group=background", "--k", "5", "--gamma", "1.5", "--seed", "9",
                                    "--min-df", "1", "--out", dir / name},
                                   dir);
        ASSERT_EQ(result.exitCode, 0) << result.err;
    }
    EXPECT_EQ(readText(dir / "a/topic_word.tsv"), readText(dir / "b/topic_word.tsv"));
    EXPECT_EQ(readText(dir / "a/components.tsv"), readText(dir / "b/components.tsv"));
}

TEST(CliSweep, WritesOneRowPerGammaWithRisingSpecificity) {
    TempDir dir;
    const std::string corpus = generateCorpus(dir);
    const std::string out = dir / "sweep";
    const auto result = runCli({"sweep", "--corpus", corpus, "--fg", "group=foreground", "--bg",
                                "group=background", "--k", "6", "--positive", "set=a", "--gammas",
                                "0:3:0.5", "--min-df", "1", "--out", out},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto rows = parseTsv(readText(out + "/sweep.tsv"));
    ASSERT_EQ(rows.size(), 8u); // header + 7 grid points
    EXPECT_EQ(rows[0], (std::vector<std::string>{"gamma", "auc", "relative_auc", "n_foreground_specific", "note"}));
    EXPECT_EQ(std::stod(rows[1][0]), 0.0);
    EXPECT_NEAR(std::stod(rows[1][2]), 1.0, 1e-12);
    EXPECT_EQ(std::stod(rows[7][0]), 3.0);
    EXPECT_GT(std::stod(rows[7][2]), 1.0); // contrast isolates the A documents
}

TEST(CliSweep, BootstrapAddsBandsStabilityAndSuggestions) {
    TempDir dir;
    const std::string corpus = generateCorpus(dir);
    const std::string out = dir / "boot";
    const std::vector<std::string> args = {"sweep", "--corpus", corpus, "--fg", "group=foreground",
                                           "--bg", "group=background", "--k", "6", "--positive",
                                           "set=a", "--gammas", "0:3:1", "--min-df", "1",
                                           "--bootstrap", "4", "--out", out, "--json"};
    const auto result = runCli(args, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    for (const char* key : {"\"auc_lo\"", "\"auc_hi\"", "\"stability\"", "\"suggestions\"",
                            "\"suggested_k\"", "\"best_gamma\"", "\"foreground_set_changes\"",
                            "\"bootstrap_replicates\":4"}) {
        EXPECT_NE(result.out.find(key), std::string::npos) << key << "\n" << result.out;
    }
    const auto rows = parseTsv(readText(out + "/sweep.tsv"));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0][4], "auc_lo");
    EXPECT_EQ(rows[0][5], "auc_hi");
    for (size_t i = 1; i < rows.size(); ++i) {
        EXPECT_LE(std::stod(rows[i][4]), std::stod(rows[i][5]));
    }
    // Same seed, same bands.
    const std::string first = readText(out + "/sweep.tsv");
    const auto again = runCli(args, dir);
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(readText(out + "/sweep.tsv"), first);
    auto bad = args;
    bad[bad.size() - 4] = "1";
    EXPECT_NE(runCli(bad, dir).exitCode, 0);
}

struct BadCase {
    std::vector<std::string> args;
    std::string expected; // substring of stderr
};

TEST(CliTopics, BadInputGivesClearMessageAndNonZeroExit) {
    TempDir dir;
    const std::string corpus = generateCorpus(dir);
    const std::vector<std::string> base = {"--corpus", corpus, "--fg", "group=foreground", "--bg",
                                           "group=background", "--min-df", "1"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"topics"};
        args.insert(args.end(), base.begin(), base.end());
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    const std::vector<BadCase> cases = {
        {with({"--k", "6", "--gamma", "nan"}), "--gamma"},
        {with({"--k", "6", "--gamma", "-1"}), "--gamma"},
        {with({"--k", "6", "--gamma", "inf"}), "--gamma"},
        {with({"--k", "0", "--gamma", "1"}), "--k"},
        {with({"--k", "5000", "--gamma", "1"}), "--k"},
        {with({"--k", "500", "--gamma", "1"}), "exceeds"},
        {with({"--k", "six", "--gamma", "1"}), "--k"},
        {with({"--k", "6"}), "--gamma"},
        {with({"--k", "6", "--gamma", "1", "--bogus", "1"}), "--bogus"},
        {{"topics", "--corpus", dir / "missing.txt", "--fg", "a=b", "--bg", "*", "--k", "3",
          "--gamma", "1"},
         "missing.txt"},
        {{"topics", "--corpus", corpus, "--fg", "group=nothing", "--bg", "*", "--k", "3",
          "--gamma", "1", "--min-df", "1"},
         "nothing"},
        {{"topics", "--corpus", corpus, "--fg", "nofield=x", "--bg", "*", "--k", "3", "--gamma",
          "1", "--min-df", "1"},
         "nofield"},
        {{"sweep", "--corpus", corpus, "--fg", "group=foreground", "--bg", "group=background",
          "--k", "3", "--positive", "set=a", "--gammas", "0:1", "--min-df", "1"},
         "--gammas"},
        {{"sweep", "--corpus", corpus, "--fg", "group=foreground", "--bg", "group=background",
          "--k", "3", "--positive", "group=foreground", "--gammas", "0:1:0.5", "--min-df", "1"},
         "--positive"},
        {{"nonsense"}, "unknown command"},
    };
    for (const auto& c : cases) {
        const auto result = runCli(c.args, dir);
        std::string joined;
        for (const auto& a : c.args) {
            joined += a + " ";
        }
        EXPECT_NE(result.exitCode, 0) << joined;
        EXPECT_NE(result.err.find(c.expected), std::string::npos)
            << joined << "\nstderr: " << result.err;
        EXPECT_EQ(result.err.find("terminate"), std::string::npos) << result.err;
    }
}

TEST(CliTopics, BundledDemoShowsContrastOnReutersSlice) {
    TempDir dir;
    const std::string demo = std::string(CX_SOURCE_DIR) + "/resources/demo/reuters";
    const std::string econ = "gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,"
                             "lei,reserves,instal-debt,interest,money-fx";
    const auto result = runCli({"sweep", "--corpus", demo, "--fg", "places=usa", "--bg",
                                "topics=" + econ, "--k", "8", "--positive", "!topics=" + econ,
                                "--gammas", "0:2:1", "--json"},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("\"documents_read\":5000"), std::string::npos) << result.out;
}

} // namespace
} // namespace cx
