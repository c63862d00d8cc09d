#include "ui/chromatin/annotation_list_model.h"

#include <QColor>
#include <QFileInfo>
#include <QLocale>

namespace cx::ui {

AnnotationListModel::AnnotationListModel(QObject* parent) : QAbstractTableModel(parent) {}

int AnnotationListModel::rowOf(const QString& path) const {
    for (int i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].path == path) {
            return i;
        }
    }
    return -1;
}

int AnnotationListModel::addEntry(const Entry& entry) {
    const int existing = rowOf(entry.path);
    if (existing >= 0) {
        return existing;
    }
    const int row = static_cast<int>(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries.push_back(entry);
    if (m_entries.back().name.isEmpty()) {
        m_entries.back().name = QFileInfo(entry.path).fileName();
    }
    endInsertRows();
    return row;
}

void AnnotationListModel::setLoaded(const AnnotationSource& source) {
    const int row = rowOf(source.path);
    if (row < 0) {
        return;
    }
    m_entries[row].name = source.name;
    m_entries[row].intervals = source.regions ? source.regions->numIntervals : 0;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void AnnotationListModel::removePath(const QString& path) {
    const int row = rowOf(path);
    if (row < 0) {
        return;
    }
    const Entry removed = m_entries[row];
    beginRemoveRows({}, row, row);
    m_entries.removeAt(row);
    endRemoveRows();
    if (removed.foreground || removed.background) {
        emit regionsEdited();
    }
    if (removed.lane || removed.enrichment) {
        emit displayEdited();
    }
}

void AnnotationListModel::setChecked(const QString& path, Column column, bool checked) {
    const int row = rowOf(path);
    if (row >= 0) {
        setData(index(row, column), checked ? Qt::Checked : Qt::Unchecked, Qt::CheckStateRole);
    }
}

RegionChoice AnnotationListModel::regionChoice() const {
    RegionChoice choice;
    for (const Entry& entry : m_entries) {
        if (entry.foreground) {
            choice.foreground << entry.path;
        }
        if (entry.background) {
            choice.background << entry.path;
        }
    }
    return choice;
}

QStringList AnnotationListModel::lanePaths() const {
    QStringList out;
    for (const Entry& entry : m_entries) {
        if (entry.lane) {
            out << entry.path;
        }
    }
    return out;
}

QStringList AnnotationListModel::enrichmentPaths() const {
    QStringList out;
    for (const Entry& entry : m_entries) {
        if (entry.enrichment) {
            out << entry.path;
        }
    }
    return out;
}

int AnnotationListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int AnnotationListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AnnotationListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_entries.size()) {
        return {};
    }
    const Entry& entry = m_entries[index.row()];
    if (role == PathRole) {
        return entry.path;
    }
    if (index.column() == NameColumn) {
        switch (role) {
        case Qt::DisplayRole:
            return entry.intervals < 0 ? tr("%1 (reading…)").arg(entry.name) : entry.name;
        case Qt::ToolTipRole:
            return entry.intervals < 0 ? entry.path
                                       : tr("%1\n%2 intervals")
                                             .arg(entry.path, QLocale().toString(entry.intervals));
        case Qt::ForegroundRole:
            return entry.intervals < 0 ? QVariant(QColor(0x8a, 0x92, 0x9a)) : QVariant();
        default:
            return {};
        }
    }
    if (role == Qt::CheckStateRole) {
        bool checked = false;
        switch (index.column()) {
        case ForegroundColumn:
            checked = entry.foreground;
            break;
        case BackgroundColumn:
            checked = entry.background;
            break;
        case LaneColumn:
            checked = entry.lane;
            break;
        case EnrichmentColumn:
            checked = entry.enrichment;
            break;
        default:
            break;
        }
        return checked ? Qt::Checked : Qt::Unchecked;
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case ForegroundColumn:
            return tr("Bins overlapping %1 belong to the foreground (with other checked files: "
                      "their union)")
                .arg(entry.name);
        case BackgroundColumn:
            return tr("Bins overlapping %1 belong to the background (unchecked everywhere: the "
                      "background is every bin not in the foreground)")
                .arg(entry.name);
        case LaneColumn:
            return tr("Draw %1 as a lane under the segmentation").arg(entry.name);
        case EnrichmentColumn:
            return tr("Fold enrichment of every state in %1 (an anchor file: around its "
                      "positions, in a neighbourhood heatmap)")
                .arg(entry.name);
        default:
            return {};
        }
    }
    return {};
}

bool AnnotationListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || role != Qt::CheckStateRole || index.column() == NameColumn) {
        return false;
    }
    Entry& entry = m_entries[index.row()];
    const bool checked = value.toInt() == Qt::Checked;
    bool regions = false;
    switch (index.column()) {
    case ForegroundColumn:
        if (entry.foreground == checked) {
            return true;
        }
        entry.foreground = checked;
        // A file is never both: foreground and background would then overlap entirely.
        entry.background = checked ? false : entry.background;
        regions = true;
        break;
    case BackgroundColumn:
        if (entry.background == checked) {
            return true;
        }
        entry.background = checked;
        entry.foreground = checked ? false : entry.foreground;
        regions = true;
        break;
    case LaneColumn:
        if (entry.lane == checked) {
            return true;
        }
        entry.lane = checked;
        break;
    case EnrichmentColumn:
        if (entry.enrichment == checked) {
            return true;
        }
        entry.enrichment = checked;
        break;
    default:
        return false;
    }
    emit dataChanged(this->index(index.row(), ForegroundColumn),
                     this->index(index.row(), EnrichmentColumn));
    if (regions) {
        emit regionsEdited();
    } else {
        emit displayEdited();
    }
    return true;
}

QVariant AnnotationListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return tr("Annotation");
        case ForegroundColumn:
            return tr("Fg");
        case BackgroundColumn:
            return tr("Bg");
        case LaneColumn:
            return tr("Lane");
        case EnrichmentColumn:
            return tr("Enr.");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ForegroundColumn:
            return tr("Foreground: bins overlapping the checked files (their union). None "
                      "checked: the whole genome");
        case BackgroundColumn:
            return tr("Background: bins overlapping the checked files. None checked: every bin "
                      "not in the foreground");
        case LaneColumn:
            return tr("Shown as a lane under the segmentation");
        case EnrichmentColumn:
            return tr("A column of the overlap enrichment table; an anchor file (chrom pos "
                      "strand) gets a neighbourhood heatmap");
        default:
            return {};
        }
    }
    return {};
}

Qt::ItemFlags AnnotationListModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() != NameColumn) {
        flags |= Qt::ItemIsUserCheckable;
    }
    return flags;
}

} // namespace cx::ui
