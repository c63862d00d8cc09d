#pragma once

#include <QString>
#include <QWidget>

class QSplitter;
class QStackedLayout;
class QStackedWidget;
class QTabBar;

namespace cx::ui {

/// Two charts that share the space they are given: side by side when it is wide, one above
/// the other when it is tall, and one at a time behind a tab bar when it is neither (each chart
/// then gets the whole area rather than half of a too-small one). The arrangement follows the
/// area's size on every resize; the charts are the same widgets in every arrangement.
class ChartPair : public QWidget {
    Q_OBJECT
public:
    enum class Arrangement { SideBySide, Stacked, Tabs };

    /// Width (px) from which the charts go side by side: each gets about half of it.
    static constexpr int kSideBySideWidth = 920;
    /// Height (px) from which they are stacked: each gets about half of it.
    static constexpr int kStackedHeight = 420;

    ChartPair(QWidget* first, const QString& firstTitle, QWidget* second,
              const QString& secondTitle, QWidget* parent = nullptr);

    Arrangement arrangement() const { return m_arrangement; }
    /// The arrangement for an area of `size`.
    static Arrangement arrangementFor(const QSize& size);
    /// The tab bar that picks the chart shown in Arrangement::Tabs (hidden otherwise). Its
    /// owner lays it out, e.g. in its title row, where it costs no height of its own.
    QTabBar* tabBar() const { return m_tabBar; }
    /// Shows `chart` (one of the two): in tabs, selects its tab.
    void showChart(QWidget* chart);
    /// The chart shown in tabs (both are shown in the other arrangements).
    QWidget* currentChart() const;

signals:
    void arrangementChanged(ChartPair::Arrangement arrangement);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(Arrangement arrangement);

    QWidget* m_first;
    QWidget* m_second;
    QStackedLayout* m_pages = nullptr;
    QSplitter* m_splitter = nullptr;
    QStackedWidget* m_single = nullptr;
    QTabBar* m_tabBar = nullptr;
    Arrangement m_arrangement = Arrangement::Tabs;
};

} // namespace cx::ui
