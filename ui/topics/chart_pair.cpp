#include "ui/topics/chart_pair.h"

#include <QResizeEvent>
#include <QSplitter>
#include <QStackedLayout>
#include <QStackedWidget>
#include <QTabBar>

namespace cx::ui {

ChartPair::ChartPair(QWidget* first, const QString& firstTitle, QWidget* second,
                     const QString& secondTitle, QWidget* parent)
    : QWidget(parent), m_first(first), m_second(second) {
    setObjectName(QStringLiteral("chartPair"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    m_pages = new QStackedLayout(this);
    m_pages->setContentsMargins(0, 0, 0, 0);
    m_splitter = new QSplitter(this);
    m_splitter->setObjectName(QStringLiteral("chartPairSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setHandleWidth(7);
    m_single = new QStackedWidget(this);
    m_pages->addWidget(m_splitter);
    m_pages->addWidget(m_single);
    m_tabBar = new QTabBar(this);
    m_tabBar->setObjectName(QStringLiteral("chartPairTabs"));
    m_tabBar->setDocumentMode(true);
    m_tabBar->setDrawBase(false);
    m_tabBar->setExpanding(false);
    m_tabBar->addTab(firstTitle);
    m_tabBar->addTab(secondTitle);
    connect(m_tabBar, &QTabBar::currentChanged, this, [this](int index) {
        if (m_arrangement == Arrangement::Tabs) {
            m_single->setCurrentWidget(index == 1 ? m_second : m_first);
        }
    });
    arrange(Arrangement::Tabs);
}

ChartPair::Arrangement ChartPair::arrangementFor(const QSize& size) {
    if (size.width() >= kSideBySideWidth) {
        return Arrangement::SideBySide;
    }
    return size.height() >= kStackedHeight ? Arrangement::Stacked : Arrangement::Tabs;
}

void ChartPair::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const Arrangement wanted = arrangementFor(event->size());
    if (wanted != m_arrangement) {
        arrange(wanted);
    }
}

void ChartPair::showChart(QWidget* chart) {
    if (chart == m_first || chart == m_second) {
        m_tabBar->setCurrentIndex(chart == m_second ? 1 : 0);
    }
}

QWidget* ChartPair::currentChart() const {
    return m_tabBar->currentIndex() == 1 ? m_second : m_first;
}

void ChartPair::arrange(Arrangement arrangement) {
    m_arrangement = arrangement;
    if (arrangement == Arrangement::Tabs) {
        m_single->addWidget(m_first);
        m_single->addWidget(m_second);
        m_single->setCurrentWidget(currentChart());
        m_pages->setCurrentWidget(m_single);
    } else {
        m_single->removeWidget(m_first);
        m_single->removeWidget(m_second);
        const bool side = arrangement == Arrangement::SideBySide;
        m_splitter->setOrientation(side ? Qt::Horizontal : Qt::Vertical);
        m_splitter->addWidget(m_first);
        m_splitter->addWidget(m_second);
        m_first->show();
        m_second->show();
        // Side by side the weights (with their legend) get a little more; stacked, both alike.
        m_splitter->setStretchFactor(0, side ? 4 : 1);
        m_splitter->setStretchFactor(1, side ? 5 : 1);
        const int extent = side ? width() : height();
        m_splitter->setSizes(side ? QList<int>{extent * 4 / 9, extent * 5 / 9}
                                  : QList<int>{extent / 2, extent / 2});
        m_pages->setCurrentWidget(m_splitter);
    }
    m_tabBar->setVisible(arrangement == Arrangement::Tabs);
    emit arrangementChanged(arrangement);
}

} // namespace cx::ui
