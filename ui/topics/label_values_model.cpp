#include "ui/topics/label_values_model.h"

#include "ui/widgets/plural.h"

#include <QLocale>

namespace cx::ui {

void LabelValuesModel::setValues(std::vector<std::pair<std::string, std::int64_t>> values) {
    beginResetModel();
    m_values.clear();
    m_values.reserve(values.size());
    for (auto& [value, count] : values) {
        m_values.emplace_back(QString::fromStdString(value), count);
    }
    m_checked.clear();
    endResetModel();
}

void LabelValuesModel::setCheckedValues(const QStringList& values) {
    QSet<QString> wanted;
    for (const QString& value : values) {
        wanted.insert(value.trimmed().toLower());
    }
    QSet<QString> next;
    for (const auto& entry : m_values) {
        if (wanted.contains(entry.first.toLower())) {
            next.insert(entry.first);
        }
    }
    if (next == m_checked) {
        return;
    }
    m_checked = next;
    if (!m_values.empty()) {
        emit dataChanged(index(0, ValueColumn), index(rowCount() - 1, ValueColumn),
                         {Qt::CheckStateRole});
    }
    emit checkedChanged();
}

QStringList LabelValuesModel::checkedValues() const {
    QStringList out;
    for (const auto& entry : m_values) {
        if (m_checked.contains(entry.first)) {
            out << entry.first;
        }
    }
    return out;
}

QString LabelValuesModel::valueAt(int row) const {
    return row >= 0 && row < valueCount() ? m_values[static_cast<size_t>(row)].first : QString();
}

int LabelValuesModel::rowOf(const QString& value) const {
    for (int row = 0; row < valueCount(); ++row) {
        if (m_values[static_cast<size_t>(row)].first.compare(value, Qt::CaseInsensitive) == 0) {
            return row;
        }
    }
    return -1;
}

int LabelValuesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : valueCount();
}

int LabelValuesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LabelValuesModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= valueCount()) {
        return {};
    }
    const auto& [value, count] = m_values[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == ValueColumn ? QVariant(value)
                                             : QVariant(QLocale().toString(qint64(count)));
    case Qt::CheckStateRole:
        if (index.column() == ValueColumn) {
            return m_checked.contains(value) ? Qt::Checked : Qt::Unchecked;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == CountColumn) {
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    case Qt::ToolTipRole:
        return tr("%1: %2").arg(value, countOf(qint64(count), tr("document"), tr("documents")));
    case CountRole:
        return qint64(count);
    case ValueRole:
        return value;
    default:
        return {};
    }
}

bool LabelValuesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || role != Qt::CheckStateRole || index.column() != ValueColumn) {
        return false;
    }
    const QString& name = m_values[static_cast<size_t>(index.row())].first;
    const bool check = value.toInt() == Qt::Checked;
    if (check == m_checked.contains(name)) {
        return true;
    }
    if (check) {
        m_checked.insert(name);
    } else {
        m_checked.remove(name);
    }
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit checkedChanged();
    return true;
}

Qt::ItemFlags LabelValuesModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == ValueColumn) {
        flags |= Qt::ItemIsUserCheckable;
    }
    return flags;
}

QVariant LabelValuesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    return section == ValueColumn ? tr("Value") : tr("Documents");
}

} // namespace cx::ui
