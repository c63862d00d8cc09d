// StateCache on its own: most recent first, bounded, matching entries taken out, and what
// falls out or is cleared freed on the worker thread.
#include "gui_test_helpers.h"

#include "ui/framework/state_cache.h"

#include <gtest/gtest.h>

#include <QThread>

#include <atomic>

using cx::ui::StateCache;
using cx::ui::WorkerThread;
using cx::ui::test::waitUntil;

namespace {

/// Records the thread it is destroyed on.
struct State {
    int id = 0;
    std::atomic<const QThread*>* destroyedOn = nullptr;
    ~State() {
        if (destroyedOn) {
            destroyedOn->store(QThread::currentThread());
        }
    }
};

} // namespace

TEST(StateCache, KeepsTheMostRecentAndFreesEvictedStatesOnTheWorkerThread) {
    WorkerThread<QObject> worker(QStringLiteral("cx-test-cache"));
    worker.start();
    StateCache<State, QObject> cache(worker, 2);
    std::atomic<const QThread*> firstFreedOn{nullptr};
    auto first = std::make_shared<State>();
    first->id = 1;
    first->destroyedOn = &firstFreedOn;
    cache.pushFront(std::move(first));
    cache.pushFront(std::make_shared<const State>(State{2}));
    cache.pushBack(std::make_shared<const State>(State{3})); // least recent: evicted at once
    EXPECT_EQ(cache.size(), 2u);
    cache.pushFront(std::make_shared<const State>(State{4})); // evicts 1 (now the last)
    EXPECT_EQ(cache.size(), 2u);
    ASSERT_TRUE(waitUntil([&] { return firstFreedOn.load() != nullptr; }));
    EXPECT_EQ(firstFreedOn.load(), worker.thread());

    EXPECT_EQ(cache.take([](const State& s) { return s.id == 1; }), nullptr);
    const auto hit = cache.take([](const State& s) { return s.id == 2; });
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->id, 2);
    EXPECT_EQ(cache.size(), 1u);
    cache.clear();
    EXPECT_EQ(cache.size(), 0u);
    worker.stop();
}
