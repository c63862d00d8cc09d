// ChromatinController + ChromatinWorker on the real chr11 slices: loading, moments, latest-γ-wins,
// cancel/restart, segmentation and enrichment in the background, and bad input that is reported
// with file and line while everything loaded stays.
#include "chromatin_test_helpers.h"

#include "ui/chromatin/chromatin_analysis.h"
#include "ui/chromatin/chromatin_controller.h"

#include <gtest/gtest.h>

#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>

#include <cmath>
#include <limits>
#include <memory>

using cx::ui::ChromatinController;
using cx::ui::ChromatinWorker;
using cx::ui::HmmSolution;
using cx::ui::RegionChoice;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::geneBed;
using cx::ui::test::prepareSlice;
using cx::ui::test::sliceTracks;
using cx::ui::test::tssBed;
using cx::ui::test::waitUntil;
using cx::ui::test::writeFile;

namespace {

/// Holds the controller's worker thread until release(): requests queue up behind it, so a
/// test can cancel or supersede them deterministically.
class WorkerBlocker {
public:
    explicit WorkerBlocker(const ChromatinController& controller)
        : m_gate(std::make_shared<QSemaphore>()) {
        // The worker holds its own reference: the gate outlives this object if need be.
        QMetaObject::invokeMethod(
            const_cast<QObject*>(controller.worker()), [gate = m_gate] { gate->acquire(); },
            Qt::QueuedConnection);
    }
    ~WorkerBlocker() { release(); }
    void release() {
        if (!m_released) {
            m_released = true;
            m_gate->release();
        }
    }

private:
    std::shared_ptr<QSemaphore> m_gate;
    bool m_released = false;
};

} // namespace

TEST(ChromatinController, LoadsTracksAndRegionsAndFitsTheModel) {
    ChromatinController controller;
    QSignalSpy moments(&controller, &ChromatinController::momentsChanged);
    ASSERT_TRUE(prepareSlice(controller, 1.0));
    ASSERT_TRUE(controller.data().isValid());
    EXPECT_EQ(controller.data().data->tracks.size(), 2u);
    EXPECT_EQ(controller.data().data->totalBins(), 40000);
    EXPECT_EQ(controller.annotations().size(), 2);
    EXPECT_EQ(moments.count(), 1);
    const auto state = controller.moments();
    ASSERT_TRUE(state);
    EXPECT_GT(state->foregroundBins, 0);
    EXPECT_GT(state->backgroundBins, 0);
    // No background file: the background is every bin not in the foreground.
    EXPECT_EQ(state->foregroundBins + state->backgroundBins, 40000);
    // The BEDs carry chr1 and chr2_random lines: one summarised warning per file and role.
    ASSERT_FALSE(state->warnings.isEmpty());
    EXPECT_TRUE(state->warnings.front().contains(QStringLiteral("chr1")))
        << state->warnings.front().toStdString();
    EXPECT_TRUE(state->warnings.front().contains(QStringLiteral("no track covers")));

    const HmmSolution& solution = controller.solution();
    ASSERT_TRUE(solution.isValid());
    EXPECT_DOUBLE_EQ(solution.gamma, 1.0);
    EXPECT_EQ(solution.result->weights.size(), 7);
    EXPECT_GT(solution.result->numSpecific, 0);
    EXPECT_LT(solution.result->numSpecific, 7) << "genes vs the rest: some state is background";
    ASSERT_TRUE(solution.reference);
    EXPECT_EQ(solution.reference->gamma, 0.0);

    // Segmentation: every bin of both tracks, runs contiguous, states in range.
    const auto segmentation = controller.segmentation();
    ASSERT_TRUE(segmentation);
    EXPECT_EQ(segmentation->generation, solution.generation);
    ASSERT_EQ(segmentation->runs.size(), 2u);
    for (const auto& runs : segmentation->runs) {
        std::int64_t next = 0;
        for (const auto& run : runs) {
            EXPECT_EQ(run.begin, next);
            EXPECT_GT(run.end, run.begin);
            EXPECT_GE(run.state, 0);
            EXPECT_LT(run.state, segmentation->numStates);
            next = run.end;
        }
        EXPECT_EQ(next, 20000);
    }
    ASSERT_TRUE(controller.enrichment().has_value());
    EXPECT_EQ(controller.enrichment()->numAnnotations(), 2);
    // ChromHMM's tables are per segmentation file, i.e. per cell: the first (GM12878).
    EXPECT_EQ(controller.enrichment()->totalBins, 20000);
    EXPECT_EQ(controller.enrichment()->cell, QStringLiteral("GM12878"));
    EXPECT_EQ(controller.statistics().momentsBuilt, 1);
}

TEST(ChromatinController, WorkRunsOffTheGuiThread) {
    ChromatinController controller;
    EXPECT_EQ(controller.thread(), QThread::currentThread());
    EXPECT_NE(controller.workerThread(), QThread::currentThread());
    EXPECT_EQ(controller.worker()->thread(), controller.workerThread());
    // Where the worker's solves ran (a direct connection runs in the emitting thread).
    const cx::ui::test::EmittingThreads solves(
        static_cast<const ChromatinWorker*>(controller.worker()), &ChromatinWorker::solved);
    ASSERT_TRUE(prepareSlice(controller));
    const std::vector<QThread*> solvedOn = solves.waitForAny();
    ASSERT_FALSE(solvedOn.empty());
    for (QThread* thread : solvedOn) {
        EXPECT_EQ(thread, controller.workerThread());
    }
}

TEST(ChromatinController, GammaBurstEndsOnTheLastGammaAndDropsStaleResults) {
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller, 0.0));
    // Strict mode: a superseded result is never shown as a live preview.
    controller.setLivePreviewInterval(std::numeric_limits<int>::max());
    const auto before = controller.statistics();
    QSignalSpy shown(&controller, &ChromatinController::solutionChanged);
    {
        // Hold the worker so that the whole burst is requested before anything is solved.
        WorkerBlocker blocker(controller);
        for (int i = 1; i <= 40; ++i) {
            controller.setGamma(i * 0.05);
        }
    }
    ASSERT_TRUE(waitUntil([&] { return controller.isIdle(); }));
    const auto& stats = controller.statistics();
    EXPECT_DOUBLE_EQ(controller.solution().gamma, 2.0);
    EXPECT_EQ(stats.solveRequests - before.solveRequests, 40);
    // One in flight (the first) and one pending at a time: the other 38 never ran.
    EXPECT_EQ(stats.solvesCoalesced - before.solvesCoalesced, 38);
    EXPECT_EQ(stats.solvesDispatched - before.solvesDispatched, 2);
    // The first (γ = 0.05) was superseded while it ran: computed but dropped.
    EXPECT_EQ(stats.staleDropped - before.staleDropped, 1);
    EXPECT_EQ(shown.count(), 1);
    // The segmentation follows the shown model.
    ASSERT_TRUE(waitUntil([&] {
        return controller.segmentation() &&
               controller.segmentation()->generation == controller.solution().generation;
    }));
}

TEST(ChromatinController, NonFiniteOrNegativeGammaIsRefusedAndTheShownModelStays) {
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller, 0.5));
    QSignalSpy errors(&controller, &ChromatinController::errorOccurred);
    const auto before = controller.statistics();
    controller.setGamma(std::numeric_limits<double>::quiet_NaN());
    controller.setGamma(-std::numeric_limits<double>::infinity());
    ASSERT_EQ(errors.count(), 2);
    EXPECT_TRUE(errors.at(1).at(1).toString().contains(QStringLiteral("inf")))
        << errors.at(1).at(1).toString().toStdString();
    EXPECT_EQ(controller.statistics().solveRequests, before.solveRequests) << "nothing is solved";
    EXPECT_DOUBLE_EQ(controller.solution().gamma, 0.5);
}

TEST(ChromatinController, ResultsOfAnOlderEpochAreDropped) {
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller, 0.5));
    controller.setLivePreviewInterval(0);
    auto parameters = controller.parameters();
    {
        WorkerBlocker blocker(controller);
        controller.setGamma(0.7);
        parameters.numComponents = 6; // a new epoch while γ = 0.7 is queued
        controller.setParameters(parameters);
    }
    ASSERT_TRUE(waitUntil([&] { return controller.isIdle(); }));
    EXPECT_EQ(controller.solution().parameters.numComponents, 6);
    EXPECT_EQ(controller.solution().result->weights.size(), 6);
    EXPECT_DOUBLE_EQ(controller.solution().gamma, 0.7);
    EXPECT_GE(controller.statistics().staleDropped + controller.statistics().solvesCancelled, 1);
}

TEST(ChromatinController, CancelDuringMomentsKeepsThePreviousModelAndCanRestart) {
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller));
    const auto momentsBefore = controller.moments();
    const quint64 shownBefore = controller.solution().generation;
    QSignalSpy finished(&controller, &ChromatinController::taskFinished);
    RegionChoice other;
    other.foreground = {tssBed()};
    {
        WorkerBlocker blocker(controller);
        controller.applyRegions(other);
        ASSERT_TRUE(controller.isTaskRunning());
        controller.cancelTask();
    }
    ASSERT_TRUE(waitUntil([&] { return !controller.isTaskRunning(); }));
    ASSERT_GE(finished.count(), 1);
    EXPECT_EQ(finished.last().at(1).value<cx::ui::TaskOutcome>(), cx::ui::TaskOutcome::Cancelled);
    EXPECT_EQ(controller.moments(), momentsBefore);
    EXPECT_EQ(controller.solution().generation, shownBefore);
    EXPECT_EQ(controller.regions(), momentsBefore->choice); // reverted to the moments' choice

    // The worker is not stuck: the same choice now completes.
    controller.applyRegions(other);
    ASSERT_TRUE(
        waitUntil([&] { return controller.isIdle() && controller.moments() != momentsBefore; }));
    EXPECT_EQ(controller.moments()->choice, other);
    EXPECT_LT(controller.moments()->foregroundBins, momentsBefore->foregroundBins);
    EXPECT_GT(controller.solution().generation, shownBefore);
    // Coming back reuses the cached moments.
    controller.applyRegions(momentsBefore->choice);
    EXPECT_EQ(controller.moments(), momentsBefore);
    EXPECT_EQ(controller.statistics().momentsCacheHits, 1);
}

TEST(ChromatinController, BadTrackFileNamesFileAndLineAndKeepsTheData) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    ChromatinController controller;
    QSignalSpy failures(&controller, &ChromatinController::errorOccurred);
    ASSERT_TRUE(prepareSlice(controller));
    const auto data = controller.data().data;
    const auto moments = controller.moments();
    const QString bad = directory.filePath(QStringLiteral("bad_binary.txt"));
    writeFile(bad, "CELL\tchr11\nA\tB\tC\n0\t1\t0\n1\t1\n0\t0\t0\n");
    controller.loadTracks({bad});
    ASSERT_TRUE(failures.wait(10000));
    const QString message = failures.last().at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("bad_binary.txt:4"))) << message.toStdString();
    EXPECT_EQ(controller.data().data, data);
    EXPECT_EQ(controller.moments(), moments);
    EXPECT_TRUE(controller.solution().isValid());

    const QString value = directory.filePath(QStringLiteral("value_binary.txt"));
    writeFile(value, "CELL\tchr11\nA\tB\n0\t1\n0\t7\n");
    controller.loadTracks({value});
    ASSERT_TRUE(failures.wait(10000));
    EXPECT_TRUE(failures.last().at(1).toString().contains(QStringLiteral("value_binary.txt:4")))
        << failures.last().at(1).toString().toStdString();
    controller.loadTracks({directory.filePath(QStringLiteral("missing.txt.gz"))});
    ASSERT_TRUE(failures.wait(10000));
    EXPECT_TRUE(failures.last().at(1).toString().contains(QStringLiteral("missing.txt.gz")));
    EXPECT_EQ(controller.data().data, data);
}

TEST(ChromatinController, BadBedNamesFileAndLineAndKeepsTheAnnotations) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller));
    const auto moments = controller.moments();
    QSignalSpy failed(&controller, &ChromatinController::annotationFailed);
    QSignalSpy errorsSpy(&controller, &ChromatinController::errorOccurred);
    const QString bad = directory.filePath(QStringLiteral("bad.bed"));
    writeFile(bad, "chr11\t100\t200\nchr11\t300\t400\nchr11\t900\t500\n");
    controller.addAnnotations({bad});
    ASSERT_TRUE(failed.wait(10000));
    EXPECT_EQ(failed.last().at(0).toString(), bad);
    ASSERT_GE(errorsSpy.count(), 1);
    EXPECT_TRUE(errorsSpy.last().at(1).toString().contains(QStringLiteral("bad.bed:3")))
        << errorsSpy.last().at(1).toString().toStdString();
    EXPECT_EQ(controller.annotations().size(), 2);
    EXPECT_EQ(controller.annotation(bad), nullptr);
    EXPECT_EQ(controller.moments(), moments);
    EXPECT_TRUE(controller.isIdle());
}

TEST(ChromatinController, ForegroundOnAnotherChromosomeIsReportedAndNothingIsLost) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller));
    const auto moments = controller.moments();
    const QString elsewhere = directory.filePath(QStringLiteral("chrX_genes.bed"));
    writeFile(elsewhere, "chrX\t100\t20000\n");
    controller.addAnnotations({elsewhere});
    ASSERT_TRUE(waitUntil([&] { return controller.annotation(elsewhere) != nullptr; }));
    QSignalSpy errorsSpy(&controller, &ChromatinController::errorOccurred);
    QSignalSpy reverted(&controller, &ChromatinController::stateReverted);
    RegionChoice choice;
    choice.foreground = {elsewhere};
    controller.applyRegions(choice);
    ASSERT_TRUE(errorsSpy.wait(10000));
    const QString message = errorsSpy.last().at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("chrX_genes.bed"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("empty foreground"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("chr11"))) << message.toStdString();
    EXPECT_EQ(controller.moments(), moments);
    EXPECT_GE(reverted.count(), 1);
    EXPECT_EQ(controller.regions(), moments->choice);
}

TEST(ChromatinController, KAboveTheRankIsReportedOncePerChoiceAndTheModelStays) {
    ErrorRecorder errors;
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller));
    const quint64 shown = controller.solution().generation;
    QSignalSpy errorsSpy(&controller, &ChromatinController::errorOccurred);
    auto parameters = controller.parameters();
    parameters.numComponents = 12; // marks + 1 = 11
    controller.setParameters(parameters);
    ASSERT_TRUE(errorsSpy.wait(10000));
    EXPECT_TRUE(errorsSpy.last().at(1).toString().contains(QStringLiteral("K")))
        << errorsSpy.last().at(1).toString().toStdString();
    controller.setGamma(0.5);
    ASSERT_TRUE(waitUntil([&] { return controller.isIdle(); }));
    EXPECT_EQ(errorsSpy.count(), 1);
    EXPECT_EQ(controller.solution().generation, shown);
}

TEST(ChromatinController, DecodingMethodAndBackgroundLabelsRedecode) {
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller, 1.0));
    const auto posterior = controller.segmentation();
    ASSERT_TRUE(posterior);
    EXPECT_TRUE(posterior->backgroundLabelled);
    const int specific = controller.solution().result->numSpecific;
    ASSERT_LT(specific, 7);
    EXPECT_GT(posterior->backgroundBins, 0) << "quiescent stretches are background-like at γ = 1";

    controller.setLabelBackgroundRuns(false);
    ASSERT_TRUE(
        waitUntil([&] { return controller.isIdle() && controller.segmentation() != posterior; }));
    for (const auto& runs : controller.segmentation()->runs) {
        for (const auto& run : runs) {
            ASSERT_LT(run.state, specific) << "without labels only the specific HMM's states";
        }
    }
    controller.setDecodingMethod(cx::DecodingMethod::Viterbi);
    ASSERT_TRUE(waitUntil([&] {
        return controller.isIdle() &&
               controller.segmentation()->method == cx::DecodingMethod::Viterbi;
    }));
    EXPECT_EQ(controller.segmentation()->generation, controller.solution().generation);
}

TEST(ChromatinController, WholeGenomeWithoutRegionsHasNoSweepAndEveryStateIsSpecific) {
    ChromatinController controller;
    controller.setDecodeDelay(0);
    controller.setSweepGammas({0.0, 0.5, 1.0});
    controller.loadTracks(sliceTracks());
    ASSERT_TRUE(waitUntil([&] { return controller.data().isValid(); }));
    controller.applyRegions(RegionChoice{});
    ASSERT_TRUE(waitUntil([&] { return controller.isIdle() && controller.solution().isValid(); }));
    EXPECT_FALSE(controller.moments()->hasBackground());
    EXPECT_EQ(controller.solution().result->numSpecific, 7);
    EXPECT_TRUE(controller.sweep().isEmpty());
    ASSERT_TRUE(controller.segmentation());
    EXPECT_EQ(controller.segmentation()->backgroundBins, 0);
}

TEST(ChromatinController, SweepTracksEveryStateAcrossGamma) {
    ChromatinController controller;
    controller.setSweepGammas({0.0, 0.25, 0.5, 0.75, 1.0});
    ASSERT_TRUE(prepareSlice(controller));
    const auto& sweep = controller.sweep();
    ASSERT_EQ(sweep.gammas.size(), 5);
    ASSERT_EQ(sweep.weights.size(), 5u);
    EXPECT_EQ(sweep.numTracks(), 7);
    // Tracked rows change gradually: each track's profile at γ is closer to its own profile at
    // the previous γ than the average distance between different tracks.
    for (size_t i = 1; i < sweep.profiles.size(); ++i) {
        const Eigen::MatrixXd& a = sweep.profiles[i - 1];
        const Eigen::MatrixXd& b = sweep.profiles[i];
        double same = 0;
        double different = 0;
        int pairs = 0;
        for (int t = 0; t < 7; ++t) {
            same += (a.row(t) - b.row(t)).cwiseAbs().mean();
            for (int u = 0; u < 7; ++u) {
                if (u != t) {
                    different += (a.row(t) - b.row(u)).cwiseAbs().mean();
                    ++pairs;
                }
            }
        }
        EXPECT_LT(same / 7, different / pairs) << "γ step " << i;
    }
}

TEST(ChromatinController, TheShownModelIsThePathsSolutionOnceTheSweepHasRun) {
    ChromatinController controller;
    controller.setSweepGammas({0.0, 0.25, 0.5, 0.75, 1.0});
    ASSERT_TRUE(prepareSlice(controller));
    ASSERT_TRUE(waitUntil([&] { return controller.sweep().path && controller.solution().onPath; }));
    const auto path = controller.sweep().path;
    ASSERT_EQ(path->gammas.size(), 5u);
    // At a grid γ the slider shows exactly the path's point (the chart and the view agree).
    controller.setGamma(0.5);
    ASSERT_TRUE(waitUntil([&] {
        return controller.solution().isValid() && controller.solution().gamma == 0.5 &&
               controller.solution().onPath && controller.isIdle();
    }));
    EXPECT_EQ(controller.solution().result->weights, path->solutions[2].weights);
    EXPECT_EQ(controller.solution().result->markProbabilities,
              path->solutions[2].markProbabilities);
    // Between grid points it is solved on the path too (continued from the nearest point).
    controller.setGamma(0.6);
    ASSERT_TRUE(waitUntil([&] {
        return controller.solution().isValid() && controller.solution().gamma == 0.6 &&
               controller.isIdle();
    }));
    EXPECT_TRUE(controller.solution().onPath);
    EXPECT_EQ(controller.solution().result->weights.size(), 7);
}

TEST(ChromatinController, DestroyingWithWorkInFlightIsClean) {
    auto controller = std::make_unique<ChromatinController>();
    controller->addAnnotations({geneBed(), tssBed()});
    controller->loadTracks(sliceTracks());
    for (int i = 0; i < 10; ++i) {
        controller->setGamma(i * 0.1);
    }
    controller.reset(); // cancels, stops the thread, drains the pools
    SUCCEED();
}

TEST(ChromatinController, CombinationEncodingRebuildsTheMomentsAndFits) {
    ChromatinController controller;
    ASSERT_TRUE(prepareSlice(controller, 0.5));
    const auto markMoments = controller.moments();
    auto parameters = controller.parameters();
    parameters.encoding = cx::ObservationEncoding::MarkCombination;
    controller.setParameters(parameters);
    ASSERT_TRUE(controller.isTaskRunning()) << "a new encoding needs new moments";
    ASSERT_TRUE(waitUntil([&] {
        return controller.isIdle() && controller.moments() != markMoments &&
               controller.solution().isValid() && controller.segmentation() &&
               controller.segmentation()->generation == controller.solution().generation;
    }));
    EXPECT_EQ(controller.moments()->encoding, cx::ObservationEncoding::MarkCombination);
    EXPECT_GE(controller.moments()->moments->rank(), 7);
    const auto& result = *controller.solution().result;
    EXPECT_EQ(result.markProbabilities.rows(), 7);
    EXPECT_EQ(result.markProbabilities.cols(), 10); // per-mark view of pattern emissions
    EXPECT_EQ(result.hmm.encoding, cx::ObservationEncoding::MarkCombination);
}

TEST(ChromatinController, BootstrapOfTheSweepPathGivesBandsStabilityAndCanBeCancelled) {
    ChromatinController controller;
    controller.setSweepGammas({0.0, 0.5, 1.0});
    ASSERT_TRUE(prepareSlice(controller));
    ASSERT_TRUE(
        waitUntil([&] { return controller.sweep().path != nullptr && controller.isIdle(); }));
    QSignalSpy started(&controller, &ChromatinController::bootstrapStarted);
    QSignalSpy progress(&controller, &ChromatinController::bootstrapProgress);
    QSignalSpy finished(&controller, &ChromatinController::bootstrapFinished);
    QSignalSpy failed(&controller, &ChromatinController::bootstrapFailed);
    QSignalSpy sweeps(&controller, &ChromatinController::sweepChanged);
    controller.startBootstrap(4);
    EXPECT_EQ(started.count(), 1);
    EXPECT_TRUE(controller.isBootstrapRunning());
    EXPECT_FALSE(controller.isIdle());
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }));
    EXPECT_EQ(failed.count(), 0);
    EXPECT_GE(progress.count(), 1);
    EXPECT_GE(sweeps.count(), 1);
    const auto bootstrap = controller.sweep().bootstrap;
    ASSERT_TRUE(bootstrap);
    EXPECT_EQ(bootstrap->replicates, 4);
    EXPECT_EQ(bootstrap->gammas, controller.sweep().path->gammas);
    ASSERT_EQ(bootstrap->weightLo.size(), 3u);
    EXPECT_EQ(bootstrap->identityStability.size(),
              static_cast<size_t>(controller.sweep().path->numIdentities));
    for (double s : bootstrap->identityStability) {
        EXPECT_TRUE(!std::isfinite(s) || (s >= 0 && s <= 1));
    }
    // Same seed, same bands.
    controller.startBootstrap(4);
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 2; }));
    const auto& again = controller.sweep().bootstrap->weightLo;
    ASSERT_EQ(again.size(), bootstrap->weightLo.size());
    for (size_t i = 0; i < again.size(); ++i) {
        ASSERT_EQ(again[i].size(), bootstrap->weightLo[i].size());
        for (size_t t = 0; t < again[i].size();
             ++t) { // NaN (no band) on both sides counts as equal
            const double a = again[i][t];
            const double b = bootstrap->weightLo[i][t];
            EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << i << ' ' << t;
        }
    }
    // Cancel: reported with an empty message, the previous bands stay.
    controller.startBootstrap(200);
    controller.cancelBootstrap();
    EXPECT_FALSE(controller.isBootstrapRunning());
    ASSERT_GE(failed.count(), 1);
    EXPECT_TRUE(failed.back().at(0).toString().isEmpty());
    EXPECT_TRUE(controller.sweep().bootstrap);
    // Too few resamples are refused with a message.
    controller.startBootstrap(1);
    EXPECT_FALSE(failed.back().at(0).toString().isEmpty());
    // A new sweep (other K) drops the bands.
    auto parameters = controller.parameters();
    parameters.numComponents = 5;
    controller.setParameters(parameters);
    ASSERT_TRUE(
        waitUntil([&] { return controller.sweep().path != nullptr && controller.isIdle(); }));
    EXPECT_FALSE(controller.sweep().bootstrap);
}
