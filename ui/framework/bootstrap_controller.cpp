#include "ui/framework/bootstrap_controller.h"

namespace cx::ui {

void BootstrappingController::cancelBootstrap() {
    const bool wasRunning = m_bootstrapJob.running;
    m_bootstrapJob.stop();
    if (wasRunning) {
        emit bootstrapFailed(QString());
        emit activityChanged();
    }
}

} // namespace cx::ui
