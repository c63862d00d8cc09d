#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>

namespace cx {

/// Threads core uses for passes over the data. 0 (the default) means
/// std::thread::hardware_concurrency(). The CLI's --threads and the benchmarks set it.
/// Inside a share of a pass (a body run by forEachSlot or parallelFor on more than one thread) it
/// is 1: a pass started there runs on the calling thread, so nested passes (the cell types of a
/// baseline side by side, each with its own passes) never start threads per share.
int threadCount();
void setThreadCount(int threads);

/// Number of fixed reduction slots. Work over n items is cut into exactly this many contiguous
/// ranges whatever the thread count, each range is reduced by one thread in item order, and the
/// caller combines the slot results in slot order. Results are therefore bit-identical for any
/// number of threads (the reduction order never depends on scheduling).
constexpr int kReductionSlots = 8;

/// Slot count for a reduction over n items: kReductionSlots, or fewer for small inputs (so small
/// passes don't pay for zeroing and summing eight large accumulators). Depends only on n, never
/// on the thread count, so it keeps results thread-count independent.
inline int reductionSlots(std::int64_t n) {
    const std::int64_t bySize = n / 2048;
    return static_cast<int>(bySize < 1 ? 1 : (bySize > kReductionSlots ? kReductionSlots : bySize));
}

/// Half-open item range [begin, end) of slot `slot` when n items are cut into `slots` parts.
inline void slotRange(std::int64_t n, int slots, int slot, std::int64_t& begin, std::int64_t& end) {
    begin = n * slot / slots;
    end = n * (slot + 1) / slots;
}

/// Runs body(slot, begin, end) for every slot in [0, slots), spreading slots over up to
/// threadCount() threads. Each call sees a disjoint contiguous item range. Exceptions thrown by
/// a body are rethrown (the first one) after all threads have joined.
void forEachSlot(std::int64_t n, int slots,
                 const std::function<void(int slot, std::int64_t begin, std::int64_t end)>& body);

/// Runs body(i) for i in [0, n) on up to threadCount() threads (static contiguous split). Use
/// only where each i writes its own output, so the result does not depend on the split.
void parallelFor(std::int64_t n, const std::function<void(std::int64_t i)>& body);

/// One more thread for a caller that hands it many short jobs in a row, where starting a thread
/// per job (~40 µs) would cost more than the job (the power method's trial groups: 50 components
/// of a few hundred µs each). post(job) starts `job` on the helper, wait() returns when it is done
/// and rethrows what it threw. One job at a time: post only after wait. The helper sleeps between
/// jobs (std::atomic::wait); the destructor waits for a posted job, then ends the thread.
class HelperThread {
public:
    HelperThread();
    ~HelperThread();
    HelperThread(const HelperThread&) = delete;
    HelperThread& operator=(const HelperThread&) = delete;

    /// \pre no job posted since the last wait().
    void post(std::function<void()> job);
    /// Waits for the posted job (returns at once if none) and rethrows its exception.
    void wait();

private:
    enum State : int { kIdle, kPosted, kDone, kQuit };
    void waitForDone();
    void loop();

    std::atomic<int> m_state{kIdle};
    std::function<void()> m_job;
    std::exception_ptr m_error;
    std::thread m_thread;
};

} // namespace cx
