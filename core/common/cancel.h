#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>

namespace cx {

/// A cheap, copyable cancellation flag shared between a requester (e.g. the GUI's analysis
/// controller) and a long computation in core. Core polls `isCancelled()` between passes over
/// the data, power iterations and restarts; it never blocks on it. A default-constructed token
/// can never be cancelled.
class CancelToken {
public:
    CancelToken() = default;
    /// Creates a token that can be cancelled through `cancel()` on any copy.
    static CancelToken create() {
        CancelToken token;
        token.m_flag = std::make_shared<std::atomic<bool>>(false);
        return token;
    }
    void cancel() const {
        if (m_flag) {
            m_flag->store(true, std::memory_order_relaxed);
        }
    }
    bool isCancelled() const { return m_flag && m_flag->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

/// Thrown by core when a computation notices its CancelToken was set. Callers that cancel
/// catch it; nobody else ever sees it.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

/// Throws Cancelled if the token is set.
inline void throwIfCancelled(const CancelToken& token) {
    if (token.isCancelled()) {
        throw Cancelled();
    }
}

/// Progress callback: fraction in [0, 1] and a short phase description. May be empty.
using ProgressFn = std::function<void(double fraction, const char* phase)>;

} // namespace cx
