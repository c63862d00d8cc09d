#include "core/common/random.h"
#include "core/tensor/skinny_product.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace cx {
namespace {

Eigen::MatrixXd normalMatrix(Rng& rng, Eigen::Index rows, Eigen::Index cols) {
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index j = 0; j < cols; ++j) {
        m.col(j) = rng.normalVector(rows);
    }
    return m;
}

/// Every entry of `fast` against Σ_p a(i, p)·b(p, c) in long double, within `relative` of the
/// sum of the terms' sizes.
void expectBruteForceProduct(const Eigen::MatrixXd& fast, const Eigen::MatrixXd& a,
                             const Eigen::MatrixXd& b, double relative) {
    ASSERT_EQ(fast.rows(), a.rows());
    ASSERT_EQ(fast.cols(), b.cols());
    for (Eigen::Index c = 0; c < b.cols(); ++c) {
        for (Eigen::Index i = 0; i < a.rows(); ++i) {
            long double sum = 0;
            long double scale = 0;
            for (Eigen::Index p = 0; p < a.cols(); ++p) {
                sum += static_cast<long double>(a(i, p)) * b(p, c);
                scale += std::abs(static_cast<long double>(a(i, p)) * b(p, c));
            }
            EXPECT_NEAR(fast(i, c), static_cast<double>(sum), relative * static_cast<double>(scale))
                << a.rows() << " × " << b.cols() << " at (" << i << ", " << c << ")";
        }
    }
}

// Against the plain sum Σ_p a(i, p)·b(p, c) in long double, for row counts around the 56-row
// blocks and column counts around the groups of three: tails and padding included.
TEST(SkinnyProduct, EqualsTheBruteForceSumForEveryShape) {
    Rng rng(11);
    for (const Eigen::Index rows : {1, 7, 8, 50, 56, 57, 113}) {
        for (const Eigen::Index cols : {1, 2, 3, 4, 5, 7}) {
            const Eigen::MatrixXd a = normalMatrix(rng, rows, 131);
            const Eigen::MatrixXd b = normalMatrix(rng, 131, cols);
            const PaddedRows padded = PaddedRows::of(a);
            EXPECT_EQ(padded.values.rows() % 56, 0);
            expectBruteForceProduct(skinnyProduct(padded, b), a, b, 1e-14);
        }
    }
}

// Whatever kernel this CPU runs (AVX-512, AVX2 + FMA), the numbers are the portable kernel's
// bit for bit: the same fused multiply-adds in the same order.
TEST(SkinnyProduct, TheDispatchedKernelEqualsThePortableOneBitForBit) {
    Rng rng(12);
    for (const Eigen::Index rows : {5, 50, 60}) {
        for (const Eigen::Index cols : {1, 3, 5}) {
            const PaddedRows a = PaddedRows::of(normalMatrix(rng, rows, 1275));
            const Eigen::MatrixXd b = normalMatrix(rng, 1275, cols);
            const Eigen::MatrixXd fast = skinnyProduct(a, b);
            const Eigen::MatrixXd portable = skinnyProductPortable(a, b);
            EXPECT_TRUE((fast.array() == portable.array()).all()) << rows << " × " << cols;
        }
    }
}

// Single precision: a and b rounded to float, every sum in float with fused multiply-adds —
// against the long-double sum of the rounded factors, within float rounding of the sum's size;
// and the dispatched kernel equals the portable one bit for bit.
TEST(SkinnyProduct, SinglePrecisionEqualsTheRoundedSumAndEveryKernelAgrees) {
    Rng rng(13);
    for (const Eigen::Index rows : {1, 15, 16, 50, 64, 65}) {
        for (const Eigen::Index cols : {1, 2, 3, 4, 5}) {
            const Eigen::MatrixXd a = normalMatrix(rng, rows, 131);
            const Eigen::MatrixXd b = normalMatrix(rng, 131, cols);
            const PaddedRowsSingle padded = PaddedRowsSingle::of(a);
            EXPECT_EQ(padded.values.rows() % 64, 0);
            const Eigen::MatrixXd fast = skinnyProduct(padded, b);
            // The factors as the kernel sees them: rounded to float.
            expectBruteForceProduct(fast, a.cast<float>().cast<double>(),
                                    b.cast<float>().cast<double>(), 2e-5);
            const Eigen::MatrixXd portable = skinnyProductPortable(padded, b);
            EXPECT_TRUE((fast.array() == portable.array()).all()) << rows << " × " << cols;
        }
    }
}

TEST(SkinnyProduct, EmptyAndMismatchedShapes) {
    const PaddedRows a = PaddedRows::of(Eigen::MatrixXd::Ones(4, 3));
    EXPECT_EQ(skinnyProduct(a, Eigen::MatrixXd(3, 0)).cols(), 0);
    EXPECT_TRUE(
        skinnyProduct(PaddedRows::of(Eigen::MatrixXd(4, 0)), Eigen::MatrixXd(0, 2)).isZero());
    EXPECT_THROW(skinnyProduct(a, Eigen::MatrixXd::Ones(4, 2)), std::invalid_argument);
    const PaddedRowsSingle single = PaddedRowsSingle::of(Eigen::MatrixXd::Ones(4, 3));
    EXPECT_EQ(skinnyProduct(single, Eigen::MatrixXd(3, 0)).cols(), 0);
    EXPECT_THROW(skinnyProduct(single, Eigen::MatrixXd::Ones(4, 2)), std::invalid_argument);
}

} // namespace
} // namespace cx
