#pragma once

#include <QMetaObject>
#include <QString>
#include <QThread>

#include <memory>
#include <utility>

namespace cx::ui {

/// A controller's worker: a `Worker` QObject on a member QThread. The worker is created with
/// this object and moved to the thread; the owner connects its signals, then calls start().
/// stop() ends the thread's event loop (calls still queued are discarded), waits for the running
/// call and deletes the worker; the owner cancels running work first, so that the wait is short.
/// The destructor stops too, for owners that have nothing to cancel.
template <typename Worker> class WorkerThread {
public:
    explicit WorkerThread(const QString& threadName) : m_worker(new Worker) {
        m_worker->moveToThread(&m_thread);
        m_thread.setObjectName(threadName);
    }
    ~WorkerThread() { stop(); }
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;

    /// Null after stop().
    Worker* worker() const { return m_worker; }
    const QThread* thread() const { return &m_thread; }

    void start() { m_thread.start(); }
    void stop() {
        m_thread.quit();
        m_thread.wait();
        delete m_worker;
        m_worker = nullptr;
    }

    /// Queues `call(worker)` on the worker thread, after the calls queued before it.
    template <typename Call> void post(Call call) {
        QMetaObject::invokeMethod(
            m_worker, [worker = m_worker, call = std::move(call)] { call(*worker); },
            Qt::QueuedConnection);
    }

    /// Drops the reference to `object` on the worker thread: freeing a large corpus, engine,
    /// track set or moments (millions of small allocations) can take tens of milliseconds, which
    /// would stall the GUI.
    void release(std::shared_ptr<const void> object) {
        if (!object || !m_worker) {
            return;
        }
        QMetaObject::invokeMethod(
            m_worker, [keep = std::move(object)]() mutable { keep.reset(); }, Qt::QueuedConnection);
    }

private:
    QThread m_thread;
    Worker* m_worker = nullptr; ///< lives on m_thread; deleted after the thread stopped
};

} // namespace cx::ui
