// TaskSlot on its own: one long task at a time, a new one cancels the old one, and late
// signals of a superseded task are recognised by their generation.
#include "ui/framework/task_slot.h"

#include <gtest/gtest.h>

using cx::ui::TaskSlot;

namespace {

enum class Kind { Load, Build };

} // namespace

TEST(TaskSlot, NewTaskCancelsTheRunningOneAndOwnsTheGeneration) {
    TaskSlot<Kind> task(Kind::Load);
    EXPECT_FALSE(task.isRunning());
    EXPECT_FALSE(task.isCurrent(1));

    task.start(Kind::Load, 1);
    const cx::CancelToken load = task.cancelToken();
    EXPECT_TRUE(task.isRunning());
    EXPECT_TRUE(task.isRunning(Kind::Load));
    EXPECT_FALSE(task.isRunning(Kind::Build));
    EXPECT_TRUE(task.isCurrent(1));

    task.start(Kind::Build, 2);
    EXPECT_TRUE(load.isCancelled()) << "the superseded load is cancelled";
    EXPECT_FALSE(task.cancelToken().isCancelled());
    EXPECT_FALSE(task.isCurrent(1)) << "the load's late signals are ignored";
    EXPECT_TRUE(task.isCurrent(2));
    EXPECT_EQ(task.generation(), 2u);
    EXPECT_EQ(task.kind(), Kind::Build);

    EXPECT_EQ(task.finish(), Kind::Build);
    EXPECT_FALSE(task.isRunning());
    EXPECT_FALSE(task.isCurrent(2));
}

TEST(TaskSlot, CancelStopsOnlyARunningTask) {
    TaskSlot<Kind> task(Kind::Load);
    task.cancel(); // nothing running: no effect
    task.start(Kind::Build, 5);
    const cx::CancelToken build = task.cancelToken();
    task.cancel();
    EXPECT_TRUE(build.isCancelled());
    EXPECT_TRUE(task.isRunning()) << "running until its worker reports it cancelled";
    task.finish();

    task.start(Kind::Load, 6);
    task.finish();
    task.cancel();
    EXPECT_FALSE(task.cancelToken().isCancelled()) << "a finished task is left alone";
}
