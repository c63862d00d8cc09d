#pragma once

#include "core/common/cancel.h"

#include <QObject>
#include <QString>

#include <functional>

namespace cx::ui {

/// What TopicWorker and ChromatinWorker share: the signals of their long tasks (loads, moment
/// passes) and solves, throttled progress reports, and how a slot's exceptions become signals.
/// A worker lives on its controller's worker thread and is stateless: every request carries
/// what it needs. Every slot catches everything: core throws cx::Cancelled when a token is set
/// (reported as cancelled), cx::InputError for user-facing problems and std::exception
/// otherwise (both reported as failed with the message; readers' messages name file and line).
class WorkerBase : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

signals:
    void progress(quint64 generation, double fraction, const QString& phase);
    void taskCancelled(quint64 generation);
    void taskFailed(quint64 generation, const QString& message);
    void solveFailed(quint64 generation, quint64 epoch, const QString& message);
    void solveCancelled(quint64 generation);

protected:
    /// A core progress callback that emits progress(generation, …), throttled (see
    /// throttledProgress).
    cx::ProgressFn progressReporter(quint64 generation);
    /// Runs a long task: cx::Cancelled → taskCancelled, std::bad_alloc → taskFailed with
    /// `outOfMemoryMessage`, any other std::exception → taskFailed with its message.
    void runTask(quint64 generation, const QString& outOfMemoryMessage,
                 const std::function<void()>& task);
    /// Runs a solve: cx::Cancelled → solveCancelled, std::exception → solveFailed with its
    /// message.
    void runSolve(quint64 generation, quint64 epoch, const std::function<void()>& solve);
};

} // namespace cx::ui
