// contrast-cli: batch access to Contrast Explorer's core. See README.md ("Command line").
#include "commands.h"

#include "core/common/cancel.h"
#include "core/common/error.h"

#include <cstring>
#include <exception>
#include <iomanip>
#include <iostream>
#include <new>

namespace cx::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> all = {
        {"topics", "contrastive topic model at one γ",
         "contrast-cli topics --corpus PATH --fg RULE --bg RULE --k K --gamma G\n"
         "       [--seed S] [--iterations N] [--restarts R] [--format auto|tsv|csv|uci|reuters|txt]\n"
         "       [--min-df N] [--max-df FRACTION] [--max-vocab N] [--keep-stopwords]\n"
         "       [--keep-numbers] [--min-tokens N]\n"
         "       [--method projected|direct] [--rank-per-side R] [--smoothing A]\n"
         "       [--positive RULE] [--top N] [--threads T] [--out DIR] [--json]\n"
         "       [--save-session FILE.cxproj]",
         runTopics},
        {"sweep", "specificity AUC over a γ grid",
         "contrast-cli sweep --corpus PATH --fg RULE --bg RULE --k K --positive RULE\n"
         "       --gammas FROM:TO:STEP [--bootstrap B] [options of topics] [--out DIR] [--json]\n"
         "       [--save-session FILE.cxproj]",
         runSweep},
        {"hmm", "contrastive HMM on ChromHMM binarized chromatin tracks",
         "contrast-cli hmm --tracks F1[,F2...] [--fg-regions BED[,BED...]]\n"
         "       [--bg-regions BED[,BED...]] --k K --gamma G [--encoding marks|combinations]\n"
         "       [--refine-em N] [--seed S] --out DIR [--json]\n"
         "       [--method spectral|em] [--decode posterior|viterbi] [--bin-size BP] [--lag D]\n"
         "       [--window L] [--extra-components N] [--threads T] [--no-segments]\n"
         "       [--save-session FILE.cxproj]\n"
         "       (README, section \"Chromatin tracks\", describes every option)",
         runHmm},
        {"tree", "Spectral-Tree: HMM with tree-structured states across cell types",
         "contrast-cli tree --tracks F1,F2,...|FOLDER --tree ROOT>CHILD1,CHILD2[;CHILD1>...]\n"
         "       --k K [--decomposition power|jennrich] [--tss FILE] [--compare per-cell[,em]]\n"
         "       [--seed S] --out DIR [--json] [--decode auto|path|joint] [--strict-marks]\n"
         "       [--flank BP] [--promoter-state N]\n"
         "       (README, section \"Cell-type trees\", describes every option)",
         runTree},
        {"run", "repeat what a saved session (.cxproj) describes",
         "contrast-cli run SESSION.cxproj --out DIR [--workspace topics|chromatin]\n"
         "       [--threads T]   (the saving command's result files, byte for byte; several\n"
         "       workspaces: DIR/topics, DIR/chromatin)",
         runSessionFile},
        {"generate", "seeded synthetic A/B/C topic corpus as UCI files (benchmarks, checks)",
         "contrast-cli generate --out DIR [--name NAME] [--fg-docs N] [--bg-docs N] [--vocab D]\n"
         "       [--a NA] [--b NB] [--c NC] [--length L] [--spread S] [--concentration BETA]\n"
         "       [--seed S] [--json]",
         runGenerate},
        {"convert", "load a corpus and write it as UCI bag-of-words (+ labels sidecar)",
         "contrast-cli convert --corpus PATH --out DIR [--name NAME] [--format F] [--min-df N]\n"
         "       [--max-df FRACTION] [--max-vocab N] [--keep-stopwords] [--keep-numbers]\n"
         "       [--min-tokens N]",
         runConvert},
        {"crowd", "aggregate crowdsourced labels (stagewise EM, Dawid-Skene EM, majority vote)",
         "contrast-cli crowd --labels FILE [--gold FILE]\n"
         "       [--method stagewise|stagewise-refine|mv-em|spectral-em|em|mv] [--k K] [--seed S]\n"
         "       [--restarts R] [--max-iter N] [--smoothing A] [--significance P]\n"
         "       [--out DIR] [--json] [--save-session FILE]",
         runCrowd},
        {"generate-crowd", "seeded beta-sparse synthetic crowd (labels, gold, true workers)",
         "contrast-cli generate-crowd --out DIR [--name NAME] [--items N] [--workers W]\n"
         "       [--classes C] [--beta B] [--accuracy A] [--last-accuracy A2]\n"
         "       [--label-probability P] [--seed S] [--json]",
         runGenerateCrowd},
    };
    return all;
}

namespace {
void printHelp(std::ostream& out) {
    out << "contrast-cli — Contrast Explorer batch tool\n\nCommands:\n";
    for (const auto& command : commands()) {
        out << "  " << std::left << std::setw(16) << command.name << command.summary << "\n";
    }
    out << "\nUsage:\n";
    for (const auto& command : commands()) {
        out << "  " << command.usage << "\n\n";
    }
    out << "Rules select documents by label: FIELD=V1,V2 (has any of the values), !FIELD=V "
           "(negation),\n'A;B' (both). '*' selects every document.\n";
}
} // namespace

} // namespace cx::cli

int main(int argc, char** argv) {
    using namespace cx::cli;
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
        std::strcmp(argv[1], "help") == 0) {
        printHelp(argc < 2 ? std::cerr : std::cout);
        return argc < 2 ? 2 : 0;
    }
    const std::string name = argv[1];
    for (const auto& command : commands()) {
        if (name != command.name) {
            continue;
        }
        std::vector<std::string> args(argv + 2, argv + argc);
        for (const auto& arg : args) {
            if (arg == "--help" || arg == "-h") {
                std::cout << "usage: " << command.usage << "\n";
                return 0;
            }
        }
        try {
            return command.run(args);
        } catch (const cx::InputError& error) {
            std::cerr << "contrast-cli " << name << ": error: " << error.what() << "\n";
            return 2;
        } catch (const std::bad_alloc&) {
            std::cerr << "contrast-cli " << name << ": error: out of memory\n";
            return 3;
        } catch (const std::exception& error) {
            std::cerr << "contrast-cli " << name << ": error: " << error.what() << "\n";
            return 1;
        }
    }
    std::cerr << "contrast-cli: unknown command '" << name << "' (try --help)\n";
    return 2;
}
