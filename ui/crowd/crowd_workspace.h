#pragma once

#include "ui/crowd/crowd_types.h"
#include "ui/framework/workspace.h"

#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace cx::ui {

class CrowdController;
class CrowdResultsPanel;

/// The Crowd workspace: aggregates crowdsourced labels (issue 11) with majority vote,
/// Dawid–Skene EM (random restarts, majority-vote or spectral initialisation) and stagewise EM
/// (paper 004). Labels and gold files on the left; method, K and seed on top; the results panel
/// (convergence, CMI heatmap, worker reliability, confusion vs gold, method comparison,
/// disagreements) below. Every change refits in the background (CrowdController).
class CrowdWorkspace : public Workspace {
    Q_OBJECT
public:
    explicit CrowdWorkspace(QWidget* parent = nullptr);
    ~CrowdWorkspace() override;

    QString title() const override { return tr("Crowd"); }
    bool canOpen(const QString& path) const override;
    /// 2 for a CSV/TSV whose header names item/worker/label (or item/truth: a gold file).
    int openPreference(const QString& path) const override;
    /// A label file replaces the data (keeping the gold file only if it is the same set); a
    /// gold file is added to the labels open.
    void openPath(const QString& path) override;
    void openInteractive() override;
    QList<QAction*> exportActions() const override;
    void cancelTask() override;
    bool isSettled() const override;

    /// Opens labels and (optionally) gold together.
    void openFiles(const QString& labelsPath, const QString& goldPath);
    /// Runs every method in the background and fills the comparison and disagreement tabs.
    void compareMethods();
    void setMethod(cx::CrowdMethod method);
    cx::CrowdMethod method() const;
    cx::CrowdOptions options() const;

    CrowdController* controller() const { return m_controller; }
    CrowdResultsPanel* results() const { return m_results; }
    /// The result shown (null before the first fit).
    const std::optional<CrowdRun>& shownRun() const { return m_run; }

private:
    void refit();
    void updateSummary();
    void exportLabels();

    CrowdController* m_controller = nullptr;
    CrowdResultsPanel* m_results = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_openGold = nullptr;
    QComboBox* m_method = nullptr;
    QSpinBox* m_components = nullptr;
    QSpinBox* m_seed = nullptr;
    QPushButton* m_compare = nullptr;
    QLabel* m_status = nullptr;
    QAction* m_exportLabels = nullptr;
    QAction* m_exportWorkers = nullptr;
    QAction* m_exportConvergence = nullptr;
    QAction* m_exportCmi = nullptr;
    std::optional<CrowdRun> m_run;
};

} // namespace cx::ui
