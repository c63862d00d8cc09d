// TopicsController + TopicWorker: engine builds, cancel/restart, latest-γ-wins, K changes,
// error paths. Runs on a small in-memory synthetic corpus (well under a second per build).
#include "gui_test_helpers.h"

#include "ui/topics/topics_controller.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>

#include <limits>

using cx::ui::BackgroundMode;
using cx::ui::ModelParameters;
using cx::ui::SelectionSpec;
using cx::ui::SweepSpec;
using cx::ui::TopicsController;
using cx::ui::TopicSolution;
using cx::ui::test::syntheticCorpus;
using cx::ui::test::syntheticSelection;
using cx::ui::test::waitUntil;

namespace {

ModelParameters smallModel(int k = 6) {
    ModelParameters p;
    p.numComponents = k;
    p.iterations = 20;
    p.restarts = 3;
    p.seed = 3;
    return p;
}

/// A controller with a synthetic corpus, an engine and a first solution at γ = `gamma`.
void prepare(TopicsController& controller, double gamma = 0.5, int k = 6) {
    controller.setCorpus(syntheticCorpus());
    controller.setParameters(smallModel(k));
    controller.setGamma(gamma);
    controller.applySelection(syntheticSelection());
    ASSERT_TRUE(waitUntil([&] { return controller.solution().isValid() && controller.isIdle(); }))
        << "no solution within the timeout";
}

} // namespace

TEST(TopicsController, BuildsEngineAndShowsSolution) {
    TopicsController controller;
    QSignalSpy engineSpy(&controller, &TopicsController::engineChanged);
    QSignalSpy solutionSpy(&controller, &TopicsController::solutionChanged);
    prepare(controller, 0.75);
    ASSERT_TRUE(controller.engine());
    EXPECT_EQ(controller.engine()->foreground.size(), 1500u);
    EXPECT_EQ(controller.engine()->background.size(), 1500u);
    EXPECT_EQ(controller.engine()->overlap, 0);
    EXPECT_EQ(engineSpy.count(), 1);
    const TopicSolution& solution = controller.solution();
    EXPECT_DOUBLE_EQ(solution.gamma, 0.75);
    EXPECT_EQ(solution.result->numComponents() + solution.result->numRejected, 6);
    ASSERT_EQ(solution.topWords.size(), 6u);
    EXPECT_FALSE(solution.topWords.front().empty());
    EXPECT_GT(solution.result->numForegroundSpecific(), 0);
    EXPECT_EQ(controller.statistics().enginesBuilt, 1);
}

TEST(TopicsController, WorkRunsOffTheGuiThread) {
    // The controller's handlers run on the GUI thread; the worker lives on its own thread.
    TopicsController controller;
    EXPECT_EQ(controller.thread(), QThread::currentThread());
    EXPECT_NE(controller.workerThread(), QThread::currentThread());
    EXPECT_EQ(controller.worker()->thread(), controller.workerThread());
    EXPECT_TRUE(controller.workerThread()->isRunning());
    // Where the worker's solves ran (a direct connection runs in the emitting thread).
    const cx::ui::test::EmittingThreads solves(
        static_cast<const cx::ui::TopicWorker*>(controller.worker()), &cx::ui::TopicWorker::solved);
    prepare(controller);
    const std::vector<QThread*> solvedOn = solves.waitForAny();
    ASSERT_FALSE(solvedOn.empty());
    for (QThread* thread : solvedOn) {
        EXPECT_EQ(thread, controller.workerThread());
    }
}

TEST(TopicsController, CancelDuringBuildKeepsPreviousEngineAndCanRestart) {
    TopicsController controller;
    prepare(controller);
    const auto engineBefore = controller.engine();
    const quint64 shownBefore = controller.solution().generation;

    SelectionSpec other = syntheticSelection();
    other.backgroundMode = BackgroundMode::All;
    QSignalSpy finished(&controller, &TopicsController::taskFinished);
    controller.applySelection(other);
    ASSERT_TRUE(controller.isTaskRunning());
    controller.cancelTask();
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_EQ(finished.last().at(1).value<cx::ui::TaskOutcome>(), cx::ui::TaskOutcome::Cancelled);
    EXPECT_EQ(controller.engine(), engineBefore);
    EXPECT_EQ(controller.solution().generation, shownBefore);
    EXPECT_EQ(controller.selection(), syntheticSelection()); // reverted to the engine's choice

    // The worker is not stuck: the same request now completes.
    controller.applySelection(other);
    ASSERT_TRUE(
        waitUntil([&] { return controller.isIdle() && controller.engine() != engineBefore; }));
    EXPECT_EQ(controller.engine()->selection, other);
    EXPECT_EQ(controller.engine()->background.size(), 3000u);
    EXPECT_EQ(controller.engine()->overlap, 1500);
    EXPECT_GT(controller.solution().generation, shownBefore);
}

TEST(TopicsController, NewSelectionSupersedesRunningBuild) {
    TopicsController controller;
    controller.setCorpus(syntheticCorpus());
    controller.setParameters(smallModel());
    SelectionSpec first = syntheticSelection();
    first.backgroundMode = BackgroundMode::All;
    controller.applySelection(first);
    controller.applySelection(syntheticSelection()); // cancels the first build
    ASSERT_TRUE(waitUntil([&] { return controller.isIdle() && controller.solution().isValid(); }));
    EXPECT_EQ(controller.engine()->selection, syntheticSelection());
}

TEST(TopicsController, NonFiniteOrNegativeGammaIsRefusedAndTheShownModelStays) {
    TopicsController controller;
    prepare(controller, 0.75);
    QSignalSpy errors(&controller, &TopicsController::errorOccurred);
    const auto before = controller.statistics();
    for (const double bad : {std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(), -0.5}) {
        controller.setGamma(bad);
    }
    ASSERT_EQ(errors.count(), 3);
    EXPECT_TRUE(errors.at(0).at(1).toString().contains(QStringLiteral("nan")))
        << errors.at(0).at(1).toString().toStdString();
    EXPECT_TRUE(errors.at(2).at(1).toString().contains(QStringLiteral("-0.5")));
    EXPECT_EQ(controller.statistics().solveRequests, before.solveRequests) << "nothing is solved";
    EXPECT_DOUBLE_EQ(controller.solution().gamma, 0.75);
    controller.setGamma(1.0); // a good γ afterwards still works
    ASSERT_TRUE(waitUntil([&] { return !controller.isSolving(); }));
    EXPECT_DOUBLE_EQ(controller.solution().gamma, 1.0);
}

TEST(TopicsController, BurstOfGammaChangesShowsTheLastGamma) {
    TopicsController controller;
    prepare(controller);
    // Strict mode: never show a superseded result as a live preview, so the count of stale
    // results is deterministic.
    controller.setLivePreviewInterval(std::numeric_limits<int>::max());
    const auto before = controller.statistics();
    QSignalSpy shown(&controller, &TopicsController::solutionChanged);
    constexpr int kChanges = 40;
    double last = 0;
    for (int i = 1; i <= kChanges; ++i) {
        last = 0.05 * i;
        controller.setGamma(last);
    }
    ASSERT_TRUE(waitUntil([&] { return !controller.isSolving(); }));
    EXPECT_DOUBLE_EQ(controller.solution().gamma, last);
    const auto after = controller.statistics();
    const int requests = after.solveRequests - before.solveRequests;
    const int coalesced = after.solvesCoalesced - before.solvesCoalesced;
    const int dropped = after.staleDropped - before.staleDropped;
    const int displayed = after.resultsShown - before.resultsShown;
    EXPECT_EQ(requests, kChanges);
    // The first request was in flight, 38 were replaced while pending, the last ran.
    EXPECT_EQ(coalesced, kChanges - 2);
    EXPECT_EQ(dropped, 1) << "the in-flight result for an old γ must be dropped";
    EXPECT_EQ(displayed, 1);
    EXPECT_EQ(shown.count(), 1);
    EXPECT_EQ(after.solvesDispatched - before.solvesDispatched, 2);
}

TEST(TopicsController, LivePreviewKeepsGenerationsIncreasing) {
    TopicsController controller;
    prepare(controller);
    controller.setLivePreviewInterval(0); // show every in-order result
    const auto before = controller.statistics();
    std::vector<quint64> generations;
    std::vector<double> gammas;
    QObject::connect(&controller, &TopicsController::solutionChanged, [&](const TopicSolution& s) {
        generations.push_back(s.generation);
        gammas.push_back(s.gamma);
    });
    for (int i = 1; i <= 30; ++i) {
        controller.setGamma(0.1 * i);
        QCoreApplication::processEvents(); // interleave with results, as a drag does
    }
    ASSERT_TRUE(waitUntil([&] { return !controller.isSolving(); }));
    ASSERT_FALSE(gammas.empty());
    EXPECT_DOUBLE_EQ(gammas.back(), 3.0);
    EXPECT_TRUE(std::is_sorted(generations.begin(), generations.end()));
    EXPECT_EQ(std::adjacent_find(generations.begin(), generations.end()), generations.end());
    const auto after = controller.statistics();
    // Every request is accounted for: shown, dropped as stale, coalesced, cancelled or failed.
    EXPECT_EQ(after.solveRequests - before.solveRequests,
              (after.resultsShown - before.resultsShown) +
                  (after.staleDropped - before.staleDropped) +
                  (after.solvesCoalesced - before.solvesCoalesced) +
                  (after.solvesCancelled - before.solvesCancelled) +
                  (after.solvesFailed - before.solvesFailed));
}

TEST(TopicsController, ResultsOfSupersededParametersAreDropped) {
    TopicsController controller;
    prepare(controller);
    const auto before = controller.statistics();
    controller.setGamma(1.5);                // in flight with K = 6
    controller.setParameters(smallModel(8)); // new epoch: the K = 6 result is stale
    ASSERT_TRUE(waitUntil([&] { return !controller.isSolving() && controller.isIdle(); }));
    EXPECT_EQ(controller.solution().result->numComponents() +
                  controller.solution().result->numRejected,
              8);
    EXPECT_DOUBLE_EQ(controller.solution().gamma, 1.5);
    const auto after = controller.statistics();
    EXPECT_GE((after.staleDropped - before.staleDropped) +
                  (after.solvesCancelled - before.solvesCancelled),
              1);
    EXPECT_EQ(after.enginesBuilt, before.enginesBuilt); // K = 8 uses the K = 6 basis (10)
}

TEST(TopicsController, RaisingKBeyondTheBasisRebuildsAndComingBackReusesTheEngine) {
    TopicsController controller;
    prepare(controller, 0.5, 6);
    EXPECT_EQ(controller.engine()->engine->maxComponents(), 10);
    controller.setParameters(smallModel(12));
    // K asked = components kept + components rejected (a degenerate pencil pair is rejected).
    auto solvedWithK = [&](int k) {
        const auto& result = controller.solution().result;
        return controller.isIdle() && result->numComponents() + result->numRejected == k;
    };
    ASSERT_TRUE(waitUntil([&] { return solvedWithK(12); }));
    EXPECT_EQ(controller.engine()->engine->maxComponents(), 15);
    EXPECT_EQ(controller.statistics().enginesBuilt, 2);

    controller.setParameters(smallModel(7));
    ASSERT_TRUE(waitUntil([&] { return solvedWithK(7); }));
    EXPECT_EQ(controller.statistics().enginesBuilt, 2);
    EXPECT_EQ(controller.statistics().engineCacheHits, 1);
}

TEST(TopicsController, BadRuleReportsAndKeepsTheResult) {
    TopicsController controller;
    prepare(controller);
    const auto engineBefore = controller.engine();
    const quint64 shownBefore = controller.solution().generation;
    QSignalSpy errors(&controller, &TopicsController::errorOccurred);
    SelectionSpec bad;
    bad.foregroundRule = QStringLiteral("nosuchfield=x");
    bad.backgroundMode = BackgroundMode::NotForeground;
    controller.applySelection(bad);
    ASSERT_TRUE(errors.wait(10000));
    EXPECT_TRUE(errors.last().at(1).toString().contains(QStringLiteral("nosuchfield")))
        << errors.last().at(1).toString().toStdString();
    EXPECT_EQ(controller.engine(), engineBefore);
    EXPECT_EQ(controller.solution().generation, shownBefore);
    EXPECT_TRUE(controller.isIdle());
}

TEST(TopicsController, EmptyForegroundIsReported) {
    TopicsController controller;
    prepare(controller);
    QSignalSpy errors(&controller, &TopicsController::errorOccurred);
    SelectionSpec empty;
    empty.foregroundRule = QStringLiteral("group=foreground;group=background");
    empty.backgroundMode = BackgroundMode::NotForeground;
    controller.applySelection(empty);
    ASSERT_TRUE(errors.wait(10000));
    EXPECT_TRUE(errors.last().at(1).toString().contains(QStringLiteral("no document")))
        << errors.last().at(1).toString().toStdString();
    EXPECT_TRUE(controller.solution().isValid());
}

TEST(TopicsController, MissingFileIsReportedWithItsNameAndNothingIsLost) {
    TopicsController controller;
    prepare(controller);
    const auto corpusBefore = controller.corpus().corpus;
    QSignalSpy errors(&controller, &TopicsController::errorOccurred);
    const QString missing = QStringLiteral("/nonexistent/folder/corpus.tsv");
    controller.loadCorpus(missing, {});
    ASSERT_TRUE(errors.wait(10000));
    EXPECT_TRUE(errors.last().at(1).toString().contains(missing));
    EXPECT_EQ(controller.corpus().corpus, corpusBefore);
    EXPECT_TRUE(controller.solution().isValid());
    EXPECT_TRUE(controller.engine() != nullptr);
}

TEST(TopicsController, MalformedFileIsReportedWithFileAndLine) {
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("docword.bad.txt"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("2\n3\n2\n1 1 4\nthis is not a triple\n");
    }
    {
        QFile vocab(directory.filePath(QStringLiteral("vocab.bad.txt")));
        ASSERT_TRUE(vocab.open(QIODevice::WriteOnly));
        vocab.write("alpha\nbeta\ngamma\n");
    }
    TopicsController controller;
    QSignalSpy errors(&controller, &TopicsController::errorOccurred);
    controller.loadCorpus(path, {});
    ASSERT_TRUE(errors.wait(10000));
    const QString message = errors.last().at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("docword.bad.txt"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral(":5"))) << message.toStdString();
    EXPECT_FALSE(controller.corpus().corpus);
}

TEST(TopicsController, SweepStreamsPointsAndRestartsWhenKChanges) {
    TopicsController controller;
    prepare(controller);
    QSignalSpy started(&controller, &TopicsController::sweepStarted);
    QSignalSpy points(&controller, &TopicsController::sweepPointReady);
    QSignalSpy finished(&controller, &TopicsController::sweepFinished);
    SweepSpec sweep;
    sweep.positiveRule = QStringLiteral("set=a");
    sweep.gammas = {0.0, 0.5, 1.0, 2.0};
    controller.setSweep(sweep);
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_EQ(points.count(), 4);
    EXPECT_EQ(controller.sweepPoints().size(), 4);
    EXPECT_NEAR(controller.sweepPoints().front().relativeAuc, 1.0, 1e-12);

    controller.setParameters(smallModel(5));
    ASSERT_TRUE(waitUntil([&] { return controller.isIdle(); }));
    EXPECT_GE(started.count(), 2);
    EXPECT_EQ(controller.sweepPoints().size(), 4);
}

TEST(TopicsController, SweepWithOneClassIsReported) {
    TopicsController controller;
    prepare(controller);
    QSignalSpy failed(&controller, &TopicsController::sweepFailed);
    SweepSpec sweep;
    sweep.positiveRule = QStringLiteral("group=foreground"); // every foreground document
    sweep.gammas = {0.0, 1.0};
    controller.setSweep(sweep);
    ASSERT_TRUE(failed.wait(20000));
    EXPECT_TRUE(failed.last().at(0).toString().contains(QStringLiteral("both classes")));
}

TEST(TopicsController, DestroyingWithWorkInFlightIsClean) {
    auto controller = std::make_unique<TopicsController>();
    controller->setCorpus(syntheticCorpus(4000, 600));
    controller->setParameters(smallModel());
    controller->applySelection(syntheticSelection());
    ASSERT_TRUE(controller->isTaskRunning());
    QElapsedTimer timer;
    timer.start();
    controller.reset(); // cancels, quits and waits
    EXPECT_LT(timer.elapsed(), 5000);
}

TEST(TopicsController, GammaGridParsing) {
    QString error;
    EXPECT_EQ(cx::ui::parseGammaGrid(QStringLiteral("0:10:0.25"), &error).size(), 41);
    EXPECT_TRUE(error.isEmpty());
    EXPECT_EQ(cx::ui::parseGammaGrid(QStringLiteral("2, 0,1"), &error), (QVector<double>{0, 1, 2}));
    EXPECT_TRUE(cx::ui::parseGammaGrid(QStringLiteral("0:10:0"), &error).isEmpty());
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(cx::ui::parseGammaGrid(QStringLiteral("-1,2"), &error).isEmpty());
    EXPECT_TRUE(cx::ui::parseGammaGrid(QStringLiteral("nan"), &error).isEmpty());
    EXPECT_TRUE(cx::ui::parseGammaGrid(QStringLiteral("0:1000:0.001"), &error).isEmpty());
}

TEST(TopicsController, EngineCapacityIsAFunctionOfK) {
    EXPECT_EQ(TopicsController::engineCapacityFor(1), 5);
    EXPECT_EQ(TopicsController::engineCapacityFor(5), 5);
    EXPECT_EQ(TopicsController::engineCapacityFor(6), 10);
    EXPECT_EQ(TopicsController::engineCapacityFor(10), 10);
    EXPECT_EQ(TopicsController::engineCapacityFor(11), 15);
}

TEST(TopicsController, SeedChangeDuringABuildDoesNotRestartIt) {
    TopicsController controller;
    controller.setCorpus(syntheticCorpus());
    controller.setParameters(smallModel());
    QSignalSpy started(&controller, &TopicsController::taskStarted);
    controller.applySelection(syntheticSelection());
    ModelParameters reseeded = smallModel();
    reseeded.seed = 99;
    controller.setParameters(reseeded);
    ASSERT_TRUE(waitUntil([&] { return controller.isIdle() && controller.solution().isValid(); }));
    EXPECT_EQ(started.count(), 1);
    EXPECT_EQ(controller.statistics().enginesBuilt, 1);
    EXPECT_EQ(controller.solution().parameters.seed, 99u);
}
