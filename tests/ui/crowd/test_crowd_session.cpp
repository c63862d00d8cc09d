// The Crowd workspace in project sessions: save → reopen gives the same numbers
// and view state; a session written as `contrast-cli crowd --save-session` writes it opens with
// the numbers the core computes; modified-state tracking; File ▸ New clears it; Export All
// Figures writes its charts, heatmaps and tables; worker stress: hundreds of
// seeded rapid method/K/seed changes and cancellations end on the last parameters.
#include "crowd_test_data.h"
#include "gui_test_helpers.h"

#include "core/crowd/synthetic_crowd.h"
#include "core/io/crowd_labels.h"
#include "core/session/crowd_section.h"
#include "core/session/session.h"
#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_results_panel.h"
#include "ui/crowd/crowd_workspace.h"
#include "ui/dialogs/figure_set_export.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <fstream>
#include <random>

using namespace cx::ui;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;
using cx::ui::test::writeCrowd;

namespace {

bool crowdSettled(MainWindow& window) {
    const bool settled =
        waitUntil([&] { return window.workspace<cx::ui::CrowdWorkspace>()->isSettled(); }, 60000);
    QTest::qWait(120); // the modified check is coalesced
    return settled;
}

/// What a user sees of the Crowd workspace.
struct CrowdSnapshot {
    cx::CrowdMethod method{};
    int k = 0;
    std::uint64_t seed = 0;
    std::vector<int> predicted;
    double errorRate = 0;
    double logLikelihood = 0;
    std::vector<int> informative;
    QString filter;
    int visibleWorkers = 0;
    int sortColumn = -1;
    bool descending = false;

    static CrowdSnapshot of(CrowdWorkspace& crowd) {
        CrowdSnapshot s;
        const CrowdRun& run = *crowd.shownRun();
        s.method = run.method;
        s.k = crowd.options().numComponents;
        s.seed = crowd.options().seed;
        s.predicted = run.result->predicted;
        s.errorRate = run.result->errorRate;
        s.logLikelihood = run.result->logLikelihood;
        s.informative = run.result->informativeOrder;
        s.filter = crowd.results()->workerFilter();
        s.visibleWorkers = crowd.results()->workerProxy()->rowCount();
        s.sortColumn = crowd.results()->workerSortColumn();
        s.descending = crowd.results()->workerSortDescending();
        return s;
    }
};

void expectSame(const CrowdSnapshot& a, const CrowdSnapshot& b) {
    EXPECT_EQ(a.method, b.method);
    EXPECT_EQ(a.k, b.k);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.predicted, b.predicted);
    EXPECT_DOUBLE_EQ(a.errorRate, b.errorRate);
    EXPECT_DOUBLE_EQ(a.logLikelihood, b.logLikelihood);
    EXPECT_EQ(a.informative, b.informative);
    EXPECT_EQ(a.filter, b.filter);
    EXPECT_EQ(a.visibleWorkers, b.visibleWorkers);
    EXPECT_EQ(a.sortColumn, b.sortColumn);
    EXPECT_EQ(a.descending, b.descending);
}

} // namespace

TEST(CrowdSession, SaveAndReopenGivesTheSameNumbersAndView) {
    ErrorRecorder errors;
    QTemporaryDir dir;
    writeCrowd(dir, 300, 20);
    const QString file = dir.filePath(QStringLiteral("crowd.cxproj"));
    CrowdSnapshot saved;
    {
        MainWindow window;
        window.setSettingsPersistent(false);
        CrowdWorkspace* crowd = window.workspace<cx::ui::CrowdWorkspace>();
        crowd->openFiles(dir.filePath(QStringLiteral("labels.csv")),
                         dir.filePath(QStringLiteral("gold.csv")));
        ASSERT_TRUE(crowdSettled(window));
        EXPECT_TRUE(crowd->hasSessionData());
        crowd->setMethod(cx::CrowdMethod::Stagewise);
        crowd->setNumComponents(3);
        crowd->setSeed(17);
        crowd->results()->setWorkerFilter(QStringLiteral("w1"));
        crowd->results()->setWorkerSort(1, false);
        ASSERT_TRUE(crowdSettled(window));
        EXPECT_TRUE(window.project()->isModified());
        ASSERT_TRUE(window.project()->saveTo(file));
        EXPECT_FALSE(window.project()->isModified());
        saved = CrowdSnapshot::of(*crowd);
        EXPECT_EQ(saved.visibleWorkers, 11); // w1, w10–w19
        // Changing the search is a change of the session; going back is not.
        crowd->results()->setWorkerFilter(QStringLiteral("w2"));
        QTest::qWait(150);
        EXPECT_TRUE(window.project()->isModified());
        crowd->results()->setWorkerFilter(QStringLiteral("w1"));
        QTest::qWait(150);
        EXPECT_FALSE(window.project()->isModified());
    }
    const cx::Session session = cx::readSession(file.toStdString());
    ASSERT_TRUE(session.hasSection("crowd"));
    EXPECT_EQ(session.section("crowd").at("labels").at("path").get<std::string>(), "labels.csv");
    EXPECT_EQ(session.section("crowd").at("model").at("method").get<std::string>(), "stagewise");
    EXPECT_EQ(session.section("crowd").at("model").at("seed").get<int>(), 17);

    MainWindow reopened;
    reopened.setSettingsPersistent(false);
    reopened.openPath(file);
    ASSERT_TRUE(crowdSettled(reopened));
    expectSame(saved, CrowdSnapshot::of(*reopened.workspace<cx::ui::CrowdWorkspace>()));
    EXPECT_FALSE(reopened.project()->isModified()) << "reopening is not a change";
    EXPECT_TRUE(reopened.windowTitle().contains(QStringLiteral("crowd.cxproj")));

    // Reopening reuses the labels read: the same data object, the same numbers.
    const CrowdData data = reopened.workspace<cx::ui::CrowdWorkspace>()->controller()->data();
    reopened.openPath(file);
    ASSERT_TRUE(crowdSettled(reopened));
    EXPECT_EQ(reopened.workspace<cx::ui::CrowdWorkspace>()->controller()->data(), data);
    expectSame(saved, CrowdSnapshot::of(*reopened.workspace<cx::ui::CrowdWorkspace>()));

    // File ▸ New drops the labels and results.
    reopened.workspace<cx::ui::CrowdWorkspace>()->clearSession();
    EXPECT_FALSE(reopened.workspace<cx::ui::CrowdWorkspace>()->hasSessionData());
    EXPECT_FALSE(reopened.workspace<cx::ui::CrowdWorkspace>()->shownRun().has_value());
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(CrowdSession, ACommandLineSessionOpensWithTheCoreNumbers) {
    ErrorRecorder errors;
    QTemporaryDir dir;
    writeCrowd(dir, 250, 15, 5);
    // What `contrast-cli crowd --labels … --gold … --method em --k 3 --seed 4 --restarts 3
    // --max-iter 40 --save-session FILE` writes (app/cli/cmd_crowd.cpp).
    cx::CrowdSection section;
    section.labels = dir.filePath(QStringLiteral("labels.csv")).toStdString();
    section.gold = dir.filePath(QStringLiteral("gold.csv")).toStdString();
    section.method = "em";
    section.numComponents = 3;
    section.seed = 4;
    section.restarts = 3;
    section.maxIterations = 40;
    section.savedBy = "crowd";
    cx::Session session;
    session.active = cx::CrowdSection::kKey;
    session.setSection(cx::CrowdSection::kKey, section.toJson(dir.path().toStdString()));
    const QString file = dir.filePath(QStringLiteral("cli.cxproj"));
    cx::writeSession(session, file.toStdString());

    const cx::CrowdLabels data =
        cx::readCrowdLabels(section.labels.string(), section.gold.string());
    const cx::CrowdResult expected =
        cx::runCrowdMethod(data, cx::CrowdMethod::Em, section.options());

    MainWindow window;
    window.setSettingsPersistent(false);
    window.openPath(file);
    ASSERT_TRUE(crowdSettled(window));
    CrowdWorkspace* crowd = window.workspace<cx::ui::CrowdWorkspace>();
    EXPECT_EQ(window.currentWorkspace(), crowd) << "the session's active workspace";
    const CrowdRun& run = *crowd->shownRun();
    EXPECT_EQ(run.method, cx::CrowdMethod::Em);
    EXPECT_EQ(run.result->predicted, expected.predicted);
    EXPECT_DOUBLE_EQ(run.result->errorRate, expected.errorRate);
    EXPECT_DOUBLE_EQ(run.result->logLikelihood, expected.logLikelihood);
    EXPECT_EQ(crowd->options().restarts, 3);
    EXPECT_EQ(crowd->options().em.maxIterations, 40);
    EXPECT_FALSE(window.project()->isModified());
    // Saved again by the GUI: the options without a control survive.
    const QString again = dir.filePath(QStringLiteral("again.cxproj"));
    ASSERT_TRUE(window.project()->saveTo(again));
    const cx::Session resaved = cx::readSession(again.toStdString());
    EXPECT_EQ(resaved.section("crowd").at("model").at("restarts").get<int>(), 3);
    EXPECT_EQ(resaved.section("crowd").at("model").at("max_iter").get<int>(), 40);
    EXPECT_FALSE(resaved.section("crowd").contains("saved_by"));
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(CrowdSession, ExportAllFiguresWritesChartsHeatmapsAndTables) {
    ErrorRecorder errors;
    QTemporaryDir dir;
    writeCrowd(dir, 200, 12);
    CrowdWorkspace crowd;
    crowd.setMethod(cx::CrowdMethod::Stagewise);
    crowd.openFiles(dir.filePath(QStringLiteral("labels.csv")),
                    dir.filePath(QStringLiteral("gold.csv")));
    ASSERT_TRUE(waitUntil([&] { return crowd.isSettled(); }));
    crowd.compareMethods();
    ASSERT_TRUE(
        waitUntil([&] { return crowd.isSettled() && !crowd.results()->compared().empty(); }));
    const QString folder = dir.filePath(QStringLiteral("figures"));
    QStringList written;
    QString error;
    ASSERT_TRUE(exportAllFigures(crowd, folder, 96, &written, &error)) << error.toStdString();
    for (const char* name :
         {"cmi", "confusion-vs-gold", "convergence-likelihood", "convergence-informative-set"}) {
        EXPECT_GT(
            QFileInfo(QDir(folder).filePath(QLatin1String(name) + QStringLiteral(".png"))).size(),
            500)
            << name;
    }
    for (const char* name : {"workers", "comparison", "disagreements"}) {
        QFile table(QDir(folder).filePath(QLatin1String(name) + QStringLiteral(".tsv")));
        ASSERT_TRUE(table.open(QIODevice::ReadOnly)) << name;
        EXPECT_TRUE(table.readLine().contains('\t')) << name;
    }
    QFile manifestFile(QDir(folder).filePath(QStringLiteral("figures.json")));
    ASSERT_TRUE(manifestFile.open(QIODevice::ReadOnly));
    const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
    const QJsonObject analysis = manifest.value(QStringLiteral("analysis")).toObject();
    EXPECT_EQ(analysis.value(QStringLiteral("method")).toString(), QStringLiteral("stagewise"));
    EXPECT_EQ(analysis.value(QStringLiteral("seed")).toString(), QStringLiteral("1"));
    EXPECT_TRUE(
        analysis.value(QStringLiteral("labels")).toString().endsWith(QStringLiteral("labels.csv")));
    EXPECT_NEAR(analysis.value(QStringLiteral("error_rate")).toDouble(),
                crowd.shownRun()->result->errorRate, 1e-12);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(CrowdWorkerStress, RapidMethodKAndSeedChangesEndOnTheLastParameters) {
    ErrorRecorder errors;
    QTemporaryDir dir;
    writeCrowd(dir, 150, 12, 11);
    CrowdWorkspace crowd;
    crowd.openFiles(dir.filePath(QStringLiteral("labels.csv")),
                    dir.filePath(QStringLiteral("gold.csv")));
    ASSERT_TRUE(waitUntil([&] { return crowd.isSettled(); }));
    const cx::CrowdLabels data = *crowd.controller()->data();
    std::mt19937_64 random(20261124);
    const auto& methods = cx::allCrowdMethods();
    int cancels = 0;
    int compares = 0;
    for (int step = 0; step < 300; ++step) {
        switch (random() % 6) {
        case 0:
        case 1:
            crowd.setMethod(methods[random() % methods.size()]);
            break;
        case 2:
            crowd.setNumComponents(random() % 2 == 0 ? 0 : 3);
            break;
        case 3:
            crowd.setSeed(static_cast<int>(1 + random() % 5));
            break;
        case 4:
            crowd.cancelTask();
            ++cancels;
            break;
        case 5:
            if (random() % 4 == 0) {
                crowd.compareMethods();
                ++compares;
            }
            break;
        }
        // A random number of event-loop turns: some results arrive, most are superseded.
        const int turns = static_cast<int>(random() % 3);
        for (int i = 0; i < turns; ++i) {
            QCoreApplication::processEvents();
        }
        // Whatever is shown is one whole run: its views agree with it.
        if (crowd.shownRun()) {
            EXPECT_EQ(crowd.results()->workerModel()->rowCount(), data.numWorkers);
        }
    }
    // The last change (not a cancel) decides what must be shown.
    crowd.setSeed(crowd.options().seed == 3 ? 4 : 3);
    ASSERT_TRUE(waitUntil([&] { return crowd.isSettled(); }, 60000));
    QTest::qWait(100);
    ASSERT_TRUE(crowd.isSettled());
    const CrowdRun& run = *crowd.shownRun();
    EXPECT_EQ(run.method, crowd.method());
    const cx::CrowdResult expected = cx::runCrowdMethod(data, crowd.method(), crowd.options());
    EXPECT_EQ(run.result->predicted, expected.predicted);
    EXPECT_DOUBLE_EQ(run.result->logLikelihood, expected.logLikelihood);
    EXPECT_EQ(crowd.controller()->shownOptions().seed, crowd.options().seed);
    EXPECT_EQ(crowd.controller()->shownOptions().numComponents, crowd.options().numComponents);
    EXPECT_GT(cancels, 20);
    EXPECT_GT(compares, 2);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}
