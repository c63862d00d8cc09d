#include "ui/framework/progress_throttle.h"

#include <QElapsedTimer>

#include <memory>
#include <mutex>

namespace cx::ui {

namespace {

struct ProgressThrottle {
    std::mutex mutex;
    QElapsedTimer clock;
    qint64 lastMs = -1000000;
    QString lastPhase;
};

} // namespace

cx::ProgressFn throttledProgress(std::function<void(double fraction, const QString& phase)> report,
                                 int intervalMs) {
    auto throttle = std::make_shared<ProgressThrottle>();
    throttle->clock.start();
    return [report = std::move(report), throttle, intervalMs](double fraction, const char* phase) {
        const QString phaseText = QString::fromUtf8(phase ? phase : "");
        {
            std::lock_guard<std::mutex> lock(throttle->mutex);
            const qint64 now = throttle->clock.elapsed();
            if (phaseText == throttle->lastPhase && now - throttle->lastMs < intervalMs &&
                fraction < 1.0) {
                return;
            }
            throttle->lastMs = now;
            throttle->lastPhase = phaseText;
        }
        report(fraction, phaseText);
    };
}

} // namespace cx::ui
