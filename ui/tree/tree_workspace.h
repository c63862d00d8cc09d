#pragma once

#include "core/session/tree_section.h"
#include "ui/framework/reads_binarization.h"
#include "ui/framework/sectioned_workspace.h"
#include "ui/tree/tree_types.h"
#include "ui/views/state_catalog.h"

#include <memory>
#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace cx::ui {

class HeatmapView;
class SegmentationTrackView;
class StaleMarker;
class StateMatrixModel;
class TreeController;
class TreeDiagramView;

/// The Tree workspace: Spectral-Tree (Zhang et al. 2015) over several cell types'
/// ChromHMM tracks. A folder of cell types (or several files) and a TSS file on the left with
/// the tree, editable as text (`ROOT>CHILD1,CHILD2;…`, checked as typed) and drawn root on top
/// (click a cell type to select it); K, decomposition, seed, decoding and promoter options on
/// top; results below: per-cell emission heatmaps side by side in one shared state order with
/// one set of names and colours (StateCatalog of the root's emissions), stacked segmentation
/// tracks per cell type with a lane per child marking where its state differs from the root's
/// (exportable as BED), and the promoter F1 table per cell and method. Learning runs in the
/// background (TreeController) with progress and Cancel.
class TreeWorkspace : public SectionedWorkspace<TreeWorkspace, cx::TreeSection> {
    Q_OBJECT
    friend SectionedWorkspace;

public:
    explicit TreeWorkspace(QWidget* parent = nullptr);
    ~TreeWorkspace() override;

    QString title() const override { return tr("Tree"); }
    bool canOpen(const QString& path) const override;
    /// 2 for a folder holding ChromHMM binarized files of two or more cell types.
    int openPreference(const QString& path) const override;
    void openPath(const QString& path) override;
    void openInteractive() override;
    QList<QAction*> exportActions() const override;
    /// File ▸ Open Aligned Reads…
    QList<QAction*> openActions() const override;
    QList<WorkspaceFigure> figures() const override;
    QList<WorkspaceTable> tables() const override;
    void cancelTask() override;
    bool isSettled() const override;

    bool hasSessionData() const override;
    void clearSession() override;

    /// Opens tracks (files or folders); proposes a star tree when the current one does not fit.
    void openTracks(const QStringList& paths);
    /// Binarizes aligned reads in the background (the Chromatin workspace's dialog and code:
    /// ui/framework/reads_binarization.h) and opens every cell type of them as tree tracks;
    /// the session records the reads and options. Needs two or more cell types.
    void openAlignedReads(const ReadsBinarization& reads);
    /// File ▸ Open Aligned Reads…: the dialog, then openAlignedReads.
    void openAlignedReadsInteractive();
    /// The reads the open tracks were binarized from (null: opened as binarized files).
    const ReadsBinarization* reads() const { return m_reads.get(); }
    void setTssFile(const QString& path);
    void setTreeText(const QString& text);
    QString treeText() const;
    /// The problem of the tree text (empty: valid over the opened cell types).
    QString treeProblem() const;
    /// Starts learning with the current options (false when nothing to learn or bad tree).
    bool learn();
    void selectCell(const QString& cell);
    QString selectedCell() const;

    TreeController* controller() const { return m_controller; }
    const TreeAnalysis& analysis() const;
    const StateCatalog& catalog() const { return m_catalog; }
    /// Per-cell heatmap models, in tree order (empty before the first result).
    QList<StateMatrixModel*> emissionModels() const { return m_emissionModels; }
    QList<HeatmapView*> heatmapViews() const { return m_heatmaps; }
    SegmentationTrackView* trackView() const { return m_trackView; }
    TreeDiagramView* diagram() const { return m_diagram; }
    QTableWidget* promoterTable() const { return m_f1Table; }
    QLabel* tssLabel() const { return m_tssLabel; }
    /// Over the results: which inputs changed since the shown tree was learnt (hidden when none).
    StaleMarker* staleMarker() const { return m_stale; }
    QSpinBox* statesSpin() const { return m_states; }
    /// Seeded starts of each cell type's decomposition (and of each per-cell HMM).
    QSpinBox* startsSpin() const { return m_starts; }
    /// The line under the parameters: what was learnt, how, and how far the starts disagreed.
    QLabel* statusLabel() const { return m_status; }
    /// BED of the regions where `cell` differs from the root (empty for the root or no result).
    QString differingRegionsText(const QString& cell) const;
    bool exportDifferingRegions(const QString& cell, const QString& path, QString* error) const;
    /// Writes into `folder` segments_CELL.bed for every cell type (one browser track each, the
    /// states under the names and in the colours shown) and igv_batch.txt loading them with the
    /// TSS file — what `contrast-cli tree --state-labels names` writes (cx::writeTreeSegmentFiles).
    /// False with `error` set when there is no current result or a file cannot be written.
    bool exportSegmentations(const QString& folder, QString* error) const;
    /// The model's state labels (the shared names, by model state).
    QStringList stateLabels() const;
    /// The promoter F1 table as TSV (cx::promoterF1Tsv with the shown state names).
    QString promoterF1Text() const;

private:
    QWidget* createControls();
    void createActions();
    TreeLearnRequest currentRequest() const;
    /// --moment-fit of the request: -1 when "Moment refit" is off, else the session's sweeps.
    int momentFitSweeps() const;
    void treeTextEdited();
    void showAnalysis(const TreeAnalysis& analysis);
    void showPromoterF1();
    /// An input changed: the promoter F1 table is scored again when only its own inputs (TSS
    /// file, flank, promoter state) changed; otherwise the stale marker says what changed.
    void inputsChanged();
    /// Enables the result exports (promoter F1, regions differing from the root) only for a
    /// result that is not stale, saying why not in their tooltips.
    void updateExportActions();
    void refreshStateViews();
    void updateSummary();
    cx::TreeSection currentSection() const;
    void openSection(const cx::TreeSection& section);
    /// openSection once the tracks exist (binarized again first when the reads are newer).
    void openSectionTracks(const cx::TreeSection& section, const QStringList& tracks,
                           std::shared_ptr<const ReadsBinarization> reads);
    /// The binarized files of a finished Binarize task: a pending session continues with them,
    /// else they are opened as the tracks of `reads`.
    void readsBinarized(const QStringList& files, const ReadsBinarization& reads);
    void applyViewState(const cx::TreeSection& section);

    TreeController* m_controller = nullptr;
    QStringList m_trackPaths;
    /// The last Learn failed or was cancelled while no analysis was shown: nothing is pending,
    /// the tab is settled without one.
    bool m_learnEndedWithoutAnalysis = false;
    std::shared_ptr<const ReadsBinarization> m_reads;
    QStringList m_cells;
    QString m_tssPath;
    StateCatalog m_catalog;

    QLabel* m_dataSummary = nullptr;
    QLabel* m_tssLabel = nullptr;
    QLineEdit* m_treeEdit = nullptr;
    /// The last tree text that parses: what a session saves while the box holds a draft that
    /// does not (a session reader refuses such a text, and with it the whole session).
    QString m_lastParsableTree;
    QLabel* m_treeProblem = nullptr;
    TreeDiagramView* m_diagram = nullptr;
    QSpinBox* m_states = nullptr;
    QComboBox* m_decomposition = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_starts = nullptr;
    QComboBox* m_decode = nullptr;
    QSpinBox* m_flank = nullptr;
    QSpinBox* m_promoterState = nullptr;
    QCheckBox* m_perCell = nullptr;
    QCheckBox* m_momentFit = nullptr;
    QCheckBox* m_strictMarks = nullptr;
    QPushButton* m_learn = nullptr;
    QLabel* m_status = nullptr;
    QTabWidget* m_tabs = nullptr;
    QWidget* m_heatmapRow = nullptr;
    QHBoxLayout* m_heatmapLayout = nullptr;
    QList<HeatmapView*> m_heatmaps;
    QList<StateMatrixModel*> m_emissionModels;
    SegmentationTrackView* m_trackView = nullptr;
    QTableWidget* m_f1Table = nullptr;
    QAction* m_exportChanges = nullptr;
    QAction* m_exportSegments = nullptr;
    QAction* m_exportF1 = nullptr;
    QAction* m_exportTree = nullptr;
    QAction* m_openReadsAction = nullptr;
    StaleMarker* m_stale = nullptr;
};

} // namespace cx::ui
