// Export findings: SVG text keeps the space before γ; the exported segmentation names its
// states; error dialogs keep short window titles; the informative-set curve ends at the |S| the
// summary states. (The chart views' own findings are in tests/ui/charts.)
#include "gui_test_helpers.h"

#include "ui/charts/iteration_chart_view.h"
#include "ui/crowd/crowd_results_panel.h"
#include "ui/framework/error_reporter.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/export_helpers.h"

#include "core/crowd/crowd_methods.h"
#include "core/io/crowd_labels.h"

#include <QChart>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QMessageBox>
#include <QPainter>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QValueAxis>

namespace {

using namespace cx::ui;
using cx::ui::test::chartMessages;

/// The text of every <text> element of an SVG, in order.
QStringList svgTexts(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    QStringList out;
    static const QRegularExpression text(QStringLiteral("<text[^>]*>([^<]*)</text>"));
    for (auto it = text.globalMatch(svg); it.hasNext();) {
        out << it.next().captured(1);
    }
    return out;
}

TEST(SvgExport, TextKeepsItsSpaceBeforeGreekLetters) {
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString path = folder.filePath(QStringLiteral("axis.svg"));
    ImageExportSettings settings;
    settings.format = ImageExportSettings::Format::Svg;
    settings.dpi = 96;
    settings.pixels = QSize(400, 120);
    QString error;
    ASSERT_TRUE(exportFigure(
        path, settings,
        [](QPainter& painter, const QRectF&) {
            QFont font = painter.font();
            font.setPointSizeF(10);
            painter.setFont(font);
            painter.drawText(QPointF(10, 30), QStringLiteral("AUC relative to γ = 0"));
            // Two tick labels on one baseline, far apart: they stay two elements.
            painter.drawText(QPointF(10, 80), QStringLiteral("0"));
            painter.drawText(QPointF(200, 80), QStringLiteral("1"));
        },
        &error))
        << error.toStdString();
    const QStringList texts = svgTexts(path);
    // One element holds the whole line, so a viewer lays "to γ" out with its own space.
    EXPECT_TRUE(texts.contains(QStringLiteral("AUC relative to γ = 0")))
        << texts.join('|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("0")));
    EXPECT_TRUE(texts.contains(QStringLiteral("1")));
}

TEST(SvgExport, MergeLeavesSeparateLabelsAndBadInputAlone) {
    EXPECT_EQ(mergeSvgTextRuns(QByteArray()), QByteArray());
    const QByteArray notSvg("<svg><text x=\"a\">broken</svg>");
    EXPECT_EQ(mergeSvgTextRuns(notSvg), notSvg);
}

std::shared_ptr<cx::ChromatinData> twoCells(std::int64_t bins) {
    auto data = std::make_shared<cx::ChromatinData>();
    data->markNames = {"H3K4me3"};
    data->binSize = 200;
    data->patternValues = {0, 1};
    data->patternCounts = {bins, bins};
    for (const char* cell : {"GM12878", "K562"}) {
        cx::ChromatinTrack track;
        track.cell = cell;
        track.chrom = "chr1";
        track.bins.assign(static_cast<size_t>(bins), 0);
        data->tracks.push_back(track);
    }
    return data;
}

TEST(SegmentationFigure, ExportedFigureHasAStateLegendAndItsIntervals) {
    SegmentationTrackView view;
    auto data = twoCells(100);
    view.setData(data);
    const QSizeF bare = view.figureSize();
    auto segmentation = std::make_shared<SegmentationState>();
    segmentation->data = data;
    segmentation->numStates = 3;
    segmentation->runs = {{{0, 40, 0}, {40, 100, 2}}, {{0, 100, 2}}};
    const QVector<QColor> colours{QColor(224, 27, 27), QColor(20, 200, 20), QColor(30, 60, 220)};
    view.setSegmentation(segmentation, colours,
                         {QStringLiteral("Active promoter"), QStringLiteral("Enhancer"),
                          QStringLiteral("Quiescent")});
    // The legend lists the states drawn (not state 1, absent) and takes room under the tracks.
    EXPECT_EQ(view.shownStates(), (QList<int>{0, 2}));
    const QSizeF size = view.figureSize();
    EXPECT_GT(size.height(), bare.height());
    QImage image(size.toSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        view.paintFigure(painter, QRectF(QPointF(0, 0), size));
    }
    // The promoter's red appears below the tracks only as its legend swatch.
    const int legendTop = static_cast<int>(bare.height() * 0.75);
    bool swatch = false;
    for (int y = legendTop; y < image.height() && !swatch; ++y) {
        for (int x = 0; x < image.width() / 3 && !swatch; ++x) {
            swatch = image.pixelColor(x, y) == colours[0];
        }
    }
    EXPECT_TRUE(swatch) << "no legend swatch of the first state under the tracks";
    // Its data: one line per run in the shown range, in bp, with the state's name.
    const QStringList lines = view.figureData().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 4);
    EXPECT_EQ(lines[0], QStringLiteral("lane\tchrom\tstart\tend\tstate"));
    EXPECT_EQ(lines[1], QStringLiteral("GM12878\tchr1\t0\t8000\tActive promoter"));
    EXPECT_EQ(lines[2], QStringLiteral("GM12878\tchr1\t8000\t20000\tQuiescent"));
    EXPECT_EQ(lines[3], QStringLiteral("K562\tchr1\t0\t20000\tQuiescent"));
    // Without a segmentation: no legend and nothing but the header-less empty data.
    SegmentationTrackView empty;
    EXPECT_TRUE(empty.figureData().isEmpty());
    EXPECT_TRUE(empty.shownStates().isEmpty());
}

TEST(ErrorDialogs, WindowTitleIsShortAndTheHeadlineIsInTheBody) {
    QWidget parent;
    const QString headline = QStringLiteral("Could not open the tracks");
    const QString detail = QStringLiteral("/data/GM12878_chr1_binary.txt:3: 11 values, 10 marks");
    ErrorReporter::report(&parent, headline, detail);
    const auto boxes = parent.findChildren<QMessageBox*>();
    ASSERT_EQ(boxes.size(), 1);
    QMessageBox* box = boxes.front();
    // A window manager cuts long titles in the middle: the title is the application's name.
    EXPECT_FALSE(box->windowTitle().contains(QStringLiteral("Could not")));
    EXPECT_LE(box->windowTitle().size(), 20);
    EXPECT_EQ(box->text(), headline);
    EXPECT_EQ(box->informativeText(), detail);
    box->close();
}

TEST(ConvergenceChart, InformativeSetCurveEndsAtTheStatedSize) {
    const cx::CrowdLabels data =
        cx::readCrowdLabels(CX_SOURCE_DIR "/resources/demo/crowd/answer.csv",
                            CX_SOURCE_DIR "/resources/demo/crowd/truth.csv");
    cx::CrowdOptions options;
    const auto result = std::make_shared<cx::CrowdResult>(
        cx::runCrowdMethod(data, cx::CrowdMethod::StagewiseRefine, options));
    ASSERT_LT(result->informativeSetSize(), data.numWorkers); // bluebird: 29 of 39
    CrowdResultsPanel panel;
    CrowdRun run;
    run.method = cx::CrowdMethod::StagewiseRefine;
    run.result = result;
    run.cmi = Eigen::MatrixXd::Zero(data.numWorkers, data.numWorkers);
    panel.showRun(data, run);
    const auto& lines = panel.informativeChart()->lines();
    ASSERT_FALSE(lines.isEmpty());
    ASSERT_FALSE(lines.front().points.isEmpty());
    // The |S| curve ends where the summary's "29 of 39 informative" says.
    EXPECT_EQ(lines.front().points.back().y(), result->informativeSetSize());
    // The refinement (a full EM over every worker) is its own log-likelihood line, and every
    // iteration of the trace is drawn.
    const auto& likelihood = panel.likelihoodChart()->lines();
    ASSERT_EQ(likelihood.size(), 2);
    EXPECT_EQ(likelihood.back().points.back().x(), static_cast<double>(result->trace.size()));
    // Majority vote: no iterations, the chart says so.
    auto vote = std::make_shared<cx::CrowdResult>(
        cx::runCrowdMethod(data, cx::CrowdMethod::MajorityVote, options));
    run.method = cx::CrowdMethod::MajorityVote;
    run.result = vote;
    panel.showRun(data, run);
    EXPECT_TRUE(panel.likelihoodChart()->figureData().isEmpty());
    EXPECT_TRUE(
        chartMessages(*panel.likelihoodChart()).filter(QStringLiteral("does not iterate")).size() ==
        1);
}

} // namespace
