#pragma once

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/io/corpus.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cx::test {

/// Sets core's thread count for a scope and restores the default (0: all cores) when it ends,
/// also when an assertion leaves the test early.
class ScopedThreadCount {
public:
    explicit ScopedThreadCount(int threads) { setThreadCount(threads); }
    ~ScopedThreadCount() { setThreadCount(0); }
    ScopedThreadCount(const ScopedThreadCount&) = delete;
    ScopedThreadCount& operator=(const ScopedThreadCount&) = delete;
};

/// Builds a CountMatrix from per-document token lists (word ids).
inline CountMatrix countsFromTokens(const std::vector<std::vector<int>>& documents,
                                    int vocabulary) {
    CountMatrix counts;
    counts.numRows = static_cast<std::int64_t>(documents.size());
    counts.numCols = vocabulary;
    counts.rowPtr.assign(1, 0);
    for (const auto& tokens : documents) {
        std::vector<int> sorted = tokens;
        std::sort(sorted.begin(), sorted.end());
        for (size_t p = 0; p < sorted.size();) {
            size_t q = p;
            while (q < sorted.size() && sorted[q] == sorted[p]) {
                ++q;
            }
            counts.colIdx.push_back(sorted[p]);
            counts.counts.push_back(static_cast<float>(q - p));
            p = q;
        }
        counts.rowPtr.push_back(counts.nnz());
    }
    return counts;
}

/// The message of the InputError `action` throws, or "(no error)".
inline std::string inputErrorOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const InputError& error) {
        return error.what();
    }
    return "(no error)";
}

} // namespace cx::test
