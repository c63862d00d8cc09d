#include "ui/chromatin/chromatin_workspace.h"

#include "ui/widgets/plural.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_data_panel.h"
#include "ui/framework/error_reporter.h"
#include "ui/framework/workspace_support.h"
#include "ui/dialogs/image_export_dialog.h"
#include "ui/dialogs/text_export.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/state_matrix_model.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/chromatin/chromatin_analysis.h"
#include "ui/chromatin/chromatin_controller.h"

#include "core/hmm/contrastive_hmm.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cx::ui {

namespace {

const QString kMainSplitterKey = QStringLiteral("chromatin.splitter.main");
const QString kResultSplitterKey = QStringLiteral("chromatin.splitter.results");
const QString kMiddleSplitterKey = QStringLiteral("chromatin.splitter.middle");
const QString kComponentsKey = QStringLiteral("chromatin.model.k");
const QString kSeedKey = QStringLiteral("chromatin.model.seed");
const QString kDecodeKey = QStringLiteral("chromatin.model.decode");
const QString kShowValuesKey = QStringLiteral("chromatin.heatmap.showValues");
const QString kTrackDirectoryKey = QStringLiteral("chromatin.open.directory");

/// Sweep grid of the weights-vs-γ chart: the slider's range in steps of 0.05.
QVector<double> sweepGrid() {
    QVector<double> gammas;
    const int steps = static_cast<int>(std::lround(ChromatinAnalysisPanel::kSliderMaximum / 0.05));
    for (int i = 0; i <= steps; ++i) {
        gammas << i * 0.05;
    }
    return gammas;
}

QColor laneColour(const QString& name) {
    const QString lower = name.toLower();
    if (lower.contains(QLatin1String("tss"))) {
        return QColor(0xb0, 0x3a, 0x2e);
    }
    if (lower.contains(QLatin1String("exon"))) {
        return QColor(0x2b, 0x6c, 0xb0);
    }
    if (lower.contains(QLatin1String("cpg"))) {
        return QColor(0x2f, 0x85, 0x5a);
    }
    if (lower.contains(QLatin1String("lad")) || lower.contains(QLatin1String("lamin"))) {
        return QColor(0x7b, 0x6d, 0x8d);
    }
    return QColor(0x2b, 0x3a, 0x55);
}

bool isBedPath(const QString& path) {
    const QString name = QFileInfo(path).fileName().toLower();
    return name.endsWith(QLatin1String(".bed")) || name.endsWith(QLatin1String(".bed.gz"));
}

bool isBinarizedPath(const QString& path) {
    const QString name = QFileInfo(path).fileName().toLower();
    return (name.endsWith(QLatin1String(".txt")) || name.endsWith(QLatin1String(".txt.gz"))) &&
           name.contains(QLatin1String("binary"));
}

QString formatBp(qint64 bp) {
    return QLocale().toString(bp);
}

QString formatWidth(qint64 bp) {
    if (bp >= 1000000) {
        return QStringLiteral("%1 Mb").arg(QLocale().toString(bp / 1e6, 'f', 2));
    }
    if (bp >= 1000) {
        return QStringLiteral("%1 kb").arg(QLocale().toString(bp / 1e3, 'f', 1));
    }
    return QStringLiteral("%1 bp").arg(bp);
}

QToolButton* toolButton(QStyle::StandardPixmap icon, const QString& text, const QString& tip,
                        QWidget* parent) {
    auto* button = new QToolButton(parent);
    if (icon != QStyle::SP_CustomBase) {
        button->setIcon(parent->style()->standardIcon(icon));
    }
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    button->setToolButtonStyle(icon == QStyle::SP_CustomBase ? Qt::ToolButtonTextOnly
                                                             : Qt::ToolButtonIconOnly);
    return button;
}

} // namespace

ChromatinWorkspace::ChromatinWorkspace(QWidget* parent) : Workspace(parent) {
    setObjectName(QStringLiteral("chromatinWorkspace"));
    m_controller = new ChromatinController(this);
    m_controller->setSweepGammas(sweepGrid());
    m_annotationModel = new AnnotationListModel(this);
    m_emissionModel = new StateMatrixModel(this);
    m_referenceModel = new StateMatrixModel(this);
    m_transitionModel = new StateMatrixModel(this);
    m_enrichmentModel = new StateMatrixModel(this);

    m_dataPanel = new ChromatinDataPanel(this);
    m_dataPanel->setAnnotationModel(m_annotationModel);
    m_analysisPanel = new ChromatinAnalysisPanel(this);

    // Top: the Fig. 2b pair.
    auto* pair = new QWidget(this);
    pair->setObjectName(QStringLiteral("resultsArea"));
    auto* pairLayout = new QHBoxLayout(pair);
    pairLayout->setContentsMargins(4, 4, 4, 0);
    pairLayout->setSpacing(6);
    m_referenceView = new HeatmapView(pair);
    m_referenceView->setObjectName(QStringLiteral("referenceHeatmap"));
    m_referenceView->setModel(m_referenceModel);
    m_referenceView->setScale(ColourScale::probability(tr("P(mark present)")));
    m_referenceView->setTitle(tr("Foreground only (γ = 0)"));
    m_referenceView->setPlaceholder(tr("Open chromatin tracks to fit a spectral HMM."));
    m_emissionView = new HeatmapView(pair);
    m_emissionView->setObjectName(QStringLiteral("emissionHeatmap"));
    m_emissionView->setModel(m_emissionModel);
    m_emissionView->setScale(ColourScale::probability(tr("P(mark present)")));
    m_emissionView->setRowLabelsEditable(true);
    m_emissionView->setTitle(tr("Contrastive"));
    m_emissionView->setPlaceholder(
        tr("Tick foreground regions (e.g. RefSeqGene + RefSeqTSS2kb) and move γ to see which "
           "states are specific to them."));
    pairLayout->addWidget(m_referenceView, 1);
    auto* divider = new QFrame(pair);
    divider->setObjectName(QStringLiteral("divider"));
    divider->setFrameShape(QFrame::VLine);
    divider->setFixedWidth(1);
    pairLayout->addWidget(divider);
    pairLayout->addWidget(m_emissionView, 1);

    // Middle: weights vs γ, enrichment, transitions.
    auto* weightsBox = new QWidget(this);
    weightsBox->setObjectName(QStringLiteral("resultsArea"));
    auto* weightsLayout = new QVBoxLayout(weightsBox);
    weightsLayout->setContentsMargins(12, 6, 4, 2);
    weightsLayout->setSpacing(0);
    m_weightsTitle = new QLabel(tr("State weights vs γ"), weightsBox);
    m_weightsTitle->setObjectName(QStringLiteral("panelTitle"));
    m_weightsTitle->setStyleSheet(QStringLiteral("font-size: 9.5pt;"));
    weightsLayout->addWidget(m_weightsTitle);
    m_weightsChart = new StateWeightsChartView(weightsBox);
    m_weightsChart->setMessage(tr("Needs a background (tick foreground regions)"));
    weightsLayout->addWidget(m_weightsChart, 1);
    m_enrichmentView = new HeatmapView(this);
    m_enrichmentView->setObjectName(QStringLiteral("enrichmentHeatmap"));
    m_enrichmentView->setModel(m_enrichmentModel);
    m_enrichmentView->setScale(ColourScale::foldEnrichment(tr("fold enrichment")));
    m_enrichmentView->setTitle(tr("Overlap enrichment"));
    m_enrichmentView->setWeightTitle(tr("% of bins"));
    m_enrichmentView->setRowLabelsEditable(true);
    m_enrichmentView->setMaximumCellSize(QSizeF(44, 26));
    m_enrichmentView->setPlaceholder(tr("Fold enrichment of the segmentation's states in the "
                                        "annotations ticked Enr."));
    m_transitionView = new HeatmapView(this);
    m_transitionView->setObjectName(QStringLiteral("transitionHeatmap"));
    m_transitionView->setModel(m_transitionModel);
    m_transitionView->setScale(ColourScale::probability(tr("P(next state)")));
    m_transitionView->setTitle(tr("Transitions"));
    m_transitionView->setMaximumCellSize(QSizeF(36, 26));
    m_transitionView->setRowLabelsEditable(true);
    m_transitionView->setPlaceholder(tr("Transitions between the foreground-specific states."));
    m_middleSplitter = new QSplitter(Qt::Horizontal, this);
    m_middleSplitter->addWidget(weightsBox);
    m_middleSplitter->addWidget(m_enrichmentView);
    m_middleSplitter->addWidget(m_transitionView);
    m_middleSplitter->setChildrenCollapsible(false);
    m_middleSplitter->setStretchFactor(0, 4);
    m_middleSplitter->setStretchFactor(1, 4);
    m_middleSplitter->setStretchFactor(2, 3);
    m_middleSplitter->setSizes({380, 420, 320});

    // Bottom: the segmentation.
    auto* segmentation = new QWidget(this);
    segmentation->setObjectName(QStringLiteral("resultsArea"));
    auto* segmentationLayout = new QVBoxLayout(segmentation);
    segmentationLayout->setContentsMargins(12, 6, 10, 4);
    segmentationLayout->setSpacing(2);
    auto* toolbar = new QHBoxLayout;
    toolbar->setSpacing(6);
    auto* segmentationTitle = new QLabel(tr("Segmentation"), segmentation);
    segmentationTitle->setObjectName(QStringLiteral("panelTitle"));
    segmentationTitle->setStyleSheet(QStringLiteral("font-size: 9.5pt;"));
    toolbar->addWidget(segmentationTitle);
    toolbar->addSpacing(8);
    m_chromosome = new QComboBox(segmentation);
    m_chromosome->setToolTip(tr("Chromosome"));
    m_chromosome->setMinimumContentsLength(6);
    m_chromosome->hide(); // shown when the tracks cover several chromosomes
    toolbar->addWidget(m_chromosome);
    m_rangeLabel = new QLabel(segmentation);
    m_rangeLabel->setObjectName(QStringLiteral("hint"));
    m_rangeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    toolbar->addWidget(m_rangeLabel, 1);
    auto* zoomOut =
        toolButton(QStyle::SP_CustomBase, QStringLiteral("−"), tr("Zoom out (−)"), segmentation);
    auto* zoomIn =
        toolButton(QStyle::SP_CustomBase, QStringLiteral("+"), tr("Zoom in (+)"), segmentation);
    auto* fit = toolButton(QStyle::SP_CustomBase, tr("Whole"),
                           tr("Show the whole chromosome (Home)"), segmentation);
    auto* bed = toolButton(QStyle::SP_CustomBase, tr("Export BED…"),
                           tr("Save the segmentation as BED9 with itemRgb colours (loads in a "
                              "genome browser)"),
                           segmentation);
    for (QToolButton* button : {zoomOut, zoomIn, fit, bed}) {
        toolbar->addWidget(button);
    }
    segmentationLayout->addLayout(toolbar);
    m_trackView = new SegmentationTrackView(segmentation);
    m_trackView->setObjectName(QStringLiteral("segmentationView"));
    m_trackView->setPlaceholder(tr("The segmentation appears here once a model is fitted."));
    segmentationLayout->addWidget(m_trackView, 1);
    m_scroll = new QScrollBar(Qt::Horizontal, segmentation);
    segmentationLayout->addWidget(m_scroll);

    m_resultSplitter = new QSplitter(Qt::Vertical, this);
    m_resultSplitter->addWidget(pair);
    m_resultSplitter->addWidget(m_middleSplitter);
    m_resultSplitter->addWidget(segmentation);
    m_resultSplitter->setChildrenCollapsible(false);
    m_resultSplitter->setStretchFactor(0, 5);
    m_resultSplitter->setStretchFactor(1, 4);
    m_resultSplitter->setStretchFactor(2, 3);
    m_resultSplitter->setSizes({330, 255, 215});

    m_mainSplitter =
        layOutWorkspace(this, m_dataPanel, 270, m_analysisPanel, m_resultSplitter, {310, 1130});

    // The region choice is applied shortly after the last check box click: the moment pass
    // is fast, but several clicks in a row should start it once.
    m_regionTimer = new QTimer(this);
    m_regionTimer->setSingleShot(true);
    m_regionTimer->setInterval(250);
    connect(m_regionTimer, &QTimer::timeout, this, &ChromatinWorkspace::applyRegionChoice);

    buildActions();

    // Controller → views.
    connect(m_controller, &ChromatinController::taskStarted, this,
            [this](ChromatinTaskKind kind, const QString& description) {
                if (kind == ChromatinTaskKind::Moments) {
                    m_dataPanel->setBusy(true);
                }
                emit taskStarted(description, true);
            });
    forwardControllerReports(m_controller, this);
    connect(m_controller, &ChromatinController::taskFinished, this,
            [this](ChromatinTaskKind kind, const QString& outcome) {
                emit taskFinished(outcome);
                if (outcome != QLatin1String("finished")) {
                    m_pendingSession.reset();
                    m_loadingTracks.clear();
                    // Back to the report of the moments in use.
                    m_dataPanel->setMomentsReport(m_controller->moments().get());
                }
                if (outcome == QLatin1String("cancelled")) {
                    emit statusMessage(kind == ChromatinTaskKind::LoadTracks
                                           ? tr("Loading cancelled; the previous tracks are kept")
                                           : tr("Cancelled; the previous results are kept"));
                }
                emit settledChanged();
            });
    connect(m_controller, &ChromatinController::dataChanged, this,
            &ChromatinWorkspace::onDataChanged);
    connect(m_controller, &ChromatinController::annotationAdded, this,
            [this](const AnnotationSource& source) {
                m_annotationModel->setLoaded(source);
                refreshLanes();
            });
    connect(m_controller, &ChromatinController::annotationFailed, this,
            [this](const QString& path, const QString&) { m_annotationModel->removePath(path); });
    connect(m_controller, &ChromatinController::momentsChanged, this,
            &ChromatinWorkspace::onMomentsChanged);
    connect(m_controller, &ChromatinController::stateReverted, this, [this] {
        syncAnnotationChecks();
        m_analysisPanel->setParameters(m_controller->parameters());
    });
    connect(m_controller, &ChromatinController::solutionChanged, this,
            &ChromatinWorkspace::onSolutionChanged);
    connect(m_controller, &ChromatinController::solveFailed, this,
            [this](const QString& message) { m_analysisPanel->setInfo(tr("⚠ %1").arg(message)); });
    connect(m_controller, &ChromatinController::segmentationChanged, this,
            &ChromatinWorkspace::onSegmentationChanged);
    connect(m_controller, &ChromatinController::enrichmentChanged, this,
            &ChromatinWorkspace::onEnrichmentChanged);
    connect(m_controller, &ChromatinController::sweepChanged, this,
            &ChromatinWorkspace::onSweepChanged);
    connect(m_controller, &ChromatinController::activityChanged, this, [this] {
        m_trackView->setStatusNote(m_controller->isDecoding() ? tr("decoding…") : QString());
        emit settledChanged();
    });

    // Views → controller.
    connect(m_dataPanel, &ChromatinDataPanel::openTracksRequested, this,
            &ChromatinWorkspace::openInteractive);
    connect(m_dataPanel, &ChromatinDataPanel::addAnnotationsRequested, this, [this] {
        QSettings settings;
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Add Annotation BED Files"), settings.value(kTrackDirectoryKey).toString(),
            tr("BED files (*.bed *.bed.gz);;All files (*)"));
        addAnnotations(paths);
    });
    connect(m_dataPanel, &ChromatinDataPanel::removeAnnotationRequested, this,
            [this](const QString& path) {
                m_annotationModel->removePath(path);
                m_controller->removeAnnotation(path);
                refreshLanes();
            });
    connect(m_annotationModel, &AnnotationListModel::regionsEdited, this, [this] {
        m_regionTimer->start();
        emit settledChanged();
    });
    connect(m_annotationModel, &AnnotationListModel::displayEdited, this, [this] {
        m_controller->setEnrichmentAnnotations(m_annotationModel->enrichmentPaths());
        refreshLanes();
    });
    connect(m_analysisPanel, &ChromatinAnalysisPanel::gammaChanged, this, [this](double gamma) {
        m_weightsChart->setCurrentGamma(gamma);
        m_controller->setGamma(gamma);
    });
    connect(m_analysisPanel, &ChromatinAnalysisPanel::parametersChanged, this,
            [this](const ChromatinModelParameters& parameters) {
                if (parameters.encoding != m_controller->parameters().encoding) {
                    m_catalog.reset(); // other emissions: no state to match against
                }
                m_controller->setParameters(parameters);
            });
    connect(m_analysisPanel, &ChromatinAnalysisPanel::decodingChanged, m_controller,
            &ChromatinController::setDecodingMethod);
    connect(m_weightsChart, &StateWeightsChartView::gammaClicked, this,
            &ChromatinWorkspace::setGamma);
    for (StateMatrixModel* model : {m_emissionModel, m_transitionModel, m_enrichmentModel}) {
        connect(model, &StateMatrixModel::rowRenamed, this,
                [this](int, int slot, const QString& name) { onStateRenamed(slot, name); });
    }
    connect(m_chromosome, &QComboBox::currentTextChanged, this, [this](const QString& chrom) {
        if (!chrom.isEmpty() && chrom != m_trackView->chromosome()) {
            m_trackView->setChromosome(chrom);
        }
    });
    connect(zoomIn, &QToolButton::clicked, m_trackView, &SegmentationTrackView::zoomIn);
    connect(zoomOut, &QToolButton::clicked, m_trackView, &SegmentationTrackView::zoomOut);
    connect(fit, &QToolButton::clicked, m_trackView, &SegmentationTrackView::zoomToFit);
    connect(bed, &QToolButton::clicked, this, &ChromatinWorkspace::exportSegmentationBed);
    connect(m_trackView, &SegmentationTrackView::rangeChanged, this,
            &ChromatinWorkspace::updateRangeControls);
    connect(m_scroll, &QScrollBar::valueChanged, this, [this](int value) {
        // The scroll bar counts kb (an int holds any chromosome that way).
        const qint64 width = m_trackView->rangeEnd() - m_trackView->rangeStart();
        const qint64 start = static_cast<qint64>(value) * 1000;
        if (std::llabs(start - m_trackView->rangeStart()) >= 1000) {
            m_trackView->setRange(start, start + width);
        }
    });

    const ChromatinModelParameters parameters = m_analysisPanel->parameters();
    m_controller->setParameters(parameters);
    m_controller->setGamma(m_analysisPanel->gamma());
    m_controller->setDecodingMethod(m_analysisPanel->decodingMethod());
    updateRangeControls();
}

ChromatinWorkspace::~ChromatinWorkspace() = default;

void ChromatinWorkspace::buildActions() {
    const auto action = [this](const QString& text, auto slot) {
        auto* a = new QAction(text, this);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_exportPairAction = action(tr("Export Emission &Heatmaps, γ = 0 and current (PNG/SVG/PDF)…"),
                                &ChromatinWorkspace::exportEmissionPair);
    m_exportPairAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    // Each view's figure, as drawn by its paintFigure().
    const auto exportView = [this, &action](const QString& text, const QString& what,
                                            const QString& baseName, const auto* view) {
        return action(text, [this, what, baseName, view] {
            ImageExportDialog::exportViewInteractively(this, what, baseName, view);
        });
    };
    m_exportEmissionAction =
        exportView(tr("Export Emission Heatmap (current γ)…"), tr("Emission Heatmap"),
                   QStringLiteral("emissions"), m_emissionView);
    m_exportTransitionAction =
        exportView(tr("Export Transition Heatmap…"), tr("Transition Heatmap"),
                   QStringLiteral("transitions"), m_transitionView);
    m_exportEnrichmentAction =
        exportView(tr("Export Enrichment Heatmap…"), tr("Enrichment Heatmap"),
                   QStringLiteral("enrichment"), m_enrichmentView);
    m_exportWeightsAction = exportView(tr("Export Weights-vs-γ Chart…"), tr("Weights Chart"),
                                       QStringLiteral("state_weights"), m_weightsChart);
    m_exportTrackAction = exportView(tr("Export Segmentation View…"), tr("Segmentation View"),
                                     QStringLiteral("segmentation"), m_trackView);
    m_exportSeparator = new QAction(this);
    m_exportSeparator->setSeparator(true);
    m_exportBedAction =
        action(tr("Export Segmentation as &BED9…"), &ChromatinWorkspace::exportSegmentationBed);
    m_exportEmissionTableAction = action(tr("Export Emission Table (TSV/CSV)…"), [this] {
        exportTable(m_emissionModel, tr("Emission Table"), QStringLiteral("emissions"));
    });
    m_exportTransitionTableAction = action(tr("Export Transition Table (TSV/CSV)…"), [this] {
        exportTable(m_transitionModel, tr("Transition Table"), QStringLiteral("transitions"));
    });
    m_exportEnrichmentTableAction = action(tr("Export Enrichment Table (TSV/CSV)…"), [this] {
        exportTable(m_enrichmentModel, tr("Enrichment Table"), QStringLiteral("enrichment"));
    });
    m_sortStatesAction = action(tr("Sort States by &Weight"), [this] {
        m_catalog.sortByWeight();
        if (m_controller->solution().isValid()) {
            onSolutionChanged(m_controller->solution());
        }
    });
    m_showValuesAction = new QAction(tr("Show &Values in Heatmap Cells"), this);
    m_showValuesAction->setCheckable(true);
    m_showValuesAction->setChecked(true);
    connect(m_showValuesAction, &QAction::toggled, this, [this](bool show) {
        for (HeatmapView* view :
             {m_emissionView, m_referenceView, m_transitionView, m_enrichmentView}) {
            view->setShowValues(show);
        }
    });
    m_fitTrackAction =
        action(tr("Show the &Whole Chromosome"), [this] { m_trackView->zoomToFit(); });
    m_labelBackgroundAction =
        new QAction(tr("&Label Background-like Runs in the Segmentation"), this);
    m_labelBackgroundAction->setCheckable(true);
    m_labelBackgroundAction->setChecked(true);
    m_labelBackgroundAction->setToolTip(
        tr("Runs of the foreground-specific HMM that a background-like component (ω ≤ 0) "
           "explains better are labelled with that component"));
    connect(m_labelBackgroundAction, &QAction::toggled, m_controller,
            &ChromatinController::setLabelBackgroundRuns);

    // The views' own context menus offer their exports.
    const auto addContextActions = [](QWidget* widget, QList<QAction*> actions) {
        widget->setContextMenuPolicy(Qt::ActionsContextMenu);
        widget->addActions(actions);
    };
    addContextActions(m_emissionView,
                      {m_exportEmissionAction, m_exportEmissionTableAction, m_exportPairAction});
    addContextActions(m_referenceView, {m_exportPairAction});
    addContextActions(m_transitionView, {m_exportTransitionAction, m_exportTransitionTableAction});
    addContextActions(m_enrichmentView, {m_exportEnrichmentAction, m_exportEnrichmentTableAction});
    addContextActions(m_weightsChart, {m_exportWeightsAction});
    addContextActions(m_trackView, {m_exportTrackAction, m_exportBedAction});
}

QIcon ChromatinWorkspace::icon() const {
    return style()->standardIcon(QStyle::SP_DriveHDIcon);
}

int ChromatinWorkspace::openPreference(const QString& path) const {
    const QFileInfo info(path);
    if (info.isDir()) {
        return 0;
    }
    if (isBedPath(path) || isBinarizedPath(path) || ChromatinSession::looksLikeSession(path)) {
        return 2;
    }
    const QString name = info.fileName().toLower();
    return name.endsWith(QLatin1String(".txt")) || name.endsWith(QLatin1String(".txt.gz")) ? 1 : 0;
}

bool ChromatinWorkspace::canOpen(const QString& path) const {
    return openPreference(path) > 0;
}

void ChromatinWorkspace::openPath(const QString& path) {
    if (isBedPath(path)) {
        addAnnotations({path});
        return;
    }
    if (ChromatinSession::looksLikeSession(path)) {
        QString error;
        const std::optional<ChromatinSession> session = ChromatinSession::load(path, &error);
        if (!session) {
            ErrorReporter::report(this, tr("Could not open the analysis"), error);
            return;
        }
        openSession(*session);
        emit pathOpened(path);
        return;
    }
    openTracks({path});
}

void ChromatinWorkspace::openInteractive() {
    QSettings settings;
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open Chromatin Tracks"), settings.value(kTrackDirectoryKey).toString(),
        tr("ChromHMM binarized files (*_binary.txt *_binary.txt.gz *.txt *.txt.gz);;Analysis "
           "descriptions (*.json);;All files (*)"));
    if (paths.isEmpty()) {
        return;
    }
    settings.setValue(kTrackDirectoryKey, QFileInfo(paths.front()).absolutePath());
    if (paths.size() == 1 &&
        (ChromatinSession::looksLikeSession(paths.front()) || isBedPath(paths.front()))) {
        openPath(paths.front());
        return;
    }
    openTracks(paths);
}

bool ChromatinWorkspace::openDemo() {
    const QString path = chromatinDemoPath();
    if (path.isEmpty()) {
        ErrorReporter::report(this, tr("Could not open the demo"),
                              tr("resources/demo/chromatin/demo.json: not found (set "
                                 "CX_RESOURCE_DIR to the folder that holds demo/)"));
        return false;
    }
    QString error;
    const std::optional<ChromatinSession> session = ChromatinSession::load(path, &error);
    if (!session) {
        ErrorReporter::report(this, tr("Could not open the demo"), error);
        return false;
    }
    openSession(*session);
    return true;
}

void ChromatinWorkspace::openTracks(const QStringList& paths) {
    if (paths.isEmpty()) {
        return;
    }
    m_pendingSession.reset();
    m_loadingTracks = paths;
    m_interactiveOpen = true;
    m_controller->loadTracks(paths);
    emit settledChanged();
}

void ChromatinWorkspace::addAnnotations(const QStringList& paths) {
    QStringList added;
    for (const QString& path : paths) {
        if (path.isEmpty() || m_annotationModel->rowOf(path) >= 0) {
            continue;
        }
        AnnotationListModel::Entry entry;
        entry.path = path;
        entry.name = annotationDisplayName(path);
        const QString lower = entry.name.toLower();
        // Genes and TSS make the classic lanes; everything goes into the enrichment table.
        entry.lane = lower.contains(QLatin1String("gene")) ||
                     (lower.contains(QLatin1String("tss")) && !lower.contains(QLatin1String("kb")));
        entry.enrichment = true;
        m_annotationModel->addEntry(entry);
        added << path;
    }
    if (!added.isEmpty()) {
        m_controller->addAnnotations(added);
        m_controller->setEnrichmentAnnotations(m_annotationModel->enrichmentPaths());
    }
    emit settledChanged();
}

void ChromatinWorkspace::openSession(const ChromatinSession& session) {
    // Nothing changes until the tracks are read: a session whose tracks fail to load leaves
    // the current analysis as it was. The annotations are read meanwhile (prefetched), but
    // listed with their roles only once the tracks are there (applySession).
    m_pendingSession = session;
    m_interactiveOpen = false;
    m_loadingTracks = session.trackPaths;
    QStringList paths;
    for (const ChromatinSession::Annotation& annotation : session.annotations) {
        paths << annotation.path;
    }
    m_controller->addAnnotations(paths);
    m_controller->loadTracks(session.trackPaths);
    emit settledChanged();
}

void ChromatinWorkspace::applySession(const ChromatinSession& session) {
    m_analysisPanel->setParameters(session.parameters);
    m_controller->setParameters(session.parameters);
    m_analysisPanel->setDecodingMethod(session.decoding);
    m_controller->setDecodingMethod(session.decoding);
    setGamma(session.gamma);
    using Column = AnnotationListModel::Column;
    for (const ChromatinSession::Annotation& annotation : session.annotations) {
        const AnnotationSource* loaded = m_controller->annotation(annotation.path);
        if (!loaded && !m_controller->isAnnotationLoading(annotation.path)) {
            continue; // reading it failed (reported)
        }
        if (m_annotationModel->rowOf(annotation.path) < 0) {
            AnnotationListModel::Entry entry;
            entry.path = annotation.path;
            entry.name = annotationDisplayName(annotation.path);
            m_annotationModel->addEntry(entry);
        }
        // The check boxes' signals would re-apply the regions once per box; applied below.
        const QSignalBlocker block(m_annotationModel);
        m_annotationModel->setChecked(annotation.path, Column::ForegroundColumn,
                                      annotation.foreground);
        m_annotationModel->setChecked(annotation.path, Column::BackgroundColumn,
                                      annotation.background);
        m_annotationModel->setChecked(annotation.path, Column::LaneColumn, annotation.lane);
        m_annotationModel->setChecked(annotation.path, Column::EnrichmentColumn,
                                      annotation.enrichment);
        if (loaded) {
            m_annotationModel->setLoaded(*loaded);
        }
    }
    m_dataPanel->annotationView()->viewport()->update();
    m_controller->setEnrichmentAnnotations(m_annotationModel->enrichmentPaths());
    refreshLanes();
    QString chrom;
    qint64 start = 0;
    qint64 end = 0;
    if (parseGenomicRegion(session.region, &chrom, &start, &end)) {
        const int index = m_chromosome->findText(chrom);
        if (index >= 0) {
            m_chromosome->setCurrentIndex(index);
            m_trackView->setChromosome(chrom);
        }
        m_trackView->setRange(start, end);
    }
}

void ChromatinWorkspace::setGamma(double gamma) {
    m_analysisPanel->setGamma(gamma);
    m_weightsChart->setCurrentGamma(gamma);
    m_controller->setGamma(gamma);
}

void ChromatinWorkspace::applyRegionChoice() {
    m_regionTimer->stop();
    if (!m_controller->data().isValid()) {
        return;
    }
    m_controller->applyRegions(m_annotationModel->regionChoice());
    emit settledChanged();
}

void ChromatinWorkspace::syncAnnotationChecks() {
    const RegionChoice choice = m_controller->regions();
    const QSignalBlocker block(m_annotationModel);
    for (const AnnotationListModel::Entry& entry : m_annotationModel->entries()) {
        m_annotationModel->setChecked(entry.path, AnnotationListModel::ForegroundColumn,
                                      choice.foreground.contains(entry.path));
        m_annotationModel->setChecked(entry.path, AnnotationListModel::BackgroundColumn,
                                      choice.background.contains(entry.path));
    }
    // The blocker swallowed dataChanged: repaint the check boxes.
    m_dataPanel->annotationView()->viewport()->update();
}

QStringList ChromatinWorkspace::discoverAnnotations(const QStringList& trackPaths) const {
    // ChromHMM's own layout: <data>/COORDS/<assembly>/*.bed.gz next to the binarized files.
    if (trackPaths.isEmpty()) {
        return {};
    }
    const QFileInfo first(trackPaths.front());
    const QDir coords(first.absoluteDir().absoluteFilePath(QStringLiteral("COORDS")));
    if (!coords.exists()) {
        return {};
    }
    const QStringList assemblies = coords.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QString chosen;
    if (assemblies.size() == 1) {
        chosen = assemblies.front();
    } else {
        for (const QString& assembly : assemblies) {
            if (first.absoluteFilePath().contains(assembly, Qt::CaseInsensitive)) {
                chosen = assembly;
            }
        }
    }
    if (chosen.isEmpty()) {
        return {};
    }
    const QDir folder(coords.absoluteFilePath(chosen));
    QStringList out;
    for (const QString& name : folder.entryList(
             {QStringLiteral("*.bed"), QStringLiteral("*.bed.gz")}, QDir::Files, QDir::Name)) {
        out << folder.absoluteFilePath(name);
    }
    return out;
}

void ChromatinWorkspace::onDataChanged(const ChromatinDataHandle& data) {
    m_dataPanel->setData(data);
    m_catalog.reset();
    m_marks.clear();
    m_segmentationSlots.clear();
    m_chartSlots.clear();
    if (data.data) {
        m_marks = data.data->markNames;
    }
    m_trackView->setData(data.data);
    {
        const QSignalBlocker block(m_chromosome);
        m_chromosome->clear();
        m_chromosome->addItems(m_trackView->chromosomes());
        m_chromosome->setVisible(m_chromosome->count() > 1);
    }
    refreshLanes();
    if (!data.data) {
        return;
    }
    if (!data.paths.isEmpty()) {
        const QFileInfo info(data.paths.front());
        emit documentTitleChanged(
            data.paths.size() > 1 ? tr("%1 + %2").arg(info.fileName()).arg(data.paths.size() - 1)
                                  : info.fileName());
    }
    emit statusMessage(
        tr("Loaded %1: %2 bins")
            .arg(countOf(static_cast<qint64>(data.data->tracks.size()), tr("track"), tr("tracks")),
                 QLocale().toString(static_cast<qint64>(data.data->totalBins()))));
    if (m_interactiveOpen && data.paths == m_loadingTracks) {
        emit pathOpened(data.paths.front());
        if (m_annotationModel->rowCount() == 0) {
            const QStringList found = discoverAnnotations(data.paths);
            if (!found.isEmpty()) {
                addAnnotations(found);
                emit statusMessage(
                    tr("Found %1 next to the tracks; tick Fg on the regions to contrast")
                        .arg(countOf(static_cast<qint64>(found.size()),
                                     tr("ChromHMM annotation file"),
                                     tr("ChromHMM annotation files"))),
                    8000);
            }
        }
    }
    m_interactiveOpen = false;
    m_loadingTracks.clear();
    if (m_pendingSession) {
        const ChromatinSession session = *m_pendingSession;
        m_pendingSession.reset();
        applySession(session);
    }
    applyRegionChoice();
    emit settledChanged();
}

void ChromatinWorkspace::onMomentsChanged(const MomentsState& moments) {
    m_dataPanel->setMomentsReport(m_controller->moments().get());
    m_analysisPanel->setMaximumComponents(moments.moments->rank());
    m_weightsChart->setMessage(moments.hasBackground()
                                   ? tr("Computing the sweep…")
                                   : tr("No background: γ has no effect. Tick Fg on regions."));
    for (const QString& warning : moments.warnings) {
        emit statusMessage(warning, 8000);
    }
}

void ChromatinWorkspace::onSolutionChanged(const HmmSolution& solution) {
    if (!solution.isValid()) {
        m_emissionModel->clear();
        m_referenceModel->clear();
        m_transitionModel->clear();
        m_enrichmentModel->clear();
        m_weightsChart->setLines({}, 0, ChromatinAnalysisPanel::kSliderMaximum);
        m_trackView->setSegmentation(nullptr, {}, {});
        m_analysisPanel->setInfo(QString());
        emit settledChanged();
        return;
    }
    const cx::ContrastiveHmmResult& result = *solution.result;
    m_catalog.update(result.markProbabilities, result.weights, m_marks);
    const QStringList dropped = m_catalog.takeDroppedNames();
    if (!dropped.isEmpty()) {
        emit statusMessage(tr("The state named “%1” changed its marks too much at this γ; its "
                              "name was reset")
                               .arg(dropped.join(QStringLiteral("”, “"))),
                           8000);
    }
    refreshStateViews();
    // A foreground-specific state whose emission leaves [0, 1] or whose weight leaves [−γ, 1]
    // beyond sampling error (core's validity test) is no state of any HMM: typically near a γ
    // where a large component's weight changes sign and shared states differ between the sides.
    QStringList invalidStates;
    for (int s = 0; s < m_catalog.numSlots(); ++s) {
        const int component = m_catalog.componentOfSlot(s);
        if (!result.isValidComponent(component) && result.weights[component] > 0) {
            invalidStates << m_catalog.name(s);
        }
    }
    m_emissionView->setTitle(
        tr("Contrastive (γ = %1)").arg(solution.gamma, 0, 'f', 2),
        invalidStates.isEmpty()
            ? tr("%1 of %2 states foreground-specific")
                  .arg(result.numSpecific)
                  .arg(result.weights.size())
            : tr("⚠ not a valid state here: %1").arg(invalidStates.join(QStringLiteral(", "))));
    m_lastLatencyMs = static_cast<double>(m_controller->clockMs() - solution.requestedAtMs);
    const MomentsState& moments = *solution.moments;
    m_analysisPanel->setInfo(
        tr("solve %1 ms · view +%2 ms · moments %3 s")
            .arg(solution.solveMs, 0, 'f', 1)
            .arg(m_lastLatencyMs, 0, 'f', 0)
            .arg((moments.classifyMs + moments.momentsMs) / 1000.0, 0, 'f', 2),
        tr("Solve %1 ms (residual %2); %3 foreground and %4 background triples; the moments "
           "(rank %5) are reused for every γ and K")
            .arg(solution.solveMs, 0, 'f', 2)
            .arg(result.residual, 0, 'g', 3)
            .arg(QLocale().toString(moments.moments->foreground.numTriples),
                 QLocale().toString(moments.moments->background.numTriples))
            .arg(moments.moments->rank()));
    emit settledChanged();
}

void ChromatinWorkspace::refreshStateViews() {
    refreshEmissionModels();
    refreshTransitionModel();
    refreshEnrichmentModel();
    refreshSegmentationAppearance();
    refreshWeightsChart(false);
}

void ChromatinWorkspace::refreshEmissionModels() {
    const HmmSolution& solution = m_controller->solution();
    if (!solution.isValid()) {
        return;
    }
    const cx::ContrastiveHmmResult& result = *solution.result;
    QStringList columns;
    for (const std::string& mark : m_marks) {
        columns << QString::fromStdString(mark);
    }
    const int shownSlots = m_catalog.numSlots();
    StateMatrixModel::Content current;
    current.values.resize(shownSlots, result.markProbabilities.cols());
    current.columnLabels = columns;
    current.valueName = tr("P(mark present)");
    for (int s = 0; s < shownSlots; ++s) {
        const int component = m_catalog.componentOfSlot(s);
        current.values.row(s) = result.markProbabilities.row(component);
        current.rowLabels << m_catalog.name(s);
        current.rowColours << m_catalog.colour(s);
        const double weight = result.weights[component];
        current.rowWeights << weight;
        current.rowDimmed << (weight <= 0);
        current.rowSlots << s;
        QString note = weight > 0
                           ? tr("foreground-specific (ω = %1)").arg(weight, 0, 'g', 3)
                           : tr("background-like at this γ (ω = %1 ≤ 0)").arg(weight, 0, 'g', 3);
        if (m_catalog.isRenamed(s)) {
            note += tr(" · automatic name: %1").arg(m_catalog.autoName(s));
        }
        const bool invalid = !result.isValidComponent(component);
        current.rowFlagged << invalid;
        if (invalid) {
            note += tr(" · ⚠ not a valid state: its emission leaves [0, 1] or its weight "
                       "leaves [−γ, 1] by more than sampling error");
        }
        current.rowNotes << note;
    }
    m_emissionModel->setContent(std::move(current));

    // γ = 0 rows in the same order, by matching their emissions to the current states.
    if (!solution.reference) {
        m_referenceModel->clear();
        return;
    }
    const cx::ContrastiveHmmResult& reference = *solution.reference;
    std::vector<int> match(static_cast<size_t>(reference.weights.size()));
    for (size_t i = 0; i < match.size(); ++i) {
        match[i] = static_cast<int>(i);
    }
    if (reference.markProbabilities.rows() == m_catalog.profiles().rows() &&
        reference.markProbabilities.cols() == m_catalog.profiles().cols()) {
        match = cx::matchStates(m_catalog.profiles(), reference.markProbabilities);
    }
    StateMatrixModel::Content left;
    left.values.resize(static_cast<Eigen::Index>(match.size()), reference.markProbabilities.cols());
    left.columnLabels = columns;
    left.valueName = tr("P(mark present)");
    QMap<QString, int> seen;
    for (size_t i = 0; i < match.size(); ++i) {
        const int row = match[i];
        left.values.row(static_cast<Eigen::Index>(i)) = reference.markProbabilities.row(row);
        StateClass guess = classifyChromatinState(reference.markProbabilities.row(row), m_marks);
        if (guess.name.isEmpty()) {
            guess.name = tr("State %1").arg(i + 1);
            guess.colour = QColor(0xa0, 0xa6, 0xad);
        }
        const int repeat = ++seen[guess.name];
        left.rowLabels << (repeat > 1 ? QStringLiteral("%1 %2").arg(guess.name).arg(repeat)
                                      : guess.name);
        left.rowColours << guess.colour;
        left.rowWeights << reference.weights[row];
        left.rowDimmed << (reference.weights[row] <= 0);
        left.rowSlots << static_cast<int>(i);
        left.rowNotes << tr("γ = 0 state matched to the contrastive row “%1”")
                             .arg(m_catalog.name(static_cast<int>(i)));
    }
    m_referenceModel->setContent(std::move(left));
}

void ChromatinWorkspace::refreshTransitionModel() {
    const HmmSolution& solution = m_controller->solution();
    if (!solution.isValid() || solution.result->numSpecific == 0) {
        m_transitionModel->clear();
        m_transitionView->setPlaceholder(tr("No foreground-specific state at this γ: lower γ."));
        return;
    }
    const cx::ContrastiveHmmResult& result = *solution.result;
    // Specific states only (the HMM's states), in display order.
    std::vector<int> shownSlots;
    for (int s = 0; s < m_catalog.numSlots(); ++s) {
        if (m_catalog.componentOfSlot(s) < result.numSpecific) {
            shownSlots.push_back(s);
        }
    }
    StateMatrixModel::Content content;
    const auto n = static_cast<Eigen::Index>(shownSlots.size());
    content.values.resize(n, n);
    content.valueName = tr("P(next bin's state)");
    content.rowHeader = tr("from \\ to");
    for (Eigen::Index i = 0; i < n; ++i) {
        const int from = m_catalog.componentOfSlot(shownSlots[static_cast<size_t>(i)]);
        for (Eigen::Index j = 0; j < n; ++j) {
            const int to = m_catalog.componentOfSlot(shownSlots[static_cast<size_t>(j)]);
            content.values(i, j) = result.hmm.transitions(from, to);
        }
        const int slot = shownSlots[static_cast<size_t>(i)];
        content.rowLabels << m_catalog.name(slot);
        content.columnLabels << m_catalog.name(slot);
        content.rowColours << m_catalog.colour(slot);
        content.rowSlots << slot;
    }
    m_transitionModel->setContent(std::move(content));
}

void ChromatinWorkspace::refreshEnrichmentModel() {
    const auto& table = m_controller->enrichment();
    const SegmentationHandle& segmentation = m_controller->segmentation();
    if (!table || !segmentation || table->generation != segmentation->generation ||
        m_segmentationSlots.size() != static_cast<size_t>(table->numStates())) {
        m_enrichmentModel->clear();
        return;
    }
    // Rows in display order, for the states the segmentation used (background-like states
    // that labelled no run are left out).
    std::vector<int> order;
    for (int state = 0; state < table->numStates(); ++state) {
        if (table->stateBins[static_cast<size_t>(state)] > 0) {
            order.push_back(state);
        }
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return m_segmentationSlots[static_cast<size_t>(a)] <
               m_segmentationSlots[static_cast<size_t>(b)];
    });
    StateMatrixModel::Content content;
    content.values.resize(static_cast<Eigen::Index>(order.size()), table->numAnnotations());
    content.columnLabels = table->annotations;
    content.valueName = tr("fold enrichment");
    content.decimals = 1;
    for (size_t r = 0; r < order.size(); ++r) {
        const int state = order[r];
        const int slot = m_segmentationSlots[static_cast<size_t>(state)];
        const bool background = state >= segmentation->numSpecific;
        content.values.row(static_cast<Eigen::Index>(r)) = table->fold.row(state);
        content.rowLabels << m_catalog.name(slot);
        content.rowColours << m_catalog.colour(slot);
        const double share =
            table->totalBins > 0
                ? 100.0 * static_cast<double>(table->stateBins[static_cast<size_t>(state)]) /
                      static_cast<double>(table->totalBins)
                : 0.0;
        content.rowWeights << share;
        content.rowDimmed << background;
        content.rowSlots << slot;
        content.rowNotes << tr("%1 bins (%2 % of all)%3")
                                .arg(QLocale().toString(static_cast<qint64>(
                                    table->stateBins[static_cast<size_t>(state)])))
                                .arg(share, 0, 'f', 2)
                                .arg(background ? tr(" · background-like: runs this component "
                                                     "explains better than the specific HMM's "
                                                     "state")
                                                : QString());
    }
    m_enrichmentModel->setContent(std::move(content));
    m_enrichmentView->setTitle(
        tr("Overlap enrichment"),
        tr("%1 segmentation").arg(QString::fromLatin1(cx::toString(segmentation->method))));
}

void ChromatinWorkspace::refreshSegmentationAppearance() {
    QVector<QColor> colours;
    QStringList names;
    for (int slot : m_segmentationSlots) {
        colours << m_catalog.colour(slot);
        names << m_catalog.name(slot);
    }
    m_trackView->setStateAppearance(colours, names);
}

void ChromatinWorkspace::onSegmentationChanged(const SegmentationHandle& segmentation) {
    m_segmentationSlots.clear();
    if (!segmentation) {
        m_trackView->setSegmentation(nullptr, {}, {});
        m_trackView->setPlaceholder(
            tr("No foreground-specific state at this γ, so nothing to segment: lower γ."));
        m_enrichmentModel->clear();
        emit settledChanged();
        return;
    }
    // The controller drops decodes of superseded solutions, so the shown solution is the one
    // decoded and its state → slot map applies.
    for (int s = 0; s < segmentation->numStates; ++s) {
        m_segmentationSlots.push_back(std::max(0, m_catalog.slotOfComponent(s)));
    }
    QVector<QColor> colours;
    QStringList names;
    for (int slot : m_segmentationSlots) {
        colours << m_catalog.colour(slot);
        names << m_catalog.name(slot);
    }
    m_trackView->setSegmentation(segmentation, colours, names);
    const qint64 bins = segmentation->data ? segmentation->data->totalBins() : 0;
    emit statusMessage(tr("Segmented %1 bins (%2) in %3 ms; %4 % in background-like runs")
                           .arg(QLocale().toString(bins))
                           .arg(QString::fromLatin1(cx::toString(segmentation->method)))
                           .arg(segmentation->decodeMs, 0, 'f', 0)
                           .arg(bins > 0
                                    ? 100.0 * static_cast<double>(segmentation->backgroundBins) /
                                          static_cast<double>(bins)
                                    : 0.0,
                                0, 'f', 1),
                       8000);
    emit settledChanged();
}

void ChromatinWorkspace::onEnrichmentChanged(const EnrichmentTable& /*table*/) {
    refreshEnrichmentModel();
    emit settledChanged();
}

void ChromatinWorkspace::onSweepChanged(const WeightSweep& sweep) {
    if (sweep.isEmpty()) {
        m_weightsChart->setLines({}, 0, ChromatinAnalysisPanel::kSliderMaximum);
        m_chartSlots.clear();
        const auto moments = m_controller->moments();
        m_weightsChart->setMessage(
            m_controller->isSweepRunning()
                ? tr("Computing the sweep…")
                : (moments && !moments->hasBackground()
                       ? tr("No background: γ has no effect. Tick Fg on regions.")
                       : tr("Weights appear once a model is fitted.")));
        emit settledChanged();
        return;
    }
    refreshWeightsChart(true);
    emit settledChanged();
}

void ChromatinWorkspace::refreshWeightsChart(bool force) {
    const WeightSweep& sweep = m_controller->sweep();
    const HmmSolution& solution = m_controller->solution();
    if (sweep.isEmpty() || !solution.isValid() || sweep.numTracks() != m_catalog.numSlots()) {
        if (force) {
            m_weightsChart->setLines({}, 0, ChromatinAnalysisPanel::kSliderMaximum);
            m_chartSlots.clear();
        }
        return;
    }
    // Which sweep track is which display slot: match at the grid point nearest the shown γ.
    int nearest = 0;
    for (int i = 0; i < sweep.gammas.size(); ++i) {
        if (std::abs(sweep.gammas[i] - solution.gamma) <
            std::abs(sweep.gammas[nearest] - solution.gamma)) {
            nearest = i;
        }
    }
    const Eigen::MatrixXd& profiles = sweep.profiles[static_cast<size_t>(nearest)];
    if (profiles.cols() != m_catalog.profiles().cols()) {
        return;
    }
    const std::vector<int> trackOfSlot = cx::matchStates(m_catalog.profiles(), profiles);
    const QStringList names = m_catalog.names();
    if (!force && trackOfSlot == m_chartSlots && names == m_chartNames) {
        m_weightsChart->setCurrentGamma(solution.gamma);
        return; // same lines: only the marker moves
    }
    m_chartSlots = trackOfSlot;
    m_chartNames = names;
    QList<StateWeightsChartView::Line> lines;
    for (int s = 0; s < m_catalog.numSlots(); ++s) {
        StateWeightsChartView::Line line;
        line.name = m_catalog.name(s);
        line.colour = m_catalog.colour(s);
        const int track = trackOfSlot[static_cast<size_t>(s)];
        for (int i = 0; i < sweep.gammas.size(); ++i) {
            line.points << QPointF(sweep.gammas[i], sweep.weights[static_cast<size_t>(i)][track]);
        }
        lines << line;
    }
    // Grid points without a valid model, as γ ranges reaching halfway to the neighbours.
    QList<StateWeightsChartView::GammaRange> unreliable;
    const int n = sweep.gammas.size();
    for (int i = 0; i < n && static_cast<size_t>(i) < sweep.specificInvalidMass.size(); ++i) {
        if (!(sweep.specificInvalidMass[static_cast<size_t>(i)] > 0)) {
            continue;
        }
        const double from = i > 0 ? (sweep.gammas[i - 1] + sweep.gammas[i]) / 2 : sweep.gammas[i];
        const double to = i + 1 < n ? (sweep.gammas[i] + sweep.gammas[i + 1]) / 2 : sweep.gammas[i];
        if (!unreliable.isEmpty() && unreliable.back().second >= from) {
            unreliable.back().second = to;
        } else {
            unreliable.append({from, to});
        }
    }
    m_weightsChart->setCurrentGamma(solution.gamma);
    m_weightsChart->setLines(lines, sweep.gammas.front(), sweep.gammas.back(), unreliable);
}

void ChromatinWorkspace::onStateRenamed(int slot, const QString& name) {
    m_catalog.rename(slot, name);
    refreshStateViews();
}

void ChromatinWorkspace::refreshLanes() {
    QVector<TrackLane> lanes;
    for (const QString& path : m_annotationModel->lanePaths()) {
        if (const AnnotationSource* source = m_controller->annotation(path)) {
            lanes << TrackLane{source->name, source->lanes, laneColour(source->name)};
        }
    }
    m_trackView->setLanes(lanes);
}

void ChromatinWorkspace::updateRangeControls() {
    const qint64 start = m_trackView->rangeStart();
    const qint64 end = m_trackView->rangeEnd();
    const qint64 length = m_trackView->chromosomeLength();
    if (length <= 0) {
        m_rangeLabel->setText(tr("Drag to scroll, wheel or +/− to zoom"));
        m_scroll->setRange(0, 0);
        return;
    }
    m_rangeLabel->setText(tr("%1:%2–%3 (%4) · drag to scroll, wheel to zoom")
                              .arg(m_trackView->chromosome(), formatBp(start), formatBp(end),
                                   formatWidth(end - start)));
    const QSignalBlocker block(m_scroll);
    const auto pageKb = static_cast<int>((end - start) / 1000);
    m_scroll->setRange(0, static_cast<int>(std::max<qint64>(0, (length - (end - start)) / 1000)));
    m_scroll->setPageStep(std::max(1, pageKb));
    m_scroll->setSingleStep(std::max(1, pageKb / 10));
    m_scroll->setValue(static_cast<int>(start / 1000));
}

QString ChromatinWorkspace::segmentationBed() const {
    const SegmentationHandle& segmentation = m_controller->segmentation();
    if (!segmentation) {
        return {};
    }
    QStringList names;
    QVector<QColor> colours;
    for (int slot : m_segmentationSlots) {
        names << m_catalog.name(slot);
        colours << m_catalog.colour(slot);
    }
    return segmentationBed9(*segmentation, names, colours);
}

void ChromatinWorkspace::exportSegmentationBed() {
    if (!m_controller->segmentation()) {
        ErrorReporter::report(this, tr("Nothing to export"),
                              tr("No segmentation yet: open tracks and fit a model first."));
        return;
    }
    const QString text = segmentationBed();
    exportTextInteractively(this, tr("Segmentation"), QStringLiteral("segmentation"),
                            {tr("BED files (*.bed)")}, [text](const QString&) { return text; });
}

void ChromatinWorkspace::exportEmissionPair() {
    HeatmapView* left = m_referenceView;
    HeatmapView* right = m_emissionView;
    ImageExportDialog::exportInteractively(
        this, tr("Emission Heatmaps"), QStringLiteral("emissions_fig2b"),
        [left, right](QPainter& painter, const QRectF& target) {
            const double half = target.width() / 2;
            left->paintFigure(painter, QRectF(target.left(), target.top(), half, target.height()));
            right->paintFigure(painter,
                               QRectF(target.left() + half, target.top(), half, target.height()));
        });
}

void ChromatinWorkspace::exportTable(StateMatrixModel* model, const QString& what,
                                     const QString& baseName) {
    if (model->rowCount() == 0) {
        ErrorReporter::report(this, tr("Nothing to export"),
                              tr("The %1 is empty: fit a model first.").arg(what.toLower()));
        return;
    }
    exportTextInteractively(
        this, what, baseName,
        {tr("Tab-separated values (*.tsv)"), tr("Comma-separated values (*.csv)")},
        [model](const QString& suffix) {
            return model->delimited(suffix == QLatin1String("csv") ? QLatin1Char(',')
                                                                   : QLatin1Char('\t'));
        });
}

QList<QAction*> ChromatinWorkspace::exportActions() const {
    return {m_exportPairAction,
            m_exportEmissionAction,
            m_exportTransitionAction,
            m_exportEnrichmentAction,
            m_exportWeightsAction,
            m_exportTrackAction,
            m_exportSeparator,
            m_exportBedAction,
            m_exportEmissionTableAction,
            m_exportTransitionTableAction,
            m_exportEnrichmentTableAction};
}

QList<QAction*> ChromatinWorkspace::viewActions() const {
    return {m_sortStatesAction, m_showValuesAction, m_fitTrackAction, m_labelBackgroundAction};
}

void ChromatinWorkspace::cancelTask() {
    m_controller->cancelTask();
}

bool ChromatinWorkspace::isSettled() const {
    if (m_pendingSession || !m_loadingTracks.isEmpty() || m_regionTimer->isActive() ||
        !m_controller->isIdle()) {
        return false;
    }
    return m_controller->solution().isValid() || !m_controller->data().isValid();
}

void ChromatinWorkspace::saveSettings() const {
    QSettings settings;
    settings.setValue(kMainSplitterKey, m_mainSplitter->saveState());
    settings.setValue(kResultSplitterKey, m_resultSplitter->saveState());
    settings.setValue(kMiddleSplitterKey, m_middleSplitter->saveState());
    const ChromatinModelParameters p = m_analysisPanel->parameters();
    settings.setValue(kComponentsKey, p.numComponents);
    settings.setValue(kSeedKey, static_cast<qulonglong>(p.seed));
    settings.setValue(kDecodeKey, static_cast<int>(m_analysisPanel->decodingMethod()));
    settings.setValue(kShowValuesKey, m_showValuesAction->isChecked());
}

void ChromatinWorkspace::restoreSettings() {
    QSettings settings;
    m_mainSplitter->restoreState(settings.value(kMainSplitterKey).toByteArray());
    m_resultSplitter->restoreState(settings.value(kResultSplitterKey).toByteArray());
    m_middleSplitter->restoreState(settings.value(kMiddleSplitterKey).toByteArray());
    ChromatinModelParameters p = m_analysisPanel->parameters();
    p.numComponents = std::clamp(settings.value(kComponentsKey, p.numComponents).toInt(), 2, 20);
    p.seed = settings.value(kSeedKey, static_cast<qulonglong>(p.seed)).toULongLong();
    m_analysisPanel->setParameters(p);
    m_controller->setParameters(p);
    const int decode = settings.value(kDecodeKey, 0).toInt();
    const auto method = decode == static_cast<int>(cx::DecodingMethod::Viterbi)
                            ? cx::DecodingMethod::Viterbi
                            : cx::DecodingMethod::Posterior;
    m_analysisPanel->setDecodingMethod(method);
    m_controller->setDecodingMethod(method);
    m_showValuesAction->setChecked(settings.value(kShowValuesKey, true).toBool());
}

} // namespace cx::ui
