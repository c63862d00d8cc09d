// File ▸ Export… of one figure (ImageExportDialog::exportViewInteractively) writes, beside the
// image, the values the figure plots (NAME.tsv), as Export All does: the same
// writeFigureData, driven here through the real dialogs.
#include "gui_test_helpers.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/dialogs/image_export_dialog.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTimer>

#include <functional>

namespace {

/// Runs `run` while answering its dialogs as a user would: the size dialog with OK, the file
/// chooser with `file`. Returns the titles of the dialogs it answered.
QStringList answerExportDialogs(const QString& file, const std::function<void()>& run) {
    QStringList seen;
    QTimer answer;
    answer.setInterval(20);
    QObject::connect(&answer, &QTimer::timeout, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal || !modal->isVisible()) {
            return;
        }
        seen << modal->windowTitle();
        if (auto* chooser = qobject_cast<QFileDialog*>(modal)) {
            chooser->selectFile(file);
            static_cast<QDialog*>(chooser)->accept(); // QFileDialog::accept, public in QDialog
        } else if (auto* dialog = qobject_cast<QDialog*>(modal)) {
            dialog->accept();
        }
    });
    answer.start();
    run();
    return seen;
}

QString exportAuc(const cx::ui::AucChartView& chart, const QString& file) {
    QString written;
    answerExportDialogs(file, [&] {
        written = cx::ui::ImageExportDialog::exportViewInteractively(
            nullptr, QStringLiteral("AUC Chart"), QStringLiteral("specificity_auc"), &chart);
    });
    return written;
}

TEST(SingleFigureExport, WritesTheFiguresDataBesideTheImage) {
    QTemporaryDir folder;
    cx::ui::AucChartView auc;
    auc.startSweep({0, 1, 2});
    for (int i = 0; i <= 2; ++i) {
        auc.addPoint({double(i), 0.6 + 0.1 * i, 1 + 0.05 * i, 1, 0, {}});
    }
    auc.finishSweep();
    // A name with a dot in it: the data file is NAME.tsv for NAME.png.
    const QString image = folder.filePath(QStringLiteral("specificity.v2.png"));
    ASSERT_EQ(exportAuc(auc, image), image);
    EXPECT_GT(QFileInfo(image).size(), 0);
    QFile data(folder.filePath(QStringLiteral("specificity.v2.tsv")));
    ASSERT_TRUE(data.open(QIODevice::ReadOnly)) << "no TSV beside the exported figure";
    EXPECT_EQ(QString::fromUtf8(data.readAll()), auc.figureData());
}

TEST(SingleFigureExport, AFigureWithNothingPlottedWritesNoDataFile) {
    QTemporaryDir folder;
    cx::ui::AucChartView empty;
    ASSERT_TRUE(empty.figureData().isEmpty());
    const QString image = folder.filePath(QStringLiteral("empty.svg"));
    EXPECT_EQ(exportAuc(empty, image), image);
    EXPECT_TRUE(QFileInfo::exists(image));
    EXPECT_FALSE(QFileInfo::exists(folder.filePath(QStringLiteral("empty.tsv"))));
}

TEST(SingleFigureExport, AnUnwritableDataFileIsReportedNamingIt) {
    QTemporaryDir folder;
    cx::ui::AucChartView auc;
    auc.startSweep({0});
    auc.addPoint({0.0, 0.7, 1.0, 1, 0, {}});
    auc.finishSweep();
    // A folder where the data file would go: the image is written, the TSV cannot be.
    ASSERT_TRUE(QDir(folder.path()).mkdir(QStringLiteral("auc.tsv")));
    cx::ui::test::ErrorRecorder errors;
    EXPECT_TRUE(exportAuc(auc, folder.filePath(QStringLiteral("auc.png"))).isEmpty());
    ASSERT_EQ(errors.messages.size(), 1);
    EXPECT_TRUE(errors.messages.front().contains(QLatin1String("auc.tsv")))
        << errors.messages.front().toStdString();
}

} // namespace
