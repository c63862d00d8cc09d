#include "ui/views/panel_row.h"

#include <QResizeEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedLayout>
#include <QTabBar>
#include <QTabWidget>

#include <algorithm>

namespace cx::ui {

PanelRow::PanelRow(QWidget* parent) : QWidget(parent) {
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setChildrenCollapsible(false);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_stack = new QStackedLayout(this);
    // The row decides its own minimum (minimumSizeHint): the splitter's, the sum of its
    // panels', must not become the row's.
    m_stack->setSizeConstraint(QLayout::SetNoConstraint);
    m_stack->addWidget(m_splitter);
    m_stack->addWidget(m_tabs);
}

void PanelRow::addPanel(QWidget* panel, const QString& title, int comfortableWidth, int stretch) {
    m_panels.append({panel, title, comfortableWidth, stretch});
    if (m_tabbed) {
        m_tabs->addTab(panel, title);
    } else {
        m_splitter->addWidget(panel);
        m_splitter->setStretchFactor(m_splitter->count() - 1, stretch);
    }
    updateGeometry();
}

int PanelRow::sideBySideWidth() const {
    int width = 0;
    for (const Panel& panel : m_panels) {
        width += std::max(panel.comfortableWidth, panel.widget->minimumSizeHint().width());
    }
    return width + std::max(0, static_cast<int>(m_panels.size()) - 1) * m_splitter->handleWidth();
}

QSize PanelRow::minimumSizeHint() const {
    QSize widest(0, 0);
    for (const Panel& panel : m_panels) {
        const QSize least = panel.widget->minimumSizeHint().expandedTo(panel.widget->minimumSize());
        widest = widest.expandedTo(least);
    }
    return {widest.width(), widest.height() + m_tabs->tabBar()->sizeHint().height()};
}

QSize PanelRow::sizeHint() const {
    return m_tabbed ? m_tabs->sizeHint() : m_splitter->sizeHint();
}

void PanelRow::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Back to side by side only with some room to spare: a vertical scroll bar appearing or
    // going with the change must not flip the arrangement back and forth.
    constexpr int kHysteresis = 24;
    arrange(event->size().width() < sideBySideWidth() + (m_tabbed ? kHysteresis : 0));
}

void PanelRow::arrange(bool tabbed) {
    if (tabbed == m_tabbed || m_panels.isEmpty()) {
        return;
    }
    m_tabbed = tabbed;
    if (tabbed) {
        m_splitterState = m_splitter->saveState();
        for (const Panel& panel : m_panels) {
            m_tabs->addTab(panel.widget, panel.title); // takes it out of the splitter
        }
        m_stack->setCurrentWidget(m_tabs);
    } else {
        for (int i = 0; i < m_panels.size(); ++i) {
            m_splitter->addWidget(m_panels[i].widget);
            m_splitter->setStretchFactor(i, m_panels[i].stretch);
            m_panels[i].widget->show();
        }
        m_tabs->clear();
        m_splitter->restoreState(m_splitterState);
        m_stack->setCurrentWidget(m_splitter);
    }
}

QScrollArea* verticalScrollArea(QWidget* content, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setObjectName(QStringLiteral("resultsScroll"));
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setWidgetResizable(true);
    area->setWidget(content);
    return area;
}

} // namespace cx::ui
