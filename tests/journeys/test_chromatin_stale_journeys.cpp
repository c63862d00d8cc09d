// Chromatin has no Compute button and no stale marker: every input change recomputes. This
// journey checks that it really does for every view it shows — heatmaps (γ = 0,
// current γ, transitions, overlap enrichment, the neighbourhood of an anchor file), the weights
// chart and the segmentation — when K, γ, the regions (foreground ticks) and the annotation
// files change: each change moves the numbers of the views it feeds, and at the end every
// view's numbers equal those a fresh window computes from the same inputs (the session,
// reopened; one fresh window, as each computes everything under ASan).
// Names and row order follow identities over the history and may differ; the numbers may not.
#include "journey_support.h"

#include "core/io/text_input.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/shell/project_session.h"
#include "ui/views/heatmap_view.h"

#include <QCheckBox>
#include <QFile>
#include <QSpinBox>

#include <cmath>

namespace cx::ui::journeys {

namespace {

QString hmmData(const QString& name) {
    return testData(QStringLiteral("hmm/") + name);
}

/// The first `bins` bins of a bundled track slice, written into `folder` (a shorter journey).
QString firstBins(const QString& name, int bins, const QTemporaryDir& folder) {
    const QStringList lines = QString::fromStdString(cx::readWholeFile(hmmData(name).toStdString()))
                                  .split(QLatin1Char('\n'));
    const QString path = folder.filePath(QString(name).remove(QStringLiteral(".gz")));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write((lines.mid(0, bins + 2).join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
    return path;
}

/// The chromatin workspace shows a complete result: model, sweep, segmentation, enrichment.
bool staleChromatinReady(const ChromatinWorkspace* chromatin) {
    const ChromatinController* controller = chromatin->controller();
    return chromatin->isSettled() && controller->solution().isValid() &&
           controller->sweep().path != nullptr && !controller->isSweepRunning() &&
           controller->segmentation() != nullptr && controller->enrichment().has_value() &&
           chromatin->referenceModel()->rowCount() > 0;
}

/// The numbers of every figure of the workspace (its exported data), labels left out: for each
/// figure, each data row's numeric fields, the rows sorted. What a view shows, whatever its
/// states are called or in which order they are listed.
QMap<QString, QStringList> shownNumbers(const ChromatinWorkspace& chromatin) {
    QMap<QString, QStringList> out;
    for (const WorkspaceFigure& figure : chromatin.figures()) {
        QStringList rows;
        const QStringList lines =
            figure.data ? figure.data().split(QLatin1Char('\n')) : QStringList();
        for (const QString& line : lines.mid(1)) { // the header names columns
            QStringList numbers;
            for (const QString& field : line.split(QLatin1Char('\t'))) {
                bool ok = false;
                const double value = field.toDouble(&ok);
                if (ok && std::isfinite(value)) {
                    numbers << QString::number(value, 'g', 8);
                }
            }
            if (!numbers.isEmpty()) {
                rows << numbers.join(QLatin1Char(' '));
            }
        }
        rows.sort();
        out.insert(figure.name, rows);
    }
    return out;
}

/// Saves the window's session, reopens it in a fresh window and compares every figure's numbers.
void expectSameAsAFreshWindow(JourneyWindow& journey, const QTemporaryDir& folder,
                              const std::string& step) {
    SCOPED_TRACE(step);
    auto* chromatin = journey.workspace<ChromatinWorkspace>();
    const QMap<QString, QStringList> shown = shownNumbers(*chromatin);
    const QString path = folder.filePath(QString::fromStdString(step) + QStringLiteral(".cxproj"));
    ASSERT_TRUE(journey.window.project()->saveTo(path)) << journey.errorText().toStdString();
    JourneyWindow fresh;
    auto* again = fresh.workspace<ChromatinWorkspace>();
    again->controller()->setDecodeDelay(0);
    ASSERT_TRUE(fresh.window.project()->open(path)) << fresh.errorText().toStdString();
    ASSERT_TRUE(waitUntil([&] { return staleChromatinReady(again); }, 60000))
        << fresh.errorText().toStdString();
    const QMap<QString, QStringList> recomputed = shownNumbers(*again);
    EXPECT_EQ(QStringList(shown.keys()), QStringList(recomputed.keys()));
    for (auto it = shown.cbegin(); it != shown.cend(); ++it) {
        EXPECT_FALSE(it.value().isEmpty()) << it.key().toStdString() << " shows nothing";
        EXPECT_EQ(it.value().join(QLatin1Char('\n')).toStdString(),
                  recomputed.value(it.key()).join(QLatin1Char('\n')).toStdString())
            << it.key().toStdString() << " keeps numbers a fresh window does not compute";
    }
}

} // namespace

TEST(ChromatinStaleJourneys, EveryViewFollowsKGammaRegionsAndAnnotationFiles) {
    QTemporaryDir folder;
    JourneyWindow journey;
    journey.window.setCurrentWorkspace(QStringLiteral("chromatin"));
    auto* chromatin = journey.workspace<ChromatinWorkspace>();
    chromatin->controller()->setDecodeDelay(0);
    const QString genes = hmmData(QStringLiteral("RefSeqGene.chr11_slice.bed"));
    const QString tss = hmmData(QStringLiteral("RefSeqTSS2kb.chr11_slice.bed"));
    // An ANCHORFILE (chrom, position, strand): its neighbourhood heatmap joins the views.
    const QString anchors = folder.filePath(QStringLiteral("anchors.txt"));
    {
        QFile file(anchors);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        for (int i = 1; i < 20; ++i) {
            file.write(QStringLiteral("chr11\t%1\t%2\n")
                           .arg(i * 30000 + 1234)
                           .arg(i % 2 == 0 ? QLatin1Char('+') : QLatin1Char('-'))
                           .toUtf8());
        }
    }
    // 0.6 Mb of each slice, no Baum–Welch refinement of the γ = 0 model (its up to 1,000 rounds,
    // in both windows, would take most of the journey's time).
    chromatin->analysisPanel()->refineCheck()->setChecked(false);
    chromatin->openTracks({firstBins(QStringLiteral("GM12878_chr11_slice.txt.gz"), 3000, folder),
                           firstBins(QStringLiteral("K562_chr11_slice.txt.gz"), 3000, folder)});
    chromatin->addAnnotations({genes, tss, anchors});
    AnnotationListModel* annotations = chromatin->annotationModel();
    ASSERT_TRUE(waitUntil([&] { return annotations->rowCount() == 3; }));
    annotations->setChecked(genes, AnnotationListModel::ForegroundColumn, true);
    for (const QString& path : {genes, tss, anchors}) {
        annotations->setChecked(path, AnnotationListModel::EnrichmentColumn, true);
    }
    ASSERT_TRUE(waitUntil([&] { return staleChromatinReady(chromatin); }, 60000))
        << journey.errorText().toStdString();

    // Each change moves the numbers of the views it feeds (the comparison below is not between
    // two unchanged windows): `changed` names the figures whose numbers must differ from before.
    QMap<QString, QStringList> last = shownNumbers(*chromatin);
    const auto expectChanged = [&](const QStringList& changed, const std::string& step) {
        const QMap<QString, QStringList> now = shownNumbers(*chromatin);
        for (const QString& name : changed) {
            ASSERT_TRUE(now.contains(name)) << step << ": no figure " << name.toStdString();
            EXPECT_NE(now.value(name), last.value(name))
                << step << ": " << name.toStdString() << " did not change";
        }
        last = now;
    };

    // K: one state more.
    QSpinBox* k = chromatin->analysisPanel()->componentsSpin();
    const int kBefore = chromatin->controller()->solution().parameters.numComponents;
    k->setValue(kBefore + 1);
    ASSERT_TRUE(waitUntil(
        [&] {
            return staleChromatinReady(chromatin) &&
                   chromatin->controller()->solution().parameters.numComponents == kBefore + 1;
        },
        60000));
    expectChanged({QStringLiteral("reference-heatmap"), QStringLiteral("emission-heatmap"),
                   QStringLiteral("transition-heatmap"), QStringLiteral("enrichment-heatmap"),
                   QStringLiteral("segmentation-view")},
                  "k");

    // γ: the contrastive model and what follows from it.
    chromatin->setGamma(0.5);
    ASSERT_TRUE(waitUntil(
        [&] {
            return staleChromatinReady(chromatin) &&
                   std::abs(chromatin->controller()->solution().gamma - 0.5) < 1e-9;
        },
        60000));
    expectChanged({QStringLiteral("emission-heatmap")}, "gamma");

    // Regions: the TSS ± 2 kb joins the foreground.
    const auto sweepBefore = chromatin->controller()->sweep().path;
    annotations->setChecked(tss, AnnotationListModel::ForegroundColumn, true);
    ASSERT_TRUE(waitUntil(
        [&] {
            return staleChromatinReady(chromatin) &&
                   chromatin->controller()->sweep().path != sweepBefore;
        },
        60000));
    expectChanged({QStringLiteral("weights-chart")}, "regions");

    // Annotation files: genes out of the enrichment.
    const int columnsBefore = chromatin->enrichmentModel()->columnCount();
    annotations->setChecked(genes, AnnotationListModel::EnrichmentColumn, false);
    ASSERT_TRUE(waitUntil(
        [&] {
            return staleChromatinReady(chromatin) &&
                   chromatin->enrichmentModel()->columnCount() < columnsBefore;
        },
        60000));
    expectChanged({QStringLiteral("enrichment-heatmap")}, "annotations");
    expectSameAsAFreshWindow(journey, folder, "annotations");
    EXPECT_TRUE(journey.errors.messages.isEmpty()) << journey.errorText().toStdString();
}

} // namespace cx::ui::journeys
