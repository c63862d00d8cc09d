// contrast-explorer --demo --export-figures DIR --dpi N: the whole figure set of the shown
// workspace, headless; at 96 and 300 DPI the same pictures up to scale.
#include "figure_comparison.h"
#include "gui_test_helpers.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

using namespace cx::ui::test;

QJsonObject exportDemo(const QTemporaryDir& home, const QString& tab, const QString& folder,
                       int dpi) {
    const GuiRun run = runGui({QStringLiteral("--demo"), QStringLiteral("--tab"), tab,
                               QStringLiteral("--export-figures"), folder, QStringLiteral("--dpi"),
                               QString::number(dpi)},
                              privateGuiEnvironment(home));
    EXPECT_TRUE(exitedCleanly(run));
    QFile manifest(QDir(folder).filePath(QStringLiteral("figures.json")));
    if (!manifest.open(QIODevice::ReadOnly)) {
        ADD_FAILURE() << "no figures.json in " << folder.toStdString();
        return {};
    }
    return QJsonDocument::fromJson(manifest.readAll()).object();
}

TEST(ExportAllFigures, HeadlessChromatinSetIsTheSameAt96And300Dpi) {
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    const QString low = home.filePath(QStringLiteral("low"));
    const QString high = home.filePath(QStringLiteral("high"));
    const QJsonObject lowManifest = exportDemo(home, QStringLiteral("chromatin"), low, 96);
    const QJsonObject highManifest = exportDemo(home, QStringLiteral("chromatin"), high, 300);
    EXPECT_EQ(highManifest.value(QStringLiteral("dpi")).toInt(), 300);
    const QJsonArray figures = highManifest.value(QStringLiteral("figures")).toArray();
    // Emission, transition and enrichment heatmaps, the weights chart, the segmentation track.
    EXPECT_GE(figures.size(), 5);
    EXPECT_EQ(figures.size(), lowManifest.value(QStringLiteral("figures")).toArray().size());
    EXPECT_GE(highManifest.value(QStringLiteral("tables")).toArray().size(), 1);
    for (const QJsonValue& value : figures) {
        const QString name = value.toObject().value(QStringLiteral("name")).toString();
        SCOPED_TRACE(name.toStdString());
        for (const char* suffix : {".png", ".svg", ".pdf"}) {
            EXPECT_GT(QFileInfo(QDir(high).filePath(name + QLatin1String(suffix))).size(), 500);
        }
        const QImage small(QDir(low).filePath(name + QStringLiteral(".png")));
        const QImage large(QDir(high).filePath(name + QStringLiteral(".png")));
        ASSERT_FALSE(small.isNull());
        ASSERT_FALSE(large.isNull());
        EXPECT_NEAR(large.width(), small.width() * 300.0 / 96, 2);
        EXPECT_NEAR(large.dotsPerMeterX() * 0.0254, 300, 1);
        // Compared over 4 × 4-pixel blocks of the 96-DPI picture: where every lane, cell, line
        // and label is and its colour. Per pixel, the anti-aliased edges count too, and a
        // segmentation has as many as the demo's numbers on that machine give it short runs.
        const FigureDifference difference = compareFigures(small, large, kFigureBlockPixels);
        EXPECT_LT(difference.differentFraction, kSameFigureDifferingBlocks)
            << difference.describe();
        EXPECT_LT(difference.meanAbsolute, kSameFigureMeanBound) << difference.describe();
        // Ink: a segmentation at 96 DPI draws each pixel's majority state, so its ink differs
        // from the 300-DPI picture's by as much as the data has short runs; every other figure
        // keeps its ink.
        if (!name.startsWith(QStringLiteral("segmentation"))) {
            EXPECT_NEAR(difference.darkRatio, 1.0, 0.2) << difference.describe();
        }
        // The comparison sees a figure that lost a part with ink in it (a tenth of its width,
        // a fifth of its height, in the middle: a lane, cells or a legend gone).
        const FigureDifference lost = compareFigures(
            small, figureWithBlankedPart(large, QRectF(0.45, 0.4, 0.1, 0.2)), kFigureBlockPixels);
        // (Only where the blanked part held ink: a transition matrix's near-zero cells are
        // nearly white, and blanking them removes under 5 % of the ink.)
        if (lost.darkRatio < 0.95) {
            EXPECT_GE(lost.differentFraction, kSameFigureDifferingBlocks) << lost.describe();
        }
    }
}

TEST(ExportAllFigures, HeadlessTopicsSetStatesTheAnalysis) {
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    const QString folder = home.filePath(QStringLiteral("topics"));
    const QJsonObject manifest = exportDemo(home, QStringLiteral("topics"), folder, 150);
    EXPECT_EQ(manifest.value(QStringLiteral("workspace")).toString(), QStringLiteral("Topics"));
    const QJsonObject analysis = manifest.value(QStringLiteral("analysis")).toObject();
    EXPECT_TRUE(analysis.contains(QStringLiteral("gamma")));
    EXPECT_GT(analysis.value(QStringLiteral("K")).toInt(), 0);
    EXPECT_FALSE(analysis.value(QStringLiteral("foreground_rule")).toString().isEmpty());
    EXPECT_FALSE(manifest.value(QStringLiteral("figures")).toArray().isEmpty());
    EXPECT_FALSE(manifest.value(QStringLiteral("tables")).toArray().isEmpty());
    for (const QJsonValue& table : manifest.value(QStringLiteral("tables")).toArray()) {
        QFile file(QDir(folder).filePath(table.toString()));
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        EXPECT_TRUE(file.readLine().contains('\t')) << table.toString().toStdString();
    }
}

TEST(ExportAllFigures, BadDpiIsRefused) {
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    const GuiRun run =
        runGui({QStringLiteral("--demo"), QStringLiteral("--export-figures"),
                home.filePath(QStringLiteral("x")), QStringLiteral("--dpi"), QStringLiteral("ten")},
               privateGuiEnvironment(home));
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.errors.contains(QStringLiteral("--dpi"))) << run.errors.toStdString();
}

} // namespace
