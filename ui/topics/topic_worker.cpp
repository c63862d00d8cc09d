#include "ui/topics/topic_worker.h"

#include "ui/topics/selection_resolver.h"

#include "core/common/error.h"
#include "core/common/timer.h"
#include "core/topics/topic_coherence.h"
#include "core/topics/topic_evaluation.h"

#include <numeric>

namespace cx::ui {

void TopicWorker::load(const LoadRequest& request) {
    const QString outOfMemory =
        request.path + QStringLiteral(": not enough memory to load this corpus");
    runTask(request.generation, outOfMemory, [&] {
        cx::Stopwatch watch;
        auto corpus = std::make_shared<cx::Corpus>(
            cx::loadCorpus(request.path.toStdString(), request.options, request.cancel,
                           progressReporter(request.generation)));
        CorpusHandle handle;
        handle.corpus = std::move(corpus);
        handle.source = request.path;
        handle.options = request.options;
        handle.loadMs = watch.elapsedMs();
        emit loaded(request.generation, handle);
    });
}

void TopicWorker::build(const BuildRequest& request) {
    const QString outOfMemory =
        QStringLiteral("not enough memory to compute the moments of this selection");
    runTask(request.generation, outOfMemory, [&] {
        const cx::ProgressFn report = progressReporter(request.generation);
        if (report) {
            report(0.0, "selecting documents");
        }
        cx::Stopwatch watch;
        ResolvedSelection selection = resolveSelection(*request.corpus, request.selection);
        const double selectMs = watch.elapsedMs();
        if (selection.foreground.empty()) {
            throw cx::InputError("foreground rule '" +
                                 request.selection.foregroundRule.toStdString() +
                                 "' selects no document");
        }
        if (selection.background.empty()) {
            throw cx::InputError("background '" +
                                 request.selection.backgroundDescription().toStdString() +
                                 "' selects no document");
        }
        if (selection.background.size() < 10) {
            selection.warnings
                << QStringLiteral("background has only %1 documents: its moments are very noisy")
                       .arg(selection.background.size());
        }
        cx::throwIfCancelled(request.cancel);
        watch.restart();
        // The engine refers into the corpus' counts: the aliasing shared_ptr keeps the corpus
        // alive for as long as any engine (or in-flight solve) uses it.
        std::shared_ptr<const cx::CountMatrix> counts(request.corpus, &request.corpus->counts);
        auto engine = std::make_shared<const cx::ContrastiveTopicEngine>(
            counts, selection.foreground, selection.background, request.maxComponents,
            request.projection, request.cancel, report);
        EngineState state;
        state.engine = std::move(engine);
        state.corpus = request.corpus;
        state.selection = request.selection;
        state.foreground = std::move(selection.foreground);
        state.background = std::move(selection.background);
        state.overlap = selection.overlap;
        state.warnings = selection.warnings;
        state.selectMs = selectMs;
        state.buildMs = watch.elapsedMs();
        emit built(request.generation, state);
    });
}

std::vector<std::vector<std::int32_t>> TopicWorker::topWords(const cx::TopicModelResult& result,
                                                             int count) {
    std::vector<std::vector<std::int32_t>> out;
    out.reserve(static_cast<size_t>(result.numComponents()));
    for (int t = 0; t < result.numComponents(); ++t) {
        const auto top = cx::topEntries(result.topics.col(t), count);
        out.emplace_back(top.begin(), top.end());
    }
    return out;
}

void TopicWorker::solve(const SolveRequest& request) {
    runSolve(request.generation, request.epoch, [&] {
        cx::Stopwatch watch;
        auto result = std::make_shared<cx::TopicModelResult>(request.engine->engine->solve(
            request.gamma, request.parameters.toOptions(), request.cancel));
        TopicSolution solution;
        solution.generation = request.generation;
        solution.epoch = request.epoch;
        solution.gamma = request.gamma;
        solution.parameters = request.parameters;
        solution.topWords = topWords(*result, request.topWords);
        // NPMI of each component's top words over every document (as contrast-cli's npmi).
        std::vector<std::int64_t> every(
            static_cast<size_t>(request.engine->corpus->numDocuments()));
        std::iota(every.begin(), every.end(), std::int64_t{0});
        solution.npmi = cx::topicCoherence(request.engine->corpus->counts, every, *result);
        solution.solveMs = result->solveMs;
        solution.result = std::move(result);
        solution.corpus = request.engine->corpus;
        solution.requestedAtMs = request.requestedAtMs;
        solution.workerMs = watch.elapsedMs();
        emit solved(solution);
    });
}

} // namespace cx::ui
