#pragma once

#include "ui/framework/worker_base.h"
#include "ui/topics/topic_types.h"

#include "core/common/cancel.h"

namespace cx::ui {

/// Load a corpus from disk.
struct LoadRequest {
    quint64 generation = 0;
    QString path;
    cx::CorpusLoadOptions options;
    cx::CancelToken cancel;
};

/// Select foreground/background documents and build the contrastive engine (the expensive,
/// once-per-selection step: passes over the data).
struct BuildRequest {
    quint64 generation = 0;
    std::shared_ptr<const cx::Corpus> corpus;
    SelectionSpec selection;
    int maxComponents = 10;
    cx::ProjectionOptions projection;
    cx::CancelToken cancel;
};

/// One decomposition at one γ on an existing engine (milliseconds).
struct SolveRequest {
    quint64 generation = 0;
    quint64 epoch = 0;
    std::shared_ptr<const EngineState> engine;
    double gamma = 0;
    ModelParameters parameters;
    int topWords = 30;
    cx::CancelToken cancel;
    qint64 requestedAtMs = 0;
};

/// Runs the Topics workspace's loads, engine builds and solves on the controller's worker
/// thread. Stateless (see WorkerBase): every request carries what it needs (shared, immutable
/// corpus/engine), so the controller can drop or replace requests without synchronising with
/// the worker. Never touches widgets.
class TopicWorker : public WorkerBase {
    Q_OBJECT
public:
    using WorkerBase::WorkerBase;

    void load(const LoadRequest& request);
    void build(const BuildRequest& request);
    void solve(const SolveRequest& request);

    /// The top `count` word ids of every component of `result` (by probability).
    static std::vector<std::vector<std::int32_t>> topWords(const cx::TopicModelResult& result,
                                                           int count);

signals:
    void loaded(quint64 generation, const cx::ui::CorpusHandle& corpus);
    void built(quint64 generation, const cx::ui::EngineState& engine);
    void solved(const cx::ui::TopicSolution& solution);
};

} // namespace cx::ui
