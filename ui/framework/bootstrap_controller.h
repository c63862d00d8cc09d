#pragma once

#include "ui/framework/workspace_controller.h"

#include <QString>

#include <functional>
#include <utility>

namespace cx::ui {

/// The root of a controller with a bootstrap (bands and stability along its γ path, Topics and
/// Chromatin): WorkspaceController plus the bootstrap's run state, its signals and the helper
/// that starts it on a pool. A controller without one roots in WorkspaceController.
///   class TopicsController : public SolvingControllerBase<TopicsController, …,
///                                                         BootstrappingController>
class BootstrappingController : public WorkspaceController {
    Q_OBJECT
public:
    using WorkspaceController::WorkspaceController;

    /// Whether a bootstrap runs, the resamples of the last one started (0: none), and Cancel —
    /// the running bootstrap stops, its result is dropped and bootstrapFailed("") is emitted.
    bool isBootstrapRunning() const { return m_bootstrapJob.running; }
    int bootstrapReplicates() const { return m_bootstrapReplicates; }
    void cancelBootstrap();

signals:
    /// A bootstrap of `replicates` resamples started.
    void bootstrapStarted(int replicates);
    /// `done` of `total` resamples of the running bootstrap finished.
    void bootstrapProgress(int done, int total);
    /// The bootstrap failed with `message`; empty when cancelled or superseded.
    void bootstrapFailed(const QString& message);

protected:
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
};

} // namespace cx::ui
