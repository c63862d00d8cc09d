// contrast-cli convert: load any supported corpus with the tokenizer options and write it as UCI
// bag-of-words files (+ label sidecar), e.g. to hand the exact same document-term matrix to other
// tools (tests/bench/peer_comparison.py feeds it to scikit-learn).
#include "commands.h"
#include "topic_session.h"

#include "core/common/error.h"
#include "core/common/timer.h"
#include "core/io/corpus_loader.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cx::cli {

namespace {

/// The options of `convert` (declared in addConvertCommand).
struct ConvertCommandOptions {
    std::string path;
    LoadOptionValues load;
    std::string outDir;
    std::string name = "corpus";
};

int runConvert(const ConvertCommandOptions& command) {
    const std::string& path = command.path;
    const CorpusLoadOptions options = command.load.toOptions();
    const std::string& outDir = command.outDir;
    const std::string& name = command.name;
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error || !std::filesystem::is_directory(outDir)) {
        throw InputError(outDir, 0, "cannot create output folder: " + error.message());
    }
    Stopwatch watch;
    const Corpus corpus = loadCorpus(path, options);
    const double loadMs = watch.elapsedMs();

    std::string docword = std::to_string(corpus.counts.numRows) + "\n" +
                          std::to_string(corpus.counts.numCols) + "\n" +
                          std::to_string(corpus.counts.nnz()) + "\n";
    char line[64];
    for (std::int64_t row = 0; row < corpus.counts.numRows; ++row) {
        for (std::int64_t p = corpus.counts.rowPtr[row]; p < corpus.counts.rowPtr[row + 1]; ++p) {
            std::snprintf(line, sizeof line, "%lld %d %d\n", static_cast<long long>(row + 1),
                          corpus.counts.colIdx[p] + 1, static_cast<int>(corpus.counts.counts[p]));
            docword += line;
        }
    }
    writeFileAtomically(outDir, "docword." + name + ".txt", docword);
    std::string vocab;
    for (const auto& word : corpus.vocabulary) {
        vocab += word + "\n";
    }
    writeFileAtomically(outDir, "vocab." + name + ".txt", vocab);
    if (!corpus.labels.empty()) {
        std::string labels;
        for (size_t f = 0; f < corpus.labels.size(); ++f) {
            labels += (f ? "\t" : "") + corpus.labels[f].name;
        }
        labels += "\n";
        for (std::int64_t row = 0; row < corpus.counts.numRows; ++row) {
            for (size_t f = 0; f < corpus.labels.size(); ++f) {
                const LabelField& field = corpus.labels[f];
                if (f) {
                    labels += '\t';
                }
                for (std::int64_t p = field.offsets[static_cast<size_t>(row)];
                     p < field.offsets[static_cast<size_t>(row) + 1]; ++p) {
                    if (p > field.offsets[static_cast<size_t>(row)]) {
                        labels += ',';
                    }
                    labels +=
                        field.values[static_cast<size_t>(field.valueIds[static_cast<size_t>(p)])];
                }
            }
            labels += '\n';
        }
        writeFileAtomically(outDir, "labels." + name + ".tsv", labels);
    }
    std::cout << "loaded " << corpus.counts.numRows << " documents, vocabulary "
              << corpus.counts.numCols << " in " << loadMs / 1000.0 << " s; wrote " << outDir
              << "/docword." << name << ".txt, vocab." << name << ".txt"
              << (corpus.labels.empty() ? "" : ", labels." + name + ".tsv") << "\n";
    return 0;
}

} // namespace

CommandEntry addConvertCommand(CLI::App& root) {
    auto options = std::make_shared<ConvertCommandOptions>();
    OptionList list(addSubcommand(
        root, "convert", "load a corpus and write it as UCI bag-of-words (+ labels sidecar)"));
    list.text("corpus", options->path, "corpus file or folder").required();
    declareLoadOptions(list, options->load);
    list.text("out", options->outDir, "output folder")
        .required()
        .text("name", options->name, "file name stem: docword.NAME.txt, vocab.NAME.txt");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runConvert(*options);
            }};
}

} // namespace cx::cli
