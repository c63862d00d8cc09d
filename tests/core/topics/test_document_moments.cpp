#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/topics/document_moments.h"
#include "core/tensor/linalg.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

#include <vector>

namespace cx {
namespace {

/// A few short documents over a 6-word vocabulary with repeated words (so every correction term
/// of the unbiased estimators matters).
std::vector<std::vector<int>> tinyDocuments() {
    return {{0, 0, 1, 2},       {1, 1, 1},          {2, 3, 3, 4, 5, 5, 5},
            {0, 5, 5, 2, 2, 2}, {4, 4, 4, 4, 1},    {0, 1, 2, 3, 4, 5, 0, 1}};
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
    for (int threads : {2, 3, 8}) {
        setThreadCount(threads);
        const auto many = moments.project(basis);
        EXPECT_EQ(one.m2, many.m2) << threads << " threads";
        EXPECT_EQ(one.m3.unfolded(), many.m3.unfolded()) << threads << " threads";
        EXPECT_EQ(oneContract, moments.m3Contract(v)) << threads << " threads";
        EXPECT_EQ(oneTimes, moments.m2Times(basis)) << threads << " threads";
    }
    setThreadCount(0);
}

} // namespace
} // namespace cx
