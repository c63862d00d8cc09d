#pragma once

#include "args.h"

#include "core/common/json_writer.h"
#include "core/io/corpus.h"
#include "core/io/corpus_loader.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/topic_evaluation.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cx::cli {

/// Everything `topics` and `sweep` share: load the corpus, select the foreground and background,
/// build the projected engine. Reads its options from Args and records phase timings.
struct TopicSession {
    std::string corpusPath;
    CorpusLoadOptions loadOptions;
    std::string foregroundRule;
    std::string backgroundRule;
    /// rule (backgroundRule) | not_foreground | all: sessions may choose the background as the
    /// GUI does; the command line always gives a rule.
    std::string backgroundMode = "rule";
    TopicModelOptions modelOptions;
    ProjectionOptions projectionOptions;
    std::string method = "projected"; ///< projected | direct
    double smoothing = kAutoSmoothing; ///< 0 = Jeffreys rule (perTokenLogLikelihood)
    int topWords = 10;
    int threads = 0;
    std::string outDir;
    bool json = false;

    std::shared_ptr<const Corpus> corpus;
    std::vector<std::int64_t> foreground;
    std::vector<std::int64_t> background;
    std::vector<std::string> warnings;
    std::unique_ptr<ContrastiveTopicEngine> engine;

    double loadMs = 0;

    /// Parses the options common to topics and sweep.
    void readOptions(const Args& args);
    /// Loads, selects, and (for the projected method) builds the engine.
    void prepare();
    /// Foreground flags for a rule: true where the i-th foreground document matches `rule`.
    std::vector<bool> foregroundMatching(const std::string& rule) const;
    /// Creates --out (if given); throws InputError when it cannot.
    void ensureOutDir() const;
    /// Writes the shared JSON members: parameters, load report, selection, engine timings.
    void writeJsonPreamble(JsonWriter& json, const char* command) const;
};

/// Switches (options without a value) understood by every command that loads a corpus.
inline const std::set<std::string>& corpusFlags() {
    static const std::set<std::string> flags = {"json", "keep-stopwords", "drop-numbers",
                                                "keep-numbers"};
    return flags;
}

/// Reads --format, --min-df, --max-vocab, --max-df, --keep-stopwords, --drop-numbers and
/// --min-tokens.
CorpusLoadOptions readLoadOptions(const Args& args);

/// Writes `content` to DIR/name atomically (temporary file + rename). Throws InputError.
void writeFileAtomically(const std::string& dir, const std::string& name, const std::string& content);

} // namespace cx::cli
