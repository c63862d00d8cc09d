// contrast-cli enrichment end to end: ChromHMM's tables on tests/data/enrichment
// (expected/ was written by ChromHMM 1.27, see its README), heatmaps (SVG and PNG), JSON and bad
// input.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace cx {
namespace {

using test::parseTsv;
using test::readText;
using test::runCli;
using test::TempDir;

const std::string kDir = std::string(CX_TEST_DATA_DIR) + "/enrichment/";

/// Our TSV (labels E1…) against ChromHMM's text (labels 1…): same layout, numbers to 1e-4.
void expectSameTable(const std::string& ours, const std::string& chromhmm) {
    const auto a = parseTsv(ours);
    const auto b = parseTsv(readText(kDir + "expected/" + chromhmm));
    ASSERT_EQ(a.size(), b.size()) << chromhmm;
    EXPECT_EQ(a[0], b[0]) << chromhmm;
    for (size_t r = 1; r < a.size(); ++r) {
        ASSERT_EQ(a[r].size(), b[r].size()) << chromhmm << " row " << r;
        EXPECT_EQ(a[r][0], b[r][0] == "Base" ? "Base" : "E" + b[r][0]);
        for (size_t c = 1; c < a[r].size(); ++c) {
            EXPECT_NEAR(std::stod(a[r][c]), std::stod(b[r][c]), 1e-4)
                << chromhmm << " row " << r << " column " << c;
        }
    }
}

TEST(CliEnrichment, OverlapAndNeighborhoodTablesMatchChromHmm) {
    TempDir dir;
    const std::string out = dir / "out";
    const auto result = runCli({"enrichment", "--segments", kDir + "segments.bed", "--coords",
                                kDir + "coords", "--anchors", kDir + "anchors/tss_anchors.txt",
                                kDir + "anchors/tes_anchors.txt", "--out", out, "--json"},
                               dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameTable(readText(out + "/overlap.tsv"), "overlap.txt");
    expectSameTable(readText(out + "/neighborhood_tss_anchors.tsv"), "neighborhood_tss.txt");
    expectSameTable(readText(out + "/neighborhood_tes_anchors.tsv"), "neighborhood_tes.txt");
    for (const char* svg : {"overlap.svg", "neighborhood_tss_anchors.svg"}) {
        const std::string text = readText(out + "/" + svg);
        EXPECT_NE(text.find("<svg"), std::string::npos) << svg;
        EXPECT_NE(text.find("E6"), std::string::npos) << svg;
    }
    // chrY intervals and the chrY anchor: warnings, not errors.
    EXPECT_NE(result.err.find("chrY"), std::string::npos) << result.err;
    const auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json["command"], "enrichment");
    EXPECT_EQ(json["segmentation"]["states"].size(), 5u);
    EXPECT_EQ(json["overlap"]["columns"][1], "genes.bed");
    EXPECT_NEAR(json["overlap"]["rows"][0]["fold"][1].get<double>(), 0.90604, 1e-5);
    EXPECT_EQ(json["neighborhoods"]["tss_anchors"]["columns"].size(), 21u);
    const std::string igv = readText(out + "/igv_batch.txt");
    EXPECT_NE(igv.find("segments.bed\n"), std::string::npos) << igv;
    EXPECT_NE(igv.find("genes.bed\n"), std::string::npos) << igv;
    EXPECT_NE(igv.find("goto chr1:1-"), std::string::npos) << igv;
}

TEST(CliEnrichment, OptionsFollowChromHmmFlags) {
    TempDir dir;
    const auto center =
        runCli({"enrichment", "--segments", kDir + "segments.bed", "--coords", kDir + "coords",
                "--center", "--pvalues", "--no-images", "--out", dir / "center"},
               dir);
    ASSERT_EQ(center.exitCode, 0) << center.err;
    expectSameTable(readText(dir / "center/overlap.tsv"), "overlap_center.txt");
    expectSameTable(readText(dir / "center/overlap_log10pvals.tsv"),
                    "overlap_center_log10pvals.txt");
    EXPECT_FALSE(std::filesystem::exists(dir / "center/overlap.svg"));

    const auto binres =
        runCli({"enrichment", "--segments", kDir + "segments.bed", "--coords", kDir + "coords",
                "--binres", "--uniformscale", "--out", dir / "binres"},
               dir);
    ASSERT_EQ(binres.exitCode, 0) << binres.err;
    // -binres and -uniformscale separately are in expected/; together: the binres numbers
    // without the Genome % column.
    const auto table = parseTsv(readText(dir / "binres/overlap.tsv"));
    const auto reference = parseTsv(readText(kDir + "expected/overlap_binres.txt"));
    ASSERT_EQ(table.size(), reference.size());
    EXPECT_EQ(table[0][1], "cpg.bed");
    EXPECT_EQ(table[1][1], reference[1][2]);

    const auto strandless =
        runCli({"enrichment", "--segments", kDir + "segments.bed", "--anchors",
                kDir + "anchors/tss_anchors.txt", "--no-strand", "--out", dir / "nostrand"},
               dir);
    ASSERT_EQ(strandless.exitCode, 0) << strandless.err;
    expectSameTable(readText(dir / "nostrand/neighborhood_tss_anchors.tsv"),
                    "neighborhood_tss_nostrand.txt");

    // Files listed one by one (comma or space separated) make columns in the order given.
    const auto listed =
        runCli({"enrichment", "--segments", kDir + "segments.bed", "--coords",
                kDir + "coords/tss.bed," + kDir + "coords/genes.bed", "--out", dir / "listed"},
               dir);
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    const auto header = parseTsv(readText(dir / "listed/overlap.tsv"))[0];
    EXPECT_EQ(header, (std::vector<std::string>{"State (Emission order)", "Genome %", "tss.bed",
                                                "genes.bed"}));
}

/// The width and height attributes of the document's <svg> element (user units, 96 DPI).
std::pair<double, double> svgDocumentSize(const std::string& svg) {
    std::smatch match;
    const std::regex element("<svg[^>]*\\swidth=\"([0-9.]+)\"\\s+height=\"([0-9.]+)\"");
    if (!std::regex_search(svg, match, element)) {
        ADD_FAILURE() << "no <svg width height> in:\n" << svg.substr(0, 300);
        return {0, 0};
    }
    return {std::stod(match[1]), std::stod(match[2])};
}

/// Width and height from a PNG's IHDR chunk (big-endian, right after the 8-byte signature and
/// the chunk's length and type); {-1, -1} when `png` does not start with the PNG signature.
std::pair<int, int> pngHeaderSize(const std::string& png) {
    if (png.size() < 24 || png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) != 0 ||
        png.compare(12, 4, "IHDR") != 0) {
        return {-1, -1};
    }
    const auto bigEndian = [&png](size_t at) {
        std::uint32_t v = 0;
        for (size_t i = 0; i < 4; ++i) {
            v = (v << 8) | static_cast<unsigned char>(png[at + i]);
        }
        return static_cast<int>(v);
    };
    return {bigEndian(16), bigEndian(20)};
}

TEST(CliEnrichment, PngHeatmapsAreTheSvgsAtTheChosenDpi) {
    TempDir dir;
    // 300 DPI (the default) and 72: 3.125 and 0.75 pixels a unit, both rounded.
    for (const int dpi : {300, 72}) {
        const std::string out = dir / ("dpi" + std::to_string(dpi));
        std::vector<std::string> args = {"enrichment",
                                         "--segments",
                                         kDir + "segments.bed",
                                         "--coords",
                                         kDir + "coords",
                                         "--anchors",
                                         kDir + "anchors/tss_anchors.txt",
                                         "--out",
                                         out,
                                         "--json"};
        if (dpi != 300) {
            args.insert(args.end(), {"--dpi", std::to_string(dpi)});
        }
        const auto result = runCli(args, dir);
        ASSERT_EQ(result.exitCode, 0) << result.err;
        const auto json = nlohmann::json::parse(result.out);
        EXPECT_EQ(json["parameters"]["dpi"], dpi);
        const auto files = json["files"].get<std::vector<std::string>>();
        for (const std::string stem : {"overlap", "neighborhood_tss_anchors"}) {
            for (const char* suffix : {".svg", ".png"}) {
                EXPECT_NE(std::find(files.begin(), files.end(), stem + suffix), files.end())
                    << stem << suffix << " not in " << json["files"].dump();
            }
            const auto [svgWidth, svgHeight] = svgDocumentSize(readText(out + "/" + stem + ".svg"));
            ASSERT_GT(svgWidth, 0) << stem;
            const auto [width, height] = pngHeaderSize(readText(out + "/" + stem + ".png"));
            EXPECT_EQ(width, std::lround(svgWidth * dpi / 96.0)) << stem << " at " << dpi;
            EXPECT_EQ(height, std::lround(svgHeight * dpi / 96.0)) << stem << " at " << dpi;
        }
    }

    // Without --json the written files are listed on standard output, PNGs with the SVGs.
    const auto listed = runCli({"enrichment", "--segments", kDir + "segments.bed", "--coords",
                                kDir + "coords", "--dpi", "150", "--out", dir / "listed"},
                               dir);
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    EXPECT_NE(listed.out.find("overlap.svg,overlap.png"), std::string::npos) << listed.out;

    // Out of range: refused naming the option, nothing rendered.
    for (const char* bad : {"10", "1201", "x"}) {
        const auto refused = runCli({"enrichment", "--segments", kDir + "segments.bed", "--coords",
                                     kDir + "coords", "--dpi", bad, "--out", dir / "refused"},
                                    dir);
        EXPECT_NE(refused.exitCode, 0) << bad;
        EXPECT_NE(refused.err.find("parameter --dpi"), std::string::npos) << refused.err;
        EXPECT_FALSE(std::filesystem::exists(dir / "refused/overlap.png")) << bad;
    }

    // --no-images: neither SVG nor PNG, the tables still written.
    const auto none = runCli({"enrichment", "--segments", kDir + "segments.bed", "--coords",
                              kDir + "coords", "--anchors", kDir + "anchors/tss_anchors.txt",
                              "--no-images", "--dpi", "600", "--out", dir / "none"},
                             dir);
    ASSERT_EQ(none.exitCode, 0) << none.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "none/overlap.tsv"));
    for (const char* name : {"overlap.svg", "overlap.png", "neighborhood_tss_anchors.svg",
                             "neighborhood_tss_anchors.png"}) {
        EXPECT_FALSE(std::filesystem::exists(dir / (std::string("none/") + name))) << name;
        EXPECT_EQ(none.out.find(name), std::string::npos) << none.out;
    }
}

TEST(CliEnrichment, BadInputNamesFileAndLineAndFails) {
    TempDir dir;
    std::ofstream(dir / "seg.bed") << "chr1\t0\t200\tE1\nchr1\t200\t400\n";
    std::ofstream(dir / "offgrid.bed") << "chr1\t0\t200\tE1\nchr1\t250\t400\tE2\n";
    std::ofstream(dir / "anchors.txt") << "chr1\t100\t+\nchr1\tabc\t-\n";
    std::ofstream(dir / "bad.bed") << "chr1\t10\t20\nchr1\t30\n";
    std::ofstream(dir / "other.bed") << "1\t10\t20\n";
    const std::string segments = kDir + "segments.bed";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--segments", dir / "missing.bed", "--coords", kDir + "coords"}, "missing.bed"},
        {{"--segments", dir / "seg.bed", "--coords", kDir + "coords"}, "seg.bed:2"},
        {{"--segments", dir / "offgrid.bed", "--coords", kDir + "coords"}, "offgrid.bed:2"},
        {{"--segments", segments, "--anchors", dir / "anchors.txt"}, "anchors.txt:2"},
        {{"--segments", segments, "--coords", dir / "bad.bed"}, "bad.bed:2"},
        {{"--segments", segments, "--coords", dir / "nothing"}, "nothing"},
        {{"--segments", segments, "--coords", dir / "other.bed"}, "chromosome names"},
        {{"--segments", segments}, "--coords"},
    };
    for (const auto& [args, expected] : cases) {
        std::vector<std::string> full = {"enrichment"};
        full.insert(full.end(), args.begin(), args.end());
        full.insert(full.end(), {"--out", dir / "out"});
        const auto result = runCli(full, dir);
        EXPECT_NE(result.exitCode, 0) << expected;
        EXPECT_NE(result.err.find(expected), std::string::npos) << expected << "\n" << result.err;
    }
}

} // namespace
} // namespace cx
