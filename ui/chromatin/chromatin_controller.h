#pragma once

#include "ui/chromatin/chromatin_types.h"
#include "ui/chromatin/chromatin_worker.h"
#include "ui/framework/solve_scheduler.h"
#include "ui/framework/state_cache.h"
#include "ui/framework/task_slot.h"
#include "ui/framework/worker_thread.h"

#include "core/common/cancel.h"

#include <QElapsedTimer>
#include <QObject>
#include <QSet>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>

namespace cx::ui {

/// Owns the analysis state of the Chromatin workspace (tracks, annotations, moments, the shown
/// contrastive HMM, its segmentation, enrichment and weight sweep) and schedules all
/// computation off the GUI thread. It follows TopicsController (Topics):
///
///  - a ChromatinWorker on the member QThread runs track loads, moment passes and solves, in
///    order; long tasks (load, moments) are one at a time and a new one cancels the old one;
///    a failed or cancelled task keeps everything that was loaded or computed;
///  - solves follow SolveScheduler: at most one in flight and one pending; a new γ/K replaces
///    the pending request (coalesced); results of an older epoch (moments or K/seed changed)
///    are dropped; a superseded γ's result is shown only as a live preview when the views have
///    not refreshed for livePreviewIntervalMs;
///  - once the solves settle (nothing in flight or pending for decodeDelayMs), the shown model
///    is decoded over every bin on a one-thread pool with its own generation and token, then
///    the enrichment of its states with the chosen annotations is counted; a newer solution
///    cancels both (the previous segmentation stays shown until the new one lands);
///  - the weights-vs-γ sweep runs on another one-thread pool, once per epoch;
///  - annotation BED files are read on a third one-thread pool, each on its own.
/// Every result carries a generation; stale ones are dropped here, on the GUI thread, where all
/// controller state lives (no locks).
class ChromatinController : public QObject {
    Q_OBJECT
public:
    /// Counters for tests and the status line.
    struct Statistics : SolveStatistics {
        int momentsBuilt = 0;
        int momentsCacheHits = 0;
        int decodesStarted = 0;
        int decodesShown = 0;
        int enrichmentsShown = 0;
        int sweepsStarted = 0;
    };

    explicit ChromatinController(QObject* parent = nullptr);
    ~ChromatinController() override;

    /// Reads binarized tracks in the background (cancels a running load or moment pass). On
    /// success they replace the current tracks; on failure or cancel nothing changes.
    void loadTracks(const QStringList& paths, int binSize = 200);
    /// Uses in-memory tracks (tests). Clears moments, solutions, segmentation and sweep; keeps
    /// the annotations and the region choice (apply it again with applyRegions).
    void setData(const ChromatinDataHandle& data);
    /// Reads annotation BED files in the background; each one that succeeds is announced by
    /// annotationAdded, each failure by errorOccurred (file, line, problem). Paths already
    /// loaded or loading are ignored.
    void addAnnotations(const QStringList& paths);
    void removeAnnotation(const QString& path);
    /// Chooses foreground/background annotations and computes (or reuses) their moments.
    /// Annotations still being read are waited for.
    void applyRegions(const RegionChoice& choice);
    /// K and seed re-solve; a new encoding recomputes the moments.
    void setParameters(const ChromatinModelParameters& parameters);
    void setGamma(double gamma);
    void setDecodingMethod(cx::DecodingMethod method);
    /// Whether decoded runs that a background-like component explains better are labelled
    /// with it (see decodeSegmentation). On by default.
    void setLabelBackgroundRuns(bool label);
    bool labelBackgroundRuns() const { return m_labelBackground; }
    /// Annotations (paths) of the enrichment table, in column order.
    void setEnrichmentAnnotations(const QStringList& paths);
    /// γ grid of the weights-vs-γ sweep (ascending; empty disables it).
    void setSweepGammas(const QVector<double>& gammas);
    /// Cancels a running load or moment pass; what was loaded and computed stays.
    void cancelTask();

    const ChromatinDataHandle& data() const { return m_data; }
    const QVector<AnnotationSource>& annotations() const { return m_annotations; }
    const AnnotationSource* annotation(const QString& path) const;
    bool isAnnotationLoading(const QString& path) const {
        return m_loadingAnnotations.contains(path);
    }
    std::shared_ptr<const MomentsState> moments() const { return m_moments; }
    const RegionChoice& regions() const { return m_regions; }
    bool hasRegions() const { return m_hasRegions; }
    const ChromatinModelParameters& parameters() const { return m_parameters; }
    double gamma() const { return m_gamma; }
    cx::DecodingMethod decodingMethod() const { return m_decoding; }
    const HmmSolution& solution() const { return m_shown; }
    const SegmentationHandle& segmentation() const { return m_segmentation; }
    const std::optional<EnrichmentTable>& enrichment() const { return m_enrichment; }
    const WeightSweep& sweep() const { return m_sweep; }
    const QStringList& enrichmentAnnotations() const { return m_enrichmentPaths; }

    bool isTaskRunning() const { return m_task.isRunning(); }
    bool isSolving() const { return m_solves.isBusy(); }
    /// A segmentation (or its enrichment) is scheduled or running.
    bool isDecoding() const {
        return m_decodeTimer.isActive() || m_decodeRunning || m_enrichmentRunning;
    }
    bool isSweepRunning() const { return m_sweepRunning; }
    bool isLoadingAnnotations() const { return !m_loadingAnnotations.isEmpty(); }
    /// Nothing loading, computing, solving, decoding or sweeping.
    bool isIdle() const {
        return !isTaskRunning() && !isSolving() && !isDecoding() && !m_sweepRunning &&
               !isLoadingAnnotations() && !m_momentsWaiting;
    }
    const Statistics& statistics() const { return m_stats; }
    const QObject* worker() const { return m_worker.worker(); }
    const QThread* workerThread() const { return m_worker.thread(); }
    qint64 clockMs() const { return m_clock.elapsed(); }

    /// See the class comment; 0 shows every in-order result, a huge value only the latest.
    void setLivePreviewInterval(int milliseconds) { m_solves.setLivePreviewInterval(milliseconds); }
    /// How long the solves must be quiet before the segmentation is recomputed.
    void setDecodeDelay(int milliseconds) { m_decodeTimer.setInterval(milliseconds); }

signals:
    void taskStarted(cx::ui::ChromatinTaskKind kind, const QString& description);
    void taskProgress(double fraction, const QString& phase);
    /// outcome: "finished", "cancelled" or "failed".
    void taskFinished(cx::ui::ChromatinTaskKind kind, const QString& outcome);
    void dataChanged(const cx::ui::ChromatinDataHandle& data);
    void annotationAdded(const cx::ui::AnnotationSource& annotation);
    /// Reading `path` failed (errorOccurred carries the message for the dialog).
    void annotationFailed(const QString& path, const QString& message);
    void annotationRemoved(const QString& path);
    void momentsChanged(const cx::ui::MomentsState& moments);
    /// The region choice/encoding were reverted to match the moments after a cancelled or
    /// failed pass; panels should re-read regions() and parameters().
    void stateReverted();
    void solutionChanged(const cx::ui::HmmSolution& solution);
    /// The newest solve failed (the previous solution stays shown).
    void solveFailed(const QString& message);
    /// A new segmentation of the shown solution (null: none, e.g. no foreground-specific state).
    void segmentationChanged(const cx::ui::SegmentationHandle& segmentation);
    void enrichmentChanged(const cx::ui::EnrichmentTable& enrichment);
    void sweepChanged(const cx::ui::WeightSweep& sweep);
    /// A user-facing problem: show `message` (it names file, line and problem) under `title`.
    void errorOccurred(const QString& title, const QString& message);
    /// Emitted whenever isIdle() may have changed.
    void activityChanged();

private:
    void startTask(ChromatinTaskKind kind, const QString& description);
    void finishTask(const QString& outcome);
    bool momentsFit() const;
    void ensureMoments();
    void startMoments();
    void setMoments(std::shared_ptr<const MomentsState> moments);
    void revertToMoments();
    void requestSolve();
    void dispatchSolve(HmmSolveRequest request);
    void dispatchPending();
    void scheduleDecode();
    void startDecode();
    void cancelDecode();
    void startEnrichment();
    void restartSweep();

    void onProgress(quint64 generation, double fraction, const QString& phase);
    void onLoaded(quint64 generation, const ChromatinDataHandle& data);
    void onMomentsReady(quint64 generation, const MomentsState& moments);
    void onTaskCancelled(quint64 generation);
    void onTaskFailed(quint64 generation, const QString& message);
    void onSolved(HmmSolution solution);
    void onSolveFailed(quint64 generation, quint64 epoch, const QString& message);
    void onSolveCancelled(quint64 generation);
    void onAnnotationLoaded(const QString& path, const AnnotationSource& source,
                            const QString& error);
    void onDecoded(quint64 generation, SegmentationHandle segmentation, const QString& error);
    void onEnriched(quint64 generation, const EnrichmentTable& table, const QString& error);
    void onSweepDone(quint64 generation, const WeightSweep& sweep, const QString& error);

    WorkerThread<ChromatinWorker> m_worker{QStringLiteral("cx-chromatin-worker")};
    QThreadPool m_decodePool;
    QThreadPool m_sweepPool;
    QThreadPool m_annotationPool;
    QElapsedTimer m_clock;

    Statistics m_stats;
    quint64 m_nextGeneration = 0; ///< generations of tasks and solves

    // Long task (load or moments): one at a time; a new one cancels the old one.
    TaskSlot<ChromatinTaskKind> m_task{ChromatinTaskKind::LoadTracks};
    RegionChoice m_buildingChoice;
    cx::ObservationEncoding m_buildingEncoding = cx::ObservationEncoding::MarkVector;

    ChromatinDataHandle m_data;
    QVector<AnnotationSource> m_annotations;
    QSet<QString> m_loadingAnnotations;
    cx::CancelToken m_annotationCancel;
    std::shared_ptr<const MomentsState> m_moments;
    StateCache<MomentsState, ChromatinWorker> m_momentsCache{m_worker, 3};
    RegionChoice m_regions;
    bool m_hasRegions = false;
    bool m_momentsWaiting = false; ///< applyRegions waits for annotations being read
    ChromatinModelParameters m_parameters;
    double m_gamma = 0;
    cx::DecodingMethod m_decoding = cx::DecodingMethod::Posterior;
    bool m_labelBackground = true;

    // Solves.
    SolveScheduler<HmmSolveRequest> m_solves{
        m_stats, [this](HmmSolveRequest r) { dispatchSolve(std::move(r)); }};
    HmmSolution m_shown;
    std::shared_ptr<const cx::ContrastiveHmmResult> m_reference;
    quint64 m_referenceEpoch = 0;

    // Segmentation and enrichment.
    QTimer m_decodeTimer;
    std::atomic<quint64> m_decodeGeneration{0};
    cx::CancelToken m_decodeCancel;
    bool m_decodeRunning = false;
    SegmentationHandle m_segmentation;
    QStringList m_enrichmentPaths;
    std::atomic<quint64> m_enrichmentGeneration{0};
    cx::CancelToken m_enrichmentCancel;
    bool m_enrichmentRunning = false;
    std::optional<EnrichmentTable> m_enrichment;

    // Weights-vs-γ sweep.
    QVector<double> m_sweepGammas;
    std::atomic<quint64> m_sweepGeneration{0};
    cx::CancelToken m_sweepCancel;
    bool m_sweepRunning = false;
    WeightSweep m_sweep;
};

} // namespace cx::ui
