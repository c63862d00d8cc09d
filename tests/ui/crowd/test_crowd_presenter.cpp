// The Crowd workspace's presenter functions (ui/crowd/crowd_presenter): the CMI heatmap's worker
// order, the confusion against gold (against a brute-force count and the method's error rate),
// the items the methods disagree on (against a direct pairwise check) and the summary texts.
#include "core/crowd/crowd_methods.h"
#include "core/crowd/synthetic_crowd.h"
#include "ui/crowd/crowd_presenter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace cx::ui;

namespace {

cx::SyntheticCrowd sparseCrowd(int items, int workers, std::uint64_t seed) {
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.3, 0.75, items, workers, 3, seed);
    spec.labelProbability = 0.8;
    return cx::generateSparseCrowd(spec);
}

} // namespace

TEST(CrowdPresenter, CmiOrderIsInformativeSetThenOthersByAccuracy) {
    const cx::SyntheticCrowd crowd = sparseCrowd(300, 20, 4);
    cx::CrowdOptions options;
    const cx::CrowdResult result =
        cx::runCrowdMethod(crowd.data, cx::CrowdMethod::Stagewise, options);
    ASSERT_GT(result.informativeSetSize(), 1);
    const std::vector<int> order = crowdCmiWorkerOrder(crowd.data, result);
    ASSERT_EQ(order.size(), 20u);
    EXPECT_EQ(std::set<int>(order.begin(), order.end()).size(), 20u) << "a permutation";
    const size_t informative = result.informativeOrder.size();
    EXPECT_TRUE(std::equal(result.informativeOrder.begin(), result.informativeOrder.end(),
                           order.begin()));
    for (size_t i = informative + 1; i < order.size(); ++i) {
        EXPECT_GE(result.workers[static_cast<size_t>(order[i - 1])].accuracy,
                  result.workers[static_cast<size_t>(order[i])].accuracy);
    }

    // Without an informative set (majority vote): every worker by accuracy, ties by index.
    cx::CrowdResult flat;
    flat.workers.resize(4);
    const double accuracies[] = {0.6, 0.9, 0.6, 0.7};
    for (int m = 0; m < 4; ++m) {
        flat.workers[static_cast<size_t>(m)].accuracy = accuracies[m];
    }
    cx::CrowdLabels four;
    four.numWorkers = 4;
    EXPECT_EQ(crowdCmiWorkerOrder(four, flat), (std::vector<int>{1, 3, 0, 2}));
}

TEST(CrowdPresenter, ConfusionMatchesABruteForceCountAndTheErrorRate) {
    const cx::SyntheticCrowd crowd = sparseCrowd(400, 15, 9);
    const cx::CrowdResult result =
        cx::runCrowdMethod(crowd.data, cx::CrowdMethod::MvEm, cx::CrowdOptions{});
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

TEST(CrowdPresenter, DisagreementsAreTheItemsWhosePredictionsDiffer) {
    cx::CrowdResult a;
    cx::CrowdResult b;
    cx::CrowdResult c;
    a.predicted = {0, 1, 2, 0, 1};
    b.predicted = {0, 1, 0, 0, 1};
    c.predicted = {0, 2, 2, 0, 1};
    EXPECT_EQ(crowdDisagreements(5, {&a, &b, &c}), (std::vector<int>{1, 2}));
    EXPECT_EQ(crowdDisagreements(5, {&a}), std::vector<int>{});
    EXPECT_EQ(crowdDisagreements(5, {}), std::vector<int>{});

    // Against a pairwise check on real fits.
    const cx::SyntheticCrowd crowd = sparseCrowd(300, 12, 2);
    std::vector<cx::CrowdResult> fits;
    for (cx::CrowdMethod method : {cx::CrowdMethod::MajorityVote, cx::CrowdMethod::MvEm,
                                   cx::CrowdMethod::Stagewise}) {
        fits.push_back(cx::runCrowdMethod(crowd.data, method, cx::CrowdOptions{}));
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

TEST(CrowdPresenter, SummariesNameTheNumbers) {
    cx::SyntheticCrowd crowd = sparseCrowd(200, 10, 3);
    const cx::CrowdResult result =
        cx::runCrowdMethod(crowd.data, cx::CrowdMethod::Stagewise, cx::CrowdOptions{});
    const QString run = crowdRunSummary(crowd.data, result);
    EXPECT_TRUE(run.contains(QStringLiteral("<b>stagewise</b>")));
    EXPECT_TRUE(run.contains(QStringLiteral("%1 %").arg(100 * result.errorRate, 0, 'f', 2)));
    EXPECT_TRUE(run.contains(QStringLiteral("on 200 gold items")));
    EXPECT_TRUE(run.contains(QStringLiteral("%1 of 10 workers informative")
                                 .arg(result.informativeSetSize())));

    const QString data = crowdDataSummary(crowd.data, QStringLiteral("/x/answers.csv"),
                                          QStringLiteral("/x/truth.csv"));
    EXPECT_TRUE(data.contains(QStringLiteral("answers.csv")));
    EXPECT_TRUE(data.contains(QStringLiteral("200 items · 10 workers")));
    EXPECT_TRUE(data.contains(QStringLiteral("from truth.csv")));

    cx::CrowdResult noGold = result;
    noGold.errorRate = std::nan("");
    crowd.data.gold.assign(crowd.data.gold.size(), cx::CrowdLabels::kMissingLabel);
    EXPECT_FALSE(crowdRunSummary(crowd.data, noGold).contains(QStringLiteral("gold")));
    EXPECT_TRUE(crowdDataSummary(crowd.data, QStringLiteral("a.csv"), QString())
                    .contains(QStringLiteral("no gold labels")));
    for (cx::CrowdMethod method : cx::allCrowdMethods()) {
        EXPECT_FALSE(crowdMethodLabel(method).isEmpty());
    }
}
