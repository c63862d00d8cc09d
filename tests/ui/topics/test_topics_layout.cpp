// The Topics workspace's charts are readable on screen: at 1024 × 700 and at
// larger sizes the topic table, the AUC-vs-γ chart and the weights-vs-γ chart each get a plot
// tall enough to read, every legend entry of the weights chart can be reached, and markers on
// the first and last γ are drawn whole. The old layout squeezed the weights plot to ~70 px at
// 1440 × 900, showed 5 of 14 legend entries and clipped the rings at γ = 0 to half rings.
#include "gui_test_helpers.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/shell/main_window.h"
#include "ui/topics/chart_pair.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <cstdio>

namespace {

using cx::ui::AucChartView;
using cx::ui::ChartPair;
using cx::ui::MainWindow;
using cx::ui::StateWeightsChartView;
using cx::ui::TopicsWorkspace;
using cx::ui::test::waitUntil;

/// Readability thresholds (px): a plot this tall shows five labelled y ticks and lines that
/// can be told apart; a table this many rows shows a topic's leading words.
struct Readable {
    QSize window;
    int weightsPlot;
    int aucPlot;
    int tableRows;
};

/// Lets queued re-layouts (marker padding, legend placement) run.
void settle() {
    for (int i = 0; i < 5; ++i) {
        QApplication::processEvents();
        QTest::qWait(20);
    }
}

/// Every drawn point lies inside the plot, its marker whole. Both the points and the plot's
/// edges are mapped to integer view pixels (QGraphicsView::mapFromScene), each rounded on its
/// own, so a point exactly on an edge (a vertical marker line's end) may land 1 px outside.
template <typename Chart> void expectPointsInside(const Chart& chart, const char* what) {
    constexpr double kRounding = 1.0;
    const QRectF plot = chart.plotAreaInView();
    const auto points = chart.drawnPoints();
    ASSERT_FALSE(points.isEmpty()) << what;
    int outside = 0;
    for (const auto& [p, radius] : points) {
        const bool inside = p.x() - radius >= plot.left() - kRounding &&
                            p.x() + radius <= plot.right() + kRounding &&
                            p.y() - radius >= plot.top() - kRounding &&
                            p.y() + radius <= plot.bottom() + kRounding;
        if (!inside && outside++ < 5) {
            ADD_FAILURE() << what << ": point at (" << p.x() << ", " << p.y() << ") radius "
                          << radius << " outside the plot [" << plot.left() << ", " << plot.right()
                          << "] × [" << plot.top() << ", " << plot.bottom() << "]";
        }
    }
    EXPECT_EQ(outside, 0) << what;
}

/// Rows of the table fully visible.
int visibleTableRows(const QTableView* view) {
    const int viewport = view->viewport()->height();
    int rows = 0;
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const int top = view->rowViewportPosition(row);
        if (top >= 0 && top + view->rowHeight(row) <= viewport) {
            ++rows;
        }
    }
    return rows;
}

class TopicsLayout : public ::testing::Test {
protected:
    void SetUp() override {
        window.setSettingsPersistent(false);
        window.resize(1440, 900);
        window.show();
        ASSERT_TRUE(window.openDemo());
        topics = window.workspace<cx::ui::TopicsWorkspace>();
        ASSERT_TRUE(window.setCurrentWorkspace(topics->title()));
        ASSERT_TRUE(waitUntil(
            [&] {
                return topics->isSettled() && topics->controller()->solution().isValid() &&
                       topics->specificityPanel()->chart()->isComplete() &&
                       !topics->specificityPanel()->trajectoryChart()->lines().isEmpty();
            },
            90000));
    }

    void resizeTo(const QSize& size) {
        window.resize(size);
        settle();
        ASSERT_EQ(window.size(), size);
    }

    MainWindow window;
    TopicsWorkspace* topics = nullptr;
};

TEST_F(TopicsLayout, TableAndBothChartsAreReadableAtEverySize) {
    for (const Readable& r :
         {Readable{{1024, 700}, 120, 120, 4}, Readable{{1440, 900}, 200, 200, 8},
          Readable{{1900, 1150}, 300, 300, 12}}) {
        SCOPED_TRACE(
            QStringLiteral("%1×%2").arg(r.window.width()).arg(r.window.height()).toStdString());
        resizeTo(r.window);
        cx::ui::SpecificityPanel* panel = topics->specificityPanel();
        StateWeightsChartView* weights = panel->trajectoryChart();
        AucChartView* auc = panel->chart();
        // In tabs each chart is looked at in its own tab.
        panel->chartPair()->showChart(weights);
        settle();
        ASSERT_TRUE(weights->isVisible());
        // Optional visual check: CX_UI_SCREENSHOT_DIR=/tmp/shots saves the window per size.
        const QString shots = qEnvironmentVariable("CX_UI_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            window.grab().save(QStringLiteral("%1/topics-weights-%2x%3.png")
                                   .arg(shots)
                                   .arg(r.window.width())
                                   .arg(r.window.height()));
        }
        EXPECT_GE(weights->plotAreaInView().height(), r.weightsPlot);
        EXPECT_GE(weights->plotAreaInView().width(), 200);
        expectPointsInside(*weights, "weights");
        panel->chartPair()->showChart(auc);
        settle();
        ASSERT_TRUE(auc->isVisible());
        EXPECT_GE(auc->plotAreaInView().height(), r.aucPlot);
        EXPECT_GE(auc->plotAreaInView().width(), 250);
        expectPointsInside(*auc, "AUC");
        const QTableView* table = topics->tablePanel()->view();
        EXPECT_GE(visibleTableRows(table), r.tableRows);
        // The measured sizes, for the README.
        std::printf("%d×%d: table %d rows, AUC plot %.0f×%.0f px, weights plot %.0f×%.0f px, "
                    "charts %s\n",
                    r.window.width(), r.window.height(), visibleTableRows(table),
                    auc->plotAreaInView().width(), auc->plotAreaInView().height(),
                    weights->plotAreaInView().width(), weights->plotAreaInView().height(),
                    panel->chartPair()->arrangement() == ChartPair::Arrangement::Tabs ? "in tabs"
                    : panel->chartPair()->arrangement() == ChartPair::Arrangement::Stacked
                        ? "stacked"
                        : "side by side");
        // Larger windows put the charts side by side, each readable without switching tabs.
        if (r.window.width() >= 1440) {
            EXPECT_EQ(panel->chartPair()->arrangement(), ChartPair::Arrangement::SideBySide);
            EXPECT_TRUE(weights->isVisible());
        }
    }
}

TEST_F(TopicsLayout, EveryLegendEntryOfTheWeightsChartIsReachable) {
    for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
        SCOPED_TRACE(QStringLiteral("%1×%2").arg(size.width()).arg(size.height()).toStdString());
        resizeTo(size);
        StateWeightsChartView* weights = topics->specificityPanel()->trajectoryChart();
        topics->specificityPanel()->chartPair()->showChart(weights);
        settle();
        // What the legend must list: every named line, the flagged markers, the bounds, the
        // set-change markers (the demo has all of them).
        QStringList expected;
        for (const auto& line : weights->lines()) {
            if (line.inLegend) {
                expected << line.name;
            }
        }
        // A legend longer than a few entries (the demo names 7 trajectories; how many moves
        // with the decomposition's rounding, not with the legend's layout).
        ASSERT_GE(expected.size(), 6) << "the demo has many topics";
        EXPECT_GT(weights->flaggedPointCount(), 0);
        const QStringList labels = weights->legendLabels();
        for (const QString& name : expected) {
            EXPECT_TRUE(labels.contains(name)) << name.toStdString();
        }
        EXPECT_GE(labels.size(), expected.size() + 3); // flags, bounds, set changes
        QListWidget* legend = weights->legendList();
        ASSERT_TRUE(legend->isVisible());
        ASSERT_EQ(legend->count(), labels.size());
        // The list lies beside the plot, inside the view.
        const QRect legendRect = legend->geometry();
        EXPECT_TRUE(weights->rect().contains(legendRect));
        EXPECT_FALSE(QRectF(legendRect).intersects(weights->plotAreaInView()));
        EXPECT_GE(legendRect.width(), 110);
        // Every entry can be scrolled into view and shows its whole name in its tooltip.
        for (int i = 0; i < legend->count(); ++i) {
            QListWidgetItem* item = legend->item(i);
            legend->scrollToItem(item);
            QApplication::processEvents();
            const QRect itemRect = legend->visualItemRect(item);
            EXPECT_TRUE(legend->viewport()->rect().contains(itemRect))
                << item->text().toStdString();
            EXPECT_EQ(item->text(), labels[i]);
            EXPECT_TRUE(item->toolTip().contains(labels[i])) << labels[i].toStdString();
            EXPECT_FALSE(item->icon().isNull()) << labels[i].toStdString();
        }
    }
}

TEST_F(TopicsLayout, ClickingALegendEntryHidesItsLineOnScreenNotInTheFigure) {
    StateWeightsChartView* weights = topics->specificityPanel()->trajectoryChart();
    topics->specificityPanel()->chartPair()->showChart(weights);
    settle();
    const QString name = weights->lines().front().name;
    const int before = weights->drawnPoints().size();
    QListWidget* legend = weights->legendList();
    QListWidgetItem* item = legend->findItems(name, Qt::MatchExactly).value(0);
    ASSERT_NE(item, nullptr);
    legend->scrollToItem(item);
    QTest::mouseClick(legend->viewport(), Qt::LeftButton, {},
                      legend->visualItemRect(item).center());
    EXPECT_TRUE(weights->isEntryHidden(name));
    EXPECT_LT(weights->drawnPoints().size(), before);
    // The entry stays listed (greyed, unchecked) so that it can be shown again.
    item = legend->findItems(name, Qt::MatchExactly).value(0);
    ASSERT_NE(item, nullptr);
    EXPECT_EQ(item->checkState(), Qt::Unchecked);
    // Exported figures show every line whatever is hidden on screen.
    const cx::ui::ChartFigureLayout figure = weights->figureLayout(weights->figureSize());
    bool listed = false;
    for (const auto& entry : figure.entries) {
        listed = listed || entry.label == name;
    }
    EXPECT_TRUE(listed);
    legend->scrollToItem(item);
    QTest::mouseClick(legend->viewport(), Qt::LeftButton, {},
                      legend->visualItemRect(item).center());
    EXPECT_FALSE(weights->isEntryHidden(name));
    EXPECT_EQ(weights->drawnPoints().size(), before);
}

TEST_F(TopicsLayout, ClickingEitherChartStillSetsGamma) {
    for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
        SCOPED_TRACE(QStringLiteral("%1×%2").arg(size.width()).arg(size.height()).toStdString());
        resizeTo(size);
        cx::ui::SpecificityPanel* panel = topics->specificityPanel();
        for (QChartView* view : {static_cast<QChartView*>(panel->trajectoryChart()),
                                 static_cast<QChartView*>(panel->chart())}) {
            panel->chartPair()->showChart(view);
            settle();
            QChart* chart = view->chart();
            // A quarter into the γ range of the plot.
            const QRectF plot = chart->plotArea();
            const QPointF at(plot.left() + 0.25 * plot.width(), plot.center().y());
            const double expected = chart->mapToValue(at, chart->series().front()).x();
            const QPoint click = view->mapFromScene(chart->mapToScene(at));
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, click);
            ASSERT_TRUE(waitUntil([&] { return topics->isSettled(); }, 30000));
            EXPECT_NEAR(topics->controller()->gamma(), expected, 0.05);
        }
    }
}

TEST(ChartPair, ArrangesTheChartsByTheRoomItHas) {
    // The pair owns the charts (as the panel's charts are its children).
    auto* a = new QWidget;
    auto* b = new QWidget;
    a->setMinimumHeight(100);
    b->setMinimumHeight(100);
    ChartPair pair(a, QStringLiteral("A"), b, QStringLiteral("B"));
    QWidget& first = *a;
    QWidget& second = *b;
    pair.resize(700, 300);
    pair.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&pair));
    EXPECT_EQ(pair.arrangement(), ChartPair::Arrangement::Tabs);
    EXPECT_TRUE(pair.tabBar()->isVisibleTo(&pair));
    EXPECT_EQ(pair.tabBar()->count(), 2);
    pair.showChart(&second);
    EXPECT_EQ(pair.currentChart(), &second);
    EXPECT_TRUE(second.isVisible());
    EXPECT_FALSE(first.isVisible());
    EXPECT_EQ(second.height(), 300); // the whole area (the owner places the tab bar)

    pair.resize(700, 520);
    QApplication::processEvents();
    EXPECT_EQ(pair.arrangement(), ChartPair::Arrangement::Stacked);
    EXPECT_FALSE(pair.tabBar()->isVisibleTo(&pair));
    EXPECT_TRUE(first.isVisible());
    EXPECT_TRUE(second.isVisible());
    EXPECT_LT(first.geometry().bottom(), second.geometry().top());
    EXPECT_GE(first.height(), 200);
    EXPECT_GE(second.height(), 200);

    pair.resize(1100, 300);
    QApplication::processEvents();
    EXPECT_EQ(pair.arrangement(), ChartPair::Arrangement::SideBySide);
    EXPECT_TRUE(first.isVisible());
    EXPECT_TRUE(second.isVisible());
    EXPECT_LT(first.geometry().right(), second.geometry().left());
    EXPECT_GE(first.height(), 290);
    EXPECT_GE(second.width(), 450);

    // Back to tabs: the same widgets, both reachable.
    pair.resize(600, 250);
    QApplication::processEvents();
    EXPECT_EQ(pair.arrangement(), ChartPair::Arrangement::Tabs);
    EXPECT_EQ(pair.currentChart(), &second); // the tab chosen before
    EXPECT_TRUE(second.isVisible());
    pair.showChart(&first);
    EXPECT_TRUE(first.isVisible());
    EXPECT_FALSE(second.isVisible());
}

} // namespace
