// HeatmapView's interaction: hover, tooltips and renaming a row in place.

#include "ui/views/heatmap_view.h"

#include "ui/views/view_painting.h"
#include "ui/widgets/state_matrix_model.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLineEdit>
#include <QMouseEvent>
#include <QToolTip>

namespace cx::ui {

void HeatmapView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint hover = cellAt(event->position());
    const QPoint cell =
        hover.x() >= 0 && m_model && hover.x() < m_model->columnCount() ? hover : QPoint(-1, -1);
    if (cell != m_hover) {
        m_hover = cell;
        update();
    }
    if (m_editable && hover.x() == -1 && hover.y() >= 0) {
        setCursor(Qt::IBeamCursor);
    } else {
        unsetCursor();
    }
    QWidget::mouseMoveEvent(event);
}

void HeatmapView::leaveEvent(QEvent* event) {
    if (m_hover != QPoint(-1, -1)) {
        m_hover = {-1, -1};
        update();
    }
    QWidget::leaveEvent(event);
}

bool HeatmapView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && m_model) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QPoint at = cellAt(help->pos());
        QString text;
        if (at.y() >= 0 && at.x() >= 0 && at.x() < m_model->columnCount()) {
            text = m_model->data(m_model->index(at.y(), at.x()), Qt::ToolTipRole).toString();
        } else if (at.y() >= 0 && at.x() == m_model->columnCount()) {
            const double w =
                m_model->headerData(at.y(), Qt::Vertical, StateMatrixModel::WeightRole).toDouble();
            text = tr("<b>%1</b><br>weight ω = %2 (%3)")
                       .arg(m_model->headerData(at.y(), Qt::Vertical).toString().toHtmlEscaped(),
                            weightText(w),
                            w > 0 ? tr("foreground-specific")
                                  : tr("background-like: ω ≤ 0 at this γ"));
        } else if (at.y() >= 0) {
            text = QStringLiteral("<b>%1</b>")
                       .arg(m_model->headerData(at.y(), Qt::Vertical).toString().toHtmlEscaped());
            const QString note =
                m_model->headerData(at.y(), Qt::Vertical, Qt::ToolTipRole).toString();
            if (!note.isEmpty()) {
                text += QStringLiteral("<br>") + note.toHtmlEscaped();
            }
            if (m_editable) {
                text += tr("<br><i>Double-click to rename</i>");
            }
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void HeatmapView::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPoint at = cellAt(event->position());
    if (m_editable && at.y() >= 0 && at.x() == -1) {
        editRowLabel(at.y());
        event->accept();
        return;
    }
    QWidget::mouseDoubleClickEvent(event);
}

void HeatmapView::editRowLabel(int row) {
    if (!m_model || row < 0 || row >= m_model->rowCount()) {
        return;
    }
    if (!m_editor) {
        m_editor = new QLineEdit(this);
        m_editor->setObjectName(QStringLiteral("stateNameEditor"));
        m_editor->setFrame(true);
        connect(m_editor, &QLineEdit::editingFinished, this, &HeatmapView::commitEdit);
    }
    m_editingRow = row;
    const QRectF label = rowLabelRect(row).adjusted(kSwatch + 3, 0, 0, 0);
    m_editor->setFont(scaledFont(font(), 8.5));
    m_editor->setGeometry(label.toRect().adjusted(0, 1, 40, -1));
    m_editor->setText(m_model->headerData(row, Qt::Vertical).toString());
    m_editor->selectAll();
    m_editor->show();
    m_editor->setFocus();
    update();
}

void HeatmapView::commitEdit() {
    if (!m_editor || m_editingRow < 0) {
        return;
    }
    const int row = m_editingRow;
    m_editingRow = -1;
    m_editor->hide();
    if (m_model) {
        m_model->setHeaderData(row, Qt::Vertical, m_editor->text(), Qt::EditRole);
    }
    update();
}

} // namespace cx::ui
