#pragma once

#include "core/session/crowd_section.h"
#include "ui/crowd/crowd_types.h"
#include "ui/framework/sectioned_workspace.h"

#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace cx::ui {

class CrowdController;
class CrowdResultsPanel;
class StaleMarker;

/// The Crowd workspace: aggregates crowdsourced labels with majority vote,
/// Dawid–Skene EM (random restarts, majority-vote or spectral initialisation) and stagewise EM
/// (Zhao & Zucker 2015). Labels and gold files on the left; method, K and seed on top; the results
/// panel (convergence, CMI heatmap, worker reliability, confusion vs gold, method comparison,
/// disagreements) below. Every change refits in the background (CrowdController).
class CrowdWorkspace : public SectionedWorkspace<CrowdWorkspace, cx::CrowdSection> {
    Q_OBJECT
    friend SectionedWorkspace;

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
    /// The two convergence charts besides the heatmaps (CMI, confusion).
    QList<WorkspaceFigure> figures() const override;
    /// The result tables shown, and the aggregated labels (labels.tsv, as `crowd --out`).
    QList<WorkspaceTable> tables() const override;
    QJsonObject figureProvenance() const override;

    // Session section "crowd" (crowd_workspace_session.cpp).
    bool hasSessionData() const override;
    void clearSession() override;
    /// The section describing what is shown (or the one being restored while it loads).
    cx::CrowdSection currentSection() const;
    /// Restores `section`: reads its files unless they are the ones open, then applies
    /// method, K, seed, the other options and the view state, and refits.
    void openSection(const cx::CrowdSection& section);
    /// Seeds above what the seed box shows are refused (the section reader accepts them).
    void checkSection(const cx::Session& session, const cx::CrowdSection& section) const;

    /// Opens labels and (optionally) gold together.
    void openFiles(const QString& labelsPath, const QString& goldPath);
    /// Labels with their gold file (`contrast-explorer answer.csv truth.csv`): 3.
    int openPathsPreference(const QStringList& paths) const override;
    void openPaths(const QStringList& paths) override;
    /// Runs every method in the background and fills the comparison and disagreement tabs.
    void compareMethods();
    void setMethod(cx::CrowdMethod method);
    void setNumComponents(int k);
    void setSeed(int seed);
    cx::CrowdMethod method() const;
    /// K and seed from the controls; restarts, iterations, smoothing and both significance
    /// levels from the restored session (the CLI's defaults otherwise).
    cx::CrowdOptions options() const;

    CrowdController* controller() const { return m_controller; }
    CrowdResultsPanel* results() const { return m_results; }
    /// Over the results: the inputs changed since Compare methods ran (hidden when none).
    StaleMarker* comparisonMarker() const { return m_comparisonStale; }
    /// The result shown (null before the first fit).
    const std::optional<CrowdRun>& shownRun() const { return m_run; }

private:
    void createExportActions(); // the File ▸ Export entries of this workspace
    void connectController();   // the controller's reports → views, status and session
    void refit();
    void updateSummary();
    void exportLabels();
    /// Sets the controls and the view state of `section` (labels loaded), then fits.
    void applySection(const cx::CrowdSection& section);
    void connectSessionSignals();
    /// Whether the shown run was fitted with the controls' method and options.
    bool shownRunIsCurrent() const;

    CrowdController* m_controller = nullptr;
    CrowdResultsPanel* m_results = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_openGold = nullptr;
    QComboBox* m_method = nullptr;
    QSpinBox* m_components = nullptr;
    int m_lastComponents = 0; ///< the K box's last valid value (it skips 1)
    QSpinBox* m_seed = nullptr;
    QPushButton* m_compare = nullptr;
    QLabel* m_status = nullptr;
    QAction* m_exportLabels = nullptr;
    QAction* m_exportWorkers = nullptr;
    QAction* m_exportConvergence = nullptr;
    QAction* m_exportCmi = nullptr;
    std::optional<CrowdRun> m_run;
    /// The last fit ended without a run (failed, or cancelled by the user): with nothing
    /// running the workspace is settled even though no run is shown.
    bool m_fitEndedWithoutRun = false;
    /// Compare methods was pressed while labels were being read: compare once they are there.
    bool m_compareAfterLoad = false;
    StaleMarker* m_comparisonStale = nullptr;
};

} // namespace cx::ui
