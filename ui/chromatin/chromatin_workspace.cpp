// ChromatinWorkspace: its layout, opening tracks and annotations, and the views' refreshes from
// the controller's results. The wiring is in chromatin_workspace_wiring.cpp, menus and exports in
// chromatin_workspace_actions.cpp, the session in chromatin_workspace_session.cpp.
#include "ui/chromatin/chromatin_workspace.h"

#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_analysis.h"
#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_data_panel.h"
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/chromatin/chromatin_results_view.h"
#include "ui/dialogs/image_export_dialog.h"
#include "ui/dialogs/text_export.h"
#include "ui/framework/error_reporter.h"
#include "ui/framework/workspace_support.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/panel_row.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/plural.h"
#include "ui/widgets/state_matrix_model.h"

#include "core/hmm/contrastive_hmm.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
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

} // namespace

ChromatinWorkspace::ChromatinWorkspace(QWidget* parent) : SectionedWorkspace(parent) {
    setObjectName(QStringLiteral("chromatinWorkspace"));
    m_controller = new ChromatinController(this);
    m_controller->setSweepGammas(chromatinSweepGrid(ChromatinAnalysisPanel::kSliderMaximum));
    m_annotationModel = new AnnotationListModel(this);
    m_emissionModel = new StateMatrixModel(this);
    m_referenceModel = new StateMatrixModel(this);
    m_transitionModel = new StateMatrixModel(this);
    m_enrichmentModel = new StateMatrixModel(this);

    m_dataPanel = new ChromatinDataPanel(this);
    m_dataPanel->setAnnotationModel(m_annotationModel);
    m_analysisPanel = new ChromatinAnalysisPanel(this);

    m_results = new ChromatinResultsView(m_referenceModel, m_emissionModel, m_transitionModel,
                                         m_enrichmentModel, this);
    m_referenceView = m_results->referenceView();
    m_emissionView = m_results->emissionView();
    m_transitionView = m_results->transitionView();
    m_enrichmentView = m_results->enrichmentView();
    m_weightsChart = m_results->weightsChart();
    // Valid weights lie in [−γ, 1]: the axis may reach −γ_max (and as far up, so that what a
    // junk component does inside a "no valid model" band stays on the plot).
    m_weightsChart->setWeightLimit(ChromatinAnalysisPanel::kSliderMaximum);
    m_trackView = m_results->trackView();
    connect(m_results, &ChromatinResultsView::exportBedRequested, this,
            &ChromatinWorkspace::exportSegmentationBed);

    m_mainSplitter = layOutWorkspace(this, m_dataPanel, 270, m_analysisPanel,
                                     verticalScrollArea(m_results), {280, 1160});

    // The region choice is applied shortly after the last check box click: the moment pass
    // is fast, but several clicks in a row should start it once.
    m_regionTimer = new QTimer(this);
    m_regionTimer->setSingleShot(true);
    m_regionTimer->setInterval(250);
    connect(m_regionTimer, &QTimer::timeout, this, &ChromatinWorkspace::applyRegionChoice);

    buildActions();

    connectControllerSignals();
    connectViewSignals();

    const ChromatinModelParameters parameters = m_analysisPanel->parameters();
    m_controller->setParameters(parameters);
    m_controller->setGamma(m_analysisPanel->gamma());
    m_controller->setDecodingMethod(m_analysisPanel->decodingMethod());
    connectSessionSignals();
}

ChromatinWorkspace::~ChromatinWorkspace() = default;

QString ChromatinWorkspace::trackDirectoryKey() {
    return QStringLiteral("chromatin.open.directory");
}

QIcon ChromatinWorkspace::icon() const {
    return style()->standardIcon(QStyle::SP_DriveHDIcon);
}

int ChromatinWorkspace::openPreference(const QString& path) const {
    const QFileInfo info(path);
    if (info.isDir()) {
        return 0;
    }
    if (isBedPath(path) || isBinarizedPath(path) || isAnchorPath(path)) {
        return 2;
    }
    const QString name = info.fileName().toLower();
    return name.endsWith(QLatin1String(".txt")) || name.endsWith(QLatin1String(".txt.gz")) ? 1 : 0;
}

bool ChromatinWorkspace::canOpen(const QString& path) const {
    return openPreference(path) > 0;
}

void ChromatinWorkspace::openPath(const QString& path) {
    if (isBedPath(path) || isAnchorPath(path)) {
        addAnnotations({path});
        return;
    }
    openTracks({path});
}

void ChromatinWorkspace::openInteractive() {
    QSettings settings;
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open Chromatin Tracks"), settings.value(trackDirectoryKey()).toString(),
        tr("ChromHMM binarized files (*_binary.txt *_binary.txt.gz *.txt *.txt.gz);;All files "
           "(*)"));
    if (paths.isEmpty()) {
        return;
    }
    settings.setValue(trackDirectoryKey(), QFileInfo(paths.front()).absolutePath());
    if (paths.size() == 1 && (isBedPath(paths.front()) || isAnchorPath(paths.front()))) {
        openPath(paths.front());
        return;
    }
    openTracks(paths);
}

void ChromatinWorkspace::openTracks(const QStringList& paths) {
    if (paths.isEmpty()) {
        return;
    }
    beginOpen(paths);
    m_controller->loadTracks(paths);
    emit settledChanged();
}

void ChromatinWorkspace::beginOpen(const QStringList& paths) {
    m_pendingSection.reset();
    m_pendingBootstrap.reset();
    m_loadingTracks = paths;
    m_loadingReads = false;
    // The previous data's annotations go once these tracks are read (BEDs added meanwhile stay).
    m_staleAnnotations.clear();
    for (const AnnotationListModel::Entry& entry : m_annotationModel->entries()) {
        m_staleAnnotations << entry.path;
    }
    m_interactiveOpen = true;
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
    m_results->setChromosomes(m_trackView->chromosomes());
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
    if (m_interactiveOpen && (data.paths == m_loadingTracks || (m_loadingReads && data.reads))) {
        if (data.paths.size() == 1) {
            emit pathOpened(data.paths.front());
        } else {
            emit pathsOpened(data.paths);
        }
        // New data replaces the old completely: the previous data's annotations (e.g. the
        // demo's 0–30 Mb genes) would silently define a wrong foreground on these tracks.
        m_sessionBase = {};
        removeAnnotations(m_staleAnnotations);
        m_staleAnnotations.clear();
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
    m_loadingReads = false;
    m_loadingTracks.clear();
    if (m_pendingSection) {
        const cx::ChromatinSection section = *m_pendingSection;
        m_pendingSection.reset();
        applySection(section);
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
        clearEnrichmentModels();
        m_weightsChart->setLines({}, 0, ChromatinAnalysisPanel::kSliderMaximum);
        m_trackView->setSegmentation(nullptr, {}, {});
        m_analysisPanel->setInfo(QString());
        emit settledChanged();
        return;
    }
    const cx::ContrastiveHmmResult& result = *solution.result;
    // Names and colours follow the γ path's state identities once the path is there.
    const WeightSweep& sweep = m_controller->sweep();
    m_catalog.setPath(sweep.path, m_marks);
    m_catalog.update(result.markProbabilities, result.weights, m_marks,
                     shownIdentities(sweep, solution));
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
    // The segmentation's verdict belongs to the solution it was decoded from: cleared until
    // this solution's segmentation arrives.
    m_contradictedStates.clear();
    refreshContrastiveTitle();
    m_lastLatencyMs = static_cast<double>(m_controller->clockMs() - solution.requestedAtMs);
    const MomentsState& moments = *solution.moments;
    m_analysisPanel->setInfo(
        tr("solve %1 ms%4 · view +%2 ms · moments %3 s")
            .arg(solution.solveMs, 0, 'f', 1)
            .arg(m_lastLatencyMs, 0, 'f', 0)
            .arg((moments.classifyMs + moments.momentsMs) / 1000.0, 0, 'f', 2)
            .arg(solution.onPath ? tr(" on the γ path") : QString()),
        tr("Solve %1 ms (residual %2); %3 foreground and %4 background triples; the moments "
           "(rank %5) are reused for every γ and K.\n%6")
            .arg(solution.solveMs, 0, 'f', 2)
            .arg(result.residual, 0, 'g', 3)
            .arg(QLocale().toString(moments.moments->foreground.numTriples),
                 QLocale().toString(moments.moments->background.numTriples))
            .arg(moments.moments->rank())
            .arg(!solution.onPath ? tr("Solved from fresh starts (the γ path is still being "
                                       "computed, or there is no background).")
                 : solution.continued
                     ? tr("On the γ path: continued from the states at the nearest grid γ "
                          "(a fresh solve was checked and was not better), so states keep "
                          "their identity as γ moves.")
                     : tr("On the γ path: a fresh solve explained the data better than the "
                          "continued one here.")));
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
    m_emissionModel->setContent(
        emissionContent(*solution.result, m_catalog, m_marks,
                        slotStabilities(m_controller->sweep(), solution.gamma, m_catalog)));
    if (!solution.reference) {
        m_referenceModel->clear();
        return;
    }
    StateMatrixModel::Content left =
        referenceContent(*solution.reference, m_catalog, m_marks,
                         referenceIdentities(m_controller->sweep(), *solution.reference));
    const auto& refinement = m_controller->refinement();
    if (refinement && refinement->epoch == solution.epoch) {
        QVector<QColor> shown; // a state only the refinement has gets a colour of its own
        for (int slot = 0; slot < m_catalog.numSlots(); ++slot) {
            shown << m_catalog.colour(slot);
        }
        left = refinedReferenceContent(left, refinement->model, m_marks, shown);
    }
    m_referenceModel->setContent(std::move(left));
}

void ChromatinWorkspace::refreshReferenceTitle(int runningRound) {
    const QString base = tr("Foreground only (γ = 0)");
    const auto& refinement = m_controller->refinement();
    if (m_controller->isRefining()) {
        m_referenceView->setTitle(base +
                                      tr(" · Baum–Welch round %1…").arg(std::max(0, runningRound)),
                                  tr("spectral until the likelihood refinement finishes"));
    } else if (refinement) {
        const cx::RefinedHmm& model = refinement->model;
        const double startPerBin =
            model.bins > 0 ? model.startLogLikelihood() / static_cast<double>(model.bins) : 0;
        m_referenceView->setTitle(
            base + (model.rounds == 1
                        ? tr(" · Baum–Welch, 1 iteration, log-lik/bin %1")
                        : tr(" · Baum–Welch, %1 iterations, log-lik/bin %2").arg(model.rounds))
                       .arg(model.logLikelihoodPerBin(), 0, 'f', 4),
            tr("%1 from the spectral start (log-lik/bin %2)")
                .arg(
                    model.converged
                        ? tr("converged (relative gain < %1)").arg(refinement->tolerance, 0, 'g', 2)
                        : tr("stopped at %1 rounds").arg(refinement->maxRounds))
                .arg(startPerBin, 0, 'f', 4));
    } else {
        m_referenceView->setTitle(base);
    }
}

void ChromatinWorkspace::refreshTransitionModel() {
    const HmmSolution& solution = m_controller->solution();
    if (!solution.isValid() || solution.result->numSpecific == 0) {
        m_transitionModel->clear();
        m_transitionView->setPlaceholder(tr("No foreground-specific state at this γ: lower γ."));
        return;
    }
    m_transitionModel->setContent(transitionContent(*solution.result, m_catalog));
}

void ChromatinWorkspace::refreshEnrichmentModel() {
    const auto& table = m_controller->enrichment();
    const SegmentationHandle& segmentation = m_controller->segmentation();
    if (!table || !segmentation) {
        clearEnrichmentModels();
        return;
    }
    auto content = enrichmentContent(*table, *segmentation, m_segmentationSlots, m_catalog);
    if (!content) {
        clearEnrichmentModels(); // the table is for another segmentation
        return;
    }
    m_enrichmentModel->setContent(std::move(*content));
    m_enrichmentView->setTitle(tr("Overlap enrichment"), enrichmentSubtitle(*table));
    refreshNeighborhoodViews(&*table);
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

void ChromatinWorkspace::refreshContrastiveTitle() {
    const HmmSolution& solution = m_controller->solution();
    if (!solution.isValid()) {
        return;
    }
    m_emissionView->setTitle(
        tr("Contrastive (γ = %1)").arg(solution.gamma, 0, 'f', 2),
        contrastiveSubtitle(*solution.result, m_catalog, m_contradictedStates,
                            slotStabilities(m_controller->sweep(), solution.gamma, m_catalog)));
}

void ChromatinWorkspace::onSegmentationChanged(const SegmentationHandle& segmentation) {
    m_segmentationSlots.clear();
    m_contradictedStates.clear();
    if (!segmentation) {
        m_trackView->setSegmentation(nullptr, {}, {});
        m_trackView->setPlaceholder(
            tr("No foreground-specific state at this γ, so nothing to segment: lower γ."));
        clearEnrichmentModels();
        emit settledChanged();
        return;
    }
    // The controller drops decodes of superseded solutions, so the shown solution is the one
    // decoded and its state → slot map applies.
    m_segmentationSlots = segmentationSlots(*segmentation, m_catalog);
    QVector<QColor> colours;
    QStringList names;
    for (int slot : m_segmentationSlots) {
        colours << m_catalog.colour(slot);
        names << m_catalog.name(slot);
    }
    m_trackView->setSegmentation(segmentation, colours, names);
    // A foreground-specific state that the segmentation puts in the background at least as
    // much as the model puts it in the foreground: the components miss most of the data (no
    // state for it at this γ and K), and the decoding forces those bins into this state.
    m_contradictedStates = contradictedStates(*segmentation, m_catalog);
    refreshContrastiveTitle();
    if (!m_contradictedStates.isEmpty()) {
        emit statusMessage(tr("⚠ The segmentation contradicts the model at this γ: %1. The "
                              "components leave most bins without a state of their own, so the "
                              "decoding forces them into a foreground-specific state; lower γ or "
                              "raise K.")
                               .arg(m_contradictedStates.join(QStringLiteral("; "))),
                           15000);
        emit settledChanged();
        return;
    }
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
    m_analysisPanel->setBootstrapAvailable(sweep.path != nullptr);
    if (sweep.path != m_catalog.path()) {
        // A new path (or none): its identities name the states from the next solution on.
        m_catalog.setPath(sweep.path, m_marks);
        const HmmSolution& solution = m_controller->solution();
        if (solution.isValid()) {
            m_catalog.update(solution.result->markProbabilities, solution.result->weights, m_marks,
                             shownIdentities(sweep, solution));
            refreshTransitionModel();
            refreshEnrichmentModel();
            refreshSegmentationAppearance();
        }
    }
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
    refreshEmissionModels(); // bootstrap stability in the heatmap's notes and flags
    refreshContrastiveTitle();
    startPendingBootstrap();
    emit settledChanged();
}

void ChromatinWorkspace::startPendingBootstrap() {
    if (!m_pendingBootstrap || !m_controller->hasCurrentPath()) {
        return;
    }
    const PendingBootstrap pending = *m_pendingBootstrap;
    m_pendingBootstrap.reset();
    m_controller->startBootstrap(pending.replicates, pending.blockLength);
    emit statusMessage(
        tr("Recomputing the session's bootstrap (%1 block resamples)").arg(pending.replicates));
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
    WeightLines chart = weightLines(sweep, solution.gamma, m_catalog);
    if (!chart.isValid()) {
        return;
    }
    const QStringList names = m_catalog.names();
    if (!force && chart.trackOfSlot == m_chartSlots && names == m_chartNames) {
        m_weightsChart->setCurrentGamma(solution.gamma);
        return; // same lines: only the marker moves
    }
    m_chartSlots = chart.trackOfSlot;
    m_chartNames = names;
    m_weightsChart->setCurrentGamma(solution.gamma);
    m_weightsChart->setLines(chart.lines, sweep.gammas.front(), sweep.gammas.back(),
                             chart.unreliable);
}

void ChromatinWorkspace::onStateRenamed(int slot, const QString& name) {
    m_catalog.rename(slot, name);
    refreshStateViews();
}

void ChromatinWorkspace::refreshLanes() {
    QVector<TrackLane> lanes;
    for (const QString& path : m_annotationModel->lanePaths()) {
        if (const AnnotationSource* source = m_controller->annotation(path)) {
            lanes << TrackLane{source->name, source->lanes, annotationLaneColour(source->name)};
        }
    }
    m_trackView->setLanes(lanes);
}

void ChromatinWorkspace::cancelTask() {
    m_controller->cancelTask();
}

bool ChromatinWorkspace::isSettled() const {
    if (m_pendingSection || !m_loadingTracks.isEmpty() || m_regionTimer->isActive() ||
        !m_controller->isIdle()) {
        return false;
    }
    return m_controller->solution().isValid() || !m_controller->data().isValid();
}

void ChromatinWorkspace::saveSettings() const {
    QSettings settings;
    settings.setValue(kMainSplitterKey, m_mainSplitter->saveState());
    settings.setValue(kResultSplitterKey, m_results->saveState());
    settings.setValue(kMiddleSplitterKey, m_results->middleSplitter()->saveState());
    const ChromatinModelParameters p = m_analysisPanel->parameters();
    settings.setValue(kComponentsKey, p.numComponents);
    settings.setValue(kSeedKey, static_cast<qulonglong>(p.seed));
    settings.setValue(kDecodeKey, static_cast<int>(m_analysisPanel->decodingMethod()));
    settings.setValue(kShowValuesKey, m_showValuesAction->isChecked());
}

void ChromatinWorkspace::restoreSettings() {
    QSettings settings;
    m_mainSplitter->restoreState(settings.value(kMainSplitterKey).toByteArray());
    m_results->restoreState(settings.value(kResultSplitterKey).toByteArray());
    m_results->middleSplitter()->restoreState(settings.value(kMiddleSplitterKey).toByteArray());
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

QJsonObject ChromatinWorkspace::figureProvenance() const {
    const ChromatinController& c = *controller();
    return {{QStringLiteral("data"), QJsonArray::fromStringList(c.data().paths)},
            {QStringLiteral("foreground"), QJsonArray::fromStringList(c.regions().foreground)},
            {QStringLiteral("background"), QJsonArray::fromStringList(c.regions().background)},
            {QStringLiteral("gamma"), c.gamma()},
            {QStringLiteral("K"), c.parameters().numComponents},
            {QStringLiteral("seed"), QString::number(c.parameters().seed)}};
}

} // namespace cx::ui
