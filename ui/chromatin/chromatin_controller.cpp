// ChromatinController: loading, annotations, region choice, moments and the slider's solves. The
// pool jobs that follow a solution (decode, enrichment, sweep, bootstrap, refinement) are in
// chromatin_controller_jobs.cpp.
#include "ui/chromatin/chromatin_controller.h"

#include "ui/chromatin/chromatin_analysis.h"

#include "core/common/error.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <functional>

namespace cx::ui {

namespace {

constexpr int kDefaultDecodeDelayMs = 150;

} // namespace

ChromatinController::ChromatinController(QObject* parent)
    : SolvingControllerBase(QStringLiteral("cx-chromatin-worker"), ChromatinTaskKind::LoadTracks,
                            m_stats, parent) {
    qRegisterMetaType<cx::ui::ChromatinDataHandle>();
    qRegisterMetaType<cx::ui::AnnotationSource>();
    qRegisterMetaType<cx::ui::MomentsState>();
    qRegisterMetaType<cx::ui::HmmSolution>();
    qRegisterMetaType<std::shared_ptr<const cx::ui::ReferenceRefinement>>();
    qRegisterMetaType<cx::ui::SegmentationHandle>();
    qRegisterMetaType<cx::ui::EnrichmentTable>();
    qRegisterMetaType<cx::ui::WeightSweep>();
    qRegisterMetaType<cx::ui::ChromatinTaskKind>();
    m_annotationCancel = cx::CancelToken::create();

    m_decodeTimer.setSingleShot(true);
    m_decodeTimer.setInterval(kDefaultDecodeDelayMs);
    connect(&m_decodeTimer, &QTimer::timeout, this, &ChromatinController::startDecode);

    const ChromatinWorker* worker = m_worker.worker();
    connect(worker, &ChromatinWorker::loaded, this, &ChromatinController::onLoaded);
    connect(worker, &ChromatinWorker::momentsReady, this, &ChromatinController::onMomentsReady);
    connect(worker, &ChromatinWorker::solved, this, &ChromatinController::onSolved);
    m_worker.start();
}

ChromatinController::~ChromatinController() {
    m_decodeTimer.stop();
    m_decodeJob.stop();
    m_enrichmentJob.stop();
    m_sweepJob.stop();
    m_bootstrapJob.stop();
    m_refineJob.stop();
    m_annotationCancel.cancel();
    shutDown();
}

QString ChromatinController::taskFailureTitle(ChromatinTaskKind kind) const {
    return kind == ChromatinTaskKind::LoadTracks ? tr("Could not open the tracks or reads")
                                                 : tr("Could not compute the moments");
}

QString ChromatinController::solveFailureTitle() const {
    return tr("Could not fit the contrastive HMM");
}

void ChromatinController::taskAborted() {
    if (!momentsFit()) {
        revertToMoments();
    }
}

const AnnotationSource* ChromatinController::annotation(const QString& path) const {
    for (const AnnotationSource& source : m_annotations) {
        if (source.path == path) {
            return &source;
        }
    }
    return nullptr;
}

void ChromatinController::loadTracks(const QStringList& paths, int binSize,
                                     std::shared_ptr<const ReadsBinarization> reads) {
    if (paths.isEmpty()) {
        return;
    }
    startTask(ChromatinTaskKind::LoadTracks,
              paths.size() == 1 ? tr("Loading %1").arg(QFileInfo(paths.front()).fileName())
                                : tr("Loading %1 tracks").arg(paths.size()));
    LoadTracksRequest request;
    request.generation = m_task.generation();
    request.paths = paths;
    request.binSize = binSize;
    request.reads = std::move(reads);
    request.cancel = m_task.cancelToken();
    m_worker.post([request](ChromatinWorker& worker) { worker.load(request); });
}

void ChromatinController::binarizeReads(const ReadsBinarization& reads) {
    if (!reads.isValid()) {
        return;
    }
    startTask(ChromatinTaskKind::LoadTracks, tr("Binarizing %n read file(s)", nullptr,
                                                static_cast<int>(reads.inputFiles().size())));
    LoadTracksRequest request;
    request.generation = m_task.generation();
    request.reads = std::make_shared<const ReadsBinarization>(reads);
    request.binarize = true;
    request.binSize = reads.options.binSize;
    request.cancel = m_task.cancelToken();
    m_worker.post([request](ChromatinWorker& worker) { worker.load(request); });
}

void ChromatinController::setData(const ChromatinDataHandle& data) {
    m_worker.release(m_data.data);
    m_worker.release(m_moments);
    m_data = data;
    m_moments.reset();
    m_momentsCache.clear();
    m_hasRegions = false;
    m_momentsWaiting = false;
    m_solves.newEpoch();
    m_shown = {};
    m_reference.reset();
    resetRefinement();
    cancelDecode();
    m_segmentation.reset();
    m_enrichment.reset();
    m_sweepJob.stop();
    cancelBootstrap();
    m_sweep = {};
    emit dataChanged(m_data);
    emit solutionChanged(m_shown);
    emit segmentationChanged(m_segmentation);
    emit sweepChanged(m_sweep);
    emit activityChanged();
}

void ChromatinController::addAnnotations(const QStringList& paths) {
    for (const QString& path : paths) {
        if (annotation(path) || m_loadingAnnotations.contains(path)) {
            continue;
        }
        m_loadingAnnotations.insert(path);
        // Cancelled only on destruction; each file is read on its own.
        startJob(
            m_annotationPool, m_annotationCancel,
            [path](const cx::CancelToken& cancel) { return loadAnnotation(path, cancel); },
            [this, path](const AnnotationSource& source, const QString& error) {
                onAnnotationLoaded(path, source, error);
            });
    }
    emit activityChanged();
}

void ChromatinController::onAnnotationLoaded(const QString& path, const AnnotationSource& source,
                                             const QString& error) {
    if (!m_loadingAnnotations.remove(path)) {
        return; // removed while it was being read
    }
    if (!error.isEmpty()) {
        emit annotationFailed(path, error);
        emit errorOccurred(tr("Could not read the annotation"), error);
    } else {
        m_annotations.push_back(source);
        emit annotationAdded(source);
    }
    if (m_momentsWaiting) {
        bool stillLoading = false;
        for (const QString& p : m_regions.foreground + m_regions.background) {
            stillLoading = stillLoading || m_loadingAnnotations.contains(p);
        }
        if (!stillLoading) {
            m_momentsWaiting = false;
            ensureMoments();
        }
    }
    if (m_enrichmentPaths.contains(path) && m_segmentation) {
        startEnrichment();
    }
    emit activityChanged();
}

void ChromatinController::removeAnnotation(const QString& path) {
    m_loadingAnnotations.remove(path);
    for (int i = 0; i < m_annotations.size(); ++i) {
        if (m_annotations[i].path == path) {
            m_worker.release(m_annotations[i].regions);
            m_annotations.removeAt(i);
            emit annotationRemoved(path);
            break;
        }
    }
    if (m_enrichmentPaths.removeAll(path) > 0 && m_segmentation) {
        startEnrichment();
    }
    emit activityChanged();
}

void ChromatinController::applyRegions(const RegionChoice& choice) {
    m_regions = choice;
    m_hasRegions = true;
    ensureMoments();
}

bool ChromatinController::momentsFit() const {
    return m_moments && m_hasRegions && m_data.data && m_moments->data == m_data.data &&
           m_moments->choice == m_regions && m_moments->encoding == m_parameters.encoding;
}

void ChromatinController::ensureMoments() {
    if (!m_data.data || !m_hasRegions) {
        return;
    }
    if (momentsFit()) {
        if (m_task.isRunning(ChromatinTaskKind::Moments)) {
            // A pass for another choice is running, but the user came back to the current
            // moments' choice: the pass is now pointless.
            m_task.cancel();
        }
        return;
    }
    if (m_task.isRunning(ChromatinTaskKind::Moments) && m_buildingChoice == m_regions &&
        m_buildingEncoding == m_parameters.encoding) {
        return; // exactly these moments are being computed
    }
    if (auto hit = m_momentsCache.take([&](const MomentsState& cached) {
            return cached.data == m_data.data && cached.choice == m_regions &&
                   cached.encoding == m_parameters.encoding;
        })) {
        ++m_stats.momentsCacheHits;
        if (m_task.isRunning(ChromatinTaskKind::Moments)) {
            m_task.cancel();
        }
        setMoments(std::move(hit));
        return;
    }
    // Annotations of the choice that are still being read: wait for them (onAnnotationLoaded
    // comes back here); ones that are not there at all are a caller error, reported clearly.
    QStringList missing;
    for (const QString& path : m_regions.foreground + m_regions.background) {
        if (m_loadingAnnotations.contains(path)) {
            m_momentsWaiting = true;
            emit activityChanged();
            return;
        }
        if (!annotation(path)) {
            missing << path;
        }
    }
    if (!missing.isEmpty()) {
        emit errorOccurred(taskFailureTitle(ChromatinTaskKind::Moments),
                           tr("%1: this annotation is not loaded").arg(missing.front()));
        revertToMoments();
        return;
    }
    startMoments();
}

void ChromatinController::startMoments() {
    startTask(ChromatinTaskKind::Moments, tr("Computing moments"));
    MomentsRequest request;
    request.generation = m_task.generation();
    request.data = m_data.data;
    request.choice = m_regions;
    request.encoding = m_parameters.encoding;
    for (const QString& path : m_regions.foreground) {
        request.foreground.push_back(*annotation(path));
    }
    for (const QString& path : m_regions.background) {
        request.background.push_back(*annotation(path));
    }
    request.cancel = m_task.cancelToken();
    m_buildingChoice = m_regions;
    m_buildingEncoding = m_parameters.encoding;
    m_worker.post([request](ChromatinWorker& worker) { worker.computeMoments(request); });
}

void ChromatinController::setMoments(std::shared_ptr<const MomentsState> moments) {
    if (m_moments) {
        m_momentsCache.pushFront(m_moments);
    }
    m_moments = std::move(moments);
    m_solves.newEpoch();
    resetRefinement();
    emit momentsChanged(*m_moments);
    requestSolve();
    restartSweep();
}

void ChromatinController::revertToMoments() {
    // Keep what is shown consistent with what the panels say: go back to the moments' choice.
    if (m_moments && m_moments->data == m_data.data) {
        m_regions = m_moments->choice;
        m_hasRegions = true;
        m_parameters.encoding = m_moments->encoding;
    } else {
        m_hasRegions = false;
    }
    emit stateReverted();
}

void ChromatinController::setParameters(const ChromatinModelParameters& parameters) {
    if (parameters == m_parameters) {
        return;
    }
    if (parameters.sameSpectral(m_parameters)) {
        // Only the refinement of the γ = 0 model changed: no spectral solve to redo.
        m_parameters = parameters;
        startRefinement();
        return;
    }
    resetRefinement();
    const bool encodingChanged = parameters.encoding != m_parameters.encoding;
    m_parameters = parameters;
    m_solves.newEpoch();
    if (encodingChanged) {
        ensureMoments();
        return;
    }
    requestSolve();
    restartSweep();
}

void ChromatinController::setGamma(double gamma) {
    if (!acceptGamma(gamma)) {
        return;
    }
    m_gamma = gamma;
    requestSolve();
}

void ChromatinController::setDecodingMethod(cx::DecodingMethod method) {
    if (method == m_decoding) {
        return;
    }
    m_decoding = method;
    scheduleDecode();
}

void ChromatinController::setLabelBackgroundRuns(bool label) {
    if (label == m_labelBackground) {
        return;
    }
    m_labelBackground = label;
    scheduleDecode();
}

void ChromatinController::setEnrichmentAnnotations(const QStringList& paths) {
    if (paths == m_enrichmentPaths) {
        return;
    }
    m_enrichmentPaths = paths;
    if (m_segmentation) {
        startEnrichment();
    }
}

void ChromatinController::setSweepGammas(const QVector<double>& gammas) {
    if (gammas == m_sweepGammas) {
        return;
    }
    m_sweepGammas = gammas;
    restartSweep();
}

std::shared_ptr<const KeptStart> ChromatinController::keptStart() {
    if (!m_keptStart || m_keptStartEpoch != m_solves.epoch()) {
        m_keptStart = std::make_shared<const KeptStart>(m_moments, m_parameters.toOptions(),
                                                        m_parameters.starts);
        m_keptStartEpoch = m_solves.epoch();
    }
    return m_keptStart;
}

void ChromatinController::requestSolve() {
    if (!momentsFit()) {
        return; // the pass in progress will request the solve when it lands
    }
    HmmSolveRequest request;
    request.generation = nextGeneration();
    request.epoch = m_solves.epoch();
    request.moments = m_moments;
    request.gamma = m_gamma;
    request.parameters = m_parameters;
    request.start = keptStart();
    if (m_sweep.path && m_sweep.epoch == m_solves.epoch()) {
        request.path = m_sweep.path; // the slider shows the path's solution at γ
    }
    request.cancel = cx::CancelToken::create();
    request.requestedAtMs = clockMs();
    // A decode scheduled for the shown model would decode a model that is about to change.
    m_decodeTimer.stop();
    m_solves.submit(std::move(request));
    emit activityChanged();
}

void ChromatinController::dispatchSolve(HmmSolveRequest request) {
    // Decided at dispatch: the γ = 0 reference may have arrived while the request was pending.
    request.withReference = m_referenceEpoch != m_solves.epoch();
    m_worker.post(
        [request = std::move(request)](ChromatinWorker& worker) { worker.solve(request); });
}

void ChromatinController::solvesQuiet() {
    // Decode the shown model (after a short delay, so that a slider paused for a moment does
    // not start a pass that the next move cancels).
    scheduleDecode();
}

void ChromatinController::onSolved(HmmSolution solution) {
    const quint64 epoch = m_solves.epoch();
    if (solution.epoch == epoch && solution.reference) {
        const bool fresh = m_reference != solution.reference;
        m_reference = solution.reference;
        m_referenceEpoch = epoch;
        if (fresh) {
            startRefinement();
        }
    }
    if (!solution.reference && m_referenceEpoch == solution.epoch) {
        solution.reference = m_reference;
    }
    const bool sameMoments = solution.moments == m_moments;
    if (m_solves.acceptResult(solution, m_shown, sameMoments, clockMs())) {
        m_shown = solution;
        // The running decode (if any) is for an older model.
        cancelDecode();
        emit solutionChanged(m_shown);
    }
    finishSolve();
}

void ChromatinController::onLoaded(quint64 generation, const ChromatinDataHandle& data) {
    if (!m_task.isCurrent(generation)) {
        m_worker.release(data.data);
        return;
    }
    finishTask(TaskOutcome::Finished);
    setData(data);
}

void ChromatinController::onMomentsReady(quint64 generation, const MomentsState& moments) {
    auto state = std::make_shared<const MomentsState>(moments);
    if (!m_task.isCurrent(generation)) {
        // A newer task superseded this pass, but the moments are valid: keep them for reuse.
        if (state->data == m_data.data) {
            m_momentsCache.pushBack(std::move(state));
        }
        return;
    }
    ++m_stats.momentsBuilt;
    finishTask(TaskOutcome::Finished);
    setMoments(std::move(state));
}

} // namespace cx::ui
