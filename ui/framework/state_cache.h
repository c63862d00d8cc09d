#pragma once

#include "ui/framework/worker_thread.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <utility>

namespace cx::ui {

/// Results a controller computed once and may need again (topic engines, chromatin moments):
/// switching back to an earlier foreground/background choice reuses them instead of another
/// pass over the data. Most recent first, at most `capacity`; what falls out, or is cleared,
/// is freed on the worker thread (WorkerThread::release), never on the GUI thread.
template <typename State, typename Worker> class StateCache {
public:
    using Ptr = std::shared_ptr<const State>;

    StateCache(WorkerThread<Worker>& worker, std::size_t capacity)
        : m_worker(worker), m_capacity(capacity) {}

    /// The state just replaced as current: the first to be reused.
    void pushFront(Ptr state) {
        m_items.push_front(std::move(state));
        trim();
    }
    /// A state that finished after a newer task superseded it: valid, but the least recent.
    void pushBack(Ptr state) {
        m_items.push_back(std::move(state));
        trim();
    }
    /// Removes and returns the first state with `match(state)`, or null.
    template <typename Match> Ptr take(Match match) {
        for (auto it = m_items.begin(); it != m_items.end(); ++it) {
            if (match(**it)) {
                Ptr hit = std::move(*it);
                m_items.erase(it);
                return hit;
            }
        }
        return nullptr;
    }
    void clear() {
        for (Ptr& state : m_items) {
            m_worker.release(std::move(state));
        }
        m_items.clear();
    }
    std::size_t size() const { return m_items.size(); }

private:
    void trim() {
        while (m_items.size() > m_capacity) {
            m_worker.release(std::move(m_items.back()));
            m_items.pop_back();
        }
    }

    WorkerThread<Worker>& m_worker;
    std::size_t m_capacity;
    std::deque<Ptr> m_items;
};

} // namespace cx::ui
