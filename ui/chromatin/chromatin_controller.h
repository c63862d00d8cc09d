#pragma once

#include "ui/chromatin/chromatin_types.h"
#include "ui/chromatin/chromatin_worker.h"
#include "ui/framework/bootstrap_controller.h"
#include "ui/framework/state_cache.h"

#include "core/common/cancel.h"

#include <QSet>
#include <QTimer>

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
/// controller state lives (no locks). The worker, long task, solves and their failure reporting
/// are SolvingControllerBase's.
class ChromatinController
    : public SolvingControllerBase<ChromatinController, ChromatinTaskKind, ChromatinWorker,
                                   HmmSolveRequest, BootstrappingController> {
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
    /// `reads`: the aligned reads these binarized tracks were made from (kept in data()).
    void loadTracks(const QStringList& paths, int binSize = 200,
                    std::shared_ptr<const ReadsBinarization> reads = nullptr);
    /// Binarizes aligned reads (ChromHMM's rules, cx::binarize) on the worker, with progress
    /// and Cancel as a load, then loads the binarized files (data().reads says where they came
    /// from). Errors name the file.
    void binarizeReads(const ReadsBinarization& reads);
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
    /// The Baum–Welch refinement of the current epoch's γ = 0 model (parameters().refineEm
    /// > 0): null while it runs, when it is off or failed. Started whenever a new γ = 0
    /// reference lands or the refinement settings change, on its own one-thread pool
    /// (refinementStarted, refinementProgress, then refinementChanged); a new epoch or
    /// switching it off cancels it.
    const std::shared_ptr<const ReferenceRefinement>& refinement() const { return m_refinement; }
    bool isRefining() const { return m_refineJob.running; }
    const QStringList& enrichmentAnnotations() const { return m_enrichmentPaths; }

    /// A segmentation (or its enrichment) is scheduled or running.
    bool isDecoding() const {
        return m_decodeTimer.isActive() || m_decodeJob.running || m_enrichmentJob.running;
    }
    bool isSweepRunning() const { return m_sweepJob.running; }
    /// Block bootstrap of the current sweep's γ path over genomic regions (`replicates`
    /// resamples, seeded by the model seed; cx::bootstrapHmmPath), on the sweep pool:
    /// bootstrapStarted, bootstrapProgress, then bootstrapFinished (the bands land in sweep()
    /// and sweepChanged is emitted) or bootstrapFailed. A new sweep cancels it.
    /// `blockLength` bins per block (0 = chosen from the data, cx::automaticBlockLength).
    /// Cancel, progress and failure are BootstrappingController's (cancelBootstrap,
    /// bootstrapProgress, bootstrapFailed; bootstrapReplicates: of the last one started).
    void startBootstrap(int replicates, int blockLength = 0);
    /// Resamples and requested block length (0 = automatic) of the bands shown or being
    /// computed (0, 0: none), what a session records.
    int bandReplicates() const;
    int bandBlockLength() const;
    /// The sweep's path is there, for the current moments and parameters, and no sweep runs:
    /// a bootstrap can start.
    bool hasCurrentPath() const;
    bool isLoadingAnnotations() const { return !m_loadingAnnotations.isEmpty(); }
    /// Nothing loading, computing, solving, decoding or sweeping.
    bool isIdle() const {
        return !isTaskRunning() && !isSolving() && !isDecoding() && !m_sweepJob.running &&
               !m_bootstrapJob.running && !m_refineJob.running && !isLoadingAnnotations() &&
               !m_momentsWaiting;
    }
    const Statistics& statistics() const { return m_stats; }
    /// How long the solves must be quiet before the segmentation is recomputed.
    void setDecodeDelay(int milliseconds) { m_decodeTimer.setInterval(milliseconds); }

signals:
    void taskStarted(cx::ui::ChromatinTaskKind kind, const QString& description);
    void taskFinished(cx::ui::ChromatinTaskKind kind, cx::ui::TaskOutcome outcome);
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
    void bootstrapFinished();
    /// A Baum–Welch refinement of the γ = 0 model started (at most `maxRounds` rounds).
    void refinementStarted(int maxRounds);
    /// Round `round` of the running refinement finished.
    void refinementProgress(int round, int maxRounds);
    /// refinement() changed (a result, or reset: off, new epoch, failure).
    void refinementChanged();

private:
    QString taskFailureTitle(ChromatinTaskKind kind) const override;
    QString solveFailureTitle() const override;
    void taskAborted() override;
    void dispatchSolve(HmmSolveRequest request) override;
    void solvesQuiet() override;

    bool momentsFit() const;
    /// The start of the current epoch (moments and spectral parameters): one per epoch, shared
    /// by every job of it. \pre momentsFit().
    std::shared_ptr<const KeptStart> keptStart();
    void ensureMoments();
    void startMoments();
    void setMoments(std::shared_ptr<const MomentsState> moments);
    void revertToMoments();
    void requestSolve();
    void scheduleDecode();
    void startDecode();
    void cancelDecode();
    void startEnrichment();
    void restartSweep();
    void startRefinement();
    void resetRefinement();

    void onLoaded(quint64 generation, const ChromatinDataHandle& data);
    void onMomentsReady(quint64 generation, const MomentsState& moments);
    void onSolved(HmmSolution solution);
    void onAnnotationLoaded(const QString& path, const AnnotationSource& source,
                            const QString& error);

    QThreadPool* m_decodePool = createJobPool();
    QThreadPool* m_sweepPool = createJobPool();
    QThreadPool* m_annotationPool = createJobPool();
    QThreadPool* m_refinePool = createJobPool();

    Statistics m_stats;

    // Long task (load or moments): what the running pass (if any) is for.
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

    HmmSolution m_shown;
    std::shared_ptr<const cx::ContrastiveHmmResult> m_reference;
    /// The start of the current epoch (keptStart()), made when a job first needs it.
    std::shared_ptr<const KeptStart> m_keptStart;
    quint64 m_keptStartEpoch = 0;
    quint64 m_referenceEpoch = 0;

    // Segmentation and enrichment (both on the decode pool).
    QTimer m_decodeTimer;
    JobSlot m_decodeJob;
    SegmentationHandle m_segmentation;
    QStringList m_enrichmentPaths;
    JobSlot m_enrichmentJob;
    std::optional<EnrichmentTable> m_enrichment;

    // Weights-vs-γ sweep.
    QVector<double> m_sweepGammas;
    JobSlot m_sweepJob;
    WeightSweep m_sweep;
    int m_bootstrapBlockLength = 0;
    int m_bandBlockLength = 0; ///< requested block length of sweep().bootstrap

    // Baum–Welch refinement of the γ = 0 model.
    JobSlot m_refineJob;
    std::shared_ptr<const ReferenceRefinement> m_refinement;
};

} // namespace cx::ui
