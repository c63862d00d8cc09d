// contrast-cli on CLI11: every command's --help lists every option it accepts on
// its own line with a meaning (and the default where there is one), a bad value names the option,
// unknown options are refused; --json through nlohmann-json keeps its keys in order; topics and
// sweep take --decomposition power|jennrich|pencil and sessions keep it.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

namespace cx {
namespace {

using test::readText;
using test::runCli;
using test::TempDir;

struct CommandOptions {
    std::vector<std::string> valued;   ///< options taking a value
    std::vector<std::string> required; ///< of those, the required ones (no default shown)
    std::vector<std::string> flags;    ///< switches
};

const std::vector<std::string> kLoad = {"format", "min-df", "max-df", "max-vocab", "min-tokens"};
const std::vector<std::string> kLoadFlags = {"keep-stopwords", "keep-numbers", "drop-numbers"};

std::vector<std::string> join(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

/// What each command accepts (the options tests, README and scripts use).
const std::map<std::string, CommandOptions>& expectedOptions() {
    static const std::vector<std::string> topicModel = {"corpus",
                                                        "fg",
                                                        "bg",
                                                        "k",
                                                        "iterations",
                                                        "restarts",
                                                        "seed",
                                                        "decomposition",
                                                        "rank-per-side",
                                                        "range-iterations",
                                                        "method",
                                                        "smoothing",
                                                        "smoothing-prior",
                                                        "top",
                                                        "threads",
                                                        "out"};
    static const std::map<std::string, CommandOptions> all = {
        {"topics",
         {join(join(topicModel, kLoad),
               {"gamma", "positive", "save-session", "top-docs", "top-docs-from"}),
          {"corpus", "fg", "bg", "k", "gamma"},
          join(kLoadFlags, {"json", "all-components"})}},
        {"sweep",
         {join(join(topicModel, kLoad), {"positive", "gammas", "bootstrap", "save-session"}),
          {"corpus", "fg", "bg", "k", "positive"},
          join(kLoadFlags, {"json", "no-split-half"})}},
        {"hmm",
         {{"tracks",
           "fg-regions",
           "bg-regions",
           "k",
           "gamma",
           "encoding",
           "method",
           "refine-em",
           "refine-tolerance",
           "seed",
           "bin-size",
           "em-max-iter",
           "em-tolerance",
           "decode",
           "iterations",
           "restarts",
           "starts",
           "projection-rank",
           "lag",
           "refine-rounds",
           "window",
           "extra-components",
           "validity-z",
           "als-sweeps",
           "moment-fit",
           "moment-order",
           "decomposition",
           "scaling",
           "out",
           "threads",
           "save-session",
           "gamma-path",
           "path-starts",
           "bootstrap",
           "block-length",
           "k-range",
           "state-labels"},
          {"tracks", "gamma", "out"},
          {"no-segments", "json"}}},
        {"tree",
         {{"tracks",        "tree",           "k",
           "decomposition", "seed",           "projection",
           "iterations",    "restarts",       "starts",
           "tss",           "compare",        "out",
           "flank",         "promoter-state", "em-iterations",
           "decode",        "bin-size",       "save-session",
           "scaling",       "moment-fit",     "extra-components",
           "state-labels"},
          {"tracks", "tree", "k", "out"},
          {"json", "no-segments", "strict-marks"}}},
        {"run", {{"out", "workspace", "data-root", "threads"}, {"out"}, {}}},
        {"generate",
         {{"out", "name", "fg-docs", "bg-docs", "vocab", "a", "b", "c", "length", "spread",
           "concentration", "seed"},
          {"out"},
          {"json"}}},
        {"convert", {join({"corpus", "out", "name"}, kLoad), {"corpus", "out"}, kLoadFlags}},
        {"crowd",
         {{"labels", "gold", "method", "k", "seed", "restarts", "max-iter", "smoothing",
           "significance", "extension-significance", "extension-procedure", "out", "save-session"},
          {"labels"},
          {"json"}}},
        {"binarize",
         {{"chrom-sizes", "input-dir", "cellmarkfiletable", "control-dir", "format", "bin-size",
           "shift", "poisson-threshold", "fold-threshold", "signal-threshold", "flank-width",
           "pseudocount", "temp-dir", "threads", "out"},
          {"chrom-sizes", "input-dir", "cellmarkfiletable", "out"},
          {"strict-threshold", "paired", "center", "gzip", "allow-missing-marks", "json"}}},
        {"enrichment",
         {{"segments", "coords", "anchors", "bin-size", "out", "left", "right", "spacing", "dpi"},
          {"segments", "out"},
          {"json", "binres", "center", "multicount", "uniformscale", "pvalues", "no-strand",
           "no-images"}}},
        {"generate-crowd",
         {{"out", "name", "items", "workers", "classes", "beta", "accuracy", "last-accuracy",
           "label-probability", "seed"},
          {"out"},
          {"json"}}},
        {"generate-tree",
         {{"out", "tree", "k", "marks", "bins", "assembly", "chroms", "bin-size", "stay", "follow",
           "keep", "emission-noise", "child-signal", "tss-per-mb", "tss-in-promoter", "seed"},
          {"out"},
          {"json"}}},
    };
    return all;
}

/// The help entry of --NAME: the line whose first word is --NAME (after indentation), joined
/// with the indented continuation line CLI11 uses when the name and type fill the first column.
std::map<std::string, std::string> optionLines(const std::string& help) {
    std::map<std::string, std::string> lines;
    std::istringstream in(help);
    std::string line;
    std::string last;
    while (std::getline(in, line)) {
        const auto start = line.find_first_not_of(' ');
        if (start == std::string::npos) {
            last.clear();
            continue;
        }
        if (line.compare(start, 2, "--") != 0) {
            if (!last.empty() && start >= 20) {
                lines[last] += "  " + line.substr(start);
            }
            last.clear();
            continue;
        }
        const auto end = line.find_first_of(" ,", start);
        last = line.substr(start + 2, end == std::string::npos ? end : end - start - 2);
        lines[last] = line;
    }
    return lines;
}

TEST(CliHelp, EveryCommandListsEveryOptionOnItsOwnLineWithMeaningAndDefault) {
    TempDir dir;
    for (const auto& [command, options] : expectedOptions()) {
        const auto result = runCli({command, "--help"}, dir);
        ASSERT_EQ(result.exitCode, 0) << command << "\n" << result.err;
        const auto lines = optionLines(result.out);
        std::set<std::string> expected;
        for (const auto& list : {options.valued, options.flags}) {
            for (const auto& name : list) {
                expected.insert(name);
                const auto it = lines.find(name);
                ASSERT_NE(it, lines.end()) << command << " --help lacks --" << name << "\n"
                                           << result.out;
                // Name, (type,) then at least two spaces and a meaning of a few words.
                const std::string& line = it->second;
                const auto gap = line.find("  ", line.find("--" + name));
                ASSERT_NE(gap, std::string::npos) << line;
                const std::string meaning = line.substr(line.find_first_not_of(' ', gap));
                EXPECT_GE(meaning.size(), 5u) << command << ": " << line;
            }
        }
        for (const auto& name : options.valued) {
            const std::string& line = lines.at(name);
            const bool required = std::find(options.required.begin(), options.required.end(),
                                            name) != options.required.end();
            if (required) {
                EXPECT_NE(line.find("(required)"), std::string::npos) << command << ": " << line;
            } else {
                EXPECT_NE(line.find("(default"), std::string::npos) << command << ": " << line;
            }
        }
        // Nothing listed that the test does not know of (besides --help).
        for (const auto& [name, line] : lines) {
            EXPECT_TRUE(expected.count(name) || name == "help") << command << ": " << line;
        }
    }
}

TEST(CliHelp, TopLevelHelpListsTheCommands) {
    TempDir dir;
    const auto help = runCli({"--help"}, dir);
    EXPECT_EQ(help.exitCode, 0);
    const auto bare = runCli({}, dir);
    EXPECT_EQ(bare.exitCode, 2);
    for (const auto& [command, options] : expectedOptions()) {
        EXPECT_NE(help.out.find("  " + command + " "), std::string::npos) << help.out;
        EXPECT_NE(bare.err.find("  " + command + " "), std::string::npos) << bare.err;
    }
}

TEST(CliHelp, ABadValueNamesTheOptionForEveryIntegerAndNumberOption) {
    TempDir dir;
    int checked = 0;
    for (const auto& [command, options] : expectedOptions()) {
        const auto lines = optionLines(runCli({command, "--help"}, dir).out);
        for (const auto& name : options.valued) {
            const std::string& line = lines.at(name);
            const bool integer = line.find(" INT") != std::string::npos;
            const bool number = line.find(" NUMBER") != std::string::npos;
            if (!integer && !number) {
                continue;
            }
            const auto result = runCli({command, "--" + name, "x"}, dir);
            EXPECT_EQ(result.exitCode, 2) << command << " --" << name;
            const std::string expected = "parameter --" + name + ": 'x' is not a";
            EXPECT_NE(result.err.find(expected), std::string::npos)
                << command << " --" << name << ": " << result.err;
            ++checked;
        }
    }
    EXPECT_GT(checked, 50);
}

TEST(CliHelp, OutOfRangeAndBadChoicesNameTheOption) {
    TempDir dir;
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"topics", "--k", "0"}, "parameter --k: 0 is outside [1, 1000]"},
        {{"sweep", "--max-df", "2"}, "parameter --max-df: 2 is outside"},
        {{"generate", "--concentration", "inf"}, "parameter --concentration: inf is not finite"},
        {{"topics", "--decomposition", "svd"},
         "parameter --decomposition: 'svd' is not one of auto|pencil|power|jennrich"},
        {{"topics", "--method", "dense"}, "parameter --method: 'dense' is not one of"},
        {{"convert", "--format", "pdf"}, "parameter --format: 'pdf' is not one of"},
        {{"crowd", "--seed", "-3"}, "parameter --seed: '-3' is not a non-negative integer"},
        {{"generate", "--out", dir / "g"}, ""}, // control: valid
        {{"generate"}, "parameter --out: required"},
        {{"run", "--out", dir / "o"}, "missing SESSION"},
        {{"crowd", "--labels", "x.csv", "--bogus", "1"}, "unknown option --bogus"},
        {{"tree", "--nope"}, "unknown option --nope"},
        {{"generate-crowd", "--out", dir / "c", "stray"}, "unexpected argument 'stray'"},
        {{"topics", "--k"}, "--k"},
    };
    for (const auto& [args, expected] : cases) {
        const auto result = runCli(args, dir);
        if (expected.empty()) {
            EXPECT_EQ(result.exitCode, 0) << result.err;
            continue;
        }
        EXPECT_EQ(result.exitCode, 2) << args[0] << " " << args[1] << "\n" << result.err;
        EXPECT_NE(result.err.find(expected), std::string::npos) << result.err;
        EXPECT_EQ(result.err.find("terminate"), std::string::npos) << result.err;
    }
}

TEST(CliJson, GenerateJsonKeepsItsKeysInOrder) {
    TempDir dir;
    const auto result = runCli({"generate", "--out", dir.path().string(), "--fg-docs", "50",
                                "--bg-docs", "40", "--vocab", "30", "--json"},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto json = nlohmann::ordered_json::parse(result.out);
    std::vector<std::string> keys;
    for (const auto& [key, value] : json.items()) {
        keys.push_back(key);
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"command", "docword", "documents", "vocabulary",
                                              "gamma_bound", "timings_ms"}));
    EXPECT_EQ(json["documents"], 90);
    EXPECT_EQ(json["vocabulary"], 30);
    EXPECT_TRUE(json["timings_ms"]["generate_and_write"].is_number());
    // Compact, one line.
    EXPECT_EQ(result.out.find('\n'), result.out.size() - 1);
}

std::string helpCorpus(const TempDir& dir) {
    return cx::test::generateCorpus(dir, {.documentsPerSide = 2000,
                                          .vocabulary = 300,
                                          .length = 60,
                                          .topicsPerKind = 2,
                                          .seed = 5,
                                          .folder = {}});
}

TEST(CliTopics, DefaultDecompositionIsThePencilForProjectedAndPowerForDirect) {
    TempDir dir;
    const std::string corpus = helpCorpus(dir);
    const std::vector<std::string> base = {
        "topics", "--corpus", corpus,    "--fg", "group=foreground", "--bg", "group=background",
        "--k",    "4",        "--gamma", "1",    "--min-df",         "1",    "--json"};
    const auto projected = runCli(base, dir);
    ASSERT_EQ(projected.exitCode, 0) << projected.err;
    EXPECT_EQ(nlohmann::json::parse(projected.out)["parameters"]["decomposition"], "pencil");
    std::vector<std::string> direct = base;
    direct.insert(direct.end(), {"--method", "direct"});
    const auto d = runCli(direct, dir);
    ASSERT_EQ(d.exitCode, 0) << d.err;
    EXPECT_EQ(nlohmann::json::parse(d.out)["parameters"]["decomposition"], "power");
}

/// `sweep --json` of the generated corpus (K = 4, γ 0:2:0.5), writing into `out` and saving
/// the session as `session`.
std::vector<std::string> smallSweep(const std::string& corpus, const std::string& out,
                                    const std::string& session) {
    return {
        "sweep",   "--corpus", corpus,     "--fg", "group=foreground", "--bg",  "group=background",
        "--k",     "4",        "--min-df", "1",    "--positive",       "set=a", "--gammas",
        "0:2:0.5", "--json",   "--out",    out,    "--save-session",   session};
}

TEST(CliTopics, SmoothingPriorIsEchoedSavedAndReplayed) {
    TempDir dir;
    const std::string corpus = helpCorpus(dir);
    auto sweep = [&](const std::string& prior) {
        std::vector<std::string> args = smallSweep(corpus, dir / prior, dir / (prior + ".cxproj"));
        if (!prior.empty()) {
            args.insert(args.end(), {"--smoothing-prior", prior});
        }
        return runCli(args, dir);
    };
    const auto byDefault = sweep("");
    const auto frequency = sweep("frequency");
    const auto uniform = sweep("uniform");
    ASSERT_EQ(byDefault.exitCode, 0) << byDefault.err;
    ASSERT_EQ(uniform.exitCode, 0) << uniform.err;
    const auto d = nlohmann::json::parse(byDefault.out);
    const auto f = nlohmann::json::parse(frequency.out);
    const auto u = nlohmann::json::parse(uniform.out);
    EXPECT_EQ(d["parameters"]["smoothing_prior"], "frequency");
    EXPECT_EQ(u["parameters"]["smoothing_prior"], "uniform");
    EXPECT_EQ(d["points"], f["points"]) << "frequency is the default";
    // The priors score differently (γ = 0.5: a mixed model, the AUC is below 1).
    EXPECT_NE(f["points"][1]["auc"], u["points"][1]["auc"]);
    const auto session = nlohmann::json::parse(readText(dir / "uniform.cxproj"));
    EXPECT_EQ(session["workspaces"]["topics"]["model"]["smoothing_prior"], "uniform");
    const auto replay = runCli({"run", dir / "uniform.cxproj", "--out", dir / "replay"}, dir);
    ASSERT_EQ(replay.exitCode, 0) << replay.err;
    EXPECT_EQ(readText(dir / "replay/sweep.tsv"), readText(dir / "uniform/sweep.tsv"));
    const auto bad =
        runCli({"sweep", "--corpus", corpus, "--fg", "group=foreground", "--bg", "group=background",
                "--positive", "set=a", "--smoothing-prior", "zipf"},
               dir);
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("smoothing-prior"), std::string::npos) << bad.err;
}

TEST(CliTopics, SweepChecksEachTopicOnTwoHalvesUnlessToldNotAndSessionsKeepTheChoice) {
    TempDir dir;
    const std::string corpus = helpCorpus(dir);
    auto sweep = [&](const std::string& name, bool check) {
        std::vector<std::string> args = smallSweep(corpus, dir / name, dir / (name + ".cxproj"));
        if (!check) {
            args.emplace_back("--no-split-half");
        }
        return runCli(args, dir);
    };
    const auto on = sweep("on", true);
    const auto off = sweep("off", false);
    ASSERT_EQ(on.exitCode, 0) << on.err;
    ASSERT_EQ(off.exitCode, 0) << off.err;
    const auto a = nlohmann::json::parse(on.out);
    const auto b = nlohmann::json::parse(off.out);
    EXPECT_EQ(a["split_half"], true);
    EXPECT_EQ(b["split_half"], false);
    EXPECT_TRUE(a["timings_ms"].contains("split_half"));
    EXPECT_FALSE(b["timings_ms"].contains("split_half"));
    int components = 0;
    for (const auto& point : a["points"]) {
        for (const auto& c : point["components"]) {
            ASSERT_TRUE(c.contains("halves")) << c.dump();
            EXPECT_GE(c["halves"].get<int>(), 0);
            EXPECT_LE(c["halves"].get<int>(), 2);
            ++components;
            // A foreground-specific topic missing from a half is not stood behind.
            if (c["foreground_specific"].get<bool>() && c["halves"].get<int>() < 2) {
                EXPECT_FALSE(point["trusted"].get<bool>()) << point.dump();
                EXPECT_NE(point["not_trusted_because"].get<std::string>().find(
                              "not reproduced in both halves"),
                          std::string::npos);
            }
        }
    }
    EXPECT_GT(components, 0);
    for (const auto& point : b["points"]) {
        for (const auto& c : point["components"]) {
            EXPECT_FALSE(c.contains("halves"));
        }
    }
    // The same path and AUC either way: the check only adds reasons.
    for (size_t i = 0; i < a["points"].size(); ++i) {
        EXPECT_EQ(a["points"][i]["auc"], b["points"][i]["auc"]);
    }
    // Sessions keep the choice, and `run` gives the same notes.
    for (const std::string name : {"on", "off"}) {
        const auto session = nlohmann::json::parse(readText(dir / (name + ".cxproj")));
        EXPECT_EQ(session["workspaces"]["topics"]["auc"]["split_half"], name == "on");
        const auto replay =
            runCli({"run", dir / (name + ".cxproj"), "--out", dir / (name + "-replay")}, dir);
        ASSERT_EQ(replay.exitCode, 0) << replay.err;
        EXPECT_EQ(readText(dir / (name + "-replay/sweep.tsv")),
                  readText(dir / (name + "/sweep.tsv")));
    }
}

TEST(CliTopics, JennrichAndPencilDecompositionsRunRecordAndReplayFromASession) {
    for (const std::string name : {"jennrich", "pencil"}) {
        SCOPED_TRACE(name);
        TempDir dir;
        const std::string corpus = helpCorpus(dir);
        const std::vector<std::string> base = {
            "topics", "--corpus",         corpus, "--fg",       "group=foreground",
            "--bg",   "group=background", "--k",  "4",          "--gamma",
            "1",      "--min-df",         "1",    "--positive", "set=a"};
        auto with = [&](std::vector<std::string> extra) {
            std::vector<std::string> args = base;
            args.insert(args.end(), extra.begin(), extra.end());
            return args;
        };
        const auto power = runCli(with({"--decomposition", "power", "--json"}), dir);
        const auto jennrich = runCli(with({"--decomposition", name, "--json", "--out", dir / "j",
                                           "--save-session", dir / "j.cxproj"}),
                                     dir);
        ASSERT_EQ(power.exitCode, 0) << power.err;
        ASSERT_EQ(jennrich.exitCode, 0) << jennrich.err;
        const auto p = nlohmann::ordered_json::parse(power.out);
        const auto j = nlohmann::ordered_json::parse(jennrich.out);
        EXPECT_EQ(p["parameters"]["decomposition"], "power");
        EXPECT_EQ(j["parameters"]["decomposition"], name);
        // Both find the two foreground-only topics (set A) and rank the A documents first.
        EXPECT_EQ(p["result"]["foreground_specific"], 2) << power.out;
        EXPECT_EQ(j["result"]["foreground_specific"], 2) << jennrich.out;
        EXPECT_GT(j["result"]["auc"].get<double>(), 0.9) << jennrich.out;
        EXPECT_NEAR(j["result"]["auc"].get<double>(), p["result"]["auc"].get<double>(), 0.05);
        // The session records it, and `run` repeats the Jennrich run byte for byte.
        const auto session = nlohmann::json::parse(readText(dir / "j.cxproj"));
        EXPECT_EQ(session["workspaces"]["topics"]["model"]["decomposition"], name);
        const auto replay = runCli({"run", dir / "j.cxproj", "--out", dir / "replay"}, dir);
        ASSERT_EQ(replay.exitCode, 0) << replay.err;
        for (const char* file : {"/topic_word.tsv", "/components.tsv", "/top_words.tsv"}) {
            EXPECT_EQ(readText(dir / "replay" + file), readText(dir / "j" + file)) << file;
        }
        // The direct method has no Jennrich: refused, naming the option.
        const auto direct = runCli(with({"--decomposition", name, "--method", "direct"}), dir);
        EXPECT_EQ(direct.exitCode, 2);
        EXPECT_NE(direct.err.find("parameter --decomposition"), std::string::npos) << direct.err;
        // sweep takes it too.
        const auto sweep = runCli({"sweep", "--corpus", corpus, "--fg", "group=foreground", "--bg",
                                   "group=background", "--k", "4", "--min-df", "1", "--positive",
                                   "set=a", "--gammas", "0:2:1", "--decomposition", name, "--json"},
                                  dir);
        ASSERT_EQ(sweep.exitCode, 0) << sweep.err;
        const auto s = nlohmann::ordered_json::parse(sweep.out);
        EXPECT_EQ(s["parameters"]["decomposition"], name);
        EXPECT_EQ(s["points"].size(), 3u);
    }
}

} // namespace
} // namespace cx
