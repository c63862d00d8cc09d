#pragma once

#include "ui/topics/topic_types.h"

#include <QWidget>

class QAction;
class QCheckBox;
class QLabel;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace cx::ui {

class TopicWordsModel;

/// The top-words table with its toolbar (top-word count, "all components" toggle, copy,
/// export) and a one-line summary of the shown decomposition.
class TopicTablePanel : public QWidget {
    Q_OBJECT
public:
    explicit TopicTablePanel(QWidget* parent = nullptr);

    void setSolution(const TopicSolution& solution);
    /// Bootstrap bands and stability of the shown solution's components
    /// (TopicWordsModel::setWeightBands).
    void setWeightBands(const std::vector<double>& low, const std::vector<double>& high,
                        const std::vector<double>& stability = {});
    /// The summary line's text (tests).
    QString summaryText() const;
    /// The message shown instead of the table ("" while the table is shown).
    QString placeholderText() const;
    /// Latency from the γ/K change to this table update (ms), shown in the summary.
    void setUpdateLatency(double milliseconds);
    void setPlaceholder(const QString& text);
    /// Shows a solve problem in the summary line until the next solution arrives.
    void setProblem(const QString& message);

    TopicWordsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QAction* showAllAction() const { return m_showAllAction; }
    QAction* copyAction() const { return m_copyAction; }
    QAction* exportTableAction() const { return m_exportTableAction; }
    QAction* exportKeysAction() const { return m_exportKeysAction; }

    void setShowAll(bool showAll);
    void setTopWordCount(int count);

    void copyToClipboard();
    void exportTable();
    void exportTopicKeys();

private:
    void updateSummary();
    void updatePlaceholder();
    /// Columns as wide as their headers (at least a readable word column); fills the width
    /// when they fit. `onlyWiden`: keep columns that are already wide enough.
    void updateColumnSizing(bool onlyWiden = false);

    TopicWordsModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_placeholder = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_summary = nullptr;
    QSpinBox* m_topWords = nullptr;
    QCheckBox* m_showAll = nullptr;
    QAction* m_showAllAction = nullptr;
    QAction* m_copyAction = nullptr;
    QAction* m_exportTableAction = nullptr;
    QAction* m_exportKeysAction = nullptr;
    QString m_placeholderText;
    double m_latencyMs = -1;
    QString m_problem;
};

} // namespace cx::ui
