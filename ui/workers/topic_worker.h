#pragma once

#include "ui/workers/topic_types.h"

#include "core/common/cancel.h"

#include <QObject>

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

/// Runs core computations on the controller's worker thread. Stateless: every request carries
/// what it needs (shared, immutable corpus/engine), so the controller can drop or replace
/// requests without synchronising with the worker. Never touches widgets.
///
/// Every slot catches everything: core throws cx::Cancelled when a token is set (reported as
/// cancelled), cx::InputError for user-facing problems and std::exception otherwise (both
/// reported as failed with the message).
class TopicWorker : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    void load(const LoadRequest& request);
    void build(const BuildRequest& request);
    void solve(const SolveRequest& request);

    /// The top `count` word ids of every component of `result` (by probability).
    static std::vector<std::vector<std::int32_t>> topWords(const cx::TopicModelResult& result,
                                                           int count);

signals:
    void progress(quint64 generation, double fraction, const QString& phase);
    void loaded(quint64 generation, const cx::ui::CorpusHandle& corpus);
    void built(quint64 generation, const cx::ui::EngineState& engine);
    void solved(const cx::ui::TopicSolution& solution);
    void taskCancelled(quint64 generation);
    void taskFailed(quint64 generation, const QString& message);
    void solveFailed(quint64 generation, quint64 epoch, const QString& message);
    void solveCancelled(quint64 generation);

private:
    cx::ProgressFn progressReporter(quint64 generation);
};

} // namespace cx::ui
