// contrast-cli topics / sweep: the contrastive topic model (paper 001, Alg. 1) from the command line.
#include "cli_session.h"
#include "commands.h"
#include "topic_job.h"
#include "topic_session.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/json_writer.h"
#include "core/common/timer.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>

namespace cx::cli {

namespace {

void printHumanSummary(const TopicSession& session, const TopicModelResult& model) {
    const LoadReport& r = session.corpus->report;
    std::cout << "corpus: " << r.documentsKept << " documents (" << r.documentsRead << " read, "
              << r.documentsSkippedShort << " skipped as shorter than "
              << session.loadOptions.minTokens << " tokens), vocabulary " << r.vocabularySize
              << "\nforeground: " << session.foreground.size()
              << " documents, background: " << session.background.size() << " documents\n"
              << "gamma = " << model.gamma << ": " << model.numForegroundSpecific() << " of "
              << model.numComponents() << " components are foreground-specific (lambda > 0)\n";
    if (model.numRejected > 0) {
        std::cout << "note: " << model.numRejected << " of the " << session.modelOptions.numComponents
                  << " requested components had no admissible trial (weight beyond the model's "
                     "bound): K is larger than the data support at this gamma\n";
    }
    if (session.method != "direct" && model.effectiveRank < model.numComponents()) {
        std::cout << "note: only " << model.effectiveRank << " of the " << model.numComponents()
                  << " eigenvalues of M2f - gamma*M2b exceed its split-half noise level ("
                  << formatNumber(model.noiseLevel)
                  << "): the remaining components fit sampling noise; consider K = "
                  << model.effectiveRank << "\n";
    }
    if (model.status == Status::NotConverged) {
        std::string unsettled;
        for (int t = 0; t < model.numComponents(); ++t) {
            if (!model.converged[static_cast<size_t>(t)]) {
                unsettled += (unsettled.empty() ? "c" : ", c") + std::to_string(t + 1);
            }
        }
        std::cout << "note: " << unsettled << " still moving after " << session.modelOptions.iterations
                  << " power iterations (--iterations); shown is the last iterate\n";
    }
    std::cout << "\n";
    for (int t = 0; t < model.numComponents(); ++t) {
        const bool specific = model.foregroundSpecific[static_cast<size_t>(t)];
        std::cout << "c" << (t + 1) << (specific ? "  weight " : "  signed weight ")
                  << formatNumber(model.signedWeights[t]) << (specific ? "" : " (background/shared)")
                  << ":";
        for (auto i : topEntries(model.topics.col(t), std::min(session.topWords, 12))) {
            std::cout << ' ' << session.corpus->vocabulary[static_cast<size_t>(i)];
        }
        std::cout << '\n';
    }
}

} // namespace

int runTopics(const std::vector<std::string>& argv) {
    const Args args(argv, corpusFlags());
    TopicSession session;
    session.readOptions(args);
    const double gamma = args.real("gamma", 0.0, 1e12);
    const std::string positiveRule = args.string("positive", "");
    const std::string saveSession = args.string("save-session", "");
    args.rejectUnused();
    session.ensureOutDir();
    session.prepare();

    const TopicModelResult model = solveTopics(session, gamma);
    double auc = std::nan("");
    double baselineAuc = std::nan("");
    if (!positiveRule.empty()) {
        const std::vector<bool> positive = session.foregroundMatching(positiveRule);
        auc = rocAuc(perTokenLogLikelihood(session.corpus->counts, session.foreground, model,
                                           session.smoothing),
                     positive);
        const TopicModelResult baseline = session.engine->solve(0.0, session.modelOptions);
        baselineAuc = rocAuc(perTokenLogLikelihood(session.corpus->counts, session.foreground,
                                                   baseline, session.smoothing),
                             positive);
    }
    if (!session.outDir.empty()) {
        writeTopicFiles(session, model, session.outDir);
    }
    if (!saveSession.empty()) {
        const TopicsSection section =
            topicsSectionOf(session, gamma, positiveRule, std::string(), "topics");
        saveSessionSection(saveSession, TopicsSection::kKey,
                           [&](const auto& directory) { return section.toJson(directory); });
    }
    if (session.json) {
        JsonWriter json(std::cout);
        json.beginObject();
        session.writeJsonPreamble(json, "topics");
        json.field("gamma", gamma);
        json.key("timings_ms").beginObject();
        json.field("load", session.loadMs);
        json.field("moments", session.engine->timings().rangeMs);
        json.field("projection", session.engine->timings().projectionMs);
        json.key("decompositions").beginArray().value(model.solveMs).endArray();
        json.endObject();
        json.key("result").beginObject();
        json.field("status", toString(model.status));
        json.field("foreground_specific", model.numForegroundSpecific());
        json.field("rejected_components", model.numRejected);
        if (session.method != "direct") {
            json.field("m2_noise_level", model.noiseLevel);
            json.field("effective_rank", model.effectiveRank);
        }
        std::vector<double> lambdas(model.lambdas.data(), model.lambdas.data() + model.lambdas.size());
        std::vector<double> weights(model.weights.data(), model.weights.data() + model.weights.size());
        json.field("lambdas", lambdas);
        json.field("weights", weights);
        json.field("iterations", model.iterations);
        if (!positiveRule.empty()) {
            json.field("positive", positiveRule);
            json.field("auc", auc);
            json.field("relative_auc", auc / baselineAuc);
        }
        json.key("top_words").beginArray();
        for (int t = 0; t < model.numComponents(); ++t) {
            json.beginArray();
            for (auto i : topEntries(model.topics.col(t), session.topWords)) {
                json.value(session.corpus->vocabulary[static_cast<size_t>(i)]);
            }
            json.endArray();
        }
        json.endArray();
        json.endObject();
        json.endObject();
        std::cout << "\n";
    } else {
        printHumanSummary(session, model);
        if (!positiveRule.empty()) {
            std::cout << "\nspecificity AUC " << formatNumber(auc) << " (relative to gamma = 0: "
                      << formatNumber(auc / baselineAuc) << ")\n";
        }
        if (!session.outDir.empty()) {
            std::cout << "\nwrote " << session.outDir << "/{topic_word,components,top_words}.tsv\n";
        }
    }
    return 0;
}

int runSweep(const std::vector<std::string>& argv) {
    const Args args(argv, corpusFlags());
    TopicSession session;
    session.readOptions(args);
    const std::string positiveRule = args.string("positive");
    const std::string gammaGrid = args.string("gammas", "0:4:0.25");
    const std::vector<double> gammas = parseGrid("gammas", gammaGrid);
    const std::string saveSession = args.string("save-session", "");
    for (double g : gammas) {
        validateGamma(g);
    }
    for (size_t i = 1; i < gammas.size(); ++i) {
        if (gammas[i] < gammas[i - 1]) {
            throw InputError("parameter --gammas: the grid must be increasing (" +
                             formatNumber(gammas[i - 1]) + " is followed by " +
                             formatNumber(gammas[i]) + ")");
        }
    }
    const int replicates = static_cast<int>(args.integer("bootstrap", 0, 0, 10000));
    if (replicates == 1) {
        throw InputError("parameter --bootstrap: needs at least 2 resamples (got 1; 0 = none)");
    }
    args.rejectUnused();
    session.ensureOutDir();
    session.prepare();
    const std::vector<bool> positive = positiveFlags(session, positiveRule);
    const auto numPositive = std::count(positive.begin(), positive.end(), true);
    Stopwatch watch;
    const SpecificitySweep sweep =
        specificitySweep(*session.engine, gammas, positive, session.modelOptions, session.smoothing);
    const double sweepMs = watch.elapsedMs();
    watch.restart();
    PathBootstrap bands;
    if (replicates > 0) {
        BootstrapOptions bootstrap;
        bootstrap.replicates = replicates;
        bootstrap.seed = session.modelOptions.seed;
        bands = bootstrapPath(*session.engine, sweep.path, positive, session.modelOptions, bootstrap,
                              session.smoothing);
    }
    const double bootstrapMs = watch.elapsedMs();
    const TopicSuggestions suggestions = suggestTopics(
        sweep, replicates > 0 ? &bands : nullptr, session.engine->rank());
    auto band = [&](const SpecificityPoint& p, const std::vector<double>& values) {
        return bandAt(sweep, p, values);
    };

    const std::string table = sweepTable(sweep, replicates > 0 ? &bands : nullptr);
    if (!session.outDir.empty()) {
        writeFileAtomically(session.outDir, "sweep.tsv", table);
    }
    if (!saveSession.empty()) {
        const TopicsSection section = topicsSectionOf(session, 0.0, positiveRule, gammaGrid, "sweep");
        saveSessionSection(saveSession, TopicsSection::kKey,
                           [&](const auto& directory) { return section.toJson(directory); });
    }
    if (session.json) {
        JsonWriter json(std::cout);
        json.beginObject();
        session.writeJsonPreamble(json, "sweep");
        json.field("positive", positiveRule);
        json.field("positive_documents", static_cast<std::int64_t>(numPositive));
        json.key("timings_ms").beginObject();
        json.field("load", session.loadMs);
        json.field("moments", session.engine->timings().rangeMs);
        json.field("projection", session.engine->timings().projectionMs);
        json.field("sweep", sweepMs);
        if (replicates > 0) {
            json.field("bootstrap", bootstrapMs);
        }
        json.key("decompositions").beginArray();
        for (const auto& p : sweep.points) {
            json.value(p.solveMs);
        }
        json.endArray();
        json.key("scoring").beginArray();
        for (const auto& p : sweep.points) {
            json.value(p.scoreMs);
        }
        json.endArray();
        json.endObject();
        json.field("baseline_auc", sweep.baselineAuc);
        json.key("points").beginArray();
        for (const auto& p : sweep.points) {
            json.beginObject();
            json.field("gamma", p.gamma);
            json.field("auc", p.auc);
            json.field("relative_auc", p.relativeAuc);
            json.field("n_foreground_specific", p.numForegroundSpecific);
            if (replicates > 0) {
                json.field("auc_lo", band(p, bands.aucLo));
                json.field("auc_hi", band(p, bands.aucHi));
            }
            if (!p.failure.empty()) {
                json.field("failure", p.failure);
            }
            json.endObject();
        }
        json.endArray();
        json.field("bootstrap_replicates", static_cast<std::int64_t>(replicates));
        if (replicates > 0) {
            // Per identity of the path: how often it reappears across resamples.
            json.key("stability").beginArray();
            for (double value : bands.identityStability) {
                json.value(value);
            }
            json.endArray();
        }
        json.key("suggestions").beginObject();
        json.field("foreground_set_changes", suggestions.setChanges);
        json.field("best_gamma", suggestions.bestGamma);
        json.field("near_best_gammas", suggestions.nearBest);
        json.field("suggested_k", static_cast<std::int64_t>(suggestions.suggestedK));
        json.endObject();
        json.endObject();
        std::cout << "\n";
    } else {
        std::cout << table;
        std::cout << "suggested gamma " << formatNumber(suggestions.bestGamma) << " (within the band: "
                  << suggestions.nearBest.size() << " grid values); suggested K "
                  << suggestions.suggestedK << "; foreground-specific set changes at "
                  << suggestions.setChanges.size() << " gamma values\n";
        if (!session.outDir.empty()) {
            std::cout << "wrote " << session.outDir << "/sweep.tsv\n";
        }
    }
    return 0;
}

} // namespace cx::cli
