#include "core/io/bed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace cx {
namespace {

using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;

Intervals pairs(const std::vector<BedInterval>& intervals) {
    Intervals out;
    for (const BedInterval& interval : intervals) {
        out.emplace_back(interval.start, interval.end);
    }
    return out;
}

TEST(BedIntervals, MergeSortsAndJoinsOverlappingAndTouchingIntervals) {
    const std::vector<BedInterval> input = {{50, 60}, {0, 10}, {5, 20}, {20, 30}, {40, 45}, {8, 9}};
    EXPECT_EQ(pairs(mergeIntervals(input)), (Intervals{{0, 30}, {40, 45}, {50, 60}}));
    EXPECT_TRUE(mergeIntervals({}).empty());
    // A gap of one base keeps two intervals apart.
    EXPECT_EQ(pairs(mergeIntervals({{0, 10}, {11, 12}})), (Intervals{{0, 10}, {11, 12}}));
}

TEST(BedIntervals, MergedIntervalsAreDisjointAndCoverTheSameBases) {
    const std::vector<BedInterval> input = {{3, 7}, {1, 2}, {6, 12}, {15, 16}, {0, 1}, {11, 13}};
    const std::vector<BedInterval> merged = mergeIntervals(input);
    for (size_t i = 1; i < merged.size(); ++i) {
        EXPECT_GT(merged[i].start, merged[i - 1].end);
    }
    for (std::int64_t base = 0; base < 20; ++base) {
        const auto covers = [base](const BedInterval& interval) {
            return interval.start <= base && base < interval.end;
        };
        EXPECT_EQ(std::any_of(input.begin(), input.end(), covers),
                  std::any_of(merged.begin(), merged.end(), covers))
            << "base " << base;
    }
}

TEST(BedIntervals, AppendMergedExtendsTheLastIntervalOrStartsANewOne) {
    std::vector<BedInterval> list;
    appendMerged(list, {0, 10});
    appendMerged(list, {10, 15}); // touching
    appendMerged(list, {12, 14}); // inside
    appendMerged(list, {20, 25});
    EXPECT_EQ(pairs(list), (Intervals{{0, 15}, {20, 25}}));
}

} // namespace
} // namespace cx
