#include "core/common/random.h"
#include "core/tensor/power_trials.h"
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

// The power steps' form: float right-hand sides and a kept buffer of more columns than a step
// uses — the same numbers as the allocating product bit for bit, the padded rows zero.
TEST(SkinnyProduct, IntoAKeptBufferEqualsTheAllocatingProductBitForBit) {
    Rng rng(14);
    for (const Eigen::Index rows : {5, 50, 64, 65}) {
        const PaddedRowsSingle padded = PaddedRowsSingle::of(normalMatrix(rng, rows, 131));
        Eigen::MatrixXf buffer(padded.values.rows(), 6);
        Eigen::MatrixXf right(131, 6);
        for (const Eigen::Index cols : {1, 2, 3, 4, 5}) {
            const Eigen::MatrixXd b = normalMatrix(rng, 131, cols);
            right.leftCols(cols) = b.cast<float>();
            buffer.setConstant(7.0F);
            skinnyProductInto(padded, right.leftCols(cols), buffer.leftCols(cols));
            const Eigen::MatrixXd expected = skinnyProduct(padded, b);
            const Eigen::MatrixXd got = buffer.topLeftCorner(rows, cols).cast<double>();
            EXPECT_TRUE((got.array() == expected.array()).all()) << rows << " × " << cols;
            EXPECT_TRUE(
                buffer.middleRows(rows, padded.values.rows() - rows).leftCols(cols).isZero());
            EXPECT_TRUE((buffer.rightCols(6 - cols).array() == 7.0F).all()); // untouched
        }
    }
}

TEST(SkinnyProduct, IntoRefusesOtherShapesAndStrides) {
    const PaddedRowsSingle a = PaddedRowsSingle::of(Eigen::MatrixXd::Ones(4, 3));
    Eigen::MatrixXf out(64, 2);
    EXPECT_THROW(skinnyProductInto(a, Eigen::MatrixXf::Ones(4, 2), out), std::invalid_argument);
    Eigen::MatrixXf tall(70, 2); // 64-row blocks of a 70-row matrix: columns not contiguous
    EXPECT_THROW(skinnyProductInto(a, Eigen::MatrixXf::Ones(3, 2), tall.topRows(64)),
                 std::invalid_argument);
    Eigen::MatrixXf rightTall(5, 2);
    EXPECT_THROW(skinnyProductInto(a, rightTall.topRows(3), out), std::invalid_argument);
    skinnyProductInto(a, Eigen::MatrixXf::Ones(3, 2), out);
    EXPECT_TRUE((out.topRows(4).array() == 3.0F).all());
}

// The pair products in packPairs' order — (j, l), j ≤ l, at l(l+1)/2 + j — and their
// single-precision form is exactly the double products rounded.
TEST(PowerTrials, PairProductsAreTheOrderedProductsAndTheirRoundingInFloat) {
    Rng rng(15);
    // 8, 9, 16, 17: the single-precision products' whole chunks of 8 end at, or spill past, a run.
    for (const Eigen::Index k : {1, 2, 7, 8, 9, 16, 17, 50}) {
        const Eigen::MatrixXd y = normalMatrix(rng, k, 3);
        Eigen::MatrixXd pairs;
        power_trials::pairProducts(y, pairs);
        ASSERT_EQ(pairs.rows(), k * (k + 1) / 2);
        for (Eigen::Index c = 0; c < 3; ++c) {
            for (Eigen::Index l = 0; l < k; ++l) {
                for (Eigen::Index j = 0; j <= l; ++j) {
                    EXPECT_EQ(pairs(l * (l + 1) / 2 + j, c), y(j, c) * y(l, c));
                }
            }
        }
        Eigen::MatrixXf single(k * (k + 1) / 2, 4);
        single.setConstant(5.0F);
        power_trials::pairProductsSingle(y, single);
        EXPECT_TRUE((single.leftCols(3).array() == pairs.cast<float>().array()).all()) << k;
        EXPECT_TRUE((single.col(3).array() == 5.0F).all());
    }
}

// Deflating the packed core in place subtracts w·a_i·a_j·a_l from column (j, l) (doubled off
// the diagonal, packPairs' layout) and leaves the single-precision copy equal to the result
// rounded, its padding rows zero.
TEST(PowerTrials, DeflatePackedSubtractsTheRankOneTermInPlace) {
    Rng rng(16);
    for (const Eigen::Index k : {1, 3, 50}) {
        const Eigen::Index pairs = k * (k + 1) / 2;
        const Eigen::MatrixXd start = normalMatrix(rng, k, pairs);
        const Eigen::VectorXd a = rng.normalVector(k);
        const double w = 0.75;
        Eigen::MatrixXd core = start;
        PaddedRowsSingle single = PaddedRowsSingle::of(core);
        power_trials::deflatePacked(w, a, core, single);
        Eigen::Index p = 0;
        for (Eigen::Index l = 0; l < k; ++l) {
            for (Eigen::Index j = 0; j <= l; ++j, ++p) {
                const double factor = j < l ? 2.0 : 1.0;
                for (Eigen::Index i = 0; i < k; ++i) {
                    const double expected = start(i, p) - factor * w * a[i] * a[j] * a[l];
                    EXPECT_NEAR(core(i, p), expected, 1e-14 * (1.0 + std::abs(start(i, p)))) << k;
                }
            }
        }
        ASSERT_EQ(single.values.rows() % PaddedRowsSingle::kBlockRows, 0);
        EXPECT_TRUE((single.values.topRows(k).array() == core.cast<float>().array()).all()) << k;
        EXPECT_TRUE(single.values.bottomRows(single.values.rows() - k).isZero()) << k;
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
