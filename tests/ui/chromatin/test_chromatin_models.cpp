// The Chromatin workspace's pure pieces: state order and names across γ (StateCatalog), the
// naming rule, BED9 text with names and colours, annotation list roles and the heatmap colour
// scale. Enrichment, run labels and the sweep are core's (tests/core/hmm).
#include "chromatin_test_helpers.h"

#include "ui/chromatin/genomic_region.h"
#include "ui/chromatin/state_catalog.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/state_matrix_model.h"
#include "ui/views/colour_scale.h"
#include "ui/chromatin/chromatin_analysis.h"

#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/sequence_moments.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTemporaryDir>

#include <cmath>

using cx::ui::AnnotationListModel;
using cx::ui::classifyChromatinState;
using cx::ui::ColourScale;
using cx::ui::StateCatalog;
using cx::ui::StateMatrixModel;
using cx::ui::test::hmmData;

namespace {

const std::vector<std::string> kMarks = {"CTCF",    "H3K27ac", "H3K27me3", "H3K36me3", "H3K4me1",
                                         "H3K4me2", "H3K4me3", "H3K9ac",   "H4K20me1", "WCE"};

Eigen::RowVectorXd profile(std::initializer_list<std::pair<const char*, double>> values) {
    Eigen::RowVectorXd p = Eigen::RowVectorXd::Constant(10, 0.02);
    for (const auto& [name, value] : values) {
        for (size_t j = 0; j < kMarks.size(); ++j) {
            if (kMarks[j] == name) {
                p[static_cast<Eigen::Index>(j)] = value;
            }
        }
    }
    return p;
}

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

TEST(StateNaming, RecognisesTheCanonicalChromatinStates) {
    const auto name = [](const Eigen::RowVectorXd& p) {
        return classifyChromatinState(p, kMarks).name.toStdString();
    };
    EXPECT_EQ(name(profile({{"H3K4me3", 0.95}, {"H3K27ac", 0.9}, {"H3K9ac", 0.9}})),
              "Active promoter");
    EXPECT_EQ(name(profile({{"H3K4me3", 0.6}, {"H3K27me3", 0.6}})), "Poised promoter");
    EXPECT_EQ(name(profile({{"H3K4me3", 0.6}})), "Weak promoter");
    EXPECT_EQ(name(profile({{"H3K4me1", 0.9}, {"H3K27ac", 0.45}, {"H3K4me3", 0.3}})),
              "Strong enhancer");
    EXPECT_EQ(name(profile({{"H3K4me1", 0.6}})), "Weak enhancer");
    EXPECT_EQ(name(profile({{"H3K36me3", 0.7}})), "Txn elongation");
    EXPECT_EQ(name(profile({{"H3K4me1", 0.5}, {"H4K20me1", 0.6}, {"H3K36me3", 0.38}})),
              "Txn transition");
    EXPECT_EQ(name(profile({{"H3K27me3", 0.45}})), "Polycomb repressed");
    EXPECT_EQ(name(profile({{"CTCF", 0.96}, {"H3K4me2", 0.39}})), "Insulator");
    EXPECT_EQ(name(profile({{"WCE", 0.8}, {"CTCF", 0.8}, {"H3K36me3", 0.6}})), "Repetitive/CNV");
    EXPECT_EQ(name(profile({})), "Quiescent");
    EXPECT_EQ(name(profile({{"H3K27me3", 0.2}})), "Low signal");
    // Without the marks a rule needs, it does not fire.
    const std::vector<std::string> other = {"A", "B"};
    EXPECT_TRUE(classifyChromatinState(Eigen::RowVector2d(0.9, 0.9), other).name.isEmpty());
}

TEST(StateCatalog, KeepsRowsAcrossPermutationsAndNamesWhileTheStateMatches) {
    Eigen::MatrixXd profiles(4, 10);
    profiles.row(0) = profile({});
    profiles.row(1) = profile({{"H3K36me3", 0.7}});
    profiles.row(2) = profile({{"H3K4me3", 0.95}, {"H3K27ac", 0.9}});
    profiles.row(3) = profile({{"H3K4me1", 0.8}, {"H3K27ac", 0.4}});
    const Eigen::Vector4d weights(0.6, 0.2, 0.1, 0.05);
    StateCatalog catalog;
    catalog.update(profiles, weights, kMarks);
    ASSERT_EQ(catalog.numSlots(), 4);
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(catalog.componentOfSlot(s), s); // first time: weight order
    }
    EXPECT_EQ(catalog.name(2).toStdString(), "Active promoter");
    catalog.rename(2, QStringLiteral("My promoter"));

    // The core returns components in another order (weights changed with γ): rows stay.
    const std::vector<int> permutation = {2, 0, 3, 1};
    Eigen::MatrixXd shuffled(4, 10);
    Eigen::Vector4d shuffledWeights;
    for (int i = 0; i < 4; ++i) {
        shuffled.row(i) = profiles.row(permutation[static_cast<size_t>(i)]);
        shuffled.row(i).array() += 0.01; // a little movement
        shuffledWeights[i] = weights[permutation[static_cast<size_t>(i)]];
    }
    catalog.update(shuffled, shuffledWeights, kMarks);
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(permutation[static_cast<size_t>(catalog.componentOfSlot(s))], s);
        EXPECT_EQ(catalog.slotOfComponent(catalog.componentOfSlot(s)), s);
    }
    EXPECT_EQ(catalog.name(2).toStdString(), "My promoter");
    EXPECT_TRUE(catalog.isRenamed(2));
    EXPECT_EQ(catalog.autoName(2).toStdString(), "Active promoter");
    EXPECT_TRUE(catalog.takeDroppedNames().isEmpty());

    // The renamed state turns into something else entirely: the name goes.
    Eigen::MatrixXd changed = profiles;
    changed.row(2) = Eigen::RowVectorXd::Constant(10, 0.9);
    catalog.update(changed, weights, kMarks);
    EXPECT_FALSE(catalog.isRenamed(2));
    EXPECT_EQ(catalog.takeDroppedNames(), QStringList{QStringLiteral("My promoter")});

    // K lowered: the remaining states keep their relative order; raised: new rows at the end.
    catalog.update(profiles, weights, kMarks);
    catalog.rename(3, QStringLiteral("Enhancer A"));
    Eigen::MatrixXd three(3, 10);
    three.row(0) = profiles.row(3);
    three.row(1) = profiles.row(1);
    three.row(2) = profiles.row(0);
    catalog.update(three, Eigen::Vector3d(0.3, 0.2, 0.1), kMarks);
    ASSERT_EQ(catalog.numSlots(), 3);
    EXPECT_EQ(catalog.componentOfSlot(0), 2); // quiescent, still first
    EXPECT_EQ(catalog.componentOfSlot(1), 1);
    EXPECT_EQ(catalog.componentOfSlot(2), 0);
    EXPECT_EQ(catalog.name(2).toStdString(), "Enhancer A");
    catalog.update(profiles, weights, kMarks);
    ASSERT_EQ(catalog.numSlots(), 4);
    EXPECT_EQ(catalog.componentOfSlot(3), 2); // the promoter comes back at the end
    EXPECT_EQ(catalog.name(2).toStdString(), "Enhancer A");

    // Sorting by weight keeps the user's names.
    catalog.sortByWeight();
    catalog.update(profiles, weights, kMarks);
    EXPECT_EQ(catalog.componentOfSlot(0), 0);
    EXPECT_EQ(catalog.name(3).toStdString(), "Enhancer A");
}

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

TEST(StateMatrixModel, ExportsNamesWeightsAndFullPrecision) {
    StateMatrixModel model;
    StateMatrixModel::Content content;
    content.values.resize(2, 2);
    content.values << 0.123456789, 1.0, 0.0, 0.5;
    content.rowLabels = {QStringLiteral("Active promoter"), QStringLiteral("Quiescent, low")};
    content.columnLabels = {QStringLiteral("H3K4me3"), QStringLiteral("H3K27ac")};
    content.rowWeights = {0.25, -0.1};
    content.rowSlots = {3, 1};
    model.setContent(content);
    EXPECT_EQ(model.data(model.index(0, 0)).toString(), QStringLiteral("0.12"));
    EXPECT_DOUBLE_EQ(model.value(0, 0), 0.123456789);
    const QStringList tsv = model.delimited(QLatin1Char('\t')).split(QLatin1Char('\n'));
    EXPECT_EQ(tsv[0], QStringLiteral("state\tweight\tH3K4me3\tH3K27ac"));
    EXPECT_EQ(tsv[1], QStringLiteral("Active promoter\t0.25\t0.12345679\t1"));
    const QStringList csv = model.delimited(QLatin1Char(',')).split(QLatin1Char('\n'));
    EXPECT_TRUE(csv[2].startsWith(QStringLiteral("\"Quiescent, low\",-0.1,")))
        << csv[2].toStdString();
    QSignalSpy renamed(&model, &StateMatrixModel::rowRenamed);
    EXPECT_TRUE(
        model.setHeaderData(1, Qt::Vertical, QStringLiteral(" Heterochromatin "), Qt::EditRole));
    ASSERT_EQ(renamed.count(), 1);
    EXPECT_EQ(renamed.last().at(1).toInt(), 1); // the display slot
    EXPECT_EQ(renamed.last().at(2).toString(), QStringLiteral("Heterochromatin"));
}

TEST(ColourScale, WhiteToBlueForProbabilitiesAndDivergingForFolds) {
    const ColourScale probability = ColourScale::probability(QStringLiteral("P"));
    EXPECT_EQ(probability.colourAt(0.0), QColor(Qt::white));
    const QColor high = probability.colourAt(1.0);
    EXPECT_GT(high.blue(), high.red());
    EXPECT_TRUE(ColourScale::needsLightText(high));
    EXPECT_FALSE(ColourScale::needsLightText(probability.colourAt(0.1)));
    const ColourScale fold = ColourScale::foldEnrichment(QStringLiteral("fold"), 5);
    EXPECT_EQ(fold.colourAt(1.0), QColor(Qt::white));
    EXPECT_GT(fold.colourAt(8.0).blue(), fold.colourAt(8.0).red());   // enriched: blue
    EXPECT_GT(fold.colourAt(0.25).red(), fold.colourAt(0.25).blue()); // depleted: orange
    EXPECT_DOUBLE_EQ(fold.position(1.0), 0.5);
    EXPECT_DOUBLE_EQ(fold.position(1e9), 1.0);
    EXPECT_DOUBLE_EQ(fold.position(0.0), 0.0);
    EXPECT_EQ(fold.tickLabel(0.25), QStringLiteral("1/4"));
}
