#pragma once

// Value types that cross the GUI ↔ worker thread boundary. Everything here is copied by value
// through queued signals; large payloads (corpus, engine, decomposition) travel as
// shared_ptr<const T> so a copy is a reference-count increment and nobody can mutate what
// another thread is reading.

#include "core/io/corpus.h"
#include "core/io/corpus_loader.h"
#include "core/io/selection.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/topic_evaluation.h"
#include "ui/charts/sweep_point.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace cx::ui {

/// Where the background comes from (cx::BackgroundMode: a rule, not-the-foreground, all).
using BackgroundMode = cx::BackgroundMode;

/// The foreground/background choice that defines one engine.
struct SelectionSpec {
    QString foregroundRule;
    BackgroundMode backgroundMode = BackgroundMode::Rule;
    QString backgroundRule; ///< used when backgroundMode == Rule

    bool operator==(const SelectionSpec&) const = default;
    /// Human-readable background description ("all documents not in the foreground", or the rule).
    QString backgroundDescription() const;
};

/// Decomposition parameters (everything but γ) that a solve depends on.
struct ModelParameters {
    int numComponents = 10;
    int iterations = 100;
    int restarts = 5;
    std::uint64_t seed = 1;
    /// Of the whitened core: the pencil by default (continuous along γ, README "Pencil").
    cx::Decomposition decomposition = cx::Decomposition::Pencil;

    bool operator==(const ModelParameters&) const = default;
    cx::TopicModelOptions toOptions() const;
};

/// A corpus together with where it came from. Shared read-only between threads.
struct CorpusHandle {
    std::shared_ptr<const cx::Corpus> corpus;
    QString source; ///< path (or a description for in-memory corpora)
    cx::CorpusLoadOptions options;
    double loadMs = 0;
};

/// A built engine with the selection it was built for.
struct EngineState {
    std::shared_ptr<const cx::ContrastiveTopicEngine> engine;
    std::shared_ptr<const cx::Corpus> corpus; ///< keeps the counts the engine points into alive
    SelectionSpec selection;
    std::vector<std::int64_t> foreground; ///< sorted document indices
    std::vector<std::int64_t> background; ///< sorted document indices
    std::int64_t overlap = 0;             ///< |foreground ∩ background|
    QStringList warnings;
    double selectMs = 0;
    double buildMs = 0;
};

/// Sizes of a foreground/background choice, computed off the GUI thread for the data panel.
struct SelectionPreview {
    quint64 generation = 0;
    std::int64_t foreground = -1; ///< -1: rule invalid or not evaluated
    std::int64_t background = -1;
    std::int64_t overlap = -1;
    QString foregroundError;
    QString backgroundError;
    QStringList warnings;
};

/// One decomposition shown in the views: the core result plus what the views need precomputed
/// off the GUI thread (top words per component).
struct TopicSolution {
    quint64 generation = 0; ///< request generation (monotonic per controller)
    quint64 epoch = 0;      ///< engine + model-parameter epoch the request belonged to
    double gamma = 0;
    ModelParameters parameters;
    std::shared_ptr<const cx::TopicModelResult> result;
    std::shared_ptr<const cx::Corpus> corpus; ///< vocabulary for the top words
    /// Top word ids per component (result column order), largest probability first.
    std::vector<std::vector<std::int32_t>> topWords;
    /// NPMI coherence of each component's top cx::kCoherenceWords words over every document of
    /// the corpus (cx::topicCoherence; NaN where undefined), as contrast-cli's npmi column.
    std::vector<double> npmi;
    double solveMs = 0;       ///< core decomposition time
    double workerMs = 0;      ///< solve + top-word extraction on the worker
    qint64 requestedAtMs = 0; ///< controller clock when the request was made (for latency)

    bool isValid() const { return result != nullptr; }
};

/// Parameters of the specificity sweep behind the AUC chart.
struct SweepSpec {
    QString positiveRule; ///< foreground documents matching it are the "positives"
    QVector<double> gammas;
    cx::ScorerSmoothing smoothing; ///< the scorer's smoothing (from the session; default:
                                   ///< automatic, word-frequency prior)
    /// Also solve the path on two seeded halves of the documents (cx::splitHalfPath): a γ whose
    /// foreground-specific topics are not found in both is not stood behind. On unless a
    /// session saved before the check existed (or by `sweep --no-split-half`) says otherwise.
    bool splitHalf = true;

    bool operator==(const SweepSpec&) const = default;
};

/// The kinds of long task the progress UI reports.
enum class TaskKind { Load, Build };

/// Parses "start:stop:step" or a comma list ("0,0.5,1") into a γ grid. Returns an empty vector
/// and sets `error` on bad input (negative, not finite, too many points, step ≤ 0).
QVector<double> parseGammaGrid(const QString& text, QString* error);

} // namespace cx::ui

Q_DECLARE_METATYPE(cx::ui::CorpusHandle)
Q_DECLARE_METATYPE(cx::ui::EngineState)
Q_DECLARE_METATYPE(cx::ui::SelectionPreview)
Q_DECLARE_METATYPE(cx::ui::TopicSolution)
Q_DECLARE_METATYPE(cx::ui::SweepPoint)
Q_DECLARE_METATYPE(cx::ui::TaskKind)
