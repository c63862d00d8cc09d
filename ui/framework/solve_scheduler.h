#pragma once

#include "core/common/cancel.h"

#include <QtGlobal>

#include <functional>
#include <optional>
#include <utility>

namespace cx::ui {

/// Counters of a SolveScheduler, for tests and the status line. The controllers' Statistics
/// add their own counters to these.
struct SolveStatistics {
    int solveRequests = 0;    ///< γ/parameter changes that asked for a solve
    int solvesDispatched = 0; ///< sent to the worker
    int solvesCoalesced = 0;  ///< replaced while pending, never computed
    int staleDropped = 0;     ///< computed but dropped (older epoch or superseded)
    int solvesFailed = 0;
    int solvesCancelled = 0;
    int resultsShown = 0;
};

/// "Latest request wins" scheduling of a controller's slider-driven solves (TopicsController,
/// ChromatinController). Lives on the GUI thread next to its controller; no locks, no QObject.
///
///  - At most one solve in flight and one pending. A new request replaces the pending one (the
///    replaced one is counted as coalesced and never computed); when the in-flight solve
///    returns, the pending one is dispatched at once if it still belongs to the current epoch.
///  - The epoch changes with the data or the model parameters (everything but γ); results of
///    another epoch are dropped and the in-flight solve of the old epoch is cancelled.
///  - A result is shown when it belongs to the current epoch and is newer than what is shown.
///    If a newer request is already pending, it is shown only as a live preview when the view
///    has not been refreshed for livePreviewIntervalMs (so a long drag keeps the view moving
///    instead of freezing until the mouse stops); otherwise it is dropped as stale.
///
/// `Request` is a value type with `quint64 generation`, `quint64 epoch` and
/// `cx::CancelToken cancel`. The controller builds requests, reports what its worker returned
/// and emits its own signals; `dispatch` sends a request to the worker.
template <typename Request> class SolveScheduler {
public:
    using Dispatch = std::function<void(Request)>;

    /// What a failed solve means for the user.
    struct Failure {
        bool relevant = false;     ///< current epoch and nothing newer pending: say so
        bool firstOfEpoch = false; ///< the first relevant failure of this epoch: worth a dialog
    };

    /// `statistics` must outlive the scheduler (it is the controller's counter block).
    SolveScheduler(SolveStatistics& statistics, Dispatch dispatch)
        : m_stats(statistics), m_dispatch(std::move(dispatch)) {}

    /// The epoch new requests belong to.
    quint64 epoch() const { return m_epoch; }
    /// The data or the model parameters changed. The in-flight solve is cancelled (its result
    /// would be dropped anyway); a pending request of the old epoch is dropped when it would
    /// be dispatched.
    void newEpoch() {
        ++m_epoch;
        m_inFlightCancel.cancel();
    }

    /// A solve is in flight or pending.
    bool isBusy() const { return m_inFlight != 0 || m_pending.has_value(); }
    /// See the class comment; 0 shows every in-order result, a huge value only the latest.
    void setLivePreviewInterval(int milliseconds) { m_livePreviewIntervalMs = milliseconds; }

    /// Counts the request and dispatches it, or, while a solve is in flight, makes it the
    /// pending request (coalescing the one it replaces).
    void submit(Request request) {
        ++m_stats.solveRequests;
        if (m_inFlight != 0) {
            // Coalesce: only the newest pending request matters.
            if (m_pending) {
                ++m_stats.solvesCoalesced;
            }
            m_pending = std::move(request);
            return;
        }
        dispatch(std::move(request));
    }

    /// The in-flight solve returned (result, failure or cancellation): dispatches the pending
    /// request if it still belongs to the current epoch. Returns whether one was dispatched.
    bool finishInFlight() {
        m_inFlight = 0;
        if (!m_pending) {
            return false;
        }
        Request next = std::move(*m_pending);
        m_pending.reset();
        if (next.epoch != m_epoch) {
            // The epoch changed since it was queued; the controller queued a fresher request
            // already or will when its data lands.
            ++m_stats.solvesCoalesced;
            return false;
        }
        dispatch(std::move(next));
        return true;
    }

    /// Whether `result` replaces `shown` (counted as shown) or is dropped (counted as stale),
    /// following the class comment. `sameData`: the result was computed on the controller's
    /// current data. `Solution` has `generation`, `epoch` and `isValid()`.
    template <typename Solution>
    bool acceptResult(const Solution& result, const Solution& shown, bool sameData, qint64 nowMs) {
        const bool superseded = m_pending.has_value();
        const bool currentEpoch = result.epoch == m_epoch && sameData;
        const bool newer = result.generation > shown.generation || !shown.isValid();
        const bool preview = superseded && nowMs - m_lastShownAtMs >= m_livePreviewIntervalMs;
        if (currentEpoch && newer && (!superseded || preview)) {
            m_lastShownAtMs = nowMs;
            ++m_stats.resultsShown;
            return true;
        }
        ++m_stats.staleDropped;
        return false;
    }

    /// Counts a failed solve of `epoch` (call before finishInFlight()).
    Failure failed(quint64 epoch) {
        ++m_stats.solvesFailed;
        Failure failure;
        failure.relevant = epoch == m_epoch && !m_pending.has_value();
        // One dialog per epoch: while the user drags γ with an impossible K, every solve fails
        // with a slightly different message; the views show the latest one inline.
        if (failure.relevant && m_errorEpoch != m_epoch) {
            m_errorEpoch = m_epoch;
            failure.firstOfEpoch = true;
        }
        return failure;
    }

    /// Counts a cancelled solve.
    void cancelled() { ++m_stats.solvesCancelled; }

    /// Forgets the pending request (counted as coalesced), e.g. when the data is replaced.
    void dropPending() {
        if (m_pending) {
            ++m_stats.solvesCoalesced;
            m_pending.reset();
        }
    }

    /// Cancels the in-flight and the pending solve (the controller is going away).
    void cancelAll() {
        m_inFlightCancel.cancel();
        if (m_pending) {
            m_pending->cancel.cancel();
        }
    }

private:
    void dispatch(Request request) {
        m_inFlight = request.generation;
        m_inFlightCancel = request.cancel;
        ++m_stats.solvesDispatched;
        m_dispatch(std::move(request));
    }

    SolveStatistics& m_stats;
    Dispatch m_dispatch;
    quint64 m_epoch = 0;
    quint64 m_inFlight = 0; ///< generation of the solve in flight, 0: none
    cx::CancelToken m_inFlightCancel;
    std::optional<Request> m_pending;
    qint64 m_lastShownAtMs = -1000000;
    int m_livePreviewIntervalMs = 33; // ~30 refreshes per second at most while superseded
    quint64 m_errorEpoch = 0;
};

} // namespace cx::ui
