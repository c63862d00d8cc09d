// ChromatinWorkspace: the wiring of its controller and views — controller → views (tasks,
// data, moments, solutions, segmentation, enrichment, sweep, refinement) and views →
// controller (panels, annotation list, slider, bootstrap, weights chart). (Layout and the
// views' refreshes are in chromatin_workspace.cpp.)
#include "ui/chromatin/chromatin_workspace.h"

#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_data_panel.h"
#include "ui/framework/workspace_support.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/state_matrix_model.h"

#include "core/hmm/hmm_bootstrap.h"

#include <QFileDialog>
#include <QSettings>
#include <QTimer>

#include <cmath>

namespace cx::ui {

void ChromatinWorkspace::connectControllerSignals() {
    connect(m_controller, &ChromatinController::taskStarted, this,
            [this](ChromatinTaskKind kind, const QString& description) {
                if (kind == ChromatinTaskKind::Moments) {
                    m_dataPanel->setBusy(true);
                }
                emit taskStarted(description, true);
            });
    forwardControllerReports(m_controller, this);
    connect(m_controller, &ChromatinController::taskFinished, this,
            [this](ChromatinTaskKind kind, TaskOutcome outcome) {
                emit taskFinished(outcome);
                if (outcome != TaskOutcome::Finished) {
                    m_pendingSection.reset();
                    m_loadingTracks.clear();
                    m_loadingReads = false;
                    // Back to the report of the moments in use.
                    m_dataPanel->setMomentsReport(m_controller->moments().get());
                }
                if (outcome == TaskOutcome::Cancelled) {
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
    connect(m_controller, &ChromatinController::solveFailed, this, [this](const QString& message) {
        // The panel's line may be shortened at small widths: the status bar has room.
        m_analysisPanel->setInfo(tr("⚠ %1").arg(message));
        emit statusMessage(tr("⚠ %1").arg(message), 15000);
    });
    connect(m_controller, &ChromatinController::segmentationChanged, this,
            &ChromatinWorkspace::onSegmentationChanged);
    connect(m_controller, &ChromatinController::enrichmentChanged, this,
            &ChromatinWorkspace::onEnrichmentChanged);
    connect(m_controller, &ChromatinController::sweepChanged, this,
            &ChromatinWorkspace::onSweepChanged);
    connect(m_controller, &ChromatinController::refinementChanged, this, [this] {
        refreshEmissionModels();
        refreshReferenceTitle();
    });
    connect(m_controller, &ChromatinController::refinementStarted, this,
            [this] { refreshReferenceTitle(0); });
    connect(m_controller, &ChromatinController::refinementProgress, this,
            [this](int round) { refreshReferenceTitle(round); });
    connect(m_controller, &ChromatinController::activityChanged, this, [this] {
        m_trackView->setStatusNote(m_controller->isDecoding() ? tr("decoding…") : QString());
        emit settledChanged();
    });
}

void ChromatinWorkspace::connectViewSignals() {
    connect(m_dataPanel, &ChromatinDataPanel::openTracksRequested, this,
            &ChromatinWorkspace::openInteractive);
    connect(m_dataPanel, &ChromatinDataPanel::addAnnotationsRequested, this, [this] {
        QSettings settings;
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Add Annotation BED Files"), settings.value(trackDirectoryKey()).toString(),
            tr("Annotations (*.bed *.bed.gz *.txt *.txt.gz);;BED files (*.bed *.bed.gz);;"
               "ChromHMM anchor files (chrom pos strand) (*.txt *.txt.gz);;All files (*)"));
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
    // Block bootstrap of the sweep's γ path: panel ↔ controller.
    connect(m_analysisPanel, &ChromatinAnalysisPanel::bootstrapRequested, this,
            [this](int replicates) {
                m_pendingBootstrap.reset(); // the user's request replaces the session's
                m_controller->startBootstrap(replicates);
            });
    connect(m_analysisPanel, &ChromatinAnalysisPanel::bootstrapCancelRequested, m_controller,
            &ChromatinController::cancelBootstrap);
    connect(m_controller, &ChromatinController::bootstrapStarted, m_analysisPanel,
            &ChromatinAnalysisPanel::onBootstrapStarted);
    connect(m_controller, &ChromatinController::bootstrapProgress, m_analysisPanel,
            &ChromatinAnalysisPanel::onBootstrapProgress);
    connect(m_controller, &ChromatinController::bootstrapFinished, this, [this] {
        m_analysisPanel->onBootstrapEnded();
        const WeightSweep& sweep = m_controller->sweep();
        if (sweep.bootstrap) {
            int unstable = 0;
            for (double s : sweep.bootstrap->identityStability) {
                unstable += std::isfinite(s) && s < cx::kMinStateStability ? 1 : 0;
            }
            emit statusMessage(
                tr("Bootstrap: %1 block resamples in %2 s (blocks of %3 foreground / %4 "
                   "background bins); %5 of %6 state identities unstable")
                    .arg(sweep.bootstrap->replicates)
                    .arg(sweep.bootstrap->elapsedMs / 1000.0, 0, 'f', 1)
                    .arg(sweep.bootstrap->foregroundBlockLength)
                    .arg(sweep.bootstrap->backgroundBlockLength)
                    .arg(unstable)
                    .arg(sweep.bootstrap->identityStability.size()));
        }
    });
    connect(m_controller, &ChromatinController::bootstrapFailed, this,
            [this](const QString& message) {
                m_analysisPanel->onBootstrapEnded();
                emit statusMessage(message.isEmpty() ? tr("Bootstrap cancelled")
                                                     : tr("⚠ Bootstrap: %1").arg(message));
            });
    connect(m_weightsChart, &StateWeightsChartView::gammaClicked, this,
            &ChromatinWorkspace::setGamma);
    for (StateMatrixModel* model : {m_emissionModel, m_transitionModel, m_enrichmentModel}) {
        connect(model, &StateMatrixModel::rowRenamed, this,
                [this](int, int slot, const QString& name) { onStateRenamed(slot, name); });
    }
}

} // namespace cx::ui
