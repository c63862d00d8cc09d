// TreeWorkspace: layout, controller wiring, the views of a result and the exports. Its session
// section is in tree_workspace_session.cpp.
#include "ui/tree/tree_workspace.h"

#include "core/common/error.h"
#include "core/common/multi_start.h"
#include "core/tree/multi_cell_tracks.h"
#include "ui/dialogs/image_export_dialog.h"
#include "ui/dialogs/text_export.h"
#include "ui/framework/error_reporter.h"
#include "ui/framework/provenance.h"
#include "ui/framework/workspace_support.h"
#include "ui/tree/tree_controller.h"
#include "ui/tree/tree_diagram_view.h"
#include "ui/tree/tree_presenter.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/export_helpers.h"
#include "ui/widgets/form_widgets.h"
#include "ui/widgets/state_matrix_model.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cx::ui {

namespace {

const char* const kDirectoryKey = "tree.directory";

QStringList binarizedFiles(const QString& folder) {
    return QDir(folder).entryList(
        {QStringLiteral("*_binary.txt"), QStringLiteral("*_binary.txt.gz")}, QDir::Files,
        QDir::Name);
}

} // namespace

TreeWorkspace::TreeWorkspace(QWidget* parent) : SectionedWorkspace(parent) {
    m_controller = new TreeController(this);

    auto* dataPanel = new QWidget;
    auto* dataLayout = new QVBoxLayout(dataPanel);
    dataLayout->addWidget(sectionTitle(tr("Cell types"), dataPanel));
    auto* openFolder = new QPushButton(tr("Open folder…"), dataPanel);
    openFolder->setToolTip(tr("A folder of ChromHMM binarized files (CELL_chrN_binary.txt[.gz]), "
                              "one per cell type and chromosome"));
    auto* openFiles = new QPushButton(tr("Open files…"), dataPanel);
    openFiles->setToolTip(tr("Several ChromHMM binarized files of different cell types"));
    auto* openRow = new QHBoxLayout;
    openRow->addWidget(openFolder);
    openRow->addWidget(openFiles);
    dataLayout->addLayout(openRow);
    m_dataSummary =
        hintLabel(tr("Open a folder of cell types (ChromHMM binarized tracks)."), dataPanel);
    m_dataSummary->setWordWrap(true);
    dataLayout->addWidget(m_dataSummary);
    dataLayout->addWidget(sectionTitle(tr("Tree"), dataPanel));
    m_treeEdit = new QLineEdit(dataPanel);
    m_treeEdit->setPlaceholderText(QStringLiteral("ROOT>CHILD1,CHILD2;CHILD1>GRANDCHILD"));
    m_treeEdit->setToolTip(tr("The cell-type tree: PARENT>CHILD1,CHILD2, clauses separated by ';'. "
                              "Checked as you type against the cell types opened."));
    dataLayout->addWidget(m_treeEdit);
    m_treeProblem = new QLabel(dataPanel);
    m_treeProblem->setWordWrap(true);
    m_treeProblem->setStyleSheet(QStringLiteral("color: #b02020"));
    m_treeProblem->hide();
    dataLayout->addWidget(m_treeProblem);
    m_diagram = new TreeDiagramView(dataPanel);
    dataLayout->addWidget(m_diagram, 1);
    dataLayout->addWidget(sectionTitle(tr("Promoters"), dataPanel));
    auto* openTss = new QPushButton(tr("Open TSS file…"), dataPanel);
    openTss->setToolTip(tr("Transcription start sites (ChromHMM anchor file chrom/pos/strand, or "
                           "BED) for the promoter F1 table"));
    dataLayout->addWidget(openTss);
    m_tssLabel = hintLabel(tr("No TSS file: no promoter F1."), dataPanel);
    m_tssLabel->setWordWrap(true);
    dataLayout->addWidget(m_tssLabel);

    QWidget* controls = createControls();

    m_tabs = new QTabWidget;
    auto* heatmapScroll = new QScrollArea;
    heatmapScroll->setWidgetResizable(true);
    m_heatmapRow = new QWidget;
    m_heatmapLayout = new QHBoxLayout(m_heatmapRow);
    heatmapScroll->setWidget(m_heatmapRow);
    m_tabs->addTab(heatmapScroll, tr("Emissions"));
    m_trackView = new SegmentationTrackView;
    m_trackView->setObjectName(QStringLiteral("segmentation"));
    m_trackView->setPlaceholder(tr("Learn a tree to see every cell type's segmentation"));
    m_tabs->addTab(m_trackView, tr("Segmentation"));
    m_f1Table = new QTableWidget(0, 6);
    m_f1Table->setObjectName(QStringLiteral("promoter_f1"));
    m_f1Table->setHorizontalHeaderLabels(
        {tr("Method"), tr("Cell"), tr("State"), tr("Precision"), tr("Recall"), tr("F1")});
    m_f1Table->horizontalHeader()->setStretchLastSection(true);
    m_f1Table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tabs->addTab(m_f1Table, tr("Promoter F1"));
    m_stale = new StaleMarker(tr("Results below"), tr("Learn again to update them."),
                              [this] { return treeProvenance(currentRequest()); });
    layOutWorkspace(this, dataPanel, 230, controls, withStaleMarker(m_stale, m_tabs), {280, 1160});

    createActions();

    connect(openFolder, &QPushButton::clicked, this, &TreeWorkspace::openInteractive);
    connect(openFiles, &QPushButton::clicked, this, [this] {
        QSettings settings;
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open Cell-Type Tracks"), settings.value(kDirectoryKey).toString(),
            tr("ChromHMM binarized files (*_binary.txt *_binary.txt.gz);;All files (*)"));
        if (!paths.isEmpty()) {
            settings.setValue(kDirectoryKey, QFileInfo(paths.front()).absolutePath());
            openTracks(paths);
        }
    });
    connect(openTss, &QPushButton::clicked, this, [this] {
        QSettings settings;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open TSS File"), settings.value(kDirectoryKey).toString(),
            tr("TSS files (*.txt *.txt.gz *.bed *.bed.gz);;All files (*)"));
        if (!path.isEmpty()) {
            setTssFile(path);
        }
    });
    connect(m_treeEdit, &QLineEdit::textChanged, this, &TreeWorkspace::treeTextEdited);
    connect(m_treeEdit, &QLineEdit::returnPressed, this, &TreeWorkspace::learn);
    connect(m_diagram, &TreeDiagramView::cellClicked, this, &TreeWorkspace::selectCell);
    connect(m_learn, &QPushButton::clicked, this, &TreeWorkspace::learn);

    connect(m_controller, &TreeController::taskStarted, this,
            [this](TreeTaskKind kind, const QString& description) {
                if (kind == TreeTaskKind::Learn) {
                    m_learnEndedWithoutAnalysis = false;
                }
                emit taskStarted(description, true);
                m_status->setText(description);
                emit settledChanged();
            });
    connect(m_controller, &TreeController::taskFinished, this,
            [this](TreeTaskKind kind, TaskOutcome outcome) {
                if (kind == TreeTaskKind::Learn) {
                    m_learnEndedWithoutAnalysis =
                        outcome != TaskOutcome::Finished && !m_controller->analysis().isValid();
                }
                emit taskFinished(outcome);
                if (outcome != TaskOutcome::Finished) {
                    m_status->setText(outcome == TaskOutcome::Cancelled
                                          ? tr("Cancelled: the previous result stays.")
                                          : tr("Failed: the previous result stays."));
                    m_pendingSection.reset();
                }
                emit settledChanged();
            });
    connect(m_controller, &TreeController::analysisReady, this, &TreeWorkspace::showAnalysis);
    connect(m_controller, &TreeController::promotersRescored, this, &TreeWorkspace::showPromoterF1);
    for (QWidget* input : std::initializer_list<QWidget*>{
             m_states, m_decomposition, m_seed, m_starts, m_decode, m_flank, m_promoterState,
             m_perCell, m_momentFit, m_strictMarks, m_treeEdit}) {
        m_stale->watch(input);
    }
    connect(m_stale, &StaleMarker::staleChanged, this, &TreeWorkspace::inputsChanged);
    forwardControllerReports(m_controller, this);
    connect(m_trackView, &SegmentationTrackView::rangeChanged, this,
            [this] { emit sessionStateChanged(); });
}

TreeWorkspace::~TreeWorkspace() = default;

/// The parameters row (K, decomposition, seed, decoding, promoter scoring, Learn) and the
/// status line under it.
QWidget* TreeWorkspace::createControls() {
    auto* controls = new QWidget;
    auto* controlLayout = new QHBoxLayout(controls);
    m_states = numberSpin(1, cx::kMaxTreeMarks + 1, 4, 56, controls);
    m_states->setToolTip(tr("K, chromatin states per cell type (at most the shared marks + 1)"));
    m_decomposition = new QComboBox(controls);
    m_decomposition->addItem(tr("Power"), QStringLiteral("power"));
    m_decomposition->addItem(tr("Jennrich"), QStringLiteral("jennrich"));
    m_decomposition->setToolTip(tr("Tensor decomposition of each node's moments: the power method "
                                   "with deflation, or Jennrich's simultaneous diagonalisation"));
    m_seed = numberSpin(0, 1000000000, 1, 70, controls);
    m_seed->setToolTip(tr("Random seed of the decomposition (same seed, same model); each cell "
                          "type's decomposition tries several starts derived from it and keeps "
                          "the one of lowest moment residual"));
    m_starts = numberSpin(1, 1000, cx::kDefaultTreeStarts, 56, controls);
    m_starts->setToolTip(tr("Seeded starts of each cell type's decomposition (and of each "
                            "per-cell HMM): the start of lowest moment residual is kept (per-cell: "
                            "highest likelihood). Fewer starts learn faster; results then depend "
                            "more on the seed (contrast-cli tree --starts)"));
    m_decode = new QComboBox(controls);
    m_decode->addItem(tr("Auto"), QStringLiteral("auto"));
    m_decode->addItem(tr("Path"), QStringLiteral("path"));
    m_decode->addItem(tr("Joint"), QStringLiteral("joint"));
    m_decode->setToolTip(tr("Tree decoding: joint posterior over the whole tree (exact, K^cells "
                            "meta-states), per root-to-cell path, or auto (joint when small)"));
    m_flank = numberSpin(0, 100000000, 1000, 70, controls);
    m_flank->setSuffix(QStringLiteral(" bp"));
    m_flank->setToolTip(tr("A bin within this distance of a TSS counts as a promoter bin"));
    m_promoterState = numberSpin(0, m_states->value(), 0, 56, controls);
    m_promoterState->setSpecialValueText(tr("auto"));
    // The promoter state is one of the K states: the box never offers more (a session holding
    // one could not be reopened), and a K below the chosen state returns it to auto.
    connect(m_states, &QSpinBox::valueChanged, m_promoterState, [this](int k) {
        if (m_promoterState->value() > k) {
            m_promoterState->setValue(0);
        }
        m_promoterState->setMaximum(k);
    });
    m_promoterState->setToolTip(tr("The state scored as promoter (1-based); auto: per cell and "
                                   "method, the state most enriched in TSS bins among those "
                                   "carrying H3K4me3 (at least half the highest state's)"));
    m_perCell = new QCheckBox(tr("Per-cell HMMs"), controls);
    m_perCell->setToolTip(tr("Also score independent spectral HMMs per cell type (the baseline "
                             "of Zhang et al. 2015) in the promoter F1 table"));
    m_momentFit = new QCheckBox(tr("Moment refit"), controls);
    m_momentFit->setChecked(true);
    m_momentFit->setToolTip(tr("Per cell type: decompose with a reserve component, then keep the "
                               "K states (the unmarked one included) that best fit the cell's "
                               "first and second mark moments, weights summing to 1 (contrast-cli "
                               "tree --moment-fit; off: rank K, weights from the eigenvalues)"));
    m_strictMarks = new QCheckBox(tr("Strict marks"), controls);
    m_strictMarks->setToolTip(tr("Refuse cell types whose marks differ instead of keeping the "
                                 "marks every cell type has"));
    m_learn = new QPushButton(tr("Learn"), controls);
    m_learn->setToolTip(tr("Learn Spectral-Tree in the background and decode every cell type"));
    m_learn->setEnabled(false);
    auto* form = new QHBoxLayout;
    form->addWidget(fieldLabel(tr("K"), m_states, controls));
    form->addWidget(m_states);
    form->addWidget(fieldLabel(tr("Decomposition"), m_decomposition, controls));
    form->addWidget(m_decomposition);
    form->addWidget(fieldLabel(tr("Seed"), m_seed, controls));
    form->addWidget(m_seed);
    form->addWidget(fieldLabel(tr("Starts"), m_starts, controls));
    form->addWidget(m_starts);
    form->addWidget(fieldLabel(tr("Decode"), m_decode, controls));
    form->addWidget(m_decode);
    auto* form2 = new QHBoxLayout;
    form2->addWidget(fieldLabel(tr("Flank"), m_flank, controls));
    form2->addWidget(m_flank);
    form2->addWidget(fieldLabel(tr("Promoter state"), m_promoterState, controls));
    form2->addWidget(m_promoterState);
    form2->addWidget(m_perCell);
    form2->addWidget(m_momentFit);
    form2->addWidget(m_strictMarks);
    form2->addWidget(m_learn);
    form->addStretch(1);
    form2->addStretch(1);
    auto* rows = new QVBoxLayout;
    rows->addLayout(form);
    rows->addLayout(form2);
    // The status line under the parameters, as wide as the results (the window fits 1024 px).
    m_status = new QLabel(controls);
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    rows->addWidget(m_status);
    controlLayout->addLayout(rows, 1);
    return controls;
}

/// File ▸ Open Aligned Reads… and the File ▸ Export entries of this workspace.
void TreeWorkspace::createActions() {
    m_exportChanges = new QAction(tr("Regions Differing from the Root (BED)…"), this);
    m_exportSegments = new QAction(tr("Segmentations of All Cell Types (BED, IGV script)…"), this);
    m_exportSegments->setStatusTip(tr("One BED9 track per cell type, the states named and coloured "
                                      "as shown, and an IGV batch script that loads them"));
    m_exportF1 = new QAction(tr("Promoter F1 Table…"), this);
    m_exportTree = new QAction(tr("Tree Diagram…"), this);
    m_openReadsAction = new QAction(tr("Open Aligned &Reads…"), this);
    m_openReadsAction->setToolTip(tr("BAM, SAM, CRAM, BED reads or peaks of two or more cell "
                                     "types: binarized as ChromHMM does, opened as the tree's "
                                     "cell types"));
    connect(m_openReadsAction, &QAction::triggered, this,
            &TreeWorkspace::openAlignedReadsInteractive);
    connect(m_controller, &TreeController::readsBinarized, this, &TreeWorkspace::readsBinarized);
    m_exportChanges->setEnabled(false);
    m_exportSegments->setEnabled(false);
    m_exportF1->setEnabled(false);
    connect(m_exportSegments, &QAction::triggered, this, [this] {
        QSettings settings;
        const QString folder =
            QFileDialog::getExistingDirectory(this, tr("Export the Segmentations into a Folder"),
                                              settings.value(kDirectoryKey).toString());
        if (folder.isEmpty()) {
            return;
        }
        QString error;
        if (!exportSegmentations(folder, &error)) {
            ErrorReporter::report(this, tr("Export failed"), error);
        }
    });
    connect(m_exportChanges, &QAction::triggered, this, [this] {
        const QString cell = selectedCell();
        if (differingRegionsText(cell).isEmpty() &&
            cell == QString::fromStdString(analysis().tree.names.front())) {
            ErrorReporter::report(this, tr("Nothing to export"),
                                  tr("Select a cell type other than the root in the tree."));
            return;
        }
        exportTextInteractively(
            this, tr("Regions Differing from the Root"), QStringLiteral("changes_") + cell,
            {tr("BED (*.bed)")},
            [this, cell](const QString&) { return differingRegionsText(cell); });
    });
    connect(m_exportF1, &QAction::triggered, this, [this] {
        exportTextInteractively(this, tr("Promoter F1"), QStringLiteral("promoter_f1"),
                                {tr("Tab-separated values (*.tsv)")},
                                [this](const QString&) { return promoterF1Text(); });
    });
    connect(m_exportTree, &QAction::triggered, this, [this] {
        ImageExportDialog::exportViewInteractively(this, tr("Tree Diagram"), QStringLiteral("tree"),
                                                   m_diagram);
    });
}

bool TreeWorkspace::canOpen(const QString& path) const {
    return openPreference(path) > 0;
}

int TreeWorkspace::openPreference(const QString& path) const {
    const QFileInfo info(path);
    if (!info.isDir()) {
        return 0;
    }
    return cellsOfTrackFiles(binarizedFiles(path)).size() >= 2 ? 2 : 0;
}

void TreeWorkspace::openPath(const QString& path) {
    openTracks({path});
}

void TreeWorkspace::openInteractive() {
    QSettings settings;
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Open a Folder of Cell Types"), settings.value(kDirectoryKey).toString());
    if (!folder.isEmpty()) {
        settings.setValue(kDirectoryKey, folder);
        openTracks({folder});
    }
}

void TreeWorkspace::openTracks(const QStringList& paths) {
    QStringList files;
    for (const QString& path : paths) {
        if (QFileInfo(path).isDir()) {
            const QStringList found = binarizedFiles(path);
            if (found.isEmpty()) {
                ErrorReporter::report(this, tr("Cannot open the cell types"),
                                      tr("%1: no ChromHMM binarized files (*_binary.txt[.gz]) in "
                                         "this folder")
                                          .arg(path));
                return;
            }
            for (const QString& file : found) {
                files << QDir(path).filePath(file);
            }
        } else if (QFileInfo::exists(path)) {
            files << path;
        } else {
            ErrorReporter::report(this, tr("Cannot open the cell types"),
                                  tr("%1: no such file or folder").arg(path));
            return;
        }
    }
    m_reads.reset(); // tracks of their own; openAlignedReads sets the reads again
    QStringList opened;
    for (const QString& path : paths) {
        opened << QFileInfo(path).absoluteFilePath();
    }
    // The TSS file belongs to the data it was opened with: other cell types drop it.
    const bool replacing = !m_trackPaths.isEmpty() && opened != m_trackPaths;
    m_trackPaths = opened;
    if (replacing && !m_tssPath.isEmpty()) {
        setTssFile({});
        m_tssLabel->setText(tr("No TSS file for these cell types: open one for promoter F1."));
    }
    m_cells = cellsOfTrackFiles(files);
    m_catalog.reset();
    m_dataSummary->setText(tr("%1 files, %2 cell types: %3")
                               .arg(files.size())
                               .arg(m_cells.size())
                               .arg(m_cells.join(QStringLiteral(", "))));
    if (!treeProblem().isEmpty()) {
        setTreeText(defaultTreeText(m_cells));
    } else {
        treeTextEdited();
    }
    m_stale->refresh();
    emit pathsOpened(m_trackPaths);
    emit documentTitleChanged(m_trackPaths.size() == 1 ? QFileInfo(m_trackPaths.front()).fileName()
                                                       : tr("%1 cell types").arg(m_cells.size()));
    emit sessionStateChanged();
}

void TreeWorkspace::setTssFile(const QString& path) {
    m_tssPath = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    m_tssLabel->setText(m_tssPath.isEmpty() ? tr("No TSS file: no promoter F1.")
                                            : QFileInfo(m_tssPath).fileName());
    m_stale->refresh();
    emit sessionStateChanged();
}

void TreeWorkspace::updateExportActions() {
    // Results under a stale marker were computed from other inputs than those shown: they are
    // not exported under the new labels (Learn again, or undo the change).
    const bool stale = m_stale->isStale();
    const QString cell = selectedCell();
    const TreeAnalysis& result = analysis();
    m_exportF1->setEnabled(!stale && result.isValid() && !result.promoterF1.empty());
    m_exportSegments->setEnabled(!stale && result.isValid());
    m_exportChanges->setEnabled(!stale && result.isValid() && !cell.isEmpty() &&
                                result.tree.find(cell.toStdString()) > 0);
    const QString why = stale ? tr("The results are from earlier inputs (%1 changed): Learn "
                                   "again to export them.")
                                    .arg(m_stale->changedNames().join(QStringLiteral(", ")))
                              : QString();
    m_exportF1->setToolTip(why);
    m_exportSegments->setToolTip(why);
    m_exportChanges->setToolTip(why);
}

void TreeWorkspace::inputsChanged() {
    updateExportActions();
    const TreeAnalysis& result = analysis();
    const QStringList changed = m_stale->changedNames();
    if (!result.isValid() || changed.isEmpty() || m_controller->isTaskRunning()) {
        return;
    }
    const QStringList promoterInputs = promoterInputNames();
    const bool onlyPromoterInputs =
        std::all_of(changed.begin(), changed.end(),
                    [&](const QString& name) { return promoterInputs.contains(name); });
    const TreeLearnRequest request = currentRequest();
    const bool perCellKept = !request.comparePerCell || result.perCellStates != nullptr;
    if (onlyPromoterInputs && perCellKept &&
        request.promoterState <= result.request.options.numStates) {
        m_controller->rescorePromoters(request); // cheap: the segmentation stays
    }
}

void TreeWorkspace::setTreeText(const QString& text) {
    m_treeEdit->setText(text);
    treeTextEdited();
}

QString TreeWorkspace::treeText() const {
    return m_treeEdit->text().trimmed();
}

QString TreeWorkspace::treeProblem() const {
    return treeSpecProblem(treeText(), m_cells);
}

void TreeWorkspace::treeTextEdited() {
    try {
        cx::parseTreeSpec(treeText().toStdString());
        m_lastParsableTree = treeText();
    } catch (const cx::InputError&) { // a draft: the box says what is wrong below
    }
    const QString problem = treeProblem();
    m_treeProblem->setText(problem);
    m_treeProblem->setVisible(!problem.isEmpty());
    if (problem.isEmpty()) {
        m_diagram->setTree(cx::parseTreeSpec(treeText().toStdString()));
    } else {
        m_diagram->setProblem(treeText().isEmpty() ? QString() : problem);
    }
    m_learn->setEnabled(problem.isEmpty() && !m_trackPaths.isEmpty());
    emit sessionStateChanged();
}

int TreeWorkspace::momentFitSweeps() const {
    if (!m_momentFit->isChecked()) {
        return -1;
    }
    return m_sessionBase.momentFit >= 0 ? m_sessionBase.momentFit
                                        : cx::SpectralTreeOptions{}.momentFitSweeps;
}

TreeLearnRequest TreeWorkspace::currentRequest() const {
    TreeLearnRequest request;
    request.trackPaths = m_trackPaths;
    request.binSize = m_sessionBase.binSize;
    request.strictMarks = m_strictMarks->isChecked();
    request.treeText = treeText();
    request.options.numStates = m_states->value();
    request.options.decomposition =
        cx::parseDecomposition(m_decomposition->currentData().toString().toStdString());
    request.options.seed = static_cast<std::uint64_t>(m_seed->value());
    request.options.projectionDim = m_sessionBase.projection;
    request.options.iterations = m_sessionBase.iterations;
    request.options.trials = m_sessionBase.restarts;
    request.options.starts = m_starts->value();
    request.options.featureScaling = m_sessionBase.scaling != "none";
    request.options.momentFitSweeps = momentFitSweeps();
    request.options.reserveComponents = m_sessionBase.extraComponents;
    const QString decode = m_decode->currentData().toString();
    request.decode = decode == QLatin1String("path")    ? cx::TreeDecodingMode::PathMarginal
                     : decode == QLatin1String("joint") ? cx::TreeDecodingMode::Joint
                                                        : cx::TreeDecodingMode::Auto;
    request.tssPath = m_tssPath;
    request.flank = m_flank->value();
    request.promoterState = m_promoterState->value();
    request.comparePerCell = m_perCell->isChecked();
    return request;
}

bool TreeWorkspace::learn() {
    if (m_trackPaths.isEmpty()) {
        return false;
    }
    const QString problem = treeProblem();
    if (!problem.isEmpty()) {
        ErrorReporter::report(this, tr("Cannot learn the tree"), tr("Tree: %1").arg(problem));
        return false;
    }
    if (m_promoterState->value() > m_states->value()) {
        ErrorReporter::report(this, tr("Cannot learn the tree"),
                              tr("Promoter state %1 exceeds K = %2")
                                  .arg(m_promoterState->value())
                                  .arg(m_states->value()));
        return false;
    }
    return m_controller->learn(currentRequest());
}

void TreeWorkspace::cancelTask() {
    m_controller->cancelTask();
}

bool TreeWorkspace::isSettled() const {
    return (m_controller->analysis().isValid() || m_learnEndedWithoutAnalysis) &&
           !m_controller->isTaskRunning() && !m_controller->isRescoring() &&
           !m_pendingSection.has_value();
}

const TreeAnalysis& TreeWorkspace::analysis() const {
    return m_controller->analysis();
}

void TreeWorkspace::selectCell(const QString& cell) {
    m_diagram->setSelectedCell(cell);
    for (HeatmapView* view : m_heatmaps) {
        view->setStyleSheet(view->objectName() == QStringLiteral("emissions_") + cell
                                ? QStringLiteral("background: #eef3fc")
                                : QString());
    }
    updateExportActions();
    emit sessionStateChanged();
}

QString TreeWorkspace::selectedCell() const {
    return m_diagram->selectedCell();
}

QStringList TreeWorkspace::stateLabels() const {
    QStringList labels;
    const int k = analysis().isValid() ? analysis().request.options.numStates : 0;
    for (int state = 0; state < k; ++state) {
        const int slot = m_catalog.slotOfComponent(state);
        labels << (slot >= 0 ? m_catalog.name(slot) : QStringLiteral("E%1").arg(state + 1));
    }
    return labels;
}

QString TreeWorkspace::differingRegionsText(const QString& cell) const {
    const TreeAnalysis& result = analysis();
    if (!result.isValid()) {
        return {};
    }
    const int index = result.tracks->findCell(cell.toStdString());
    if (index <= 0) {
        return {};
    }
    std::vector<std::string> labels;
    for (const QString& label : stateLabels()) {
        labels.push_back(label.toStdString());
    }
    return differingRegionsBed(*result.tracks, *result.segmentation, index, labels);
}

bool TreeWorkspace::exportDifferingRegions(const QString& cell, const QString& path,
                                           QString* error) const {
    return writeTextFileAtomically(path, differingRegionsText(cell), error);
}

QList<QAction*> TreeWorkspace::exportActions() const {
    return {m_exportSegments, m_exportChanges, m_exportF1, m_exportTree};
}

QString TreeWorkspace::promoterF1Text() const {
    std::vector<std::string> labels;
    for (const QString& label : stateLabels()) {
        labels.push_back(label.toStdString());
    }
    return QString::fromStdString(cx::promoterF1Tsv(analysis().promoterF1, labels));
}

QList<WorkspaceFigure> TreeWorkspace::figures() const {
    // Stale results are not exported (updateExportActions): only the tree as typed.
    QList<WorkspaceFigure> out =
        m_stale->isStale() ? QList<WorkspaceFigure>() : Workspace::figures();
    const TreeDiagramView* diagram = m_diagram;
    out.append({QStringLiteral("tree"), tr("Cell-type tree"), m_diagram->figureSize(),
                [diagram](QPainter& painter, const QRectF& target) {
                    diagram->paintFigure(painter, target);
                },
                [diagram] { return diagram->figureData(); }});
    return out;
}

QList<WorkspaceTable> TreeWorkspace::tables() const {
    QList<WorkspaceTable> out;
    // Stale results are not exported (updateExportActions).
    if (!analysis().isValid() || m_stale->isStale()) {
        return out;
    }
    // Each cell type's emissions are its heatmap figure's data (emissions-CELL.tsv beside
    // emissions-CELL.png): not written a second time as a table.
    if (!analysis().promoterF1.empty()) {
        out.append({QStringLiteral("promoter_f1"), [this] { return promoterF1Text(); }});
    }
    for (size_t v = 1; v < analysis().tree.names.size(); ++v) {
        const QString cell = QString::fromStdString(analysis().tree.names[v]);
        out.append({QStringLiteral("changes_") + cell,
                    [this, cell] { return differingRegionsText(cell); }});
    }
    return out;
}

} // namespace cx::ui
