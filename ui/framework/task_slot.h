#pragma once

#include "core/common/cancel.h"

#include <QtGlobal>

namespace cx::ui {

/// A controller's long task (a load, an engine build, a moment pass): one at a time; a new one
/// cancels the old one, whose late signals carry its old generation and are ignored. Lives on
/// the GUI thread next to its controller, which emits its own signals. `Kind` names the tasks.
template <typename Kind> class TaskSlot {
public:
    explicit TaskSlot(Kind initialKind) : m_kind(initialKind) {}

    /// Starts a task of `kind` with `generation` (> 0, increasing; the controller's counter)
    /// and a fresh cancel token; cancels the running task.
    void start(Kind kind, quint64 generation) {
        cancel();
        m_generation = generation;
        m_kind = kind;
        m_cancel = cx::CancelToken::create();
    }
    /// The running task ended (finished, cancelled or failed); returns its kind.
    Kind finish() {
        m_generation = 0;
        return m_kind;
    }
    /// Asks the running task, if any, to stop (its worker then reports it cancelled).
    void cancel() {
        if (m_generation != 0) {
            m_cancel.cancel();
        }
    }

    bool isRunning() const { return m_generation != 0; }
    bool isRunning(Kind kind) const { return m_generation != 0 && m_kind == kind; }
    /// Whether a worker signal tagged `generation` belongs to the running task.
    bool isCurrent(quint64 generation) const { return generation == m_generation; }
    /// The running task's generation and token (what its request carries).
    quint64 generation() const { return m_generation; }
    const cx::CancelToken& cancelToken() const { return m_cancel; }
    /// The running task's kind (or the last one's).
    Kind kind() const { return m_kind; }

private:
    quint64 m_generation = 0; ///< 0: no task running
    Kind m_kind;
    cx::CancelToken m_cancel;
};

} // namespace cx::ui
