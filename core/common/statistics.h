#pragma once

// Small statistics shared by the bootstraps (topics and HMM paths).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace cx {

/// Percentile (linear interpolation) of the finite values; NaN when fewer than 2.
inline double percentileOf(std::vector<double> values, double fraction) {
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
        values.end());
    if (values.size() < 2) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::sort(values.begin(), values.end());
    const double position = fraction * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    const double t = position - static_cast<double>(below);
    return values[below] * (1 - t) + values[above] * t;
}

} // namespace cx
