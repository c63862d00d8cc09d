// Crowd journeys: after Compare methods on the demo's crowd, loading
// another crowd leaves no count of the old data on the Disagreements tab, and a parameter
// changed after the comparison marks it.
#include "journey_support.h"

#include "ui/shell/project_session.h"

#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_results_panel.h"
#include "ui/crowd/crowd_workspace.h"
#include "ui/framework/provenance.h"

#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>

namespace cx::ui::journeys {
namespace {

QPushButton* compareButton(const CrowdWorkspace* crowd) {
    for (QPushButton* button : crowd->findChildren<QPushButton*>()) {
        if (button->text() == QLatin1String("Compare methods")) {
            return button;
        }
    }
    return nullptr;
}

QString disagreementsTab(const CrowdWorkspace* crowd) {
    return tabText(crowd->results(), crowd->results()->disagreementTable());
}

/// Compare methods, as the button does, and wait for the Disagreements tab's count.
void compareMethods(CrowdWorkspace* crowd) {
    QPushButton* compare = compareButton(crowd);
    ASSERT_NE(compare, nullptr);
    ASSERT_TRUE(compare->isEnabled());
    compare->click();
    ASSERT_TRUE(waitUntil(
        [&] { return disagreementsTab(crowd).contains(QLatin1Char('(')) && crowd->isSettled(); }));
}

/// The K spin box (0 = "classes").
QSpinBox* kSpin(const CrowdWorkspace* crowd) {
    for (QSpinBox* spin : crowd->findChildren<QSpinBox*>()) {
        if (spin->specialValueText() == QLatin1String("classes")) {
            return spin;
        }
    }
    return nullptr;
}

} // namespace

// Found by the random-action journey (seed 5): a session reopened over the same labels with
// other settings (here the demo's K = classes, no comparison) kept the comparison computed
// with K = 3, unmarked — its K was set with the spin box's signals blocked. What the session
// does not show is not shown.
TEST(CrowdJourneys, ReopeningTheSameLabelsWithOtherSettingsDropsTheOldComparison) {
    QTemporaryDir folder;
    JourneyWindow journey;
    const QString session = demoSubset(folder, {QStringLiteral("crowd")});
    ASSERT_TRUE(journey.window.project()->open(session));
    auto* crowd = journey.workspace<CrowdWorkspace>();
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    QSpinBox* k = kSpin(crowd);
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->value(), 0);
    k->setValue(3);
    ASSERT_TRUE(settleAll(journey.window));
    compareMethods(crowd);
    ASSERT_GT(crowd->results()->comparisonTable()->rowCount(), 0);

    ProjectSession::setPromptHandler(
        [](const QString&) { return ProjectSession::Choice::Discard; });
    const bool reopened = journey.window.project()->open(session);
    ProjectSession::setPromptHandler({});
    ASSERT_TRUE(reopened);
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    EXPECT_EQ(k->value(), 0);
    EXPECT_EQ(crowd->results()->comparisonTable()->rowCount(), 0)
        << "the comparison of K = 3 stays under K = classes";
    EXPECT_EQ(disagreementsTab(crowd), QStringLiteral("Disagreements"));
    EXPECT_FALSE(crowd->comparisonMarker()->isStale());
    // Compared again: the rows are those of the settings shown.
    compareMethods(crowd);
    EXPECT_GT(crowd->results()->comparisonTable()->rowCount(), 0);
    EXPECT_FALSE(crowd->comparisonMarker()->isStale());
    EXPECT_TRUE(journey.errors.messages.isEmpty()) << journey.errorText().toStdString();
}

TEST(CrowdJourneys, AnotherCrowdClearsTheDisagreementCount) {
    QTemporaryDir folder;
    JourneyWindow journey;
    journey.window.openPath(demoSubset(folder, {QStringLiteral("crowd")}));
    auto* crowd = journey.workspace<CrowdWorkspace>();
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    compareMethods(crowd);
    const int demoCount = crowd->results()->disagreementTable()->rowCount();
    EXPECT_EQ(disagreementsTab(crowd), QStringLiteral("Disagreements (%1)").arg(demoCount));
    EXPECT_FALSE(crowd->comparisonMarker()->isVisibleTo(crowd));

    // K changed after the comparison: the fit follows, the comparison is marked.
    QSpinBox* k = kSpin(crowd);
    ASSERT_NE(k, nullptr);
    k->setValue(3);
    EXPECT_TRUE(crowd->comparisonMarker()->isVisibleTo(crowd));
    EXPECT_EQ(crowd->comparisonMarker()->changedNames(), QStringList{QStringLiteral("K")});
    EXPECT_TRUE(crowd->comparisonMarker()->text().contains(QStringLiteral("classes → 3")))
        << crowd->comparisonMarker()->text().toStdString();
    k->setValue(0); // back to what the comparison used: up to date again
    EXPECT_FALSE(crowd->comparisonMarker()->isStale());
    ASSERT_TRUE(settleAll(journey.window));

    // Another crowd (a Snow et al. layout, like RTE): no count or rows of the bluebird data.
    crowd->openFiles(testData(QStringLiteral("crowd/snow_style.tsv")), QString());
    ASSERT_TRUE(waitUntil([&] {
        return crowd->isSettled() &&
               crowd->controller()->labelsPath().endsWith(QLatin1String("snow_style.tsv"));
    })) << journey.errorText().toStdString();
    EXPECT_EQ(disagreementsTab(crowd), QStringLiteral("Disagreements"));
    EXPECT_EQ(crowd->results()->disagreementTable()->rowCount(), 0);
    EXPECT_EQ(crowd->results()->comparisonTable()->rowCount(), 0);
    EXPECT_FALSE(crowd->comparisonMarker()->isVisibleTo(crowd));

    // Compare on the new data: the count is that of the new table.
    compareMethods(crowd);
    EXPECT_EQ(disagreementsTab(crowd), QStringLiteral("Disagreements (%1)")
                                           .arg(crowd->results()->disagreementTable()->rowCount()));

    // A file that cannot be read: reported; the loaded crowd and its comparison stay, unmarked.
    const QString before = disagreementsTab(crowd);
    crowd->openFiles(testData(QStringLiteral("crowd/ragged.csv")), QString());
    ASSERT_TRUE(waitUntil([&] { return !journey.errors.messages.isEmpty(); }));
    EXPECT_TRUE(journey.errors.messages.front().contains(QLatin1String("ragged.csv")));
    ASSERT_TRUE(waitUntil([&] { return !crowd->controller()->isBusy(); }));
    EXPECT_EQ(disagreementsTab(crowd), before);
    EXPECT_FALSE(crowd->comparisonMarker()->isStale());
}

} // namespace cx::ui::journeys
