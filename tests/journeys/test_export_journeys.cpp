// Journey: open the demo, let every workspace compute, File ▸ Export All Figures in each of the
// four tabs. Every figure has its data beside it (NAME.tsv, non-empty) and
// the values in it are the ones the view on screen holds; tables are named for what they hold
// (no "table.tsv"); each workspace's main results are among the files.
#include "gui_test_helpers.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/charts/iteration_chart_view.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/dialogs/figure_set_export.h"
#include "ui/framework/workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/resource_locator.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>

namespace {

using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

QString readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// Rows of a TSV text, each split into fields (header included).
QList<QStringList> rowsOf(const QString& tsv) {
    QList<QStringList> rows;
    for (const QString& line : tsv.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        rows << line.split(QLatin1Char('\t'));
    }
    return rows;
}

bool near(const QString& text, double value) {
    if (!std::isfinite(value)) {
        return text.isEmpty();
    }
    bool ok = false;
    const double read = text.toDouble(&ok);
    // The files hold 8 to 10 significant digits: equal at that precision.
    return ok && std::abs(read - value) <= 1e-7 * std::max(1.0, std::abs(value));
}

/// The heatmap's file holds every cell of its model, by row and column.
void expectHeatmapValues(const cx::ui::HeatmapView& view, const QString& tsv) {
    const cx::ui::StateMatrixModel* model = view.model();
    ASSERT_NE(model, nullptr);
    const QList<QStringList> rows = rowsOf(tsv);
    ASSERT_EQ(rows.size(), model->rowCount() + 1);
    const int first = model->hasWeights() ? 2 : 1;
    for (int r = 0; r < model->rowCount(); ++r) {
        ASSERT_EQ(rows[r + 1].size(), first + model->columnCount());
        EXPECT_EQ(rows[r + 1][0], model->content().rowLabels.value(r));
        for (int c = 0; c < model->columnCount(); ++c) {
            EXPECT_TRUE(near(rows[r + 1][first + c], model->value(r, c)))
                << "row " << r << " column " << c << ": " << rows[r + 1][first + c].toStdString()
                << " vs " << model->value(r, c);
        }
    }
}

/// A chart's file holds every point of every line, in order.
template <typename Line> void expectLineValues(const QList<Line>& lines, const QString& tsv) {
    const QList<QStringList> rows = rowsOf(tsv);
    qsizetype points = 0;
    for (const Line& line : lines) {
        points += line.points.size();
    }
    ASSERT_EQ(rows.size(), points + 1);
    int row = 1;
    for (const Line& line : lines) {
        for (const QPointF& point : line.points) {
            EXPECT_EQ(rows[row][0], line.name);
            EXPECT_TRUE(near(rows[row][1], point.x())) << rows[row].join(' ').toStdString();
            EXPECT_TRUE(near(rows[row][2], point.y())) << rows[row].join(' ').toStdString();
            ++row;
        }
    }
}

/// The figure `name`'s view among the workspace's children (by objectName, as Export All names
/// its files), or null.
template <typename View> View* viewNamed(const cx::ui::Workspace& workspace, const QString& name) {
    for (View* view : workspace.findChildren<View*>()) {
        QString file = view->objectName();
        file.replace(QRegularExpression(QStringLiteral("([a-z0-9])([A-Z][a-z])")),
                     QStringLiteral("\\1-\\2"));
        file = file.toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
        if (file == name || (file.isEmpty() && name.startsWith(view->figureKind()))) {
            return view;
        }
    }
    return nullptr;
}

TEST(ExportJourney, ExportAllInEveryTabWritesEachFiguresData) {
    ASSERT_FALSE(cx::ui::demoSessionPath().isEmpty()) << "resources/demo/demo.cxproj not found";
    ErrorRecorder errors;
    cx::ui::MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(window.openDemo());
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    // What each workspace's main results are written as (besides its figures' data).
    const QMap<QString, QStringList> mainResults{
        {QStringLiteral("topics"),
         {QStringLiteral("top-words.tsv"), QStringLiteral("weights-chart.tsv")}},
        {QStringLiteral("chromatin"),
         {QStringLiteral("emission-heatmap.tsv"), QStringLiteral("transition-heatmap.tsv"),
          QStringLiteral("segmentation-view.tsv")}},
        {QStringLiteral("crowd"), {QStringLiteral("labels.tsv"), QStringLiteral("workers.tsv")}},
        {QStringLiteral("tree"),
         {QStringLiteral("promoter_f1.tsv"), QStringLiteral("segmentation.tsv")}}};
    for (const QString& key : window.workspaceNames()) {
        SCOPED_TRACE(key.toStdString());
        ASSERT_TRUE(window.setCurrentWorkspace(key));
        cx::ui::Workspace* workspace = window.currentWorkspace();
        ASSERT_TRUE(waitUntil([&] { return workspace->isSettled(); }, 120000))
            << errors.messages.join(QLatin1Char('\n')).toStdString();
        const QString directory = folder.filePath(key);
        QStringList written;
        QString error;
        ASSERT_TRUE(cx::ui::exportAllFigures(*workspace, directory, 96, &written, &error))
            << error.toStdString();
        const QJsonObject manifest =
            QJsonDocument::fromJson(
                readFile(QDir(directory).filePath(QStringLiteral("figures.json"))).toUtf8())
                .object();
        const QJsonArray figures = manifest.value(QStringLiteral("figures")).toArray();
        ASSERT_FALSE(figures.isEmpty());
        for (const QJsonValue& value : figures) {
            const QString name = value.toObject().value(QStringLiteral("name")).toString();
            SCOPED_TRACE(name.toStdString());
            // Beside X.png/svg/pdf: X.tsv, listed, with a header and at least one value.
            EXPECT_EQ(value.toObject().value(QStringLiteral("data")).toString(),
                      name + QStringLiteral(".tsv"));
            const QString tsv = readFile(QDir(directory).filePath(name + QStringLiteral(".tsv")));
            ASSERT_GE(rowsOf(tsv).size(), 2) << "no data beside the figure";
            // The values are those the view holds.
            if (auto* heatmap = viewNamed<cx::ui::HeatmapView>(*workspace, name)) {
                expectHeatmapValues(*heatmap, tsv);
            } else if (auto* weights = viewNamed<cx::ui::StateWeightsChartView>(*workspace, name)) {
                expectLineValues(weights->lines(), tsv);
            } else if (auto* segmentation =
                           viewNamed<cx::ui::SegmentationTrackView>(*workspace, name)) {
                EXPECT_EQ(tsv, segmentation->figureData());
                // Every state the figure's legend lists has its intervals in the file.
                for (const QStringList& row : rowsOf(tsv).mid(1)) {
                    ASSERT_EQ(row.size(), 5);
                    EXPECT_LT(row[2].toLongLong(), row[3].toLongLong());
                }
            } else if (auto* auc = viewNamed<cx::ui::AucChartView>(*workspace, name)) {
                const QList<QStringList> rows = rowsOf(tsv);
                ASSERT_EQ(rows.size(), auc->points().size() + 1);
                for (int i = 0; i < auc->points().size(); ++i) {
                    EXPECT_TRUE(near(rows[i + 1][0], auc->points()[i].gamma));
                    if (auc->points()[i].failure.isEmpty()) {
                        EXPECT_TRUE(near(rows[i + 1][2], auc->points()[i].relativeAuc));
                    }
                }
            } else if (auto* chart = workspace->findChild<cx::ui::IterationChartView*>(name)) {
                expectLineValues(chart->lines(), tsv);
            } else {
                EXPECT_EQ(name, QStringLiteral("tree")) << "a figure the test cannot check";
            }
        }
        // Tables named for what they hold; the main results among the files.
        for (const QJsonValue& table : manifest.value(QStringLiteral("tables")).toArray()) {
            EXPECT_FALSE(table.toString().startsWith(QStringLiteral("table")))
                << table.toString().toStdString();
            EXPECT_GE(rowsOf(readFile(QDir(directory).filePath(table.toString()))).size(), 2)
                << table.toString().toStdString();
        }
        for (const QString& file : mainResults.value(key)) {
            EXPECT_TRUE(QFileInfo::exists(QDir(directory).filePath(file)))
                << file.toStdString() << " missing; wrote " << written.join(' ').toStdString();
        }
    }
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join(QLatin1Char('\n')).toStdString();
}

} // namespace
