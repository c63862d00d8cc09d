// The controller base's thread-pool job helpers on their own: results come back on the GUI
// thread, a restarted slot drops the old run's result, a cancelled run posts nothing, and an
// exception becomes the error text.
#include "../gui_test_helpers.h"

#include "ui/framework/workspace_controller.h"

#include <gtest/gtest.h>

#include <QThread>

#include <atomic>
#include <stdexcept>

using cx::ui::JobSlot;
using cx::ui::test::waitUntil;

namespace {

/// A controller with one job pool, exposing the helpers to the test.
class JobController : public cx::ui::WorkspaceController {
public:
    JobController() = default;
    ~JobController() override {
        m_slot.stop();
        waitForJobs();
    }

    /// Runs `compute` in the slot; records (value, error) of the run that is delivered.
    void run(std::function<int(const cx::CancelToken&)> compute) {
        const quint64 generation = m_slot.restart();
        startJob(m_pool, m_slot, generation, std::move(compute),
                 [this](int value, const QString& error) {
                     deliveredOnGuiThread = QThread::currentThread() == thread();
                     values.push_back(value);
                     errors.push_back(error);
                 });
    }
    JobSlot& slot() { return m_slot; }
    void drain() {
        waitForJobs();
        QCoreApplication::processEvents();
    }

    std::vector<int> values;
    QStringList errors;
    bool deliveredOnGuiThread = false;

private:
    QThreadPool* m_pool = createJobPool();
    JobSlot m_slot;
};

} // namespace

TEST(WorkspaceControllerJobs, ResultArrivesOnTheGuiThreadAndTheSlotStops) {
    JobController controller;
    controller.run([](const cx::CancelToken&) {
        EXPECT_NE(QThread::currentThread(), QCoreApplication::instance()->thread());
        return 42;
    });
    EXPECT_TRUE(controller.slot().running);
    ASSERT_TRUE(waitUntil([&] { return !controller.values.empty(); }));
    EXPECT_EQ(controller.values, std::vector<int>{42});
    EXPECT_TRUE(controller.errors.front().isEmpty());
    EXPECT_TRUE(controller.deliveredOnGuiThread);
    EXPECT_FALSE(controller.slot().running);
}

TEST(WorkspaceControllerJobs, ARestartDropsTheOlderRunAndCancelsIt) {
    JobController controller;
    std::atomic<bool> started{false};
    std::atomic<bool> release{false};
    std::atomic<bool> sawCancel{false};
    controller.run([&](const cx::CancelToken& cancel) {
        started = true;
        while (!release.load()) {
            QThread::msleep(1);
        }
        sawCancel = cancel.isCancelled();
        return 1; // finishes normally, but it is stale by now
    });
    ASSERT_TRUE(waitUntil([&] { return started.load(); }));
    controller.run([](const cx::CancelToken&) { return 2; });
    release = true;
    ASSERT_TRUE(waitUntil([&] { return !controller.values.empty(); }));
    QCoreApplication::processEvents(); // a stale result would be queued by now too
    EXPECT_EQ(controller.values, std::vector<int>{2});
    EXPECT_TRUE(sawCancel.load());
}

TEST(WorkspaceControllerJobs, CancelledRunsPostNothingAndErrorsAreReported) {
    JobController controller;
    controller.run([](const cx::CancelToken&) -> int { throw cx::Cancelled(); });
    controller.drain();
    EXPECT_TRUE(controller.values.empty());
    controller.run([](const cx::CancelToken&) -> int {
        throw std::runtime_error("data.bed:3: bad interval");
    });
    ASSERT_TRUE(waitUntil([&] { return !controller.values.empty(); }));
    EXPECT_EQ(controller.errors, QStringList{QStringLiteral("data.bed:3: bad interval")});
    EXPECT_FALSE(controller.slot().running);
}
