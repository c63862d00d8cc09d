// The Chromatin workspace's pure presenter functions (ui/chromatin/chromatin_presenter.h): what
// the heatmaps, the weights chart and the segmentation toolbar show, from plain results.
#include "ui/chromatin/chromatin_presenter.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>

using namespace cx::ui;

namespace {

const std::vector<std::string> kPresenterMarks = {"H3K4me3", "H3K27ac", "H3K36me3"};

/// K = 3: two foreground-specific components (ω > 0) and one background-like one.
cx::ContrastiveHmmResult threeStates() {
    cx::ContrastiveHmmResult result;
    result.numSpecific = 2;
    result.markProbabilities.resize(3, 3);
    result.markProbabilities << 0.9, 0.8, 0.05, // promoter-like
        0.05, 0.05, 0.7,                        // transcribed
        0.02, 0.02, 0.02;                       // quiet
    result.weights.resize(3);
    result.weights << 0.3, 0.5, -0.2;
    result.componentInvalidMass = Eigen::VectorXd::Zero(3);
    result.hmm.transitions.resize(2, 2);
    result.hmm.transitions << 0.9, 0.1, 0.2, 0.8;
    return result;
}

StateCatalog catalogOf(const cx::ContrastiveHmmResult& result) {
    StateCatalog catalog;
    catalog.update(result.markProbabilities, result.weights, kPresenterMarks);
    return catalog;
}

} // namespace

TEST(ChromatinPresenter, SweepGridCoversTheSliderRange) {
    const QVector<double> grid = chromatinSweepGrid(2.0);
    ASSERT_EQ(grid.size(), 41);
    EXPECT_DOUBLE_EQ(grid.front(), 0.0);
    EXPECT_NEAR(grid.back(), 2.0, 1e-12);
    EXPECT_NEAR(grid[1], 0.05, 1e-12);
}

TEST(ChromatinPresenter, PathKindsAndGenomicText) {
    EXPECT_TRUE(isBedPath(QStringLiteral("/x/RefSeqGene.hg18.bed.gz")));
    EXPECT_TRUE(isBedPath(QStringLiteral("a.BED")));
    EXPECT_FALSE(isBedPath(QStringLiteral("a_binary.txt")));
    EXPECT_TRUE(isBinarizedPath(QStringLiteral("GM12878_chr11_binary.txt.gz")));
    EXPECT_FALSE(isBinarizedPath(QStringLiteral("notes.txt")));
    EXPECT_EQ(formatGenomicWidth(200), QStringLiteral("200 bp"));
    EXPECT_TRUE(formatGenomicWidth(12500).endsWith(QStringLiteral(" kb")));
    EXPECT_TRUE(formatGenomicWidth(2500000).endsWith(QStringLiteral(" Mb")));
    EXPECT_TRUE(genomicRangeText(QStringLiteral("chr11"), 0, 2000, 10000)
                    .startsWith(QStringLiteral("chr11:")));
    EXPECT_FALSE(genomicRangeText(QString(), 0, 0, 0).contains(QLatin1Char(':')));
    EXPECT_NE(annotationLaneColour(QStringLiteral("RefSeqTSS2kb")),
              annotationLaneColour(QStringLiteral("RefSeqExon")));
}

TEST(ChromatinPresenter, DiscoversChromHmmCoordsNextToTheTracks) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QDir root(dir.path());
    ASSERT_TRUE(root.mkpath(QStringLiteral("COORDS/hg18")));
    for (const char* name : {"COORDS/hg18/b.bed.gz", "COORDS/hg18/a.bed", "COORDS/hg18/x.txt"}) {
        QFile file(root.filePath(QString::fromLatin1(name)));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    }
    const QString track = root.filePath(QStringLiteral("CELL_chr1_binary.txt"));
    EXPECT_EQ(discoverAnnotations({track}),
              (QStringList{root.filePath(QStringLiteral("COORDS/hg18/a.bed")),
                           root.filePath(QStringLiteral("COORDS/hg18/b.bed.gz"))}));
    // Two assemblies and a track path naming neither: nothing is guessed.
    ASSERT_TRUE(root.mkpath(QStringLiteral("COORDS/mm9")));
    EXPECT_TRUE(discoverAnnotations({track}).isEmpty());
    EXPECT_TRUE(discoverAnnotations({}).isEmpty());
}

TEST(ChromatinPresenter, EmissionRowsFollowTheCatalogAndMarkBackgroundAndInvalidStates) {
    cx::ContrastiveHmmResult result = threeStates();
    result.componentInvalidMass[1] = 0.1; // the transcribed state fails the validity test
    const StateCatalog catalog = catalogOf(result);
    const StateMatrixModel::Content content = emissionContent(result, catalog, kPresenterMarks);
    ASSERT_EQ(content.values.rows(), 3);
    EXPECT_EQ(content.columnLabels, (QStringList{"H3K4me3", "H3K27ac", "H3K36me3"}));
    for (int s = 0; s < 3; ++s) {
        const int component = catalog.componentOfSlot(s);
        EXPECT_EQ(content.values.row(s), result.markProbabilities.row(component));
        EXPECT_EQ(content.rowWeights[s], result.weights[component]);
        EXPECT_EQ(content.rowDimmed[s], result.weights[component] <= 0);
        EXPECT_EQ(content.rowFlagged[s], component == 1);
        EXPECT_EQ(content.rowLabels[s], catalog.name(s));
    }
    EXPECT_EQ(invalidSpecificStates(result, catalog),
              QStringList{catalog.name(catalog.slotOfComponent(1))});
    // An invalid background-like component is not named: it is no state of the reported HMM.
    result.componentInvalidMass << 0, 0, 0.1;
    EXPECT_TRUE(invalidSpecificStates(result, catalog).isEmpty());
}

TEST(ChromatinPresenter, ReferenceRowsKeepTheirOrderAndTakeTheMatchedStatesNames) {
    const cx::ContrastiveHmmResult result = threeStates();
    const StateCatalog catalog = catalogOf(result);
    // The γ = 0 model has the same states in another order: its rows stay in its own order
    // (they do not follow the contrastive panel as γ moves) under the matched states' names.
    cx::ContrastiveHmmResult reference = result;
    reference.markProbabilities.row(0) = result.markProbabilities.row(2);
    reference.markProbabilities.row(2) = result.markProbabilities.row(0);
    const StateMatrixModel::Content content = referenceContent(reference, catalog, kPresenterMarks);
    ASSERT_EQ(content.values.rows(), 3);
    EXPECT_EQ(content.values, reference.markProbabilities);
    for (int r = 0; r < 3; ++r) {
        const int slot = content.rowSlots[r];
        ASSERT_GE(slot, 0) << r;
        EXPECT_EQ(catalog.profiles().row(slot), reference.markProbabilities.row(r)) << r;
        EXPECT_EQ(content.rowLabels[r], catalog.name(slot));
        EXPECT_EQ(content.rowColours[r], catalog.colour(slot));
    }
    // A γ = 0 state unlike every contrastive one: its own name, said to be γ = 0's only.
    reference.markProbabilities.row(1).setConstant(0.0);
    reference.markProbabilities.row(1)[0] = 0.97;
    const auto other = referenceContent(reference, catalog, kPresenterMarks);
    EXPECT_EQ(other.rowSlots[1], -1);
    EXPECT_TRUE(other.rowLabels[1].endsWith(QStringLiteral("(γ = 0 only)")))
        << other.rowLabels[1].toStdString();
}

TEST(ChromatinPresenter, TransitionsOnlyBetweenSpecificStatesInDisplayOrder) {
    const cx::ContrastiveHmmResult result = threeStates();
    const StateCatalog catalog = catalogOf(result);
    const StateMatrixModel::Content content = transitionContent(result, catalog);
    ASSERT_EQ(content.values.rows(), 2);
    ASSERT_EQ(content.values.cols(), 2);
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            const int from = catalog.componentOfSlot(content.rowSlots[i]);
            const int to = catalog.componentOfSlot(content.rowSlots[j]);
            EXPECT_EQ(content.values(i, j), result.hmm.transitions(from, to));
        }
    }
    EXPECT_LT(content.rowSlots[0], content.rowSlots[1]);
}

TEST(ChromatinPresenter, EnrichmentRowsInDisplayOrderWithoutUnusedStates) {
    const cx::ContrastiveHmmResult result = threeStates();
    const StateCatalog catalog = catalogOf(result);
    SegmentationState segmentation;
    segmentation.generation = 7;
    segmentation.numStates = 3;
    segmentation.numSpecific = 2;
    EnrichmentTable table;
    table.generation = 7;
    table.annotations = {QStringLiteral("Genes")};
    table.fold.resize(3, 1);
    table.fold << 2.0, 0.5, 1.0;
    table.overlap = Eigen::MatrixXd::Zero(3, 1);
    table.stateBins = {30, 0, 70}; // state 1 labelled no run
    table.totalBins = 100;
    const std::vector<int> displaySlots = {2, 0, 1};
    const auto content = enrichmentContent(table, segmentation, displaySlots, catalog);
    ASSERT_TRUE(content.has_value());
    ASSERT_EQ(content->values.rows(), 2);
    EXPECT_EQ(content->rowSlots, (QVector<int>{1, 2})); // state 2 (slot 1), then state 0
    EXPECT_EQ(content->values(0, 0), 1.0);
    EXPECT_EQ(content->values(1, 0), 2.0);
    EXPECT_EQ(content->rowWeights, (QVector<double>{70.0, 30.0}));
    EXPECT_EQ(content->rowDimmed, (QVector<bool>{true, false})); // state 2 is background-like
    table.generation = 8;
    EXPECT_FALSE(enrichmentContent(table, segmentation, displaySlots, catalog).has_value());
}

TEST(ChromatinPresenter, WeightLinesFollowTheTrackMatchedToEachSlot) {
    const cx::ContrastiveHmmResult result = threeStates();
    const StateCatalog catalog = catalogOf(result);
    WeightSweep sweep;
    sweep.gammas = {0.0, 1.0};
    // Track order reversed relative to the components.
    Eigen::MatrixXd profiles = result.markProbabilities;
    profiles.row(0) = result.markProbabilities.row(2);
    profiles.row(2) = result.markProbabilities.row(0);
    Eigen::VectorXd w0(3);
    w0 << 0.1, 0.5, 0.4;
    Eigen::VectorXd w1(3);
    w1 << -0.2, 0.5, 0.3;
    sweep.weights = {w0, w1};
    sweep.profiles = {profiles, profiles};
    sweep.specificInvalidMass = {0.0, 0.2};
    const WeightLines chart = weightLines(sweep, 1.0, catalog);
    ASSERT_TRUE(chart.isValid());
    ASSERT_EQ(chart.lines.size(), 3);
    for (int s = 0; s < 3; ++s) {
        const int component = catalog.componentOfSlot(s);
        const int track = 2 - component; // the reversal above
        EXPECT_EQ(chart.trackOfSlot[static_cast<size_t>(s)], track);
        ASSERT_EQ(chart.lines[s].points.size(), 2);
        EXPECT_EQ(chart.lines[s].points[1].y(), w1[track]);
        EXPECT_EQ(chart.lines[s].name, catalog.name(s));
    }
    ASSERT_EQ(chart.unreliable.size(), 1);
    EXPECT_DOUBLE_EQ(chart.unreliable[0].first, 0.5);
    EXPECT_DOUBLE_EQ(chart.unreliable[0].second, 1.0);
    sweep.weights.front().resize(2); // another K: does not fit the catalog
    sweep.weights.back().resize(2);
    EXPECT_FALSE(weightLines(sweep, 1.0, catalog).isValid());
}

TEST(ChromatinPresenter, UnreliableRangesReachHalfwayAndMerge) {
    const QVector<double> gammas = {0.0, 0.5, 1.0, 1.5, 2.0};
    const auto ranges = unreliableRanges(gammas, {0, 1, 1, 0, 1});
    ASSERT_EQ(ranges.size(), 2);
    EXPECT_DOUBLE_EQ(ranges[0].first, 0.25);
    EXPECT_DOUBLE_EQ(ranges[0].second, 1.25);
    EXPECT_DOUBLE_EQ(ranges[1].first, 1.75);
    EXPECT_DOUBLE_EQ(ranges[1].second, 2.0);
    EXPECT_TRUE(unreliableRanges(gammas, {0, 0, 0, 0, 0}).isEmpty());
}

TEST(ChromatinPresenter, BootstrapBandsAndStabilityReachTheChartAndTheHeatmap) {
    const cx::ContrastiveHmmResult result = threeStates();
    const StateCatalog catalog = catalogOf(result);
    // A two-point path whose components are the result's, identities 0, 1, 2 at both points.
    auto path = std::make_shared<cx::HmmPath>();
    path->gammas = {0.0, 1.0};
    path->solutions = {result, result};
    path->ids = {{0, 1, 2}, {0, 1, 2}};
    path->continued = {0, 1};
    path->numIdentities = 3;
    WeightSweep sweep;
    sweep.gammas = {0.0, 1.0};
    Eigen::MatrixXd profiles = result.markProbabilities; // tracks reversed, as the sweep may do
    profiles.row(0) = result.markProbabilities.row(2);
    profiles.row(2) = result.markProbabilities.row(0);
    Eigen::VectorXd w(3);
    w << result.weights[2], result.weights[1], result.weights[0];
    sweep.weights = {w, w};
    sweep.profiles = {profiles, profiles};
    sweep.specificInvalidMass = {0.0, 0.0};
    sweep.path = path;
    // Without a bootstrap: no bands, no stability.
    EXPECT_TRUE(weightLines(sweep, 1.0, catalog).lines[0].lower.isEmpty());
    EXPECT_TRUE(slotStabilities(sweep, 1.0, catalog).isEmpty());
    auto bootstrap = std::make_shared<cx::HmmPathBootstrap>();
    bootstrap->replicates = 20;
    bootstrap->gammas = path->gammas;
    bootstrap->weightLo = {{0.25, 0.45, -0.3}, {0.2, 0.4, std::nan("")}};
    bootstrap->weightHi = {{0.35, 0.55, -0.1}, {0.4, 0.6, std::nan("")}};
    bootstrap->stability = {{1.0, 1.0, 0.3}, {1.0, 0.9, 0.3}};
    bootstrap->identityStability = {1.0, 0.95, 0.3}; // component 2 (background-like) unstable
    sweep.bootstrap = bootstrap;
    const WeightLines chart = weightLines(sweep, 1.0, catalog);
    ASSERT_TRUE(chart.isValid());
    const QVector<double> stability = slotStabilities(sweep, 1.0, catalog);
    ASSERT_EQ(stability.size(), 3);
    for (int s = 0; s < 3; ++s) {
        const int component = catalog.componentOfSlot(s);
        EXPECT_EQ(stability[s], bootstrap->identityStability[static_cast<size_t>(component)]);
        const auto& line = chart.lines[s];
        ASSERT_EQ(line.lower.size(), 2);
        ASSERT_EQ(line.upper.size(), 2);
        EXPECT_EQ(line.lower[0].y(), bootstrap->weightLo[0][static_cast<size_t>(component)]);
        EXPECT_EQ(line.upper[0].y(), bootstrap->weightHi[0][static_cast<size_t>(component)]);
        if (component == 2) {
            // Fewer than 2 matched resamples (NaN band): the band collapses onto the line.
            EXPECT_EQ(line.lower[1].y(), result.weights[2]);
            EXPECT_EQ(line.upper[1].y(), result.weights[2]);
            EXPECT_EQ(line.name, catalog.name(s) + QStringLiteral(" ⚠ 30 %"));
        } else {
            EXPECT_EQ(line.lower[1].y(), bootstrap->weightLo[1][static_cast<size_t>(component)]);
            EXPECT_EQ(line.name, catalog.name(s));
        }
    }
    // The heatmap flags the unstable state like an invalid one and says why; stable ones get
    // their stability in the note.
    const StateMatrixModel::Content content =
        emissionContent(result, catalog, kPresenterMarks, stability);
    for (int s = 0; s < 3; ++s) {
        const int component = catalog.componentOfSlot(s);
        EXPECT_EQ(content.rowFlagged[s], component == 2);
        EXPECT_TRUE(
            content.rowNotes[s].contains(component == 2 ? "unstable" : "bootstrap stability"))
            << content.rowNotes[s].toStdString();
    }
    // An unstable foreground-specific state is named in the subtitle.
    bootstrap->identityStability = {0.2, 0.95, 0.9};
    const QString subtitle =
        contrastiveSubtitle(result, catalog, {}, slotStabilities(sweep, 1.0, catalog));
    EXPECT_TRUE(subtitle.contains("unstable under the bootstrap: " +
                                  catalog.name(catalog.slotOfComponent(0))))
        << subtitle.toStdString();
    EXPECT_EQ(unstableSuffix(0.5), QString());
    EXPECT_EQ(unstableSuffix(std::nan("")), QString());
}

namespace {

cx::Rgb solid(const QColor& colour) {
    return cx::Rgb{static_cast<std::uint8_t>(colour.red()),
                   static_cast<std::uint8_t>(colour.green()),
                   static_cast<std::uint8_t>(colour.blue())};
}

StateMatrixModel::Content threeSpectralRows() {
    StateMatrixModel::Content content;
    content.values.resize(3, 4);
    content.values << 0.9, 0.1, 0.0, 0.0, //
        0.0, 0.0, 0.8, 0.1,               //
        0.01, 0.01, 0.01, 0.01;
    content.rowLabels = {QStringLiteral("Promoter"), QStringLiteral("Polycomb"),
                         QStringLiteral("Quiescent")};
    content.rowColours = {QColor(Qt::red), QColor(Qt::gray), QColor(Qt::white)};
    content.rowWeights = {0.1, 0.2, -0.05};
    content.rowDimmed = {false, false, true};
    content.rowFlagged = {false, true, false};
    content.rowSlots = {0, 1, 2};
    content.rowNotes = {QString(), QString(), QString()};
    return content;
}

} // namespace

TEST(ChromatinPresenter, RefinedReferenceRowsKeepTheirNamesUnlessTheyMovedBeyondTheIdentityRule) {
    const StateMatrixModel::Content spectral = threeSpectralRows();
    const std::vector<std::string> marks = {"H3K4me3", "H3K27ac", "H3K27me3", "H3K36me3"};
    cx::RefinedHmm refined;
    refined.markProbabilities.resize(2, 4);
    // State 0 continues "Polycomb" (largest change 0.1); state 1 is nearest "Promoter" but its
    // H3K27ac and H3K36me3 rose by 0.7: beyond the 0.5 rule, a new state.
    refined.markProbabilities << 0.0, 0.05, 0.7, 0.1, //
        0.9, 0.8, 0.0, 0.7;
    refined.occupancy = Eigen::Vector2d(0.35, 0.65);
    const auto out = refinedReferenceContent(spectral, refined, marks);
    ASSERT_EQ(out.values.rows(), 3);
    // Row order is the spectral panel's; a state of the refinement only is no contrastive row.
    EXPECT_EQ(out.rowSlots, (QVector<int>{-1, 1, 2}));
    EXPECT_EQ(out.values.row(1), refined.markProbabilities.row(0));
    EXPECT_EQ(out.rowLabels[1], QStringLiteral("Polycomb"));
    EXPECT_EQ(out.rowColours[1], QColor(Qt::gray));
    EXPECT_DOUBLE_EQ(out.rowWeights[1], 0.35);
    EXPECT_FALSE(out.rowFlagged[1]) << "an HMM state is valid";
    EXPECT_EQ(out.values.row(0), refined.markProbabilities.row(1));
    // Said what it is — a state of the refined model only — not an unexplained "· new".
    EXPECT_EQ(out.rowLabels[0], QStringLiteral("Active promoter (Baum–Welch only)"));
    for (int r : {1, 2}) {
        EXPECT_FALSE(cx::coloursClash(solid(out.rowColours[0]), solid(out.rowColours[r]))) << r;
    }
    // Nor the colour of a state the contrastive panel shows.
    const auto avoiding =
        refinedReferenceContent(spectral, refined, marks, {QColor(0xe0, 0x1b, 0x1b)});
    EXPECT_FALSE(cx::coloursClash(solid(avoiding.rowColours[0]), solid(QColor(0xe0, 0x1b, 0x1b))));
    EXPECT_DOUBLE_EQ(out.rowWeights[0], 0.65);
    // The row without a refined partner stays, dimmed, weight 0.
    EXPECT_EQ(out.values.row(2), spectral.values.row(2));
    EXPECT_TRUE(out.rowDimmed[2]);
    EXPECT_DOUBLE_EQ(out.rowWeights[2], 0.0);
    // No name twice.
    for (const QString& label : out.rowLabels) {
        EXPECT_EQ(out.rowLabels.count(label), 1) << label.toStdString();
    }
    // Mismatched shapes: the spectral rows unchanged.
    cx::RefinedHmm wide;
    wide.markProbabilities = Eigen::MatrixXd::Zero(4, 4);
    wide.occupancy = Eigen::Vector4d::Constant(0.25);
    EXPECT_EQ(refinedReferenceContent(spectral, wide, marks).values, spectral.values);
}

TEST(ChromatinPresenter, RefinedReferenceRowKeepsItsNameAndColourWhenItsMarksReadAsAnotherClass) {
    const StateMatrixModel::Content spectral = threeSpectralRows();
    const std::vector<std::string> marks = {"H3K4me3", "H3K27ac", "H3K27me3", "H3K36me3"};
    cx::RefinedHmm refined;
    refined.markProbabilities.resize(3, 4);
    // Rows 0 and 1 barely move; the spectral "Quiescent" row (all marks 0.01) gains H3K36me3
    // 0.4 and H3K4me3 0.3 — within the identity rule (largest change 0.39): the same state,
    // which keeps its name and colour (a name taken from the new marks under the old colour
    // was how "Low signal" came out green and "Weak enhancer" orange); the note says how its
    // marks read now.
    refined.markProbabilities << 0.85, 0.15, 0.0, 0.0, //
        0.0, 0.05, 0.75, 0.1,                          //
        0.3, 0.05, 0.0, 0.4;
    refined.occupancy = Eigen::Vector3d(0.2, 0.3, 0.5);
    const auto out = refinedReferenceContent(spectral, refined, marks);
    ASSERT_EQ(out.values.rows(), 3);
    EXPECT_EQ(out.rowLabels, spectral.rowLabels);
    EXPECT_EQ(out.rowColours, spectral.rowColours);
    EXPECT_TRUE(out.rowNotes[2].contains(QStringLiteral("Txn elongation")))
        << out.rowNotes[2].toStdString();
    // Two refined states that both moved beyond the rule and read as one class: told apart by
    // a mark, in two colours.
    cx::RefinedHmm twins;
    twins.markProbabilities.resize(3, 4);
    twins.markProbabilities << 0.0, 0.0, 0.0, 0.9, //
        0.0, 0.05, 0.75, 0.1,                      //
        0.0, 0.0, 0.0, 0.6;
    twins.occupancy = Eigen::Vector3d(0.2, 0.3, 0.5);
    const auto both = refinedReferenceContent(spectral, twins, marks);
    for (const QString& label : both.rowLabels) {
        EXPECT_EQ(both.rowLabels.count(label), 1) << label.toStdString();
        EXPECT_FALSE(label.contains(QRegularExpression(QStringLiteral("\\s\\d+$"))))
            << label.toStdString();
    }
    EXPECT_FALSE(cx::coloursClash(solid(both.rowColours[0]), solid(both.rowColours[2])));
}
