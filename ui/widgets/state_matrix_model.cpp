#include "ui/widgets/state_matrix_model.h"

#include "ui/widgets/export_helpers.h"

#include <cmath>
#include <limits>

namespace cx::ui {

StateMatrixModel::StateMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void StateMatrixModel::setContent(Content content) {
    beginResetModel();
    m_content = std::move(content);
    endResetModel();
}

void StateMatrixModel::clear() {
    setContent({});
}

double StateMatrixModel::value(int row, int column) const {
    if (row < 0 || column < 0 || row >= m_content.values.rows() ||
        column >= m_content.values.cols()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return m_content.values(row, column);
}

int StateMatrixModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_content.values.rows());
}

int StateMatrixModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_content.values.cols());
}

QVariant StateMatrixModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const double v = value(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
        return std::isfinite(v) ? QString::number(v, 'f', m_content.decimals) : QString();
    case ValueRole:
        return v;
    case Qt::ToolTipRole: {
        const QString row = m_content.rowLabels.value(index.row());
        const QString column = m_content.columnLabels.value(index.column());
        QString text =
            QStringLiteral("<b>%1</b> · %2<br>%3: <b>%4</b>")
                .arg(row.toHtmlEscaped(), column.toHtmlEscaped(),
                     m_content.valueName.toHtmlEscaped(),
                     std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("—"));
        const QString note = m_content.rowNotes.value(index.row());
        if (!note.isEmpty()) {
            text += QStringLiteral("<br><span style='color:#5d6772'>%1</span>")
                        .arg(note.toHtmlEscaped());
        }
        return text;
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignCenter);
    default:
        return {};
    }
}

QVariant StateMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal) {
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
            return m_content.columnLabels.value(section);
        }
        return {};
    }
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return m_content.rowLabels.value(section);
    case Qt::ToolTipRole:
        return m_content.rowNotes.value(section);
    case ColourRole:
        return section < m_content.rowColours.size() ? m_content.rowColours[section] : QColor();
    case WeightRole:
        return section < m_content.rowWeights.size() ? m_content.rowWeights[section]
                                                     : std::numeric_limits<double>::quiet_NaN();
    case DimmedRole:
        return section < m_content.rowDimmed.size() && m_content.rowDimmed[section];
    case FlaggedRole:
        return section < m_content.rowFlagged.size() && m_content.rowFlagged[section];
    case SlotRole:
        return section < m_content.rowSlots.size() ? m_content.rowSlots[section] : section;
    default:
        return {};
    }
}

bool StateMatrixModel::setHeaderData(int section, Qt::Orientation orientation,
                                     const QVariant& value, int role) {
    if (orientation != Qt::Vertical || role != Qt::EditRole || section < 0 ||
        section >= rowCount()) {
        return false;
    }
    const int slot = headerData(section, Qt::Vertical, SlotRole).toInt();
    // The owner renames the state and re-sets the content (every view of the state updates).
    emit rowRenamed(section, slot, value.toString().trimmed());
    return true;
}

QString StateMatrixModel::delimited(QChar separator) const {
    QString out = delimitedField(m_content.rowHeader, separator);
    if (hasWeights()) {
        out += separator + QStringLiteral("weight");
    }
    for (const QString& column : m_content.columnLabels) {
        out += separator + delimitedField(column, separator);
    }
    out += QLatin1Char('\n');
    for (int row = 0; row < rowCount(); ++row) {
        out += delimitedField(m_content.rowLabels.value(row), separator);
        if (hasWeights()) {
            out += separator + QString::number(m_content.rowWeights.value(row), 'g', 8);
        }
        for (int column = 0; column < columnCount(); ++column) {
            const double v = value(row, column);
            out += separator + (std::isfinite(v) ? QString::number(v, 'g', 8) : QString());
        }
        out += QLatin1Char('\n');
    }
    return out;
}

} // namespace cx::ui
