#pragma once

// "How many states" of the Chromatin workspace: K = A…B fitted at γ = 0 on
// the open tracks by cx::chooseStateCount in the background, shown as a chart (held-out
// moment residual with its noise floor, log-likelihood per training bin against K) and a
// table (CompareModels against the largest K), with the suggested K — the numbers
// `contrast-cli hmm --k-range A:B` writes.

#include "ui/charts/iteration_chart_view.h"

#include "core/common/cancel.h"
#include "core/hmm/state_count.h"
#include "core/io/chromhmm_reader.h"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace cx::ui {

/// The chart's lines of a result: held-out residual per K and the rule's threshold (smallest
/// residual + noise) on the left axis, log-likelihood per training bin on the right.
QList<IterationChartView::Line> stateCountLines(const cx::StateCountResult& result);

class StateCountDialog : public QDialog {
    Q_OBJECT
public:
    /// `base` carries the solve, moment and refinement settings (the workspace's γ = 0 model);
    /// its range is the dialog's first one.
    StateCountDialog(std::shared_ptr<const cx::ChromatinData> data,
                     const cx::StateCountOptions& base, QWidget* parent = nullptr);
    ~StateCountDialog() override;

    void setRange(int from, int to);
    /// Fits the range in the background (a running fit is cancelled first).
    void start();
    bool isRunning() const { return m_watcher.isRunning(); }
    const std::optional<cx::StateCountResult>& result() const { return m_result; }
    IterationChartView* chart() const { return m_chart; }
    QTableWidget* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }

signals:
    /// A fit finished (result() set) or failed (summary() says why).
    void fitFinished();

private:
    void showResult(const cx::StateCountResult& result);

    std::shared_ptr<const cx::ChromatinData> m_data;
    cx::StateCountOptions m_base;
    cx::CancelToken m_cancel;
    QFutureWatcher<cx::StateCountResult> m_watcher;
    std::optional<cx::StateCountResult> m_result;
    QSpinBox* m_from = nullptr;
    QSpinBox* m_to = nullptr;
    QPushButton* m_fit = nullptr;
    IterationChartView* m_chart = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace cx::ui
