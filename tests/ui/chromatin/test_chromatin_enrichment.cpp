// The Chromatin workspace's enrichment tables: computeEnrichment is core's
// ChromHMM-compatible enrichment of the decoded segmentation, so the GUI's overlap and
// neighbourhood tables equal ChromHMM 1.27's (and `contrast-cli enrichment`'s) on the same
// segmentation — tests/data/enrichment, made into decoded runs here. Anchor files
// (`chrom pos strand`) are accepted as annotations.
#include "support/files.h"
#include "ui/chromatin/chromatin_analysis.h"

#include "core/common/error.h"
#include "core/io/enrichment_inputs.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace {

const QString kEnrichmentDir = QStringLiteral(CX_TEST_DATA_DIR "/enrichment");

/// tests/data/enrichment/segments.bed as the workspace holds a decoded segmentation: one
/// track per chromosome of cell CELL, runs of states E1…E6 (index 0…5), gaps left uncovered.
cx::ui::SegmentationState fixtureSegmentation() {
    const auto records =
        cx::readSegmentsBed((kEnrichmentDir + QStringLiteral("/segments.bed")).toStdString());
    auto data = std::make_shared<cx::ChromatinData>();
    data->binSize = 200;
    data->markNames = {"M"};
    data->patternValues = {0};
    cx::ui::SegmentationState segmentation;
    segmentation.numStates = 6;
    segmentation.numSpecific = 6;
    segmentation.stateBins.assign(6, 0);
    for (const cx::SegmentRecord& record : records) {
        int track = data->findTrack("CELL", record.chrom);
        if (track < 0) {
            cx::ChromatinTrack added;
            added.cell = "CELL";
            added.chrom = record.chrom;
            data->tracks.push_back(added);
            segmentation.runs.emplace_back();
            track = static_cast<int>(data->tracks.size()) - 1;
        }
        const std::int64_t begin = record.start / 200;
        const std::int64_t end = (record.end + 199) / 200;
        auto& bins = data->tracks[static_cast<size_t>(track)].bins;
        bins.resize(static_cast<size_t>(
                        std::max<std::int64_t>(end, static_cast<std::int64_t>(bins.size()))),
                    0);
        const int state = std::stoi(record.label.substr(1)) - 1;
        segmentation.runs[static_cast<size_t>(track)].push_back({begin, end, state});
        segmentation.stateBins[static_cast<size_t>(state)] += end - begin;
    }
    data->patternCounts = {0};
    segmentation.data = data;
    segmentation.generation = 7;
    return segmentation;
}

std::vector<cx::ui::AnnotationSource> fixtureAnnotations(const QStringList& names) {
    std::vector<cx::ui::AnnotationSource> out;
    for (const QString& name : names) {
        out.push_back(cx::ui::loadAnnotation(kEnrichmentDir + QLatin1Char('/') + name));
    }
    return out;
}

/// Per-state table (rows E1…E6, NaN for E5 which never occurs) against ChromHMM's file.
void expectEqualsChromHmm(const cx::ui::EnrichmentTable& table, const QString& expectedName,
                          int firstValueColumn) {
    const auto expected = cx::test::readTsv(
        (kEnrichmentDir + QStringLiteral("/expected/") + expectedName).toStdString());
    ASSERT_GE(expected.size(), 2u);
    ASSERT_EQ(table.fold.rows(), 6);
    ASSERT_EQ(static_cast<size_t>(table.fold.cols()),
              expected[0].size() - static_cast<size_t>(firstValueColumn));
    int rows = 0;
    for (size_t r = 1; r < expected.size(); ++r) {
        if (expected[r][0] == "Base") {
            continue;
        }
        const int state = std::stoi(expected[r][0]) - 1;
        ++rows;
        for (Eigen::Index c = 0; c < table.fold.cols(); ++c) {
            const double want = std::stod(expected[r][static_cast<size_t>(firstValueColumn + c)]);
            EXPECT_NEAR(table.fold(state, c), want, 1e-4)
                << expectedName.toStdString() << " state " << state + 1 << " column " << c;
        }
    }
    EXPECT_EQ(rows, 5); // E5 never occurs: no row in ChromHMM's table, NaN in ours
    EXPECT_TRUE(std::isnan(table.fold(4, 0)));
    EXPECT_EQ(table.stateBins[4], 0);
}

} // namespace

TEST(ChromatinEnrichment, OverlapAndNeighbourhoodEqualChromHmm) {
    const cx::ui::SegmentationState segmentation = fixtureSegmentation();
    const auto annotations = fixtureAnnotations(
        {"coords/cpg.bed", "coords/genes.bed", "coords/peaks.bed", "coords/tss.bed",
         "anchors/tss_anchors.txt", "anchors/tes_anchors.txt"});
    ASSERT_TRUE(annotations[4].anchors);
    ASSERT_FALSE(annotations[0].anchors);
    const cx::ui::EnrichmentTable table =
        cx::ui::computeEnrichment(*segmentation.data, segmentation, annotations);
    EXPECT_EQ(table.generation, 7u);
    EXPECT_EQ(table.annotations,
              (QStringList{"cpg", "genes", "peaks", "tss"})); // anchors are not overlap columns
    expectEqualsChromHmm(table, QStringLiteral("overlap.txt"), 2);
    // The core table is what `contrast-cli enrichment` writes (rows E1…, Genome %, Base row).
    EXPECT_EQ(table.chromhmm.rowLabels, (std::vector<std::string>{"E1", "E2", "E3", "E4", "E6"}));
    EXPECT_NEAR(table.chromhmm.genomePercent[0], 26.74897, 1e-4);
    ASSERT_EQ(table.neighborhoods.size(), 2u);
    expectEqualsChromHmm(table.neighborhoods[0], QStringLiteral("neighborhood_tss.txt"), 1);
    expectEqualsChromHmm(table.neighborhoods[1], QStringLiteral("neighborhood_tes.txt"), 1);
    EXPECT_EQ(table.neighborhoods[0].annotations.front(), QStringLiteral("-2000"));
    EXPECT_EQ(table.neighborhoods[0].annotationPaths,
              QStringList{kEnrichmentDir + QStringLiteral("/anchors/tss_anchors.txt")});
    EXPECT_EQ(table.neighborhoods[0].generation, 7u);
}

TEST(ChromatinEnrichment, AnnotationOnOtherChromosomesIsDroppedWithAWarning) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString elsewhere = dir.filePath(QStringLiteral("elsewhere.bed"));
    const QString anchors = dir.filePath(QStringLiteral("elsewhere_anchors.txt"));
    {
        QFile file(elsewhere);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("1\t100\t900\n");
        QFile a(anchors);
        ASSERT_TRUE(a.open(QIODevice::WriteOnly));
        a.write("1\t100\t+\n");
    }
    const cx::ui::SegmentationState segmentation = fixtureSegmentation();
    auto annotations = fixtureAnnotations({"coords/genes.bed"});
    annotations.push_back(cx::ui::loadAnnotation(elsewhere));
    annotations.push_back(cx::ui::loadAnnotation(anchors));
    const cx::ui::EnrichmentTable table =
        cx::ui::computeEnrichment(*segmentation.data, segmentation, annotations);
    EXPECT_EQ(table.annotations, QStringList{"genes"});
    EXPECT_TRUE(table.neighborhoods.empty());
    const auto warned = [&](const std::string& name) {
        return std::any_of(table.chromhmm.warnings.begin(), table.chromhmm.warnings.end(),
                           [&](const std::string& w) { return w.find(name) != std::string::npos; });
    };
    EXPECT_TRUE(warned("elsewhere.bed"));
    EXPECT_TRUE(warned("elsewhere_anchors.txt"));
}

TEST(ChromatinEnrichment, AnchorFilesAreRecognisedAndBadOnesNamed) {
    EXPECT_TRUE(cx::ui::isAnchorPath(kEnrichmentDir + QStringLiteral("/anchors/tss_anchors.txt")));
    EXPECT_FALSE(cx::ui::isAnchorPath(kEnrichmentDir + QStringLiteral("/coords/genes.bed")));
    EXPECT_FALSE(cx::ui::isAnchorPath(kEnrichmentDir + QStringLiteral("/segments.bed")));
    EXPECT_FALSE(
        cx::ui::isAnchorPath(QStringLiteral(CX_TEST_DATA_DIR "/hmm/GM12878_chr11_slice.txt.gz")));
    EXPECT_FALSE(cx::ui::isAnchorPath(kEnrichmentDir + QStringLiteral("/no_such_file.txt")));
    const cx::ui::AnnotationSource source =
        cx::ui::loadAnnotation(kEnrichmentDir + QStringLiteral("/anchors/tss_anchors.txt"));
    ASSERT_TRUE(source.anchors);
    EXPECT_EQ(source.regions->numIntervals, static_cast<std::int64_t>(source.anchors->size()));
    EXPECT_EQ(source.name, QStringLiteral("tss_anchors"));

    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad_anchors.txt"));
    QFile file(bad);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("chr1\t100\t+\nchr1\t200\tx\n");
    file.close();
    EXPECT_TRUE(cx::ui::isAnchorPath(bad));
    try {
        cx::ui::loadAnnotation(bad);
        ADD_FAILURE() << "a bad strand must be refused";
    } catch (const cx::InputError& error) {
        EXPECT_EQ(error.line(), 2);
        EXPECT_NE(std::string(error.what()).find("bad_anchors.txt"), std::string::npos);
        EXPECT_NE(error.problem().find("strand"), std::string::npos);
    }
}
