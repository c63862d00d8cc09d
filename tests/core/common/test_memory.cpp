#include "core/common/memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

namespace cx {
namespace {

// The advice never touches what is stored: arrays written before it, from an unaligned start and
// with a length that is not a whole number of huge pages, read back the same; the memory stays
// writable; empty, null and small ranges are accepted.
TEST(AdviseHugePages, LeavesContentsAndSmallRangesAlone) {
    std::vector<std::int32_t> values(3'000'001);
    std::iota(values.begin(), values.end(), 7);
    adviseHugePages(values.data() + 1, (values.size() - 1) * sizeof(std::int32_t));
    for (size_t i = 0; i < values.size(); i += 997) {
        ASSERT_EQ(values[i], static_cast<std::int32_t>(i + 7)) << i;
    }
    EXPECT_EQ(values.back(), static_cast<std::int32_t>(values.size() + 6));

    // Advised before the first write, as the reader and the word-major layout do.
    const size_t count = size_t{6} << 20;
    auto fresh = std::make_unique_for_overwrite<float[]>(count);
    adviseHugePages(fresh.get(), count * sizeof(float));
    for (size_t i = 0; i < count; ++i) {
        fresh[i] = static_cast<float>(i % 1000);
    }
    EXPECT_EQ(fresh[count - 1], static_cast<float>((count - 1) % 1000));

    adviseHugePages(nullptr, 1 << 30);
    adviseHugePages(values.data(), 0);
    adviseHugePages(values.data(), 100);
    EXPECT_EQ(values[0], 7);
}

TEST(PeakResidentBytes, CoversWhatThisProcessHolds) {
    std::vector<char> block(size_t{64} << 20, 1);
    EXPECT_GE(peakResidentBytes(), static_cast<std::int64_t>(block.size()));
}

} // namespace
} // namespace cx
