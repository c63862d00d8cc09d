#pragma once

#include "core/common/cancel.h"
#include "core/common/error.h"
#include "ui/framework/solve_scheduler.h"
#include "ui/framework/task_outcome.h"
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
/// helpers. Controllers derive from WorkspaceControllerBase below, which adds the worker and
/// the long task (SolvingControllerBase: and the solves); a controller with a bootstrap roots
/// them in BootstrappingController (bootstrap_controller.h) instead.
class WorkspaceController : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceController(QObject* parent = nullptr);
    ~WorkspaceController() override;

    /// Milliseconds on the controller clock (request timestamps use it).
    qint64 clockMs() const { return m_clock.elapsed(); }

signals:
    void taskProgress(double fraction, const QString& phase);
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

private:
    QElapsedTimer m_clock;
    quint64 m_nextGeneration = 0; ///< generations of tasks and solves
    std::vector<std::unique_ptr<QThreadPool>> m_pools;
};

/// The controller base every workspace uses (TopicsController, ChromatinController, …). It
/// owns the worker thread (a `Worker` derived from WorkerBase) and the long task (one at a
/// time, a new one cancels the old one, late signals of an old generation are ignored), and
/// reports the task's failures. `Derived` declares the typed signals `taskStarted(Kind,
/// QString)` and `taskFinished(Kind, TaskOutcome)` and implements taskFailureTitle (and
/// optionally taskAborted). Workspaces with slider-driven solves derive from
/// SolvingControllerBase below instead.
template <typename Derived, typename Kind, typename Worker, typename Root = WorkspaceController>
class WorkspaceControllerBase : public Root {
    static_assert(std::is_base_of_v<WorkspaceController, Root>);

public:
    /// Cancels the running long task, if any; what was loaded and computed stays.
    void cancelTask() { m_task.cancel(); }
    bool isTaskRunning() const { return m_task.isRunning(); }
    /// The worker and its thread (tests check that work happens off the GUI thread).
    const QObject* worker() const { return m_worker.worker(); }
    const QThread* workerThread() const { return m_worker.thread(); }

protected:
    WorkspaceControllerBase(const QString& threadName, Kind initialKind, QObject* parent)
        : Root(parent), m_worker(threadName), m_task(initialKind) {
        qRegisterMetaType<TaskOutcome>();
        // Worker → controller signals cross threads, so they are queued: handlers run on the
        // GUI thread, where all controller state lives (no locks needed).
        const Worker* worker = m_worker.worker();
        this->connect(worker, &Worker::progress, this,
                      [this](quint64 generation, double fraction, const QString& phase) {
                          if (m_task.isCurrent(generation)) {
                              emit this->taskProgress(fraction, phase);
                          }
                      });
        this->connect(worker, &Worker::taskCancelled, this, [this](quint64 generation) {
            if (!m_task.isCurrent(generation)) {
                return;
            }
            finishTask(TaskOutcome::Cancelled);
            taskAborted();
        });
        this->connect(worker, &Worker::taskFailed, this,
                      [this](quint64 generation, const QString& message) {
                          if (!m_task.isCurrent(generation)) {
                              return;
                          }
                          const Kind kind = m_task.kind();
                          finishTask(TaskOutcome::Failed);
                          taskAborted();
                          emit this->errorOccurred(taskFailureTitle(kind), message);
                      });
    }

    /// Call first in the derived destructor, after cancelling the derived jobs' slots. Order
    /// matters: cancel first so that core returns at its next check, then stop the worker's
    /// event loop (queued requests are discarded) and wait, then drain the job pools, so no
    /// worker or job code runs on a destroyed controller.
    void shutDown() {
        m_task.cancel();
        m_worker.stop();
        this->waitForJobs();
    }

    /// Title of the dialog for a failed long task of `kind`.
    virtual QString taskFailureTitle(Kind kind) const = 0;
    /// A long task was cancelled or failed: make the requested state match what is shown again.
    virtual void taskAborted() {}

    /// Starts a long task of `kind` (cancelling the running one) and announces it.
    void startTask(Kind kind, const QString& description) {
        m_task.start(kind, this->nextGeneration());
        emit static_cast<Derived*>(this)->taskStarted(kind, description);
        emit this->activityChanged();
    }
    /// The running long task ended with `outcome`.
    void finishTask(TaskOutcome outcome) {
        const Kind kind = m_task.finish();
        emit static_cast<Derived*>(this)->taskFinished(kind, outcome);
        emit this->activityChanged();
    }

    WorkerThread<Worker> m_worker;
    TaskSlot<Kind> m_task;
};

/// WorkspaceControllerBase with slider-driven solves: a SolveScheduler ("latest request wins")
/// of `SolveRequest`s and the reporting of their failures. `Derived` also declares the signal
/// `solveFailed(QString)` and implements solveFailureTitle and dispatchSolve (optionally
/// solvesQuiet).
template <typename Derived, typename Kind, typename Worker, typename SolveRequest,
          typename Root = WorkspaceController>
class SolvingControllerBase : public WorkspaceControllerBase<Derived, Kind, Worker, Root> {
    using Base = WorkspaceControllerBase<Derived, Kind, Worker, Root>;

public:
    bool isSolving() const { return m_solves.isBusy(); }
    /// See SolveScheduler; 0 shows every in-order result, a huge value only the latest.
    void setLivePreviewInterval(int milliseconds) { m_solves.setLivePreviewInterval(milliseconds); }

protected:
    SolvingControllerBase(const QString& threadName, Kind initialKind, SolveStatistics& stats,
                          QObject* parent)
        : Base(threadName, initialKind, parent),
          m_solves(stats, [this](SolveRequest request) { dispatchSolve(std::move(request)); }) {
        const Worker* worker = this->m_worker.worker();
        this->connect(worker, &Worker::solveFailed, this,
                      [this](quint64 /*generation*/, quint64 epoch, const QString& message) {
                          const auto failure = m_solves.failed(epoch);
                          finishSolve();
                          if (failure.relevant) {
                              emit static_cast<Derived*>(this)->solveFailed(message);
                              if (failure.firstOfEpoch) {
                                  emit this->errorOccurred(solveFailureTitle(), message);
                              }
                          }
                      });
        this->connect(worker, &Worker::solveCancelled, this, [this](quint64 /*generation*/) {
            m_solves.cancelled();
            finishSolve();
        });
    }

    /// WorkspaceControllerBase::shutDown, cancelling the solves too.
    void shutDown() {
        m_solves.cancelAll();
        Base::shutDown();
    }

    /// Title of the dialog for the first failed solve of an epoch.
    virtual QString solveFailureTitle() const = 0;
    /// Sends a scheduled solve to the worker.
    virtual void dispatchSolve(SolveRequest request) = 0;
    /// The solves are quiet (nothing in flight or pending), e.g. to start follow-up work.
    virtual void solvesQuiet() {}

    /// The in-flight solve returned (result, failure or cancellation): dispatches the pending
    /// one, or calls solvesQuiet().
    void finishSolve() {
        if (!m_solves.finishInFlight()) {
            solvesQuiet();
        }
        emit this->activityChanged();
    }

    SolveScheduler<SolveRequest> m_solves;
};

} // namespace cx::ui
