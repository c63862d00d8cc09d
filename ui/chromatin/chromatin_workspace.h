#pragma once

#include "core/session/chromatin_section.h"
#include "ui/chromatin/chromatin_types.h"
#include "ui/chromatin/genomic_region.h"
#include "ui/framework/sectioned_workspace.h"
#include "ui/views/state_catalog.h"

#include <optional>

class QAction;
class QSplitter;
class QTimer;

namespace cx::ui {

class AnnotationListModel;
class ChromatinAnalysisPanel;
class ChromatinController;
class ChromatinDataPanel;
class ChromatinResultsView;
class HeatmapView;
class StateCountDialog;
class SegmentationTrackView;
class StateMatrixModel;
class StateWeightsChartView;

/// The Chromatin workspace: contrastive spectral HMMs of ChromHMM binarized tracks (Zou et al.
/// 2013, Sec. 4, Fig. 2b). Tracks and the annotation list on the left; γ/K controls on top; the
/// emission heatmaps of the foreground-only model (γ = 0) and of the contrastive model (current
/// γ) side by side; state weights vs γ, overlap enrichment and transitions below; the
/// segmentation over a chromosome with annotation lanes at the bottom. States keep their row,
/// colour and name across γ (StateCatalog). All computation runs in its ChromatinController.
class ChromatinWorkspace : public SectionedWorkspace<ChromatinWorkspace, cx::ChromatinSection> {
    Q_OBJECT
    friend SectionedWorkspace;

public:
    explicit ChromatinWorkspace(QWidget* parent = nullptr);
    ~ChromatinWorkspace() override;

    QString title() const override { return tr("Chromatin"); }
    QIcon icon() const override;
    bool canOpen(const QString& path) const override;
    int openPreference(const QString& path) const override;
    void openPath(const QString& path) override;
    void openInteractive() override;
    QList<QAction*> exportActions() const override;
    QList<QAction*> viewActions() const override;
    /// File ▸ Open Aligned Reads….
    QList<QAction*> openActions() const override;
    void cancelTask() override;
    bool isSettled() const override;
    /// γ, K, seed, rules and data for figures.json.
    QJsonObject figureProvenance() const override;
    void saveSettings() const override;
    void restoreSettings() override;

    /// Reads binarized tracks (several cells/chromosomes); annotation files found in a ChromHMM
    /// COORDS/<assembly>/ folder next to them are offered in the annotation list.
    void openTracks(const QStringList& paths);
    /// Binarizes the reads in the background (progress and Cancel as a load) and opens the
    /// binarized tracks; the session records the reads and options.
    void openAlignedReads(const ReadsBinarization& reads);
    /// File ▸ Open Aligned Reads…: the dialog, then openAlignedReads.
    void openAlignedReadsInteractive();
    /// Tracks (with annotation BEDs or a COORDS json among them): 2 when every path is
    /// chromatin data.
    int openPathsPreference(const QStringList& paths) const override;
    void openPaths(const QStringList& paths) override;
    /// Adds annotation BED files to the list (read in the background).
    void addAnnotations(const QStringList& paths);
    bool hasSessionData() const override;
    void clearSession() override;
    /// The workspace's state as a session section (tracks, bin size, annotations and their
    /// roles, K, γ, seed, encoding, decoding, region, state names and colours in weight order);
    /// while a section is being restored, that section. Estimator options the GUI does not set
    /// (restarts, reserve components, …) are those of the section last opened.
    cx::ChromatinSection currentSection() const;
    /// Opens a session section: reads its tracks (unless the same tracks are loaded: then their
    /// moments and solutions are reused) and applies annotations, roles, K, γ, seed, encoding,
    /// decoding, region and state names. The section's annotations replace the list.
    void openSection(const cx::ChromatinSection& section);
    /// Sets γ in the panel, the chart marker and the controller.
    void setGamma(double gamma);

    ChromatinController* controller() const { return m_controller; }
    ChromatinDataPanel* dataPanel() const { return m_dataPanel; }
    ChromatinAnalysisPanel* analysisPanel() const { return m_analysisPanel; }
    AnnotationListModel* annotationModel() const { return m_annotationModel; }
    StateMatrixModel* emissionModel() const { return m_emissionModel; }
    StateMatrixModel* referenceModel() const { return m_referenceModel; }
    StateMatrixModel* transitionModel() const { return m_transitionModel; }
    StateMatrixModel* enrichmentModel() const { return m_enrichmentModel; }
    HeatmapView* emissionView() const { return m_emissionView; }
    HeatmapView* referenceView() const { return m_referenceView; }
    HeatmapView* transitionView() const { return m_transitionView; }
    HeatmapView* enrichmentView() const { return m_enrichmentView; }
    SegmentationTrackView* trackView() const { return m_trackView; }
    StateWeightsChartView* weightsChart() const { return m_weightsChart; }
    const StateCatalog& catalog() const { return m_catalog; }
    /// Milliseconds from the last γ/K request to its heatmaps being updated.
    double lastUpdateLatencyMs() const { return m_lastLatencyMs; }

    /// The shown segmentation as BED9 text (state names and colours as displayed; one track
    /// line per cell type, described by the model).
    QString segmentationBed() const;
    /// An IGV batch script (cx::igvBatchScript) loading `bedPath` and the annotations shown as
    /// lanes, at the shown region: what the BED export writes next to the BED.
    QString igvBatchScript(const QString& bedPath) const;
    void exportEmissionPair();
    void exportSegmentationBed();
    /// View ▸ How Many States…: a StateCountDialog on the open tracks with the workspace's
    /// γ = 0 model settings (null, after reporting, without tracks). Press its Fit to run.
    StateCountDialog* openStateCount();

private:
    void buildActions();
    /// Controller → views and views → controller (chromatin_workspace_wiring.cpp).
    void connectControllerSignals();
    void connectViewSignals();
    /// The QSettings key of the folder tracks and annotations were last opened from.
    static QString trackDirectoryKey();
    /// Forgets a pending session and marks the current annotations stale, before new tracks
    /// (`paths`; empty for reads) are read.
    void beginOpen(const QStringList& paths);
    void applySection(const cx::ChromatinSection& section);
    void restoreStateRows(const std::vector<cx::ChromatinSection::StateView>& states);
    /// Starts the bootstrap a reopened session asks for once the sweep's path is current.
    void startPendingBootstrap();
    void connectSessionSignals();
    void removeAllAnnotations();
    void removeAnnotations(const QStringList& paths);
    void onDataChanged(const ChromatinDataHandle& data);
    void onMomentsChanged(const MomentsState& moments);
    void onSolutionChanged(const HmmSolution& solution);
    void onSegmentationChanged(const SegmentationHandle& segmentation);
    void onEnrichmentChanged(const EnrichmentTable& table);
    void onSweepChanged(const WeightSweep& sweep);
    void onStateRenamed(int slot, const QString& name);
    void applyRegionChoice();
    void refreshStateViews();
    void refreshEmissionModels();
    void refreshTransitionModel();
    void refreshEnrichmentModel();
    /// Clears the overlap and neighbourhood enrichment heatmaps.
    void clearEnrichmentModels();
    /// One heatmap tab per anchor file of `table` (none: the tabs hide).
    void refreshNeighborhoodViews(const EnrichmentTable* table);
    /// "posterior segmentation" (and "of CELL" when the tracks hold several cells).
    QString enrichmentSubtitle(const EnrichmentTable& table) const;
    void refreshSegmentationAppearance();
    /// The contrastive heatmap's title from the shown solution and its segmentation's verdict.
    void refreshContrastiveTitle();
    /// "Foreground only (γ = 0)", with the Baum–Welch refinement's state (running: round N;
    /// done: rounds and log-likelihood per bin).
    void refreshReferenceTitle(int runningRound = -1);
    void refreshWeightsChart(bool force);
    void refreshLanes();
    void syncAnnotationChecks();
    void exportTable(StateMatrixModel* model, const QString& what, const QString& baseName);

    ChromatinController* m_controller = nullptr;
    ChromatinDataPanel* m_dataPanel = nullptr;
    ChromatinAnalysisPanel* m_analysisPanel = nullptr;
    AnnotationListModel* m_annotationModel = nullptr;
    StateMatrixModel* m_emissionModel = nullptr;
    StateMatrixModel* m_referenceModel = nullptr;
    StateMatrixModel* m_transitionModel = nullptr;
    StateMatrixModel* m_enrichmentModel = nullptr;
    /// Neighbourhood enrichment, per anchor file (chromatin_workspace_enrichment.cpp).
    std::vector<StateMatrixModel*> m_neighborhoodModels;
    HeatmapView* m_emissionView = nullptr;
    HeatmapView* m_referenceView = nullptr;
    HeatmapView* m_transitionView = nullptr;
    HeatmapView* m_enrichmentView = nullptr;
    StateWeightsChartView* m_weightsChart = nullptr;
    SegmentationTrackView* m_trackView = nullptr;
    ChromatinResultsView* m_results = nullptr;
    QSplitter* m_mainSplitter = nullptr;
    QTimer* m_regionTimer = nullptr;

    QAction* m_exportPairAction = nullptr;
    QAction* m_exportEmissionAction = nullptr;
    QAction* m_exportTransitionAction = nullptr;
    QAction* m_exportEnrichmentAction = nullptr;
    QAction* m_exportWeightsAction = nullptr;
    QAction* m_exportTrackAction = nullptr;
    QAction* m_exportSeparator = nullptr;
    QAction* m_exportBedAction = nullptr;
    QAction* m_exportEmissionTableAction = nullptr;
    QAction* m_exportTransitionTableAction = nullptr;
    QAction* m_exportEnrichmentTableAction = nullptr;
    QAction* m_sortStatesAction = nullptr;
    QAction* m_stateCountAction = nullptr;
    QAction* m_showValuesAction = nullptr;
    QAction* m_fitTrackAction = nullptr;
    QAction* m_labelBackgroundAction = nullptr;
    QAction* m_openReadsAction = nullptr;
    /// Reads being binarized for an interactive open (their tracks replace the data).
    bool m_loadingReads = false;

    StateCatalog m_catalog;
    std::vector<std::string> m_marks;
    /// Display slot of each state of the shown segmentation (mapped when it arrived).
    std::vector<int> m_segmentationSlots;
    /// States the shown segmentation contradicts (contradictedStates), for the heatmap title.
    QStringList m_contradictedStates;
    /// Sweep track → display slot, as last drawn (the chart is rebuilt when it changes).
    std::vector<int> m_chartSlots;
    QStringList m_chartNames;
    /// A reopened session's bootstrap (resamples, block length), run once the weights-vs-γ
    /// path is current.
    struct PendingBootstrap {
        int replicates = 0;
        int blockLength = 0;
    };
    std::optional<PendingBootstrap> m_pendingBootstrap;
    QStringList m_loadingTracks;
    /// Annotations listed when new tracks were asked for: removed once those tracks are read.
    QStringList m_staleAnnotations;
    bool m_interactiveOpen = false;
    double m_lastLatencyMs = -1;
};

} // namespace cx::ui
