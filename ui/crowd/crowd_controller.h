#pragma once

#include "ui/crowd/crowd_types.h"
#include "ui/crowd/crowd_worker.h"
#include "ui/framework/workspace_controller.h"

#include <QString>

namespace cx::ui {

/// The Crowd workspace's controller (GUI thread), on WorkspaceControllerBase: one long task at
/// a time — loading labels, running one method, or the method comparison — on the base's
/// worker thread; a new task cancels the running one and its late signals (older generation)
/// are dropped. On failure or cancel the previous labels and results stay, and failures reach
/// errorOccurred with the base's reporting.
class CrowdController
    : public WorkspaceControllerBase<CrowdController, CrowdTaskKind, CrowdWorker> {
    Q_OBJECT
public:
    using Task = CrowdTaskKind;

    explicit CrowdController(QObject* parent = nullptr);
    ~CrowdController() override;

    /// Reads `labelsPath` (and `goldPath` when not empty) in the background.
    void open(const QString& labelsPath, const QString& goldPath);
    /// Runs `method` on the loaded labels (nothing without labels, nothing while labels are
    /// being read: the new labels would be dropped for the old ones — fit on dataLoaded).
    void run(cx::CrowdMethod method, const cx::CrowdOptions& options);
    /// Runs every method on the loaded labels, one after the other (nothing without labels or
    /// while labels are being read, as run()).
    void compare(const cx::CrowdOptions& options);
    void cancel() { cancelTask(); }
    /// Drops the labels (File ▸ New): cancels the running task.
    void clear();

    bool isBusy() const { return isTaskRunning(); }
    /// True while labels are being read (open()).
    bool isLoading() const { return m_task.isRunning(CrowdTaskKind::Load); }
    /// The kind of the running task (or of the last one).
    CrowdTaskKind taskKind() const { return m_task.kind(); }
    const CrowdData& data() const { return m_data; }
    const QString& labelsPath() const { return m_labelsPath; }
    const QString& goldPath() const { return m_goldPath; }
    /// The method and options of the last run that finished (shown).
    cx::CrowdMethod shownMethod() const { return m_shownMethod; }
    const cx::CrowdOptions& shownOptions() const { return m_shownOptions; }

signals:
    void taskStarted(cx::ui::CrowdTaskKind kind, const QString& description);
    void taskFinished(cx::ui::CrowdTaskKind kind, cx::ui::TaskOutcome outcome);
    void dataLoaded();
    void runReady(const cx::ui::CrowdRun& run);
    void comparisonStep(const cx::ui::CrowdRun& run);
    /// The comparison ended; `complete` is false when it was cancelled or failed.
    void comparisonDone(bool complete);

protected:
    QString taskFailureTitle(CrowdTaskKind kind) const override;
    void taskAborted() override;

private:
    /// A new task replaced a running comparison: report it as stopped.
    void endSupersededComparison(bool wasComparing);

    CrowdData m_data;
    QString m_labelsPath;
    QString m_goldPath;
    QString m_pendingLabels;
    QString m_pendingGold;
    cx::CrowdMethod m_pendingMethod = cx::CrowdMethod::StagewiseRefine;
    cx::CrowdOptions m_pendingOptions;
    cx::CrowdMethod m_shownMethod = cx::CrowdMethod::StagewiseRefine;
    cx::CrowdOptions m_shownOptions;
};

} // namespace cx::ui
