// The Crowd workspace: open labels + gold, fit in the background, every result view
// filled, the method comparison with its disagreements, cancel keeps what was shown, reader
// errors reach the error reporter with file and line.
#include "crowd_test_data.h"
#include "gui_test_helpers.h"

#include "core/crowd/synthetic_crowd.h"
#include "ui/charts/iteration_chart_view.h"
#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_results_panel.h"
#include "ui/crowd/crowd_workspace.h"
#include "ui/widgets/state_matrix_model.h"

#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <gtest/gtest.h>

#include <fstream>

using namespace cx::ui;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;
using cx::ui::test::writeCrowd;

TEST(CrowdWorkspace, OpensFitsAndComparesMethods) {
    QTemporaryDir dir;
    writeCrowd(dir, 200, 20);
    ErrorRecorder errors;
    CrowdWorkspace workspace;
    const QString labels = dir.filePath(QStringLiteral("labels.csv"));
    const QString gold = dir.filePath(QStringLiteral("gold.csv"));
    EXPECT_EQ(workspace.openPreference(labels), 2);
    EXPECT_EQ(workspace.openPreference(gold), 0); // a gold file needs labels first
    workspace.setMethod(cx::CrowdMethod::Stagewise);
    workspace.openFiles(labels, gold);
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }))
        << errors.messages.join('\n').toStdString();
    EXPECT_TRUE(errors.messages.isEmpty());
    EXPECT_EQ(workspace.openPreference(gold), 2);
    const CrowdRun& run = *workspace.shownRun();
    EXPECT_EQ(run.method, cx::CrowdMethod::Stagewise);
    EXPECT_LT(run.result->errorRate, 0.2);
    CrowdResultsPanel* results = workspace.results();
    EXPECT_EQ(results->workerModel()->rowCount(), 20);
    EXPECT_EQ(results->cmiModel()->rowCount(), 20);
    ASSERT_EQ(results->likelihoodChart()->lines().size(), 1);
    EXPECT_EQ(results->likelihoodChart()->lines()[0].points.size(),
              static_cast<qsizetype>(run.result->trace.size()));
    EXPECT_EQ(results->informativeChart()->lines().size(), 2); // |S| and max CMI
    // The informative workers head the CMI heatmap.
    const int informative = run.result->informativeSetSize();
    ASSERT_GT(informative, 1);
    EXPECT_EQ(results->cmiModel()->content().rowLabels[0].toStdString(),
              "w" + std::to_string(run.result->informativeOrder[0]));
    // Search filters the worker table.
    results->setWorkerFilter(QStringLiteral("w1"));
    EXPECT_EQ(results->workerProxy()->rowCount(), 11); // w1, w10–w19

    // Changing the method refits.
    workspace.setMethod(cx::CrowdMethod::MvEm);
    ASSERT_TRUE(waitUntil([&] {
        return workspace.isSettled() && workspace.shownRun()->method == cx::CrowdMethod::MvEm;
    }));
    EXPECT_EQ(results->informativeChart()->lines().size(), 0);

    QSignalSpy done(workspace.controller(), &CrowdController::comparisonDone);
    workspace.compareMethods();
    ASSERT_TRUE(done.wait(60000));
    EXPECT_TRUE(done.front().front().toBool());
    EXPECT_EQ(results->comparisonTable()->rowCount(), 6);
    EXPECT_EQ(results->disagreementTable()->columnCount(), 2 + 6);
    EXPECT_EQ(results->compared().size(), 6u);
    EXPECT_TRUE(errors.messages.isEmpty());
}

// Found by the 5,000-action random run: labels opened, then Compare methods and a new seed
// before they were read — the comparison (and the refit) replaced the load, the new labels
// never came and the workspace never settled.
TEST(CrowdWorkspace, CompareAndSeedWhileLabelsAreReadActOnTheNewLabels) {
    QTemporaryDir first, second;
    writeCrowd(first, 200, 20);
    writeCrowd(second, 150, 12);
    ErrorRecorder errors;
    CrowdWorkspace workspace;
    workspace.setMethod(cx::CrowdMethod::MvEm);
    workspace.openFiles(first.filePath(QStringLiteral("labels.csv")),
                        first.filePath(QStringLiteral("gold.csv")));
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }));
    QSignalSpy done(workspace.controller(), &CrowdController::comparisonDone);
    const QString labels = second.filePath(QStringLiteral("labels.csv"));
    workspace.openFiles(labels, second.filePath(QStringLiteral("gold.csv")));
    ASSERT_TRUE(workspace.controller()->isLoading());
    workspace.compareMethods(); // pressed while the new labels are read
    workspace.setSeed(649);
    ASSERT_TRUE(waitUntil(
        [&] { return workspace.isSettled() && !done.isEmpty() && done.back().front().toBool(); },
        120000))
        << errors.messages.join('\n').toStdString();
    EXPECT_EQ(workspace.controller()->labelsPath(), labels);
    EXPECT_EQ(workspace.controller()->data()->numItems, 150);
    EXPECT_EQ(workspace.results()->compared().size(), 6u) << "compared on the new labels";
    EXPECT_EQ(workspace.shownRun()->result->predicted.size(), 150u);
    EXPECT_EQ(workspace.controller()->shownOptions().seed, 649u);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

// K = 1 aggregates nothing: the K box skips it (a session saved with it could not be reopened —
// found by the seeded random-action run, seed 2). Typing 1 gives 2; stepping down from 2 gives
// "classes" (0); stepping up from there gives 2 again.
TEST(CrowdWorkspace, TheKBoxSkipsOneSoWhatIsShownCanBeSavedAndReopened) {
    QTemporaryDir dir;
    writeCrowd(dir, 120, 10);
    ErrorRecorder errors;
    CrowdWorkspace workspace;
    workspace.openFiles(dir.filePath(QStringLiteral("labels.csv")),
                        dir.filePath(QStringLiteral("gold.csv")));
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }));
    QSpinBox* k = nullptr;
    for (QSpinBox* box : workspace.findChildren<QSpinBox*>()) {
        if (box->specialValueText() == QStringLiteral("classes")) {
            k = box;
        }
    }
    ASSERT_NE(k, nullptr);
    workspace.setNumComponents(1);
    EXPECT_EQ(k->value(), 2);
    EXPECT_EQ(workspace.currentSection().numComponents, 2);
    k->stepBy(-1);
    EXPECT_EQ(k->value(), 0);
    k->stepBy(1);
    EXPECT_EQ(k->value(), 2);
    k->stepBy(1);
    EXPECT_EQ(k->value(), 3);
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }));
    EXPECT_EQ(workspace.controller()->shownOptions().numComponents, 3);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(CrowdWorkspace, CancelKeepsTheShownResultAndErrorsNameFileAndLine) {
    QTemporaryDir dir;
    writeCrowd(dir, 400, 60);
    ErrorRecorder errors;
    CrowdWorkspace workspace;
    workspace.setMethod(cx::CrowdMethod::MajorityVote);
    workspace.openFiles(dir.filePath(QStringLiteral("labels.csv")), QString());
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }));
    const auto shown = workspace.shownRun()->result;
    QSignalSpy done(workspace.controller(), &CrowdController::comparisonDone);
    workspace.compareMethods();
    workspace.cancelTask();
    ASSERT_TRUE(done.wait(60000));
    EXPECT_FALSE(done.front().front().toBool());
    EXPECT_EQ(workspace.shownRun()->result, shown);
    ASSERT_TRUE(waitUntil([&] { return workspace.isSettled(); }));

    {
        std::ofstream bad(dir.filePath(QStringLiteral("bad.csv")).toStdString());
        bad << "question,worker,answer\n1,2,0\n1,3\n";
    }
    workspace.openPath(dir.filePath(QStringLiteral("bad.csv")));
    ASSERT_TRUE(waitUntil([&] { return !errors.messages.isEmpty(); }));
    EXPECT_TRUE(errors.messages.front().contains(QStringLiteral("bad.csv:3:")))
        << errors.messages.front().toStdString();
    // The previous labels stay loaded.
    EXPECT_TRUE(workspace.controller()->labelsPath().endsWith(QStringLiteral("labels.csv")));
}

TEST(CrowdWorkspace, AFirstFitCancelledBeforeAnyRunStillSettles) {
    // Seen in a random-action run: a fit that ended without a run while none was shown left
    // the tab waiting for ever (isSettled wanted a run).
    QTemporaryDir dir;
    writeCrowd(dir, 400, 60);
    CrowdWorkspace workspace;
    bool cancelled = false;
    QObject::connect(workspace.controller(), &CrowdController::taskStarted, &workspace,
                     [&](CrowdTaskKind kind, const QString&) {
                         if (kind == CrowdTaskKind::Run && !cancelled) {
                             cancelled = true;
                             workspace.cancelTask(); // the first fit, before it can finish
                         }
                     });
    workspace.openFiles(dir.filePath(QStringLiteral("labels.csv")), QString());
    ASSERT_TRUE(waitUntil([&] { return cancelled && !workspace.controller()->isBusy(); }));
    EXPECT_FALSE(workspace.shownRun().has_value());
    EXPECT_TRUE(workspace.isSettled());
    // A new parameter fits again, and the run is shown.
    workspace.setSeed(3);
    ASSERT_TRUE(waitUntil([&] { return workspace.shownRun().has_value(); }));
    EXPECT_TRUE(waitUntil([&] { return workspace.isSettled(); }));
}

TEST(CrowdController, WorksOffTheGuiThreadAndTheNewestRunWins) {
    QTemporaryDir dir;
    writeCrowd(dir, 300, 20);
    ErrorRecorder errors;
    CrowdController controller;
    EXPECT_NE(controller.workerThread(), QThread::currentThread());
    EXPECT_EQ(controller.worker()->thread(), controller.workerThread());
    QSignalSpy loaded(&controller, &CrowdController::dataLoaded);
    QSignalSpy finished(&controller, &CrowdController::taskFinished);
    controller.open(dir.filePath(QStringLiteral("labels.csv")),
                    dir.filePath(QStringLiteral("gold.csv")));
    EXPECT_TRUE(controller.isBusy());
    ASSERT_TRUE(loaded.wait(20000));
    ASSERT_EQ(finished.size(), 1);
    EXPECT_EQ(finished.front().at(0).value<CrowdTaskKind>(), CrowdTaskKind::Load);
    EXPECT_EQ(finished.front().at(1).value<cx::ui::TaskOutcome>(), cx::ui::TaskOutcome::Finished);

    // Three runs in a row: the first two are superseded, only the last is reported.
    QSignalSpy ready(&controller, &CrowdController::runReady);
    cx::CrowdOptions options;
    for (std::uint64_t seed : {1, 2, 3}) {
        options.seed = seed;
        controller.run(cx::CrowdMethod::Em, options);
    }
    ASSERT_TRUE(waitUntil([&] { return !controller.isBusy(); }));
    QTest::qWait(50);
    ASSERT_EQ(ready.size(), 1);
    EXPECT_EQ(controller.shownOptions().seed, 3u);
    const cx::CrowdResult expected =
        cx::runCrowdMethod(*controller.data(), cx::CrowdMethod::Em, options);
    EXPECT_EQ(ready.front().front().value<CrowdRun>().result->predicted, expected.predicted);

    // A failing fit (K = 1) is reported under the controller's title; the data stay.
    QSignalSpy failed(&controller, &CrowdController::errorOccurred);
    options.numComponents = 1;
    controller.run(cx::CrowdMethod::Em, options);
    ASSERT_TRUE(failed.wait(20000));
    EXPECT_EQ(failed.front().at(0).toString(), QStringLiteral("Cannot fit the model"));
    EXPECT_TRUE(controller.data() != nullptr);
    EXPECT_EQ(controller.shownOptions().seed, 3u);
}

namespace {

cx::CrowdResult workersResult(const std::vector<double>& accuracies) {
    cx::CrowdResult result;
    for (double accuracy : accuracies) {
        cx::WorkerSummary worker;
        worker.numLabels = 108;
        worker.accuracy = accuracy;
        worker.accuracyLow = accuracy - 0.09;
        worker.accuracyHigh = accuracy + 0.09;
        result.workers.push_back(worker);
    }
    return result;
}

QStringList shownWorkers(const CrowdResultsPanel& panel) {
    QStringList names;
    const QSortFilterProxyModel* proxy = panel.workerProxy();
    for (int row = 0; row < proxy->rowCount(); ++row) {
        names << proxy->index(row, 0).data().toString();
    }
    return names;
}

} // namespace

TEST(CrowdResultsPanel, WorkerOrderDependsOnTheValuesNotOnWhatWasShownBefore) {
    // Found by the random-action journey: after another fit had been shown, two workers shown
    // as 0.61 (0.6103 and 0.6097) or with equal accuracies came out in another order than in a
    // fresh window. The table sorts by the exact values; equal values keep the data's order.
    cx::CrowdLabels data;
    data.numWorkers = 5;
    data.workerNames = {"a", "b", "c", "d", "e"};
    const cx::CrowdResult before = workersResult({0.9, 0.1, 0.5, 0.7, 0.3});
    const cx::CrowdResult after = workersResult({0.6097, 0.6103, 0.63, 0.63, 0.2});

    CrowdResultsPanel fresh;
    fresh.showWorkers(data, after);
    CrowdResultsPanel used;
    used.showWorkers(data, before);
    used.setWorkerSort(1, false); // the user sorted by labels, then by accuracy again
    used.setWorkerSort(3, true);
    used.showWorkers(data, after);
    EXPECT_EQ(shownWorkers(fresh), (QStringList{"c", "d", "b", "a", "e"}));
    EXPECT_EQ(shownWorkers(used), shownWorkers(fresh));
}
