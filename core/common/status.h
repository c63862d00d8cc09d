#pragma once

namespace cx {

/// Outcome of a numerical routine, in the manner of Spectra's CompInfo.
enum class Status {
    NotComputed,
    Successful,
    NotConverged,   ///< iterations exhausted before the tolerance was met (result still usable)
    NumericalIssue, ///< a pseudo-inverse or normalisation met a (near) zero
    Cancelled,
};

inline const char* toString(Status status) {
    switch (status) {
    case Status::NotComputed:
        return "not computed";
    case Status::Successful:
        return "successful";
    case Status::NotConverged:
        return "not converged";
    case Status::NumericalIssue:
        return "numerical issue";
    case Status::Cancelled:
        return "cancelled";
    }
    return "unknown";
}

} // namespace cx
