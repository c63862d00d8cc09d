// Topics journeys on the real MainWindow (offscreen): what a user sees after each step.
#include "../ui/gui_test_helpers.h"

#include "ui/charts/state_weights_chart_view.h"
#include "ui/shell/main_window.h"
#include "ui/topics/document_browser.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"

#include "core/topics/topic_admissibility.h"
#include "core/topics/topic_path.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDoubleSpinBox>
#include <QToolButton>

#include <cmath>
#include <map>

using cx::ui::MainWindow;
using cx::ui::TopicsWorkspace;
using cx::ui::TopicWordsModel;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

namespace {

/// Header texts of the table's inadmissible columns, by component.
std::map<int, QString> inadmissibleHeaders(const TopicWordsModel& model) {
    std::map<int, QString> out;
    for (int column = 0; column < model.columnCount(); ++column) {
        if (!model.headerData(column, Qt::Horizontal, TopicWordsModel::AdmissibleRole).toBool()) {
            out[model.componentOf(column)] =
                model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        }
    }
    return out;
}

QToolButton* buttonWithText(QWidget* parent, const QString& text) {
    for (QToolButton* button : parent->findChildren<QToolButton*>()) {
        if (button->text() == text) {
            return button;
        }
    }
    return nullptr;
}

} // namespace

// Issue 23 finding 3 / issue 27 part 6: demo, γ = 6.5 has an inadmissible foreground-specific
// topic (ω ≫ 1, ⚠ and red). After Bootstrap it stays flagged (⚠, AdmissibleRole false, the
// explanation in its tooltip) and its tooltip gains the weight band and the stability.
TEST(TopicsJourneys, BootstrapKeepsTheInadmissibleFlagAndAddsStability) {
    ErrorRecorder errors;
    MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(window.openDemo());
    TopicsWorkspace* topics = window.workspace<TopicsWorkspace>();
    cx::ui::TopicsController* controller = topics->controller();
    ASSERT_TRUE(waitUntil(
        [&] {
            return topics->isSettled() && controller->solution().isValid() &&
                   controller->lastSweep() != nullptr;
        },
        90000));

    topics->analysisPanel()->gammaSpin()->setValue(6.5);
    TopicWordsModel* model = topics->tablePanel()->model();
    ASSERT_TRUE(waitUntil(
        [&] { return topics->isSettled() && std::abs(model->solution().gamma - 6.5) < 1e-12; },
        60000));
    const std::map<int, QString> before = inadmissibleHeaders(*model);
    ASSERT_FALSE(before.empty()) << "the demo at γ = 6.5 shows an inadmissible topic";
    for (const auto& [component, header] : before) {
        EXPECT_TRUE(header.startsWith(QStringLiteral("⚠"))) << header.toStdString();
    }

    // The user clicks Bootstrap (10 resamples to keep the test short).
    topics->specificityPanel()->setBootstrapReplicates(10);
    QToolButton* bootstrap =
        buttonWithText(topics->specificityPanel(), QStringLiteral("Bootstrap"));
    ASSERT_NE(bootstrap, nullptr);
    ASSERT_TRUE(bootstrap->isEnabled());
    bootstrap->click();
    ASSERT_TRUE(waitUntil(
        [&] { return controller->lastBootstrap() != nullptr && topics->isSettled(); }, 120000));

    const std::map<int, QString> after = inadmissibleHeaders(*model);
    for (const auto& [component, header] : before) {
        ASSERT_TRUE(after.count(component))
            << "component " << component << " (" << header.toStdString()
            << ") lost its flag after Bootstrap";
        EXPECT_TRUE(after.at(component).startsWith(QStringLiteral("⚠")));
        int column = -1;
        for (int c = 0; c < model->columnCount(); ++c) {
            column = model->componentOf(c) == component ? c : column;
        }
        const QString tip = model->headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
        EXPECT_TRUE(tip.contains(QStringLiteral("inadmissible"))) << tip.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("bootstrap band"))) << tip.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("resamples"))) << tip.toStdString();
        // The cells read in the table's warning style too (the delegate hatches by this role).
        EXPECT_FALSE(
            model->data(model->index(0, column), TopicWordsModel::AdmissibleRole).toBool());
    }
    // Every foreground-specific column's tooltip now carries its stability.
    for (int c = 0; c < model->columnCount(); ++c) {
        EXPECT_TRUE(model->headerData(c, Qt::Horizontal, Qt::ToolTipRole)
                        .toString()
                        .contains(QStringLiteral("resamples")))
            << "column " << c;
    }
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

// Issue 27 parts 1 and 3 on the demo: the user opens the documents behind the first topic,
// names it, moves γ along the path and finds the same topic (by identity) with its name in the
// table, the browser and the weights chart; the session keeps the name.
TEST(TopicsJourneys, DocumentsBehindANamedTopicFollowItAlongGamma) {
    ErrorRecorder errors;
    MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(window.openDemo());
    TopicsWorkspace* topics = window.workspace<TopicsWorkspace>();
    cx::ui::TopicsController* controller = topics->controller();
    TopicWordsModel* model = topics->tablePanel()->model();
    ASSERT_TRUE(waitUntil(
        [&] {
            return topics->isSettled() && controller->solution().isValid() &&
                   controller->lastSweep() != nullptr && model->columnCount() > 0;
        },
        90000));

    const int component = model->componentOf(0);
    const int identity = model->identityOf(component);
    ASSERT_GE(identity, 0) << "the demo's sweep gives identities";
    topics->documentsAction()->trigger();
    cx::ui::DocumentBrowser* browser = topics->documentBrowser();
    ASSERT_TRUE(browser->isVisible());
    ASSERT_TRUE(waitUntil([&] { return browser->model()->rowCount() > 0; }, 20000));
    EXPECT_EQ(browser->component(), component);
    EXPECT_EQ(browser->model()->poolSize(),
              static_cast<int>(controller->engine()->foreground.size()));
    for (int row = 1; row < browser->model()->rowCount(); ++row) {
        const cx::RankedDocument& a = browser->model()->entry(row - 1);
        const cx::RankedDocument& b = browser->model()->entry(row);
        ASSERT_TRUE(a.score > b.score || (a.score == b.score && a.logOdds >= b.logOdds))
            << "row " << row;
    }
    const std::int64_t firstDocument = browser->model()->documentOf(0);

    // Name it; the table header, the browser and the weights chart's line use the name.
    ASSERT_TRUE(model->setTopicName(component, QStringLiteral("Corporate earnings")));
    EXPECT_TRUE(model->headerData(0, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("Corporate earnings")));
    EXPECT_TRUE(
        browser->tsvText().section('\n', 1, 1).startsWith(QStringLiteral("Corporate earnings\t")));
    bool charted = false;
    for (const auto& line : topics->specificityPanel()->trajectoryChart()->lines()) {
        charted = charted || line.name.contains(QStringLiteral("Corporate earnings"));
    }
    EXPECT_TRUE(charted);
    EXPECT_EQ(topics->currentSection().topicNames.at(identity), "Corporate earnings");

    // Another γ of the path where the identity still exists: the name and the browser follow.
    const cx::TopicPath& path = controller->lastSweep()->path;
    double target = -1;
    for (int i = 0; i < static_cast<int>(path.gammas.size()) && target < 0; ++i) {
        const double g = path.gammas[static_cast<size_t>(i)];
        const int slot = path.slotOf(i, identity);
        if (std::abs(g - controller->gamma()) > 0.6 && slot >= 0 &&
            path.solutions[static_cast<size_t>(i)].foregroundSpecific[static_cast<size_t>(slot)]) {
            target = g;
        }
    }
    ASSERT_GE(target, 0) << "no other γ with the same topic";
    topics->analysisPanel()->gammaSpin()->setValue(target);
    ASSERT_TRUE(waitUntil(
        [&] {
            return topics->isSettled() && std::abs(model->solution().gamma - target) < 1e-12 &&
                   browser->model()->rowCount() > 0 && browser->component() >= 0 &&
                   model->identityOf(browser->component()) == identity;
        },
        60000))
        << "γ " << target;
    EXPECT_EQ(model->nameOfComponent(browser->component()), QStringLiteral("Corporate earnings"));
    EXPECT_TRUE(browser->titleText().contains(QStringLiteral("Corporate earnings")));
    (void)firstDocument;
    if (const QString shots = qEnvironmentVariable("CX_UI_SCREENSHOT_DIR"); !shots.isEmpty()) {
        browser->grab().save(shots + QStringLiteral("/document-browser.png"));
        window.grab().save(shots + QStringLiteral("/named-topic.png"));
    }
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}
