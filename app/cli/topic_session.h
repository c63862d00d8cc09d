#pragma once

#include "cli_options.h"

#include "core/io/corpus.h"
#include "core/io/corpus_loader.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/topic_evaluation.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cx::cli {

/// Everything `topics` and `sweep` share: load the corpus, select the foreground and background,
/// build the projected engine. Declares its options (declareOptions) and records phase timings.
/// The reader options as given on the command line (declareLoadOptions); toOptions() applies the
/// switches.
struct LoadOptionValues {
    std::string format = "auto";
    std::int64_t minDf = 2;
    std::int64_t maxVocab = 0;
    double maxDf = 1.0;
    bool keepStopwords = false;
    bool keepNumbers = false;
    bool dropNumbers = false;
    std::int64_t minTokens = 3;
    CorpusLoadOptions toOptions() const;
};

/// Declares --format, --min-df, --max-vocab, --max-df, --keep-stopwords, --keep-numbers,
/// --drop-numbers and --min-tokens.
void declareLoadOptions(OptionList& options, LoadOptionValues& values);

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
    /// auto | pencil | power | jennrich (TopicModelOptions::decomposition); auto = pencil for
    /// the projected method, power for the direct one
    std::string decomposition = "auto";
    double smoothing = kAutoSmoothing;        ///< 0 = the automatic rule (perTokenLogLikelihood)
    std::string smoothingPrior = "frequency"; ///< the automatic rule's prior: frequency | uniform

    /// The scorer's smoothing (perTokenLogLikelihood) from the two options.
    ScorerSmoothing scorerSmoothing() const {
        return {smoothing, parseSmoothingPrior(smoothingPrior)};
    }
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

    LoadOptionValues loadValues; ///< bound by declareOptions, applied by finishOptions
    std::uint64_t seedValue = 1;

    /// Declares the options common to topics and sweep (bound to this session's members).
    void declareOptions(OptionList& options);
    /// After parsing: applies the reader switches, seed, decomposition and thread count.
    void finishOptions();
    /// Loads, selects, and (for the projected method) builds the engine.
    void prepare();
    /// Foreground flags for a rule: true where the i-th foreground document matches `rule`.
    std::vector<bool> foregroundMatching(const std::string& rule) const;
    /// Creates --out (if given); throws InputError when it cannot.
    void ensureOutDir() const;
    /// Writes the shared JSON members: parameters, load report, selection, engine timings.
    void writeJsonPreamble(nlohmann::ordered_json& json, const char* command) const;
};

/// Writes `content` to DIR/name atomically (temporary file + rename). Throws InputError.
void writeFileAtomically(const std::string& dir, const std::string& name,
                         const std::string& content);

} // namespace cx::cli
