#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/tensor/linalg.h"
#include "core/topics/document_moments.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

#include <vector>

namespace cx {
namespace {

/// A few short documents over a 6-word vocabulary with repeated words (so every correction term
/// of the unbiased estimators matters).
std::vector<std::vector<int>> tinyDocuments() {
    return {{0, 0, 1, 2},       {1, 1, 1},       {2, 3, 3, 4, 5, 5, 5},
            {0, 5, 5, 2, 2, 2}, {4, 4, 4, 4, 1}, {0, 1, 2, 3, 4, 5, 0, 1}};
}

/// Brute force: average over documents of the empirical distribution of ordered pairs of
/// distinct token positions — the definition the estimator is unbiased for.
Eigen::MatrixXd bruteM2(const std::vector<std::vector<int>>& documents, int d) {
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(d, d);
    for (const auto& tokens : documents) {
        const size_t l = tokens.size();
        for (size_t p = 0; p < l; ++p) {
            for (size_t q = 0; q < l; ++q) {
                if (p != q) {
                    m(tokens[p], tokens[q]) += 1.0 / static_cast<double>(l * (l - 1));
                }
            }
        }
    }
    return m / static_cast<double>(documents.size());
}

SymmetricTensor3 bruteM3(const std::vector<std::vector<int>>& documents, int d) {
    SymmetricTensor3 m(d);
    for (const auto& tokens : documents) {
        const size_t l = tokens.size();
        for (size_t p = 0; p < l; ++p) {
            for (size_t q = 0; q < l; ++q) {
                for (size_t r = 0; r < l; ++r) {
                    if (p != q && q != r && p != r) {
                        m(tokens[p], tokens[q], tokens[r]) +=
                            1.0 / static_cast<double>(l * (l - 1) * (l - 2));
                    }
                }
            }
        }
    }
    m.unfolded() /= static_cast<double>(documents.size());
    return m;
}

std::vector<std::int64_t> allRows(std::int64_t n) {
    std::vector<std::int64_t> rows(static_cast<size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        rows[static_cast<size_t>(i)] = i;
    }
    return rows;
}

TEST(DocumentMoments, M2MatchesBruteForceEveryEntry) {
    const auto documents = tinyDocuments();
    const CountMatrix counts = test::countsFromTokens(documents, 6);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    const Eigen::MatrixXd expected = bruteM2(documents, 6);
    const Eigen::MatrixXd got = moments.denseM2();
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            EXPECT_NEAR(got(i, j), expected(i, j), 1e-14) << "entry " << i << "," << j;
        }
    }
}

TEST(DocumentMoments, M3MatchesBruteForceEveryEntry) {
    const auto documents = tinyDocuments();
    const CountMatrix counts = test::countsFromTokens(documents, 6);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    const SymmetricTensor3 expected = bruteM3(documents, 6);
    const SymmetricTensor3 got = moments.denseM3();
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            for (int k = 0; k < 6; ++k) {
                EXPECT_NEAR(got(i, j, k), expected(i, j, k), 1e-14)
                    << "entry " << i << "," << j << "," << k;
            }
        }
    }
}

TEST(DocumentMoments, ImplicitContractionEqualsDenseTensor) {
    const auto documents = tinyDocuments();
    const CountMatrix counts = test::countsFromTokens(documents, 6);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    const SymmetricTensor3 dense = bruteM3(documents, 6);
    Rng rng(7);
    for (int trial = 0; trial < 5; ++trial) {
        const Eigen::VectorXd v = rng.normalVector(6);
        EXPECT_LT((moments.m3Contract(v) - dense.contract(v)).norm(), 1e-13);
        const Eigen::MatrixXd x = rng.normalMatrix(6, 3);
        EXPECT_LT((moments.m2Times(x) - bruteM2(documents, 6) * x).norm(), 1e-13);
    }
}

TEST(DocumentMoments, SubsetUsesOnlyListedDocuments) {
    const auto documents = tinyDocuments();
    const CountMatrix counts = test::countsFromTokens(documents, 6);
    const DocumentMoments moments(counts, {1, 3, 4});
    const std::vector<std::vector<int>> subset = {documents[1], documents[3], documents[4]};
    EXPECT_LT((moments.denseM2() - bruteM2(subset, 6)).norm(), 1e-14);
}

TEST(DocumentMoments, ProjectionEqualsDenseProjection) {
    const auto documents = tinyDocuments();
    const CountMatrix counts = test::countsFromTokens(documents, 6);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    Rng rng(3);
    const Eigen::MatrixXd basis = orthonormalBasis(rng.normalMatrix(6, 4));
    const DocumentMoments::Projected projected = moments.project(basis);
    const Eigen::MatrixXd expectedM2 = basis.transpose() * bruteM2(documents, 6) * basis;
    const SymmetricTensor3 expectedM3 = bruteM3(documents, 6).multilinear(basis);
    EXPECT_LT((projected.m2 - expectedM2).norm(), 1e-14);
    EXPECT_LT((projected.m3.unfolded() - expectedM3.unfolded()).norm(), 1e-14);
    // Full basis: the projection is a rotation, so entries agree after rotating back.
    const Eigen::MatrixXd full = orthonormalBasis(rng.normalMatrix(6, 6));
    const auto rotated = moments.project(full);
    EXPECT_LT((full * rotated.m2 * full.transpose() - bruteM2(documents, 6)).norm(), 1e-13);
}

/// Seeded documents of 3..maxLength tokens over a vocabulary of d words.
std::vector<std::vector<int>> randomDocuments(std::uint64_t seed, int count, int d, int maxLength) {
    Rng rng(seed);
    std::vector<std::vector<int>> documents;
    for (int n = 0; n < count; ++n) {
        std::vector<int> tokens(
            static_cast<size_t>(3 + rng.below(static_cast<std::uint64_t>(maxLength - 2))));
        for (int& w : tokens) {
            w = static_cast<int>(rng.below(static_cast<std::uint64_t>(d)));
        }
        documents.push_back(tokens);
    }
    return documents;
}

// The projection forms Σ w3 y⊗y⊗y from the entries a ≤ b ≤ c only, in blocks of 8 rows against
// a shrinking prefix of the pairs; r = 21 spans three blocks and a partial one.
TEST(DocumentMoments, BlockedProjectionEqualsBruteForceForSeveralRowBlocks) {
    const auto documents = randomDocuments(5, 150, 30, 25);
    const CountMatrix counts = test::countsFromTokens(documents, 30);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    Rng rng(8);
    const Eigen::MatrixXd basis = orthonormalBasis(rng.normalMatrix(30, 21));
    const DocumentMoments::Projected projected = moments.project(basis);
    const Eigen::MatrixXd expectedM2 = basis.transpose() * bruteM2(documents, 30) * basis;
    const SymmetricTensor3 expectedM3 = bruteM3(documents, 30).multilinear(basis);
    EXPECT_LT((projected.m2 - expectedM2).norm(), 1e-13 * expectedM2.norm());
    EXPECT_LT((projected.m3.unfolded() - expectedM3.unfolded()).norm(),
              1e-13 * expectedM3.unfolded().norm());
    // Long documents: the contraction's four interleaved partial sums and their remainder.
    const SymmetricTensor3 dense = bruteM3(documents, 30);
    for (int trial = 0; trial < 3; ++trial) {
        const Eigen::VectorXd v = rng.normalVector(30);
        const Eigen::VectorXd expected = dense.contract(v);
        EXPECT_LT((moments.m3Contract(v) - expected).norm(), 1e-13 * expected.norm());
    }
}

// The projection runs word by word over chunks of 2,048 documents: several chunks per slot (2
// slots × 3,000 documents) against brute force, the split-half noise from the even- and
// odd-numbered documents' own brute-force M2 (the parity is the document's place in the whole
// list, across chunk boundaries), and a reused layout gives the same numbers.
TEST(DocumentMoments, WordMajorProjectionEqualsBruteForceAcrossChunks) {
    const auto documents = randomDocuments(31, 6000, 9, 8);
    const CountMatrix counts = test::countsFromTokens(documents, 9);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    Rng rng(12);
    const Eigen::MatrixXd basis = orthonormalBasis(rng.normalMatrix(9, 5));
    const auto layout = moments.wordMajorLayout();
    const DocumentMoments::Projected projected = moments.project(basis, *layout);
    const Eigen::MatrixXd expectedM2 = basis.transpose() * bruteM2(documents, 9) * basis;
    const SymmetricTensor3 expectedM3 = bruteM3(documents, 9).multilinear(basis);
    EXPECT_LT((projected.m2 - expectedM2).norm(), 1e-13 * expectedM2.norm());
    EXPECT_LT((projected.m3.unfolded() - expectedM3.unfolded()).norm(),
              1e-13 * expectedM3.unfolded().norm());
    std::vector<std::vector<int>> even, odd;
    for (size_t n = 0; n < documents.size(); ++n) {
        (n % 2 == 0 ? even : odd).push_back(documents[n]);
    }
    const Eigen::MatrixXd difference =
        basis.transpose() * (bruteM2(even, 9) - bruteM2(odd, 9)) * basis;
    const Eigen::MatrixXd expectedNoise = 0.25 * (difference + difference.transpose());
    ASSERT_TRUE(projected.noiseAvailable);
    EXPECT_LT((projected.m2Noise - expectedNoise).norm(), 1e-12 * expectedNoise.norm());
    const DocumentMoments::Projected again = moments.project(basis);
    EXPECT_EQ(projected.m2, again.m2);
    EXPECT_EQ(projected.m3.unfolded(), again.m3.unfolded());
    EXPECT_EQ(projected.m2Noise, again.m2Noise);
    const DocumentMoments other(counts, allRows(counts.numRows));
    EXPECT_THROW(other.project(basis, *layout), std::invalid_argument);
}

// The single-precision product of the range finder against the double one, for widths below,
// at and above the 16-column blocks, and on enough documents that every slot runs over several
// word-major chunks (8 slots × 10,000 documents, 2,048 per chunk).
TEST(DocumentMoments, SinglePrecisionM2TimesMatchesDoubleToSixDigits) {
    const auto tiny = tinyDocuments();
    const CountMatrix tinyCounts = test::countsFromTokens(tiny, 6);
    const DocumentMoments tinyMoments(tinyCounts, allRows(tinyCounts.numRows));
    Rng rng(4);
    for (int width : {1, 5, 16, 17, 33}) {
        const Eigen::MatrixXd x = rng.normalMatrix(6, width);
        const Eigen::MatrixXd expected = bruteM2(tiny, 6) * x;
        const Eigen::MatrixXd got = tinyMoments.m2TimesSingle(x);
        ASSERT_EQ(got.rows(), 6);
        ASSERT_EQ(got.cols(), width);
        EXPECT_LT((got - expected).norm(), 1e-6 * expected.norm()) << "width " << width;
    }
    const auto many = randomDocuments(6, 80000, 50, 12);
    const CountMatrix counts = test::countsFromTokens(many, 50);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    const Eigen::MatrixXd x = rng.normalMatrix(50, 20);
    const Eigen::MatrixXd expected = moments.m2Times(x);
    const Eigen::MatrixXd got = moments.m2TimesSingle(x);
    EXPECT_LT((got - expected).norm(), 1e-6 * expected.norm());
    EXPECT_GT((got - expected).norm(), 0.0); // it does run in single precision
    EXPECT_THROW(moments.m2TimesSingle(Eigen::MatrixXd::Zero(49, 3)), std::invalid_argument);
}

// The range finder builds the word-major layout once and reuses it: the same numbers as a
// product that regroups the documents itself, for any width, and a layout of other documents
// is refused.
TEST(DocumentMoments, WordMajorLayoutIsReusableAndBoundToItsDocuments) {
    // Words 0..59 with a skew (low words in most documents, high ones rare), so chunks hold
    // words with many entries, with one entry and without any.
    Rng rng(21);
    std::vector<std::vector<int>> documents;
    for (int n = 0; n < 9000; ++n) {
        std::vector<int> tokens(3 + rng.below(30));
        for (int& w : tokens) {
            const auto u = static_cast<double>(rng.below(1000)) / 1000.0;
            w = static_cast<int>(60.0 * u * u * u);
        }
        documents.push_back(tokens);
    }
    const CountMatrix counts = test::countsFromTokens(documents, 60);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    const auto layout = moments.wordMajorLayout();
    // 1 to 5 blocks of 16 floats: every unrolled kernel and the general one.
    for (int width : {1, 8, 16, 31, 40, 64, 70}) {
        const Eigen::MatrixXd x = rng.normalMatrix(60, width);
        const Eigen::MatrixXd reused = moments.m2TimesSingle(x, *layout);
        EXPECT_EQ(reused, moments.m2TimesSingle(x)) << "width " << width;
        const Eigen::MatrixXd expected = moments.m2Times(x);
        EXPECT_LT((reused - expected).norm(), 1e-6 * expected.norm()) << "width " << width;
    }
    const DocumentMoments fewer(counts, {0, 1, 2, 3});
    EXPECT_THROW(fewer.m2TimesSingle(rng.normalMatrix(60, 4), *layout), std::invalid_argument);
    const DocumentMoments same(counts, allRows(counts.numRows)); // equal, but not the owner
    EXPECT_THROW(same.m2TimesSingle(rng.normalMatrix(60, 4), *layout), std::invalid_argument);
}

TEST(DocumentMoments, RejectsShortDocumentsAndBadIndices) {
    const CountMatrix counts = test::countsFromTokens({{0, 1}, {0, 1, 2}}, 3);
    EXPECT_THROW(DocumentMoments(counts, {0}), std::invalid_argument);
    EXPECT_THROW(DocumentMoments(counts, {5}), std::invalid_argument);
    EXPECT_THROW(DocumentMoments(counts, {}), std::invalid_argument);
    EXPECT_NO_THROW(DocumentMoments(counts, {1}));
}

TEST(DocumentMoments, IdenticalResultsForAnyThreadCount) {
    Rng rng(11);
    std::vector<std::vector<int>> documents;
    // Enough documents for the full number of reduction slots (reductionSlots()).
    for (int n = 0; n < 20000; ++n) {
        std::vector<int> tokens(3 + rng.below(8));
        for (int& w : tokens) {
            w = static_cast<int>(rng.below(40));
        }
        documents.push_back(tokens);
    }
    const CountMatrix counts = test::countsFromTokens(documents, 40);
    const DocumentMoments moments(counts, allRows(counts.numRows));
    const Eigen::MatrixXd basis = orthonormalBasis(rng.normalMatrix(40, 7));
    const Eigen::VectorXd v = rng.normalVector(40);
    setThreadCount(1);
    const auto one = moments.project(basis);
    const Eigen::VectorXd oneContract = moments.m3Contract(v);
    const Eigen::MatrixXd oneTimes = moments.m2Times(basis);
    const Eigen::MatrixXd oneSingle = moments.m2TimesSingle(basis);
    for (int threads : {2, 3, 8}) {
        setThreadCount(threads);
        const auto many = moments.project(basis);
        EXPECT_EQ(one.m2, many.m2) << threads << " threads";
        EXPECT_EQ(one.m3.unfolded(), many.m3.unfolded()) << threads << " threads";
        EXPECT_EQ(oneContract, moments.m3Contract(v)) << threads << " threads";
        EXPECT_EQ(oneTimes, moments.m2Times(basis)) << threads << " threads";
        EXPECT_EQ(oneSingle, moments.m2TimesSingle(basis)) << threads << " threads";
    }
    setThreadCount(0);
}

} // namespace
} // namespace cx
