#pragma once

// Small helpers for γ grids.

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace cx {

/// Index of the grid value nearest to `x` (the first on ties); −1 for an empty grid. Cost O(n).
inline int nearestIndex(const std::vector<double>& grid, double x) {
    int best = -1;
    double distance = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < grid.size(); ++i) {
        const double d = std::abs(grid[i] - x);
        if (d < distance) {
            distance = d;
            best = static_cast<int>(i);
        }
    }
    return best;
}

} // namespace cx
