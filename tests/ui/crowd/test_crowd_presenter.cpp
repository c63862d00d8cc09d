// The Crowd workspace's presenter functions (ui/crowd/crowd_presenter): the summary texts. (The
// CMI order, confusion and disagreements are core rules: tests/core/crowd/test_crowd_evaluation.)
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

TEST(CrowdPresenter, SummariesNameTheNumbers) {
    cx::SyntheticCrowd crowd = sparseCrowd(200, 10, 3);
    const cx::CrowdResult result =
        cx::runCrowdMethod(crowd.data, cx::CrowdMethod::Stagewise, cx::CrowdOptions{});
    const QString run = crowdRunSummary(crowd.data, result);
    EXPECT_TRUE(run.contains(QStringLiteral("<b>stagewise</b>")));
    EXPECT_TRUE(run.contains(QStringLiteral("%1 %").arg(100 * result.errorRate, 0, 'f', 2)));
    EXPECT_TRUE(run.contains(QStringLiteral("on 200 gold items")));
    EXPECT_TRUE(run.contains(
        QStringLiteral("%1 of 10 workers informative").arg(result.informativeSetSize())));

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
