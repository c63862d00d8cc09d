#include "ui/framework/worker_base.h"

#include "ui/framework/progress_throttle.h"

#include <exception>
#include <new>

namespace cx::ui {

cx::ProgressFn WorkerBase::progressReporter(quint64 generation) {
    return throttledProgress([this, generation](double fraction, const QString& phase) {
        emit progress(generation, fraction, phase);
    });
}

void WorkerBase::runTask(quint64 generation, const QString& outOfMemoryMessage,
                         const std::function<void()>& task) {
    try {
        task();
    } catch (const cx::Cancelled&) {
        emit taskCancelled(generation);
    } catch (const std::bad_alloc&) {
        emit taskFailed(generation, outOfMemoryMessage);
    } catch (const std::exception& error) {
        emit taskFailed(generation, QString::fromStdString(error.what()));
    }
}

void WorkerBase::runSolve(quint64 generation, quint64 epoch, const std::function<void()>& solve) {
    try {
        solve();
    } catch (const cx::Cancelled&) {
        emit solveCancelled(generation);
    } catch (const std::exception& error) {
        emit solveFailed(generation, epoch, QString::fromStdString(error.what()));
    }
}

} // namespace cx::ui
