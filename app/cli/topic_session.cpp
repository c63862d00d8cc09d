#include "topic_session.h"

#include "core/common/error.h"
#include "core/common/json_writer.h"
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

CorpusLoadOptions readLoadOptions(const Args& args) {
    CorpusLoadOptions options;
    options.format = parseCorpusFormat(args.string("format", "auto"));
    options.minDocumentFrequency = args.integer("min-df", 2, 1, 1000000000);
    options.maxVocabulary = args.integer("max-vocab", 0, 0, 100000000);
    options.maxDocumentFraction = args.real("max-df", 1.0, 1e-9, 1.0);
    options.removeStopWords = !args.flag("keep-stopwords");
    // Pure numbers are dropped by default (MALLET, gensim); --drop-numbers is still accepted.
    const bool dropNumbers = args.flag("drop-numbers");
    options.removeNumbers = dropNumbers || !args.flag("keep-numbers");
    // The moment estimators need documents of at least 3 tokens (Prop. 4).
    options.minTokens = args.integer("min-tokens", 3, 3, 1000000);
    return options;
}

void TopicSession::readOptions(const Args& args) {
    corpusPath = args.string("corpus");
    loadOptions = readLoadOptions(args);
    foregroundRule = args.string("fg");
    backgroundRule = args.string("bg");
    modelOptions.numComponents = static_cast<int>(args.integer("k", 1, 1000));
    modelOptions.iterations = static_cast<int>(args.integer("iterations", 100, 1, 100000));
    modelOptions.restarts = static_cast<int>(args.integer("restarts", 5, 1, 1000));
    modelOptions.seed = args.seed("seed", 1);
    projectionOptions.seed = modelOptions.seed;
    projectionOptions.rankPerSide = static_cast<int>(args.integer("rank-per-side", 0, 0, 100000));
    projectionOptions.powerIterations =
        static_cast<int>(args.integer("range-iterations", 3, 0, 100));
    method = args.string("method", "projected");
    if (method != "projected" && method != "direct") {
        throw InputError("parameter --method: '" + method + "' is not projected or direct");
    }
    // 0 = the Jeffreys rule of perTokenLogLikelihood (kAutoSmoothing).
    smoothing = args.real("smoothing", kAutoSmoothing, 0.0, 1e6);
    topWords = static_cast<int>(args.integer("top", 10, 1, 10000));
    threads = static_cast<int>(args.integer("threads", 0, 0, 1024));
    outDir = args.string("out", "");
    json = args.flag("json");
    setThreadCount(threads);
}

void TopicSession::prepare() {
    Stopwatch watch;
    auto loaded = std::make_shared<Corpus>(loadCorpus(corpusPath, loadOptions));
    loadMs = watch.elapsedMs();
    corpus = loaded;

    const Selection fg = selectDocuments(*corpus, SelectionRule::parse(foregroundRule));
    Selection bg;
    if (backgroundMode == "rule") {
        bg = selectDocuments(*corpus, SelectionRule::parse(backgroundRule));
    } else {
        // A session's background "every document not in the foreground" (or every document).
        for (std::int64_t doc = 0; doc < corpus->numDocuments(); ++doc) {
            if (backgroundMode == "all" ||
                !std::binary_search(fg.documents.begin(), fg.documents.end(), doc)) {
                bg.documents.push_back(doc);
            }
        }
    }
    for (const auto& w : fg.warnings) {
        warnings.push_back("foreground rule: " + w);
    }
    for (const auto& w : bg.warnings) {
        warnings.push_back("background rule: " + w);
    }
    foreground = fg.documents;
    background = bg.documents;
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
    engine = std::make_unique<ContrastiveTopicEngine>(counts, foreground, background,
                                                      modelOptions.numComponents,
                                                      projectionOptions);
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
    const Selection positives = selectDocuments(*corpus, SelectionRule::parse(rule));
    std::vector<bool> flags;
    flags.reserve(foreground.size());
    for (std::int64_t doc : foreground) {
        flags.push_back(std::binary_search(positives.documents.begin(), positives.documents.end(), doc));
    }
    return flags;
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

void TopicSession::writeJsonPreamble(JsonWriter& json, const char* command) const {
    json.field("command", command);
    json.key("parameters").beginObject();
    json.field("corpus", corpusPath);
    json.field("format", toString(loadOptions.format));
    json.field("fg", foregroundRule);
    json.field("bg", backgroundRule);
    json.field("k", modelOptions.numComponents);
    json.field("seed", static_cast<std::int64_t>(modelOptions.seed));
    json.field("iterations", modelOptions.iterations);
    json.field("restarts", modelOptions.restarts);
    json.field("method", method);
    json.field("min_df", loadOptions.minDocumentFrequency);
    json.field("max_vocab", loadOptions.maxVocabulary);
    json.field("stopwords_removed", loadOptions.removeStopWords);
    json.field("numbers_removed", loadOptions.removeNumbers);
    json.field("max_df", loadOptions.maxDocumentFraction);
    json.field("smoothing", smoothing);
    json.field("threads", threadCount());
    json.endObject();
    const LoadReport& r = corpus->report;
    json.key("load_report").beginObject();
    json.field("documents_read", r.documentsRead);
    json.field("documents_kept", r.documentsKept);
    json.field("documents_skipped_short", r.documentsSkippedShort);
    json.field("tokens", r.tokensKept);
    json.field("vocabulary_size", r.vocabularySize);
    json.field("invalid_bytes", r.invalidBytes);
    json.field("foreground_documents", static_cast<std::int64_t>(foreground.size()));
    json.field("background_documents", static_cast<std::int64_t>(background.size()));
    json.key("warnings").beginArray();
    for (const auto& w : r.warnings) {
        json.value(w);
    }
    for (const auto& w : warnings) {
        json.value(w);
    }
    json.endArray();
    json.endObject();
    json.key("engine").beginObject();
    json.field("rank_per_side", engine->rankPerSide());
    json.field("projection_rank", engine->rank());
    json.endObject();
}

void writeFileAtomically(const std::string& dir, const std::string& name, const std::string& content) {
    const std::filesystem::path target = std::filesystem::path(dir) / name;
    const std::filesystem::path temporary = std::filesystem::path(dir) / ("." + name + ".tmp");
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw InputError(temporary.string(), 0, std::string("cannot write: ") + std::strerror(errno));
        }
        out << content;
        out.flush();
        if (!out) {
            throw InputError(temporary.string(), 0, std::string("write failed: ") + std::strerror(errno));
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, target, error);
    if (error) {
        throw InputError(target.string(), 0, "cannot replace: " + error.message());
    }
}

} // namespace cx::cli
