#pragma once

#include "core/common/cancel.h"
#include "core/common/error.h"
#include "ui/framework/solve_scheduler.h"
#include "ui/framework/task_slot.h"
#include "ui/framework/worker_thread.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace cx::ui {

/// One kind of background job of a controller (an AUC sweep, a segmentation decode): the
/// newest run wins. A restart cancels the running run; results of older runs are dropped.
/// Lives on the GUI thread; `generation` is atomic because a queued job may read it.
struct JobSlot {
    std::atomic<quint64> generation{0};
    cx::CancelToken cancel;
    bool running = false;

    /// Cancels the running run (if any) and returns the generation of the next one.
    quint64 restart() {
        cancel.cancel();
        running = false;
        return ++generation;
    }
    /// Cancels the running run; its result will be dropped.
    void stop() { restart(); }
    bool isCurrent(quint64 runGeneration) const { return runGeneration == generation.load(); }
};

/// What every workspace controller shares and is not tied to its task kinds or worker: the
/// clock, the generation counter, the signals the shell listens to, and the thread-pool job
/// helpers. Controllers derive from WorkspaceControllerBase below, which adds the worker, the
/// long task and the solves.
class WorkspaceController : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceController(QObject* parent = nullptr);
    ~WorkspaceController() override;

    /// Milliseconds on the controller clock (request timestamps use it).
    qint64 clockMs() const { return m_clock.elapsed(); }

    /// The bootstrap of a workspace (bands and stability along its γ path; the workspace's
    /// startBootstrap runs it through startBootstrapJob): whether one runs, the resamples of the
    /// last one started (0: none), and Cancel — the running bootstrap stops, its result is
    /// dropped and bootstrapFailed("") is emitted.
    bool isBootstrapRunning() const { return m_bootstrapJob.running; }
    int bootstrapReplicates() const { return m_bootstrapReplicates; }
    void cancelBootstrap();

signals:
    void taskProgress(double fraction, const QString& phase);
    /// A bootstrap of `replicates` resamples started.
    void bootstrapStarted(int replicates);
    /// `done` of `total` resamples of the running bootstrap finished.
    void bootstrapProgress(int done, int total);
    /// The bootstrap failed with `message`; empty when cancelled or superseded.
    void bootstrapFailed(const QString& message);
    /// A user-facing problem: show `message` (it names file, line and problem) under `title`.
    void errorOccurred(const QString& title, const QString& message);
    /// Emitted whenever the controller's isIdle() may have changed.
    void activityChanged();

protected:
    /// A new pool for one kind of background job, one thread (a superseded job notices its
    /// token soon, and serialising keeps the 2-core budget for the GUI thread and the solves).
    /// Owned by the controller; drained by waitForJobs().
    QThreadPool* createJobPool();
    /// Waits until every job pool is idle. Controllers call it in their destructor, after
    /// cancelling their jobs, because jobs post their results to `this`.
    void waitForJobs();
    quint64 nextGeneration() { return ++m_nextGeneration; }
    /// Whether `gamma` is a usable contrast weight (finite, >= 0). If not, emits errorOccurred
    /// naming the value and returns false; the caller keeps its previous γ and results.
    bool acceptGamma(double gamma);

    /// Runs `compute(cancel)` on `pool`, then `done(result, error)` on the GUI thread: `error`
    /// is empty on success, else the message of the std::exception it threw. Nothing is
    /// posted when `cancel` is set before the job starts or when it throws cx::Cancelled.
    /// `compute` touches only what it captured (copies, shared pointers, atomics).
    template <typename Compute, typename Done>
    void startJob(QThreadPool* pool, const cx::CancelToken& cancel, Compute compute, Done done) {
        using Result = std::decay_t<std::invoke_result_t<Compute&, const cx::CancelToken&>>;
        pool->start([this, cancel, compute = std::move(compute), done = std::move(done)]() mutable {
            if (cancel.isCancelled()) {
                return; // superseded while queued
            }
            Result result{};
            QString error;
            try {
                result = compute(cancel);
            } catch (const cx::Cancelled&) {
                return;
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
            }
            QMetaObject::invokeMethod(
                this,
                [result = std::move(result), error, done = std::move(done)]() mutable {
                    done(std::move(result), error);
                },
                Qt::QueuedConnection);
        });
    }

    /// startJob for the run `generation` of `slot` (from slot.restart()) with a fresh token:
    /// `done` is called only while that run is still the slot's newest, after the slot is
    /// marked not running.
    template <typename Compute, typename Done>
    void startJob(QThreadPool* pool, JobSlot& slot, quint64 generation, Compute compute,
                  Done done) {
        slot.running = true;
        slot.cancel = cx::CancelToken::create();
        startJob(pool, slot.cancel, std::move(compute),
                 [&slot, generation, done = std::move(done)](auto result, const QString& error) {
                     if (!slot.isCurrent(generation)) {
                         return;
                     }
                     slot.running = false;
                     done(std::move(result), error);
                 });
    }

    /// Starts the bootstrap run `generation` (from m_bootstrapJob.restart(), after the
    /// caller's checks) of `replicates` resamples on `pool`: `compute(cancel, progress)` runs
    /// there and calls progress(done, total) after each resample (forwarded as
    /// bootstrapProgress while the run is current); `done(result, error)` runs on the GUI thread
    /// if the run is still the newest, then activityChanged is emitted. Emits bootstrapStarted.
    template <typename Compute, typename Done>
    void startBootstrapJob(QThreadPool* pool, quint64 generation, int replicates, Compute compute,
                           Done done) {
        m_bootstrapReplicates = replicates;
        std::function<void(int, int)> progress = [this, generation](int finished, int total) {
            QMetaObject::invokeMethod(
                this,
                [this, generation, finished, total] {
                    if (m_bootstrapJob.isCurrent(generation)) {
                        emit bootstrapProgress(finished, total);
                    }
                },
                Qt::QueuedConnection);
        };
        startJob(
            pool, m_bootstrapJob, generation,
            [compute = std::move(compute), progress](const cx::CancelToken& cancel) {
                return compute(cancel, progress);
            },
            [this, done = std::move(done)](auto result, const QString& error) {
                done(std::move(result), error);
                emit activityChanged();
            });
        emit bootstrapStarted(replicates);
        emit activityChanged();
    }

    JobSlot m_bootstrapJob;
    int m_bootstrapReplicates = 0; ///< of the last bootstrap started

private:
    QElapsedTimer m_clock;
    quint64 m_nextGeneration = 0; ///< generations of tasks and solves
    std::vector<std::unique_ptr<QThreadPool>> m_pools;
};

/// The controller base every workspace uses (TopicsController, ChromatinController, …). It
/// owns the worker thread (a `Worker` derived from WorkerBase), the long task (one at a time,
/// a new one cancels the old one, late signals of an old generation are ignored), the solves
/// (SolveScheduler, "latest request wins") and the failure reporting of both. `Derived`
/// declares the typed signals `taskStarted(Kind, QString)` and `taskFinished(Kind, QString)`
/// (outcome "finished", "cancelled" or "failed") and implements the hooks below.
///
/// `SolveRequest` is the scheduler's request type (see SolveScheduler).
template <typename Derived, typename Kind, typename Worker, typename SolveRequest>
class WorkspaceControllerBase : public WorkspaceController {
public:
    /// Cancels the running long task, if any; what was loaded and computed stays.
    void cancelTask() { m_task.cancel(); }
    bool isTaskRunning() const { return m_task.isRunning(); }
    bool isSolving() const { return m_solves.isBusy(); }
    /// The worker and its thread (tests check that work happens off the GUI thread).
    const QObject* worker() const { return m_worker.worker(); }
    const QThread* workerThread() const { return m_worker.thread(); }
    /// See SolveScheduler; 0 shows every in-order result, a huge value only the latest.
    void setLivePreviewInterval(int milliseconds) { m_solves.setLivePreviewInterval(milliseconds); }

protected:
    WorkspaceControllerBase(const QString& threadName, Kind initialKind, SolveStatistics& stats,
                            QObject* parent)
        : WorkspaceController(parent), m_worker(threadName), m_task(initialKind),
          m_solves(stats, [this](SolveRequest request) { dispatchSolve(std::move(request)); }) {
        // Worker → controller signals cross threads, so they are queued: handlers run on the
        // GUI thread, where all controller state lives (no locks needed).
        const Worker* worker = m_worker.worker();
        connect(worker, &Worker::progress, this,
                [this](quint64 generation, double fraction, const QString& phase) {
                    if (m_task.isCurrent(generation)) {
                        emit taskProgress(fraction, phase);
                    }
                });
        connect(worker, &Worker::taskCancelled, this, [this](quint64 generation) {
            if (!m_task.isCurrent(generation)) {
                return;
            }
            finishTask(QStringLiteral("cancelled"));
            taskAborted();
        });
        connect(worker, &Worker::taskFailed, this,
                [this](quint64 generation, const QString& message) {
                    if (!m_task.isCurrent(generation)) {
                        return;
                    }
                    const Kind kind = m_task.kind();
                    finishTask(QStringLiteral("failed"));
                    taskAborted();
                    emit errorOccurred(taskFailureTitle(kind), message);
                });
        connect(worker, &Worker::solveFailed, this,
                [this](quint64 /*generation*/, quint64 epoch, const QString& message) {
                    const auto failure = m_solves.failed(epoch);
                    finishSolve();
                    if (failure.relevant) {
                        emit static_cast<Derived*>(this)->solveFailed(message);
                        if (failure.firstOfEpoch) {
                            emit errorOccurred(solveFailureTitle(), message);
                        }
                    }
                });
        connect(worker, &Worker::solveCancelled, this, [this](quint64 /*generation*/) {
            m_solves.cancelled();
            finishSolve();
        });
    }

    /// Call first in the derived destructor, after cancelling the derived jobs' slots. Order
    /// matters: cancel first so that core returns at its next check, then stop the worker's
    /// event loop (queued requests are discarded) and wait, then drain the job pools, so no
    /// worker or job code runs on a destroyed controller.
    void shutDown() {
        m_task.cancel();
        m_solves.cancelAll();
        m_worker.stop();
        waitForJobs();
    }

    /// Title of the dialog for a failed long task of `kind`.
    virtual QString taskFailureTitle(Kind kind) const = 0;
    /// Title of the dialog for the first failed solve of an epoch.
    virtual QString solveFailureTitle() const = 0;
    /// A long task was cancelled or failed: make the requested state match what is shown again.
    virtual void taskAborted() {}
    /// Sends a scheduled solve to the worker.
    virtual void dispatchSolve(SolveRequest request) = 0;
    /// The solves are quiet (nothing in flight or pending), e.g. to start follow-up work.
    virtual void solvesQuiet() {}

    /// Starts a long task of `kind` (cancelling the running one) and announces it.
    void startTask(Kind kind, const QString& description) {
        m_task.start(kind, nextGeneration());
        emit static_cast<Derived*>(this)->taskStarted(kind, description);
        emit activityChanged();
    }
    /// The running long task ended with `outcome`.
    void finishTask(const QString& outcome) {
        const Kind kind = m_task.finish();
        emit static_cast<Derived*>(this)->taskFinished(kind, outcome);
        emit activityChanged();
    }
    /// The in-flight solve returned (result, failure or cancellation): dispatches the pending
    /// one, or calls solvesQuiet().
    void finishSolve() {
        if (!m_solves.finishInFlight()) {
            solvesQuiet();
        }
        emit activityChanged();
    }

    WorkerThread<Worker> m_worker;
    TaskSlot<Kind> m_task;
    SolveScheduler<SolveRequest> m_solves;
};

} // namespace cx::ui
