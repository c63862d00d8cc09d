#include "ui/topics/topics_controller.h"

#include "ui/topics/selection_resolver.h"

#include "core/common/error.h"
#include "core/io/selection.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"

#include <QFileInfo>

#include <algorithm>
#include <iterator>

namespace cx::ui {

int TopicsController::engineCapacityFor(int numComponents) {
    const int k = std::max(1, numComponents);
    return std::max(5, (k + 4) / 5 * 5);
}

int TopicsController::requiredCapacity() const {
    int capacity = engineCapacityFor(m_parameters.numComponents);
    if (m_corpus.corpus) {
        const auto vocabulary =
            static_cast<int>(std::min<std::int64_t>(m_corpus.corpus->counts.numCols, 1 << 30));
        capacity = std::min(capacity, std::max(m_parameters.numComponents, vocabulary));
    }
    return capacity;
}

TopicsController::TopicsController(QObject* parent)
    : SolvingControllerBase(QStringLiteral("cx-topic-worker"), TaskKind::Load, m_stats, parent) {
    qRegisterMetaType<cx::ui::CorpusHandle>();
    qRegisterMetaType<cx::ui::EngineState>();
    qRegisterMetaType<cx::ui::SelectionPreview>();
    qRegisterMetaType<cx::ui::TopicSolution>();
    qRegisterMetaType<cx::ui::SweepPoint>();
    qRegisterMetaType<cx::ui::TaskKind>();

    const TopicWorker* worker = m_worker.worker();
    connect(worker, &TopicWorker::loaded, this, &TopicsController::onLoaded);
    connect(worker, &TopicWorker::built, this, &TopicsController::onBuilt);
    connect(worker, &TopicWorker::solved, this, &TopicsController::onSolved);
    m_worker.start();
}

TopicsController::~TopicsController() {
    m_bootstrapJob.stop();
    m_sweepJob.stop();
    m_previewJob.stop();
    shutDown();
}

QString TopicsController::taskFailureTitle(TaskKind kind) const {
    return kind == TaskKind::Load ? tr("Could not open the corpus")
                                  : tr("Could not compute the moments");
}

QString TopicsController::solveFailureTitle() const {
    return tr("Could not decompose");
}

void TopicsController::taskAborted() {
    // A load can have superseded a build too: whatever was cancelled or failed, make the
    // requested state match the engine again so γ/K changes keep working on what is shown.
    if (!engineFits()) {
        revertToEngine();
    }
}

void TopicsController::loadCorpus(const QString& path, const cx::CorpusLoadOptions& options) {
    startTask(TaskKind::Load, tr("Loading %1").arg(QFileInfo(path).fileName()));
    LoadRequest request;
    request.generation = m_task.generation();
    request.path = path;
    request.options = options;
    request.cancel = m_task.cancelToken();
    m_worker.post([request](TopicWorker& worker) { worker.load(request); });
}

void TopicsController::setCorpus(const CorpusHandle& corpus) {
    m_worker.release(m_corpus.corpus);
    m_worker.release(m_engine);
    m_corpus = corpus;
    m_engine.reset();
    m_engineCache.clear();
    m_hasSelection = false;
    m_selection = {};
    m_solves.newEpoch();
    m_solves.dropPending();
    m_shown = {};
    m_sweepJob.stop();
    m_sweepPoints.clear();
    m_identitySource.reset(); // identities belong to the data they were found on
    emit corpusChanged(m_corpus);
    emit solutionChanged(m_shown);
    emit sweepStarted({});
    emit activityChanged();
}

void TopicsController::applySelection(const SelectionSpec& selection) {
    if (!m_corpus.corpus) {
        return;
    }
    m_selection = selection;
    m_hasSelection = true;
    ensureEngine();
}

bool TopicsController::engineFits() const {
    return m_engine && m_hasSelection && m_engine->selection == m_selection &&
           m_engine->corpus == m_corpus.corpus &&
           m_engine->engine->maxComponents() == requiredCapacity();
}

void TopicsController::ensureEngine() {
    if (!m_corpus.corpus || !m_hasSelection) {
        return;
    }
    if (engineFits()) {
        if (m_task.isRunning(TaskKind::Build)) {
            // A build for another choice is running, but the user came back to the current
            // engine's choice: the build is now pointless.
            m_task.cancel();
        }
        return;
    }
    const int capacity = requiredCapacity();
    if (m_task.isRunning(TaskKind::Build) && m_buildingSelection == m_selection &&
        m_buildingCapacity == capacity) {
        return; // exactly this engine is being built (e.g. only the seed changed meanwhile)
    }
    if (auto hit = m_engineCache.take([&](const EngineState& cached) {
            return cached.corpus == m_corpus.corpus && cached.selection == m_selection &&
                   cached.engine->maxComponents() == capacity;
        })) {
        ++m_stats.engineCacheHits;
        if (m_task.isRunning(TaskKind::Build)) {
            m_task.cancel();
        }
        setEngine(std::move(hit));
        return;
    }
    startBuild();
}

void TopicsController::startBuild() {
    startTask(TaskKind::Build, tr("Computing moments"));
    BuildRequest request;
    request.generation = m_task.generation();
    request.corpus = m_corpus.corpus;
    request.selection = m_selection;
    request.maxComponents = requiredCapacity();
    m_buildingSelection = m_selection;
    m_buildingCapacity = request.maxComponents;
    request.cancel = m_task.cancelToken();
    // The basis is seeded independently of the decomposition seed: changing the seed re-runs
    // the (cheap) decomposition only, never the passes over the data.
    request.projection.seed = 1;
    m_worker.post([request](TopicWorker& worker) { worker.build(request); });
}

void TopicsController::setEngine(std::shared_ptr<const EngineState> engine) {
    if (m_engine) {
        m_engineCache.pushFront(m_engine);
    }
    m_engine = std::move(engine);
    m_solves.newEpoch();
    emit engineChanged(*m_engine);
    requestSolve();
    restartSweep();
}

void TopicsController::setParameters(const ModelParameters& parameters) {
    if (parameters == m_parameters) {
        return;
    }
    m_parameters = parameters;
    m_solves.newEpoch();
    if (m_engine && !engineFits()) {
        ensureEngine(); // K needs another basis size: build (or reuse a cached engine)
        return;
    }
    requestSolve();
    restartSweep();
}

void TopicsController::setGamma(double gamma) {
    if (!acceptGamma(gamma)) {
        return;
    }
    m_gamma = gamma;
    requestSolve();
}

void TopicsController::requestSolve() {
    if (!engineFits()) {
        return; // the build in progress will request the solve when it lands
    }
    SolveRequest request;
    request.generation = nextGeneration();
    request.epoch = m_solves.epoch();
    request.engine = m_engine;
    request.gamma = m_gamma;
    request.parameters = m_parameters;
    request.topWords = m_topWords;
    request.cancel = cx::CancelToken::create();
    request.requestedAtMs = clockMs();
    m_solves.submit(std::move(request));
    emit activityChanged();
}

void TopicsController::dispatchSolve(SolveRequest request) {
    m_worker.post([request = std::move(request)](TopicWorker& worker) { worker.solve(request); });
}

void TopicsController::onSolved(const TopicSolution& solution) {
    const bool sameCorpus = solution.corpus == m_corpus.corpus;
    if (m_solves.acceptResult(solution, m_shown, sameCorpus, clockMs())) {
        m_shown = solution;
        emit solutionChanged(m_shown);
    }
    finishSolve();
}

void TopicsController::onLoaded(quint64 generation, const CorpusHandle& corpus) {
    if (!m_task.isCurrent(generation)) {
        m_worker.release(corpus.corpus);
        return;
    }
    finishTask(TaskOutcome::Finished);
    setCorpus(corpus);
}

void TopicsController::onBuilt(quint64 generation, const EngineState& engine) {
    auto state = std::make_shared<const EngineState>(engine);
    if (!m_task.isCurrent(generation)) {
        // A newer task superseded this build, but the engine is valid: keep it for reuse.
        if (state->corpus == m_corpus.corpus) {
            m_engineCache.pushBack(std::move(state));
        }
        return;
    }
    ++m_stats.enginesBuilt;
    finishTask(TaskOutcome::Finished);
    setEngine(std::move(state));
}

void TopicsController::revertToEngine() {
    // Keep what is shown consistent with what the panels say: go back to the engine's choice.
    if (m_engine) {
        m_selection = m_engine->selection;
        m_hasSelection = true;
        if (!engineFits()) {
            const int shownK = m_shown.isValid() ? m_shown.parameters.numComponents
                                                 : m_engine->engine->maxComponents();
            m_parameters.numComponents = shownK;
            if (!engineFits()) {
                m_parameters.numComponents = m_engine->engine->maxComponents();
            }
            m_solves.newEpoch();
            requestSolve();
            restartSweep();
        }
    } else {
        m_hasSelection = false;
    }
    emit stateReverted();
}

void TopicsController::setSweep(const SweepSpec& sweep) {
    if (sweep == m_sweep) {
        return;
    }
    m_sweep = sweep;
    restartSweep();
}

void TopicsController::restartSweep() {
    cancelBootstrap(); // its path is about to be superseded
    m_lastSweep.reset();
    m_lastBootstrap.reset();
    const quint64 generation = m_sweepJob.restart();
    m_sweepPoints.clear();
    if (!engineFits() || m_sweep.positiveRule.trimmed().isEmpty() || m_sweep.gammas.isEmpty()) {
        emit sweepStarted({});
        emit activityChanged();
        return;
    }
    ++m_stats.sweepsStarted;
    auto engine = m_engine;
    const SweepSpec spec = m_sweep;
    const cx::TopicModelOptions options = m_parameters.toOptions();
    // The last path of the same corpus (another K, grid or choice): its topics that persist
    // keep their identities (names, colours) on the new path.
    std::shared_ptr<const cx::SpecificitySweep> previous =
        m_identitySource && m_identitySourceCorpus == engine->corpus ? m_identitySource : nullptr;
    startJob(
        m_sweepPool, m_sweepJob, generation,
        [this, generation, engine, spec, options, previous](const cx::CancelToken& cancel) {
            // Runs on the sweep pool. Touches only its captured copies; points go back to the
            // GUI thread as queued calls tagged with the sweep generation.
            const std::vector<bool> positive = cx::matchForeground(
                *engine->corpus, engine->foreground, spec.positiveRule.toStdString());
            const auto positives = std::count(positive.begin(), positive.end(), true);
            if (positives == 0 || positives == static_cast<long>(positive.size())) {
                throw cx::InputError("specificity rule '" + spec.positiveRule.toStdString() +
                                     "' matches " + std::to_string(positives) + " of " +
                                     std::to_string(positive.size()) +
                                     " foreground documents; the AUC needs both classes");
            }
            const std::vector<double> gammas(spec.gammas.begin(), spec.gammas.end());
            SweepOutcome outcome;
            cx::SpecificitySweep computed = cx::specificitySweep(
                *engine->engine, gammas, positive, options, spec.smoothing, cancel,
                [this, generation](const cx::SpecificityPoint& p) {
                    SweepPoint point{p.gamma, p.auc, p.relativeAuc, p.numForegroundSpecific, 0, {}};
                    point.failure = QString::fromStdString(p.failure);
                    point.numInadmissible = p.numInadmissible;
                    QMetaObject::invokeMethod(
                        this,
                        [this, generation, point] {
                            if (m_sweepJob.isCurrent(generation)) {
                                m_sweepPoints.push_back(point);
                                emit sweepPointReady(point);
                            }
                        },
                        Qt::QueuedConnection);
                });
            if (previous) {
                cx::carryIdentities(previous->path, computed.path);
            }
            // The one-sample check of each foreground-specific topic (judgeSweep's rule 5):
            // the same path on two seeded halves of the documents, as `contrast-cli sweep`.
            if (spec.splitHalf) {
                computed.halves = cx::splitHalfPath(*engine->engine, computed.path, options,
                                                    options.seed, cancel);
            }
            outcome.sweep = std::make_shared<const cx::SpecificitySweep>(std::move(computed));
            outcome.positive = std::make_shared<const std::vector<bool>>(positive);
            return outcome;
        },
        [this, engine, options, spec](SweepOutcome outcome, const QString& error) {
            if (error.isEmpty()) {
                m_lastSweep = outcome.sweep;
                m_identitySource = outcome.sweep;
                m_identitySourceCorpus = engine->corpus;
                m_lastPositive = outcome.positive;
                m_lastSweepEngine = engine;
                m_lastSweepOptions = options;
                m_lastSweepSmoothing = spec.smoothing;
                emit sweepFinished();
                if (m_lastSweep) {
                    emit sweepPathReady(m_lastSweep);
                }
            } else {
                emit sweepFailed(error);
            }
            emit activityChanged();
        });
    emit sweepStarted(m_sweep.gammas);
    emit activityChanged();
}

void TopicsController::startBootstrap(int replicates) {
    const quint64 generation = m_bootstrapJob.restart();
    if (!m_lastSweep || !m_lastSweepEngine || replicates < 2) {
        emit bootstrapFailed(tr("Compute the AUC sweep first (the bootstrap resamples its path)"));
        return;
    }
    auto engine = m_lastSweepEngine;
    auto sweep = m_lastSweep;
    auto positive = m_lastPositive;
    const cx::TopicModelOptions options = m_lastSweepOptions;
    const cx::ScorerSmoothing smoothing = m_lastSweepSmoothing;
    startBootstrapJob(
        m_sweepPool, generation, replicates,
        [engine, sweep, positive, options, smoothing,
         replicates](const cx::CancelToken& cancel, const std::function<void(int, int)>& progress) {
            cx::BootstrapOptions bootstrap;
            bootstrap.replicates = replicates;
            bootstrap.seed = options.seed;
            return std::make_shared<const cx::PathBootstrap>(
                cx::bootstrapPath(*engine->engine, sweep->path, *positive, options, bootstrap,
                                  smoothing, cancel, progress));
        },
        [this](std::shared_ptr<const cx::PathBootstrap> result, const QString& error) {
            if (result && error.isEmpty()) {
                m_lastBootstrap = result;
                emit bootstrapFinished(result);
            } else {
                emit bootstrapFailed(error);
            }
        });
}

int TopicsController::bandReplicates() const {
    if (m_bootstrapJob.running) {
        return m_bootstrapReplicates;
    }
    return m_lastBootstrap ? m_lastBootstrap->replicates : 0;
}

void TopicsController::previewSelection(const SelectionSpec& selection) {
    const quint64 generation = m_previewJob.restart();
    if (!m_corpus.corpus) {
        return;
    }
    auto corpus = m_corpus.corpus;
    startJob(
        m_previewPool, m_previewJob, generation,
        [generation, corpus, selection](const cx::CancelToken&) {
            SelectionPreview preview;
            preview.generation = generation;
            std::vector<std::int64_t> fg;
            std::vector<std::int64_t> bg;
            bool fgOk = false;
            bool bgOk = false;
            try {
                const cx::Selection s =
                    cx::selectDocuments(*corpus, selection.foregroundRule.toStdString());
                fg = s.documents;
                fgOk = true;
                for (const auto& w : s.warnings) {
                    preview.warnings << QString::fromStdString(w);
                }
            } catch (const std::exception& e) {
                preview.foregroundError = QString::fromStdString(e.what());
            }
            try {
                if (selection.backgroundMode == BackgroundMode::Rule) {
                    const cx::Selection s =
                        cx::selectDocuments(*corpus, selection.backgroundRule.toStdString());
                    bg = s.documents;
                    bgOk = true;
                    for (const auto& w : s.warnings) {
                        preview.warnings << QString::fromStdString(w);
                    }
                } else if (selection.backgroundMode == BackgroundMode::All || fgOk) {
                    const ResolvedSelection r =
                        resolveSelection(*corpus, SelectionSpec{fgOk ? selection.foregroundRule
                                                                     : QStringLiteral("*"),
                                                                selection.backgroundMode,
                                                                {}});
                    bg = r.background;
                    bgOk = true;
                }
            } catch (const std::exception& e) {
                preview.backgroundError = QString::fromStdString(e.what());
            }
            if (fgOk) {
                preview.foreground = static_cast<std::int64_t>(fg.size());
            }
            if (bgOk) {
                preview.background = static_cast<std::int64_t>(bg.size());
            }
            if (fgOk && bgOk) {
                std::vector<std::int64_t> common;
                std::set_intersection(fg.begin(), fg.end(), bg.begin(), bg.end(),
                                      std::back_inserter(common));
                preview.overlap = static_cast<std::int64_t>(common.size());
            }
            return preview;
        },
        [this](const SelectionPreview& preview, const QString&) {
            emit selectionPreviewReady(preview);
        });
}

} // namespace cx::ui
