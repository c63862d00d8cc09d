#include "core/common/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
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

} // namespace
} // namespace cx
