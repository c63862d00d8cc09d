// ChromHMM-compatible overlap and neighbourhood enrichment, checked against ChromHMM 1.27's
// own tables on tests/data/enrichment (see its README for the commands).
#include "core/common/error.h"
#include "core/common/svg_heatmap.h"
#include "core/hmm/enrichment.h"
#include "support/files.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kDir = std::string(CX_TEST_DATA_DIR) + "/enrichment";

/// Our table (labels "E1"…) against ChromHMM's file (labels "1"…), cell by cell, to 1e-4.
void expectMatchesChromHmm(const cx::EnrichmentTable& table, const std::string& expectedName) {
    const auto expected = cx::test::readTsv(kDir + "/expected/" + expectedName);
    ASSERT_GE(expected.size(), 2u);
    const bool genome = table.genomePercent.size() > 0;
    const size_t first = genome ? 2 : 1;
    ASSERT_EQ(expected[0][0], table.corner);
    ASSERT_EQ(expected[0].size(), first + table.columnNames.size());
    for (size_t c = 0; c < table.columnNames.size(); ++c) {
        EXPECT_EQ(expected[0][first + c], table.columnNames[c]);
    }
    const size_t numRows = static_cast<size_t>(table.fold.rows());
    ASSERT_EQ(expected.size(), 1 + numRows + (table.basePercent.size() > 0 ? 1 : 0));
    for (size_t r = 0; r < numRows; ++r) {
        const auto& row = expected[1 + r];
        EXPECT_EQ("E" + row[0], table.rowLabels[r]);
        if (genome) {
            EXPECT_NEAR(std::stod(row[1]), table.genomePercent(static_cast<Eigen::Index>(r)), 1e-4);
        }
        for (size_t c = 0; c < table.columnNames.size(); ++c) {
            EXPECT_NEAR(std::stod(row[first + c]),
                        table.fold(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)),
                        1e-4)
                << expectedName << " row " << row[0] << " column " << table.columnNames[c];
        }
    }
    if (table.basePercent.size() > 0) {
        const auto& base = expected.back();
        EXPECT_EQ(base[0], "Base");
        for (size_t c = 0; c < table.columnNames.size(); ++c) {
            EXPECT_NEAR(std::stod(base[first + c]), table.basePercent(static_cast<Eigen::Index>(c)),
                        1e-4);
        }
    }
}

cx::EnrichmentTable overlapWith(const cx::OverlapEnrichmentOptions& options, int binSize = 200) {
    const auto segmentation = cx::readStateSegmentation(kDir + "/segments.bed", binSize);
    const auto annotations = cx::readEnrichmentAnnotations({kDir + "/coords"});
    return cx::overlapEnrichment(segmentation, annotations, options);
}

cx::EnrichmentTable neighborhoodOf(const std::string& anchors, bool useStrand = true) {
    const auto segmentation = cx::readStateSegmentation(kDir + "/segments.bed", 200);
    cx::NeighborhoodEnrichmentOptions options;
    options.useStrand = useStrand;
    const std::string path = kDir + "/anchors/" + anchors;
    return cx::neighborhoodEnrichment(segmentation, cx::readAnchorFile(path, useStrand), path,
                                      options);
}

std::string tempDir(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("cx_enrichment_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

} // namespace

TEST(OverlapEnrichment, MatchesChromHmmDefault) {
    const auto table = overlapWith({});
    expectMatchesChromHmm(table, "overlap.txt");
    // E5 never occurs: its row is dropped, as ChromHMM does.
    EXPECT_EQ(table.rowLabels, (std::vector<std::string>{"E1", "E2", "E3", "E4", "E6"}));
    // chrY intervals of cpg.bed and tss.bed are reported, not counted.
    EXPECT_FALSE(table.warnings.empty());
}

TEST(OverlapEnrichment, MatchesChromHmmBinResolution) {
    cx::OverlapEnrichmentOptions options;
    options.baseResolution = false;
    expectMatchesChromHmm(overlapWith(options), "overlap_binres.txt");
}

TEST(OverlapEnrichment, MatchesChromHmmUniformScale) {
    cx::OverlapEnrichmentOptions options;
    options.genomeColumn = false;
    expectMatchesChromHmm(overlapWith(options), "overlap_uniformscale.txt");
}

TEST(OverlapEnrichment, MatchesChromHmmCenterWithPValues) {
    cx::OverlapEnrichmentOptions options;
    options.center = true;
    options.pValues = true;
    const auto table = overlapWith(options);
    expectMatchesChromHmm(table, "overlap_center.txt");
    const auto expected = cx::test::readTsv(kDir + "/expected/overlap_center_log10pvals.txt");
    ASSERT_EQ(expected.size(), static_cast<size_t>(table.log10PValues.rows()) + 2);
    for (Eigen::Index r = 0; r < table.log10PValues.rows(); ++r) {
        for (Eigen::Index c = 0; c < table.log10PValues.cols(); ++c) {
            EXPECT_NEAR(std::stod(expected[static_cast<size_t>(r) + 1][static_cast<size_t>(c) + 2]),
                        table.log10PValues(r, c), 1e-4)
                << "row " << r << " column " << c;
        }
    }
}

TEST(OverlapEnrichment, MatchesChromHmmMultiCount) {
    cx::OverlapEnrichmentOptions options;
    options.multiCount = true;
    expectMatchesChromHmm(overlapWith(options), "overlap_multicount.txt");
}

TEST(OverlapEnrichment, MatchesChromHmmBinSize100) {
    expectMatchesChromHmm(overlapWith({}, 100), "overlap_b100.txt");
}

TEST(OverlapEnrichment, TextIsChromHmmByteForByteWithNumericLabels) {
    // With labels "1"…"6" instead of "E1"…"E6" our file is ChromHMM's file.
    const std::string dir = tempDir("numeric");
    {
        std::ifstream in(kDir + "/segments.bed");
        std::ofstream out(dir + "/segments.bed");
        std::string line;
        while (std::getline(in, line)) {
            const size_t tab = line.rfind('\t');
            out << line.substr(0, tab + 1) << line.substr(tab + 2) << '\n';
        }
    }
    auto segmentation = cx::readStateSegmentation(dir + "/segments.bed", 200);
    segmentation.orderName = "Emission"; // ChromHMM names the order from "E" in its run
    const auto table =
        cx::overlapEnrichment(segmentation, cx::readEnrichmentAnnotations({kDir + "/coords"}));
    std::ostringstream text;
    cx::writeEnrichmentTable(text, table);
    EXPECT_EQ(text.str(), cx::test::readText(kDir + "/expected/overlap.txt"));
}

TEST(NeighborhoodEnrichment, MatchesChromHmmBothStrands) {
    const auto table = neighborhoodOf("tss_anchors.txt");
    expectMatchesChromHmm(table, "neighborhood_tss.txt");
    EXPECT_EQ(table.columnNames.front(), "-2000");
    EXPECT_EQ(table.columnNames.back(), "2000");
    EXPECT_FALSE(table.warnings.empty()); // the chrY anchor
}

TEST(NeighborhoodEnrichment, MatchesChromHmmSecondAnchorFile) {
    expectMatchesChromHmm(neighborhoodOf("tes_anchors.txt"), "neighborhood_tes.txt");
}

TEST(NeighborhoodEnrichment, MatchesChromHmmWithoutStrand) {
    expectMatchesChromHmm(neighborhoodOf("tss_anchors.txt", false),
                          "neighborhood_tss_nostrand.txt");
}

TEST(EnrichmentInputs, SegmentStartOffTheBinGridNamesFileAndLine) {
    const std::string dir = tempDir("offgrid");
    std::ofstream(dir + "/seg.bed") << "chr1\t0\t200\tE1\nchr1\t200\t450\tE2\nchr1\t450\t600\tE1\n";
    try {
        cx::readStateSegmentation(dir + "/seg.bed", 200);
        FAIL() << "expected InputError";
    } catch (const cx::InputError& error) {
        EXPECT_EQ(error.line(), 3);
        EXPECT_NE(std::string(error.what()).find("seg.bed:3"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("bin size"), std::string::npos);
    }
}

TEST(EnrichmentInputs, MalformedLinesNameFileAndLine) {
    const std::string dir = tempDir("malformed");
    std::ofstream(dir + "/seg.bed") << "track name=x\nchr1\t0\t200\tE1\nchr1\t200\n";
    std::ofstream(dir + "/anchors.txt") << "chr1\t100\t+\nchr1\t200\t*\n";
    std::ofstream(dir + "/bad.bed") << "chr1\t10\t20\nchr1\tten\t30\n";
    const auto expectError = [](const std::function<void()>& call, const std::string& where) {
        try {
            call();
            FAIL() << "expected InputError at " << where;
        } catch (const cx::InputError& error) {
            EXPECT_NE(std::string(error.what()).find(where), std::string::npos) << error.what();
        }
    };
    expectError([&] { cx::readSegmentsBed(dir + "/seg.bed"); }, "seg.bed:3");
    expectError([&] { cx::readAnchorFile(dir + "/anchors.txt", true); }, "anchors.txt:2");
    expectError([&] { cx::readEnrichmentAnnotations({dir + "/bad.bed"}); }, "bad.bed:2");
    expectError([&] { cx::readEnrichmentAnnotations({dir + "/missing.bed"}); }, "missing.bed");
    // Without the strand column the anchor file reads fine.
    EXPECT_EQ(cx::readAnchorFile(dir + "/anchors.txt", false).size(), 2u);
}

TEST(EnrichmentInputs, AnnotationOnOtherChromosomesIsRefused) {
    const std::string dir = tempDir("otherchrom");
    std::ofstream(dir + "/ucsc.bed") << "1\t0\t500\n";
    const auto segmentation = cx::readStateSegmentation(kDir + "/segments.bed", 200);
    EXPECT_THROW(
        cx::overlapEnrichment(segmentation, cx::readEnrichmentAnnotations({dir + "/ucsc.bed"})),
        cx::InputError);
    std::ofstream(dir + "/anchors.txt") << "1\t100\t+\n";
    EXPECT_THROW(cx::neighborhoodEnrichment(segmentation,
                                            cx::readAnchorFile(dir + "/anchors.txt", true),
                                            dir + "/anchors.txt"),
                 cx::InputError);
}

TEST(EnrichmentInputs, TabSeparatedLabelsMayHoldSpaces) {
    // What the GUI's export and `hmm --state-labels names` write: names with blanks, one per
    // state; a line without tabs still splits at spaces (ChromHMM's files).
    const std::string dir = tempDir("spaces");
    std::ofstream(dir + "/seg.bed")
        << "track name=\"x\" itemRgb=\"On\"\n"
        << "chr1\t0\t400\tActive promoter (high H3K27ac)\t0\t.\t0\t400\t224,27,27\r\n"
        << "chr1\t400\t600\tActive promoter (low H3K27ac)\t0\t.\t400\t600\t224,27,76\n"
        << "chr1 600 800 Quiescent\n";
    const auto records = cx::readSegmentsBed(dir + "/seg.bed");
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(records[0].label, "Active promoter (high H3K27ac)");
    EXPECT_EQ(records[1].label, "Active promoter (low H3K27ac)");
    EXPECT_EQ(records[2].label, "Quiescent");
    const auto segmentation = cx::readStateSegmentation(dir + "/seg.bed", 200);
    std::vector<std::string> labels;
    for (const auto& label : segmentation.stateLabels) {
        if (!label.empty()) {
            labels.push_back(label);
        }
    }
    EXPECT_EQ(labels, (std::vector<std::string>{"Active promoter (high H3K27ac)",
                                                "Active promoter (low H3K27ac)", "Quiescent"}));

    std::ofstream(dir + "/empty.bed") << "chr1\t0\t200\tE1\nchr1\t200\t400\t \t0\n";
    try {
        cx::readSegmentsBed(dir + "/empty.bed");
        FAIL() << "expected InputError";
    } catch (const cx::InputError& error) {
        EXPECT_NE(std::string(error.what()).find("empty.bed:2"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("column 4 (state) is empty"), std::string::npos)
            << error.what();
    }
}

TEST(OverlapEnrichment, AnnotationMissingTheSegmentedBinsGetsAnEmptyColumnAndAWarning) {
    // A segmentation of a small region: the annotation has intervals on its chromosome, none in
    // its bins. An empty column, not a refusal (that is for other chromosome names).
    const std::string dir = tempDir("outside");
    std::ofstream(dir + "/seg.bed") << "chr1\t0\t400\tE1\nchr1\t400\t800\tE2\n";
    std::ofstream(dir + "/far.bed") << "chr1\t50000\t60000\n";
    std::ofstream(dir + "/near.bed") << "chr1\t400\t600\n";
    const auto segmentation = cx::readStateSegmentation(dir + "/seg.bed", 200);
    cx::OverlapEnrichmentOptions options;
    options.pValues = true;
    const auto table = cx::overlapEnrichment(
        segmentation, cx::readEnrichmentAnnotations({dir + "/far.bed", dir + "/near.bed"}),
        options);
    ASSERT_EQ(table.fold.cols(), 2);
    EXPECT_EQ(table.columnNames[0], "far.bed");
    EXPECT_EQ(table.fold(0, 0), 0.0);
    EXPECT_EQ(table.fold(1, 0), 0.0);
    EXPECT_EQ(table.basePercent(0), 0.0);
    EXPECT_EQ(table.log10PValues(0, 0), 0.0);
    EXPECT_NEAR(table.fold(1, 1), 2.0, 1e-12); // the other column as without it
    ASSERT_EQ(table.warnings.size(), 1u);
    EXPECT_NE(table.warnings[0].find("far.bed"), std::string::npos) << table.warnings[0];
    EXPECT_NE(table.warnings[0].find("no interval falls in the segmented bins"), std::string::npos);
}

TEST(OverlapEnrichment, NamedLabelsKeepFirstAppearanceOrder) {
    const std::string dir = tempDir("named");
    std::ofstream(dir + "/seg.bed")
        << "chr1\t0\t400\tTx\nchr1\t400\t1000\tTssA\nchr1\t1000\t1200\tTx\n";
    std::ofstream(dir + "/a.bed") << "chr1\t400\t600\n";
    const auto segmentation = cx::readStateSegmentation(dir + "/seg.bed", 200);
    const auto table =
        cx::overlapEnrichment(segmentation, cx::readEnrichmentAnnotations({dir + "/a.bed"}));
    EXPECT_EQ(table.rowLabels, (std::vector<std::string>{"Tx", "TssA"}));
    // a.bed covers one TssA bin of three; TssA is half the genome: fold 2 for TssA, 0 for Tx.
    EXPECT_NEAR(table.fold(1, 0), 2.0, 1e-12);
    EXPECT_NEAR(table.fold(0, 0), 0.0, 1e-12);
    EXPECT_NEAR(table.basePercent(0), 100.0 / 6, 1e-12);
}

TEST(EnrichmentPValues, TailsMatchDirectSums) {
    // Hypergeometric: 5 of type A, 7 of type B, 6 drawn; P(X > 2) by direct summation.
    const auto choose = [](int n, int k) {
        return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0));
    };
    double direct = 0;
    for (int i = 3; i <= 5; ++i) {
        direct += choose(5, i) * choose(7, 6 - i) / choose(12, 6);
    }
    EXPECT_NEAR(cx::hypergeometricTail(2, 5, 7, 6), direct, 1e-12);
    double binomial = 0;
    for (int i = 4; i <= 10; ++i) {
        binomial += choose(10, i) * std::pow(0.3, i) * std::pow(0.7, 10 - i);
    }
    EXPECT_NEAR(cx::binomialTail(3, 10, 0.3), binomial, 1e-12);
    EXPECT_EQ(cx::hypergeometricTail(-1, 5, 7, 6), 1.0);
    EXPECT_EQ(cx::binomialTail(10, 10, 0.3), 0.0);
}

TEST(SvgHeatmap, WritesOneRectPerCellAndEscapesLabels) {
    Eigen::MatrixXd values(2, 3);
    values << 1, 2, 3, 4, std::nan(""), 6;
    std::ostringstream out;
    cx::SvgHeatmapOptions options;
    options.title = "A & B";
    cx::writeSvgHeatmap(out, values, {"E1", "E<2>"}, {"a", "b", "c"}, options);
    const std::string svg = out.str();
    size_t rects = 0;
    for (size_t at = svg.find("<rect x="); at != std::string::npos;
         at = svg.find("<rect x=", at + 1)) {
        ++rects;
    }
    EXPECT_EQ(rects, 6u);
    EXPECT_NE(svg.find("A &amp; B"), std::string::npos);
    EXPECT_NE(svg.find("E&lt;2&gt;"), std::string::npos);
    EXPECT_NE(svg.find("#cccccc"), std::string::npos); // the NaN cell
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_THROW(cx::writeSvgHeatmap(out, values, {"E1"}, {"a", "b", "c"}), std::invalid_argument);
}

TEST(StateSegmentation, DecodedRunsEqualTheirExportedBed) {
    cx::ChromatinData data;
    data.binSize = 200;
    cx::ChromatinTrack a;
    a.cell = "A";
    a.chrom = "chr1";
    a.bins.assign(6, 0);
    cx::ChromatinTrack b = a;
    b.cell = "B";
    b.bins.assign(4, 0);
    cx::ChromatinTrack a2 = a;
    a2.chrom = "chr2";
    a2.bins.assign(3, 0);
    data.tracks = {a, b, a2};
    cx::DecodedSegmentation decoded;
    decoded.numStates = 2;
    decoded.runs = {{{0, 2, 0}, {2, 6, 1}}, {{0, 4, 1}}, {{0, 3, 0}}};
    const std::vector<std::string> labels = {"E1", "E2"};
    const auto direct = cx::stateSegmentation(data, decoded, labels, "A");
    EXPECT_EQ(direct.chroms, (std::vector<std::string>{"chr1", "chr2"}));
    EXPECT_EQ(direct.bins[0], (std::vector<int>{1, 1, 2, 2, 2, 2}));
    EXPECT_EQ(direct.bins[1], (std::vector<int>{1, 1, 1}));
    EXPECT_EQ(direct.totalBins, 9);

    const std::string dir = tempDir("decoded");
    {
        std::ofstream out(dir + "/a.bed");
        cx::writeRunsBed9(
            out, data, decoded.runs, labels, {"1,1,1", "2,2,2"},
            [](const cx::ChromatinTrack& track) { return "track name=" + track.cell; }, -1, "A");
    }
    const auto viaFile = cx::readStateSegmentation(dir + "/a.bed", 200);
    EXPECT_EQ(viaFile.chroms, direct.chroms);
    EXPECT_EQ(viaFile.bins, direct.bins);
    EXPECT_EQ(viaFile.stateBins, direct.stateBins);
    EXPECT_EQ(viaFile.stateLabels, direct.stateLabels);
    // One track line for sample A although it has two chromosomes.
    const std::string text = cx::test::readText(dir + "/a.bed");
    EXPECT_EQ(text.find("track name=A"), 0u);
    EXPECT_EQ(text.find("track", 1), std::string::npos) << text;
}
