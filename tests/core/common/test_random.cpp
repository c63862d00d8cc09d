// cx::Rng, the one random generator: the same seed gives the same numbers, the distributions
// match their definitions, and sub-stream seeds differ.
#include "core/common/random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using cx::Rng;

TEST(Rng, SameSeedSameStreamOtherSeedOtherStream) {
    Rng a(42);
    Rng b(42);
    Rng c(43);
    bool differs = false;
    for (int i = 0; i < 100; ++i) {
        const double x = a.uniform();
        EXPECT_EQ(x, b.uniform());
        differs = differs || x != c.uniform();
    }
    EXPECT_TRUE(differs);
}

TEST(Rng, UniformsUseTheTop53BitsOfTheEngine) {
    Rng rng(7);
    std::mt19937_64 engine(7);
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t bits = engine() >> 11;
        if (i % 2 == 0) {
            EXPECT_EQ(rng.uniform(), static_cast<double>(bits) * 0x1.0p-53);
        } else {
            // The open variant is the same cell's centre: never 0 or 1.
            const double open = rng.uniformOpen();
            EXPECT_EQ(open, (static_cast<double>(bits) + 0.5) * 0x1.0p-53);
            EXPECT_GT(open, 0.0);
            EXPECT_LT(open, 1.0);
        }
    }
}

TEST(Rng, BelowIsInRangeAndCoversIt) {
    Rng rng(3);
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t x = rng.below(7);
        ASSERT_LT(x, 7u);
        seen.insert(x);
    }
    EXPECT_EQ(seen.size(), 7u);
}

TEST(Rng, NormalHasMeanZeroAndUnitVariance) {
    Rng rng(11);
    const int n = 200000;
    double sum = 0;
    double squares = 0;
    for (int i = 0; i < n; ++i) {
        const double x = rng.normal();
        sum += x;
        squares += x * x;
    }
    const double mean = sum / n;
    const double variance = squares / n - mean * mean;
    // Standard errors: 1/sqrt(n) ≈ 0.0022 for the mean, sqrt(2/n) ≈ 0.0032 for the variance.
    EXPECT_NEAR(mean, 0.0, 0.012);
    EXPECT_NEAR(variance, 1.0, 0.016);
}

TEST(Rng, DerivedSeedsAreDistinctPerIndex) {
    std::set<std::uint64_t> seeds;
    for (std::uint64_t index = 0; index < 1000; ++index) {
        seeds.insert(cx::deriveSeed(1, index));
    }
    EXPECT_EQ(seeds.size(), 1000u);
    EXPECT_EQ(cx::deriveSeed(5, 2), cx::deriveSeed(5, 2));
    EXPECT_NE(cx::deriveSeed(5, 2), cx::deriveSeed(6, 2));
}
