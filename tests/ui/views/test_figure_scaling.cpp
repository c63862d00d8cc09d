// Figures exported at any DPI are the same picture up to scale: text, cells and lines scale
// together. Each figure is exported at 96 DPI and at 300 DPI
// with the same print size; the 300-DPI PNG, downsampled, must match the 96-DPI one, and so
// must the SVG and PDF renderings. Text boxes must not overlap at either resolution.
#include "ui/charts/auc_chart_view.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/export_helpers.h"
#include "ui/widgets/state_matrix_model.h"

#include "figure_comparison.h"

#include <gtest/gtest.h>

#include <QPainter>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cmath>
#include <memory>

namespace {

using cx::ui::ImageExportSettings;
using cx::ui::test::compareFigures;
using cx::ui::test::FigureDifference;
using cx::ui::test::figureWithBlankedPart;
using cx::ui::test::kFigureBlockPixels;
using cx::ui::test::kSameFigureDifferingBlocks;
using cx::ui::test::kSameFigureMeanBound;
using cx::ui::test::overlappingTextBoxes;
using cx::ui::test::recordTextBoxes;

cx::ui::StateMatrixModel::Content emissionContent() {
    cx::ui::StateMatrixModel::Content content;
    const QStringList marks = {QStringLiteral("H3K4me3"),  QStringLiteral("H3K4me1"),
                               QStringLiteral("H3K27ac"),  QStringLiteral("H3K36me3"),
                               QStringLiteral("H3K27me3"), QStringLiteral("H3K9me3"),
                               QStringLiteral("CTCF"),     QStringLiteral("Input")};
    const QStringList states = {
        QStringLiteral("1 Active promoter"), QStringLiteral("2 Strong enhancer"),
        QStringLiteral("3 Transcribed"),     QStringLiteral("4 Polycomb repressed"),
        QStringLiteral("5 Heterochromatin"), QStringLiteral("6 Quiescent")};
    content.values.resize(states.size(), marks.size());
    for (int r = 0; r < states.size(); ++r) {
        for (int c = 0; c < marks.size(); ++c) {
            content.values(r, c) = std::fmod(0.13 * (r + 1) * (c + 2) + 0.07 * r, 1.0);
        }
    }
    content.rowLabels = states;
    content.columnLabels = marks;
    content.rowColours = {QColor(255, 0, 0),     QColor(250, 202, 0),   QColor(0, 128, 0),
                          QColor(127, 127, 127), QColor(102, 205, 170), QColor(245, 245, 245)};
    content.rowWeights = {0.41, 0.22, 0.12, -0.05, -0.18, 0.003};
    content.rowDimmed = {false, false, false, true, true, false};
    content.rowFlagged = {false, false, false, false, false, true};
    content.rowSlots = {0, 1, 2, 3, 4, 5};
    content.valueName = QStringLiteral("P(present)");
    return content;
}

/// The figures under test, each drawn by its view's paintFigure().
struct Figures {
    Figures() {
        model.setContent(emissionContent());
        heatmap.setModel(&model);
        heatmap.setTitle(QStringLiteral("Emissions"), QStringLiteral("γ = 1.5, K = 6"));
        heatmap.resize(720, 420);
        auc.startSweep({0, 0.5, 1, 1.5, 2, 2.5, 3});
        for (int i = 0; i <= 6; ++i) {
            const double gamma = 0.5 * i;
            auc.addPoint({gamma, 0.6 + 0.05 * i, 1 + 0.08 * i - 0.01 * i * i, i, 0, {}});
        }
        auc.finishSweep();
        auc.setCurrentGamma(1.5);
        QList<cx::ui::StateWeightsChartView::Line> lines;
        for (int s = 0; s < 4; ++s) {
            cx::ui::StateWeightsChartView::Line line;
            line.name = QStringLiteral("state %1").arg(s + 1);
            line.colour = QColor::fromHsv(60 * s, 200, 200);
            for (int i = 0; i <= 30; ++i) {
                const double gamma = 0.1 * i;
                line.points << QPointF(gamma, 0.4 - 0.25 * s + 0.05 * s * gamma);
            }
            lines << line;
        }
        weights.setLines(lines, 0, 3, {{2.5, 3.0}});
        weights.setCurrentGamma(1.0);
    }

    cx::ui::FigurePainter painter(const QString& name) const {
        if (name == QLatin1String("heatmap")) {
            return [this](QPainter& p, const QRectF& t) { heatmap.paintFigure(p, t); };
        }
        if (name == QLatin1String("auc")) {
            return [this](QPainter& p, const QRectF& t) { auc.paintFigure(p, t); };
        }
        return [this](QPainter& p, const QRectF& t) { weights.paintFigure(p, t); };
    }

    cx::ui::StateMatrixModel model;
    cx::ui::HeatmapView heatmap;
    cx::ui::AucChartView auc;
    cx::ui::StateWeightsChartView weights;
};

const QStringList kFigureNames = {QStringLiteral("heatmap"), QStringLiteral("auc"),
                                  QStringLiteral("weights")};
// 7.5 × 4.375 in: 720 × 420 px at 96 DPI, 2250 × 1312 px at 300 DPI.
constexpr double kWidthInches = 7.5;
constexpr double kHeightInches = 4.375;

ImageExportSettings settingsFor(ImageExportSettings::Format format, int dpi) {
    ImageExportSettings settings;
    settings.format = format;
    settings.dpi = dpi;
    settings.pixels = QSize(static_cast<int>(std::lround(kWidthInches * dpi)),
                            static_cast<int>(std::lround(kHeightInches * dpi)));
    return settings;
}

QString exportTo(const QTemporaryDir& directory, const Figures& figures, const QString& name,
                 ImageExportSettings::Format format, int dpi) {
    const QString path = directory.filePath(
        QStringLiteral("%1-%2.%3").arg(name).arg(dpi).arg(ImageExportSettings::suffix(format)));
    QString error;
    EXPECT_TRUE(cx::ui::exportFigure(path, settingsFor(format, dpi), figures.painter(name), &error))
        << error.toStdString();
    return path;
}

/// Where to keep the images for a look (CX_FIGURE_DIR), else a temporary folder.
std::unique_ptr<QTemporaryDir> figureDirectory() {
    const QString keep = qEnvironmentVariable("CX_FIGURE_DIR");
    if (!keep.isEmpty()) {
        auto directory = std::make_unique<QTemporaryDir>(keep + QStringLiteral("/figXXXXXX"));
        directory->setAutoRemove(false);
        return directory;
    }
    return std::make_unique<QTemporaryDir>();
}

TEST(FigureScaling, PngAt300DpiIsThe96DpiPictureSharper) {
    const Figures figures;
    const auto directory = figureDirectory();
    ASSERT_TRUE(directory->isValid());
    for (const QString& name : kFigureNames) {
        SCOPED_TRACE(name.toStdString());
        const QImage low(exportTo(*directory, figures, name, ImageExportSettings::Format::Png, 96));
        const QImage high(
            exportTo(*directory, figures, name, ImageExportSettings::Format::Png, 300));
        ASSERT_EQ(low.size(), QSize(720, 420));
        ASSERT_EQ(high.size(), QSize(2250, 1313));
        const FigureDifference difference = compareFigures(low, high, kFigureBlockPixels);
        EXPECT_LT(difference.meanAbsolute, kSameFigureMeanBound) << difference.describe();
        EXPECT_LT(difference.differentFraction, 0.02) << difference.describe();
        const FigureDifference lost = compareFigures(
            low, figureWithBlankedPart(high, QRectF(0.45, 0.4, 0.1, 0.2)), kFigureBlockPixels);
        // Negative control: a picture that lost a part with ink in it differs more than the
        // faithful one (the check was computed and never asserted).
        if (lost.darkRatio < 0.95) {
            EXPECT_GT(lost.differentFraction, difference.differentFraction) << lost.describe();
        }
        // The heatmap keeps its cell values at print resolution: as much ink as on screen.
        EXPECT_NEAR(difference.darkRatio, 1.0, 0.15) << difference.describe();
    }
}

TEST(FigureScaling, SvgAndPdfShowTheSamePictureAsPng) {
    const QString pdftoppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    const Figures figures;
    const auto directory = figureDirectory();
    ASSERT_TRUE(directory->isValid());
    for (const QString& name : kFigureNames) {
        SCOPED_TRACE(name.toStdString());
        const QImage reference(
            exportTo(*directory, figures, name, ImageExportSettings::Format::Png, 96));
        for (int dpi : {96, 300}) {
            SCOPED_TRACE(dpi);
            const QImage svg = cx::ui::test::renderSvg(
                exportTo(*directory, figures, name, ImageExportSettings::Format::Svg, dpi),
                reference.size());
            const FigureDifference fromSvg = compareFigures(reference, svg, kFigureBlockPixels);
            EXPECT_LT(fromSvg.meanAbsolute, kSameFigureMeanBound) << "SVG: " << fromSvg.describe();
            EXPECT_NEAR(fromSvg.darkRatio, 1.0, 0.2) << "SVG: " << fromSvg.describe();
            if (pdftoppm.isEmpty()) {
                continue; // poppler-utils not installed: the PDF is checked where it is
            }
            const QImage pdf = cx::ui::test::renderPdf(
                pdftoppm,
                exportTo(*directory, figures, name, ImageExportSettings::Format::Pdf, dpi), 96);
            ASSERT_FALSE(pdf.isNull());
            const FigureDifference fromPdf = compareFigures(reference, pdf, kFigureBlockPixels);
            EXPECT_LT(fromPdf.meanAbsolute, kSameFigureMeanBound) << "PDF: " << fromPdf.describe();
            EXPECT_NEAR(fromPdf.darkRatio, 1.0, 0.2) << "PDF: " << fromPdf.describe();
        }
    }
}

TEST(FigureScaling, TextBoxesNeverOverlapAndScaleWithTheFigure) {
    const Figures figures;
    for (const QString& name : kFigureNames) {
        SCOPED_TRACE(name.toStdString());
        const auto low = recordTextBoxes(settingsFor(ImageExportSettings::Format::Png, 96),
                                         figures.painter(name));
        const auto high = recordTextBoxes(settingsFor(ImageExportSettings::Format::Png, 300),
                                          figures.painter(name));
        ASSERT_GT(low.size(), 10u);
        EXPECT_EQ(overlappingTextBoxes(low), QStringList());
        EXPECT_EQ(overlappingTextBoxes(high), QStringList());
        ASSERT_EQ(low.size(), high.size());
        const double scale = 300.0 / 96.0;
        for (size_t i = 0; i < low.size(); ++i) {
            EXPECT_EQ(low[i].text, high[i].text);
            EXPECT_NEAR(low[i].bounds().left() * scale, high[i].bounds().left(), 3)
                << low[i].text.toStdString();
            EXPECT_NEAR(low[i].bounds().width() * scale, high[i].bounds().width(), 3)
                << low[i].text.toStdString();
            EXPECT_NEAR(low[i].bounds().height() * scale, high[i].bounds().height(), 3)
                << low[i].text.toStdString();
        }
    }
}

} // namespace
