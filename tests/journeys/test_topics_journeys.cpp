// Topics journeys on the real MainWindow (offscreen): what a user sees after each step.
#include "../ui/gui_test_helpers.h"
#include "journey_support.h"

#include "ui/charts/auc_chart_view.h"
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

#include <Eigen/Dense>

#include <algorithm>
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

/// Opens the demo in `window` and waits until the Topics workspace shows a solution with
/// columns and its sweep's path; nullptr when it does not within the time.
TopicsWorkspace* openSettledDemo(MainWindow& window) {
    window.setSettingsPersistent(false);
    window.resize(1280, 800);
    window.show();
    if (!window.openDemo()) {
        return nullptr;
    }
    TopicsWorkspace* topics = window.workspace<TopicsWorkspace>();
    cx::ui::TopicsController* controller = topics->controller();
    const bool settled = waitUntil(
        [&] {
            return topics->isSettled() && controller->solution().isValid() &&
                   controller->lastSweep() != nullptr &&
                   topics->tablePanel()->model()->columnCount() > 0;
        },
        90000);
    return settled ? topics : nullptr;
}

} // namespace

// Demo, at the first γ of its grid with an inadmissible foreground-specific topic (ω > 1, ⚠
// and red). After Bootstrap it stays flagged (⚠, AdmissibleRole false, the explanation in its
// tooltip) and its tooltip gains the weight band and the stability.
TEST(TopicsJourneys, BootstrapKeepsTheInadmissibleFlagAndAddsStability) {
    ErrorRecorder errors;
    MainWindow window;
    TopicsWorkspace* topics = openSettledDemo(window);
    ASSERT_NE(topics, nullptr);
    cx::ui::TopicsController* controller = topics->controller();

    const double gamma = cx::ui::journeys::showInadmissibleForegroundTopic(topics);
    ASSERT_FALSE(std::isnan(gamma)) << "the demo shows an inadmissible topic on its γ grid";
    TopicWordsModel* model = topics->tablePanel()->model();
    const std::map<int, QString> before = inadmissibleHeaders(*model);
    ASSERT_FALSE(before.empty()) << "the demo at γ = " << gamma << " shows an inadmissible topic";
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

// The documents behind a topic and its name, on the demo: the user opens the documents behind the
// first topic, names it, moves γ along the path and finds the same topic (by identity) with its
// name in the table, the browser and the weights chart; the session keeps the name.
TEST(TopicsJourneys, DocumentsBehindANamedTopicFollowItAlongGamma) {
    ErrorRecorder errors;
    MainWindow window;
    TopicsWorkspace* topics = openSettledDemo(window);
    ASSERT_NE(topics, nullptr);
    cx::ui::TopicsController* controller = topics->controller();
    TopicWordsModel* model = topics->tablePanel()->model();

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

namespace {

/// The weights chart's line whose name contains `name` (its colour; invalid when none).
QColor chartColourOf(TopicsWorkspace* topics, const QString& name) {
    for (const auto& line : topics->specificityPanel()->trajectoryChart()->lines()) {
        if (line.name.contains(name)) {
            return line.colour;
        }
    }
    return {};
}

/// Cosine of two topic-word vectors.
double cosine(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    return a.dot(b) / (a.norm() * b.norm());
}

} // namespace

// Names across K, on the demo: the user names a topic, changes K up and down; the name and
// the colour stay on the topic that persists (its words match), and names of topics the new K
// no longer has are gone.
TEST(TopicsJourneys, NamesAndColoursFollowTopicsAcrossK) {
    ErrorRecorder errors;
    MainWindow window;
    TopicsWorkspace* topics = openSettledDemo(window);
    ASSERT_NE(topics, nullptr);
    cx::ui::TopicsController* controller = topics->controller();
    TopicWordsModel* model = topics->tablePanel()->model();

    const int component = model->componentOf(0);
    const int identity = model->identityOf(component);
    ASSERT_GE(identity, 0);
    const Eigen::VectorXd words = model->solution().result->topics.col(component);
    const QString name = QStringLiteral("Corporate earnings");
    ASSERT_TRUE(model->setTopicName(component, name));
    const QColor colour = chartColourOf(topics, name);
    ASSERT_TRUE(colour.isValid());
    const int k = controller->parameters().numComponents;

    // Change K and wait for the new sweep's path and solution.
    const auto changeK = [&](int newK) {
        const auto previous = controller->lastSweep();
        topics->analysisPanel()->componentsSpin()->setValue(newK);
        return waitUntil(
            [&] {
                return topics->isSettled() && controller->lastSweep() != nullptr &&
                       controller->lastSweep() != previous && model->solution().isValid() &&
                       model->solution().parameters.numComponents == newK;
            },
            120000);
    };
    // Where the named topic is in the table now: its column's component, or −1.
    const auto namedComponent = [&] {
        for (int c = 0; c < model->columnCount(); ++c) {
            if (model->nameOfComponent(model->componentOf(c)) == name) {
                return model->componentOf(c);
            }
        }
        return -1;
    };
    for (const int newK : {k + 2, k}) {
        ASSERT_TRUE(changeK(newK)) << "K = " << newK;
        const int shown = namedComponent();
        ASSERT_GE(shown, 0) << "K = " << newK << ": the named topic persists but lost its name";
        EXPECT_EQ(model->identityOf(shown), identity) << "K = " << newK;
        // It is the same topic: its words match the one named.
        EXPECT_GT(cosine(model->solution().result->topics.col(shown), words), 0.9)
            << "K = " << newK;
        EXPECT_EQ(chartColourOf(topics, name), colour) << "K = " << newK;
        EXPECT_EQ(topics->currentSection().topicNames.count(
                      cx::canonicalIdentity(controller->lastSweep()->path, identity)),
                  1u);
    }

    // Name every topic shown, then K = 2: a name stays exactly when its identity is still on
    // the path; the others are gone (also from the session).
    for (int c = 0; c < model->columnCount(); ++c) {
        const int other = model->componentOf(c);
        if (other != namedComponent()) {
            model->setTopicName(other, QStringLiteral("Topic named %1").arg(c));
        }
    }
    const std::map<int, QString> named = model->identityNames();
    ASSERT_TRUE(changeK(2));
    const cx::TopicPath& path = controller->lastSweep()->path;
    int dropped = 0;
    for (const auto& [id, text] : named) {
        bool onPath = false;
        for (const std::vector<int>& row : path.ids) {
            onPath = onPath || std::find(row.begin(), row.end(), id) != row.end();
        }
        EXPECT_EQ(model->identityNames().count(id), onPath ? 1u : 0u) << text.toStdString();
        dropped += onPath ? 0 : 1;
    }
    EXPECT_GT(dropped, 0) << "K = 2 keeps every named topic of K = " << k;
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

// A γ grid being typed (cleared, "0:4:", "0:") is a draft: the path, its topics' identity names
// and the AUC chart stay, as the session saves the last grid that parsed — before, the window
// dropped the path and named the topics "Topic 1…" while the saved session reopened with the
// path's names. A grid that parses runs a new path.
TEST(TopicsJourneys, AGammaGridBeingTypedKeepsThePathAndItsNames) {
    ErrorRecorder errors;
    MainWindow window;
    TopicsWorkspace* topics = openSettledDemo(window);
    ASSERT_NE(topics, nullptr);
    cx::ui::TopicsController* controller = topics->controller();
    cx::ui::SpecificityPanel* panel = topics->specificityPanel();
    TopicWordsModel* model = topics->tablePanel()->model();
    const auto path = controller->lastSweep();
    const QVector<double> gammas = controller->sweep().gammas;
    const auto headers = [&] {
        QStringList names;
        for (int c = 0; c < model->columnCount(); ++c) {
            names << model->componentName(c);
        }
        return names;
    };
    const QStringList named = headers();
    ASSERT_FALSE(named.isEmpty());
    ASSERT_GE(model->identityOf(model->componentOf(0)), 0);
    for (const QString& draft : {QString(), QStringLiteral("0:4:"), QStringLiteral("0:")}) {
        panel->setGammaGrid(draft);
        QCoreApplication::processEvents();
        ASSERT_TRUE(waitUntil([&] { return topics->isSettled(); }));
        EXPECT_EQ(controller->lastSweep(), path) << draft.toStdString();
        EXPECT_EQ(controller->sweep().gammas, gammas) << draft.toStdString();
        EXPECT_EQ(headers(), named) << draft.toStdString();
        EXPECT_TRUE(panel->chart()->isComplete()) << draft.toStdString();
        EXPECT_EQ(topics->currentSection().aucGammas,
                  panel->lastValidGammaGridText().toStdString());
    }
    panel->setGammaGrid(QStringLiteral("0:3:0.5"));
    ASSERT_TRUE(waitUntil(
        [&] {
            return topics->isSettled() && controller->lastSweep() != nullptr &&
                   controller->lastSweep() != path;
        },
        90000));
    EXPECT_EQ(controller->lastSweep()->path.gammas.size(), 7u);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}
