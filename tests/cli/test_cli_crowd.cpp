#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

using cx::test::readText;
using cx::test::runCli;
using cx::test::TempDir;

TEST(CliCrowd, GeneratedCrowdRoundTripsThroughEveryMethod) {
    TempDir dir;
    const auto generated =
        runCli({"generate-crowd", "--out", dir / "gen", "--items", "300", "--workers", "30",
                "--classes", "3", "--beta", "0.3", "--accuracy", "0.8", "--seed", "4", "--json"},
               dir);
    ASSERT_EQ(generated.exitCode, 0) << generated.err;
    const auto summary = nlohmann::json::parse(generated.out);
    EXPECT_EQ(summary["informative_workers"], 9);
    const std::string labels = dir / "gen/crowd.labels.csv";
    const std::string gold = dir / "gen/crowd.gold.csv";
    for (const char* method :
         {"mv", "em", "mv-em", "spectral-em", "stagewise", "stagewise-refine"}) {
        const std::string out = dir / (std::string("out_") + method);
        const auto result = runCli({"crowd", "--labels", labels, "--gold", gold, "--method", method,
                                    "--out", out, "--json"},
                                   dir);
        ASSERT_EQ(result.exitCode, 0) << method << ": " << result.err;
        const auto json = nlohmann::json::parse(result.out);
        ASSERT_TRUE(json["error_rate"].is_number()) << method;
        EXPECT_LT(json["error_rate"].get<double>(), 0.3) << method;
        EXPECT_TRUE(json["timings_ms"].contains("method"));
        EXPECT_TRUE(json.contains("informative_set_size"));
        EXPECT_TRUE(json.contains("iterations"));
        const auto rows = cx::test::parseTsv(readText(out + "/labels.tsv"));
        ASSERT_EQ(rows.size(), 301u);
        EXPECT_EQ(rows[0], (std::vector<std::string>{"item", "predicted", "p_0", "p_1", "p_2"}));
        double total = 0;
        for (size_t c = 2; c < 5; ++c) {
            total += std::stod(rows[1][c]);
        }
        EXPECT_NEAR(total, 1.0, 1e-4);
        const auto workers = cx::test::parseTsv(readText(out + "/workers.tsv"));
        ASSERT_EQ(workers.size(), 31u);
        EXPECT_EQ(workers[0].size(), 6u + 9u); // 3 × 3 confusion, row-major
    }
    // Stagewise names a proper subset of the workers as informative.
    const auto staged = nlohmann::json::parse(
        runCli({"crowd", "--labels", labels, "--method", "stagewise", "--json"}, dir).out);
    EXPECT_LT(staged["informative_set_size"].get<int>(), 30);
    EXPECT_TRUE(staged["error_rate"].is_null()); // no gold given
}

TEST(CliCrowd, SavesASessionAndRejectsBadInput) {
    TempDir dir;
    {
        std::ofstream(dir / "labels.tsv")
            << "item\tworker\tlabel\n1\ta\tx\n1\tb\ty\n2\ta\tx\n2\tb\tx\n2\tc\ty\n";
    }
    const auto saved = runCli({"crowd", "--labels", dir / "labels.tsv", "--method", "mv-em",
                               "--save-session", dir / "crowd.cxproj"},
                              dir);
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    const auto session = nlohmann::json::parse(readText(dir / "crowd.cxproj"));
    EXPECT_EQ(session["active"], "crowd");
    EXPECT_EQ(session["workspaces"]["crowd"]["labels"]["path"], "labels.tsv");
    EXPECT_EQ(session["workspaces"]["crowd"]["model"]["method"], "mv-em");

    const auto missing = runCli({"crowd", "--labels", dir / "nope.csv"}, dir);
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("nope.csv"), std::string::npos);
    const auto method = runCli({"crowd", "--labels", dir / "labels.tsv", "--method", "glad"}, dir);
    EXPECT_EQ(method.exitCode, 2);
    EXPECT_NE(method.err.find("--method"), std::string::npos);
    const auto k = runCli({"crowd", "--labels", dir / "labels.tsv", "--k", "1"}, dir);
    EXPECT_EQ(k.exitCode, 2);
    EXPECT_NE(k.err.find("parameter K: 1 components; must be in [2, 64]"), std::string::npos)
        << k.err;
    { std::ofstream(dir / "bad.csv") << "question,worker,answer\n1,2,0\n1,3\n"; }
    const auto ragged = runCli({"crowd", "--labels", dir / "bad.csv"}, dir);
    EXPECT_EQ(ragged.exitCode, 2);
    EXPECT_NE(ragged.err.find("bad.csv:3:"), std::string::npos) << ragged.err;
}

// contrast-cli run SESSION --workspace crowd repeats `crowd --save-session`: the same
// labels/workers/trace files byte for byte.
TEST(CliCrowd, RunReproducesASavedCrowdSessionByteForByte) {
    TempDir dir;
    const auto generated =
        runCli({"generate-crowd", "--out", dir / "gen", "--items", "200", "--workers", "20",
                "--classes", "3", "--beta", "0.3", "--accuracy", "0.8", "--seed", "6"},
               dir);
    ASSERT_EQ(generated.exitCode, 0) << generated.err;
    const auto saved = runCli({"crowd", "--labels", dir / "gen/crowd.labels.csv", "--gold",
                               dir / "gen/crowd.gold.csv", "--method", "em", "--seed", "7",
                               "--restarts", "3", "--k", "3", "--out", dir / "direct",
                               "--save-session", dir / "project/crowd.cxproj"},
                              dir);
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    const auto rerun = runCli(
        {"run", dir / "project/crowd.cxproj", "--out", dir / "again", "--workspace", "crowd"}, dir);
    ASSERT_EQ(rerun.exitCode, 0) << rerun.err;
    for (const char* name : {"labels.tsv", "workers.tsv", "trace.tsv"}) {
        const std::string want = readText(dir / (std::string("direct/") + name));
        ASSERT_FALSE(want.empty()) << name;
        EXPECT_EQ(readText(dir / (std::string("again/") + name)), want) << name << " differs";
    }
    EXPECT_NE(rerun.out.find("error rate"), std::string::npos) << rerun.out;
}

// The extension's multiple-testing procedure: reported, saved in the session, repeated by
// `run`, and anything but bh/holm refused naming the option.
TEST(CliCrowd, ExtensionProcedureIsReportedSavedAndRepeated) {
    TempDir dir;
    const auto generated =
        runCli({"generate-crowd", "--out", dir / "gen", "--items", "300", "--workers", "30",
                "--classes", "3", "--beta", "0.3", "--accuracy", "0.7", "--seed", "9"},
               dir);
    ASSERT_EQ(generated.exitCode, 0) << generated.err;
    const auto saved = runCli({"crowd", "--labels", dir / "gen/crowd.labels.csv", "--gold",
                               dir / "gen/crowd.gold.csv", "--method", "stagewise",
                               "--extension-procedure", "holm", "--json", "--out", dir / "direct",
                               "--save-session", dir / "project/crowd.cxproj"},
                              dir);
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    const auto json = nlohmann::json::parse(saved.out);
    EXPECT_EQ(json["parameters"]["extension_procedure"], "holm");
    const auto session = nlohmann::json::parse(readText(dir / "project/crowd.cxproj"));
    EXPECT_EQ(session["workspaces"]["crowd"]["model"]["extension_procedure"], "holm");
    const auto rerun = runCli(
        {"run", dir / "project/crowd.cxproj", "--out", dir / "again", "--workspace", "crowd"}, dir);
    ASSERT_EQ(rerun.exitCode, 0) << rerun.err;
    for (const char* name : {"labels.tsv", "workers.tsv", "trace.tsv"}) {
        const std::string want = readText(dir / (std::string("direct/") + name));
        ASSERT_FALSE(want.empty()) << name;
        EXPECT_EQ(readText(dir / (std::string("again/") + name)), want) << name << " differs";
    }
    const auto defaults = runCli(
        {"crowd", "--labels", dir / "gen/crowd.labels.csv", "--method", "stagewise", "--json"},
        dir);
    ASSERT_EQ(defaults.exitCode, 0) << defaults.err;
    EXPECT_EQ(nlohmann::json::parse(defaults.out)["parameters"]["extension_procedure"], "bh");
    const auto bad = runCli(
        {"crowd", "--labels", dir / "gen/crowd.labels.csv", "--extension-procedure", "bonferroni"},
        dir);
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--extension-procedure"), std::string::npos) << bad.err;
}

// Majority vote's error rate is its expectation over random tie-breaks (also under its old name
// error_rate_random_ties); the first-seen rule is reported beside it; other methods do not carry
// the fields.
TEST(CliCrowd, MajorityVoteReportsTheRandomTieBreakingError) {
    TempDir dir;
    {
        // Item 1: x, y (tie, x first; gold y); item 2: x, x, y (x; gold x); item 3: y, x (tie, y
        // first; gold x). First-seen: wrong, right, wrong → 2/3; random: ½ + 1 + ½ right → 1/3.
        std::ofstream(dir / "labels.tsv") << "item\tworker\tlabel\n1\ta\tx\n1\tb\ty\n2\ta\tx\n2\tb"
                                             "\tx\n2\tc\ty\n3\ta\ty\n3\tb\tx\n";
        std::ofstream(dir / "gold.tsv") << "item\ttruth\n1\ty\n2\tx\n3\tx\n";
    }
    const auto mv = runCli({"crowd", "--labels", dir / "labels.tsv", "--gold", dir / "gold.tsv",
                            "--method", "mv", "--json"},
                           dir);
    ASSERT_EQ(mv.exitCode, 0) << mv.err;
    const auto json = nlohmann::json::parse(mv.out);
    EXPECT_NEAR(json["error_rate"].get<double>(), 1.0 / 3, 1e-12);
    EXPECT_NEAR(json["error_rate_random_ties"].get<double>(), 1.0 / 3, 1e-12);
    EXPECT_NEAR(json["error_rate_first_seen"].get<double>(), 2.0 / 3, 1e-12);
    ASSERT_EQ(json["notes"].size(), 1U);
    EXPECT_EQ(json["tied_gold_items"], 2);
    const auto noGold = nlohmann::json::parse(
        runCli({"crowd", "--labels", dir / "labels.tsv", "--method", "mv", "--json"}, dir).out);
    EXPECT_TRUE(noGold["error_rate_random_ties"].is_null());
    EXPECT_TRUE(noGold["error_rate_first_seen"].is_null());
    EXPECT_EQ(noGold["tied_gold_items"], 0);
    const auto em = nlohmann::json::parse(runCli({"crowd", "--labels", dir / "labels.tsv", "--gold",
                                                  dir / "gold.tsv", "--method", "mv-em", "--json"},
                                                 dir)
                                              .out);
    EXPECT_FALSE(em.contains("error_rate_random_ties"));
}

// A session whose data folder moved: `run` names the missing file and the entry; with
// --data-root it finds the file under the new folder and the gold file beside it follows.
TEST(CliCrowd, RunOfAMovedSessionNamesTheMissingFileOrRemapsItWithDataRoot) {
    TempDir dir;
    const auto generated = runCli({"generate-crowd", "--out", dir / "data/gen", "--items", "100",
                                   "--workers", "10", "--classes", "2", "--seed", "3"},
                                  dir);
    ASSERT_EQ(generated.exitCode, 0) << generated.err;
    const auto saved = runCli({"crowd", "--labels", dir / "data/gen/crowd.labels.csv", "--gold",
                               dir / "data/gen/crowd.gold.csv", "--method", "mv", "--out",
                               dir / "direct", "--save-session", dir / "project/crowd.cxproj"},
                              dir);
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    std::filesystem::rename(dir / "data", dir / "moved");

    const auto missing = runCli({"run", dir / "project/crowd.cxproj", "--out", dir / "again"}, dir);
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("data/gen/crowd.labels.csv: no such file"), std::string::npos)
        << missing.err;
    EXPECT_NE(missing.err.find("/workspaces/crowd/labels/path"), std::string::npos) << missing.err;

    const auto remapped = runCli(
        {"run", dir / "project/crowd.cxproj", "--out", dir / "again", "--data-root", dir / "moved"},
        dir);
    ASSERT_EQ(remapped.exitCode, 0) << remapped.err;
    EXPECT_EQ(readText(dir / "again/labels.tsv"), readText(dir / "direct/labels.tsv"));
    EXPECT_NE(remapped.out.find("error rate"), std::string::npos) << remapped.out; // gold found

    // A root that does not hold the file, and one that does not exist: named.
    const auto elsewhere = runCli(
        {"run", dir / "project/crowd.cxproj", "--out", dir / "x", "--data-root", dir / "project"},
        dir);
    EXPECT_EQ(elsewhere.exitCode, 2);
    EXPECT_NE(elsewhere.err.find("under --data-root"), std::string::npos) << elsewhere.err;
    const auto nowhere = runCli(
        {"run", dir / "project/crowd.cxproj", "--out", dir / "x", "--data-root", dir / "nowhere"},
        dir);
    EXPECT_EQ(nowhere.exitCode, 2);
    EXPECT_NE(nowhere.err.find("--data-root"), std::string::npos) << nowhere.err;
    EXPECT_NE(nowhere.err.find("no such folder"), std::string::npos) << nowhere.err;
}
