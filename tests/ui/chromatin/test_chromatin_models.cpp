// The Chromatin workspace's pure pieces: state rows across γ on real data (StateCatalog; the
// naming rule and the slot rules are core's: tests/core/hmm/test_state_catalog.cpp), BED9
// text with names and colours and annotation list roles. Enrichment, run labels and the sweep
// are core's (tests/core/hmm).
#include "chromatin_test_helpers.h"

#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_analysis.h"
#include "ui/chromatin/genomic_region.h"
#include "ui/views/state_catalog.h"

#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTemporaryDir>

#include <cmath>

using cx::ui::AnnotationListModel;
using cx::ui::StateCatalog;
using cx::ui::test::hmmData;

namespace {

/// One track on chr1 with `bins` bins of `binSize` bp, one mark, every bin pattern 0.
cx::ChromatinData tinyData(int bins, int binSize) {
    cx::ChromatinData data;
    data.markNames = {"M"};
    data.binSize = binSize;
    cx::ChromatinTrack track;
    track.cell = "CELL";
    track.chrom = "chr1";
    track.bins.assign(static_cast<size_t>(bins), 0);
    data.tracks.push_back(track);
    data.patternValues = {0};
    data.patternCounts = {bins};
    return data;
}

} // namespace

TEST(StateCatalog, RowsAreStableAcrossGammaOnTheRealSlice) {
    const auto data = cx::readChromHmmTracks({hmmData("GM12878_chr11_slice.txt.gz").toStdString(),
                                              hmmData("K562_chr11_slice.txt.gz").toStdString()});
    const cx::BedRegions genes =
        cx::readBedFiles({hmmData("RefSeqGene.chr11_slice.bed").toStdString(),
                          hmmData("RefSeqTSS2kb.chr11_slice.bed").toStdString()});
    const cx::SequenceMoments moments =
        cx::computeSequenceMoments(data, cx::classifyBins(data, &genes, nullptr));
    cx::ContrastiveHmmOptions options;
    options.numComponents = 7;
    StateCatalog catalog;
    Eigen::MatrixXd previous;
    QString promoterAtZero;
    int promoterSlot = -1;
    for (int i = 0; i <= 20; ++i) {
        const double gamma = i * 0.05;
        const auto result = cx::solveContrastiveHmm(moments, gamma, options);
        catalog.update(result.markProbabilities, result.weights, data.markNames);
        if (previous.size() > 0) {
            // Every row moved less than the typical distance between two different rows.
            double same = 0;
            double different = 0;
            int pairs = 0;
            for (int s = 0; s < 7; ++s) {
                same += (catalog.profiles().row(s) - previous.row(s)).cwiseAbs().mean();
                for (int t = 0; t < 7; ++t) {
                    if (t != s) {
                        different +=
                            (catalog.profiles().row(s) - previous.row(t)).cwiseAbs().mean();
                        ++pairs;
                    }
                }
            }
            EXPECT_LT(same / 7, 0.5 * different / pairs) << "γ = " << gamma;
        }
        previous = catalog.profiles();
        for (int s = 0; s < catalog.numSlots(); ++s) {
            if (i == 0 && catalog.name(s) == QLatin1String("Active promoter")) {
                promoterSlot = s;
                promoterAtZero = catalog.name(s);
            }
        }
    }
    ASSERT_GE(promoterSlot, 0) << "no active promoter state at γ = 0";
    // Still a promoter (possibly numbered, "Active promoter 2", if another row became one too).
    EXPECT_TRUE(catalog.name(promoterSlot).startsWith(promoterAtZero))
        << "the promoter row moved: " << catalog.name(promoterSlot).toStdString();
}

TEST(ChromatinBed9, OneLinePerRunWithNamesAndColours) {
    auto data = std::make_shared<cx::ChromatinData>(tinyData(6, 200));
    cx::ChromatinTrack second = data->tracks.front();
    second.cell = "OTHER";
    data->tracks.push_back(second);
    cx::ui::SegmentationState segmentation;
    segmentation.data = data;
    segmentation.numStates = 2;
    segmentation.runs = {{{0, 2, 0}, {2, 6, 1}}, {{0, 6, 1}}};
    const QString text = cx::ui::segmentationBed9(
        segmentation, {QStringLiteral("Active\tpromoter"), QStringLiteral("Quiescent")},
        {QColor(224, 27, 27), QColor(220, 223, 227)});
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 5);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("track name=\"CELL\"")));
    EXPECT_TRUE(lines[0].contains(QStringLiteral("itemRgb=\"On\"")));
    EXPECT_EQ(lines[1], QStringLiteral("chr1\t0\t400\tActive promoter\t0\t.\t0\t400\t224,27,27"));
    EXPECT_EQ(lines[2], QStringLiteral("chr1\t400\t1200\tQuiescent\t0\t.\t400\t1200\t220,223,227"));
    EXPECT_TRUE(lines[3].startsWith(QStringLiteral("track name=\"OTHER\"")));
    EXPECT_EQ(lines[4].split(QLatin1Char('\t')).size(), 9);
}

TEST(AnnotationListModel, RolesCombineAndForegroundExcludesBackground) {
    AnnotationListModel model;
    QSignalSpy regions(&model, &AnnotationListModel::regionsEdited);
    QSignalSpy display(&model, &AnnotationListModel::displayEdited);
    AnnotationListModel::Entry genes;
    genes.path = QStringLiteral("/x/RefSeqGene.hg18.bed.gz");
    AnnotationListModel::Entry tss;
    tss.path = QStringLiteral("/x/RefSeqTSS2kb.hg18.bed.gz");
    EXPECT_EQ(model.addEntry(genes), 0);
    EXPECT_EQ(model.addEntry(tss), 1);
    EXPECT_EQ(model.addEntry(genes), 0); // listed once
    EXPECT_TRUE(model.data(model.index(0, 0)).toString().contains(QStringLiteral("reading")));
    model.setChecked(genes.path, AnnotationListModel::ForegroundColumn, true);
    model.setChecked(tss.path, AnnotationListModel::ForegroundColumn, true);
    EXPECT_EQ(regions.count(), 2);
    EXPECT_EQ(model.regionChoice().foreground, (QStringList{genes.path, tss.path}));
    EXPECT_TRUE(model.regionChoice().background.isEmpty());
    // Background on the same file takes it out of the foreground.
    model.setData(model.index(1, AnnotationListModel::BackgroundColumn), Qt::Checked,
                  Qt::CheckStateRole);
    EXPECT_EQ(model.regionChoice().foreground, QStringList{genes.path});
    EXPECT_EQ(model.regionChoice().background, QStringList{tss.path});
    model.setChecked(genes.path, AnnotationListModel::LaneColumn, true);
    EXPECT_EQ(display.count(), 1);
    EXPECT_EQ(model.lanePaths(), QStringList{genes.path});
    EXPECT_EQ(model.enrichmentPaths().size(), 2);
    model.removePath(genes.path);
    EXPECT_EQ(model.rowCount(), 1);
    EXPECT_TRUE(model.regionChoice().foreground.isEmpty());
}

TEST(ChromatinNames, AnnotationDisplayNamesDropAssemblyAndRegionTags) {
    EXPECT_EQ(cx::ui::annotationDisplayName(QStringLiteral("/a/RefSeqGene.hg18.bed.gz")),
              QStringLiteral("RefSeqGene"));
    EXPECT_EQ(cx::ui::annotationDisplayName(QStringLiteral("RefSeqTSS2kb.chr11_0-30Mb.bed.gz")),
              QStringLiteral("RefSeqTSS2kb"));
    EXPECT_EQ(cx::ui::annotationDisplayName(QStringLiteral("my_peaks.bed")),
              QStringLiteral("my_peaks"));
    QString chrom;
    qint64 start = 0;
    qint64 end = 0;
    EXPECT_TRUE(cx::ui::parseGenomicRegion(QStringLiteral("chr11:5,000,000-5,800,000"), &chrom,
                                           &start, &end));
    EXPECT_EQ(chrom, QStringLiteral("chr11"));
    EXPECT_EQ(start, 5000000);
    EXPECT_EQ(end, 5800000);
    EXPECT_FALSE(
        cx::ui::parseGenomicRegion(QStringLiteral("chr11:9-3"), nullptr, nullptr, nullptr));
}
