#include "core/common/parallel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cx {
namespace {

// Many short jobs in a row, each seeing what the caller wrote before posting it and leaving what
// it wrote for the caller after wait(): the hand-over orders memory both ways.
TEST(HelperThread, RunsEveryPostedJobOnAnotherThreadInOrder) {
    HelperThread helper;
    helper.wait(); // nothing posted: returns at once
    std::vector<int> values(2000, 0);
    int carried = 0;
    std::thread::id helperId;
    for (int i = 0; i < 2000; ++i) {
        carried = i;
        helper.post([&, i] {
            values[static_cast<size_t>(i)] = carried * 2 + 1;
            helperId = std::this_thread::get_id();
        });
        helper.wait();
        EXPECT_EQ(values[static_cast<size_t>(i)], 2 * i + 1);
    }
    EXPECT_NE(helperId, std::this_thread::get_id());
}

// A job that throws: wait() rethrows it once, and the helper runs the next job.
TEST(HelperThread, RethrowsAJobsExceptionAndStaysUsable) {
    HelperThread helper;
    helper.post([] { throw std::runtime_error("job failed"); });
    EXPECT_THROW(helper.wait(), std::runtime_error);
    helper.wait(); // the error was handed over once
    bool ran = false;
    helper.post([&] { ran = true; });
    helper.wait();
    EXPECT_TRUE(ran);
}

// Ending the helper while a job runs waits for the job: what it uses stays alive until it ends.
TEST(HelperThread, TheDestructorWaitsForAPostedJob) {
    std::atomic<bool> finished{false};
    {
        HelperThread helper;
        helper.post([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            finished = true;
        });
    }
    EXPECT_TRUE(finished);
    { HelperThread idle; } // ends without a job
}

// A pass started inside a share of a pass runs on that share's thread: threadCount() is 1 there,
// the inner items all run on the outer body's thread, and the outer pass still spreads its items
// over two threads and sees the configured count again after it.
TEST(ParallelFor, NestedPassesRunOnTheCallingThread) {
    setThreadCount(2);
    std::mutex mutex;
    std::set<std::thread::id> outerThreads;
    std::vector<int> innerCounts(4, -1);
    std::vector<int> innerOnOwnThread(4, 0);
    std::vector<int> sums(4, 0);
    parallelFor(4, [&](std::int64_t i) {
        const auto self = std::this_thread::get_id();
        {
            std::lock_guard<std::mutex> lock(mutex);
            outerThreads.insert(self);
        }
        innerCounts[static_cast<size_t>(i)] = threadCount();
        int sameThread = 0;
        parallelFor(10, [&](std::int64_t j) {
            sameThread += std::this_thread::get_id() == self;
            sums[static_cast<size_t>(i)] += static_cast<int>(j);
        });
        forEachSlot(100, kReductionSlots, [&](int, std::int64_t, std::int64_t) {
            sameThread += std::this_thread::get_id() == self;
        });
        innerOnOwnThread[static_cast<size_t>(i)] = sameThread;
    });
    EXPECT_EQ(outerThreads.size(), 2U);
    EXPECT_EQ(innerCounts, std::vector<int>(4, 1));
    EXPECT_EQ(innerOnOwnThread, std::vector<int>(4, 10 + kReductionSlots));
    EXPECT_EQ(sums, std::vector<int>(4, 45));
    EXPECT_EQ(threadCount(), 2);
    // One item: no second thread is started, so a pass inside it may still use both.
    int single = 0;
    parallelFor(1, [&](std::int64_t) { single = threadCount(); });
    EXPECT_EQ(single, 2);
    setThreadCount(0);
}

} // namespace
} // namespace cx
