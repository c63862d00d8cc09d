#pragma once

#include "ui/crowd/crowd_types.h"

#include <QTabWidget>

#include <map>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QTableWidget;

namespace cx::ui {

class HeatmapView;
class IterationChartView;
class StateMatrixModel;

/// The Crowd workspace's results, fed plain values: convergence charts (log-likelihood, and the
/// informative-set size with the largest CMI, per iteration — Zhao & Zucker 2015, Fig. 3), the CMI
/// matrix (workers × workers, informative ones first), per-worker reliability (accuracy with its 95
/// % interval; sortable, searchable), the confusion matrix against gold, the method comparison and
/// the items where the compared methods disagree.
class CrowdResultsPanel : public QTabWidget {
    Q_OBJECT
public:
    explicit CrowdResultsPanel(QWidget* parent = nullptr);
    ~CrowdResultsPanel() override;

    void clear();
    /// Empties the method comparison and the disagreements (the fit's views stay).
    void clearComparison();
    /// Shows one method's result on `data`.
    void showRun(const cx::CrowdLabels& data, const CrowdRun& run);
    /// Comparison: starts an empty table, adds rows as methods finish.
    void startComparison(const cx::CrowdLabels& data);
    void addComparisonRow(const cx::CrowdLabels& data, const CrowdRun& run);
    /// Lists the items on which the compared methods disagree (after the last row).
    void finishComparison(const cx::CrowdLabels& data, bool complete);

    void setWorkerFilter(const QString& text);
    QString workerFilter() const;
    /// The worker table's sort (column, descending); kept across runs. Default: accuracy,
    /// descending.
    void setWorkerSort(int column, bool descending);
    int workerSortColumn() const { return m_sortColumn; }
    bool workerSortDescending() const { return m_sortDescending; }
    QTableView* workerTable() const { return m_workerTable; }
    /// Fills the worker table (part of showRun).
    void showWorkers(const cx::CrowdLabels& data, const cx::CrowdResult& result);

signals:
    /// The worker search or sort changed (view state a session records).
    void workerViewChanged();

public:
    IterationChartView* likelihoodChart() const { return m_likelihoodChart; }
    IterationChartView* informativeChart() const { return m_informativeChart; }
    HeatmapView* cmiView() const { return m_cmiView; }
    HeatmapView* confusionView() const { return m_confusionView; }
    StateMatrixModel* cmiModel() const { return m_cmiModel; }
    QStandardItemModel* workerModel() const { return m_workerModel; }
    QSortFilterProxyModel* workerProxy() const { return m_workerProxy; }
    QTableWidget* comparisonTable() const { return m_comparison; }
    QTableWidget* disagreementTable() const { return m_disagreements; }
    /// The comparison's results so far, by method.
    const std::map<cx::CrowdMethod, std::shared_ptr<const cx::CrowdResult>>& compared() const {
        return m_compared;
    }

private:
    void showTrace(const cx::CrowdResult& result);
    void showCmi(const cx::CrowdLabels& data, const CrowdRun& run);
    void showConfusion(const cx::CrowdLabels& data, const cx::CrowdResult& result);

    IterationChartView* m_likelihoodChart = nullptr;
    IterationChartView* m_informativeChart = nullptr;
    HeatmapView* m_cmiView = nullptr;
    StateMatrixModel* m_cmiModel = nullptr;
    HeatmapView* m_confusionView = nullptr;
    StateMatrixModel* m_confusionModel = nullptr;
    QLineEdit* m_workerSearch = nullptr;
    QStandardItemModel* m_workerModel = nullptr;
    QSortFilterProxyModel* m_workerProxy = nullptr;
    QTableView* m_workerTable = nullptr;
    QTableWidget* m_comparison = nullptr;
    QLabel* m_comparisonNote = nullptr;
    QTableWidget* m_disagreements = nullptr;
    std::map<cx::CrowdMethod, std::shared_ptr<const cx::CrowdResult>> m_compared;
    int m_sortColumn = 3; ///< accuracy
    bool m_sortDescending = true;
};

} // namespace cx::ui
