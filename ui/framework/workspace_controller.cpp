#include "ui/framework/workspace_controller.h"

#include "core/common/format.h"

#include <cmath>

namespace cx::ui {

WorkspaceController::WorkspaceController(QObject* parent) : QObject(parent) {
    m_clock.start();
}

WorkspaceController::~WorkspaceController() {
    // Derived controllers drain the pools in their destructor (their jobs touch their
    // members); this is the safety net for controllers that start none.
    waitForJobs();
}

QThreadPool* WorkspaceController::createJobPool() {
    m_pools.push_back(std::make_unique<QThreadPool>());
    m_pools.back()->setMaxThreadCount(1);
    return m_pools.back().get();
}

void WorkspaceController::waitForJobs() {
    for (const auto& pool : m_pools) {
        pool->waitForDone();
    }
}

bool WorkspaceController::acceptGamma(double gamma) {
    if (std::isfinite(gamma) && gamma >= 0) {
        return true;
    }
    emit errorOccurred(tr("Invalid contrast weight"),
                       tr("γ must be a finite number ≥ 0 (got %1); the previous γ and its results "
                          "are kept.")
                           .arg(QString::fromStdString(cx::formatNumber(gamma))));
    return false;
}

} // namespace cx::ui
