#pragma once

#include "ui/framework/bootstrap_controller.h"
#include "ui/framework/state_cache.h"
#include "ui/topics/topic_types.h"
#include "ui/topics/topic_worker.h"

#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"

#include <memory>

namespace cx::ui {

/// Owns the analysis state of the Topics workspace (corpus, engine, shown decomposition, AUC
/// sweep) and schedules all computation off the GUI thread.
///
/// Threads:
///  - a TopicWorker on the member QThread runs loads, engine builds and solves, in order;
///  - a one-thread pool runs the specificity sweep for the AUC chart, so a sweep never delays a
///    slider-driven solve;
///  - a one-thread pool evaluates selection previews (document counts) for the data panel.
/// Every request carries a generation number; results of superseded requests are dropped here,
/// on the GUI thread, so the views only ever see the newest state.
///
/// Solves follow SolveScheduler ("latest request wins"): at most one in flight and one
/// pending, a new γ/K replaces the pending request, results of another epoch (engine or model
/// parameters changed) or superseded ones are dropped, except as a live preview every
/// livePreviewIntervalMs while the slider is dragged. The worker, long task, solves and their
/// failure reporting are SolvingControllerBase's.
class TopicsController : public SolvingControllerBase<TopicsController, TaskKind, TopicWorker,
                                                      SolveRequest, BootstrappingController> {
    Q_OBJECT
public:
    /// Counters for tests and the status line.
    struct Statistics : SolveStatistics {
        int enginesBuilt = 0;
        int engineCacheHits = 0;
        int sweepsStarted = 0;
    };

    explicit TopicsController(QObject* parent = nullptr);
    ~TopicsController() override;

    /// Loads a corpus in the background (cancels any running load/build). On success the
    /// corpus replaces the current one; on failure or cancel nothing changes.
    void loadCorpus(const QString& path, const cx::CorpusLoadOptions& options);
    /// Uses an in-memory corpus (tests, synthetic data). Clears engine, solution and sweep.
    void setCorpus(const CorpusHandle& corpus);
    /// Chooses foreground/background; builds (or reuses) the engine in the background.
    void applySelection(const SelectionSpec& selection);
    /// Computes the sizes of a prospective selection in the background → selectionPreviewReady.
    void previewSelection(const SelectionSpec& selection);
    /// K, iterations, restarts, seed. Rebuilds the engine when K needs a larger basis.
    void setParameters(const ModelParameters& parameters);
    void setGamma(double gamma);
    /// Positive rule and γ grid of the AUC chart. An empty rule disables the sweep.
    void setSweep(const SweepSpec& sweep);
    /// Bootstrap over documents of the last finished sweep's path (`replicates` resamples,
    /// seeded by the model seed), on the sweep pool: bootstrapStarted, bootstrapProgress, then
    /// bootstrapFinished or bootstrapFailed. A new sweep cancels it. Cancel, progress and
    /// failure are BootstrappingController's (cancelBootstrap, bootstrapProgress, bootstrapFailed).
    void startBootstrap(int replicates);
    /// Resamples of the bands shown or being computed (0: none), what a session records.
    int bandReplicates() const;
    /// The last finished sweep (its path) and its bootstrap, if any.
    std::shared_ptr<const cx::SpecificitySweep> lastSweep() const { return m_lastSweep; }
    std::shared_ptr<const cx::PathBootstrap> lastBootstrap() const { return m_lastBootstrap; }
    /// The next sweep numbers its topic identities afresh instead of carrying the last path's
    /// (a session's names are keyed by the fresh numbers, TopicPath::canonicalIds).
    void forgetIdentities() {
        m_identitySource.reset();
        m_identitySourceCorpus.reset();
    }
    const CorpusHandle& corpus() const { return m_corpus; }
    std::shared_ptr<const EngineState> engine() const { return m_engine; }
    const TopicSolution& solution() const { return m_shown; }
    const SelectionSpec& selection() const { return m_selection; }
    bool hasSelection() const { return m_hasSelection; }
    const ModelParameters& parameters() const { return m_parameters; }
    double gamma() const { return m_gamma; }
    const SweepSpec& sweep() const { return m_sweep; }
    const QVector<SweepPoint>& sweepPoints() const { return m_sweepPoints; }
    bool isSweepRunning() const { return m_sweepJob.running; }
    /// No load, build, solve or sweep in progress.
    bool isIdle() const {
        return !isTaskRunning() && !isSolving() && !m_sweepJob.running && !m_bootstrapJob.running;
    }
    const Statistics& statistics() const { return m_stats; }
    /// Engine basis size used for K: the smallest multiple of 5 that is ≥ K (so that K's
    /// numbers never depend on the order in which K was changed, and small K changes reuse the
    /// engine). K = 10 gives 10, matching `contrast-cli --k 10`.
    static int engineCapacityFor(int numComponents);
    /// engineCapacityFor(K) capped by the current corpus' vocabulary (never below K, so an
    /// impossible K reaches core and is reported with core's message).
    int requiredCapacity() const;

signals:
    void taskStarted(cx::ui::TaskKind kind, const QString& description);
    void taskFinished(cx::ui::TaskKind kind, cx::ui::TaskOutcome outcome);
    void corpusChanged(const cx::ui::CorpusHandle& corpus);
    void engineChanged(const cx::ui::EngineState& engine);
    /// The selection/parameters were reverted to match the engine after a cancelled or failed
    /// build; panels should re-read selection() and parameters().
    void stateReverted();
    void solutionChanged(const cx::ui::TopicSolution& solution);
    /// The newest solve failed (the previous solution stays shown).
    void solveFailed(const QString& message);
    void selectionPreviewReady(const cx::ui::SelectionPreview& preview);
    /// A new sweep started over `gammas` (empty: no sweep, e.g. no positive rule).
    void sweepStarted(const QVector<double>& gammas);
    void sweepPointReady(const cx::ui::SweepPoint& point);
    void sweepFinished();
    void sweepFailed(const QString& message);
    /// The finished sweep's path (solutions with stable identities along γ).
    void sweepPathReady(std::shared_ptr<const cx::SpecificitySweep> sweep);
    void bootstrapFinished(std::shared_ptr<const cx::PathBootstrap> bootstrap);

private:
    QString taskFailureTitle(TaskKind kind) const override;
    QString solveFailureTitle() const override;
    void taskAborted() override;
    void dispatchSolve(SolveRequest request) override;

    void startBuild();
    void ensureEngine();
    void setEngine(std::shared_ptr<const EngineState> engine);
    bool engineFits() const;
    void requestSolve();
    void restartSweep();
    void revertToEngine();

    void onLoaded(quint64 generation, const CorpusHandle& corpus);
    void onBuilt(quint64 generation, const EngineState& engine);
    void onSolved(const TopicSolution& solution);

    QThreadPool* m_sweepPool = createJobPool();
    QThreadPool* m_previewPool = createJobPool();

    Statistics m_stats;

    // Long task (load or build): what the running build (if any) is for.
    SelectionSpec m_buildingSelection;
    int m_buildingCapacity = 0;

    CorpusHandle m_corpus;
    std::shared_ptr<const EngineState> m_engine;
    StateCache<EngineState, TopicWorker> m_engineCache{m_worker, 3};
    SelectionSpec m_selection;
    bool m_hasSelection = false;
    ModelParameters m_parameters;
    double m_gamma = 0;
    int m_topWords = 50;

    TopicSolution m_shown;

    // Sweep.
    SweepSpec m_sweep;
    JobSlot m_sweepJob;
    QVector<SweepPoint> m_sweepPoints;
    /// What the last finished sweep computed, for the bootstrap.
    struct SweepOutcome {
        std::shared_ptr<const cx::SpecificitySweep> sweep;
        std::shared_ptr<const std::vector<bool>> positive;
    };
    std::shared_ptr<const cx::SpecificitySweep> m_lastSweep;
    std::shared_ptr<const std::vector<bool>> m_lastPositive;
    std::shared_ptr<const EngineState> m_lastSweepEngine;
    cx::TopicModelOptions m_lastSweepOptions;
    cx::ScorerSmoothing m_lastSweepSmoothing;
    std::shared_ptr<const cx::PathBootstrap> m_lastBootstrap;
    /// The last finished path and its corpus: the next sweep of that corpus carries its
    /// identities over (cx::carryIdentities), e.g. across a change of K.
    std::shared_ptr<const cx::SpecificitySweep> m_identitySource;
    std::shared_ptr<const cx::Corpus> m_identitySourceCorpus;

    JobSlot m_previewJob;
};

} // namespace cx::ui
