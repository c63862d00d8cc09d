// A topic keeps one identity along γ — the same id and colour in the topic
// table's headers as in the weights-vs-γ chart, at every γ of the path.
#include "gui_test_helpers.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/shell/main_window.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"

#include "core/topics/topic_path.h"

#include <gtest/gtest.h>

#include <QDoubleSpinBox>
#include <QIcon>
#include <QImage>
#include <QPixmap>

#include <algorithm>
#include <cmath>
#include <set>

using cx::ui::test::waitUntil;

namespace {

/// Checks that every column of the table names its component's path identity and shows the
/// identity's colour; returns the identities of the foreground-specific columns.
std::set<int> expectHeadersFollowThePath(cx::ui::TopicsWorkspace* topics) {
    cx::ui::TopicWordsModel* model = topics->tablePanel()->model();
    const auto& shown = model->solution();
    const auto sweep = topics->controller()->lastSweep();
    const std::vector<int> ids = cx::identitiesOnPath(sweep->path, *shown.result);
    std::set<int> specific;
    for (int column = 0; column < model->columnCount(); ++column) {
        const int component = model->componentOf(column);
        const int id = ids[static_cast<size_t>(component)];
        EXPECT_EQ(model->identityOf(component), id) << "column " << column;
        if (id < 0) {
            continue;
        }
        const QString header = model->headerData(column, Qt::Horizontal).toString();
        EXPECT_TRUE(header.contains(QStringLiteral("T%1").arg(id + 1))) << header.toStdString();
        const QIcon icon =
            qvariant_cast<QIcon>(model->headerData(column, Qt::Horizontal, Qt::DecorationRole));
        EXPECT_FALSE(icon.isNull()) << "column " << column << " has no colour swatch";
        const QImage swatch = icon.pixmap(12, 12).toImage();
        EXPECT_EQ(swatch.pixelColor(6, 6).rgb(),
                  cx::ui::weightLineColour(cx::ui::SpecificityPanel::identityColour(id)).rgb())
            << "column " << column << ": not the chart's colour of T" << id + 1;
        if (shown.result->foregroundSpecific[static_cast<size_t>(component)]) {
            specific.insert(id);
        }
    }
    return specific;
}

} // namespace

TEST(TopicIdentitiesView, TableHeadersCarryThePathIdentityAndColourAtEveryGamma) {
    cx::ui::test::ErrorRecorder errors;
    cx::ui::MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(window.openDemo());
    cx::ui::TopicsWorkspace* topics = window.workspace<cx::ui::TopicsWorkspace>();
    cx::ui::TopicsController* controller = topics->controller();
    ASSERT_TRUE(waitUntil(
        [&] {
            return topics->isSettled() && controller->solution().isValid() &&
                   controller->lastSweep() != nullptr;
        },
        90000));
    ASSERT_TRUE(waitUntil([&] { return topics->tablePanel()->model()->identityOf(0) >= 0; }));
    const std::set<int> first = expectHeadersFollowThePath(topics);
    EXPECT_FALSE(first.empty());

    // Move to the next grid point where the foreground-specific identities stay the same: the
    // same topics keep the same names there (no renumbering by rank).
    const cx::TopicPath& path = controller->lastSweep()->path;
    const int at = path.nearest(controller->gamma());
    ASSERT_GE(at, 0);
    const auto changes = cx::foregroundSetChanges(path);
    int next = -1;
    for (int i = at + 1; i < static_cast<int>(path.gammas.size()) && next < 0; ++i) {
        if (std::find(changes.begin(), changes.end(), path.gammas[static_cast<size_t>(i)]) ==
            changes.end()) {
            next = i;
        }
    }
    ASSERT_GE(next, 0);
    const double target = path.gammas[static_cast<size_t>(next)];
    topics->analysisPanel()->gammaSpin()->setValue(target);
    ASSERT_TRUE(waitUntil(
        [&] {
            return controller->isIdle() && controller->solution().isValid() &&
                   std::abs(topics->tablePanel()->model()->solution().gamma - target) < 1e-12;
        },
        60000));
    const std::set<int> later = expectHeadersFollowThePath(topics);
    EXPECT_FALSE(later.empty());
    if (next == at + 1) {
        EXPECT_EQ(later, first) << "γ " << path.gammas[static_cast<size_t>(at)] << " → " << target;
    }
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(TopicIdentitiesView, WithoutIdentitiesHeadersFallBackToTheRank) {
    cx::ui::TopicWordsModel model;
    model.setIdentities({3}, {QColor(Qt::red)}); // no solution: ignored, no crash
    EXPECT_EQ(model.identityOf(0), -1);
    EXPECT_EQ(model.columnCount(), 0);
}
