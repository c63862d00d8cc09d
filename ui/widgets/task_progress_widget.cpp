#include "ui/widgets/task_progress_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace cx::ui {

TaskProgressWidget::TaskProgressWidget(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    m_label = new QLabel(this);
    m_bar = new QProgressBar(this);
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(false);
    m_bar->setFixedWidth(160);
    m_bar->setMaximumHeight(14);
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop this task; what is already loaded stays (Esc)"));
    m_cancel->setAutoRaise(true);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &TaskProgressWidget::cancelRequested);
    m_showDelay = new QTimer(this);
    m_showDelay->setSingleShot(true);
    m_showDelay->setInterval(150);
    connect(m_showDelay, &QTimer::timeout, this, [this] {
        if (m_running) {
            show();
        }
    });
    hide();
}

void TaskProgressWidget::start(const QString& description, bool cancellable) {
    m_running = true;
    m_description = description;
    m_phase.clear();
    m_bar->setRange(0, 0); // busy until the first progress report
    m_cancel->setVisible(cancellable);
    m_cancel->setEnabled(true);
    m_elapsed.start();
    updateText();
    if (!isVisible()) {
        m_showDelay->start();
    }
}

void TaskProgressWidget::setProgress(double fraction, const QString& phase) {
    if (!m_running) {
        return;
    }
    if (fraction < 0) {
        m_bar->setRange(0, 0);
    } else {
        m_bar->setRange(0, 1000);
        m_bar->setValue(static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 1000));
    }
    m_phase = phase;
    updateText();
}

void TaskProgressWidget::finish() {
    m_running = false;
    m_showDelay->stop();
    hide();
}

void TaskProgressWidget::updateText() {
    QString text = m_description;
    if (!m_phase.isEmpty()) {
        text += QStringLiteral(" — ") + m_phase;
    }
    m_label->setText(text + QStringLiteral("…"));
}

} // namespace cx::ui
