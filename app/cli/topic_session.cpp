#include "topic_session.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/io/selection.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

namespace cx::cli {

CorpusLoadOptions LoadOptionValues::toOptions() const {
    CorpusLoadOptions options;
    options.format = parseCorpusFormat(format);
    options.minDocumentFrequency = minDf;
    options.maxVocabulary = maxVocab;
    options.maxDocumentFraction = maxDf;
    options.removeStopWords = !keepStopwords;
    // Pure numbers are dropped by default (MALLET, gensim); --drop-numbers is still accepted.
    options.removeNumbers = dropNumbers || !keepNumbers;
    options.minTokens = minTokens;
    return options;
}

void declareLoadOptions(OptionList& options, LoadOptionValues& values) {
    options
        .choice("format", values.format, {"auto", "tsv", "csv", "uci", "reuters", "txt"},
                "corpus file format (auto: from the file name and content)")
        .integer("min-df", values.minDf, 1, 1000000000, "drop words found in fewer documents")
        .real("max-df", values.maxDf, 1e-9, 1.0,
              "drop words found in more than this fraction of the documents")
        .integer("max-vocab", values.maxVocab, 0, 100000000,
                 "keep only the N most frequent words (0 = at most max(documents, 1000))")
        .flag("keep-stopwords", values.keepStopwords, "keep English stop words")
        .flag("keep-numbers", values.keepNumbers, "keep tokens that are pure numbers")
        .flag("drop-numbers", values.dropNumbers,
              "drop tokens that are pure numbers (the default; kept for old scripts)")
        // The moment estimators need documents of at least 3 tokens (Prop. 4).
        .integer("min-tokens", values.minTokens, 3, 1000000,
                 "skip documents with fewer tokens after filtering");
}

void TopicSession::declareOptions(OptionList& options) {
    options.text("corpus", corpusPath, "corpus file or folder").required();
    declareLoadOptions(options, loadValues);
    options.text("fg", foregroundRule, "rule selecting the foreground documents")
        .required()
        .text("bg", backgroundRule, "rule selecting the background documents")
        .required()
        .integer("k", modelOptions.numComponents, 1, 1000, "number of topics K")
        .required()
        .integer("iterations", modelOptions.iterations, 1, 100000,
                 "maximum power iterations per trial")
        .integer("restarts", modelOptions.restarts, 1, 1000,
                 "trials per component (power), random slice pairs (jennrich) or directions "
                 "jointly diagonalised besides the first (pencil)")
        .seed("seed", seedValue, "random seed")
        .choice("decomposition", decomposition, {"auto", "pencil", "power", "jennrich"},
                "tensor decomposition: pencil (eigenvectors of M3(η)·M2⁻¹ for seeded directions "
                "η shared by every γ, jointly diagonalised), power (Alg. 2, deflation) or "
                "jennrich (simultaneous diagonalisation of random slices); auto = pencil for "
                "the projected method, power for the direct one")
        .integer("rank-per-side", projectionOptions.rankPerSide, 0, 100000,
                 "projection rank per side (0 = automatic)")
        .integer("range-iterations", projectionOptions.powerIterations, 0, 100,
                 "power iterations of the randomized range finder")
        .choice("method", method, {"projected", "direct"},
                "projected (randomized projection) or direct (dense moments)")
        // 0 = the automatic rule of perTokenLogLikelihood (kAutoSmoothing).
        .real("smoothing", smoothing, 0.0, 1e6,
              "fixed additive smoothing of the topic-word probabilities when scoring (0 = the "
              "automatic rule: a prior of D/2 pseudo-counts, see --smoothing-prior)")
        .choice("smoothing-prior", smoothingPrior, {"frequency", "uniform"},
                "shape of the automatic smoothing's prior: frequency (each word's share of the "
                "foreground's tokens) or uniform (½ per word, the Jeffreys rule)")
        .integer("top", topWords, 1, 10000, "top words listed per topic")
        .integer("threads", threads, 0, 1024, "worker threads (0 = all cores)")
        .text("out", outDir, "write result files into this folder")
        .flag("json", json, "print a JSON summary on standard output");
}

void TopicSession::finishOptions() {
    loadOptions = loadValues.toOptions();
    modelOptions.seed = seedValue;
    projectionOptions.seed = seedValue;
    if (decomposition == "auto") {
        decomposition = method == "direct" ? "power" : "pencil";
    }
    modelOptions.decomposition = parseDecomposition(decomposition);
    if (method == "direct" && modelOptions.decomposition != Decomposition::Power) {
        throw InputError("parameter --decomposition: " + decomposition +
                         " needs --method projected (the direct "
                         "method supports the power method only)");
    }
    setThreadCount(threads);
}

void TopicSession::prepare() {
    Stopwatch watch;
    auto loaded = std::make_shared<Corpus>(loadCorpus(corpusPath, loadOptions));
    loadMs = watch.elapsedMs();
    corpus = loaded;

    // A session's background: a rule, "every document not in the foreground" or every document.
    const BackgroundMode mode = backgroundMode == "rule"  ? BackgroundMode::Rule
                                : backgroundMode == "all" ? BackgroundMode::All
                                                          : BackgroundMode::NotForeground;
    ForegroundBackground selected =
        selectForegroundBackground(*corpus, foregroundRule, mode, backgroundRule);
    for (const auto& w : selected.foregroundWarnings) {
        warnings.push_back("foreground rule: " + w);
    }
    for (const auto& w : selected.backgroundWarnings) {
        warnings.push_back("background rule: " + w);
    }
    foreground = std::move(selected.foreground);
    background = std::move(selected.background);
    if (foreground.empty()) {
        throw InputError("parameter --fg: rule '" + foregroundRule + "' selects no document of " +
                         corpusPath);
    }
    if (background.empty()) {
        throw InputError("parameter --bg: rule '" + backgroundRule + "' selects no document of " +
                         corpusPath);
    }
    if (background.size() < 10) {
        warnings.push_back("background has only " + std::to_string(background.size()) +
                           " documents: its moments are very noisy");
    }
    std::shared_ptr<const CountMatrix> counts(corpus, &corpus->counts);
    engine = std::make_unique<ContrastiveTopicEngine>(
        counts, foreground, background, modelOptions.numComponents, projectionOptions);
    if (!json) {
        for (const auto& w : corpus->report.warnings) {
            std::cerr << "warning: " << w << "\n";
        }
        for (const auto& w : warnings) {
            std::cerr << "warning: " << w << "\n";
        }
    }
}

std::vector<bool> TopicSession::foregroundMatching(const std::string& rule) const {
    return matchForeground(*corpus, foreground, rule);
}

void TopicSession::ensureOutDir() const {
    if (outDir.empty()) {
        return;
    }
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error || !std::filesystem::is_directory(outDir)) {
        throw InputError(outDir, 0, "cannot create output folder: " + error.message());
    }
}

void TopicSession::writeJsonPreamble(nlohmann::ordered_json& json, const char* command) const {
    json["command"] = command;
    json["parameters"] = {
        {"corpus", corpusPath},
        {"format", toString(loadOptions.format)},
        {"fg", foregroundRule},
        {"bg", backgroundRule},
        {"k", modelOptions.numComponents},
        {"seed", modelOptions.seed},
        {"iterations", modelOptions.iterations},
        {"restarts", modelOptions.restarts},
        {"method", method},
        {"decomposition", toString(modelOptions.decomposition)},
        {"min_df", loadOptions.minDocumentFrequency},
        {"max_vocab", loadOptions.maxVocabulary},
        {"stopwords_removed", loadOptions.removeStopWords},
        {"numbers_removed", loadOptions.removeNumbers},
        {"max_df", loadOptions.maxDocumentFraction},
        {"smoothing", smoothing},
        {"smoothing_prior", smoothingPrior},
        {"threads", threadCount()},
    };
    const LoadReport& r = corpus->report;
    nlohmann::ordered_json allWarnings = nlohmann::ordered_json::array();
    for (const auto& w : r.warnings) {
        allWarnings.push_back(w);
    }
    for (const auto& w : warnings) {
        allWarnings.push_back(w);
    }
    json["load_report"] = {
        {"documents_read", r.documentsRead},
        {"documents_kept", r.documentsKept},
        {"documents_skipped_short", r.documentsSkippedShort},
        {"tokens", r.tokensKept},
        {"vocabulary_size", r.vocabularySize},
        {"vocabulary_cap", r.vocabularyCap},
        {"vocabulary_cap_automatic", r.vocabularyCapAutomatic},
        {"words_dropped_by_cap", r.wordsDroppedByCap},
        {"invalid_bytes", r.invalidBytes},
        {"foreground_documents", foreground.size()},
        {"background_documents", background.size()},
        {"warnings", allWarnings},
    };
    json["engine"] = {{"rank_per_side", engine->rankPerSide()},
                      {"projection_rank", engine->rank()}};
}

void writeFileAtomically(const std::string& dir, const std::string& name,
                         const std::string& content) {
    const std::filesystem::path target = std::filesystem::path(dir) / name;
    const std::filesystem::path temporary = std::filesystem::path(dir) / ("." + name + ".tmp");
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw InputError(temporary.string(), 0,
                             std::string("cannot write: ") + std::strerror(errno));
        }
        out << content;
        out.flush();
        if (!out) {
            throw InputError(temporary.string(), 0,
                             std::string("write failed: ") + std::strerror(errno));
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, target, error);
    if (error) {
        throw InputError(target.string(), 0, "cannot replace: " + error.message());
    }
}

} // namespace cx::cli
