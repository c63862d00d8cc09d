#pragma once

#include "ui/framework/sectioned_workspace.h"
#include "ui/topics/topic_types.h"

#include "core/session/topics_section.h"

#include <optional>

class QAction;
class QSplitter;

namespace cx::ui {

class TopicsController;
class TopicsAnalysisPanel;
class TopicsDataPanel;
class SpecificityPanel;
class TopicTablePanel;
class DocumentBrowser;

/// The Topics workspace: contrastive topic models of a text corpus. Data panel on the left;
/// model controls, the top-words table and the AUC-vs-γ chart on the right. All computation
/// runs in its TopicsController.
class TopicsWorkspace : public SectionedWorkspace<TopicsWorkspace, cx::TopicsSection> {
    Q_OBJECT
    friend SectionedWorkspace;

public:
    explicit TopicsWorkspace(QWidget* parent = nullptr);
    ~TopicsWorkspace() override;

    QString title() const override { return tr("Topics"); }
    QIcon icon() const override;
    bool canOpen(const QString& path) const override;
    void openPath(const QString& path) override;
    void openInteractive() override;
    QList<QAction*> exportActions() const override;
    QList<QAction*> viewActions() const override;
    void cancelTask() override;
    bool isSettled() const override;
    /// γ, K, seed, rules and data for figures.json.
    QJsonObject figureProvenance() const override;
    void saveSettings() const override;
    void restoreSettings() override;
    bool hasSessionData() const override;
    void clearSession() override;

    /// The workspace's state as a session section (corpus, reader options, rules, K, γ, seed,
    /// AUC rule and grid, top words, all-components view); while a section is being restored,
    /// that section.
    cx::TopicsSection currentSection() const;
    /// Opens a session section: loads its corpus (unless the same corpus with the same reader
    /// options is already loaded: then nothing is reloaded and cached engines are reused), then
    /// applies its rules, K, γ, seed, AUC rule/grid and view state.
    void openSection(const cx::TopicsSection& section);
    /// Uses an in-memory corpus (tests, synthetic data) as if it had been loaded.
    void openCorpus(const CorpusHandle& corpus);

    TopicsController* controller() const { return m_controller; }
    TopicsDataPanel* dataPanel() const { return m_dataPanel; }
    TopicsAnalysisPanel* analysisPanel() const { return m_analysisPanel; }
    TopicTablePanel* tablePanel() const { return m_tablePanel; }
    SpecificityPanel* specificityPanel() const { return m_specificityPanel; }
    /// The documents behind a topic (a window of its own; documentsAction shows it).
    DocumentBrowser* documentBrowser() const { return m_documentBrowser; }
    QAction* documentsAction() const { return m_documentsAction; }
    /// Shows the document browser on result component `component` (−1: the table's current
    /// column, else the first topic).
    void showDocuments(int component = -1);
    /// Asks for a new name of the table's column `column` (double-click on its header).
    void renameTopicInteractively(int column);

    void exportChart();

private:
    void onCorpusChanged(const CorpusHandle& corpus);
    void onSolutionChanged(const TopicSolution& solution);
    /// Gives the table the bootstrap's weight bands of the shown solution (or none).
    /// Path identities (ids and colours of the weights-vs-γ chart) of the shown solution's
    /// components, from the last sweep's path when it belongs to the current parameters.
    void updateIdentities();
    /// A new path: names of identities it no longer has are dropped (a topic that vanished
    /// with a change of K loses its name; those that persist kept their ids).
    void dropNamesOfVanishedTopics();
    void updateWeightBands();
    void applySection(const cx::TopicsSection& section);
    void applyPendingSelection();
    void setGammaEverywhere(double gamma);
    /// Starts the bootstrap a reopened session asks for once its sweep's path is there.
    void startPendingBootstrap();
    void setUpTopicHeader();
    void connectController(); // controller → views
    void connectViews();      // views → controller, and session changes

    TopicsController* m_controller = nullptr;
    TopicsDataPanel* m_dataPanel = nullptr;
    TopicsAnalysisPanel* m_analysisPanel = nullptr;
    TopicTablePanel* m_tablePanel = nullptr;
    SpecificityPanel* m_specificityPanel = nullptr;
    QSplitter* m_mainSplitter = nullptr;
    QSplitter* m_resultSplitter = nullptr;
    QAction* m_exportChartAction = nullptr;
    DocumentBrowser* m_documentBrowser = nullptr;
    QAction* m_documentsAction = nullptr;
    /// Resamples of a reopened session's bootstrap, run once the AUC sweep's path is there
    /// (0: none).
    int m_pendingBootstrap = 0;
    /// The last applied choice, re-applied when a corpus with the same fields is reloaded.
    std::optional<SelectionSpec> m_lastApplied;
    QString m_loadingPath;
};

} // namespace cx::ui
