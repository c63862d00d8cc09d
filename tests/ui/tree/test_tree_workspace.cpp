// The Tree workspace on the real chr20 slices of tests/data/tree: open a folder, edit the tree
// (checked live), learn in the background, per-cell heatmaps in one state order, tracks with
// the regions differing from the root (BED export checked against the segmentation), the
// promoter F1 table, the diagram selects cells, session round trip, cancel keeps the result.
#include "gui_test_helpers.h"

#include "core/session/session.h"
#include "ui/dialogs/figure_set_export.h"
#include "ui/tree/tree_controller.h"
#include "ui/tree/tree_diagram_view.h"
#include "ui/tree/tree_workspace.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/state_matrix_model.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace cx::ui;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

namespace {

const QString kFolder = QStringLiteral(CX_TEST_DATA_DIR "/tree");
const QString kTss = kFolder + QStringLiteral("/RefSeqTSS.chr20_3Mb.txt.gz");

void openAndLearn(TreeWorkspace& workspace, const QString& tree, int k) {
    workspace.openTracks({kFolder});
    workspace.setTreeText(tree);
    workspace.statesSpin()->setValue(k);
    workspace.setTssFile(kTss);
    ASSERT_TRUE(workspace.learn());
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }, 60000));
}

/// Writes `session` to DIR/s.cxproj, reads it back and applies its tree section to `restored`
/// (what reopening does); returns the session read.
cx::Session reopenInto(TreeWorkspace& restored, cx::Session& session, const QTemporaryDir& dir,
                       const ErrorRecorder& errors) {
    cx::writeSession(session, dir.filePath("s.cxproj").toStdString());
    cx::Session read = cx::readSession(dir.filePath("s.cxproj").toStdString());
    cx::PathResolver resolver(read.file);
    const auto apply = restored.readSession(read, resolver);
    EXPECT_TRUE(apply) << errors.messages.join('\n').toStdString();
    if (apply) {
        apply();
    }
    return read;
}

} // namespace

TEST(TreeWorkspace, OpensLearnsAndSharesOneStateOrder) {
    ErrorRecorder errors;
    TreeWorkspace workspace;
    EXPECT_EQ(workspace.openPreference(kFolder), 2);
    EXPECT_EQ(workspace.openPreference(kTss), 0);
    workspace.openTracks({kFolder});
    // The proposed star tree over the four cell types of the folder.
    EXPECT_EQ(workspace.treeText(), "H1-hESC>GM12878,HeLa-S3,K562");
    // Checked as typed.
    workspace.setTreeText("H1-hESC>GM12878,Nope");
    EXPECT_TRUE(workspace.treeProblem().contains("no tracks for: Nope"));
    EXPECT_FALSE(workspace.learn());
    EXPECT_EQ(errors.messages.size(), 1); // "Tree: no tracks for: Nope …"
    errors.messages.clear();
    workspace.setTreeText("H1-hESC>GM12878;GM12878>K562");
    EXPECT_TRUE(workspace.treeProblem().isEmpty());
    workspace.statesSpin()->setValue(4);
    workspace.setTssFile(kTss);
    ASSERT_TRUE(workspace.learn());
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }, 60000))
        << errors.messages.join('\n').toStdString();
    ASSERT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();

    const TreeAnalysis& analysis = workspace.analysis();
    ASSERT_EQ(workspace.emissionModels().size(), 3);
    // Every heatmap: the same row names and colours; row r shows the same model state.
    const auto& first = workspace.emissionModels().front()->content();
    for (int v = 0; v < 3; ++v) {
        const auto& content = workspace.emissionModels()[v]->content();
        EXPECT_EQ(content.rowLabels, first.rowLabels);
        EXPECT_EQ(content.rowColours, first.rowColours);
        ASSERT_EQ(content.values.rows(), 4);
        for (int slot = 0; slot < 4; ++slot) {
            const int state = workspace.catalog().componentOfSlot(slot);
            for (Eigen::Index m = 0; m < content.values.cols(); ++m) {
                EXPECT_DOUBLE_EQ(
                    content.values(slot, m),
                    analysis.learned->model.emissions[static_cast<size_t>(v)](state, m));
            }
        }
    }
    // Tracks: one per cell (one chromosome) and a lane per child.
    EXPECT_EQ(workspace.trackView()->laneCount(), 2);
    EXPECT_EQ(analysis.trackData->tracks.size(), 3u);
    // Promoter F1 for the three cell types, in [0, 1].
    ASSERT_EQ(workspace.promoterTable()->rowCount(), 3);
    for (const auto& row : analysis.promoterF1) {
        EXPECT_GE(row.score.f1, 0.0);
        EXPECT_LE(row.score.f1, 1.0);
    }
    EXPECT_FALSE(workspace.figures().isEmpty());
    EXPECT_GE(workspace.tables().size(), 3); // F1, 2 change sets (emissions: figures' data)

    // Clicking a node of the diagram selects that cell.
    TreeDiagramView* diagram = workspace.diagram();
    diagram->resize(300, 160);
    const QPointF k562 = diagram->nodeCentre("K562");
    ASSERT_FALSE(k562.isNull());
    QTest::mouseClick(diagram, Qt::LeftButton, {}, k562.toPoint());
    EXPECT_EQ(workspace.selectedCell(), "K562");
}

// A K the marks cannot carry is refused in the window's words: the field's name "K" and the
// bound, not the command line's "--k" (8 shared marks: at most 9 states).
TEST(TreeWorkspace, TooManyStatesIsRefusedInTheWindowsWords) {
    ErrorRecorder errors;
    TreeWorkspace workspace;
    workspace.openTracks({kFolder});
    workspace.setTreeText("H1-hESC>GM12878,K562");
    workspace.statesSpin()->setValue(12);
    workspace.learn();
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }, 60000));
    ASSERT_EQ(errors.messages.size(), 1) << errors.messages.join('\n').toStdString();
    const QString message = errors.messages.front();
    EXPECT_TRUE(message.contains(QStringLiteral("parameter K: 12 states need 1 <= K <= 9")))
        << message.toStdString();
    EXPECT_FALSE(message.contains(QStringLiteral("--"))) << message.toStdString();
}

// Export All writes each cell type's emissions once: as its heatmap's data beside the figure
// (emissions-CELL.tsv), not again as a table (emissions_CELL.tsv held the same values).
TEST(TreeWorkspace, ExportAllWritesEachEmissionTableOnce) {
    ErrorRecorder errors;
    TreeWorkspace workspace;
    openAndLearn(workspace, "H1-hESC>GM12878,K562", 4);
    ASSERT_EQ(workspace.emissionModels().size(), 3);
    QTemporaryDir folder;
    QString error;
    ASSERT_TRUE(exportAllFigures(workspace, folder.path(), 96, nullptr, &error))
        << error.toStdString();
    QMap<QString, QStringList> filesByText; // TSV text → the files holding it
    for (const QFileInfo& file :
         QDir(folder.path()).entryInfoList({QStringLiteral("*.tsv")}, QDir::Files)) {
        QFile in(file.absoluteFilePath());
        ASSERT_TRUE(in.open(QIODevice::ReadOnly));
        filesByText[QString::fromUtf8(in.readAll())] << file.fileName();
    }
    for (const StateMatrixModel* model : workspace.emissionModels()) {
        const QString cell = model->objectName().section(QLatin1Char('_'), 1);
        const QStringList files = filesByText.value(model->delimited(QLatin1Char('\t')));
        EXPECT_EQ(files, QStringList{QStringLiteral("emissions-%1.tsv").arg(cell.toLower())})
            << cell.toStdString();
    }
    for (auto it = filesByText.cbegin(); it != filesByText.cend(); ++it) {
        EXPECT_EQ(it.value().size(), 1) << "written twice: " << it.value().join(' ').toStdString();
    }
}

// The workspace shows what `contrast-cli tree` writes for the same input and options: every
// cell's emission matrix, row by row (the CLI prints 6 significant digits).
TEST(TreeWorkspace, EmissionsEqualThoseOfTheTreeCommand) {
    ErrorRecorder errors;
    TreeWorkspace workspace;
    openAndLearn(workspace, "H1-hESC>GM12878,K562", 4);
    const TreeAnalysis& analysis = workspace.analysis();
    ASSERT_TRUE(analysis.learned);
    QTemporaryDir dir;
    const QString cli =
        QFileInfo(QStringLiteral(CX_GUI_PATH)).dir().filePath(QStringLiteral("contrast-cli"));
    ASSERT_TRUE(QFileInfo::exists(cli)) << cli.toStdString();
    QProcess process;
    process.start(cli, {"tree", "--tracks", kFolder, "--tree", "H1-hESC>GM12878,K562", "--k", "4",
                        "--tss", kTss, "--no-segments", "--out", dir.path()});
    ASSERT_TRUE(process.waitForFinished(120000));
    ASSERT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
    const std::vector<std::string>& cells = analysis.tracks->cells;
    ASSERT_EQ(cells.size(), 3u);
    for (size_t c = 0; c < cells.size(); ++c) {
        QFile file(
            dir.filePath(QStringLiteral("emissions_%1.tsv").arg(QString::fromStdString(cells[c]))));
        ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << cells[c];
        const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
        const Eigen::MatrixXd& emissions = analysis.learned->model.emissions[c];
        ASSERT_EQ(lines.size(), emissions.rows() + 1) << cells[c];
        for (Eigen::Index state = 0; state < emissions.rows(); ++state) {
            const QStringList fields = lines[static_cast<int>(state) + 1].split('\t');
            ASSERT_EQ(fields.size(), emissions.cols() + 1);
            for (Eigen::Index m = 0; m < emissions.cols(); ++m) {
                EXPECT_NEAR(fields[static_cast<int>(m) + 1].toDouble(), emissions(state, m),
                            1e-5 * std::max(1.0, std::abs(emissions(state, m))))
                    << cells[c] << " state " << state << " mark " << m;
            }
        }
    }
}

namespace {
QStringList linesOf(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}
} // namespace

// One answer from both front ends: the workspace's segmentation export is what
// `contrast-cli tree --state-labels names` writes for the same input — every cell's runs under the
// same names and colours (only the track line's description names the front end), and states.tsv
// names and colours the states as the workspace shows them.
TEST(TreeWorkspace, SegmentationExportIsTheTreeCommandsNamedSegments) {
    ErrorRecorder errors;
    TreeWorkspace workspace;
    openAndLearn(workspace, "H1-hESC>GM12878,K562", 4);
    const TreeAnalysis& analysis = workspace.analysis();
    ASSERT_TRUE(analysis.isValid());
    QTemporaryDir cliDir;
    QTemporaryDir guiDir;
    const QString cli =
        QFileInfo(QStringLiteral(CX_GUI_PATH)).dir().filePath(QStringLiteral("contrast-cli"));
    QProcess process;
    process.start(cli, {"tree", "--tracks", kFolder, "--tree", "H1-hESC>GM12878,K562", "--k", "4",
                        "--tss", kTss, "--state-labels", "names", "--out", cliDir.path()});
    ASSERT_TRUE(process.waitForFinished(120000));
    ASSERT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
    QString error;
    ASSERT_TRUE(workspace.exportSegmentations(guiDir.path(), &error)) << error.toStdString();

    const QStringList states = linesOf(cliDir.filePath(QStringLiteral("states.tsv")));
    ASSERT_EQ(states.size(), 5);
    const StateCatalog& catalog = workspace.catalog();
    for (int state = 0; state < 4; ++state) {
        const QStringList fields = states[state + 1].split('\t');
        ASSERT_EQ(fields.size(), 4);
        const int slot = catalog.slotOfComponent(state);
        const QColor shown = catalog.colour(slot);
        EXPECT_EQ(fields[1], catalog.name(slot));
        EXPECT_EQ(fields[2],
                  QStringLiteral("%1,%2,%3").arg(shown.red()).arg(shown.green()).arg(shown.blue()));
    }
    for (const std::string& cell : analysis.tracks->cells) {
        const QString name = QStringLiteral("segments_%1.bed").arg(QString::fromStdString(cell));
        const QStringList fromCli = linesOf(cliDir.filePath(name));
        const QStringList fromGui = linesOf(guiDir.filePath(name));
        ASSERT_GT(fromGui.size(), 10) << cell;
        EXPECT_EQ(fromGui.filter(QRegularExpression(QStringLiteral("^track "))).size(), 1);
        EXPECT_TRUE(fromGui.front().startsWith(
            QStringLiteral("track name=\"%1\"").arg(QString::fromStdString(cell))));
        EXPECT_EQ(fromGui.mid(1), fromCli.mid(1)) << cell;
    }
    const QString igv = linesOf(guiDir.filePath(QStringLiteral("igv_batch.txt"))).join('\n');
    EXPECT_TRUE(igv.contains(QStringLiteral("segments_K562.bed"))) << igv.toStdString();
    EXPECT_TRUE(igv.contains(QStringLiteral("RefSeqTSS.chr20_3Mb.txt.gz"))) << igv.toStdString();
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(TreeWorkspace, DifferingRegionsBedMatchesTheSegmentation) {
    ErrorRecorder errors;
    TreeWorkspace workspace;
    openAndLearn(workspace, "H1-hESC>GM12878,K562", 4);
    const TreeAnalysis& analysis = workspace.analysis();
    QTemporaryDir dir;
    const QString path = dir.filePath("changes.bed");
    QString error;
    ASSERT_TRUE(workspace.exportDifferingRegions("K562", path, &error)) << error.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    std::int64_t bedBins = 0;
    for (const QString& line : lines) {
        const QStringList fields = line.split('\t');
        ASSERT_GE(fields.size(), 4);
        EXPECT_EQ(fields[0], "chr20");
        bedBins += (fields[2].toLongLong() - fields[1].toLongLong()) / analysis.tracks->binSize;
    }
    const int cell = analysis.tracks->findCell("K562");
    std::int64_t differing = 0;
    const auto& root = analysis.segmentation->states[0][0];
    const auto& child = analysis.segmentation->states[static_cast<size_t>(cell)][0];
    for (size_t t = 0; t < root.size(); ++t) {
        differing += root[t] != child[t] ? 1 : 0;
    }
    EXPECT_GT(differing, 0);
    EXPECT_EQ(bedBins, differing);
    EXPECT_TRUE(workspace.differingRegionsText("H1-hESC").isEmpty()); // the root
}

// The promoter state is one of the K states: the box offers no more than K (a session saved
// with promoter state 13 at K = 6 could not be reopened — found by the random-action run,
// seed 10), and lowering K below the chosen state returns it to auto.
TEST(TreeWorkspace, ThePromoterStateBoxOffersOnlyTheKStates) {
    TreeWorkspace workspace;
    QSpinBox* promoter = nullptr;
    for (QSpinBox* box : workspace.findChildren<QSpinBox*>()) {
        if (box->specialValueText() == QStringLiteral("auto")) {
            promoter = box;
        }
    }
    ASSERT_NE(promoter, nullptr);
    workspace.statesSpin()->setValue(6);
    EXPECT_EQ(promoter->maximum(), 6);
    promoter->setValue(13);
    EXPECT_EQ(promoter->value(), 6);
    promoter->setValue(5);
    workspace.statesSpin()->setValue(4);
    EXPECT_EQ(promoter->value(), 0) << "auto";
    EXPECT_EQ(promoter->maximum(), 4);
    promoter->setValue(3);
    workspace.statesSpin()->setValue(8);
    EXPECT_EQ(promoter->value(), 3) << "a larger K keeps the chosen state";
    EXPECT_EQ(promoter->maximum(), 8);
}

// A tree text being typed that does not parse ("H1-hESC>") is not what a session saves: the
// reader would refuse it, and with it every workspace of the session. The last tree that
// parsed is saved, and the session reopens.
TEST(TreeWorkspace, ASessionSavedWhileTheTreeIsADraftReopens) {
    ErrorRecorder errors;
    QTemporaryDir dir;
    cx::Session session;
    {
        TreeWorkspace workspace;
        workspace.openTracks({kFolder});
        workspace.setTreeText("H1-hESC>GM12878,K562");
        workspace.setTreeText("H1-hESC>GM12878,"); // mid-edit
        ASSERT_FALSE(workspace.treeProblem().isEmpty());
        session.setSection("tree", workspace.saveSession(dir.path().toStdString()));
    }
    TreeWorkspace restored;
    reopenInto(restored, session, dir, errors);
    EXPECT_EQ(restored.treeText(), "H1-hESC>GM12878,K562");
}

TEST(TreeWorkspace, SessionRoundTripRestoresTreeParametersAndNames) {
    ErrorRecorder errors;
    QTemporaryDir dir;
    cx::Session session;
    QStringList names;
    std::vector<double> emissions;
    {
        TreeWorkspace workspace;
        openAndLearn(workspace, "H1-hESC>GM12878;GM12878>K562", 3);
        workspace.emissionModels()[1]->setHeaderData(0, Qt::Vertical, "my state", Qt::EditRole);
        workspace.selectCell("GM12878");
        names = workspace.emissionModels()[2]->content().rowLabels;
        EXPECT_EQ(names[0], "my state");
        const auto& e = workspace.analysis().learned->model.emissions[2];
        emissions.assign(e.data(), e.data() + e.size());
        session.setSection("tree", workspace.saveSession(dir.path().toStdString()));
    }
    TreeWorkspace restored;
    const cx::Session read = reopenInto(restored, session, dir, errors);
    ASSERT_TRUE(waitUntil([&] { return restored.isSettled(); }, 60000))
        << errors.messages.join('\n').toStdString();
    EXPECT_EQ(restored.treeText(), "H1-hESC>GM12878;GM12878>K562");
    EXPECT_EQ(restored.statesSpin()->value(), 3);
    EXPECT_EQ(restored.selectedCell(), "GM12878");
    EXPECT_EQ(restored.emissionModels()[2]->content().rowLabels, names);
    const auto& e = restored.analysis().learned->model.emissions[2];
    EXPECT_EQ(std::vector<double>(e.data(), e.data() + e.size()), emissions);
    EXPECT_EQ(restored.saveSession(dir.path().toStdString()), read.section("tree"));
}

TEST(TreeWorkspace, CancelKeepsThePreviousResult) {
    ErrorRecorder errors;
    TreeWorkspace workspace;
    openAndLearn(workspace, "H1-hESC>GM12878,K562", 4);
    const auto before = workspace.analysis().learned;
    QSignalSpy finished(&workspace, &Workspace::taskFinished);
    workspace.statesSpin()->setValue(5);
    ASSERT_TRUE(workspace.learn());
    workspace.cancelTask();
    ASSERT_TRUE(waitUntil([&] { return finished.count() > 0; }, 60000));
    EXPECT_EQ(finished.front().at(0).value<cx::ui::TaskOutcome>(), cx::ui::TaskOutcome::Cancelled);
    EXPECT_EQ(workspace.analysis().learned, before);
    EXPECT_EQ(workspace.emissionModels().front()->content().values.rows(), 4);
    EXPECT_TRUE(errors.messages.isEmpty());
    // The worker really ran off the GUI thread.
    EXPECT_NE(workspace.controller()->workerThread(), QThread::currentThread());
}
