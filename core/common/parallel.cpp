#include "core/common/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace cx {

namespace {
std::atomic<int> g_threads{0};
/// True on a thread that is running one share of a parallel pass: passes it starts run on it
/// alone (no thread per share of a share), which is safe because every pass gives the same
/// result on any number of threads.
thread_local bool t_insidePass = false;

/// Marks the calling thread as inside a pass for its lifetime.
class InsidePass {
public:
    InsidePass() : m_was(std::exchange(t_insidePass, true)) {}
    ~InsidePass() { t_insidePass = m_was; }
    InsidePass(const InsidePass&) = delete;
    InsidePass& operator=(const InsidePass&) = delete;

private:
    bool m_was;
};

int resolvedThreads() {
    if (t_insidePass) {
        return 1;
    }
    int threads = g_threads.load();
    if (threads <= 0) {
        threads = static_cast<int>(std::thread::hardware_concurrency());
    }
    return std::max(1, threads);
}

/// Runs task(worker) on `workers` threads (the calling thread is worker 0) and rethrows the
/// first exception.
void runOnWorkers(int workers, const std::function<void(int)>& task) {
    if (workers <= 1) {
        task(0);
        return;
    }
    std::exception_ptr firstError;
    std::mutex errorMutex;
    auto guarded = [&](int worker) {
        const InsidePass inside;
        try {
            task(worker);
        } catch (...) {
            std::lock_guard<std::mutex> lock(errorMutex);
            if (!firstError) {
                firstError = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(workers - 1));
    for (int worker = 1; worker < workers; ++worker) {
        threads.emplace_back(guarded, worker);
    }
    guarded(0);
    for (auto& thread : threads) {
        thread.join();
    }
    if (firstError) {
        std::rethrow_exception(firstError);
    }
}
} // namespace

int threadCount() {
    return resolvedThreads();
}

void setThreadCount(int threads) {
    g_threads.store(threads);
}

void forEachSlot(std::int64_t n, int slots,
                 const std::function<void(int slot, std::int64_t begin, std::int64_t end)>& body) {
    const int workers = std::min(resolvedThreads(), slots);
    // Dynamic assignment of slots to workers: which thread runs a slot does not matter, since
    // every slot's range and in-slot order are fixed.
    std::atomic<int> next{0};
    runOnWorkers(workers, [&](int) {
        for (int slot = next.fetch_add(1); slot < slots; slot = next.fetch_add(1)) {
            std::int64_t begin = 0;
            std::int64_t end = 0;
            slotRange(n, slots, slot, begin, end);
            body(slot, begin, end);
        }
    });
}

void parallelFor(std::int64_t n, const std::function<void(std::int64_t i)>& body) {
    const int workers =
        static_cast<int>(std::min<std::int64_t>(resolvedThreads(), std::max<std::int64_t>(n, 1)));
    runOnWorkers(workers, [&](int worker) {
        std::int64_t begin = 0;
        std::int64_t end = 0;
        slotRange(n, workers, worker, begin, end);
        for (std::int64_t i = begin; i < end; ++i) {
            body(i);
        }
    });
}

HelperThread::HelperThread() : m_thread([this] { loop(); }) {}

HelperThread::~HelperThread() {
    waitForDone();
    m_state.store(kQuit, std::memory_order_release);
    m_state.notify_all();
    m_thread.join();
}

void HelperThread::post(std::function<void()> job) {
    m_job = std::move(job);
    m_error = nullptr;
    m_state.store(kPosted, std::memory_order_release);
    m_state.notify_all();
}

void HelperThread::waitForDone() {
    for (int state = m_state.load(std::memory_order_acquire); state == kPosted;
         state = m_state.load(std::memory_order_acquire)) {
        m_state.wait(state, std::memory_order_acquire);
    }
    m_state.store(kIdle, std::memory_order_relaxed);
}

void HelperThread::wait() {
    waitForDone();
    if (m_error) {
        std::rethrow_exception(std::exchange(m_error, nullptr));
    }
}

void HelperThread::loop() {
    for (;;) {
        int state = m_state.load(std::memory_order_acquire);
        while (state == kIdle || state == kDone) {
            m_state.wait(state, std::memory_order_acquire);
            state = m_state.load(std::memory_order_acquire);
        }
        if (state == kQuit) {
            return;
        }
        try {
            m_job();
        } catch (...) {
            m_error = std::current_exception();
        }
        m_job = nullptr;
        m_state.store(kDone, std::memory_order_release);
        m_state.notify_all();
    }
}

} // namespace cx
