// contrast-cli generate-tree: a seeded synthetic tree-HMM data set (Spectral-Tree's input) as
// ChromHMM binarized files, one per cell type and chromosome, with a TSS file and the true
// parameters and states, at any size up to whole genomes (`--assembly hg19`: 24 chromosomes,
// 15.5 M bins of 200 bp). The generation itself is core's writeSyntheticTreeData.
#include "commands.h"

#include "core/common/error.h"
#include "core/common/memory.h"
#include "core/common/timer.h"
#include "core/tree/synthetic_tree_data.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

namespace cx::cli {

namespace {

/// The options of `generate-tree` (declared in addGenerateTreeCommand).
struct GenerateTreeCommandOptions {
    std::string outDir;
    std::string tree = "R>C1,C2,C3,C4,C5,C6,C7,C8";
    std::string bins;
    std::string assembly;
    std::string chroms;
    SyntheticTreeDataSpec spec;
    bool json = false;
    GenerateTreeCommandOptions() {
        spec.model.numStates = 6;
        spec.model.numMarks = 8;
    }
};

/// --bins or --assembly [--chroms] as chromosome names and bin counts.
void chooseChromosomes(const GenerateTreeCommandOptions& options, SyntheticTreeDataSpec& spec) {
    if (options.bins.empty() == options.assembly.empty()) {
        throw InputError("parameter --bins / --assembly: give exactly one of them (bins per "
                         "chromosome, or an assembly such as hg19)");
    }
    if (!options.bins.empty()) {
        if (!options.chroms.empty()) {
            throw InputError("parameter --chroms: only with --assembly (with --bins the "
                             "chromosomes are chr1, chr2, …)");
        }
        for (const std::string& item : splitList(options.bins)) {
            std::size_t used = 0;
            long long value = 0;
            try {
                value = std::stoll(item, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != item.size() || value < 1 || value > 1'000'000'000LL) {
                throw InputError("parameter --bins: '" + item +
                                 "' is not a bin count in [1, 1000000000]");
            }
            spec.chroms.push_back("chr" + std::to_string(spec.chroms.size() + 1));
            spec.chromBins.push_back(value);
        }
        if (spec.chroms.empty()) {
            throw InputError("parameter --bins: no bin count given");
        }
        return;
    }
    std::vector<ChromSize> sizes;
    try {
        sizes = assemblyChromSizes(options.assembly);
    } catch (const InputError& error) {
        throw InputError(std::string("parameter --assembly: ") + error.what());
    }
    const std::vector<std::string> wanted = splitList(options.chroms);
    for (const std::string& name : wanted) {
        if (std::none_of(sizes.begin(), sizes.end(),
                         [&](const ChromSize& size) { return name == size.name; })) {
            throw InputError("parameter --chroms: '" + name + "' is not a chromosome of " +
                             options.assembly + " (chr1 … chr22, chrX, chrY)");
        }
    }
    for (const ChromSize& size : sizes) {
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), size.name) == wanted.end()) {
            continue;
        }
        // Whole bins only, as ChromHMM's binarization (chr18 at 200 bp: 390,386 bins).
        const std::int64_t bins = size.bases / spec.binSize;
        if (bins < 1) {
            throw InputError("parameter --bin-size: " + std::to_string(spec.binSize) +
                             " bp leaves " + size.name + " without a bin");
        }
        spec.chroms.push_back(size.name);
        spec.chromBins.push_back(bins);
    }
}

int runGenerateTree(GenerateTreeCommandOptions& options) {
    SyntheticTreeDataSpec& spec = options.spec;
    spec.tree = parseTreeSpec(options.tree);
    for (const std::string& name : spec.tree.names) {
        if (name.find_first_of("/\\ \t") != std::string::npos || name == "." || name == "..") {
            throw InputError("parameter --tree: cell type '" + name +
                             "' cannot be part of a file name");
        }
    }
    chooseChromosomes(options, spec);
    Stopwatch watch;
    const SyntheticTreeDataSummary summary = writeSyntheticTreeData(spec, options.outDir);
    const double writeMs = watch.elapsedMs();
    if (options.json) {
        nlohmann::ordered_json out;
        out["command"] = "generate-tree";
        out["out"] = options.outDir;
        out["tree"] = spec.tree.toString();
        out["k"] = spec.model.numStates;
        out["marks"] = summary.model.markNames;
        out["chroms"] = spec.chroms;
        out["bins_per_cell"] = summary.binsPerCell;
        out["bin_size"] = spec.binSize;
        out["tss"] = options.outDir + "/tss.txt";
        out["tss_sites"] = summary.tssSites;
        out["promoter_state"] = "E" + std::to_string(summary.promoterState + 1);
        out["seed"] = spec.seed;
        out["timings_ms"] = {{"generate_and_write", writeMs}};
        out["peak_memory_mb"] = static_cast<double>(peakResidentBytes()) / 1e6;
        std::cout << out.dump() << "\n";
    } else {
        std::cout << "wrote " << summary.trackFiles.size() << " binarized files ("
                  << spec.tree.numNodes() << " cell types x " << spec.chroms.size()
                  << " chromosomes, " << summary.binsPerCell << " bins per cell type), "
                  << options.outDir << "/tss.txt (" << summary.tssSites << " TSS) and "
                  << options.outDir << "/truth/ in " << writeMs / 1000.0 << " s\n"
                  << "learn it back: contrast-cli tree --tracks " << options.outDir << " --tree '"
                  << spec.tree.toString() << "' --k " << spec.model.numStates << " --tss "
                  << options.outDir << "/tss.txt --out DIR\n";
    }
    return 0;
}

} // namespace

CommandEntry addGenerateTreeCommand(CLI::App& root) {
    auto options = std::make_shared<GenerateTreeCommandOptions>();
    GenerateTreeCommandOptions& o = *options;
    SyntheticTreeOptions& model = o.spec.model;
    OptionList list(addSubcommand(root, "generate-tree",
                                  "seeded synthetic tree-HMM cell types as ChromHMM binarized "
                                  "files, with TSS and the truth (Spectral-Tree checks)"));
    list.text("out", o.outDir, "output folder")
        .required()
        .text("tree", o.tree, "cell-type tree ROOT>CHILD1,CHILD2[;CHILD1>...]")
        .integer("k", model.numStates, 1, 16, "states per cell type K")
        .integer("marks", model.numMarks, 1, kMaxTreeMarks, "marks per cell type")
        .text("bins", o.bins, "bins per chromosome N1[,N2,...] (chromosomes chr1, chr2, ...)")
        .text("assembly", o.assembly, "chromosomes of an assembly instead of --bins: hg19")
        .text("chroms", o.chroms, "with --assembly: only these chromosomes C1,C2,...")
        .defaultText("all")
        .integer("bin-size", o.spec.binSize, 1, 1000000000, "bin size in base pairs")
        .real("stay", model.stay, 0.0, 1.0, "root: probability of keeping the state")
        .real("follow", model.follow, 0.0, 1.0, "child: weight of taking the parent's new state")
        .real("keep", model.keep, 0.0, 1.0, "child: weight of keeping its own state")
        .real("emission-noise", model.emissionNoise, 0.0, 1.0,
              "child emissions = parent's +- uniform noise of this size")
        .real("child-signal", model.childSignal, 0.0, 1.0,
              "contrast of the children's marks (1 = as drawn, small = weak)")
        .real("tss-per-mb", o.spec.tssPerMb, 0.0, 1e6, "TSS per megabase")
        .real("tss-in-promoter", o.spec.tssInPromoter, 0.0, 1.0,
              "fraction of the TSS in bins where the root is in the promoter state E1")
        .seed("seed", o.spec.seed, "random seed")
        .flag("json", o.json, "print a JSON summary on standard output");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runGenerateTree(*options);
            }};
}

} // namespace cx::cli
