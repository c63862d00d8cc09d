// PanelRow: side by side while each panel has its comfortable width, one tab each below that,
// and back; the row's minimum is its widest panel, not the sum (so a narrow window still fits).
#include "ui/views/panel_row.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QSplitter>
#include <QTabWidget>

using cx::ui::PanelRow;

namespace {

QWidget* panel(int minimumWidth) {
    auto* widget = new QWidget;
    widget->setMinimumSize(minimumWidth, 120);
    return widget;
}

void resizeTo(PanelRow& row, int width) {
    row.resize(width, 300);
    QCoreApplication::processEvents();
}

} // namespace

TEST(PanelRow, TabsBelowTheComfortableWidthAndSplitsAgainAbove) {
    PanelRow row;
    QWidget* first = panel(150);
    QWidget* second = panel(220);
    QWidget* third = panel(100);
    row.addPanel(first, QStringLiteral("First"), 300);
    row.addPanel(second, QStringLiteral("Second"), 300, 2);
    row.addPanel(third, QStringLiteral("Third"), 200);
    row.show();
    EXPECT_EQ(row.sideBySideWidth(), 800 + 2 * row.splitter()->handleWidth());
    // The minimum is the widest panel (plus the tab bar's height), not the sum.
    EXPECT_EQ(row.minimumSizeHint().width(), 220);
    EXPECT_GT(row.minimumSizeHint().height(), 120);

    resizeTo(row, 1200);
    EXPECT_FALSE(row.isTabbed());
    EXPECT_EQ(row.splitter()->count(), 3);
    EXPECT_EQ(row.tabs()->count(), 0);
    row.splitter()->setSizes({500, 400, 300});
    const QList<int> sizes = row.splitter()->sizes();

    resizeTo(row, 600);
    ASSERT_TRUE(row.isTabbed());
    ASSERT_EQ(row.tabs()->count(), 3);
    EXPECT_EQ(row.tabs()->tabText(1), QStringLiteral("Second"));
    EXPECT_EQ(row.tabs()->widget(2), third);
    EXPECT_EQ(row.splitter()->count(), 0);
    row.tabs()->setCurrentIndex(1);
    QCoreApplication::processEvents();
    EXPECT_TRUE(second->isVisible());
    EXPECT_FALSE(first->isVisible());
    EXPECT_GE(second->width(), 550); // the whole row, less the tab frame

    // Just above the side-by-side width it stays tabbed (room to spare for a scroll bar).
    resizeTo(row, row.sideBySideWidth() + 5);
    EXPECT_TRUE(row.isTabbed());
    // Back to side by side: every panel shown again, in order, with the sizes it had.
    resizeTo(row, 1200);
    EXPECT_FALSE(row.isTabbed());
    ASSERT_EQ(row.splitter()->count(), 3);
    EXPECT_EQ(row.splitter()->widget(0), first);
    EXPECT_EQ(row.splitter()->widget(2), third);
    EXPECT_EQ(row.tabs()->count(), 0);
    for (QWidget* widget : {first, second, third}) {
        EXPECT_TRUE(widget->isVisible());
    }
    EXPECT_EQ(row.splitter()->sizes(), sizes);
}

TEST(PanelRow, PanelAddedWhileTabbedBecomesATabAndAnEmptyRowDoesNothing) {
    PanelRow empty;
    empty.show();
    resizeTo(empty, 100); // nothing to arrange
    EXPECT_FALSE(empty.isTabbed());
    EXPECT_EQ(empty.minimumSizeHint().width(), 0);

    PanelRow row;
    row.addPanel(panel(100), QStringLiteral("A"), 500);
    row.show();
    resizeTo(row, 300);
    ASSERT_TRUE(row.isTabbed());
    row.addPanel(panel(100), QStringLiteral("B"), 500);
    EXPECT_EQ(row.tabs()->count(), 2);
    resizeTo(row, 1100);
    EXPECT_FALSE(row.isTabbed());
    EXPECT_EQ(row.splitter()->count(), 2);
}
