#pragma once

#include "ui/chromatin/chromatin_types.h"

#include <QAbstractTableModel>
#include <QVector>

namespace cx::ui {

/// The Chromatin workspace's annotation list: one row per BED file, with check boxes for what
/// it is used for — Foreground / Background (combinable: the union of the checked files;
/// one file is never both), drawn as a Lane under the tracks, and a column of the Enrichment
/// table. Rows of files still being read show "reading…".
class AnnotationListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ForegroundColumn,
        BackgroundColumn,
        LaneColumn,
        EnrichmentColumn,
        ColumnCount
    };
    enum Roles { PathRole = Qt::UserRole + 1 };

    struct Entry {
        QString path;
        QString name;
        qint64 intervals = -1; ///< −1 while the file is being read
        bool foreground = false;
        bool background = false;
        bool lane = false;
        bool enrichment = true;
    };

    explicit AnnotationListModel(QObject* parent = nullptr);

    /// Adds a row (reading…) unless the path is listed already. Returns its row.
    int addEntry(const Entry& entry);
    /// The file was read: shows its name and interval count.
    void setLoaded(const AnnotationSource& source);
    void removePath(const QString& path);
    int rowOf(const QString& path) const;
    const QVector<Entry>& entries() const { return m_entries; }
    void setChecked(const QString& path, Column column, bool checked);

    /// Foreground/background paths in list order.
    RegionChoice regionChoice() const;
    QStringList lanePaths() const;
    QStringList enrichmentPaths() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

signals:
    /// The foreground/background choice changed (by a check box).
    void regionsEdited();
    /// The lane or enrichment choice changed.
    void displayEdited();

private:
    QVector<Entry> m_entries;
};

} // namespace cx::ui
