// contrast-cli tree: Spectral-Tree (Zhang et al. 2015) over several cell types' ChromHMM binarized
// tracks, with tree-aware posterior decoding, per-cell spectral HMM and flattened EM baselines
// and promoter F1 against TSS annotations.
//
// Every option, with its meaning and default, is declared in addTreeCommand at the end of this
// file (`contrast-cli tree --help` lists them).
#include "cli_session.h"
#include "commands.h"
#include "hmm_job.h"       // startSpreadJson
#include "topic_session.h" // writeFileAtomically

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/memory.h"
#include "core/common/timer.h"
#include "core/hmm/decoding.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/promoter_evaluation.h"
#include "core/tree/spectral_tree.h"
#include "core/tree/tree_baselines.h"
#include "core/tree/tree_decoding.h"
#include "core/tree/tree_export.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace cx::cli {

namespace {

std::string treeNumber(double value) {
    return formatNumber(value, 6);
}

std::string treeEmissionTable(const std::vector<std::string>& marks, const Eigen::MatrixXd& e,
                              const std::vector<std::string>& labels) {
    std::string out = "state";
    for (const auto& mark : marks) {
        out += '\t' + mark;
    }
    out += '\n';
    for (Eigen::Index k = 0; k < e.rows(); ++k) {
        out += labels[static_cast<size_t>(k)];
        for (Eigen::Index j = 0; j < e.cols(); ++j) {
            out += '\t' + treeNumber(e(k, j));
        }
        out += '\n';
    }
    return out;
}

/// Root: `state  E1 … EK` rows of P(next | state). Child: `state  parent_next  E1 … EK` rows of
/// P(next | own state, parent's next state).
std::string treeTransitionTable(const TreeHmmParameters& model, int v,
                                const std::vector<std::string>& labels) {
    const int k = model.numStates;
    std::string out = v == 0 ? "state" : "state\tparent_next";
    for (int j = 0; j < k; ++j) {
        out += '\t' + labels[static_cast<size_t>(j)];
    }
    out += '\n';
    auto row = [&](const Eigen::MatrixXd& m, int i) {
        for (int j = 0; j < k; ++j) {
            out += '\t' + treeNumber(m(i, j));
        }
        out += '\n';
    };
    if (v == 0) {
        for (int i = 0; i < k; ++i) {
            out += labels[static_cast<size_t>(i)];
            row(model.rootTransitions, i);
        }
        return out;
    }
    for (int p = 0; p < k; ++p) {
        for (int i = 0; i < k; ++i) {
            out += labels[static_cast<size_t>(i)] + '\t' + labels[static_cast<size_t>(p)];
            row(model.childTransitions[static_cast<size_t>(v)][static_cast<size_t>(p)], i);
        }
    }
    return out;
}

/// Promoter F1 of one method for every cell: {cell: {precision, recall, f1, state, …}}; the
/// rows are appended to `rows` (the promoter_f1.tsv table). `profiles[cell]` (states × marks)
/// lets the promoter state be chosen by its marks and TSS enrichment (choosePromoterState).
nlohmann::json promoterScores(const MultiCellTracks& tracks,
                              const std::vector<std::vector<std::vector<std::uint16_t>>>& states,
                              const TssTruth& truth, int numStates, int fixedState,
                              const std::vector<std::string>& labels,
                              std::vector<PromoterF1Row>& rows, const std::string& method,
                              const std::vector<Eigen::MatrixXd>& profiles) {
    nlohmann::json out = nlohmann::json::object();
    for (PromoterF1Row& row : scorePromoterCells(tracks.cells, states, truth, numStates, fixedState,
                                                 method, profiles, tracks.markNames)) {
        const PromoterScore& score = row.score;
        const std::string label = score.state >= 0 && score.state < static_cast<int>(labels.size())
                                      ? labels[static_cast<size_t>(score.state)]
                                      : "";
        out[row.cell] = {{"precision", score.precision},
                         {"recall", score.recall},
                         {"f1", score.f1},
                         {"state", label},
                         {"choice", row.choice},
                         {"predicted_bins", score.predicted},
                         {"true_positive_bins", score.truePositives}};
        rows.push_back(std::move(row));
    }
    return out;
}

/// The options of `tree` (declared in addTreeCommand).
struct TreeCommandOptions {
    std::string tracks;
    std::string tree;
    SpectralTreeOptions model;
    std::string decomposition = "power";
    std::string scaling = "none";
    std::string tssPath;
    std::string compare;
    std::string outDir;
    bool json = false;
    bool noSegments = false;
    std::int64_t flank = 1000;
    int promoterLabel = 0;
    int emIterations = 50;
    std::string decodeName = "auto";
    MultiCellReadOptions readOptions;
    std::string saveSession; ///< --save-session FILE (empty: none)
    /// --state-labels: numbers (E1…EK) | names (the Tree workspace's names of the states).
    std::string stateLabels = "numbers";
};

/// The choices of `tree` CLI11 cannot check (decomposition, scaling, --compare, --decode):
/// sets them on command.model and returns the decoding options.
TreeDecodingOptions parseTreeChoices(TreeCommandOptions& command, bool& comparePerCell,
                                     bool& compareEm) {
    SpectralTreeOptions& options = command.model;
    if (command.decomposition != "power" && command.decomposition != "jennrich") {
        throw InputError("parameter --decomposition: '" + command.decomposition +
                         "' is not 'power' or 'jennrich'");
    }
    options.decomposition = parseDecomposition(command.decomposition);
    if (command.scaling == "mean") {
        options.featureScaling = true;
    } else if (command.scaling == "none") {
        options.featureScaling = false;
    } else {
        throw InputError("parameter --scaling: '" + command.scaling + "' is not mean or none");
    }
    if (command.stateLabels != "numbers" && command.stateLabels != "names") {
        throw InputError("parameter --state-labels: '" + command.stateLabels +
                         "' is not 'numbers' or 'names'");
    }
    for (const auto& item : splitList(command.compare)) {
        if (item == "per-cell") {
            comparePerCell = true;
        } else if (item == "em") {
            compareEm = true;
        } else {
            throw InputError("parameter --compare: '" + item + "' is not 'per-cell' or 'em'");
        }
    }
    TreeDecodingOptions decodeOptions;
    if (command.decodeName == "auto") {
        decodeOptions.mode = TreeDecodingMode::Auto;
    } else if (command.decodeName == "path") {
        decodeOptions.mode = TreeDecodingMode::PathMarginal;
    } else if (command.decodeName == "joint") {
        decodeOptions.mode = TreeDecodingMode::Joint;
    } else {
        throw InputError("parameter --decode: '" + command.decodeName +
                         "' is not auto, path or joint");
    }
    return decodeOptions;
}

/// tree --save-session: the command as a session's tree section (`run` replays it).
void saveTreeSession(const TreeCommandOptions& command, const std::vector<std::string>& trackItems,
                     bool comparePerCell, bool compareEm) {
    const SpectralTreeOptions& options = command.model;
    const MultiCellReadOptions& readOptions = command.readOptions;
    const std::string& treeText = command.tree;
    const std::string& tssPath = command.tssPath;
    const std::int64_t flank = command.flank;
    const int promoterLabel = command.promoterLabel;
    const int emIterations = command.emIterations;
    const bool writeSegments = !command.noSegments;
    TreeSection section;
    for (const auto& item : trackItems) {
        section.tracks.push_back(std::filesystem::absolute(item).lexically_normal());
    }
    section.binSize = readOptions.binSize;
    section.strictMarks = readOptions.strictMarks;
    section.tree = treeText;
    section.numStates = options.numStates;
    section.decomposition = toString(options.decomposition);
    section.seed = options.seed;
    section.projection = options.projectionDim;
    section.iterations = options.iterations;
    section.restarts = options.trials;
    section.starts = options.starts;
    section.scaling = command.scaling;
    section.momentFit = options.momentFitSweeps;
    section.extraComponents = options.reserveComponents;
    section.decode = command.decodeName;
    if (comparePerCell) {
        section.compare.push_back("per-cell");
    }
    if (compareEm) {
        section.compare.push_back("em");
    }
    section.emIterations = emIterations;
    if (!tssPath.empty()) {
        section.tss = std::filesystem::absolute(tssPath).lexically_normal();
    }
    section.flank = flank;
    section.promoterState = promoterLabel;
    section.segments = writeSegments;
    section.savedBy = "tree";
    saveSessionSection(command.saveSession, TreeSection::kKey,
                       [&](const auto& directory) { return section.toJson(directory); });
}

/// The files of `tree`: per cell emissions and transitions, states.tsv (names and colours, as
/// the Tree workspace shows them), and unless --no-segments one BED9 track per cell coloured by
/// the states' colours, the changes from the root, and an IGV batch script loading the tracks
/// with the TSS file (core's writeTreeSegmentFiles, what the workspace's export writes).
void writeTreeFiles(const TreeCommandOptions& command, const TreeSpec& tree,
                    const MultiCellTracks& tracks, const SpectralTreeResult& learned,
                    const TreeSegmentation& segmentation, const std::vector<std::string>& labels,
                    const StateNaming& naming) {
    const std::string& outDir = command.outDir;
    for (int v = 0; v < tree.numNodes(); ++v) {
        const std::string cell = fileNamePart(tree.names[static_cast<size_t>(v)]);
        writeFileAtomically(outDir, "emissions_" + cell + ".tsv",
                            treeEmissionTable(tracks.markNames,
                                              learned.model.emissions[static_cast<size_t>(v)],
                                              labels));
        writeFileAtomically(outDir, "transitions_" + cell + ".tsv",
                            treeTransitionTable(learned.model, v, labels));
    }
    writeFileAtomically(outDir, "states.tsv", treeStatesTsv(naming, labels));
    if (command.noSegments) {
        return;
    }
    for (int v = 1; v < tree.numNodes(); ++v) {
        std::ostringstream changes;
        writeStateChangesBed(changes, tracks, stateChanges(segmentation, v, 0), labels);
        writeFileAtomically(outDir,
                            "changes_" + fileNamePart(tree.names[static_cast<size_t>(v)]) + ".bed",
                            changes.str());
    }
    // One browser track per sample (cell): named by the cell, described by the model.
    const std::string description = "Spectral-Tree, K=" + std::to_string(command.model.numStates) +
                                    ", " + std::string(toString(segmentation.mode)) +
                                    " decoding (contrast-cli tree " + command.tree + ")";
    std::vector<std::string> colours;
    for (const Rgb& colour : naming.colours) {
        colours.push_back(rgbText(colour));
    }
    std::vector<std::string> extra;
    if (!command.tssPath.empty()) {
        extra.push_back(command.tssPath);
    }
    writeTreeSegmentFiles(outDir, tracks, segmentation, labels, colours, description, extra);
}

/// Phase times (ms) and the peak memory after learning and decoding the tree.
struct TreeTimings {
    double readMs = 0, learnMs = 0, decodeMs = 0, writeMs = 0, totalMs = 0;
    std::int64_t peakAfterTree = 0;
};

/// tree --json: parameters, data, each node's fit and starts, timings, memory, comparisons and
/// promoter F1.
void printTreeJson(const TreeCommandOptions& command, const TreeSpec& tree,
                   const MultiCellTracks& tracks, const SpectralTreeResult& learned,
                   const TreeSegmentation& segmentation, const TreeTimings& timings,
                   const nlohmann::json& compared, const nlohmann::json& f1,
                   const std::vector<std::string>& labels, const StateNaming& naming) {
    const SpectralTreeOptions& options = command.model;
    const int k = options.numStates;
    const std::int64_t flank = command.flank;
    nlohmann::json out;
    out["command"] = "tree";
    out["parameters"] = {{"k", k},
                         {"tree", tree.toString()},
                         {"decomposition", toString(options.decomposition)},
                         {"scaling", command.scaling},
                         {"moment_fit", options.momentFitSweeps},
                         {"extra_components", options.reserveComponents},
                         {"starts", options.starts},
                         {"seed", options.seed},
                         {"decode", toString(segmentation.mode)},
                         {"flank", flank}};
    out["data"] = {{"cells", tracks.cells},
                   {"chroms", tracks.chroms},
                   {"bins_per_cell", tracks.totalBins()},
                   {"marks", tracks.markNames},
                   {"dropped_marks", tracks.droppedMarks},
                   {"notes", tracks.notes}};
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& node : learned.nodes) {
        nodes.push_back({{"cell", node.cell},
                         {"path_length", node.pathLength},
                         {"meta_dim", node.metaDim},
                         {"symmetrization_rank", node.symmetrizationRank},
                         {"positions", node.positions},
                         {"distinct_triples", node.distinctTriples},
                         {"status", toString(node.status)},
                         {"residual", node.residual},
                         {"clipping", node.clipping},
                         {"agreement", node.agreement},
                         {"decomposition_rank", node.decompositionRank},
                         {"moment_residual_selected", node.momentResidualSelected},
                         {"moment_residual_final", node.momentResidualFinal},
                         {"starts", startSpreadJson(node.starts)}});
    }
    out["nodes"] = nodes;
    // The states as the files label them and as states.tsv names and colours them.
    nlohmann::json states = nlohmann::json::array();
    for (size_t s = 0; s < naming.names.size() && s < labels.size(); ++s) {
        states.push_back({{"label", labels[s]},
                          {"name", naming.names[s]},
                          {"colour", rgbText(naming.colours[s])}});
    }
    out["states"] = states;
    out["timings_ms"] = {{"read", timings.readMs},
                         {"moments", learned.momentMs},
                         {"decomposition", learned.decompositionMs},
                         {"transitions", learned.transitionMs},
                         {"learn", timings.learnMs},
                         {"decode", timings.decodeMs},
                         {"spectral_tree", timings.learnMs + timings.decodeMs},
                         {"write", timings.writeMs},
                         {"total", timings.totalMs}};
    out["peak_memory_mb"] = static_cast<double>(peakResidentBytes()) / 1e6;
    out["peak_memory_after_tree_mb"] = static_cast<double>(timings.peakAfterTree) / 1e6;
    out["decode_log_likelihood"] = segmentation.logLikelihood;
    if (!compared.empty()) {
        out["compare"] = compared;
    }
    if (!f1.empty()) {
        out["promoter_f1"] = f1;
    }
    std::cout << out.dump(2) << "\n";
}

int runTree(TreeCommandOptions& command) {
    Stopwatch total;
    const auto trackItems = splitList(command.tracks);
    const std::string& treeText = command.tree;
    SpectralTreeOptions& options = command.model;
    const std::string& tssPath = command.tssPath;
    const std::string& outDir = command.outDir;
    const bool json = command.json;
    const std::int64_t flank = command.flank;
    const int promoterLabel = command.promoterLabel;
    const int emIterations = command.emIterations;
    MultiCellReadOptions& readOptions = command.readOptions;
    const std::string& saveSession = command.saveSession;
    bool comparePerCell = false, compareEm = false;
    const TreeDecodingOptions decodeOptions = parseTreeChoices(command, comparePerCell, compareEm);
    const TreeSpec tree = parseTreeSpec(treeText);
    if (promoterLabel > options.numStates) {
        throw InputError("parameter --promoter-state: " + std::to_string(promoterLabel) +
                         " exceeds K = " + std::to_string(options.numStates));
    }

    createOutputFolder(outDir);
    if (!saveSession.empty()) {
        saveTreeSession(command, trackItems, comparePerCell, compareEm);
    }
    Stopwatch phase;
    readOptions.cells = tree.names;
    const MultiCellTracks tracks = readMultiCellTracks(expandTrackPaths(trackItems), readOptions);
    const double readMs = phase.elapsedMs();
    if (decodeOptions.mode == TreeDecodingMode::Joint) { // refused before learning, not after
        checkJointDecodingFits(options.numStates, tree.numNodes(),
                               *std::max_element(tracks.chromBins.begin(), tracks.chromBins.end()));
    }
    phase = Stopwatch();
    const SpectralTreeResult learned = learnSpectralTree(tracks, tree, options);
    const double learnMs = phase.elapsedMs();
    phase = Stopwatch();
    const TreeSegmentation segmentation = decodeTree(tracks, learned.model, decodeOptions);
    const double decodeMs = phase.elapsedMs();
    const std::int64_t peakAfterTree = peakResidentBytes();

    const int k = options.numStates;
    // The promoter table covers the per-cell and EM models too, whose states are other
    // models' states: it numbers them. The tree's own files follow --state-labels.
    const std::vector<std::string> numbered = defaultStateLabels(k);
    const StateNaming naming = treeStateNaming(tracks, learned.model, segmentation);
    const std::vector<std::string> labels =
        command.stateLabels == "names" ? namedStateLabels(naming.names, k) : numbered;
    phase = Stopwatch();
    writeTreeFiles(command, tree, tracks, learned, segmentation, labels, naming);
    const double writeMs = phase.elapsedMs();

    nlohmann::json compared = nlohmann::json::object();
    PerCellHmmResult perCell;
    if (comparePerCell) {
        perCell =
            perCellSpectralHmms(tracks, k, options.decomposition, options.seed, {}, options.starts);
        nlohmann::json starts = nlohmann::json::object();
        for (size_t c = 0; c < perCell.starts.size(); ++c) {
            starts[tracks.cells[c]] = startSpreadJson(perCell.starts[c]);
        }
        compared["per-cell"] = {
            {"learn_ms", perCell.learnMs}, {"decode_ms", perCell.decodeMs}, {"starts", starts}};
    }
    FlattenedEmResult em;
    if (compareEm) {
        FlattenedEmOptions emOptions;
        emOptions.maxIterations = emIterations;
        em = flattenedEm(tracks, learned.model, emOptions);
        compared["em"] = {{"fits", em.fits},
                          {"product_states", em.metaStates},
                          {"estimated_mb", em.estimatedBytes / 1e6}};
        if (em.fits) {
            compared["em"]["learn_ms"] = em.learnMs;
            compared["em"]["decode_ms"] = em.decodeMs;
            compared["em"]["iterations"] = em.iterations;
            compared["em"]["log_likelihood"] = em.logLikelihood;
        } else {
            compared["em"]["reason"] = em.reason;
            std::cerr << "contrast-cli tree: EM on the flattened model not run: " << em.reason
                      << "\n";
        }
    }
    nlohmann::json f1 = nlohmann::json::object();
    if (!tssPath.empty()) {
        const TssTruth truth =
            readTssTruth(tssPath, tracks.chroms, tracks.chromBins, tracks.binSize, flank);
        std::vector<PromoterF1Row> table;
        const int fixed = promoterLabel - 1;
        f1["spectral-tree"] = promoterScores(tracks, segmentation.states, truth, k, fixed, numbered,
                                             table, "spectral-tree", learned.model.emissions);
        if (comparePerCell) {
            // Per-cell HMMs number their states independently: the promoter state is chosen in
            // each cell by its marks and TSS enrichment (--promoter-state applies to the tree's
            // shared labels).
            std::vector<Eigen::MatrixXd> profiles;
            for (const HmmParameters& hmm : perCell.hmms) {
                profiles.push_back(hmm.emissions);
            }
            f1["per-cell"] = promoterScores(tracks, perCell.states, truth, k, -1, numbered, table,
                                            "per-cell", profiles);
        }
        if (compareEm && em.fits) {
            // The flattened EM's states keep the tree's labels (it starts from the tree model).
            f1["em"] = promoterScores(tracks, em.states, truth, k, -1, numbered, table, "em", {});
        }
        writeFileAtomically(outDir, "promoter_f1.tsv", promoterF1Tsv(table, numbered));
    }
    for (const auto& note : tracks.notes) {
        std::cerr << "contrast-cli tree: " << note << "\n";
    }
    if (json) {
        const TreeTimings timings{readMs,  learnMs,           decodeMs,
                                  writeMs, total.elapsedMs(), peakAfterTree};
        printTreeJson(command, tree, tracks, learned, segmentation, timings, compared, f1, labels,
                      naming);
    } else {
        // The starts of every fit: which was kept and how far the others were.
        for (const auto& node : learned.nodes) {
            std::cout << "spectral-tree " << node.cell << ": " << startSpreadText(node.starts)
                      << "\n";
        }
        for (size_t c = 0; c < perCell.starts.size(); ++c) {
            std::cout << "per-cell " << tracks.cells[c] << ": "
                      << startSpreadText(perCell.starts[c]) << "\n";
        }
    }
    return 0;
}

} // namespace

CommandEntry addTreeCommand(CLI::App& root) {
    auto options = std::make_shared<TreeCommandOptions>();
    TreeCommandOptions& o = *options;
    const int maxStates = kMaxTreeMarks + 1;
    OptionList list(addSubcommand(
        root, "tree", "Spectral-Tree: HMM with tree-structured states across cell types"));
    list.text("tracks", o.tracks, "ChromHMM binarized files F1,F2,... or a folder of them")
        .required()
        .text("tree", o.tree, "cell-type tree ROOT>CHILD1,CHILD2[;CHILD1>...]")
        .required()
        .integer("k", o.model.numStates, 1, maxStates, "states per cell type K")
        .required()
        .text("decomposition", o.decomposition, "power | jennrich")
        .seed("seed", o.model.seed, "random seed")
        .integer("projection", o.model.projectionDim, 0, maxStates,
                 "dimension m of the product projections (0 = K)")
        .integer("iterations", o.model.iterations, 1, 100000, "power iterations per trial")
        .integer("restarts", o.model.trials, 1, 10000,
                 "random starts per component (Jennrich: slice pairs)")
        .integer("starts", o.model.starts, 1, 1000,
                 "seeded starts of each node's decomposition (and of each per-cell HMM); the "
                 "lowest moment residual (per-cell: highest log-likelihood) is kept")
        .text("scaling", o.scaling,
              "mean (each node's marks scaled by 1/sqrt(mean) before its moments) | none")
        .integer("moment-fit", o.model.momentFitSweeps, -1, 100000,
                 "per node: re-select K of the K+E decomposed states and the unmarked one and "
                 "refit them to the node's first and second mark moments with N joint sweeps "
                 "(-1 = off: rank K, weights from the eigenvalues)")
        .integer("extra-components", o.model.reserveComponents, 0, maxStates,
                 "E: reserve components of each node's decomposition for --moment-fit")
        .text("tss", o.tssPath, "TSS file: scores the promoter state per cell type")
        .text("compare", o.compare, "also fit per-cell[,em] baselines and compare")
        .text("out", o.outDir, "output folder")
        .required()
        .flag("json", o.json, "print a JSON summary on standard output")
        .flag("no-segments", o.noSegments, "do not write the segmentation BED files")
        .text("state-labels", o.stateLabels,
              "what the tree's emissions, transitions, states.tsv and segments call the states: "
              "numbers (E1…EK) | names (the states' names, as the GUI shows them; "
              "promoter_f1.tsv, which has the baselines' states too, keeps numbers); the "
              "segments are coloured by the states' colours either way")
        .integer("flank", o.flank, 0, 100000000, "promoter = TSS ± flank base pairs")
        .integer("promoter-state", o.promoterLabel, 0, maxStates,
                 "1-based label of the promoter state (0 = per cell and method, the state most "
                 "enriched in TSS bins among those with at least half the highest H3K4me3; TSS "
                 "enrichment alone without an H3K4me3 mark)")
        .integer("em-iterations", o.emIterations, 1, 100000,
                 "Baum–Welch iterations of --compare em")
        .text("decode", o.decodeName, "auto | path | joint")
        .flag("strict-marks", o.readOptions.strictMarks,
              "refuse files whose marks differ (default: keep the shared marks)")
        .integer("bin-size", o.readOptions.binSize, 1, 1000000000, "bin size in base pairs")
        .text("save-session", o.saveSession, "also save these options as a session (.cxproj)");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runTree(*options);
            }};
}

} // namespace cx::cli
