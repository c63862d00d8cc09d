#pragma once

#include "core/common/cancel.h"

#include <QString>

#include <functional>

namespace cx::ui {

/// Wraps a "report progress to the GUI" function as a core ProgressFn that forwards at most one
/// update per `intervalMs` for the same phase (a phase change and the final 100 % always pass).
/// Core may report progress for every slot of a pass, from several pass threads; flooding the
/// GUI thread's event queue with thousands of queued signals would itself make the UI stall.
/// Thread-safe: the returned function may be called from any thread.
cx::ProgressFn throttledProgress(std::function<void(double fraction, const QString& phase)> report,
                                 int intervalMs = 40);

} // namespace cx::ui
