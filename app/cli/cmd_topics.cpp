// contrast-cli topics / sweep: the contrastive topic model (Zou et al. 2013, Alg. 1) from the
// command line.
#include "cli_session.h"
#include "commands.h"
#include "topic_job.h"
#include "topic_session.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/timer.h"
#include "core/topics/topic_admissibility.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"
#include "core/topics/topic_trust.h"

#include <nlohmann/json.hpp>

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
              << (r.wordsDroppedByCap > 0 ? "\nnote: " + vocabularyCapNote(r) : std::string())
              << "\nforeground: " << session.foreground.size()
              << " documents, background: " << session.background.size() << " documents\n"
              << "gamma = " << model.gamma << ": " << model.numForegroundSpecific() << " of "
              << model.numComponents() << " components are foreground-specific (lambda > 0)\n";
    if (model.numRejected > 0) {
        std::cout << "note: " << model.numRejected << " of the "
                  << session.modelOptions.numComponents
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
        std::cout << "note: " << unsettled << " still moving after "
                  << session.modelOptions.iterations
                  << " power iterations (--iterations); shown is the last iterate\n";
    }
    const ComponentAdmissibility admissibility = checkComponents(model);
    if (admissibility.inadmissible > 0) {
        std::string names;
        for (int t = 0; t < model.numComponents(); ++t) {
            if (!admissibility.admissible(t)) {
                names += (names.empty() ? "c" : ", c") + std::to_string(t + 1) + " (" +
                         admissibilityReason(admissibility.verdicts[static_cast<size_t>(t)],
                                             model.signedWeights[t], model.gamma, true) +
                         ")";
            }
        }
        std::cout << "note: inadmissible: " << names << ": a topic's weight lies in [-gamma, 1] = ["
                  << formatNumber(0.0 - model.gamma)
                  << ", 1]; these components are no topic of the "
                  << "model (typically a blend of topics)\n";
    }
    if (admissibility.noAdmissibleForeground()) {
        std::cout << "note: no admissible foreground-specific topic at gamma = "
                  << formatNumber(model.gamma)
                  << ": every component with lambda > 0 is inadmissible\n";
    }
    std::cout << "\n";
    for (int t = 0; t < model.numComponents(); ++t) {
        const bool specific = model.foregroundSpecific[static_cast<size_t>(t)];
        std::cout << "c" << (t + 1) << (specific ? "  weight " : "  signed weight ")
                  << formatNumber(model.signedWeights[t])
                  << (specific ? "" : " (background/shared)")
                  << (admissibility.admissible(t) ? "" : " [INADMISSIBLE]") << ":";
        for (auto i : topEntries(model.topics.col(t), std::min(session.topWords, 12))) {
            std::cout << ' ' << session.corpus->vocabulary[static_cast<size_t>(i)];
        }
        std::cout << '\n';
    }
}

using Json = nlohmann::ordered_json;

/// Console lines naming, per grid point, the path identities (T<id + 1>) whose weight is
/// inadmissible, and the points without an admissible foreground-specific topic.
void printInadmissible(const SpecificitySweep& sweep, const PathBootstrap* bands) {
    std::string lines;
    std::string none;
    for (const SpecificityPoint& p : sweep.points) {
        const int i = sweep.path.nearest(p.gamma);
        if (i < 0) {
            continue;
        }
        const TopicModelResult& s = sweep.path.solutions[static_cast<size_t>(i)];
        const ComponentAdmissibility a = checkPathPoint(sweep.path, i, bands);
        if (a.inadmissible == 0) {
            continue;
        }
        lines += "  gamma " + formatNumber(p.gamma) + ":";
        for (int t = 0; t < s.numComponents(); ++t) {
            if (!a.admissible(t)) {
                lines += " T" +
                         std::to_string(
                             sweep.path.ids[static_cast<size_t>(i)][static_cast<size_t>(t)] + 1) +
                         " (" +
                         admissibilityReason(a.verdicts[static_cast<size_t>(t)], s.signedWeights[t],
                                             p.gamma, true) +
                         ")";
            }
        }
        lines += '\n';
        if (a.noAdmissibleForeground()) {
            none += (none.empty() ? "" : ", ") + formatNumber(p.gamma);
        }
    }
    if (lines.empty()) {
        return;
    }
    std::cout << "inadmissible components (weight outside [-gamma, 1]"
              << (bands != nullptr ? ", whole bootstrap band" : "")
              << "; T<n> = topic identity along the path):\n"
              << lines;
    if (!none.empty()) {
        std::cout << "no admissible foreground-specific topic at gamma " << none << "\n";
    }
}

/// The options of `topics` (declared in addTopicsCommand).
struct TopicsCommandOptions {
    TopicSession session;
    double gamma = 0.0;
    std::string positiveRule;
    std::string saveSession;
    std::int64_t topDocs = 0;               ///< documents per topic in topic_docs.tsv (0 = none)
    std::string topDocsFrom = "foreground"; ///< foreground | background | all
    bool allComponents = false;             ///< topic_docs.tsv: every component, not only λ > 0
};

/// The options of `sweep` (declared in addSweepCommand).
struct SweepCommandOptions {
    TopicSession session;
    std::string positiveRule;
    std::string gammaGrid = "0:4:0.25";
    int replicates = 0;
    bool noSplitHalf = false;
    std::string saveSession;
};

int runTopics(TopicsCommandOptions& options) {
    TopicSession& session = options.session;
    session.finishOptions();
    const double gamma = options.gamma;
    const std::string& positiveRule = options.positiveRule;
    const std::string& saveSession = options.saveSession;
    if (options.topDocs > 0 && session.outDir.empty()) {
        throw InputError("parameter --top-docs: needs --out (the directory of topic_docs.tsv)");
    }
    session.ensureOutDir();
    session.prepare();

    const TopicModelResult model = solveTopics(session, gamma);
    double auc = std::nan("");
    double baselineAuc = std::nan("");
    if (!positiveRule.empty()) {
        const std::vector<bool> positive = session.foregroundMatching(positiveRule);
        auc = rocAuc(perTokenLogLikelihood(session.corpus->counts, session.foreground, model,
                                           session.scorerSmoothing()),
                     positive);
        const TopicModelResult baseline = session.engine->solve(0.0, session.modelOptions);
        baselineAuc = rocAuc(perTokenLogLikelihood(session.corpus->counts, session.foreground,
                                                   baseline, session.scorerSmoothing()),
                             positive);
    }
    if (!session.outDir.empty()) {
        writeTopicFiles(session, model, session.outDir);
        if (options.topDocs > 0) {
            writeFileAtomically(session.outDir, "topic_docs.tsv",
                                topicDocumentTable(session, model, options.topDocs,
                                                   options.topDocsFrom, options.allComponents));
        }
    }
    if (!saveSession.empty()) {
        const TopicsSection section =
            topicsSectionOf(session, gamma, positiveRule, std::string(), "topics");
        saveSessionSection(saveSession, TopicsSection::kKey,
                           [&](const auto& directory) { return section.toJson(directory); });
    }
    if (session.json) {
        Json json;
        session.writeJsonPreamble(json, "topics");
        json["gamma"] = gamma;
        json["timings_ms"] = {{"load", session.loadMs},
                              {"moments", session.engine->timings().rangeMs},
                              {"projection", session.engine->timings().projectionMs},
                              {"decompositions", Json::array({model.solveMs})}};
        Json result;
        result["status"] = toString(model.status);
        result["foreground_specific"] = model.numForegroundSpecific();
        result["rejected_components"] = model.numRejected;
        // ω ∈ [−γ, 1] per component (topic_admissibility.h); the counts summarise it.
        const ComponentAdmissibility admissibility = checkComponents(model);
        result["inadmissible_components"] = admissibility.inadmissible;
        result["admissible_foreground_specific"] = admissibility.admissibleForeground;
        if (session.method != "direct") {
            result["m2_noise_level"] = model.noiseLevel;
            result["effective_rank"] = model.effectiveRank;
            result["significant_directions"] = model.significantDirections;
            result["significant_positive"] = model.significantPositive;
            result["m2_eigenvalues"] =
                std::vector<double>(model.m2Eigenvalues.data(),
                                    model.m2Eigenvalues.data() + model.m2Eigenvalues.size());
            result["whitened_residual"] = model.residual;
        }
        result["lambdas"] =
            std::vector<double>(model.lambdas.data(), model.lambdas.data() + model.lambdas.size());
        result["weights"] =
            std::vector<double>(model.weights.data(), model.weights.data() + model.weights.size());
        result["signed_weights"] = std::vector<double>(
            model.signedWeights.data(), model.signedWeights.data() + model.signedWeights.size());
        Json admissible = Json::array();
        for (int t = 0; t < model.numComponents(); ++t) {
            admissible.push_back(admissibility.admissible(t));
        }
        result["admissible"] = admissible;
        result["iterations"] = model.iterations;
        if (!positiveRule.empty()) {
            result["positive"] = positiveRule;
            result["auc"] = auc;
            result["relative_auc"] = auc / baselineAuc;
        }
        Json topWords = Json::array();
        for (int t = 0; t < model.numComponents(); ++t) {
            Json words = Json::array();
            for (auto i : topEntries(model.topics.col(t), session.topWords)) {
                words.push_back(session.corpus->vocabulary[static_cast<size_t>(i)]);
            }
            topWords.push_back(words);
        }
        result["top_words"] = topWords;
        // Coherence of each component's top kCoherenceWords words (components.tsv's npmi).
        Json npmi = Json::array();
        for (double value : corpusCoherence(session, model)) {
            npmi.push_back(std::isfinite(value) ? Json(value) : Json(nullptr));
        }
        result["npmi"] = npmi;
        if (options.topDocs > 0) {
            result["top_docs"] = {{"file", "topic_docs.tsv"},
                                  {"per_topic", options.topDocs},
                                  {"from", options.topDocsFrom},
                                  {"all_components", options.allComponents}};
        }
        json["result"] = result;
        std::cout << json.dump() << "\n";
    } else {
        printHumanSummary(session, model);
        if (!positiveRule.empty()) {
            std::cout << "\nspecificity AUC " << formatNumber(auc)
                      << " (relative to gamma = 0: " << formatNumber(auc / baselineAuc) << ")\n";
        }
        if (!session.outDir.empty()) {
            std::cout << "\nwrote " << session.outDir << "/{topic_word,components,top_words"
                      << (options.topDocs > 0 ? ",topic_docs" : "") << "}.tsv\n";
        }
    }
    return 0;
}

/// sweep --json's points: per γ its AUC (and band), each component's identity, weight and
/// admissibility (with the bootstrap's band when there is one), the split-half noise inputs, and
/// whether the app stands behind the γ (as sweep.tsv's note).
Json sweepPointsJson(const SpecificitySweep& sweep, const PathBootstrap* bands) {
    Json points = Json::array();
    const std::vector<GammaVerdict> verdicts = judgeSweep(sweep, bands);
    const PathBootstrap& halves = sweep.halves;
    for (size_t q = 0; q < sweep.points.size(); ++q) {
        const SpecificityPoint& p = sweep.points[q];
        Json point = {{"gamma", p.gamma},
                      {"auc", p.auc},
                      {"relative_auc", p.relativeAuc},
                      {"n_foreground_specific", p.numForegroundSpecific}};
        if (bands != nullptr) {
            point["auc_lo"] = bandAt(sweep, p, bands->aucLo);
            point["auc_hi"] = bandAt(sweep, p, bands->aucHi);
        }
        // Per component: its path identity, ω and ω ∈ [−γ, 1] (with the bootstrap's band
        // when there is one: it never clears a point flag, and flags a whole band outside).
        const int i = sweep.path.nearest(p.gamma);
        Json components = Json::array();
        int inadmissible = 0;
        if (i >= 0) {
            const TopicModelResult& s = sweep.path.solutions[static_cast<size_t>(i)];
            const ComponentAdmissibility a = checkPathPoint(sweep.path, i, bands);
            inadmissible = a.inadmissible;
            // The split-half noise criterion's inputs (judgeSweep, methods.md).
            point["signal_to_noise"] = s.positiveSignalToNoise;
            point["significant_positive"] = s.significantPositive;
            for (int t = 0; t < s.numComponents(); ++t) {
                Json c = {{"id", sweep.path.ids[static_cast<size_t>(i)][static_cast<size_t>(t)]},
                          {"weight", s.signedWeights[t]},
                          {"foreground_specific",
                           static_cast<bool>(s.foregroundSpecific[static_cast<size_t>(t)])},
                          {"admissible", a.admissible(t)}};
                if (bands != nullptr) {
                    c["weight_lo"] =
                        bands->weightLo[static_cast<size_t>(i)][static_cast<size_t>(t)];
                    c["weight_hi"] =
                        bands->weightHi[static_cast<size_t>(i)][static_cast<size_t>(t)];
                }
                if (halves.replicates > 0 && halves.gammas == sweep.path.gammas) {
                    // In how many of the two seeded halves of the documents it comes back.
                    c["halves"] = std::lround(
                        halves.stability[static_cast<size_t>(i)][static_cast<size_t>(t)] *
                        halves.replicates);
                }
                components.push_back(c);
            }
        }
        point["n_inadmissible"] = inadmissible;
        point["components"] = components;
        if (!p.failure.empty()) {
            point["failure"] = p.failure;
        }
        // Whether the app stands behind this γ, and why not (as sweep.tsv's note).
        point["trusted"] = verdicts[q].trusted;
        if (!verdicts[q].trusted) {
            point["not_trusted_because"] = verdicts[q].reason;
        }
        points.push_back(point);
    }
    return points;
}

int runSweep(SweepCommandOptions& options) {
    TopicSession& session = options.session;
    session.finishOptions();
    const std::string& positiveRule = options.positiveRule;
    const std::string& gammaGrid = options.gammaGrid;
    const std::vector<double> gammas = parseGrid("gammas", gammaGrid);
    const std::string& saveSession = options.saveSession;
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
    const int replicates = options.replicates;
    if (replicates == 1) {
        throw InputError("parameter --bootstrap: needs at least 2 resamples (got 1; 0 = none)");
    }
    session.ensureOutDir();
    session.prepare();
    const std::vector<bool> positive = positiveFlags(session, positiveRule);
    const auto numPositive = std::count(positive.begin(), positive.end(), true);
    Stopwatch watch;
    SpecificitySweep sweep = specificitySweep(*session.engine, gammas, positive,
                                              session.modelOptions, session.scorerSmoothing());
    const double sweepMs = watch.elapsedMs();
    watch.restart();
    if (!options.noSplitHalf) {
        sweep.halves = splitHalfPath(*session.engine, sweep.path, session.modelOptions,
                                     session.modelOptions.seed);
    }
    const double splitHalfMs = watch.elapsedMs();
    watch.restart();
    PathBootstrap bands;
    if (replicates > 0) {
        BootstrapOptions bootstrap;
        bootstrap.replicates = replicates;
        bootstrap.seed = session.modelOptions.seed;
        bands = bootstrapPath(*session.engine, sweep.path, positive, session.modelOptions,
                              bootstrap, session.scorerSmoothing());
    }
    const double bootstrapMs = watch.elapsedMs();
    const PathBootstrap* bandsOrNull = replicates > 0 ? &bands : nullptr;
    const TopicSuggestions suggestions = suggestTopics(sweep, bandsOrNull, session.engine->rank());

    const std::string table = sweepTable(sweep, bandsOrNull);
    if (!session.outDir.empty()) {
        writeFileAtomically(session.outDir, "sweep.tsv", table);
    }
    if (!saveSession.empty()) {
        TopicsSection section = topicsSectionOf(session, 0.0, positiveRule, gammaGrid, "sweep");
        section.bootstrap = replicates;
        section.splitHalf = !options.noSplitHalf;
        saveSessionSection(saveSession, TopicsSection::kKey,
                           [&](const auto& directory) { return section.toJson(directory); });
    }
    if (session.json) {
        Json json;
        session.writeJsonPreamble(json, "sweep");
        json["positive"] = positiveRule;
        json["positive_documents"] = static_cast<std::int64_t>(numPositive);
        Json timings = {{"load", session.loadMs},
                        {"moments", session.engine->timings().rangeMs},
                        {"projection", session.engine->timings().projectionMs},
                        {"sweep", sweepMs}};
        if (replicates > 0) {
            timings["bootstrap"] = bootstrapMs;
        }
        if (!options.noSplitHalf) {
            timings["split_half"] = splitHalfMs;
        }
        Json decompositions = Json::array();
        Json scoring = Json::array();
        for (const auto& p : sweep.points) {
            decompositions.push_back(p.solveMs);
            scoring.push_back(p.scoreMs);
        }
        timings["decompositions"] = decompositions;
        timings["scoring"] = scoring;
        json["timings_ms"] = timings;
        json["baseline_auc"] = sweep.baselineAuc;
        json["points"] = sweepPointsJson(sweep, bandsOrNull);
        json["bootstrap_replicates"] = static_cast<std::int64_t>(replicates);
        json["split_half"] = !options.noSplitHalf;
        if (replicates > 0) {
            // Per identity of the path: how often it reappears across resamples.
            json["stability"] = bands.identityStability;
        }
        json["suggestions"] = {{"foreground_set_changes", suggestions.setChanges},
                               {"best_gamma", suggestions.bestGamma},
                               {"near_best_gammas", suggestions.nearBest},
                               {"suggested_k", static_cast<std::int64_t>(suggestions.suggestedK)}};
        std::cout << json.dump() << "\n";
    } else {
        std::cout << table;
        printInadmissible(sweep, bandsOrNull);
        std::cout << "suggested gamma " << formatNumber(suggestions.bestGamma)
                  << " (within the band: " << suggestions.nearBest.size()
                  << " grid values); suggested K " << suggestions.suggestedK
                  << "; foreground-specific set changes at " << suggestions.setChanges.size()
                  << " gamma values\n";
        if (!session.outDir.empty()) {
            std::cout << "wrote " << session.outDir << "/sweep.tsv\n";
        }
    }
    return 0;
}

} // namespace

CommandEntry addTopicsCommand(CLI::App& root) {
    auto options = std::make_shared<TopicsCommandOptions>();
    OptionList list(addSubcommand(root, "topics", "contrastive topic model at one γ"));
    options->session.declareOptions(list);
    list.real("gamma", options->gamma, 0.0, 1e12, "contrast γ (M2f − γ·M2b, M3f − γ·M3b)")
        .required()
        .text("positive", options->positiveRule,
              "rule marking the foreground documents that should score high: prints the "
              "specificity AUC")
        .text("save-session", options->saveSession,
              "also save these options as a session (.cxproj)")
        .integer("top-docs", options->topDocs, 0, 1000000000,
                 "write topic_docs.tsv (needs --out): the N documents with the highest posterior "
                 "of each shown topic (0 = none)")
        .choice("top-docs-from", options->topDocsFrom, {"foreground", "background", "all"},
                "documents --top-docs ranks: foreground, background, or both")
        .flag("all-components", options->allComponents,
              "topic_docs.tsv: every component, not only the foreground-specific ones");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runTopics(*options);
            }};
}

CommandEntry addSweepCommand(CLI::App& root) {
    auto options = std::make_shared<SweepCommandOptions>();
    OptionList list(addSubcommand(root, "sweep", "specificity AUC over a γ grid"));
    options->session.declareOptions(list);
    list.text("positive", options->positiveRule,
              "rule marking the foreground documents that should score high")
        .required()
        .text("gammas", options->gammaGrid, "γ grid FROM:TO:STEP")
        .integer("bootstrap", options->replicates, 0, 10000,
                 "bootstrap resamples for AUC bands and stability (0 = none, else ≥ 2)")
        .flag("no-split-half", options->noSplitHalf,
              "skip the split-half check (by default the path is also solved on two seeded random "
              "halves of the documents, and a γ whose foreground-specific topics are not found in "
              "both is not stood behind)")
        .text("save-session", options->saveSession,
              "also save these options as a session (.cxproj)");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runSweep(*options);
            }};
}

} // namespace cx::cli
