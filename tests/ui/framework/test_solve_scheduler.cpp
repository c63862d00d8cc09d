// SolveScheduler on its own: coalescing, epochs, stale results, live previews and failures,
// with a fake dispatch that only records what would be sent to a worker (no threads).
#include "ui/framework/solve_scheduler.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

using cx::ui::SolveScheduler;
using cx::ui::SolveStatistics;

namespace {

struct FakeRequest {
    quint64 generation = 0;
    quint64 epoch = 0;
    cx::CancelToken cancel;
};

struct FakeSolution {
    quint64 generation = 0;
    quint64 epoch = 0;
    bool valid = false;

    bool isValid() const { return valid; }
};

class SolveSchedulerTest : public ::testing::Test {
protected:
    /// A request of the scheduler's current epoch with the next generation.
    FakeRequest request() {
        return FakeRequest{++m_generation, m_scheduler.epoch(), cx::CancelToken::create()};
    }
    static FakeSolution resultOf(const FakeRequest& request) {
        return FakeSolution{request.generation, request.epoch, true};
    }

    SolveStatistics m_stats;
    std::vector<FakeRequest> m_dispatched;
    SolveScheduler<FakeRequest> m_scheduler{
        m_stats, [this](FakeRequest r) { m_dispatched.push_back(std::move(r)); }};
    quint64 m_generation = 0;
};

} // namespace

TEST_F(SolveSchedulerTest, DispatchesAtOnceWhenIdleAndCoalescesWhileBusy) {
    EXPECT_FALSE(m_scheduler.isBusy());
    m_scheduler.submit(request());
    ASSERT_EQ(m_dispatched.size(), 1u);
    EXPECT_TRUE(m_scheduler.isBusy());
    for (int i = 0; i < 5; ++i) {
        m_scheduler.submit(request());
    }
    EXPECT_EQ(m_dispatched.size(), 1u) << "one solve in flight at most";
    EXPECT_EQ(m_stats.solveRequests, 6);
    EXPECT_EQ(m_stats.solvesCoalesced, 4) << "each pending request replaced counts once";

    EXPECT_TRUE(m_scheduler.finishInFlight());
    ASSERT_EQ(m_dispatched.size(), 2u);
    EXPECT_EQ(m_dispatched.back().generation, 6u) << "the newest request wins";
    EXPECT_TRUE(m_scheduler.isBusy());
    EXPECT_FALSE(m_scheduler.finishInFlight());
    EXPECT_FALSE(m_scheduler.isBusy());
    EXPECT_EQ(m_stats.solvesDispatched, 2);
}

TEST_F(SolveSchedulerTest, NewEpochCancelsInFlightAndDropsOldPending) {
    m_scheduler.submit(request());
    m_scheduler.submit(request()); // pending, old epoch after newEpoch()
    const cx::CancelToken inFlight = m_dispatched.front().cancel;
    m_scheduler.newEpoch();
    EXPECT_TRUE(inFlight.isCancelled());
    EXPECT_FALSE(m_scheduler.finishInFlight()) << "a pending request of an old epoch is dropped";
    EXPECT_EQ(m_stats.solvesCoalesced, 1);
    EXPECT_EQ(m_dispatched.size(), 1u);
    EXPECT_FALSE(m_scheduler.isBusy());
}

TEST_F(SolveSchedulerTest, ShowsNewerResultsOfTheCurrentEpochOnly) {
    FakeSolution shown;
    const FakeRequest first = request();
    m_scheduler.submit(first);
    EXPECT_TRUE(m_scheduler.acceptResult(resultOf(first), shown, true, 0));
    shown = resultOf(first);
    m_scheduler.finishInFlight();
    EXPECT_FALSE(m_scheduler.acceptResult(resultOf(first), shown, true, 1)) << "not newer";
    EXPECT_FALSE(m_scheduler.acceptResult(resultOf(request()), shown, false, 2)) << "other data";
    const FakeRequest old = request();
    m_scheduler.newEpoch();
    EXPECT_FALSE(m_scheduler.acceptResult(resultOf(old), shown, true, 3)) << "old epoch";
    EXPECT_EQ(m_stats.resultsShown, 1);
    EXPECT_EQ(m_stats.staleDropped, 3);
}

TEST_F(SolveSchedulerTest, SupersededResultIsShownOnlyAsALivePreview) {
    FakeSolution shown;
    m_scheduler.setLivePreviewInterval(100);
    const FakeRequest first = request();
    m_scheduler.submit(first);
    m_scheduler.submit(request()); // pending: the first result is superseded
    // The view was never refreshed: the superseded result is worth a preview.
    EXPECT_TRUE(m_scheduler.acceptResult(resultOf(first), shown, true, 1000));
    shown = resultOf(first);
    m_scheduler.finishInFlight();
    const FakeRequest second = m_dispatched.back();
    m_scheduler.submit(request());
    EXPECT_FALSE(m_scheduler.acceptResult(resultOf(second), shown, true, 1050))
        << "refreshed 50 ms ago";
    m_scheduler.finishInFlight();
    const FakeRequest third = m_dispatched.back();
    m_scheduler.submit(request());
    EXPECT_TRUE(m_scheduler.acceptResult(resultOf(third), shown, true, 1100))
        << "refreshed 100 ms ago";

    m_scheduler.setLivePreviewInterval(std::numeric_limits<int>::max());
    m_scheduler.finishInFlight();
    shown = resultOf(third);
    const FakeRequest fourth = m_dispatched.back();
    m_scheduler.submit(request());
    EXPECT_FALSE(m_scheduler.acceptResult(resultOf(fourth), shown, true, 1000000));
    m_scheduler.finishInFlight();
    EXPECT_TRUE(m_scheduler.acceptResult(resultOf(m_dispatched.back()), shown, true, 1000001))
        << "the latest result is always shown";
}

TEST_F(SolveSchedulerTest, OneDialogPerEpochForRelevantFailures) {
    m_scheduler.newEpoch();
    m_scheduler.submit(request());
    auto failure = m_scheduler.failed(m_scheduler.epoch());
    EXPECT_TRUE(failure.relevant);
    EXPECT_TRUE(failure.firstOfEpoch);
    m_scheduler.finishInFlight();

    m_scheduler.submit(request());
    m_scheduler.submit(request());
    failure = m_scheduler.failed(m_scheduler.epoch());
    EXPECT_FALSE(failure.relevant) << "a newer request is pending";
    m_scheduler.finishInFlight();
    failure = m_scheduler.failed(m_scheduler.epoch());
    EXPECT_TRUE(failure.relevant);
    EXPECT_FALSE(failure.firstOfEpoch) << "the epoch had its dialog";
    m_scheduler.finishInFlight();

    EXPECT_FALSE(m_scheduler.failed(m_scheduler.epoch() - 1).relevant) << "old epoch";
    m_scheduler.newEpoch();
    EXPECT_TRUE(m_scheduler.failed(m_scheduler.epoch()).firstOfEpoch);
    EXPECT_EQ(m_stats.solvesFailed, 5);
}

TEST_F(SolveSchedulerTest, CancelAllAndDropPending) {
    m_scheduler.submit(request());
    m_scheduler.submit(request());
    m_scheduler.cancelAll();
    EXPECT_TRUE(m_dispatched.front().cancel.isCancelled());
    m_scheduler.dropPending();
    EXPECT_EQ(m_stats.solvesCoalesced, 1);
    m_scheduler.cancelled();
    EXPECT_EQ(m_stats.solvesCancelled, 1);
    EXPECT_FALSE(m_scheduler.finishInFlight());
    EXPECT_FALSE(m_scheduler.isBusy());
}
