#pragma once

#include <QAbstractTableModel>
#include <QSet>
#include <QStringList>

#include <cstdint>
#include <utility>
#include <vector>

namespace cx::ui {

/// The values of one label field with their document counts, checkable, for the selection
/// pickers. Column 0: value (checkable); column 1: documents carrying it.
class LabelValuesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles { CountRole = Qt::UserRole + 1, ValueRole };
    enum Columns { ValueColumn = 0, CountColumn = 1, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    /// Replaces the values (most frequent first, as cx::topValues returns them); clears checks.
    void setValues(std::vector<std::pair<std::string, std::int64_t>> values);
    /// Checks exactly `values` (case-insensitive); unknown values are ignored.
    void setCheckedValues(const QStringList& values);
    /// Checked values in model order (most frequent first).
    QStringList checkedValues() const;
    /// Checked values that are not in the model (e.g. typed in a rule) are reported here.
    int valueCount() const { return static_cast<int>(m_values.size()); }
    QString valueAt(int row) const;
    int rowOf(const QString& value) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    /// The user (or setCheckedValues) changed which values are checked.
    void checkedChanged();

private:
    std::vector<std::pair<QString, std::int64_t>> m_values;
    QSet<QString> m_checked;
};

} // namespace cx::ui
