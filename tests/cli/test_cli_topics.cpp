#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace cx {
namespace {

using test::parseTsv;
using test::readText;
using test::runCli;
using test::TempDir;

/// A seeded synthetic A/B/C corpus written by `contrast-cli generate` (small, fast).
std::string topicsCorpus(const TempDir& dir) {
    return cx::test::generateCorpus(dir, {.documentsPerSide = 3000,
                                          .vocabulary = 400,
                                          .length = 60,
                                          .topicsPerKind = 2,
                                          .seed = 5,
                                          .folder = {}});
}

TEST(CliTopics, WritesTopicWordComponentsAndTopWords) {
    TempDir dir;
    const std::string corpus = topicsCorpus(dir);
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
    EXPECT_EQ(components[0],
              (std::vector<std::string>{"component", "lambda", "weight", "foreground_specific",
                                        "signed_weight", "admissible", "npmi"}));
    int specific = 0;
    for (size_t row = 1; row < components.size(); ++row) {
        EXPECT_EQ(components[row][0], "c" + std::to_string(row));
        const double lambda = std::stod(components[row][1]);
        const double weight = std::stod(components[row][2]);
        const int flag = std::stoi(components[row][3]);
        EXPECT_EQ(flag, lambda > 0 ? 1 : 0);
        // admissible = ω ∈ [−γ, 1] with ω = sign(λ)/λ² (γ = 2 here).
        const double omega = std::stod(components[row][4]);
        EXPECT_NEAR(omega, (lambda > 0 ? 1.0 : -1.0) / (lambda * lambda), 1e-6 * std::abs(omega));
        EXPECT_EQ(components[row][5], omega >= -2.0 && omega <= 1.0 ? "1" : "0");
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
    EXPECT_EQ(top[0].back(), "npmi");
    EXPECT_EQ(top.size(), 1u + 6u * 10u);
}

TEST(CliTopics, JsonHasParametersReportTimingsAndFigures) {
    TempDir dir;
    const std::string corpus = topicsCorpus(dir);
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
    topicsCorpus(dir);
    const auto result =
        runCli({"topics", "--corpus", dir.path().string(), "--fg", "group=foreground", "--bg",
                "group=background", "--k", "4", "--gamma", "1", "--min-df", "1"},
               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("corpus: 6000 documents"), std::string::npos) << result.out;
}

TEST(CliTopics, SameSeedSameFiles) {
    TempDir dir;
    const std::string corpus = topicsCorpus(dir);
    for (const char* name : {"a", "b"}) {
        const auto result = runCli({"topics", "--corpus", corpus, "--fg", "group=foreground",
                                    "--bg", "group=background", "--k", "5", "--gamma", "1.5",
                                    "--seed", "9", "--min-df", "1", "--out", dir / name},
                                   dir);
        ASSERT_EQ(result.exitCode, 0) << result.err;
    }
    EXPECT_EQ(readText(dir / "a/topic_word.tsv"), readText(dir / "b/topic_word.tsv"));
    EXPECT_EQ(readText(dir / "a/components.tsv"), readText(dir / "b/components.tsv"));
}

/// Whether ω is admissible at γ: ω ∈ [−γ, 1] (topic_admissibility.h), and, with a band, the
/// band reaches into it (a band never clears an estimate outside).
bool admissibleWeight(double omega, double gamma, const nlohmann::json& c) {
    const bool point = omega >= -gamma && omega <= 1.0;
    if (c.contains("weight_lo") && c["weight_lo"].is_number() && c["weight_hi"].is_number()) {
        const double lo = c["weight_lo"].get<double>();
        const double hi = c["weight_hi"].get<double>();
        return point && !(lo > 1.0 || hi < -gamma);
    }
    return point;
}

TEST(CliSweep, WritesOneRowPerGammaWithRisingSpecificity) {
    TempDir dir;
    const std::string corpus = topicsCorpus(dir);
    const std::string out = dir / "sweep";
    const auto result = runCli({"sweep", "--corpus", corpus, "--fg", "group=foreground", "--bg",
                                "group=background", "--k", "6", "--positive", "set=a", "--gammas",
                                "0:3:0.5", "--min-df", "1", "--out", out},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto rows = parseTsv(readText(out + "/sweep.tsv"));
    ASSERT_EQ(rows.size(), 8u); // header + 7 grid points
    EXPECT_EQ(rows[0],
              (std::vector<std::string>{"gamma", "auc", "relative_auc", "n_foreground_specific",
                                        "n_inadmissible", "note"}));
    EXPECT_EQ(std::stod(rows[1][0]), 0.0);
    EXPECT_NEAR(std::stod(rows[1][2]), 1.0, 1e-12);
    EXPECT_EQ(std::stod(rows[7][0]), 3.0);
    EXPECT_GT(std::stod(rows[7][2]), 1.0); // contrast isolates the A documents
}

TEST(CliSweep, BootstrapAddsBandsStabilityAndSuggestions) {
    TempDir dir;
    const std::string corpus = topicsCorpus(dir);
    const std::string out = dir / "boot";
    const std::vector<std::string> args = {"sweep",
                                           "--corpus",
                                           corpus,
                                           "--fg",
                                           "group=foreground",
                                           "--bg",
                                           "group=background",
                                           "--k",
                                           "6",
                                           "--positive",
                                           "set=a",
                                           "--gammas",
                                           "0:3:1",
                                           "--min-df",
                                           "1",
                                           "--bootstrap",
                                           "4",
                                           "--out",
                                           out,
                                           "--json"};
    const auto result = runCli(args, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    for (const char* key :
         {"\"auc_lo\"", "\"auc_hi\"", "\"stability\"", "\"suggestions\"", "\"suggested_k\"",
          "\"best_gamma\"", "\"foreground_set_changes\"", "\"bootstrap_replicates\":4"}) {
        EXPECT_NE(result.out.find(key), std::string::npos) << key << "\n" << result.out;
    }
    // Per component the band rule: the point rule, plus a whole weight band outside.
    const auto json = nlohmann::json::parse(result.out);
    const auto rowsOfNotes = parseTsv(readText(out + "/sweep.tsv"));
    size_t index = 0;
    for (const auto& point : json["points"]) {
        // Whether the app stands behind the γ: JSON and sweep.tsv's note say the same.
        ASSERT_TRUE(point.contains("trusted"));
        const auto& row = rowsOfNotes[1 + index++];
        // (parseTsv drops an empty last field.)
        const std::string note = row.size() == rowsOfNotes[0].size() ? row.back() : "";
        if (point["trusted"].get<bool>()) {
            EXPECT_FALSE(point.contains("not_trusted_because"));
            EXPECT_EQ(note, "");
        } else {
            EXPECT_EQ(note, point["not_trusted_because"].get<std::string>());
            EXPECT_NE(json["suggestions"]["best_gamma"], point["gamma"])
                << "an untrusted γ suggested";
        }
        int count = 0;
        for (const auto& c : point["components"]) {
            ASSERT_TRUE(c.contains("weight_lo") && c.contains("weight_hi"));
            EXPECT_EQ(c["admissible"].get<bool>(),
                      admissibleWeight(c["weight"].get<double>(), point["gamma"].get<double>(), c));
            count += c["admissible"].get<bool>() ? 0 : 1;
        }
        EXPECT_EQ(point["n_inadmissible"].get<int>(), count);
    }
    const auto rows = parseTsv(readText(out + "/sweep.tsv"));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0][4], "auc_lo");
    EXPECT_EQ(rows[0][6], "n_inadmissible");
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
    const std::string corpus = topicsCorpus(dir);
    const std::vector<std::string> base = {"--corpus",         corpus, "--fg",
                                           "group=foreground", "--bg", "group=background",
                                           "--min-df",         "1"};
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
        {{"topics", "--corpus", corpus, "--fg", "group=nothing", "--bg", "*", "--k", "3", "--gamma",
          "1", "--min-df", "1"},
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

TEST(CliTopics, JsonAndConsoleFlagInadmissibleWeights) {
    // The bundled Reuters slice at K = 10 over γ = 0…8: whatever components the decomposition
    // keeps, every reported one carries `admissible` = ω ∈ [−γ, 1], the counts agree, and the
    // console names exactly the inadmissible ones.
    TempDir dir;
    const std::string demo = std::string(CX_SOURCE_DIR) + "/resources/demo/reuters";
    const std::string econ = "gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,"
                             "lei,reserves,instal-debt,interest,money-fx";
    const std::vector<std::string> base = {
        "--corpus",       demo,  "--fg", "places=usa", "--bg",
        "topics=" + econ, "--k", "10",   "--positive", "!topics=" + econ};
    std::vector<std::string> sweepArgs = {"sweep"};
    sweepArgs.insert(sweepArgs.end(), base.begin(), base.end());
    sweepArgs.insert(sweepArgs.end(), {"--gammas", "0:8:1", "--json"});
    const auto sweep = runCli(sweepArgs, dir);
    ASSERT_EQ(sweep.exitCode, 0) << sweep.err;
    const auto json = nlohmann::json::parse(sweep.out);
    int flagged = 0;
    double flaggedGamma = -1;
    for (const auto& point : json["points"]) {
        const double gamma = point["gamma"].get<double>();
        int count = 0;
        for (const auto& c : point["components"]) {
            const bool admissible = c["admissible"].get<bool>();
            EXPECT_EQ(admissible, admissibleWeight(c["weight"].get<double>(), gamma, c))
                << "gamma " << gamma << " weight " << c["weight"];
            count += admissible ? 0 : 1;
        }
        EXPECT_EQ(point["n_inadmissible"].get<int>(), count) << "gamma " << gamma;
        flagged += count;
        if (count > 0 && gamma > 0) {
            flaggedGamma = gamma;
        }
    }
    // The console form of the same sweep lists the flagged points.
    sweepArgs.pop_back();
    const auto console = runCli(sweepArgs, dir);
    ASSERT_EQ(console.exitCode, 0) << console.err;
    EXPECT_EQ(console.out.find("inadmissible components") != std::string::npos, flagged > 0)
        << console.out;

    // `topics` at a flagged γ (or γ = 2): JSON per component and the console's [INADMISSIBLE].
    const double gamma = flaggedGamma > 0 ? flaggedGamma : 2.0;
    std::vector<std::string> topicsArgs = {"topics"};
    topicsArgs.insert(topicsArgs.end(), base.begin(), base.end());
    topicsArgs.insert(topicsArgs.end(), {"--gamma", std::to_string(gamma), "--json"});
    const auto topics = runCli(topicsArgs, dir);
    ASSERT_EQ(topics.exitCode, 0) << topics.err;
    const auto result = nlohmann::json::parse(topics.out)["result"];
    const auto& weights = result["signed_weights"];
    const auto& admissible = result["admissible"];
    ASSERT_EQ(weights.size(), admissible.size());
    ASSERT_EQ(weights.size(), result["lambdas"].size());
    int inadmissible = 0;
    int admissibleForeground = 0;
    for (size_t t = 0; t < weights.size(); ++t) {
        const double omega = weights[t].get<double>();
        EXPECT_EQ(admissible[t].get<bool>(), omega >= -gamma && omega <= 1.0) << omega;
        inadmissible += admissible[t].get<bool>() ? 0 : 1;
        admissibleForeground += admissible[t].get<bool>() && omega > 0 ? 1 : 0;
    }
    EXPECT_EQ(result["inadmissible_components"].get<int>(), inadmissible);
    EXPECT_EQ(result["admissible_foreground_specific"].get<int>(), admissibleForeground);
    topicsArgs.pop_back();
    const auto text = runCli(topicsArgs, dir);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    size_t marks = 0;
    for (size_t at = text.out.find("[INADMISSIBLE]"); at != std::string::npos;
         at = text.out.find("[INADMISSIBLE]", at + 1)) {
        ++marks;
    }
    EXPECT_EQ(marks, static_cast<size_t>(inadmissible)) << text.out;
    EXPECT_EQ(text.out.find("note: inadmissible") != std::string::npos, inadmissible > 0);
}

TEST(CliTopics, BundledDemoShowsContrastOnReutersSlice) {
    TempDir dir;
    const std::string demo = std::string(CX_SOURCE_DIR) + "/resources/demo/reuters";
    const std::string econ = "gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,"
                             "lei,reserves,instal-debt,interest,money-fx";
    const auto result =
        runCli({"sweep", "--corpus", demo, "--fg", "places=usa", "--bg", "topics=" + econ, "--k",
                "8", "--positive", "!topics=" + econ, "--gammas", "0:2:1", "--json"},
               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("\"documents_read\":5000"), std::string::npos) << result.out;
}

} // namespace
} // namespace cx
