#pragma once

// File ▸ Open Aligned Reads… of the Chromatin and Tree workspaces: read files
// (BAM, SAM, CRAM, BED reads or peaks) → a table assigning cell and mark to each (guessed from
// the names, editable) and its control, the chromosome sizes, the folder for the binarized files
// and ChromHMM's binarization options with their defaults — what `contrast-cli binarize` takes.

#include "ui/framework/reads_binarization.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace cx::ui {

class AlignedReadsDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { FileColumn, RoleColumn, CellColumn, MarkColumn, ControlColumn, ColumnCount };

    explicit AlignedReadsDialog(QWidget* parent = nullptr);

    /// Adds read files (a folder: every read file in it), guessing cell, mark and role (a mark
    /// named input/control/WCE is a control, used by the cell's other files). Files already
    /// listed are skipped.
    void addPaths(const QStringList& paths);
    void setChromSizes(const QString& path);
    void setOutDir(const QString& path);
    /// Starts from a previous request (a session's reads).
    void setRequest(const ReadsBinarization& reads);
    /// The table and options as a request (mark rows only; controls by path).
    ReadsBinarization request() const;
    /// Why the request cannot run yet (empty: it can).
    QString problem() const;
    QTableWidget* table() const { return m_table; }

    /// The read files of a folder (by extension), sorted by name.
    static QStringList readFilesIn(const QString& folder);

private:
    void addRow(const QString& path);
    void refreshControls();
    void validate();
    QString defaultOutDir() const;

    QTableWidget* m_table = nullptr;
    QLineEdit* m_chromSizes = nullptr;
    QLineEdit* m_outDir = nullptr;
    QComboBox* m_format = nullptr;
    QSpinBox* m_binSize = nullptr;
    QSpinBox* m_shift = nullptr;
    QLineEdit* m_poisson = nullptr;
    QDoubleSpinBox* m_fold = nullptr;
    QDoubleSpinBox* m_signal = nullptr;
    QSpinBox* m_flank = nullptr;
    QSpinBox* m_pseudocount = nullptr;
    QCheckBox* m_strict = nullptr;
    QCheckBox* m_paired = nullptr;
    QCheckBox* m_center = nullptr;
    QCheckBox* m_gzip = nullptr;
    QLabel* m_problem = nullptr;
    QPushButton* m_ok = nullptr;
    bool m_outDirEdited = false;
};

} // namespace cx::ui
