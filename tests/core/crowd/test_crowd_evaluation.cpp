// The crowd evaluation rules (core/crowd/crowd_evaluation): the CMI heatmap's worker order, the
// confusion against gold (against a brute-force count and the method's error rate) and the items
// the methods disagree on (against a direct pairwise check).
#include "core/crowd/crowd_evaluation.h"
#include "core/crowd/crowd_methods.h"
#include "core/crowd/synthetic_crowd.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace cx {
namespace {

SyntheticCrowd sparseCrowd(int items, int workers, std::uint64_t seed) {
    SparseCrowdSpec spec = betaSparseSpec(0.3, 0.75, items, workers, 3, seed);
    spec.labelProbability = 0.8;
    return generateSparseCrowd(spec);
}

TEST(CrowdEvaluation, CmiOrderIsInformativeSetThenOthersByAccuracy) {
    const SyntheticCrowd crowd = sparseCrowd(300, 20, 4);
    CrowdOptions options;
    const CrowdResult result = runCrowdMethod(crowd.data, CrowdMethod::Stagewise, options);
    ASSERT_GT(result.informativeSetSize(), 1);
    const std::vector<int> order = crowdCmiWorkerOrder(crowd.data, result);
    ASSERT_EQ(order.size(), 20u);
    EXPECT_EQ(std::set<int>(order.begin(), order.end()).size(), 20u) << "a permutation";
    const size_t informative = result.informativeOrder.size();
    EXPECT_TRUE(
        std::equal(result.informativeOrder.begin(), result.informativeOrder.end(), order.begin()));
    for (size_t i = informative + 1; i < order.size(); ++i) {
        EXPECT_GE(result.workers[static_cast<size_t>(order[i - 1])].accuracy,
                  result.workers[static_cast<size_t>(order[i])].accuracy);
    }

    // Without an informative set (majority vote): every worker by accuracy, ties by index.
    CrowdResult flat;
    flat.workers.resize(4);
    const double accuracies[] = {0.6, 0.9, 0.6, 0.7};
    for (int m = 0; m < 4; ++m) {
        flat.workers[static_cast<size_t>(m)].accuracy = accuracies[m];
    }
    CrowdLabels four;
    four.numWorkers = 4;
    EXPECT_EQ(crowdCmiWorkerOrder(four, flat), (std::vector<int>{1, 3, 0, 2}));
}

TEST(CrowdEvaluation, ConfusionMatchesABruteForceCountAndTheErrorRate) {
    const SyntheticCrowd crowd = sparseCrowd(400, 15, 9);
    const CrowdResult result = runCrowdMethod(crowd.data, CrowdMethod::MvEm, CrowdOptions{});
    const CrowdConfusion confusion = crowdConfusion(crowd.data, result);
    const int classes = crowd.data.numClasses;
    ASSERT_EQ(confusion.fractions.rows(), classes);
    double correct = 0;
    for (int g = 0; g < classes; ++g) {
        int total = 0;
        for (int n = 0; n < crowd.data.numItems; ++n) {
            total += crowd.data.gold[static_cast<size_t>(n)] == g ? 1 : 0;
        }
        EXPECT_EQ(confusion.totals[g], total);
        for (int p = 0; p < classes; ++p) {
            int count = 0;
            for (int n = 0; n < crowd.data.numItems; ++n) {
                count += crowd.data.gold[static_cast<size_t>(n)] == g &&
                                 result.predicted[static_cast<size_t>(n)] == p
                             ? 1
                             : 0;
            }
            EXPECT_NEAR(confusion.fractions(g, p), total > 0 ? double(count) / total : 0.0, 1e-12);
        }
        correct += confusion.fractions(g, g) * confusion.totals[g];
    }
    EXPECT_NEAR(1.0 - correct / crowd.data.numGold(), result.errorRate, 1e-12);
}

TEST(CrowdEvaluation, DisagreementsAreTheItemsWhosePredictionsDiffer) {
    CrowdResult a;
    CrowdResult b;
    CrowdResult c;
    a.predicted = {0, 1, 2, 0, 1};
    b.predicted = {0, 1, 0, 0, 1};
    c.predicted = {0, 2, 2, 0, 1};
    EXPECT_EQ(crowdDisagreements(5, {&a, &b, &c}), (std::vector<int>{1, 2}));
    EXPECT_EQ(crowdDisagreements(5, {&a}), std::vector<int>{});
    EXPECT_EQ(crowdDisagreements(5, {}), std::vector<int>{});

    // Against a pairwise check on real fits.
    const SyntheticCrowd crowd = sparseCrowd(300, 12, 2);
    std::vector<CrowdResult> fits;
    for (CrowdMethod method :
         {CrowdMethod::MajorityVote, CrowdMethod::MvEm, CrowdMethod::Stagewise}) {
        fits.push_back(runCrowdMethod(crowd.data, method, CrowdOptions{}));
    }
    const std::vector<int> items =
        crowdDisagreements(crowd.data.numItems, {&fits[0], &fits[1], &fits[2]});
    std::vector<int> expected;
    for (int n = 0; n < crowd.data.numItems; ++n) {
        bool differ = false;
        for (size_t i = 0; i < fits.size(); ++i) {
            for (size_t j = 0; j < fits.size(); ++j) {
                differ |= fits[i].predicted[static_cast<size_t>(n)] !=
                          fits[j].predicted[static_cast<size_t>(n)];
            }
        }
        if (differ) {
            expected.push_back(n);
        }
    }
    EXPECT_EQ(items, expected);
}

} // namespace
} // namespace cx
