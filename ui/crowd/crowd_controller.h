#pragma once

#include "ui/crowd/crowd_types.h"
#include "ui/crowd/crowd_worker.h"
#include "ui/framework/task_slot.h"
#include "ui/framework/worker_thread.h"

#include <QObject>
#include <QString>

namespace cx::ui {

/// The Crowd workspace's controller (GUI thread). One task at a time — loading labels, running
/// one method, or the method comparison — on a member worker thread; a new task cancels the
/// running one and its late signals (older generation) are dropped. On failure or cancel the
/// previous labels and results stay.
class CrowdController : public QObject {
    Q_OBJECT
public:
    enum class Task { Load, Run, Compare };

    explicit CrowdController(QObject* parent = nullptr);
    ~CrowdController() override;

    /// Reads `labelsPath` (and `goldPath` when not empty) in the background.
    void open(const QString& labelsPath, const QString& goldPath);
    /// Runs `method` on the loaded labels (nothing without labels).
    void run(cx::CrowdMethod method, const cx::CrowdOptions& options);
    /// Runs every method on the loaded labels, one after the other.
    void compare(const cx::CrowdOptions& options);
    void cancel();

    bool isBusy() const { return m_task.isRunning(); }
    const CrowdData& data() const { return m_data; }
    const QString& labelsPath() const { return m_labelsPath; }
    const QString& goldPath() const { return m_goldPath; }

signals:
    void taskStarted(const QString& description, bool cancellable);
    void taskProgress(double fraction, const QString& phase);
    void taskFinished(const QString& outcome);
    void dataLoaded();
    void runReady(const cx::ui::CrowdRun& run);
    void comparisonStep(const cx::ui::CrowdRun& run);
    /// The comparison ended; `complete` is false when it was cancelled or failed.
    void comparisonDone(bool complete);
    void errorOccurred(const QString& title, const QString& message);

private:
    quint64 startTask(Task task, const QString& description);
    void endTask(const QString& outcome);

    WorkerThread<CrowdWorker> m_thread{QStringLiteral("crowd worker")};
    TaskSlot<Task> m_task{Task::Load};
    quint64 m_generation = 0;
    CrowdData m_data;
    QString m_labelsPath;
    QString m_goldPath;
    QString m_pendingLabels;
    QString m_pendingGold;
};

} // namespace cx::ui
