// contrast-cli hmm: contrastive spectral HMM on ChromHMM binarized chromatin tracks
// (Zou et al. 2013, Sec. 4 and Alg. 3), Baum–Welch EM baseline/refinement, genome segmentation.
//
// Every option, with its meaning and default, is declared in addHmmCommand at the end of this
// file (`contrast-cli hmm --help` lists them).
#include "cli_session.h"
#include "commands.h"
#include "hmm_job.h"
#include "hmm_k_range.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/hmm/baum_welch.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/hmm_bootstrap.h"
#include "core/hmm/hmm_path.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

namespace cx::cli {

namespace {

std::string number(double value) {
    return hmmNumber(value);
}

using Json = nlohmann::ordered_json;

std::vector<double> toVector(const Eigen::VectorXd& v) {
    return std::vector<double>(v.data(), v.data() + v.size());
}

/// The options of `hmm` (declared in addHmmCommand; lists and names converted by runHmm).
struct HmmCommandOptions {
    HmmJobOptions job;
    std::string tracks;
    std::string foregroundRegions;
    std::string backgroundRegions;
    std::string encoding = "marks";
    bool noSegments = false;
    std::string outDir;
    bool json = false;
    int threads = 0;
    std::string saveSession;
    std::string gammaPath;                ///< FROM:TO:STEP, empty = no path
    std::string pathStarts = "continued"; ///< continued | fresh
    int bootstrap = 0;                    ///< B block-bootstrap replicates of the path, 0 = none
    int blockLength = 0;                  ///< bootstrap block length in bins, 0 = automatic
    std::string kRange;                   ///< A:B: how many states (hmm_k_range.h)
};

/// One line: where along the path the model is valid and how often a state changes identity.
std::string pathSummary(const HmmPath& path) {
    std::ostringstream out;
    out << "gamma path " << number(path.gammas.front()) << " to " << number(path.gammas.back())
        << " (" << path.gammas.size() << " points): valid model at " << path.validPoints();
    const auto ranges = path.validRanges();
    if (!ranges.empty()) {
        out << " (";
        for (size_t i = 0; i < ranges.size(); ++i) {
            out << (i ? ", " : "") << '[' << number(ranges[i].first) << ", "
                << number(ranges[i].second) << ']';
        }
        out << ')';
    }
    out << "; " << path.identityChanges() << " identity changes (" << path.specificIdentityChanges()
        << " of foreground-specific states), " << path.numIdentities << " identities";
    return out.str();
}

/// The checks of `hmm` that CLI11 cannot make (K given, the path's grid, the bootstrap's needs);
/// returns the γ grid of --gamma-path (empty without one).
std::vector<double> validateHmmCommand(HmmCommandOptions& command) {
    HmmJobOptions& options = command.job;
    if (options.numComponents == 0) {
        throw InputError("parameter --k: required (or --k-range A:B)");
    }
    options.validate();
    std::vector<double> pathGammas;
    if (!command.gammaPath.empty()) {
        pathGammas = parseGrid("gamma-path", command.gammaPath);
        if (pathGammas.front() < 0) {
            throw InputError("parameter --gamma-path: γ must be >= 0 in '" + command.gammaPath +
                             "'");
        }
        if (options.method != "spectral") {
            throw InputError("parameter --gamma-path: needs --method spectral");
        }
    }
    if (command.bootstrap != 0) {
        if (pathGammas.empty()) {
            throw InputError("parameter --bootstrap: needs --gamma-path (the bootstrap gives bands "
                             "along the γ path)");
        }
        if (command.bootstrap < 2 || command.bootstrap > kMaxHmmBootstrapReplicates) {
            throw InputError("parameter --bootstrap: needs 2 to " +
                             std::to_string(kMaxHmmBootstrapReplicates) + " replicates (got " +
                             std::to_string(command.bootstrap) + ")");
        }
    }
    if (command.blockLength != 0 && command.bootstrap == 0) {
        throw InputError("parameter --block-length: needs --bootstrap");
    }
    if (command.pathStarts != "continued" && command.pathStarts != "fresh") {
        throw InputError("parameter --path-starts: '" + command.pathStarts +
                         "' is not one of continued, fresh");
    }
    return pathGammas;
}

/// hmm --json's "path": the γ grid, where the model is valid, identity changes, and with a
/// bootstrap the weights, their bands and each identity's stability.
Json hmmPathJson(const HmmPath& path, const HmmPathBootstrap& bands, const std::string& starts) {
    Json ranges = Json::array();
    for (const auto& [from, to] : path.validRanges()) {
        ranges.push_back({from, to});
    }
    int continued = 0;
    for (char c : path.continued) {
        continued += c ? 1 : 0;
    }
    Json out = {{"starts", starts},
                {"gammas", path.gammas},
                {"points", static_cast<int>(path.gammas.size())},
                {"valid_points", path.validPoints()},
                {"valid_ranges", ranges},
                {"identities", path.numIdentities},
                {"identity_changes", path.identityChanges()},
                {"specific_identity_changes", path.specificIdentityChanges()},
                {"continued_points", continued}};
    if (!bands.empty()) {
        Json ids = Json::array(), weights = Json::array();
        for (size_t i = 0; i < path.gammas.size(); ++i) {
            ids.push_back(path.ids[i]);
            weights.push_back(toVector(path.solutions[i].weights));
        }
        std::vector<int> unstable;
        for (int id = 0; id < path.numIdentities; ++id) {
            if (bands.isUnstable(id)) {
                unstable.push_back(id);
            }
        }
        out["ids"] = ids;
        out["weights"] = weights;
        out["weight_lo"] = bands.weightLo;
        out["weight_hi"] = bands.weightHi;
        out["stability"] = bands.stability;
        out["identity_stability"] = bands.identityStability;
        out["unstable_identities"] = unstable;
        out["bootstrap"] = {{"replicates", bands.replicates},
                            {"seed", bands.seed},
                            {"level", bands.level},
                            {"foreground_block_length", bands.foregroundBlockLength},
                            {"background_block_length", bands.backgroundBlockLength},
                            {"foreground_blocks", bands.foregroundBlocks},
                            {"background_blocks", bands.backgroundBlocks},
                            {"min_stability", kMinStateStability}};
    }
    return out;
}

/// hmm --json: parameters, data, timings, the model, likelihoods, the path and warnings.
void printHmmJson(const HmmCommandOptions& command, const HmmJobResult& result,
                  const HmmPathRun& pathRun, double writeMs, double totalMs) {
    const HmmJobOptions& options = command.job;
    const HmmPath& path = pathRun.path;
    const HmmPathBootstrap& bands = pathRun.bands;
    const ChromatinData& data = result.data;
    const BinClasses& classes = result.classes;
    const SequenceMoments& moments = result.moments;
    const ContrastiveHmmResult& spectral = result.spectral;
    const BaumWelchResult& em = result.em;
    const HmmParameters& model = result.model;
    const Segmentation& segmentation = result.segmentation;
    const std::vector<std::string>& warnings = result.warnings;
    const Eigen::MatrixXd markEmissions = markProbabilities(model, data);
    const int k = options.numComponents;
    const double gamma = options.gamma;
    const std::string& method = options.method;
    const ContrastiveHmmOptions& solveOptions = options.solveOptions;
    const int states = model.numStates();
    const bool ranEm = result.ranEm;
    const double spectralLogLikelihood = result.spectralLogLikelihood;
    const double finalLogLikelihood = result.finalLogLikelihood();
    const std::int64_t sequenceBins = result.sequenceBins();
    Json out;
    out["command"] = "hmm";
    out["parameters"] = {{"k", k},
                         {"gamma", gamma},
                         {"encoding", toString(options.encoding)},
                         {"method", method},
                         {"refine_em", options.refineEm},
                         {"refine_tolerance", options.refineTolerance},
                         {"seed", options.seed},
                         {"bin_size", options.binSize},
                         {"lag", options.lag},
                         {"window", options.window},
                         {"extra_components", solveOptions.extraComponents},
                         {"validity_z", solveOptions.validityZ},
                         {"decomposition", options.decompositionName},
                         {"als_sweeps", solveOptions.alsSweeps},
                         {"moment_fit", solveOptions.momentRefitSweeps},
                         {"moment_order", solveOptions.momentRefitOrder},
                         {"scaling", options.scalingName},
                         {"decode", toString(options.decoding)},
                         {"threads", threadCount()}};
    Json tracks = Json::array();
    for (const auto& track : data.tracks) {
        tracks.push_back({{"path", track.path},
                          {"cell", track.cell},
                          {"chrom", track.chrom},
                          {"bins", track.numBins()}});
    }
    Json dataJson;
    dataJson["tracks"] = tracks;
    dataJson["marks"] = data.markNames;
    dataJson["patterns"] = data.numPatterns();
    dataJson["foreground_bins"] = classes.foregroundBins;
    dataJson["background_bins"] = classes.backgroundBins;
    if (method == "spectral") {
        dataJson["foreground_triples"] = moments.foreground.numTriples;
        dataJson["background_triples"] = moments.background.numTriples;
    }
    dataJson["likelihood_sequences"] = static_cast<std::int64_t>(result.sequences.size());
    dataJson["likelihood_bins"] = sequenceBins;
    out["data"] = dataJson;
    out["timings_ms"] = {{"load", result.loadMs},
                         {"regions", result.regionsMs},
                         {"moments", result.momentsMs},
                         {"solve", result.solveMs},
                         {"learning", result.momentsMs + result.solveMs},
                         {"em", result.emMs},
                         {"decode", result.decodeMs},
                         {"write", writeMs},
                         {"path", pathRun.pathMs},
                         {"bootstrap_blocks", pathRun.blocksMs},
                         {"bootstrap", bands.elapsedMs},
                         {"total", totalMs}};
    Json modelJson;
    modelJson["states"] = states;
    if (method == "spectral") {
        modelJson["status"] = toString(spectral.status);
        modelJson["components"] = k;
        modelJson["foreground_specific"] = spectral.numSpecific;
        modelJson["weights"] = toVector(spectral.weights);
        modelJson["lambdas"] = toVector(spectral.lambdas);
        modelJson["residual"] = spectral.residual;
        modelJson["decomposition_rank"] = spectral.decompositionRank;
        modelJson["candidate_ranks"] = spectral.candidateRanks;
        modelJson["invalid_mass"] = spectral.invalidMass;
        modelJson["component_invalid_mass"] = toVector(spectral.componentInvalidMass);
        modelJson["emission_clipping"] = toVector(spectral.emissionClipping);
        modelJson["emission_tolerance"] = toVector(spectral.emissionTolerance);
        modelJson["dropped_weights"] = toVector(spectral.droppedWeights);
        modelJson["moment_residual_selected"] = spectral.momentResidualSelected;
        modelJson["moment_residual_final"] = spectral.momentResidualFinal;
        modelJson["starts"] = startSpreadJson(result.starts);
    }
    auto matrix = [](const Eigen::MatrixXd& m) {
        Json rows = Json::array();
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            Json row = Json::array();
            for (Eigen::Index j = 0; j < m.cols(); ++j) {
                row.push_back(m(i, j));
            }
            rows.push_back(row);
        }
        return rows;
    };
    modelJson["emissions"] = matrix(markEmissions);
    if (method == "spectral") {
        modelJson["components"] = matrix(spectral.markProbabilities);
        modelJson["dropped_components"] = matrix(spectral.droppedMarkProbabilities);
    }
    modelJson["transitions"] = matrix(model.transitions);
    modelJson["start"] = toVector(model.start);
    // The states as the files label them and as states.tsv names and colours them.
    const std::vector<std::string> labels = hmmStateLabels(options, result);
    const HmmStateNames named = hmmStateNames(result);
    const auto shown =
        static_cast<std::ptrdiff_t>(std::min(static_cast<size_t>(states), labels.size()));
    modelJson["state_labels"] = std::vector<std::string>(labels.begin(), labels.begin() + shown);
    modelJson["state_names"] = named.names;
    modelJson["state_colours"] = named.colours;
    out["model"] = modelJson;
    Json likelihood;
    likelihood["spectral"] = spectralLogLikelihood;
    if (ranEm) {
        likelihood["em"] = em.logLikelihoods;
        likelihood["em_iterations"] = em.iterations;
        likelihood["em_status"] = toString(em.status);
    }
    likelihood["final"] = finalLogLikelihood;
    likelihood["final_per_bin"] =
        sequenceBins > 0 ? finalLogLikelihood / static_cast<double>(sequenceBins) : std::nan("");
    likelihood["segmentation"] = segmentation.logLikelihood;
    out["log_likelihood"] = likelihood;
    if (!path.gammas.empty()) {
        out["path"] = hmmPathJson(path, bands, command.pathStarts);
    }
    out["warnings"] = warnings;
    std::cout << out.dump() << "\n";
}

/// hmm without --json: the data, the model's states and marks, the path and the files written.
void printHmmText(const HmmCommandOptions& command, const HmmJobResult& result,
                  const HmmPathRun& pathRun) {
    const HmmJobOptions& options = command.job;
    const HmmPath& path = pathRun.path;
    const HmmPathBootstrap& bands = pathRun.bands;
    const std::string& outDir = command.outDir;
    const ChromatinData& data = result.data;
    const BinClasses& classes = result.classes;
    const ContrastiveHmmResult& spectral = result.spectral;
    const HmmParameters& model = result.model;
    const std::vector<std::string> labels = hmmStateLabels(options, result);
    const Eigen::MatrixXd markEmissions = markProbabilities(model, data);
    const int k = options.numComponents;
    const double gamma = options.gamma;
    const std::string& method = options.method;
    const int states = model.numStates();
    const double finalLogLikelihood = result.finalLogLikelihood();
    const bool writeSegments = options.writeSegments;
    std::cout << "tracks: " << data.tracks.size() << " (" << data.totalBins() << " bins, "
              << data.numMarks() << " marks, " << data.numPatterns()
              << " distinct patterns); foreground " << classes.foregroundBins
              << " bins, background " << classes.backgroundBins << " bins\n";
    if (method == "spectral") {
        std::cout << "gamma = " << number(gamma) << ": " << spectral.numSpecific << " of " << k
                  << " components are foreground-specific (weight > 0); decomposition rank "
                  << spectral.decompositionRank;
        if (spectral.droppedWeights.size() > 0) {
            std::cout << " (dropped " << spectral.droppedWeights.size()
                      << " least-occupied component(s), weights";
            for (Eigen::Index t = 0; t < spectral.droppedWeights.size(); ++t) {
                std::cout << ' ' << number(spectral.droppedWeights[t]);
            }
            std::cout << ')';
        }
        std::cout << '\n' << startSpreadText(result.starts) << '\n';
        if (spectral.invalidMass > 0) {
            std::cout << "note: not a valid " << k << "-state model at this gamma (invalid mass "
                      << number(spectral.invalidMass) << "):";
            for (Eigen::Index t = 0; t < spectral.componentInvalidMass.size(); ++t) {
                if (!spectral.isValidComponent(t)) {
                    std::cout << " component " << (t + 1) << " (weight "
                              << number(spectral.weights[t]) << ")";
                }
            }
            std::cout << " has an emission outside [0, 1] or a weight outside [-gamma, 1] "
                         "beyond sampling error; try another gamma or K\n";
        }
    }
    for (int s = 0; s < states; ++s) {
        std::cout << labels[static_cast<size_t>(s)];
        if (method == "spectral") {
            std::cout << "  weight " << number(spectral.weights[s]);
        }
        std::cout << " :";
        for (int j = 0; j < data.numMarks(); ++j) {
            std::cout << ' ' << data.markNames[static_cast<size_t>(j)] << '='
                      << number(markEmissions(s, j));
        }
        std::cout << '\n';
    }
    if (!path.gammas.empty()) {
        std::cout << pathSummary(path) << "; wrote " << outDir << "/path.tsv\n";
    }
    if (!bands.empty()) {
        std::cout << "bootstrap: " << bands.replicates << " block resamples (blocks of "
                  << bands.foregroundBlockLength << " foreground / " << bands.backgroundBlockLength
                  << " background bins, " << bands.foregroundBlocks << " / "
                  << bands.backgroundBlocks << " blocks), " << number(bands.elapsedMs)
                  << " ms; stability per identity:";
        for (int id = 0; id < path.numIdentities; ++id) {
            std::cout << ' ' << id << '=' << number(bands.stabilityOf(id))
                      << (bands.isUnstable(id) ? " (unstable)" : "");
        }
        std::cout << '\n';
    }
    std::cout << "log-likelihood " << number(finalLogLikelihood) << "\nwrote " << outDir
              << "/{emissions,transitions,states" << (writeSegments ? ",segments" : "") << "}\n";
}

int runHmm(HmmCommandOptions& command) {
    HmmJobOptions& options = command.job;
    options.trackPaths = splitList(command.tracks);
    options.foregroundPaths = splitList(command.foregroundRegions);
    options.backgroundPaths = splitList(command.backgroundRegions);
    options.encoding = parseObservationEncoding(command.encoding);
    options.writeSegments = !command.noSegments;
    const std::string& outDir = command.outDir;
    const bool json = command.json;
    const int threads = command.threads;
    const std::string& saveSession = command.saveSession;
    if (!command.kRange.empty()) {
        options.numComponents = std::max(options.numComponents, 1); // not used by the range
        options.validate();
        setThreadCount(threads);
        return runHmmKRange(options, command.kRange, outDir, json);
    }
    const std::vector<double> pathGammas = validateHmmCommand(command);
    setThreadCount(threads);
    createOutputFolder(outDir);
    Stopwatch total;
    const HmmJobResult result = runHmmJob(options);
    Stopwatch phase;
    writeHmmFiles(options, result, outDir);
    const double writeMs = phase.elapsedMs();
    HmmPathRun pathRun;
    if (!pathGammas.empty()) {
        pathRun = runHmmPath(options, result, pathGammas, command.pathStarts, command.bootstrap,
                             command.blockLength);
        writeFileAtomically(outDir, "path.tsv", hmmPathTable(pathRun, result.data.markNames));
    }
    if (!saveSession.empty()) {
        ChromatinSection section = chromatinSectionOf(options);
        section.gammaPath = command.gammaPath;
        section.pathStarts = command.pathStarts;
        section.bootstrap = command.bootstrap;
        section.blockLength = command.blockLength;
        saveSessionSection(saveSession, ChromatinSection::kKey,
                           [&](const auto& directory) { return section.toJson(directory); });
    }

    for (const auto& warning : result.warnings) {
        std::cerr << "contrast-cli hmm: warning: " << warning << "\n";
    }
    if (json) {
        printHmmJson(command, result, pathRun, writeMs, total.elapsedMs());
    } else {
        printHmmText(command, result, pathRun);
    }
    return 0;
}

} // namespace

CommandEntry addHmmCommand(CLI::App& root) {
    auto options = std::make_shared<HmmCommandOptions>();
    options->job.numComponents = 0; // --k is required unless --k-range is given
    HmmJobOptions& job = options->job;
    ContrastiveHmmOptions& solve = job.solveOptions;
    OptionList list(
        addSubcommand(root, "hmm", "contrastive HMM on ChromHMM binarized chromatin tracks"));
    list.text("tracks", options->tracks, "ChromHMM binarized files F1[,F2...]")
        .required()
        .text("fg-regions", options->foregroundRegions, "BED files of the foreground regions")
        .text("bg-regions", options->backgroundRegions, "BED files of the background regions")
        .integer("k", job.numComponents, 1, 1000,
                 "number of hidden states K (required unless --k-range)")
        .defaultText("none")
        .real("gamma", job.gamma, 0.0, 1e6, "contrast γ")
        .required()
        .text("encoding", options->encoding,
              "observations: marks (one view per mark) | combinations (one symbol per pattern)")
        .text("method", job.method,
              "spectral (contrastive moments) | em (Baum–Welch from a random start; needs "
              "--gamma 0)")
        .integer("refine-em", job.refineEm, 0, 100000,
                 "Baum–Welch iterations refining the spectral model (an upper bound when a "
                 "refinement tolerance is given); default as the GUI: the gamma = 0 model is "
                 "refined (1000, with tolerance 1e-5), a contrastive one is not (0)")
        .defaultText("auto")
        .real("refine-tolerance", job.refineTolerance, 0.0, 1.0,
              "the Baum–Welch refinement stops early when the relative log-likelihood gain of "
              "a round is below this (0 = run all refine-em rounds; default 1e-5 with the "
              "automatic refinement, else 0)")
        .defaultText("auto")
        .seed("seed", job.seed, "random seed")
        .flag("no-segments", options->noSegments, "do not write segments.bed")
        .text("state-labels", job.stateLabels,
              "what emissions.tsv, transitions.tsv, states.tsv, components.tsv and segments.bed "
              "call the states: numbers (E1…EK, ChromHMM's convention) | names (the states' "
              "names, as the GUI shows and exports them); segments.bed is coloured by the "
              "states' colours either way")
        .integer("bin-size", job.binSize, 1, 1000000000, "bin size in base pairs")
        .integer("em-max-iter", job.emMaxIterations, 1, 1000000, "maximum EM iterations")
        .real("em-tolerance", job.emTolerance, 0.0, 1.0,
              "EM stops when the relative log-likelihood gain is below this")
        .text("decode", job.decodeName, "posterior | viterbi")
        .integer("iterations", solve.iterations, 1, 100000, "power iterations per trial")
        .integer("restarts", solve.trials, 1, 10000, "random starts per component")
        .integer("starts", job.starts, 1, 1000,
                 "seeded starts of the whole spectral solve; the best is kept (gamma = 0: "
                 "highest log-likelihood, else lowest moment residual)")
        .integer("projection-rank", job.projectionRank, 0, 10000,
                 "projection rank for --encoding combinations (0 = automatic)")
        .integer("lag", job.lag, 1, 1000, "triples x(t−D), x(t), x(t+D)")
        .integer("refine-rounds", solve.refinementRounds, 0, 100,
                 "refinement rounds of the power method")
        .integer("window", job.window, 1, 1000, "side views are windows of L bins")
        .integer("extra-components", solve.extraComponents, 0, 1000,
                 "reserve components of the decomposition")
        .real("validity-z", solve.validityZ, 0.0, 1e6,
              "z-score of the sampling tolerance of the validity checks")
        .integer("als-sweeps", solve.alsSweeps, 0, 100000, "CP-ALS sweeps after the extraction")
        .integer("moment-fit", job.momentFit, -1, 100000,
                 "marks: re-select and refit the states against the first and second mark "
                 "moments with N joint sweeps (-1 = off; default as the GUI: 0 when the model "
                 "is refined, else -1)")
        .defaultText("auto")
        .integer("moment-order", solve.momentRefitOrder, 2, 3,
                 "highest order of the mark moments --moment-fit matches: 2 (means, pairs) or 3 "
                 "(also triples of marks)")
        .text("decomposition", job.decompositionName, "deflation | jennrich")
        .text("scaling", job.scalingName, "mean | none | whiten")
        .text("out", options->outDir, "output folder")
        .required()
        .flag("json", options->json, "print a JSON summary on standard output")
        .integer("threads", options->threads, 0, 1024, "worker threads (0 = all cores)")
        .text("save-session", options->saveSession,
              "also save these options as a session (.cxproj)")
        .text("gamma-path", options->gammaPath,
              "also solve along γ = FROM:TO:STEP as a path and write path.tsv (identities, "
              "validity per γ)")
        .text("path-starts", options->pathStarts,
              "continued (each γ from its neighbour's states, checked against fresh starts) | "
              "fresh (every γ on its own)")
        .integer("bootstrap", options->bootstrap, 0, 1000000000,
                 "block-bootstrap resamples of the --gamma-path (0 = none, else 2 to 10000): "
                 "weight bands and state stability in path.tsv and the JSON path")
        .integer("block-length", options->blockLength, 0, 1000000000,
                 "bootstrap block length in bins (0 = chosen from the data's autocorrelation)")
        .text("k-range", options->kRange,
              "A:B: how many states — fit K = A..B at gamma 0 on alternate 1000-bin blocks, "
              "judge each on the others (log-likelihood, held-out moment residual, ChromHMM "
              "CompareModels against the largest K), write k_range.tsv and compare_models.tsv "
              "and suggest K (instead of the single fit)");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runHmm(*options);
            }};
}

} // namespace cx::cli
