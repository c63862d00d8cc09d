// contrast-cli generate: seeded synthetic A/B/C topic corpora as UCI bag-of-words files, for
// benchmarks and recovery checks at any size (streamed: 10⁶ documents need no corpus in memory).
#include "commands.h"
#include "topic_session.h"

#include "core/common/error.h"
#include "core/common/timer.h"
#include "core/topics/synthetic_topics.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cx::cli {

namespace {

/// The options of `generate` (declared in addGenerateCommand).
struct GenerateCommandOptions {
    SyntheticTopicSpec spec;
    std::string outDir;
    std::string name = "synthetic";
    bool json = false;
    GenerateCommandOptions() {
        spec.foregroundDocuments = 5000;
        spec.backgroundDocuments = 5000;
        spec.vocabularySize = 2000;
        spec.documentLength = 100;
        spec.lengthSpread = 20;
        spec.topicConcentration = 0.05;
    }
};

int runGenerate(GenerateCommandOptions& options) {
    SyntheticTopicSpec& spec = options.spec;
    const std::string& outDir = options.outDir;
    const std::string& name = options.name;
    const bool json = options.json;
    if (spec.documentLength - spec.lengthSpread < 3) {
        throw InputError("parameter --spread: length - spread must be at least 3 (got " +
                         std::to_string(spec.documentLength - spec.lengthSpread) + ")");
    }
    if (spec.numA + spec.numB < 1 || spec.numB + spec.numC < 1) {
        throw InputError("parameter --a/--b/--c: the foreground (A+B) and the background (B+C) "
                         "each need at least one topic");
    }
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error || !std::filesystem::is_directory(outDir)) {
        throw InputError(outDir, 0, "cannot create output folder: " + error.message());
    }
    Stopwatch watch;
    const SyntheticTopicCorpus truth = writeSyntheticTopicsUci(spec, outDir, name);
    const double writeMs = watch.elapsedMs();

    const Eigen::Index k = truth.topics.cols();
    std::string topics = "word";
    for (Eigen::Index t = 0; t < k; ++t) {
        topics += "\tt" + std::to_string(t);
    }
    topics += '\n';
    char cell[32];
    for (Eigen::Index i = 0; i < truth.topics.rows(); ++i) {
        topics += truth.corpus.vocabulary[static_cast<size_t>(i)];
        for (Eigen::Index t = 0; t < k; ++t) {
            std::snprintf(cell, sizeof cell, "\t%.10g", truth.topics(i, t));
            topics += cell;
        }
        topics += '\n';
    }
    writeFileAtomically(outDir, "truth_topics." + name + ".tsv", topics);
    std::string weights = "topic\tset\tforeground_weight\tbackground_weight\n";
    for (Eigen::Index t = 0; t < k; ++t) {
        std::snprintf(cell, sizeof cell, "%.10g", truth.foregroundWeights[t]);
        weights += "t" + std::to_string(t) + '\t' +
                   static_cast<char>(std::tolower(truth.topicSet[static_cast<size_t>(t)])) + '\t' +
                   cell;
        std::snprintf(cell, sizeof cell, "\t%.10g\n", truth.backgroundWeights[t]);
        weights += cell;
    }
    writeFileAtomically(outDir, "truth_weights." + name + ".tsv", weights);

    const std::string docword = outDir + "/docword." + name + ".txt";
    if (json) {
        nlohmann::ordered_json out;
        out["command"] = "generate";
        out["docword"] = docword;
        out["documents"] = spec.foregroundDocuments + spec.backgroundDocuments;
        out["vocabulary"] = spec.vocabularySize;
        out["gamma_bound"] = truth.gammaBound();
        out["timings_ms"] = {{"generate_and_write", writeMs}};
        std::cout << out.dump() << "\n";
    } else {
        std::cout << "wrote " << docword << " (+ vocab, labels sidecar, truth) with "
                  << spec.foregroundDocuments + spec.backgroundDocuments << " documents in "
                  << writeMs / 1000.0 << " s\n"
                  << "foreground rule: group=foreground   background rule: group=background   "
                     "foreground-specific documents: set=a\n"
                  << "Prop. 1 bound on gamma: " << truth.gammaBound() << "\n";
    }
    return 0;
}

} // namespace

CommandEntry addGenerateCommand(CLI::App& root) {
    auto options = std::make_shared<GenerateCommandOptions>();
    SyntheticTopicSpec& spec = options->spec;
    OptionList list(addSubcommand(
        root, "generate", "seeded synthetic A/B/C topic corpus as UCI files (benchmarks, checks)"));
    list.text("out", options->outDir, "output folder")
        .required()
        .text("name", options->name, "file name stem: docword.NAME.txt, vocab.NAME.txt, …")
        .integer("fg-docs", spec.foregroundDocuments, 1, 1000000000, "foreground documents")
        .integer("bg-docs", spec.backgroundDocuments, 1, 1000000000, "background documents")
        .integer("vocab", spec.vocabularySize, 2, 10000000, "vocabulary size")
        .integer("a", spec.numA, 0, 1000, "foreground-only topics (set A)")
        .integer("b", spec.numB, 0, 1000, "shared topics (set B)")
        .integer("c", spec.numC, 0, 1000, "background-only topics (set C)")
        .integer("length", spec.documentLength, 3, 1000000, "mean document length in tokens")
        .integer("spread", spec.lengthSpread, 0, 1000000,
                 "document length uniform in [length − spread, length + spread]")
        .real("concentration", spec.topicConcentration, 1e-6, 1e6,
              "Dirichlet concentration β of each topic's word distribution")
        .seed("seed", spec.seed, "random seed")
        .flag("json", options->json, "print a JSON summary on standard output");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runGenerate(*options);
            }};
}

} // namespace cx::cli
