#include "hmm_job.h"

#include "topic_session.h" // writeFileAtomically

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/timer.h"
#include "core/hmm/hmm_refine.h"
#include "core/hmm/state_catalog.h"
#include "core/hmm/synthetic_hmm.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

namespace cx::cli {

namespace {

std::string emissionTable(const std::vector<std::string>& marks, const Eigen::MatrixXd& emissions,
                          const std::vector<std::string>& labels) {
    std::string out = "state";
    for (const auto& mark : marks) {
        out += '\t' + mark;
    }
    out += '\n';
    for (Eigen::Index k = 0; k < emissions.rows(); ++k) {
        out += labels[static_cast<size_t>(k)];
        for (Eigen::Index j = 0; j < emissions.cols(); ++j) {
            out += '\t' + hmmNumber(emissions(k, j));
        }
        out += '\n';
    }
    return out;
}

std::string transitionTable(const Eigen::MatrixXd& transitions,
                            const std::vector<std::string>& labels) {
    std::string out = "state";
    for (Eigen::Index j = 0; j < transitions.cols(); ++j) {
        out += '\t' + labels[static_cast<size_t>(j)];
    }
    out += '\n';
    for (Eigen::Index i = 0; i < transitions.rows(); ++i) {
        out += labels[static_cast<size_t>(i)];
        for (Eigen::Index j = 0; j < transitions.cols(); ++j) {
            out += '\t' + hmmNumber(transitions(i, j));
        }
        out += '\n';
    }
    return out;
}

/// Fraction of bins decoded to each state (occupancy), for the EM-only model's state table.
Eigen::VectorXd occupancy(const Segmentation& segmentation) {
    Eigen::VectorXd counts = Eigen::VectorXd::Zero(segmentation.numStates);
    double total = 0;
    for (const auto& states : segmentation.states) {
        for (auto s : states) {
            counts[s] += 1;
        }
        total += static_cast<double>(states.size());
    }
    return total > 0 ? Eigen::VectorXd(counts / total) : counts;
}

/// The description of the segments' track lines: what made them.
std::string segmentsDescription(const HmmJobOptions& options) {
    std::string text = options.method == "em" ? "Baum-Welch HMM" : "contrastive spectral HMM";
    text += ", K=" + std::to_string(options.numComponents);
    if (options.method != "em") {
        text += ", gamma=" + hmmNumber(options.gamma);
    }
    if (options.refineEm > 0 && options.method != "em") {
        text += ", refined";
    }
    text += ", " + options.decodeName + " decoding (contrast-cli hmm)";
    return text;
}

/// The first 100 kb of the first track: where the IGV script starts.
std::string firstLocus(const ChromatinData& data) {
    if (data.tracks.empty()) {
        return {};
    }
    const ChromatinTrack& track = data.tracks.front();
    const std::int64_t end = std::min<std::int64_t>(track.numBins() * data.binSize, 100000);
    return track.chrom + ":1-" + std::to_string(end);
}

} // namespace

std::string hmmNumber(double value) {
    return formatNumber(value, 6);
}

void HmmJobOptions::validate() {
    // The GUI's defaults: refine the γ = 0 model from the moment selection.
    const bool autoRefine = refineEm == kAuto;
    if (autoRefine) {
        refineEm = (method == "spectral" && gamma == 0.0) ? kRefineMaxRounds : 0;
    }
    if (refineTolerance == kAuto) {
        refineTolerance = autoRefine && refineEm > 0 ? kRefineTolerance : 0.0;
    }
    if (momentFit == kAuto) {
        momentFit =
            (refineEm > 0 && method == "spectral" && encoding == ObservationEncoding::MarkVector)
                ? 0
                : solveOptions.momentRefitSweeps;
    }
    solveOptions.momentRefitSweeps = momentFit;
    solveOptions.numComponents = numComponents;
    solveOptions.seed = seed;
    if (decompositionName == "jennrich") {
        solveOptions.initialization = AsymmetricInit::SimultaneousDiagonalization;
    } else if (decompositionName != "deflation") {
        throw InputError("parameter --decomposition: '" + decompositionName +
                         "' is not 'deflation' or 'jennrich'");
    }
    if (scalingName == "none") {
        solveOptions.featureScaling = FeatureScaling::None;
    } else if (scalingName == "whiten") {
        solveOptions.featureScaling = FeatureScaling::Whitening;
    } else if (scalingName != "mean") {
        throw InputError("parameter --scaling: '" + scalingName +
                         "' is not 'mean', 'none' or 'whiten'");
    }
    if (trackPaths.empty()) {
        throw InputError("parameter --tracks: no file given");
    }
    if (method != "spectral" && method != "em") {
        throw InputError("parameter --method: '" + method + "' is not 'spectral' or 'em'");
    }
    if (method == "em" && gamma != 0.0) {
        throw InputError("parameter --gamma: --method em fits the foreground alone; use --gamma 0 "
                         "(the contrast is a property of the spectral method)");
    }
    if (method == "em" && encoding != ObservationEncoding::MarkVector) {
        throw InputError("parameter --encoding: --method em supports the marks encoding only");
    }
    if (stateLabels != "numbers" && stateLabels != "names") {
        throw InputError("parameter --state-labels: '" + stateLabels +
                         "' is not 'numbers' or 'names'");
    }
    if (decodeName == "viterbi") {
        decoding = DecodingMethod::Viterbi;
    } else if (decodeName == "posterior") {
        decoding = DecodingMethod::Posterior;
    } else {
        throw InputError("parameter --decode: '" + decodeName +
                         "' is not 'posterior' or 'viterbi'");
    }
}

double HmmJobResult::finalLogLikelihood() const {
    return ranEm ? em.finalLogLikelihood() : spectralLogLikelihood;
}

std::int64_t HmmJobResult::sequenceBins() const {
    std::int64_t bins = 0;
    for (const auto& run : sequences) {
        bins += run.length();
    }
    return bins;
}

HmmJobResult runHmmJob(const HmmJobOptions& options) {
    const int k = options.numComponents;
    const double gamma = options.gamma;
    const bool hasForeground = !options.foregroundPaths.empty();
    const bool hasBackground = !options.backgroundPaths.empty();
    HmmJobResult out;
    out.spectralLogLikelihood = std::nan("");

    // 1. Tracks and regions.
    Stopwatch phase;
    ChromHmmReadOptions readOptions;
    readOptions.binSize = options.binSize;
    out.data = readChromHmmTracks(options.trackPaths, readOptions);
    const ChromatinData& data = out.data;
    out.loadMs = phase.elapsedMs();
    phase.restart();
    BedRegions fgRegions, bgRegions;
    if (hasForeground) {
        fgRegions = readBedFiles(options.foregroundPaths);
    }
    if (hasBackground) {
        bgRegions = readBedFiles(options.backgroundPaths);
    }
    out.classes = classifyBins(data, hasForeground ? &fgRegions : nullptr,
                               hasBackground ? &bgRegions : nullptr);
    out.regionsMs = phase.elapsedMs();
    for (const auto& warning : out.classes.warnings) {
        out.warnings.push_back(warning);
    }
    if (out.classes.foregroundBins == 0) {
        throw InputError("empty foreground: no bin of the tracks overlaps the --fg-regions "
                         "intervals (check the chromosome names)");
    }

    // 2. Moments (cached per foreground/background choice; every γ reuses them).
    phase.restart();
    SequenceMomentOptions momentOptions;
    momentOptions.encoding = options.encoding;
    momentOptions.projectionRank = options.projectionRank;
    momentOptions.seed = options.seed;
    momentOptions.lag = options.lag;
    momentOptions.window = options.window;
    if (options.method == "spectral") {
        out.moments = computeSequenceMoments(data, out.classes, momentOptions);
        const SequenceMoments& moments = out.moments;
        if (moments.foreground.numTriples == 0) {
            throw InputError("empty foreground: no run of " +
                             std::to_string(2 * (moments.lag + moments.window - 1) + 1) +
                             " consecutive foreground bins without missing marks");
        }
        if (gamma > 0 && moments.background.numTriples == 0) {
            throw InputError("parameter --gamma: the background is empty (no run of " +
                             std::to_string(2 * (moments.lag + moments.window - 1) + 1) +
                             " consecutive background bins), so gamma > 0 has nothing to "
                             "subtract; give --fg-regions and/or --bg-regions");
        }
        if (k > moments.rank()) {
            throw InputError("parameter --k: " + std::to_string(k) + " exceeds the moment rank " +
                             std::to_string(moments.rank()) +
                             (options.encoding == ObservationEncoding::MarkVector
                                  ? " (number of marks + 1)"
                                  : " (raise --projection-rank)"));
        }
    }
    out.momentsMs = phase.elapsedMs();

    // 3. Model.
    out.sequences = (!hasForeground && !hasBackground)
                        ? wholeTrackRuns(data)
                        : runsWithFlag(data, out.classes, kForegroundBin, false);
    phase.restart();
    if (options.method == "spectral") {
        ContrastiveHmmStarts fit = solveContrastiveHmmStarts(
            out.moments, gamma, options.solveOptions, options.starts, &data, &out.sequences);
        out.spectral = std::move(fit.best);
        out.starts = std::move(fit.spread);
        out.solveMs = phase.elapsedMs();
        if (out.spectral.numSpecific == 0) {
            throw InputError("parameter --gamma: no foreground-specific state at gamma = " +
                             hmmNumber(gamma) + " (every one of the " + std::to_string(k) +
                             " components has weight <= 0); lower --gamma");
        }
        out.model = out.spectral.hmm;
        out.spectralLogLikelihood = logLikelihood(data, out.sequences, out.model);
        if (options.refineEm > 0) {
            if (gamma > 0) {
                out.warnings.push_back("--refine-em fits the foreground bins alone, so EM rounds "
                                       "pull the model back towards the foreground-only fit "
                                       "(gamma = 0)");
            }
            phase.restart();
            BaumWelchOptions emOptions;
            emOptions.maxIterations = options.refineEm;
            emOptions.tolerance = options.refineTolerance;
            out.em = baumWelch(data, out.sequences, smoothedForEm(out.model, data), emOptions);
            out.emMs = phase.elapsedMs();
            out.model = out.em.hmm;
            out.ranEm = true;
        }
    } else {
        BaumWelchOptions emOptions;
        emOptions.maxIterations = options.emMaxIterations;
        emOptions.tolerance = options.emTolerance;
        out.em = baumWelch(data, out.sequences, randomHmm(k, data, options.encoding, options.seed),
                           emOptions);
        out.emMs = phase.elapsedMs();
        out.model = out.em.hmm;
        out.ranEm = true;
    }

    // 4. Segmentation of every bin.
    phase.restart();
    out.segmentation = segmentTracks(data, out.model, options.decoding);
    out.decodeMs = phase.elapsedMs();
    return out;
}

nlohmann::json startSpreadJson(const StartSpread& spread) {
    std::vector<std::string> seeds;
    for (std::uint64_t seed : spread.seeds) {
        seeds.push_back(std::to_string(seed)); // 64-bit seeds exceed a JSON double's precision
    }
    return {{"starts", spread.starts()},
            {"criterion", toString(spread.criterion)},
            {"values", spread.values},
            {"seeds", seeds},
            {"chosen", spread.chosen},
            {"criterion_spread", spread.valueSpread()},
            {"emission_spread", spread.emissionSpread}};
}

std::string startSpreadText(const StartSpread& spread) {
    if (spread.values.empty()) {
        return "no starts";
    }
    return std::to_string(spread.starts()) + " starts by " + toString(spread.criterion) +
           ": kept start " + std::to_string(spread.chosen + 1) + " (" +
           hmmNumber(spread.values[static_cast<size_t>(spread.chosen)]) + "), criterion spread " +
           hmmNumber(spread.valueSpread()) + ", emission spread " +
           hmmNumber(spread.emissionSpread);
}

std::vector<std::string> hmmStateLabels(const HmmJobOptions& options, const HmmJobResult& result) {
    const int count = std::max(result.model.numStates(), options.numComponents);
    return options.stateLabels == "names" ? namedStateLabels(hmmStateNames(result).names, count)
                                          : defaultStateLabels(count);
}

HmmStateNames hmmStateNames(const HmmJobResult& result) {
    const HmmParameters& model = result.model;
    const int states = model.numStates();
    Eigen::VectorXd weights;
    if (!result.ranEm && result.spectral.weights.size() >= states) {
        weights = result.spectral.weights.head(states);
    } else {
        weights = stationaryDistribution(model.transitions);
    }
    const StateNaming naming =
        nameStates(markProbabilities(model, result.data), weights, result.data.markNames);
    HmmStateNames out;
    out.names = naming.names;
    for (const Rgb& colour : naming.colours) {
        out.colours.push_back(rgbText(colour));
    }
    return out;
}

void writeHmmFiles(const HmmJobOptions& options, const HmmJobResult& result,
                   const std::string& outDir) {
    const ChromatinData& data = result.data;
    const HmmParameters& model = result.model;
    const int k = options.numComponents;
    const int states = model.numStates();
    const std::vector<std::string> labels = hmmStateLabels(options, result);
    // Names and colours by core's naming rule: states.tsv's columns and segments.bed's colours.
    const HmmStateNames named = hmmStateNames(result);
    writeFileAtomically(outDir, "emissions.tsv",
                        emissionTable(data.markNames, markProbabilities(model, data), labels));
    writeFileAtomically(outDir, "transitions.tsv", transitionTable(model.transitions, labels));
    {
        // A component that is no state of the reported HMM (beyond its states) has no name.
        const auto nameColumns = [&](int t) {
            return t < states ? '\t' + named.names[static_cast<size_t>(t)] + '\t' +
                                    named.colours[static_cast<size_t>(t)]
                              : std::string("\t\t");
        };
        std::string table = "state\tweight\tlambda\tforeground_specific\tname\tcolour\n";
        if (options.method == "spectral") {
            const ContrastiveHmmResult& spectral = result.spectral;
            for (int t = 0; t < k; ++t) {
                table += labels[static_cast<size_t>(t)] + '\t' + hmmNumber(spectral.weights[t]) +
                         '\t' + hmmNumber(spectral.lambdas[t]) + '\t' +
                         (t < spectral.numSpecific ? "1" : "0") + nameColumns(t) + '\n';
            }
            writeFileAtomically(outDir, "components.tsv",
                                emissionTable(data.markNames, spectral.markProbabilities, labels));
        } else {
            const Eigen::VectorXd share = occupancy(result.segmentation);
            for (int t = 0; t < states; ++t) {
                table += labels[static_cast<size_t>(t)] + '\t' + hmmNumber(share[t]) + "\tnan\t1" +
                         nameColumns(t) + '\n';
            }
        }
        writeFileAtomically(outDir, "states.tsv", table);
    }
    if (options.encoding == ObservationEncoding::MarkCombination) {
        std::string table = "state";
        for (int p = 0; p < data.numPatterns(); ++p) {
            std::string pattern;
            for (int j = 0; j < data.numMarks(); ++j) {
                pattern += static_cast<char>('0' + data.value(p, j));
            }
            table += '\t' + pattern;
        }
        table += '\n';
        for (int s = 0; s < states; ++s) {
            table += labels[static_cast<size_t>(s)];
            for (int p = 0; p < data.numPatterns(); ++p) {
                table += '\t' + hmmNumber(model.emissions(s, p));
            }
            table += '\n';
        }
        writeFileAtomically(outDir, "pattern_emissions.tsv", table);
    }
    if (!options.writeSegments) {
        return;
    }
    // One browser track per sample (cell), named by the cell and described by the model.
    std::vector<std::string> cells;
    for (const auto& track : data.tracks) {
        if (std::find(cells.begin(), cells.end(), track.cell) == cells.end()) {
            cells.push_back(track.cell);
        }
    }
    const std::string description = segmentsDescription(options);
    std::ostringstream bed;
    writeSampleTracksBed9(bed, data, result.segmentation, labels, description, {}, named.colours);
    writeFileAtomically(outDir, "segments.bed", bed.str());
    std::vector<std::string> browserFiles;
    namespace fs = std::filesystem;
    const auto absolute = [](const fs::path& path) {
        std::error_code error;
        const fs::path full = fs::absolute(path, error);
        return (error ? path : full.lexically_normal()).string();
    };
    if (cells.size() > 1) {
        // IGV shows one track per file, so the script loads the per-cell files.
        for (const auto& cell : cells) {
            std::ostringstream perCell;
            writeSampleTracksBed9(perCell, data, result.segmentation, labels, description, cell,
                                  named.colours);
            const std::string name = "segments." + fileNamePart(cell) + ".bed";
            writeFileAtomically(outDir, name, perCell.str());
            browserFiles.push_back(absolute(fs::path(outDir) / name));
        }
    } else {
        browserFiles.push_back(absolute(fs::path(outDir) / "segments.bed"));
    }
    for (const auto* paths : {&options.foregroundPaths, &options.backgroundPaths}) {
        for (const auto& path : *paths) {
            browserFiles.push_back(absolute(path));
        }
    }
    writeFileAtomically(outDir, "igv_batch.txt", igvBatchScript(browserFiles, firstLocus(data)));
}

HmmPathRun runHmmPath(const HmmJobOptions& options, const HmmJobResult& result,
                      const std::vector<double>& gammas, const std::string& starts, int bootstrap,
                      int blockLength) {
    HmmPathRun run;
    Stopwatch pathWatch;
    const HmmPathStarts pathStarts =
        starts == "fresh" ? HmmPathStarts::Fresh : HmmPathStarts::Continued;
    // The path starts from the kept start at γ = 0, as the Chromatin tab's does.
    ContrastiveHmmOptions pathOptions = options.solveOptions;
    if (options.method == "spectral" && options.gamma == 0.0 && result.starts.starts() > 0) {
        pathOptions.seed = result.starts.keptSeed();
    } else {
        pathOptions = keptStartOptions(result.moments, options.solveOptions, options.starts,
                                       result.data, result.sequences);
    }
    run.path = solveHmmPath(result.moments, gammas, pathOptions, pathStarts);
    run.pathMs = pathWatch.elapsedMs();
    if (bootstrap > 0) {
        Stopwatch blockWatch;
        const HmmBlockMoments blocks =
            computeBlockMoments(result.data, result.classes, result.moments, blockLength);
        run.blocksMs = blockWatch.elapsedMs();
        HmmBootstrapOptions bootstrapOptions;
        bootstrapOptions.replicates = bootstrap;
        bootstrapOptions.seed = options.seed;
        bootstrapOptions.blockLength = blockLength;
        run.bands = bootstrapHmmPath(blocks, run.path, pathOptions, bootstrapOptions, pathStarts);
    }
    return run;
}

/// path.tsv: one row per γ and component (identity, weight, validity, mark probabilities;
/// with a bootstrap also the weight band and the stability at that γ and of the identity).
std::string hmmPathTable(const HmmPathRun& run, const std::vector<std::string>& marks) {
    const HmmPath& path = run.path;
    const HmmPathBootstrap* bands = run.bands.empty() ? nullptr : &run.bands;
    std::string table = "gamma\tidentity\tcomponent\tweight\tforeground_specific\tvalid\tcontinued";
    if (bands != nullptr) {
        table += "\tweight_lo\tweight_hi\tstability\tidentity_stability\tstable";
    }
    for (const auto& mark : marks) {
        table += '\t' + mark;
    }
    table += '\n';
    for (size_t i = 0; i < path.solutions.size(); ++i) {
        const ContrastiveHmmResult& r = path.solutions[i];
        for (Eigen::Index t = 0; t < r.weights.size(); ++t) {
            table += hmmNumber(path.gammas[i]) + '\t' +
                     std::to_string(path.ids[i][static_cast<size_t>(t)]) + '\t' +
                     std::to_string(t + 1) + '\t' + hmmNumber(r.weights[t]) + '\t' +
                     (r.weights[t] > 0 ? "1" : "0") + '\t' + (r.isValidComponent(t) ? "1" : "0") +
                     '\t' + (path.continued[i] ? "1" : "0");
            if (bands != nullptr) {
                const auto slot = static_cast<size_t>(t);
                const int id = path.ids[i][slot];
                table += '\t' + hmmNumber(bands->weightLo[i][slot]) + '\t' +
                         hmmNumber(bands->weightHi[i][slot]) + '\t' +
                         hmmNumber(bands->stability[i][slot]) + '\t' +
                         hmmNumber(bands->stabilityOf(id)) + '\t' +
                         (bands->isUnstable(id) ? "0" : "1");
            }
            for (Eigen::Index m = 0; m < r.markProbabilities.cols(); ++m) {
                table += '\t' + hmmNumber(r.markProbabilities(t, m));
            }
            table += '\n';
        }
    }
    return table;
}

} // namespace cx::cli
