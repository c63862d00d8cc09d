// Project sessions in the GUI: save → reopen gives the same numbers and views
// in both workspaces; corrupt, newer and moved-data sessions; atomic save under a failing
// write; the unsaved-changes guard; new tracks after the demo drop the demo's annotations.
#include "chromatin/chromatin_test_helpers.h"
#include "gui_test_helpers.h"

#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"
#include "ui/shell/recent_files.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/views/state_catalog.h"
#include "ui/widgets/state_matrix_model.h"

#include "core/session/session.h"

#include "support/file_size_limit.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>

#include <sys/resource.h>

namespace {

using cx::ui::ChromatinWorkspace;
using cx::ui::MainWindow;
using cx::ui::ProjectSession;
using cx::ui::TopicsWorkspace;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

bool topicsSettled(TopicsWorkspace* topics) {
    return topics->isSettled() && topics->controller()->solution().isValid();
}

bool chromatinSettled(ChromatinWorkspace* chromatin) {
    return chromatin->isSettled() && chromatin->controller()->solution().isValid();
}

/// Waits until topics and chromatin settled and the session's modified check has run; with
/// `everyWorkspace` the demo's crowd and tree too (a result that arrives after a save changes the
/// session — the tree's state names — and marks it modified).
bool settleBoth(MainWindow& window, bool everyWorkspace = false) {
    const bool settled = waitUntil(
        [&] {
            if (everyWorkspace && !cx::ui::test::everyWorkspaceSettled(window)) {
                return false;
            }
            return topicsSettled(window.workspace<cx::ui::TopicsWorkspace>()) &&
                   chromatinSettled(window.workspace<cx::ui::ChromatinWorkspace>());
        },
        90000);
    QTest::qWait(120); // the modified check is coalesced (50 ms)
    return settled;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// What a user sees of both workspaces, to compare before saving and after reopening.
struct Snapshot {
    std::vector<double> topicWeights;
    std::vector<double> topicLambdas;
    std::vector<double> aucs;
    int topWords = 0;
    bool showAll = false;
    double topicsGamma = 0;
    std::vector<double> stateWeights;
    std::vector<double> emissions;
    QStringList stateNames;
    QString chromosome;
    qint64 start = 0;
    qint64 end = 0;
    QList<std::tuple<QString, bool, bool, bool, bool>> annotations;

    static Snapshot of(MainWindow& window) {
        Snapshot s;
        TopicsWorkspace* topics = window.workspace<cx::ui::TopicsWorkspace>();
        const auto& result = *topics->controller()->solution().result;
        s.topicWeights.assign(result.weights.data(), result.weights.data() + result.weights.size());
        s.topicLambdas.assign(result.lambdas.data(), result.lambdas.data() + result.lambdas.size());
        for (const auto& point : topics->controller()->sweepPoints()) {
            s.aucs.push_back(point.auc);
        }
        s.topWords = topics->tablePanel()->model()->topWordCount();
        s.showAll = topics->tablePanel()->showAllAction()->isChecked();
        s.topicsGamma = topics->controller()->gamma();
        ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
        const auto& hmm = *chromatin->controller()->solution().result;
        s.stateWeights.assign(hmm.weights.data(), hmm.weights.data() + hmm.weights.size());
        s.emissions.assign(hmm.markProbabilities.data(),
                           hmm.markProbabilities.data() + hmm.markProbabilities.size());
        s.stateNames = chromatin->catalog().names();
        s.chromosome = chromatin->trackView()->chromosome();
        s.start = chromatin->trackView()->rangeStart();
        s.end = chromatin->trackView()->rangeEnd();
        for (const auto& entry : chromatin->annotationModel()->entries()) {
            s.annotations << std::make_tuple(QFileInfo(entry.path).fileName(), entry.foreground,
                                             entry.background, entry.lane, entry.enrichment);
        }
        return s;
    }
};

void expectSame(const Snapshot& a, const Snapshot& b) {
    EXPECT_EQ(a.topicWeights, b.topicWeights); // exact: the same computation
    EXPECT_EQ(a.topicLambdas, b.topicLambdas);
    // NaN where a γ has no foreground-specific topic: equal when both are NaN.
    ASSERT_EQ(a.aucs.size(), b.aucs.size());
    for (size_t i = 0; i < a.aucs.size(); ++i) {
        EXPECT_TRUE(a.aucs[i] == b.aucs[i] || (std::isnan(a.aucs[i]) && std::isnan(b.aucs[i])))
            << "γ grid point " << i << ": " << a.aucs[i] << " vs " << b.aucs[i];
    }
    EXPECT_EQ(a.topWords, b.topWords);
    EXPECT_EQ(a.showAll, b.showAll);
    EXPECT_EQ(a.topicsGamma, b.topicsGamma);
    EXPECT_EQ(a.stateWeights, b.stateWeights);
    EXPECT_EQ(a.emissions, b.emissions);
    EXPECT_EQ(a.stateNames.join(QStringLiteral(", ")).toStdString(),
              b.stateNames.join(QStringLiteral(", ")).toStdString());
    EXPECT_EQ(a.chromosome, b.chromosome);
    EXPECT_EQ(a.start, b.start);
    EXPECT_EQ(a.end, b.end);
    EXPECT_EQ(a.annotations, b.annotations);
}

/// The demo's topics and chromatin sections only (the tree and crowd sections would compute for
/// nothing in tests of these two workspaces), as a session file in `directory`.
QString demoTopicsAndChromatin(const QTemporaryDir& directory) {
    const QString session = cx::ui::test::demoSubset(
        directory, {QStringLiteral("topics"), QStringLiteral("chromatin")});
    EXPECT_FALSE(session.isEmpty()) << "resources/demo/demo.cxproj not found";
    return session;
}

/// The demo with view state changed in both workspaces, the way a user would.
void openDemoAndEdit(MainWindow& window) {
    window.setSettingsPersistent(false);
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(window.openDemo());
    ASSERT_TRUE(settleBoth(window));
    TopicsWorkspace* topics = window.workspace<cx::ui::TopicsWorkspace>();
    topics->tablePanel()->setTopWordCount(12);
    topics->tablePanel()->setShowAll(true);
    topics->analysisPanel()->setGamma(1.5);
    emit topics->analysisPanel()->gammaChanged(1.5);
    cx::ui::ModelParameters parameters = topics->analysisPanel()->parameters();
    parameters.decomposition = cx::Decomposition::Jennrich;
    topics->analysisPanel()->setParameters(parameters);
    emit topics->analysisPanel()->parametersChanged(parameters);
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    chromatin->analysisPanel()->decompositionCombo()->setCurrentIndex(1); // Jennrich
    chromatin->setGamma(0.5);
    ASSERT_TRUE(settleBoth(window));
    // Rename the second row of the emission heatmap and scroll the track.
    cx::ui::StateMatrixModel* emissions = chromatin->emissionModel();
    ASSERT_GT(emissions->rowCount(), 1);
    ASSERT_TRUE(
        emissions->setHeaderData(1, Qt::Vertical, QStringLiteral("my state"), Qt::EditRole));
    chromatin->trackView()->setRange(6000000, 6400000);
    ASSERT_TRUE(settleBoth(window));
}

TEST(ProjectSession, SaveAndReopenGivesTheSameNumbersAndViews) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString file = directory.filePath(QStringLiteral("analysis.cxproj"));
    Snapshot saved;
    {
        MainWindow window;
        openDemoAndEdit(window);
        EXPECT_TRUE(window.project()->isModified()) << "the demo was edited";
        EXPECT_TRUE(window.isWindowModified());
        EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Demo[*]")));
        ASSERT_TRUE(window.project()->saveTo(file));
        EXPECT_FALSE(window.project()->isModified());
        EXPECT_FALSE(window.isWindowModified());
        EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("analysis.cxproj[*]")))
            << window.windowTitle().toStdString();
        EXPECT_EQ(cx::ui::RecentFiles::entries().front(), QStringList{file});
        saved = Snapshot::of(window);
        EXPECT_TRUE(saved.stateNames.contains(QStringLiteral("my state")));
    }
    // Both workspaces are in the file, with relative paths to the bundled data.
    const cx::Session session = cx::readSession(file.toStdString());
    EXPECT_TRUE(session.hasSection("topics"));
    EXPECT_TRUE(session.hasSection("chromatin"));

    MainWindow reopened;
    reopened.setSettingsPersistent(false);
    reopened.resize(1440, 900);
    reopened.show();
    reopened.openPath(file);
    ASSERT_TRUE(settleBoth(reopened));
    expectSame(saved, Snapshot::of(reopened));
    EXPECT_EQ(
        reopened.workspace<cx::ui::TopicsWorkspace>()->analysisPanel()->parameters().decomposition,
        cx::Decomposition::Jennrich);
    EXPECT_EQ(
        reopened.workspace<cx::ui::TopicsWorkspace>()->controller()->parameters().decomposition,
        cx::Decomposition::Jennrich);
    EXPECT_EQ(
        reopened.workspace<cx::ui::ChromatinWorkspace>()->controller()->parameters().decomposition,
        cx::AsymmetricInit::SimultaneousDiagonalization);
    EXPECT_EQ(reopened.workspace<cx::ui::ChromatinWorkspace>()
                  ->analysisPanel()
                  ->decompositionCombo()
                  ->currentIndex(),
              1);
    EXPECT_FALSE(reopened.project()->isModified()) << "reopening is not a change";
    EXPECT_EQ(reopened.project()->filePath(), QFileInfo(file).absoluteFilePath());
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();

    // Opening the same session again reuses what is loaded: no corpus or track is read again.
    const auto corpus =
        reopened.workspace<cx::ui::TopicsWorkspace>()->controller()->corpus().corpus;
    const auto data = reopened.workspace<cx::ui::ChromatinWorkspace>()->controller()->data().data;
    const int built =
        reopened.workspace<cx::ui::TopicsWorkspace>()->controller()->statistics().enginesBuilt;
    reopened.openPath(file);
    ASSERT_TRUE(settleBoth(reopened));
    EXPECT_EQ(reopened.workspace<cx::ui::TopicsWorkspace>()->controller()->corpus().corpus, corpus);
    EXPECT_EQ(reopened.workspace<cx::ui::ChromatinWorkspace>()->controller()->data().data, data);
    EXPECT_EQ(
        reopened.workspace<cx::ui::TopicsWorkspace>()->controller()->statistics().enginesBuilt,
        built);
    expectSame(saved, Snapshot::of(reopened));

    // The scorer's smoothing is the session's: the demo's word-frequency prior was saved, and a
    // session that names the uniform one (or predates the field) sweeps with it.
    EXPECT_EQ(session.section("topics").at("model").at("smoothing_prior"), "frequency");
    EXPECT_EQ(reopened.workspace<cx::ui::TopicsWorkspace>()->controller()->sweep().smoothing.prior,
              cx::SmoothingPrior::WordFrequency);
    // The sweep's split-half check (cx::splitHalfPath) is on and saved; the shown sweep has it.
    cx::ui::TopicsController* controller =
        reopened.workspace<cx::ui::TopicsWorkspace>()->controller();
    EXPECT_EQ(session.section("topics").at("auc").at("split_half"), true);
    EXPECT_TRUE(controller->sweep().splitHalf);
    ASSERT_TRUE(waitUntil([&] { return controller->lastSweep() != nullptr; }, 60000));
    EXPECT_EQ(controller->lastSweep()->halves.replicates, 2);
    EXPECT_EQ(controller->lastSweep()->halves.gammas, controller->lastSweep()->path.gammas);
    cx::Session uniform = cx::readSession(file.toStdString());
    cx::SessionJson topics = uniform.section("topics");
    topics["model"]["smoothing_prior"] = "uniform";
    // A session saved without the check (`sweep --no-split-half`, or before it existed).
    topics["auc"]["split_half"] = false;
    uniform.setSection("topics", topics);
    const QString uniformFile = directory.filePath(QStringLiteral("uniform.cxproj"));
    cx::writeSession(uniform, uniformFile.toStdString());
    reopened.openPath(uniformFile);
    ASSERT_TRUE(settleBoth(reopened));
    EXPECT_EQ(controller->sweep().smoothing.prior, cx::SmoothingPrior::Uniform);
    EXPECT_FALSE(controller->sweep().splitHalf);
    ASSERT_TRUE(waitUntil(
        [&] {
            return controller->lastSweep() != nullptr &&
                   controller->lastSweep()->halves.replicates == 0;
        },
        60000));
    EXPECT_FALSE(reopened.project()->isModified()) << "reopening is not a change";
}

TEST(ProjectSession, ChromatinMomentRefitIsSavedAndOldSessionsReopenWithoutIt) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString file = directory.filePath(QStringLiteral("refit.cxproj"));
    std::vector<double> savedWeights;
    {
        MainWindow window;
        window.setSettingsPersistent(false);
        window.resize(1440, 900);
        window.show();
        window.openPath(demoTopicsAndChromatin(directory));
        ASSERT_TRUE(settleBoth(window));
        ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
        QCheckBox* refit = chromatin->analysisPanel()->momentFitCheck();
        ASSERT_NE(refit, nullptr);
        EXPECT_FALSE(refit->toolTip().isEmpty());
        EXPECT_TRUE(refit->isEnabled());
        // The demo session has no moment_fit: off, as it was saved.
        EXPECT_FALSE(refit->isChecked());
        EXPECT_EQ(chromatin->controller()->parameters().momentFit, -1);
        const double gamma = chromatin->controller()->gamma();
        // A click re-solves with the refit: the weights account for the data (Σω = 1 − γ).
        QTest::mouseClick(refit, Qt::LeftButton);
        EXPECT_TRUE(refit->isChecked());
        EXPECT_EQ(chromatin->controller()->parameters().momentFit, 0);
        ASSERT_TRUE(waitUntil(
            [&] {
                return chromatinSettled(chromatin) &&
                       chromatin->controller()->solution().parameters.momentFit == 0;
            },
            30000));
        const auto& result = *chromatin->controller()->solution().result;
        EXPECT_NEAR(result.weights.sum(), 1.0 - gamma, 1e-4);
        EXPECT_GT(result.momentResidualSelected, 0.0);
        savedWeights.assign(result.weights.data(), result.weights.data() + result.weights.size());
        QTest::qWait(120);
        EXPECT_TRUE(window.project()->isModified());
        ASSERT_TRUE(window.project()->saveTo(file));
    }
    const cx::Session session = cx::readSession(file.toStdString());
    EXPECT_EQ(session.section("chromatin").at("model").at("moment_fit"), 0);
    EXPECT_EQ(session.section("chromatin").at("model").at("moment_order"), 2);

    MainWindow reopened;
    reopened.setSettingsPersistent(false);
    reopened.resize(1440, 900);
    reopened.show();
    reopened.openPath(file);
    ASSERT_TRUE(settleBoth(reopened));
    ChromatinWorkspace* chromatin = reopened.workspace<cx::ui::ChromatinWorkspace>();
    EXPECT_TRUE(chromatin->analysisPanel()->momentFitCheck()->isChecked());
    EXPECT_EQ(chromatin->controller()->parameters().momentFit, 0);
    const auto& result = *chromatin->controller()->solution().result;
    EXPECT_EQ(
        std::vector<double>(result.weights.data(), result.weights.data() + result.weights.size()),
        savedWeights);
    EXPECT_FALSE(reopened.project()->isModified()) << "reopening is not a change";

    // A session written before the field existed reopens with the refit off.
    cx::Session old = cx::readSession(file.toStdString());
    cx::SessionJson section = old.section("chromatin");
    section["model"].erase("moment_fit");
    old.setSection("chromatin", section);
    const QString oldFile = directory.filePath(QStringLiteral("old.cxproj"));
    cx::writeSession(old, oldFile.toStdString());
    reopened.openPath(oldFile);
    ASSERT_TRUE(settleBoth(reopened));
    EXPECT_FALSE(chromatin->analysisPanel()->momentFitCheck()->isChecked());
    EXPECT_EQ(chromatin->controller()->parameters().momentFit, -1);
    EXPECT_EQ(chromatin->controller()->solution().parameters.momentFit, -1);
    EXPECT_EQ(chromatin->controller()->parameters().momentOrder, 2);
    EXPECT_FALSE(reopened.project()->isModified()) << "reopening is not a change";

    // A section saved with `hmm --moment-order 3` reopens with the third-order refit.
    cx::Session third = cx::readSession(file.toStdString());
    cx::SessionJson thirdSection = third.section("chromatin");
    thirdSection["model"]["moment_order"] = 3;
    third.setSection("chromatin", thirdSection);
    const QString thirdFile = directory.filePath(QStringLiteral("third.cxproj"));
    cx::writeSession(third, thirdFile.toStdString());
    reopened.openPath(thirdFile);
    ASSERT_TRUE(settleBoth(reopened));
    EXPECT_TRUE(chromatin->analysisPanel()->momentFitCheck()->isChecked());
    EXPECT_EQ(chromatin->controller()->parameters().momentOrder, 3);
    EXPECT_EQ(chromatin->controller()->solution().parameters.momentOrder, 3);
    EXPECT_EQ(chromatin->analysisPanel()->parameters().momentOrder, 3);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(ProjectSession, CorruptNewerAndUnlocatableSessionsChangeNothing) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    ASSERT_TRUE(window.openDemo());
    ASSERT_TRUE(settleBoth(window));
    const auto corpus = window.workspace<cx::ui::TopicsWorkspace>()->controller()->corpus().corpus;
    const auto data = window.workspace<cx::ui::ChromatinWorkspace>()->controller()->data().data;
    const auto unchanged = [&] {
        return window.workspace<cx::ui::TopicsWorkspace>()->controller()->corpus().corpus ==
                   corpus &&
               window.workspace<cx::ui::ChromatinWorkspace>()->controller()->data().data == data &&
               window.workspace<cx::ui::ChromatinWorkspace>()->annotationModel()->rowCount() == 7 &&
               window.project()->displayName() == QStringLiteral("Demo");
    };

    const QString corrupt = directory.filePath(QStringLiteral("corrupt.cxproj"));
    cx::ui::test::writeFile(corrupt, "{\n  \"format\": \"contrast-explorer-session\",\n  "
                                     "\"version\": 1,\n  \"workspaces\": {\n");
    window.openPath(corrupt);
    ASSERT_EQ(errors.messages.size(), 1);
    EXPECT_TRUE(errors.messages.last().startsWith(corrupt + QStringLiteral(":5: not valid JSON")))
        << errors.messages.last().toStdString();
    EXPECT_TRUE(unchanged());

    const QString newer = directory.filePath(QStringLiteral("newer.cxproj"));
    cx::ui::test::writeFile(newer, "{\"format\": \"contrast-explorer-session\", \"version\": 7, "
                                   "\"workspaces\": {}}");
    window.openPath(newer);
    ASSERT_EQ(errors.messages.size(), 2);
    EXPECT_TRUE(errors.messages.last().contains(newer + QStringLiteral(": written by a newer")))
        << errors.messages.last().toStdString();
    EXPECT_TRUE(unchanged());

    // A good topics section next to a bad chromatin one: neither is applied.
    const QString half = directory.filePath(QStringLiteral("half.cxproj"));
    cx::ui::test::writeFile(
        half, QStringLiteral("{\"format\": \"contrast-explorer-session\", \"version\": 1, "
                             "\"workspaces\": {\"topics\": {\"corpus\": [{\"path\": \"%1\"}], "
                             "\"foreground\": \"places=usa\", \"background\": {\"mode\": "
                             "\"not_foreground\"}}, \"chromatin\": {\"tracks\": [{\"path\": "
                             "\"gone_binary.txt.gz\"}]}}}")
                  .arg(QStringLiteral(CX_SOURCE_DIR "/resources/demo/reuters/reut2-000.sgm.gz"))
                  .toUtf8());
    window.openPath(half);
    ASSERT_EQ(errors.messages.size(), 3);
    EXPECT_TRUE(
        errors.messages.last().contains(QStringLiteral("/workspaces/chromatin/tracks/0/path: ")))
        << errors.messages.last().toStdString();
    EXPECT_TRUE(errors.messages.last().contains(QStringLiteral("gone_binary.txt.gz")));
    QTest::qWait(200);
    EXPECT_TRUE(unchanged());
}

TEST(ProjectSession, MovedDataIsLocatedOnceAndTheOtherFilesFollow) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    // A project: the slice tracks and BEDs in data/, the session in project/.
    QDir root(directory.path());
    ASSERT_TRUE(root.mkpath(QStringLiteral("data/regions")) &&
                root.mkpath(QStringLiteral("project")));
    QStringList tracks;
    for (const QString& track : cx::ui::test::sliceTracks()) {
        const QString copy = root.filePath(QStringLiteral("data/") + QFileInfo(track).fileName());
        ASSERT_TRUE(QFile::copy(track, copy));
        tracks << copy;
    }
    const QString genes = root.filePath(QStringLiteral("data/regions/genes.bed"));
    ASSERT_TRUE(QFile::copy(cx::ui::test::geneBed(), genes));
    const QString file = root.filePath(QStringLiteral("project/moved.cxproj"));
    {
        MainWindow window;
        window.setSettingsPersistent(false);
        window.show();
        ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
        chromatin->openTracks(tracks);
        ASSERT_TRUE(waitUntil([&] { return chromatin->controller()->data().isValid(); }, 30000));
        chromatin->addAnnotations({genes});
        ASSERT_TRUE(
            waitUntil([&] { return chromatin->controller()->annotation(genes) != nullptr; }));
        chromatin->annotationModel()->setChecked(
            genes, cx::ui::AnnotationListModel::ForegroundColumn, true);
        emit chromatin->annotationModel()->regionsEdited();
        ASSERT_TRUE(waitUntil([&] { return chromatinSettled(chromatin); }, 30000));
        ASSERT_TRUE(window.project()->saveTo(file));
    }
    ASSERT_TRUE(root.rename(QStringLiteral("data"), QStringLiteral("archive")));

    int asked = 0;
    ProjectSession::setLocateHandler([&](const QString& expected, const QString& pointer) {
        ++asked;
        EXPECT_EQ(expected, QDir::cleanPath(tracks.front()));
        EXPECT_EQ(pointer, QStringLiteral("/workspaces/chromatin/tracks/0/path"));
        return root.filePath(QStringLiteral("archive/") + QFileInfo(tracks.front()).fileName());
    });
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    window.openPath(file);
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    const bool settled = waitUntil([&] { return chromatinSettled(chromatin); }, 30000);
    ProjectSession::setLocateHandler([](const QString&, const QString&) { return QString(); });
    ASSERT_TRUE(settled) << errors.messages.join('\n').toStdString();
    EXPECT_EQ(asked, 1) << "the second track and the BED follow the first answer";
    EXPECT_EQ(chromatin->controller()->data().paths.size(), 2);
    EXPECT_TRUE(chromatin->controller()->data().paths[1].contains(QStringLiteral("/archive/")));
    ASSERT_EQ(chromatin->annotationModel()->rowCount(), 1);
    EXPECT_TRUE(chromatin->annotationModel()->entries()[0].path.contains(
        QStringLiteral("/archive/regions/")));
    EXPECT_TRUE(chromatin->annotationModel()->entries()[0].foreground);
    EXPECT_EQ(chromatin->controller()->moments()->choice.foreground.size(), 1);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

using cx::test::FileSizeLimit;

TEST(ProjectSession, FailedSaveKeepsTheOldFileAndTheUnsavedChanges) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    ASSERT_TRUE(window.openDemo());
    ASSERT_TRUE(settleBoth(window));
    const QString file = directory.filePath(QStringLiteral("keep.cxproj"));
    ASSERT_TRUE(window.project()->saveTo(file));
    const QByteArray before = readAll(file);
    window.workspace<cx::ui::ChromatinWorkspace>()->setGamma(0.25);
    ASSERT_TRUE(settleBoth(window));
    ASSERT_TRUE(window.project()->isModified());
    {
        FileSizeLimit limit(64);
        EXPECT_FALSE(window.project()->save());
    }
    ASSERT_EQ(errors.messages.size(), 1);
    EXPECT_TRUE(errors.messages.last().contains(QFileInfo(file).absoluteFilePath() +
                                                QStringLiteral(": write failed")))
        << errors.messages.last().toStdString();
    EXPECT_EQ(readAll(file), before);
    EXPECT_EQ(QDir(directory.path()).entryList(QDir::Files | QDir::Hidden),
              QStringList{QStringLiteral("keep.cxproj")});
    EXPECT_TRUE(window.project()->isModified());
    EXPECT_TRUE(window.isWindowModified());
    EXPECT_TRUE(window.project()->save());
    EXPECT_NE(readAll(file), before);
    EXPECT_FALSE(window.project()->isModified());
}

TEST(ProjectSession, UnsavedChangesAskSaveDiscardOrCancel) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    ASSERT_TRUE(window.openDemo());
    ASSERT_TRUE(settleBoth(window, /*everyWorkspace=*/true));
    const QString file = directory.filePath(QStringLiteral("guard.cxproj"));
    ASSERT_TRUE(window.project()->saveTo(file));
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();

    int asked = 0;
    ProjectSession::Choice answer = ProjectSession::Choice::Cancel;
    ProjectSession::setPromptHandler([&](const QString& name) {
        ++asked;
        EXPECT_EQ(name, QStringLiteral("guard.cxproj"));
        return answer;
    });
    // Unmodified: nothing is asked.
    chromatin->setGamma(0.75);
    ASSERT_TRUE(settleBoth(window));
    chromatin->setGamma(1.0); // back to the saved γ: not a change
    ASSERT_TRUE(settleBoth(window));
    EXPECT_FALSE(window.project()->isModified());

    chromatin->setGamma(0.75);
    ASSERT_TRUE(settleBoth(window));
    ASSERT_TRUE(window.project()->isModified());
    // Cancel: New, Open and Quit change nothing.
    EXPECT_FALSE(window.project()->newSession());
    EXPECT_FALSE(window.close());
    EXPECT_TRUE(window.isVisible());
    window.openPath(file);
    EXPECT_EQ(asked, 3);
    EXPECT_DOUBLE_EQ(chromatin->controller()->gamma(), 0.75);
    EXPECT_TRUE(chromatin->controller()->data().isValid());
    // Save: written, then the session is emptied.
    answer = ProjectSession::Choice::Save;
    EXPECT_TRUE(window.project()->newSession());
    EXPECT_EQ(asked, 4);
    EXPECT_FALSE(chromatin->controller()->data().isValid());
    EXPECT_FALSE(window.workspace<cx::ui::TopicsWorkspace>()->controller()->corpus().corpus);
    EXPECT_EQ(window.project()->displayName(), QStringLiteral("Untitled"));
    const cx::Session saved = cx::readSession(file.toStdString());
    EXPECT_EQ(saved.section("chromatin").at("model").at("gamma").get<double>(), 0.75);
    // Discard: reopen, change, quit without saving.
    answer = ProjectSession::Choice::Discard;
    window.openPath(file);
    ASSERT_TRUE(settleBoth(window));
    EXPECT_FALSE(window.project()->isModified());
    chromatin->setGamma(0.5);
    ASSERT_TRUE(settleBoth(window));
    EXPECT_TRUE(window.close());
    EXPECT_EQ(asked, 5);
    EXPECT_EQ(cx::readSession(file.toStdString())
                  .section("chromatin")
                  .at("model")
                  .at("gamma")
                  .get<double>(),
              0.75);
    ProjectSession::setPromptHandler(
        [](const QString&) { return ProjectSession::Choice::Discard; });
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(ProjectSession, NewTracksAfterTheDemoDropTheDemosAnnotations) {
    ErrorRecorder errors;
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    ASSERT_TRUE(window.openDemo());
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    ASSERT_TRUE(waitUntil([&] { return chromatinSettled(chromatin); }, 60000));
    ASSERT_EQ(chromatin->annotationModel()->rowCount(), 7);
    ASSERT_EQ(chromatin->controller()->regions().foreground.size(), 2);

    const QStringList tracks = cx::ui::test::sliceTracks();
    window.openPaths(tracks);
    ASSERT_TRUE(waitUntil(
        [&] {
            return chromatin->controller()->data().paths == tracks && chromatinSettled(chromatin);
        },
        60000));
    EXPECT_EQ(chromatin->annotationModel()->rowCount(), 0)
        << "the demo's 0–30 Mb annotations must not define regions on other tracks";
    EXPECT_TRUE(chromatin->controller()->regions().foreground.isEmpty());
    EXPECT_TRUE(chromatin->controller()->annotations().isEmpty());
    EXPECT_EQ(chromatin->controller()->moments()->foregroundBins,
              chromatin->controller()->moments()->totalBins)
        << "no regions: the whole genome is the foreground";
    // The two tracks are one recent entry, reopened together.
    QStringList absolute;
    for (const QString& track : tracks) {
        absolute << QFileInfo(track).absoluteFilePath();
    }
    EXPECT_EQ(cx::ui::RecentFiles::entries().front(), absolute);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

} // namespace

namespace {

/// Rows of `content` equal (exactly) to some row of `profiles`.
int rowsFrom(const cx::ui::StateMatrixModel::Content& content, const Eigen::MatrixXd& profiles) {
    int found = 0;
    for (Eigen::Index r = 0; r < content.values.rows(); ++r) {
        for (Eigen::Index s = 0; s < profiles.rows(); ++s) {
            if (profiles.row(s) == content.values.row(r)) {
                ++found;
                break;
            }
        }
    }
    return found;
}

} // namespace

TEST(ProjectSession, ChromatinBaumWelchRefinesOnlyTheForegroundOnlyPanelAndIsSaved) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString file = directory.filePath(QStringLiteral("refine.cxproj"));
    MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1440, 900);
    window.show();
    window.openPath(demoTopicsAndChromatin(directory));
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    auto* controller = chromatin->controller();
    ASSERT_TRUE(
        waitUntil([&] { return chromatinSettled(chromatin) && controller->refinement(); }, 120000));
    ASSERT_TRUE(settleBoth(window));
    QCheckBox* refine = chromatin->analysisPanel()->refineCheck();
    ASSERT_NE(refine, nullptr);
    EXPECT_FALSE(refine->toolTip().isEmpty());
    // The demo asks for the refinement (refine_em 1000, tolerance 1e-5).
    EXPECT_TRUE(refine->isChecked());
    EXPECT_EQ(controller->parameters().refineEm, cx::kRefineMaxRounds);
    EXPECT_EQ(controller->parameters().refineTolerance, cx::kRefineTolerance);
    const auto refinement = controller->refinement();
    const cx::RefinedHmm& model = refinement->model;
    EXPECT_TRUE(model.converged);
    EXPECT_GT(model.rounds, 0);
    EXPECT_GE(model.logLikelihood(), model.startLogLikelihood());
    // The γ = 0 panel shows the refined model and says so in its title.
    const auto& refined = chromatin->referenceModel()->content();
    EXPECT_EQ(rowsFrom(refined, model.markProbabilities), model.markProbabilities.rows());
    const QString title = chromatin->referenceView()->title();
    EXPECT_TRUE(title.startsWith(QStringLiteral("Foreground only (γ = 0) · Baum–Welch, ")))
        << title.toStdString();
    EXPECT_TRUE(title.contains(QStringLiteral("%1 iteration").arg(model.rounds)))
        << title.toStdString();
    EXPECT_TRUE(title.contains(QStringLiteral("log-lik/bin"))) << title.toStdString();
    // Identity: a refined row keeps its spectral row's name and colour, or is another state,
    // named from its marks as the refinement's only; no name twice.
    const auto spectralLeft = cx::ui::referenceContent(
        *controller->solution().reference, chromatin->catalog(), controller->data().data->markNames,
        cx::ui::referenceIdentities(controller->sweep(), *controller->solution().reference));
    ASSERT_EQ(spectralLeft.rowLabels.size(), refined.rowLabels.size());
    const auto& marks = controller->data().data->markNames;
    for (int r = 0; r < refined.rowLabels.size(); ++r) {
        const QString ownClass = cx::ui::classifyChromatinState(refined.values.row(r), marks).name;
        EXPECT_TRUE((refined.rowLabels[r] == spectralLeft.rowLabels[r] &&
                     refined.rowColours[r] == spectralLeft.rowColours[r]) ||
                    (refined.rowLabels[r].contains(QStringLiteral("(Baum–Welch only")) &&
                     (ownClass.isEmpty() || refined.rowLabels[r].startsWith(ownClass))))
            << refined.rowLabels[r].toStdString();
        EXPECT_EQ(refined.rowLabels.count(refined.rowLabels[r]), 1)
            << refined.rowLabels[r].toStdString();
    }
    const auto contrastive = chromatin->emissionModel()->content();
    const quint64 generation = controller->solution().generation;

    // Off: the spectral γ = 0 model again, the contrastive panel and solution untouched.
    QTest::mouseClick(refine, Qt::LeftButton);
    EXPECT_FALSE(refine->isChecked());
    EXPECT_EQ(controller->parameters().refineEm, 0);
    ASSERT_TRUE(settleBoth(window));
    EXPECT_EQ(controller->refinement(), nullptr);
    EXPECT_EQ(chromatin->referenceView()->title(), QStringLiteral("Foreground only (γ = 0)"));
    const auto& spectral = chromatin->referenceModel()->content();
    EXPECT_EQ(rowsFrom(spectral, controller->solution().reference->markProbabilities),
              spectral.values.rows());
    EXPECT_EQ(rowsFrom(spectral, model.markProbabilities), 0);
    EXPECT_EQ(controller->solution().generation, generation) << "no spectral re-solve";
    EXPECT_EQ(chromatin->emissionModel()->content().values, contrastive.values);
    EXPECT_EQ(chromatin->emissionModel()->content().rowLabels, contrastive.rowLabels);
    ASSERT_TRUE(window.project()->saveTo(file));
    EXPECT_EQ(cx::readSession(file.toStdString()).section("chromatin").at("model").at("refine_em"),
              0);

    // On again: the same refined model (deterministic), saved with its stopping rule.
    QTest::mouseClick(refine, Qt::LeftButton);
    ASSERT_TRUE(
        waitUntil([&] { return chromatinSettled(chromatin) && controller->refinement(); }, 120000));
    EXPECT_EQ(controller->refinement()->model.markProbabilities, model.markProbabilities);
    EXPECT_EQ(chromatin->emissionModel()->content().values, contrastive.values);
    ASSERT_TRUE(settleBoth(window));
    ASSERT_TRUE(window.project()->saveTo(file));
    const cx::SessionJson saved = cx::readSession(file.toStdString()).section("chromatin");
    EXPECT_EQ(saved.at("model").at("refine_em"), cx::kRefineMaxRounds);
    EXPECT_EQ(saved.at("model").at("refine_tolerance"), cx::kRefineTolerance);

    MainWindow reopened;
    reopened.setSettingsPersistent(false);
    reopened.resize(1440, 900);
    reopened.show();
    reopened.openPath(file);
    ChromatinWorkspace* again = reopened.workspace<cx::ui::ChromatinWorkspace>();
    ASSERT_TRUE(waitUntil(
        [&] { return chromatinSettled(again) && again->controller()->refinement(); }, 120000));
    ASSERT_TRUE(settleBoth(reopened));
    EXPECT_TRUE(again->analysisPanel()->refineCheck()->isChecked());
    EXPECT_EQ(again->controller()->refinement()->model.markProbabilities, model.markProbabilities);
    EXPECT_FALSE(reopened.project()->isModified()) << "reopening is not a change";

    // A session without the field (saved before it existed) reopens unrefined.
    cx::Session old = cx::readSession(file.toStdString());
    cx::SessionJson section = old.section("chromatin");
    section["model"].erase("refine_em");
    section["model"].erase("refine_tolerance");
    old.setSection("chromatin", section);
    const QString oldFile = directory.filePath(QStringLiteral("old.cxproj"));
    cx::writeSession(old, oldFile.toStdString());
    reopened.openPath(oldFile);
    ASSERT_TRUE(settleBoth(reopened));
    EXPECT_FALSE(again->analysisPanel()->refineCheck()->isChecked());
    EXPECT_EQ(again->controller()->parameters().refineEm, 0);
    EXPECT_EQ(again->controller()->refinement(), nullptr);
    EXPECT_EQ(again->referenceView()->title(), QStringLiteral("Foreground only (γ = 0)"));
    EXPECT_FALSE(reopened.project()->isModified()) << "reopening is not a change";
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

// A γ grid being typed that does not parse (cleared, or "0:4:") is not what a session saves:
// the reader refuses an empty grid, and with it every workspace of the session. The last grid
// that parsed is saved.
TEST(ProjectSession, ASessionSavedWhileTheGammaGridIsADraftKeepsTheLastValidGrid) {
    cx::ui::TopicsWorkspace topics;
    cx::ui::SpecificityPanel* panel = topics.specificityPanel();
    panel->setGammaGrid(QStringLiteral("0:2:0.5"));
    EXPECT_EQ(topics.currentSection().aucGammas, "0:2:0.5");
    panel->setGammaGrid(QString());
    EXPECT_EQ(topics.currentSection().aucGammas, "0:2:0.5");
    panel->setGammaGrid(QStringLiteral("0:4:"));
    EXPECT_EQ(topics.currentSection().aucGammas, "0:2:0.5");
    panel->setGammaGrid(QStringLiteral("1,2,3"));
    EXPECT_EQ(topics.currentSection().aucGammas, "1,2,3");
}
