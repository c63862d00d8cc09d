#pragma once

// Internal steps of computeSequenceMoments shared with the block bootstrap (hmm_bootstrap.cpp):
// the moments of one class are a fixed function of integer counts (MarkVector: counts of every
// (past, middle, future) feature triple; combinations: counts of every pattern triple), so a
// bootstrap replicate that reweights blocks of triples only has to recount, never re-read bins.
// Not part of the public API: include only from core/hmm sources.

#include "core/hmm/sequence_moments.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace cx::detail {

/// Throws std::invalid_argument (prefixed by `where`) unless `classes` has one flag per bin of
/// every track of `data`.
void checkClasses(const ChromatinData& data, const BinClasses& classes, const char* where);

/// Zeroed moments of one class; r: middle-view dimension, s: side-view dimension (r without
/// windows).
void emptyMoments(ClassMoments& m, Eigen::Index r, Eigen::Index s);
void emptyMoments(ClassMoments& m, Eigen::Index r);

/// Presence flags (categories × marks, row-major) of the patterns behind each category.
std::vector<std::uint8_t> categoryMarkFlags(const ChromatinData& data,
                                            const std::vector<int>& categoryPattern);

/// Present marks of every pattern of `data` (the constant coordinate is not included).
std::vector<std::vector<int>> presentMarksOfPatterns(const ChromatinData& data);

/// Integer totals of the MarkVector moments of one class with window L (S = L·M + 1,
/// D = M + 1): cube[i + S·(j + D·k)] counts (past feature i, middle j, future k);
/// second[S·i + i2] the past-window pairs, second[S² + S·k + k2] the future-window pairs;
/// patterns[p] the centres whose middle bin has pattern p.
struct MarkVectorTotals {
    std::vector<std::int64_t> cube;
    std::vector<std::int64_t> second;
    std::vector<std::int64_t> patterns;
};

/// Zeroed totals for M marks, window L and P patterns.
MarkVectorTotals emptyMarkVectorTotals(int numMarks, int window, int numPatterns);

/// Adds `count` centres whose bins carry the patterns `tuple` = (x_{t−d−L+1}, …, x_{t−d},
/// x_t, x_{t+d}, …, x_{t+d+L−1}) (2L + 1 pattern ids, past window farthest first, so the
/// tuple reads left to right along the genome) to `totals`.
void addMarkVectorTuple(MarkVectorTotals& totals, const std::vector<std::vector<int>>& present,
                        int numMarks, int window, const std::uint32_t* tuple, std::int64_t count);

/// ClassMoments of MarkVector totals over `numTriples` centres (bins/runs only reported).
ClassMoments markVectorMomentsFromTotals(const std::vector<std::vector<int>>& present, int numMarks,
                                         int window, const MarkVectorTotals& totals,
                                         std::int64_t numTriples, std::int64_t numBins,
                                         std::int64_t numRuns);

/// Sorted sparse pattern-triple counts (key = c0·2⁴² + c1·2²¹ + c2, categories c).
using CategoryTripleCounts = std::vector<std::pair<std::uint64_t, std::int64_t>>;

inline std::uint64_t categoryTripleKey(std::uint64_t c0, std::uint64_t c1, std::uint64_t c2) {
    return (c0 << 42) | (c1 << 21) | c2;
}

/// ClassMoments of the combination encoding from sorted triple counts over `numTriples`
/// centres, in the coordinates of `projection` (SequenceMoments::projection(), C × r).
ClassMoments categoryMomentsFromCounts(const CategoryTripleCounts& triples, std::int64_t numTriples,
                                       std::int64_t numBins, std::int64_t numRuns, int categories,
                                       const Eigen::MatrixXd& projection);

} // namespace cx::detail
