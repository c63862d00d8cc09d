// Figures that hold up at print resolution: every exported figure of every workspace
// has a print layout of its own (journal widths, a sane aspect), whatever the window's size;
// the PNG is that print size × DPI; chart legends are complete, axis titles whole and y
// ranges hold every drawn point and marker.
#include "gui_test_helpers.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/dialogs/image_export_dialog.h"
#include "ui/widgets/export_helpers.h"

#include <QChart>
#include <QDir>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSpinBox>
#include <QTest>

#include <cmath>
#include <map>

namespace {

using namespace cx::ui::test;
using cx::ui::ChartFigureLayout;
using cx::ui::StateWeightsChartView;

QJsonObject exportFigures(const QTemporaryDir& home, const QString& tab, const QString& folder,
                          int dpi, const QString& windowSize = QStringLiteral("1440x900")) {
    // Only the shown workspace of the demo: the others would compute for nothing.
    const QString session = demoSubset(home, {tab});
    EXPECT_FALSE(session.isEmpty()) << "resources/demo/demo.cxproj not found";
    const GuiRun run = runGui({session, QStringLiteral("--tab"), tab, QStringLiteral("--size"),
                               windowSize, QStringLiteral("--export-figures"), folder,
                               QStringLiteral("--dpi"), QString::number(dpi)},
                              privateGuiEnvironment(home));
    EXPECT_TRUE(exitedCleanly(run)) << run.errors.toStdString();
    QFile manifest(QDir(folder).filePath(QStringLiteral("figures.json")));
    if (!manifest.open(QIODevice::ReadOnly)) {
        ADD_FAILURE() << "no figures.json in " << folder.toStdString();
        return {};
    }
    return QJsonDocument::fromJson(manifest.readAll()).object();
}

bool isJournalWidth(double millimetres) {
    for (double width : {cx::ui::kSingleColumnMm, cx::ui::kMidColumnMm, cx::ui::kDoubleColumnMm}) {
        if (std::abs(millimetres - width) < 0.5) {
            return true;
        }
    }
    return false;
}

// The old export used each view's on-screen size: the topic charts came out 3316 × 375 px
// (280 × 32 mm) at 300 DPI.
/// Every figure of one workspace's demo, exported at two resolutions (a screen-like 100 DPI
/// and the default print 300 DPI; one tab per test so that ctest runs them in parallel).
void expectPrintSizesAtEveryDpi(const QString& tab) {
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    std::map<QString, QSizeF> printSizes; // mm, per figure, from the first DPI
    for (int dpi : {100, 300}) {
        SCOPED_TRACE(dpi);
        const QString folder = home.filePath(tab + QString::number(dpi));
        const QJsonObject manifest = exportFigures(home, tab, folder, dpi);
        const QJsonArray figures = manifest.value(QStringLiteral("figures")).toArray();
        ASSERT_FALSE(figures.isEmpty());
        for (const QJsonValue& value : figures) {
            const QJsonObject figure = value.toObject();
            const QString name = figure.value(QStringLiteral("name")).toString();
            SCOPED_TRACE(name.toStdString());
            const double widthIn = figure.value(QStringLiteral("width_in")).toDouble();
            const double heightIn = figure.value(QStringLiteral("height_in")).toDouble();
            const QImage image(QDir(folder).filePath(name + QStringLiteral(".png")));
            ASSERT_FALSE(image.isNull());
            // The manifest states the PNG's true print size.
            EXPECT_NEAR(image.width(), widthIn * dpi, 0.51);
            EXPECT_NEAR(image.height(), heightIn * dpi, 0.51);
            EXPECT_NEAR(image.dotsPerMeterX() * 0.0254, dpi, 1);
            const QSizeF mm(widthIn * 25.4, heightIn * 25.4);
            EXPECT_TRUE(isJournalWidth(mm.width())) << mm.width() << " mm wide";
            EXPECT_LE(mm.height(), cx::ui::kMaximumFigureHeightMm + 0.5);
            EXPECT_GE(mm.height(), 25.0);
            // Not a strip: at most 5:1 either way.
            const double aspect = double(image.width()) / image.height();
            EXPECT_LE(aspect, 5.0) << image.width() << " × " << image.height();
            EXPECT_GE(aspect, 0.2) << image.width() << " × " << image.height();
            // The same print size at every DPI (within a pixel of the coarsest).
            if (printSizes.count(name) == 0) {
                printSizes[name] = mm;
            } else {
                EXPECT_NEAR(mm.width(), printSizes[name].width(), 25.4 / 100);
                EXPECT_NEAR(mm.height(), printSizes[name].height(), 25.4 / 100);
            }
        }
    }
}

TEST(FigurePrintLayout, EveryTopicsFigureHasAPrintSizeAtEveryDpi) {
    expectPrintSizesAtEveryDpi(QStringLiteral("topics"));
}

TEST(FigurePrintLayout, EveryChromatinFigureHasAPrintSizeAtEveryDpi) {
    expectPrintSizesAtEveryDpi(QStringLiteral("chromatin"));
}

TEST(FigurePrintLayout, EveryCrowdFigureHasAPrintSizeAtEveryDpi) {
    expectPrintSizesAtEveryDpi(QStringLiteral("crowd"));
}

TEST(FigurePrintLayout, EveryTreeFigureHasAPrintSizeAtEveryDpi) {
    expectPrintSizesAtEveryDpi(QStringLiteral("tree"));
}

TEST(FigurePrintLayout, PrintSizeDoesNotDependOnTheWindowSize) {
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    const QJsonObject small =
        exportFigures(home, QStringLiteral("topics"), home.filePath(QStringLiteral("small")), 300,
                      QStringLiteral("1024x700"));
    const QJsonObject large =
        exportFigures(home, QStringLiteral("topics"), home.filePath(QStringLiteral("large")), 300,
                      QStringLiteral("1900x1150"));
    const QJsonArray a = small.value(QStringLiteral("figures")).toArray();
    const QJsonArray b = large.value(QStringLiteral("figures")).toArray();
    ASSERT_EQ(a.size(), b.size());
    ASSERT_FALSE(a.isEmpty());
    for (int i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(a[i].toObject().value(QStringLiteral("name")).toString().toStdString());
        for (const char* key : {"width_px", "height_px"}) {
            EXPECT_EQ(a[i].toObject().value(QLatin1String(key)).toInt(),
                      b[i].toObject().value(QLatin1String(key)).toInt())
                << key;
        }
    }
}

/// A topics-like weights chart: many named lines (long names), flagged points (one at ω = 2.7,
/// one beyond the weight limit), admissible bounds, unreliable ranges and markers.
struct WeightsChart {
    WeightsChart() {
        QList<StateWeightsChartView::Line> lines;
        for (int t = 0; t < 12; ++t) {
            StateWeightsChartView::Line line;
            line.name = QStringLiteral("T%1 dlrs mln company shares%2")
                            .arg(t + 1)
                            .arg(t % 3 == 0 ? QStringLiteral(" ⚠ ω > 1") : QString());
            line.colour = QColor::fromHsv((37 * t) % 360, 180, 190);
            for (int i = 0; i <= 40; ++i) {
                const double gamma = 0.25 * i;
                line.points << QPointF(gamma, 0.5 - 0.08 * t - 0.01 * t * gamma);
                line.flagged << false;
            }
            lines << line;
        }
        lines[2].points[19].setY(2.7); // γ = 4.75
        lines[2].flagged[19] = true;
        lines[5].points[4].setY(14.0); // beyond the limit: drawn clamped to it
        lines[5].flagged[4] = true;
        chart.setFlagName(QStringLiteral("⚠ inadmissible ω ∉ [−γ, 1]"));
        chart.setAdmissibleBounds(QStringLiteral("bounds ω = 1, ω = −γ"));
        chart.setTexts(QStringLiteral("topic weight ω"), QStringLiteral("Topic weights"));
        chart.setWeightLimit(10);
        chart.setLines(lines, 0, 10, {{1.0, 1.5}, {6.0, 7.0}});
        chart.setMarkers({0.5, 4.75}, QStringLiteral("foreground set changes"));
        chart.setCurrentGamma(2.0);
        // Squeezed on screen, as in the topics panel.
        chart.resize(880, 120);
        for (const auto& line : lines) {
            expected << line.name;
        }
        expected << QStringLiteral("⚠ inadmissible ω ∉ [−γ, 1]")
                 << QStringLiteral("bounds ω = 1, ω = −γ") << QStringLiteral("no valid model")
                 << QStringLiteral("foreground set changes");
    }
    StateWeightsChartView chart;
    QStringList expected;
};

/// Every drawn point inside the plot, markers whole.
void expectPointsInside(const ChartFigureLayout& layout) {
    ASSERT_FALSE(layout.drawnPoints.isEmpty());
    for (const auto& [position, radius] : layout.drawnPoints) {
        EXPECT_GE(position.y() - radius, layout.plotArea.top() - 0.5)
            << "point at y = " << position.y() << " px, radius " << radius << ", plot top "
            << layout.plotArea.top();
        EXPECT_LE(position.y() + radius, layout.plotArea.bottom() + 0.5)
            << "point at y = " << position.y() << " px, radius " << radius << ", plot bottom "
            << layout.plotArea.bottom();
    }
}

void expectCompleteLegend(const ChartFigureLayout& layout, const QStringList& expected,
                          const QSizeF& size) {
    QStringList labels;
    for (const auto& entry : layout.entries) {
        labels << entry.label;
        EXPECT_FALSE(entry.elided) << entry.label.toStdString();
        EXPECT_TRUE(QRectF(QPointF(0, 0), size).contains(entry.box))
            << entry.label.toStdString() << " outside the figure";
        EXPECT_FALSE(entry.box.intersects(layout.plotArea)) << entry.label.toStdString();
    }
    for (int i = 0; i < layout.entries.size(); ++i) {
        for (int j = i + 1; j < layout.entries.size(); ++j) {
            EXPECT_FALSE(layout.entries[i].box.intersects(layout.entries[j].box))
                << layout.entries[i].label.toStdString() << " / "
                << layout.entries[j].label.toStdString();
        }
    }
    EXPECT_EQ(QSet<QString>(labels.begin(), labels.end()),
              QSet<QString>(expected.begin(), expected.end()));
    EXPECT_EQ(labels.size(), expected.size());
}

TEST(FigurePrintLayout, WeightsFigureHasItsWholeLegendTitlesAndMarkers) {
    WeightsChart weights;
    const QSizeF size = weights.chart.figureSize();
    EXPECT_NEAR(size.width(), cx::ui::kDoubleColumnMm * cx::ui::kLogicalPerMm, 0.5);
    EXPECT_LT(size.width() / size.height(), 2.5);
    const ChartFigureLayout layout = weights.chart.figureLayout(size);
    expectCompleteLegend(layout, weights.expected, size);
    EXPECT_TRUE(layout.elidedTexts.isEmpty())
        << layout.elidedTexts.join(QLatin1Char('|')).toStdString();
    expectPointsInside(layout);
    EXPECT_GE(layout.yMaximum, 2.7);
    // A single-column size chosen in the export dialog keeps every entry too.
    const QSizeF single(cx::ui::kSingleColumnMm * cx::ui::kLogicalPerMm,
                        110 * cx::ui::kLogicalPerMm);
    const ChartFigureLayout narrow = weights.chart.figureLayout(single);
    expectCompleteLegend(narrow, weights.expected, single);
    EXPECT_TRUE(narrow.elidedTexts.isEmpty())
        << narrow.elidedTexts.join(QLatin1Char('|')).toStdString();
    expectPointsInside(narrow);
}

TEST(FigurePrintLayout, WeightsRangeOnScreenHoldsEveryFlaggedMarker) {
    WeightsChart weights;
    weights.chart.resize(880, 260);
    weights.chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&weights.chart));
    QCoreApplication::processEvents();
    const auto [low, high] = weights.chart.weightRange();
    EXPECT_GT(high, 2.7);
    EXPECT_GE(high, 10.0); // the marker beyond the limit, clamped to it
    EXPECT_LE(low, 0.5 - 0.08 * 11 - 0.01 * 11 * 10);
    // The marker at ω = 2.7 is not on the plot's edge: its whole ring is inside.
    QChart* chart = weights.chart.chart();
    const QRectF plot = chart->plotArea();
    const QList<QAbstractSeries*> series = chart->series();
    const QPointF top = chart->mapToPosition(QPointF(4.75, 10.0), series.front());
    EXPECT_GT(top.y() - 4.5, plot.top() - 0.5);
}

TEST(FigurePrintLayout, AucFigureKeepsItsMarkersAndTitleWhole) {
    cx::ui::AucChartView auc;
    auc.startSweep({0, 0.25, 0.5, 0.75, 1, 1.25, 1.5});
    for (int i = 0; i <= 6; ++i) {
        // The largest relative AUC carries an inadmissible ring.
        auc.addPoint({0.25 * i, 0.6, i == 1 ? 1.165 : 1 - 0.01 * i, 1, i == 1 ? 2 : 0, {}});
    }
    auc.finishSweep();
    auc.setCurrentGamma(0.25);
    auc.resize(880, 140);
    const QSizeF size = auc.figureSize();
    EXPECT_NEAR(size.width(), cx::ui::kSingleColumnMm * cx::ui::kLogicalPerMm, 0.5);
    const ChartFigureLayout layout = auc.figureLayout(size);
    EXPECT_TRUE(layout.elidedTexts.isEmpty())
        << layout.elidedTexts.join(QLatin1Char('|')).toStdString();
    expectPointsInside(layout);
    QStringList labels;
    for (const auto& entry : layout.entries) {
        labels << entry.label;
    }
    EXPECT_TRUE(labels.contains(QStringLiteral("⚠ component of inadmissible weight")))
        << labels.join(QLatin1Char('|')).toStdString();
}

TEST(FigurePrintLayout, SqueezedChartsOnScreenShortenAxisTitlesInsteadOfCuttingThem) {
    cx::ui::AucChartView auc;
    auc.startSweep({0, 1, 2});
    for (int i = 0; i <= 2; ++i) {
        auc.addPoint({double(i), 0.6, 1 + 0.05 * i, 1, 0, {}});
    }
    auc.finishSweep();
    WeightsChart weights;
    for (QChartView* view :
         {static_cast<QChartView*>(&auc), static_cast<QChartView*>(&weights.chart)}) {
        view->resize(880, 140);
        view->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(view));
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        for (const QGraphicsItem* item : view->scene()->items()) {
            if (const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
                text && text->isVisible()) {
                EXPECT_FALSE(text->toPlainText().endsWith(QLatin1String("...")))
                    << text->toPlainText().toStdString();
            }
        }
    }
}

TEST(FigurePrintLayout, SingleFigureExportStartsAtThePrintLayoutAndFollowsTheDpi) {
    const QSizeF printSize(cx::ui::kSingleColumnMm * cx::ui::kLogicalPerMm,
                           70 * cx::ui::kLogicalPerMm);
    cx::ui::ImageExportDialog dialog(nullptr, printSize);
    EXPECT_TRUE(dialog.usesPrintLayout());
    for (int resolution : {150, 300, 600}) {
        // The DPI box is the third spin box (width, height, DPI).
        const auto spins = dialog.findChildren<QSpinBox*>();
        ASSERT_EQ(spins.size(), 3);
        spins[2]->setValue(resolution);
        EXPECT_TRUE(dialog.usesPrintLayout());
        EXPECT_EQ(dialog.settings().pixels, cx::ui::figurePixels(printSize, resolution));
        EXPECT_NEAR(dialog.settings().pixels.width(), 89 / 25.4 * resolution, 1);
    }
}

} // namespace
