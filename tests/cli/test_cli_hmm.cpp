// contrast-cli hmm end to end on the real chr11 slices in tests/data/hmm.
#include "cli_runner.h"

#include "core/io/text_input.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace cx {
namespace {

using test::parseTsv;
using test::readText;
using test::runCli;
using test::TempDir;

const std::string kHmmData = std::string(CX_TEST_DATA_DIR) + "/hmm/";
const std::string kTracks =
    kHmmData + "GM12878_chr11_slice.txt.gz," + kHmmData + "K562_chr11_slice.txt.gz";
const std::string kForeground =
    kHmmData + "RefSeqGene.chr11_slice.bed," + kHmmData + "RefSeqTSS2kb.chr11_slice.bed";

const std::vector<std::string> kMarks = {"CTCF",    "H3K27ac", "H3K27me3", "H3K36me3", "H3K4me1",
                                         "H3K4me2", "H3K4me3", "H3K9ac",   "H4K20me1", "WCE"};

TEST(CliHmm, ContrastWritesEmissionsTransitionsStatesAndBed9) {
    TempDir dir;
    const std::string out = dir / "out";
    const auto result = runCli({"hmm", "--tracks", kTracks, "--fg-regions", kForeground, "--k", "6",
                                "--gamma", "0.5", "--seed", "3", "--out", out},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    // Unknown contigs in the BED files: one warning each, not an error.
    EXPECT_NE(result.err.find("contig 'chr1' is not in the tracks"), std::string::npos);
    EXPECT_NE(result.err.find("contig 'chr2_random' is not in the tracks"), std::string::npos);

    const auto states = parseTsv(readText(out + "/states.tsv"));
    ASSERT_EQ(states.size(), 7u);
    EXPECT_EQ(states[0], (std::vector<std::string>{"state", "weight", "lambda",
                                                   "foreground_specific", "name", "colour"}));
    size_t specific = 0;
    double previous = 1e300;
    for (size_t row = 1; row < states.size(); ++row) {
        // A component that is no state of the reported HMM has an empty name and colour (the
        // parser drops the trailing empty cell).
        ASSERT_GE(states[row].size(), 5u);
        ASSERT_LE(states[row].size(), 6u);
        EXPECT_EQ(states[row][0], "E" + std::to_string(row));
        const double weight = std::stod(states[row][1]);
        EXPECT_LE(weight, previous); // sorted by weight
        previous = weight;
        EXPECT_EQ(states[row][3], weight > 0 ? "1" : "0");
        specific += weight > 0 ? 1 : 0;
    }
    ASSERT_GT(specific, 0u);

    const auto emissions = parseTsv(readText(out + "/emissions.tsv"));
    ASSERT_EQ(emissions.size(), specific + 1);
    ASSERT_EQ(emissions[0].size(), 11u);
    EXPECT_EQ(emissions[0][0], "state");
    for (size_t j = 0; j < kMarks.size(); ++j) {
        EXPECT_EQ(emissions[0][j + 1], kMarks[j]);
    }
    for (size_t row = 1; row < emissions.size(); ++row) {
        for (size_t j = 1; j < 11; ++j) {
            const double p = std::stod(emissions[row][j]);
            EXPECT_GE(p, 0.0);
            EXPECT_LE(p, 1.0);
        }
    }
    const auto transitions = parseTsv(readText(out + "/transitions.tsv"));
    ASSERT_EQ(transitions.size(), specific + 1);
    for (size_t row = 1; row < transitions.size(); ++row) {
        double total = 0;
        for (size_t j = 1; j < transitions[row].size(); ++j) {
            total += std::stod(transitions[row][j]);
        }
        EXPECT_NEAR(total, 1.0, 1e-5);
    }

    // BED9 with one track line per cell, every bin covered exactly once per cell.
    const auto bed = parseTsv(readText(out + "/segments.bed"));
    std::set<std::string> tracks;
    std::int64_t covered = 0;
    for (const auto& row : bed) {
        if (row.size() == 1 && row[0].rfind("track ", 0) == 0) {
            tracks.insert(row[0]);
            continue;
        }
        ASSERT_EQ(row.size(), 9u);
        EXPECT_EQ(row[0], "chr11");
        const auto start = std::stoll(row[1]);
        const auto end = std::stoll(row[2]);
        EXPECT_LT(start, end);
        EXPECT_EQ(row[1], row[6]);
        EXPECT_EQ(row[2], row[7]);
        EXPECT_EQ(row[4], "0");
        EXPECT_EQ(row[5], ".");
        EXPECT_EQ(std::count(row[8].begin(), row[8].end(), ','), 2);
        covered += end - start;
    }
    EXPECT_EQ(tracks.size(), 2u);
    EXPECT_EQ(covered, 2 * 20000 * 200);
    const auto gm = parseTsv(readText(out + "/segments.GM12878.bed"));
    ASSERT_GE(gm.size(), 2u);
    // Per-cell files carry their sample's one track line.
    EXPECT_EQ(gm[0][0].rfind("track name=\"GM12878\" description=\"GM12878 ", 0), 0u) << gm[0][0];
    EXPECT_EQ(gm[1].size(), 9u);
    EXPECT_EQ(readText(out + "/segments.K562.bed").empty(), false);
}

// One track line per sample (not per chromosome), named by the cell and described by
// the model, and an IGV batch script loading the per-cell segmentations and the regions used.
TEST(CliHmm, OneTrackLinePerSampleAndIgvBatchScript) {
    TempDir dir;
    // GM12878 on two chromosomes: the chr11 slice again, relabelled chr12.
    {
        std::string text;
        LineReader reader(kHmmData + "GM12878_chr11_slice.txt.gz");
        std::string_view line;
        while (reader.next(line)) {
            text.append(line).push_back('\n');
        }
        const auto tab = text.find('\t');
        const auto newline = text.find('\n');
        std::ofstream(dir / "GM12878_chr12.txt")
            << text.substr(0, tab + 1) << "chr12" << text.substr(newline);
    }
    const std::string out = dir / "out";
    const std::string tracks = kHmmData + "GM12878_chr11_slice.txt.gz," + kHmmData +
                               "K562_chr11_slice.txt.gz," + (dir / "GM12878_chr12.txt");
    const auto result = runCli({"hmm", "--tracks", tracks, "--fg-regions", kForeground, "--k", "4",
                                "--gamma", "0.5", "--seed", "3", "--out", out},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    std::vector<std::string> trackLines;
    std::vector<std::string> chromsAfterFirstLine;
    for (const auto& row : parseTsv(readText(out + "/segments.bed"))) {
        if (row.size() == 1 && row[0].rfind("track ", 0) == 0) {
            trackLines.push_back(row[0]);
        } else if (trackLines.size() == 1 &&
                   (chromsAfterFirstLine.empty() || chromsAfterFirstLine.back() != row[0])) {
            chromsAfterFirstLine.push_back(row[0]);
        }
    }
    ASSERT_EQ(trackLines.size(), 2u);
    EXPECT_EQ(trackLines[0].rfind("track name=\"GM12878\"", 0), 0u) << trackLines[0];
    EXPECT_EQ(trackLines[1].rfind("track name=\"K562\"", 0), 0u) << trackLines[1];
    for (const auto& line : trackLines) {
        EXPECT_NE(line.find("K=4, gamma=0.5"), std::string::npos) << line;
        EXPECT_NE(line.find("itemRgb=\"On\""), std::string::npos) << line;
    }
    EXPECT_EQ(chromsAfterFirstLine, (std::vector<std::string>{"chr11", "chr12"}));
    const auto gm = parseTsv(readText(out + "/segments.GM12878.bed"));
    EXPECT_EQ(std::count_if(gm.begin(), gm.end(),
                            [](const auto& row) { return row[0].rfind("track ", 0) == 0; }),
              1);

    const std::string igv = readText(out + "/igv_batch.txt");
    const std::string folder = std::filesystem::absolute(out).lexically_normal().string();
    EXPECT_EQ(igv.rfind("new\n", 0), 0u) << igv;
    EXPECT_NE(igv.find("load " + folder + "/segments.GM12878.bed\n"), std::string::npos) << igv;
    EXPECT_NE(igv.find("load " + folder + "/segments.K562.bed\n"), std::string::npos) << igv;
    EXPECT_NE(igv.find("RefSeqTSS2kb.chr11_slice.bed\n"), std::string::npos) << igv;
    EXPECT_NE(igv.find("\ngoto chr11:1-100000\n"), std::string::npos) << igv;
}

TEST(CliHmm, JsonSummaryWithRefinementAndDeterminism) {
    TempDir dir;
    const std::vector<std::string> args = {"hmm",     "--tracks", kTracks,        "--k", "5",
                                           "--gamma", "0",        "--refine-em",  "3",   "--seed",
                                           "9",       "--json",   "--no-segments"};
    auto withOut = [&](const std::string& out) {
        auto a = args;
        a.push_back("--out");
        a.push_back(out);
        return a;
    };
    const auto first = runCli(withOut(dir / "a"), dir);
    ASSERT_EQ(first.exitCode, 0) << first.err;
    for (const char* key :
         {"\"command\":\"hmm\"", "\"timings_ms\":", "\"load\":", "\"moments\":", "\"solve\":",
          "\"em\":", "\"log_likelihood\":", "\"spectral\":", "\"em_iterations\":3", "\"final\":",
          "\"foreground_triples\":39996", "\"weights\":", "\"emissions\":", "\"transitions\":"}) {
        EXPECT_NE(first.out.find(key), std::string::npos) << key << "\n" << first.out;
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "a/segments.bed"));
    const auto second = runCli(withOut(dir / "b"), dir);
    ASSERT_EQ(second.exitCode, 0) << second.err;
    EXPECT_EQ(readText(dir / "a/emissions.tsv"), readText(dir / "b/emissions.tsv"));
    EXPECT_EQ(readText(dir / "a/transitions.tsv"), readText(dir / "b/transitions.tsv"));
}

TEST(CliHmm, EmBaselineCombinationsAndViterbi) {
    TempDir dir;
    auto result =
        runCli({"hmm", "--tracks", kTracks, "--k", "4", "--gamma", "0", "--method", "em",
                "--em-max-iter", "4", "--decode", "viterbi", "--out", dir / "em", "--json"},
               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("\"em_iterations\":4"), std::string::npos) << result.out;
    EXPECT_EQ(parseTsv(readText(dir / "em/emissions.tsv")).size(), 5u);
    result = runCli({"hmm", "--tracks", kTracks, "--fg-regions", kForeground, "--k", "4", "--gamma",
                     "0.3", "--encoding", "combinations", "--out", dir / "comb"},
                    dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto patterns = parseTsv(readText(dir / "comb/pattern_emissions.tsv"));
    ASSERT_GT(patterns.size(), 1u);
    EXPECT_GT(patterns[0].size(), 100u); // one column per distinct mark pattern
    EXPECT_EQ(parseTsv(readText(dir / "comb/emissions.tsv"))[0].size(), 11u);
}

TEST(CliHmm, GammaPathWritesIdentitiesAndValidityPerGamma) {
    TempDir dir;
    const std::vector<std::string> base = {"hmm",       "--tracks",     kTracks,   "--fg-regions",
                                           kForeground, "--k",          "4",       "--gamma",
                                           "0.5",       "--seed",       "3",       "--no-segments",
                                           "--json",    "--gamma-path", "0:1:0.25"};
    for (const std::string starts : {"continued", "fresh"}) {
        auto args = base;
        args.insert(args.end(), {"--path-starts", starts, "--out", dir / starts});
        const auto result = runCli(args, dir);
        ASSERT_EQ(result.exitCode, 0) << result.err;
        for (const char* key :
             {"\"path\":", "\"valid_points\":", "\"valid_ranges\":", "\"identity_changes\":",
              "\"specific_identity_changes\":", "\"identities\":", "\"continued_points\":"}) {
            EXPECT_NE(result.out.find(key), std::string::npos) << key << "\n" << result.out;
        }
        EXPECT_NE(result.out.find("\"starts\":\"" + starts + "\""), std::string::npos);
        const auto table = parseTsv(readText(dir / (starts + "/path.tsv")));
        ASSERT_FALSE(table.empty());
        const std::vector<std::string> head = {
            "gamma", "identity", "component", "weight", "foreground_specific",
            "valid", "continued"};
        ASSERT_EQ(table[0].size(), head.size() + kMarks.size());
        for (size_t j = 0; j < head.size(); ++j) {
            EXPECT_EQ(table[0][j], head[j]);
        }
        // Five γ values, each with at least K rows; every γ of the grid appears.
        std::set<std::string> gammas;
        for (size_t row = 1; row < table.size(); ++row) {
            ASSERT_EQ(table[row].size(), table[0].size());
            gammas.insert(table[row][0]);
            const double w = std::stod(table[row][3]);
            EXPECT_EQ(table[row][4], w > 0 ? "1" : "0");
            if (starts == "fresh") {
                EXPECT_EQ(table[row][6], "0"); // fresh starts never continue
            }
            for (size_t j = head.size(); j < table[row].size(); ++j) {
                EXPECT_TRUE(std::isfinite(std::stod(table[row][j])));
            }
        }
        EXPECT_EQ(gammas.size(), 5u);
        EXPECT_GE(table.size(), 1u + 5u * 4u);
    }
    // Same seed, same path.
    auto again = base;
    again.insert(again.end(), {"--out", dir / "again"});
    ASSERT_EQ(runCli(again, dir).exitCode, 0);
    EXPECT_EQ(readText(dir / "continued/path.tsv"), readText(dir / "again/path.tsv"));
}

TEST(CliHmm, GammaPathBootstrapAddsWeightBandsAndStability) {
    TempDir dir;
    const std::vector<std::string> base = {
        "hmm",    "--tracks",     kTracks,   "--fg-regions", kForeground, "--k",
        "4",      "--gamma",      "0.5",     "--seed",       "3",         "--no-segments",
        "--json", "--gamma-path", "0:1:0.5", "--bootstrap",  "4"};
    auto args = base;
    args.insert(args.end(), {"--out", dir / "a"});
    const auto result = runCli(args, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    for (const char* key : {"\"weight_lo\":", "\"weight_hi\":", "\"stability\":",
                            "\"identity_stability\":", "\"unstable_identities\":",
                            "\"bootstrap\":{\"replicates\":4", "\"foreground_block_length\":"}) {
        EXPECT_NE(result.out.find(key), std::string::npos) << key << "\n" << result.out;
    }
    const auto table = parseTsv(readText(dir / "a/path.tsv"));
    ASSERT_GT(table.size(), 1u);
    const std::vector<std::string> head = {
        "gamma",     "identity",  "component", "weight",    "foreground_specific", "valid",
        "continued", "weight_lo", "weight_hi", "stability", "identity_stability",  "stable"};
    ASSERT_EQ(table[0].size(), head.size() + kMarks.size());
    for (size_t j = 0; j < head.size(); ++j) {
        EXPECT_EQ(table[0][j], head[j]);
    }
    int banded = 0;
    for (size_t row = 1; row < table.size(); ++row) {
        ASSERT_EQ(table[row].size(), table[0].size());
        const double lo = std::stod(table[row][7]);
        const double hi = std::stod(table[row][8]);
        const double stability = std::stod(table[row][9]);
        const double identity = std::stod(table[row][10]);
        EXPECT_GE(stability, 0.0);
        EXPECT_LE(stability, 1.0);
        EXPECT_GE(identity, 0.0);
        EXPECT_LE(identity, 1.0);
        EXPECT_EQ(table[row][11], identity < 0.5 ? "0" : "1");
        if (std::isfinite(lo)) {
            EXPECT_LE(lo, hi);
            ++banded;
        } else {
            EXPECT_LT(stability, 0.5); // fewer than 2 of 4 replicates matched it
        }
    }
    EXPECT_GT(banded, 0);
    // Same seed, same bands; the bands are printed in the text report too.
    auto again = base;
    again.insert(again.end(), {"--out", dir / "b"});
    ASSERT_EQ(runCli(again, dir).exitCode, 0);
    EXPECT_EQ(readText(dir / "a/path.tsv"), readText(dir / "b/path.tsv"));
    auto text = base;
    text.erase(std::find(text.begin(), text.end(), "--json"));
    text.insert(text.end(), {"--out", dir / "c", "--block-length", "25"});
    const auto report = runCli(text, dir);
    ASSERT_EQ(report.exitCode, 0) << report.err;
    EXPECT_NE(
        report.out.find("bootstrap: 4 block resamples (blocks of 25 foreground / 25 background"),
        std::string::npos)
        << report.out;
}

TEST(CliHmm, BadInputsAndImpossibleParametersFailWithAMessage) {
    TempDir dir;
    const std::string out = dir / "out";
    struct Case {
        std::vector<std::string> args;
        std::string expected;
    };
    {
        std::ofstream(dir / "ragged.txt") << "C\tchr1\nA\tB\n0\t1\n1\n";
        std::ofstream(dir / "bad.bed") << "chr11\t100\tten\n";
        std::ofstream(dir / "other.bed") << "chrX\t100\t200\n";
    }
    const std::vector<Case> cases = {
        {{"hmm", "--k", "3", "--gamma", "0", "--out", out}, "parameter --tracks: required"},
        {{"hmm", "--tracks", kTracks, "--k", "12", "--gamma", "0", "--out", out},
         "parameter --k: 12 exceeds the moment rank 11"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "-1", "--out", out},
         "parameter --gamma"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "nan", "--out", out},
         "parameter --gamma"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "1", "--out", out},
         "the background is empty"},
        {{"hmm", "--tracks", dir / "ragged.txt", "--k", "1", "--gamma", "0", "--out", out},
         "ragged.txt:4: row has 1 values, expected 2"},
        {{"hmm", "--tracks", kTracks, "--fg-regions", dir / "bad.bed", "--k", "3", "--gamma", "0",
          "--out", out},
         "bad.bed:1: column 3 (end): 'ten'"},
        {{"hmm", "--tracks", kTracks, "--fg-regions", dir / "other.bed", "--k", "3", "--gamma", "0",
          "--out", out},
         "empty foreground"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0.5", "--method", "em", "--out", out},
         "--method em fits the foreground alone"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--encoding", "bits", "--out",
          out},
         "parameter --encoding"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--out", out, "--bogus", "1"},
         "unknown option --bogus"},
        {{"hmm", "--tracks", "/nonexistent.txt", "--k", "3", "--gamma", "0", "--out", out},
         "/nonexistent.txt: cannot open"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--gamma-path", "1:0:0.1",
          "--out", out},
         "parameter --gamma-path"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--gamma-path", "0:1:x", "--out",
          out},
         "parameter --gamma-path"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--gamma-path", "0:1:0.5",
          "--path-starts", "warm", "--out", out},
         "parameter --path-starts: 'warm'"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--method", "em", "--gamma-path",
          "0:1:0.5", "--out", out},
         "parameter --gamma-path: needs --method spectral"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--bootstrap", "5", "--out", out},
         "parameter --bootstrap: needs --gamma-path"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--gamma-path", "0:1:0.5",
          "--bootstrap", "1", "--out", out},
         "parameter --bootstrap: needs 2 to 10000 replicates (got 1)"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--gamma-path", "0:1:0.5",
          "--bootstrap", "20000", "--out", out},
         "parameter --bootstrap: needs 2 to 10000 replicates (got 20000)"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--gamma-path", "0:1:0.5",
          "--bootstrap", "-3", "--out", out},
         "parameter --bootstrap"},
        {{"hmm", "--tracks", kTracks, "--k", "3", "--gamma", "0", "--block-length", "10", "--out",
          out},
         "parameter --block-length: needs --bootstrap"},
    };
    for (const auto& c : cases) {
        const auto result = runCli(c.args, dir);
        EXPECT_EQ(result.exitCode, 2) << c.expected << "\n" << result.err;
        EXPECT_NE(result.err.find(c.expected), std::string::npos) << result.err;
    }
}

} // namespace
} // namespace cx

namespace cx {
namespace {

// The CLI's defaults are the GUI's — at γ = 0 the model is refined with
// Baum–Welch (at most 1000 rounds, tolerance 1e-5) from the moment selection; a contrastive
// model (γ > 0) is not. states.tsv names every state by core's rule (StateCatalog).
TEST(CliHmm, DefaultsAreTheGuisAndStatesAreNamed) {
    TempDir dir;
    auto result = runCli({"hmm", "--tracks", kTracks, "--k", "5", "--gamma", "0", "--json",
                          "--no-segments", "--out", dir / "zero"},
                         dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("\"refine_em\":1000"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"refine_tolerance\":1e-05"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"moment_fit\":0"), std::string::npos) << result.out;
    // Explicit options still win: --refine-em 0 is the plain spectral solve.
    result = runCli({"hmm", "--tracks", kTracks, "--k", "5", "--gamma", "0", "--refine-em", "0",
                     "--json", "--no-segments", "--out", dir / "plain"},
                    dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("\"refine_em\":0"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"moment_fit\":-1"), std::string::npos) << result.out;
    EXPECT_NE(readText(dir / "zero/emissions.tsv"), readText(dir / "plain/emissions.tsv"));
    result = runCli({"hmm", "--tracks", kTracks, "--fg-regions", kForeground, "--k", "5", "--gamma",
                     "0.5", "--json", "--no-segments", "--out", dir / "contrast"},
                    dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("\"refine_em\":0"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\"moment_fit\":-1"), std::string::npos) << result.out;

    // Names and colours: one per state of the reported model, by the naming rule.
    const auto states = parseTsv(readText(dir / "zero/states.tsv"));
    ASSERT_EQ(states.size(), 6u);
    std::set<std::string> names;
    int known = 0;
    for (size_t row = 1; row < states.size(); ++row) {
        ASSERT_EQ(states[row].size(), 6u);
        EXPECT_FALSE(states[row][4].empty());
        EXPECT_TRUE(names.insert(states[row][4]).second) << "name twice: " << states[row][4];
        known += states[row][4].rfind("State ", 0) == 0 ? 0 : 1;
        int commas = 0;
        for (char c : states[row][5]) {
            commas += c == ',' ? 1 : 0;
        }
        EXPECT_EQ(commas, 2) << states[row][5];
    }
    EXPECT_GE(known, 3) << "GM12878/K562 chr11 states read as promoters, enhancers, quiescent…";
}

// segments.bed is coloured by the states' colours (states.tsv's, the GUI's); --state-labels
// names writes the names where E1…EK stood, and `enrichment` reads them back (labels with
// spaces in a tab-separated BED).
TEST(CliHmm, SegmentsCarryTheStatesColoursAndStateLabelsNamesThem) {
    TempDir dir;
    auto result = runCli({"hmm", "--tracks", kTracks, "--k", "5", "--gamma", "0", "--refine-em",
                          "3", "--json", "--out", dir / "numbers"},
                         dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out)["model"];
    result = runCli({"hmm", "--tracks", kTracks, "--k", "5", "--gamma", "0", "--refine-em", "3",
                     "--state-labels", "names", "--out", dir / "names"},
                    dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto states = parseTsv(readText(dir / "numbers/states.tsv"));
    ASSERT_EQ(states.size(), 6u);
    std::map<std::string, std::string> colourOf;
    std::map<std::string, std::string> nameOf;
    for (size_t r = 1; r < states.size(); ++r) {
        colourOf[states[r][0]] = states[r][5];
        nameOf[states[r][0]] = states[r][4];
    }
    // --json: the same labels, names and colours as states.tsv.
    ASSERT_EQ(json["state_names"].size(), 5u);
    for (size_t r = 1; r < states.size(); ++r) {
        EXPECT_EQ(json["state_labels"][r - 1], states[r][0]);
        EXPECT_EQ(json["state_names"][r - 1], states[r][4]);
        EXPECT_EQ(json["state_colours"][r - 1], states[r][5]);
    }
    const auto named = parseTsv(readText(dir / "names/states.tsv"));
    for (size_t r = 1; r < states.size(); ++r) {
        EXPECT_EQ(named[r][0], states[r][4]);
        EXPECT_EQ(named[r][5], states[r][5]);
    }
    const auto emissions = parseTsv(readText(dir / "names/emissions.tsv"));
    EXPECT_EQ(emissions[1][0], states[1][4]);
    // The per-cell files of two cells, each a track: every run coloured by its state.
    int runs = 0;
    for (const char* cell : {"GM12878", "K562"}) {
        const auto numbered =
            parseTsv(readText(dir / ("numbers/segments." + std::string(cell) + ".bed")));
        const auto byName =
            parseTsv(readText(dir / ("names/segments." + std::string(cell) + ".bed")));
        ASSERT_EQ(numbered.size(), byName.size());
        for (size_t r = 1; r < numbered.size(); ++r) {
            ASSERT_EQ(numbered[r].size(), 9u);
            EXPECT_EQ(numbered[r][8], colourOf[numbered[r][3]]);
            EXPECT_EQ(byName[r][3], nameOf[numbered[r][3]]);
            EXPECT_EQ(byName[r][8], numbered[r][8]);
            ++runs;
        }
    }
    EXPECT_GT(runs, 10);
    // enrichment reads the named segments: one row per state, the names as labels.
    result = runCli({"enrichment", "--segments", dir / "names/segments.GM12878.bed", "--coords",
                     kForeground, "--no-images", "--out", dir / "enrichment"},
                    dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto overlap = parseTsv(readText(dir / "enrichment/overlap.tsv"));
    std::set<std::string> labels;
    for (size_t r = 1; r + 1 < overlap.size(); ++r) {
        labels.insert(overlap[r][0]);
    }
    for (const auto& row : overlap) {
        if (&row != &overlap.front() && &row != &overlap.back()) {
            bool isName = false;
            for (const auto& [label, name] : nameOf) {
                isName = isName || row[0] == name;
            }
            EXPECT_TRUE(isName) << row[0];
        }
    }
    EXPECT_GE(labels.size(), 3u);
    result = runCli({"hmm", "--tracks", kTracks, "--k", "5", "--gamma", "0", "--state-labels", "E",
                     "--out", dir / "bad"},
                    dir);
    EXPECT_NE(result.exitCode, 0);
    EXPECT_NE(result.err.find("parameter --state-labels: 'E' is not 'numbers' or 'names'"),
              std::string::npos)
        << result.err;
}

} // namespace
} // namespace cx

namespace cx {
namespace {

TEST(CliHmm, KRangeJudgesEachKAndSuggestsOne) {
    TempDir dir;
    const std::string out = dir / "range";
    const auto result =
        runCli({"hmm", "--tracks", kHmmData + "GM12878_chr11_slice.txt.gz", "--gamma", "0",
                "--k-range", "2:4", "--refine-em", "0", "--out", out, "--json"},
               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out);
    ASSERT_EQ(json["fits"].size(), 3u);
    EXPECT_EQ(json["largest_k"], 4);
    const int suggested = json["suggested_k"].get<int>();
    EXPECT_GE(suggested, 2);
    EXPECT_LE(suggested, 4);
    EXPECT_GT(json["held_out_bins"].get<int>(), 0);
    const auto table = parseTsv(readText(out + "/k_range.tsv"));
    ASSERT_EQ(table.size(), 4u);
    EXPECT_EQ(table[0][0], "K");
    EXPECT_EQ(table[0][3], "held_out_residual");
    int yes = 0;
    for (size_t row = 1; row < table.size(); ++row) {
        EXPECT_EQ(table[row][0], std::to_string(row + 1));
        EXPECT_LT(std::stod(table[row][1]), 0.0); // a log-likelihood
        EXPECT_GT(std::stod(table[row][3]), 0.0);
        yes += table[row][6] == "yes" ? 1 : 0;
        if (table[row][6] == "yes") {
            EXPECT_EQ(table[row][0], std::to_string(suggested));
        }
    }
    EXPECT_EQ(yes, 1);
    // CompareModels: one row per state of the K = 4 model; it matches itself exactly.
    const auto compare = parseTsv(readText(out + "/compare_models.tsv"));
    const size_t largest = json["fits"][2]["largest_match"].size(); // ≤ 4: positive weights
    ASSERT_GE(largest, 2u);
    ASSERT_EQ(compare.size(), largest + 1);
    EXPECT_EQ(compare[0], (std::vector<std::string>{"state (K=4)", "K=2", "K=3", "K=4"}));
    for (size_t row = 1; row < compare.size(); ++row) {
        EXPECT_EQ(compare[row][0], "E" + std::to_string(row));
        EXPECT_EQ(compare[row][3], "1");
        EXPECT_LE(std::stod(compare[row][1]), 1.0);
    }

    // Bad input: a bad range, regions with a range, no --k and no range.
    for (const auto& [args, expected] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"--k-range", "5:3"}, "parameter --k-range: '5:3' is not A:B"},
             {{"--k-range", "2-4"}, "parameter --k-range: '2-4' is not A:B"},
             {{"--k-range", "2:4", "--fg-regions", kForeground},
              "parameter --k-range: fits the whole"},
             {{}, "parameter --k: required (or --k-range A:B)"}}) {
        std::vector<std::string> full = {"hmm", "--tracks", kTracks,    "--gamma",
                                         "0",   "--out",    dir / "bad"};
        full.insert(full.end(), args.begin(), args.end());
        const auto bad = runCli(full, dir);
        EXPECT_NE(bad.exitCode, 0) << expected;
        EXPECT_NE(bad.err.find(expected), std::string::npos) << bad.err;
    }
}

} // namespace
} // namespace cx
