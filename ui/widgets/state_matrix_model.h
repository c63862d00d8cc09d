#pragma once

#include <Eigen/Dense>

#include <QAbstractTableModel>
#include <QColor>
#include <QStringList>
#include <QVector>

namespace cx::ui {

/// A matrix with one row per chromatin state: emissions (states × marks), transitions
/// (states × states) or overlap enrichment (states × annotations). HeatmapView paints it;
/// the table exports come from it. Row labels (state names) live in the vertical header and are
/// editable through setHeaderData (rowRenamed tells the owner).
class StateMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles {
        ValueRole = Qt::UserRole + 1, ///< double (NaN: no value)
        ColourRole,                   ///< vertical header: the state's colour
        WeightRole,                   ///< vertical header: signed weight (NaN: none)
        DimmedRole,                   ///< vertical header: a background-like state
        FlaggedRole,                  ///< vertical header: not a valid state (bool)
        SlotRole,                     ///< vertical header: the state's display slot (int)
    };

    struct Content {
        Eigen::MatrixXd values; ///< rows × columns
        QStringList rowLabels;
        QStringList columnLabels;
        QVector<QColor> rowColours;
        QVector<double> rowWeights; ///< empty: no weight column
        QVector<bool> rowDimmed;
        QVector<bool> rowFlagged; ///< failed a validity test (warning mark on its weight)
        QVector<int> rowSlots;    ///< display slot of each row (for renaming)
        QStringList rowNotes;     ///< tooltip line per row (may be empty)
        int decimals = 2;         ///< cell text
        QString valueName;        ///< "P(present)", "fold enrichment", … (tooltips, export)
        QString rowHeader = QStringLiteral("state");
    };

    explicit StateMatrixModel(QObject* parent = nullptr);

    void setContent(Content content);
    const Content& content() const { return m_content; }
    void clear();
    /// The value behind cell (row, column), NaN when out of range.
    double value(int row, int column) const;
    bool hasWeights() const { return !m_content.rowWeights.isEmpty(); }

    /// Rows as delimited text with the state name (and weight) first, full precision.
    QString delimited(QChar separator) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    bool setHeaderData(int section, Qt::Orientation orientation, const QVariant& value,
                       int role = Qt::EditRole) override;

signals:
    /// The user typed a new name for `row` (display slot `slot`); empty restores the default.
    void rowRenamed(int row, int slot, const QString& name);

private:
    Content m_content;
};

} // namespace cx::ui
