// contrast-cli generate: seeded synthetic A/B/C topic corpora as UCI bag-of-words files, for
// benchmarks and recovery checks at any size (streamed: 10⁶ documents need no corpus in memory).
#include "commands.h"
#include "topic_session.h"

#include "core/common/error.h"
#include "core/common/json_writer.h"
#include "core/common/timer.h"
#include "core/topics/synthetic_topics.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cx::cli {

int runGenerate(const std::vector<std::string>& argv) {
    const Args args(argv, {"json"});
    SyntheticTopicSpec spec;
    const std::string outDir = args.string("out");
    const std::string name = args.string("name", "synthetic");
    spec.foregroundDocuments = args.integer("fg-docs", 5000, 1, 1000000000);
    spec.backgroundDocuments = args.integer("bg-docs", 5000, 1, 1000000000);
    spec.vocabularySize = static_cast<int>(args.integer("vocab", 2000, 2, 10000000));
    spec.numA = static_cast<int>(args.integer("a", 3, 0, 1000));
    spec.numB = static_cast<int>(args.integer("b", 3, 0, 1000));
    spec.numC = static_cast<int>(args.integer("c", 3, 0, 1000));
    spec.documentLength = static_cast<int>(args.integer("length", 100, 3, 1000000));
    spec.lengthSpread = static_cast<int>(args.integer("spread", 20, 0, 1000000));
    spec.topicConcentration = args.real("concentration", 0.05, 1e-6, 1e6);
    spec.seed = args.seed("seed", 1);
    const bool json = args.flag("json");
    args.rejectUnused();
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
                   static_cast<char>(std::tolower(truth.topicSet[static_cast<size_t>(t)])) + '\t' + cell;
        std::snprintf(cell, sizeof cell, "\t%.10g\n", truth.backgroundWeights[t]);
        weights += cell;
    }
    writeFileAtomically(outDir, "truth_weights." + name + ".tsv", weights);

    const std::string docword = outDir + "/docword." + name + ".txt";
    if (json) {
        JsonWriter out(std::cout);
        out.beginObject();
        out.field("command", "generate");
        out.field("docword", docword);
        out.field("documents", spec.foregroundDocuments + spec.backgroundDocuments);
        out.field("vocabulary", spec.vocabularySize);
        out.field("gamma_bound", truth.gammaBound());
        out.key("timings_ms").beginObject().field("generate_and_write", writeMs).endObject();
        out.endObject();
        std::cout << "\n";
    } else {
        std::cout << "wrote " << docword << " (+ vocab, labels sidecar, truth) with "
                  << spec.foregroundDocuments + spec.backgroundDocuments
                  << " documents in " << writeMs / 1000.0 << " s\n"
                  << "foreground rule: group=foreground   background rule: group=background   "
                     "foreground-specific documents: set=a\n"
                  << "Prop. 1 bound on gamma: " << truth.gammaBound() << "\n";
    }
    return 0;
}

} // namespace cx::cli
