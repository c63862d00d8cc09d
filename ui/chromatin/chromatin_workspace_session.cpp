// ChromatinWorkspace: its section of a project session (.cxproj): tracks, annotations with their
// roles, bin size, K, γ, seed, encoding, decoding, the segmentation region and the state names.
#include "ui/chromatin/chromatin_workspace.h"

#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_analysis.h"
#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_data_panel.h"
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/chromatin/chromatin_results_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/state_matrix_model.h"

#include "core/hmm/hmm_model.h"

#include <QDateTime>
#include <QFileInfo>
#include <QTableView>

#include <algorithm>
#include <cmath>

namespace cx::ui {

namespace {

/// The weights-vs-γ grid of the GUI (chromatinSweepGrid(kSliderMaximum), step 0.05) as a
/// session writes it.
const QString kGuiPathGrid =
    QStringLiteral("0:%1:0.05").arg(ChromatinAnalysisPanel::kSliderMaximum);

QStringList toQStrings(const std::vector<std::filesystem::path>& paths) {
    QStringList out;
    for (const auto& path : paths) {
        out << QString::fromStdString(path.string());
    }
    return out;
}

} // namespace

void ChromatinWorkspace::connectSessionSignals() {
    const auto changed = [this] { emit sessionStateChanged(); };
    connect(m_controller, &ChromatinController::dataChanged, this, changed);
    connect(m_annotationModel, &AnnotationListModel::regionsEdited, this, changed);
    connect(m_annotationModel, &AnnotationListModel::displayEdited, this, changed);
    connect(m_annotationModel, &QAbstractItemModel::rowsInserted, this, changed);
    connect(m_annotationModel, &QAbstractItemModel::rowsRemoved, this, changed);
    connect(m_trackView, &SegmentationTrackView::rangeChanged, this, changed);
    connect(m_controller, &ChromatinController::solutionChanged, this, changed);
    // The bands' resample count is part of the session.
    connect(m_controller, &ChromatinController::bootstrapStarted, this, changed);
    connect(m_controller, &ChromatinController::bootstrapFinished, this, changed);
    connect(m_controller, &ChromatinController::bootstrapFailed, this, changed);
    for (StateMatrixModel* model : {m_emissionModel, m_transitionModel, m_enrichmentModel}) {
        connect(model, &StateMatrixModel::rowRenamed, this, changed);
    }
}

bool ChromatinWorkspace::hasSessionData() const {
    // In-memory data (tests) has no files a session could name.
    return m_pendingSection.has_value() ||
           (m_controller->data().isValid() && !m_controller->data().paths.isEmpty());
}

cx::ChromatinSection ChromatinWorkspace::currentSection() const {
    if (m_pendingSection) {
        return *m_pendingSection;
    }
    cx::ChromatinSection section = m_sessionBase;
    section.tracks.clear();
    for (const QString& path : m_controller->data().paths) {
        section.tracks.emplace_back(QFileInfo(path).absoluteFilePath().toStdString());
    }
    if (m_controller->data().data) {
        section.binSize = m_controller->data().data->binSize;
    }
    section.reads = toReadsSection(m_controller->data().reads.get());
    section.annotations.clear();
    for (const AnnotationListModel::Entry& entry : m_annotationModel->entries()) {
        cx::ChromatinSection::Annotation annotation;
        annotation.path = QFileInfo(entry.path).absoluteFilePath().toStdString();
        annotation.foreground = entry.foreground;
        annotation.background = entry.background;
        annotation.lane = entry.lane;
        annotation.enrichment = entry.enrichment;
        section.annotations.push_back(annotation);
    }
    const ChromatinModelParameters& parameters = m_controller->parameters();
    section.numComponents = parameters.numComponents;
    section.seed = parameters.seed;
    section.starts = parameters.starts;
    section.encoding =
        parameters.encoding == cx::ObservationEncoding::MarkCombination ? "combinations" : "marks";
    section.decomposition =
        parameters.decomposition == cx::AsymmetricInit::SimultaneousDiagonalization ? "jennrich"
                                                                                    : "deflation";
    section.momentFit = parameters.momentFit;
    section.momentOrder = parameters.momentOrder;
    section.refineEm = parameters.refineEm;
    section.refineTolerance = parameters.refineTolerance;
    section.gamma = m_controller->gamma();
    section.decode = cx::toString(m_controller->decodingMethod());
    section.region = m_trackView->regionText().toStdString();
    section.states.clear();
    const Eigen::MatrixXd& profiles = m_catalog.profiles();
    for (int slot = 0; slot < m_catalog.numSlots() && slot < profiles.rows(); ++slot) {
        cx::ChromatinSection::StateView state;
        state.name = m_catalog.name(slot).toStdString();
        state.colour = m_catalog.colour(slot).name().toStdString();
        state.renamed = m_catalog.isRenamed(slot);
        // Rounded: the profile only matches states again; 6 digits keep the file readable.
        for (Eigen::Index mark = 0; mark < profiles.cols(); ++mark) {
            state.profile.push_back(std::round(profiles(slot, mark) * 1e6) / 1e6);
        }
        section.states.push_back(std::move(state));
    }
    // The bands shown (or being computed, or still to be recomputed after reopening) on the
    // weights-vs-γ path. A path saved by `hmm --gamma-path` keeps its grid.
    const int replicates =
        m_pendingBootstrap ? m_pendingBootstrap->replicates : m_controller->bandReplicates();
    section.bootstrap = replicates;
    section.blockLength =
        m_pendingBootstrap ? m_pendingBootstrap->blockLength : m_controller->bandBlockLength();
    if (replicates > 0 && section.gammaPath.empty()) {
        section.gammaPath = kGuiPathGrid.toStdString();
        section.pathStarts = "continued";
    }
    if (section.method != "spectral") {
        section.gammaPath.clear(); // the GUI solves spectrally; a path needs it
        section.bootstrap = 0;
        section.blockLength = 0;
    }
    section.savedBy.clear();
    return section;
}

void ChromatinWorkspace::clearSession() {
    m_pendingSection.reset();
    m_pendingBootstrap.reset();
    m_sessionBase = {};
    m_loadingTracks.clear();
    m_controller->cancelTask();
    removeAllAnnotations();
    m_controller->setData(ChromatinDataHandle{});
    emit documentTitleChanged(QString());
    emit sessionStateChanged();
    emit settledChanged();
}

void ChromatinWorkspace::removeAllAnnotations() {
    QStringList paths;
    for (const AnnotationListModel::Entry& entry : m_annotationModel->entries()) {
        paths << entry.path;
    }
    removeAnnotations(paths);
}

void ChromatinWorkspace::removeAnnotations(const QStringList& paths) {
    for (const QString& path : paths) {
        m_annotationModel->removePath(path);
        m_controller->removeAnnotation(path);
    }
    refreshLanes();
}

void ChromatinWorkspace::openSection(const cx::ChromatinSection& section) {
    const QStringList tracks = toQStrings(section.tracks);
    const ChromatinDataHandle& loaded = m_controller->data();
    m_interactiveOpen = false;
    if (loaded.isValid() && loaded.paths == tracks && loaded.data->binSize == section.binSize) {
        // The same tracks: keep them, their cached moments and solutions.
        m_sessionBase = section;
        applySection(section);
        applyRegionChoice();
        startPendingBootstrap(); // nothing to recompute: bootstrap the current path now
        emit sessionStateChanged();
        return;
    }
    // Nothing changes until the tracks are read: a session whose tracks fail to load leaves
    // the current analysis as it was. The annotations are read meanwhile (prefetched), but
    // listed with their roles only once the tracks are there (applySection).
    m_pendingSection = section;
    m_loadingTracks = tracks;
    QStringList annotations;
    for (const auto& annotation : section.annotations) {
        annotations << QString::fromStdString(annotation.path.string());
    }
    m_controller->addAnnotations(annotations);
    if (section.reads) {
        // Binarized from reads: reuse the saved binarized files while the reads are unchanged.
        const auto reads = fromReadsSection(*section.reads);
        if (binarizedUpToDate(tracks, *reads)) {
            m_controller->loadTracks(tracks, section.binSize, reads);
        } else {
            m_controller->binarizeReads(*reads);
        }
    } else {
        m_controller->loadTracks(tracks, section.binSize);
    }
    emit settledChanged();
    emit sessionStateChanged();
}

void ChromatinWorkspace::applySection(const cx::ChromatinSection& section) {
    m_sessionBase = section;
    ChromatinModelParameters parameters;
    parameters.numComponents = section.numComponents;
    parameters.seed = section.seed;
    parameters.starts = section.starts;
    parameters.encoding = cx::parseObservationEncoding(section.encoding);
    parameters.decomposition = section.decomposition == "jennrich"
                                   ? cx::AsymmetricInit::SimultaneousDiagonalization
                                   : cx::AsymmetricInit::Deflation;
    parameters.momentFit = section.momentFit;
    parameters.momentOrder = section.momentOrder;
    // A session without refine_em (saved before the refinement existed) opens unrefined.
    parameters.refineEm = section.refineEm;
    parameters.refineTolerance = section.refineTolerance;
    m_analysisPanel->setParameters(parameters);
    m_controller->setParameters(parameters);
    const cx::DecodingMethod decoding =
        section.decode == "viterbi" ? cx::DecodingMethod::Viterbi : cx::DecodingMethod::Posterior;
    m_analysisPanel->setDecodingMethod(decoding);
    m_controller->setDecodingMethod(decoding);
    setGamma(section.gamma);

    // The session's annotations replace the list: nothing of an earlier data set stays.
    QStringList wanted;
    for (const auto& annotation : section.annotations) {
        wanted << QString::fromStdString(annotation.path.string());
    }
    const auto entries = m_annotationModel->entries();
    for (const AnnotationListModel::Entry& entry : entries) {
        if (!wanted.contains(entry.path)) {
            m_annotationModel->removePath(entry.path);
            m_controller->removeAnnotation(entry.path);
        }
    }
    using Column = AnnotationListModel::Column;
    for (const auto& annotation : section.annotations) {
        const QString path = QString::fromStdString(annotation.path.string());
        const AnnotationSource* source = m_controller->annotation(path);
        if (!source && !m_controller->isAnnotationLoading(path)) {
            m_controller->addAnnotations({path}); // dropped earlier: read it again
        }
        if (m_annotationModel->rowOf(path) < 0) {
            AnnotationListModel::Entry entry;
            entry.path = path;
            entry.name = annotationDisplayName(path);
            m_annotationModel->addEntry(entry);
        }
        // The check boxes' signals would re-apply the regions once per box; applied by the
        // caller.
        const QSignalBlocker block(m_annotationModel);
        m_annotationModel->setChecked(path, Column::ForegroundColumn, annotation.foreground);
        m_annotationModel->setChecked(path, Column::BackgroundColumn, annotation.background);
        m_annotationModel->setChecked(path, Column::LaneColumn, annotation.lane);
        m_annotationModel->setChecked(path, Column::EnrichmentColumn, annotation.enrichment);
        if (source) {
            m_annotationModel->setLoaded(*source);
        }
    }
    m_dataPanel->annotationView()->viewport()->update();
    m_controller->setEnrichmentAnnotations(m_annotationModel->enrichmentPaths());
    refreshLanes();
    QString chrom;
    qint64 start = 0;
    qint64 end = 0;
    if (parseGenomicRegion(QString::fromStdString(section.region), &chrom, &start, &end)) {
        m_results->showRegion(chrom, start, end);
    }
    // The saved rows (order, names) seed the catalog: the states of the next solution are
    // matched to them by profile.
    restoreStateRows(section.states);
    // A saved bootstrap is run again (seeded by the model seed: the same bands) once the
    // weights-vs-γ path is current. The GUI's path is its own grid (kGuiPathGrid).
    m_pendingBootstrap.reset();
    if (section.bootstrap > 0) {
        m_pendingBootstrap = PendingBootstrap{section.bootstrap, section.blockLength};
        m_analysisPanel->setBootstrapReplicates(section.bootstrap);
    }
}

void ChromatinWorkspace::restoreStateRows(
    const std::vector<cx::ChromatinSection::StateView>& states) {
    if (states.empty() || states.front().profile.empty() ||
        states.front().profile.size() != m_marks.size()) {
        return; // nothing saved, or other marks: the saved rows do not apply
    }
    Eigen::MatrixXd profiles(static_cast<Eigen::Index>(states.size()),
                             static_cast<Eigen::Index>(m_marks.size()));
    QStringList userNames;
    for (size_t s = 0; s < states.size(); ++s) {
        for (size_t m = 0; m < m_marks.size(); ++m) {
            profiles(static_cast<Eigen::Index>(s), static_cast<Eigen::Index>(m)) =
                m < states[s].profile.size() ? states[s].profile[m] : 0.0;
        }
        userNames << (states[s].renamed ? QString::fromStdString(states[s].name) : QString());
    }
    m_catalog.restore(profiles, userNames);
    const HmmSolution& shown = m_controller->solution();
    if (shown.isValid()) {
        // Nothing may be left to solve (same parameters): map the shown states now.
        m_catalog.update(shown.result->markProbabilities, shown.result->weights, m_marks,
                         shownIdentities(m_controller->sweep(), shown));
        refreshStateViews();
    }
}

} // namespace cx::ui
