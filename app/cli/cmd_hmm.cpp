// contrast-cli hmm: contrastive spectral HMM on ChromHMM binarized chromatin tracks
// (paper 001, Sec. 4 and Alg. 3), Baum–Welch EM baseline/refinement, genome segmentation.
//
// Options beyond the usage line: --method spectral|em (em: Baum–Welch from a random start to
// convergence, the baseline; needs --gamma 0), --em-max-iter N (1000), --em-tolerance T (1e-5,
// relative log-likelihood gain), --decode posterior|viterbi, --bin-size BP (200), --lag D
// (triples x_{t−D}, x_t, x_{t+D}; 1), --window L (side views = windows of L bins; 1),
// --extra-components E (reserve components of the decomposition; 1), --validity-z Z (3),
// --decomposition deflation|jennrich, --als-sweeps N (0), --scaling mean|none|whiten,
// --iterations N, --restarts R, --refine-rounds N (power method), --projection-rank R
// (combinations), --threads T, --no-segments.
#include "commands.h"
#include "topic_session.h" // writeFileAtomically

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/json_writer.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/hmm/baum_welch.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/sequence_moments.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

namespace cx::cli {

namespace {

/// Six significant digits for the HMM tables (probabilities, weights).
std::string number(double value) { return formatNumber(value, 6); }

std::vector<double> toVector(const Eigen::VectorXd& v) {
    return std::vector<double>(v.data(), v.data() + v.size());
}

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
            out += '\t' + number(emissions(k, j));
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
            out += '\t' + number(transitions(i, j));
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

std::string safeName(const std::string& text) {
    std::string out;
    for (char c : text) {
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')
                   ? c
                   : '_';
    }
    return out;
}

} // namespace

int runHmm(const std::vector<std::string>& argv) {
    const Args args(argv, {"json", "no-segments"});
    const auto trackPaths = splitList(args.string("tracks"));
    const auto fgPaths = splitList(args.string("fg-regions", ""));
    const auto bgPaths = splitList(args.string("bg-regions", ""));
    const int k = static_cast<int>(args.integer("k", 1, 1000));
    const double gamma = args.real("gamma", 0.0, 1e6);
    const ObservationEncoding encoding = parseObservationEncoding(args.string("encoding", "marks"));
    const std::string method = args.string("method", "spectral");
    const int refineEm = static_cast<int>(args.integer("refine-em", 0, 0, 100000));
    const std::uint64_t seed = args.seed("seed", 1);
    const std::string outDir = args.string("out");
    const bool json = args.flag("json");
    const bool writeSegments = !args.flag("no-segments");
    const int binSize = static_cast<int>(args.integer("bin-size", 200, 1, 1000000000));
    const int emMaxIterations = static_cast<int>(args.integer("em-max-iter", 1000, 1, 1000000));
    const double emTolerance = args.real("em-tolerance", 1e-5, 0.0, 1.0);
    const std::string decodeName = args.string("decode", "posterior");
    const int threads = static_cast<int>(args.integer("threads", 0, 0, 1024));
    ContrastiveHmmOptions solveOptions;
    solveOptions.numComponents = k;
    solveOptions.seed = seed;
    solveOptions.iterations = static_cast<int>(args.integer("iterations", 100, 1, 100000));
    solveOptions.trials = static_cast<int>(args.integer("restarts", 10, 1, 10000));
    const int projectionRank = static_cast<int>(args.integer("projection-rank", 0, 0, 10000));
    const int lag = static_cast<int>(args.integer("lag", 1, 1, 1000));
    solveOptions.refinementRounds = static_cast<int>(args.integer("refine-rounds", 0, 0, 100));
    const int window = static_cast<int>(args.integer("window", 1, 1, 1000));
    solveOptions.extraComponents = static_cast<int>(args.integer("extra-components", 1, 0, 1000));
    solveOptions.validityZ = args.real("validity-z", 3.0, 0.0, 1e6);
    solveOptions.alsSweeps = static_cast<int>(args.integer("als-sweeps", 0, 0, 100000));
    const std::string decompositionName = args.string("decomposition", "deflation");
    const std::string scalingName = args.string("scaling", "mean");
    args.rejectUnused();
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
    DecodingMethod decoding = DecodingMethod::Posterior;
    if (decodeName == "viterbi") {
        decoding = DecodingMethod::Viterbi;
    } else if (decodeName != "posterior") {
        throw InputError("parameter --decode: '" + decodeName +
                         "' is not 'posterior' or 'viterbi'");
    }
    setThreadCount(threads);
    {
        std::error_code error;
        std::filesystem::create_directories(outDir, error);
        if (error || !std::filesystem::is_directory(outDir)) {
            throw InputError(outDir, 0,
                             "cannot create output folder" +
                                 (error ? ": " + error.message() : std::string()));
        }
    }
    Stopwatch total;
    std::vector<std::string> warnings;

    // 1. Tracks and regions.
    Stopwatch phase;
    ChromHmmReadOptions readOptions;
    readOptions.binSize = binSize;
    const ChromatinData data = readChromHmmTracks(trackPaths, readOptions);
    const double loadMs = phase.elapsedMs();
    phase.restart();
    BedRegions fgRegions, bgRegions;
    if (!fgPaths.empty()) {
        fgRegions = readBedFiles(fgPaths);
    }
    if (!bgPaths.empty()) {
        bgRegions = readBedFiles(bgPaths);
    }
    const BinClasses classes = classifyBins(data, fgPaths.empty() ? nullptr : &fgRegions,
                                            bgPaths.empty() ? nullptr : &bgRegions);
    const double regionsMs = phase.elapsedMs();
    for (const auto& warning : classes.warnings) {
        warnings.push_back(warning);
    }
    if (classes.foregroundBins == 0) {
        throw InputError("empty foreground: no bin of the tracks overlaps the --fg-regions "
                         "intervals (check the chromosome names)");
    }

    // 2. Moments (cached per foreground/background choice; every γ reuses them).
    phase.restart();
    SequenceMomentOptions momentOptions;
    momentOptions.encoding = encoding;
    momentOptions.projectionRank = projectionRank;
    momentOptions.seed = seed;
    momentOptions.lag = lag;
    momentOptions.window = window;
    SequenceMoments moments;
    if (method == "spectral") {
        moments = computeSequenceMoments(data, classes, momentOptions);
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
                             (encoding == ObservationEncoding::MarkVector
                                  ? " (number of marks + 1)"
                                  : " (raise --projection-rank)"));
        }
    }
    const double momentsMs = phase.elapsedMs();

    // 3. Model.
    const std::vector<BinRun> emSequences =
        (fgPaths.empty() && bgPaths.empty()) ? wholeTrackRuns(data)
                                             : runsWithFlag(data, classes, kForegroundBin, false);
    ContrastiveHmmResult spectral;
    HmmParameters model;
    double solveMs = 0;
    double spectralLogLikelihood = std::nan("");
    BaumWelchResult em;
    double emMs = 0;
    bool ranEm = false;
    phase.restart();
    if (method == "spectral") {
        spectral = solveContrastiveHmm(moments, gamma, solveOptions);
        solveMs = phase.elapsedMs();
        if (spectral.numSpecific == 0) {
            throw InputError("parameter --gamma: no foreground-specific state at gamma = " +
                             number(gamma) + " (every one of the " + std::to_string(k) +
                             " components has weight <= 0); lower --gamma");
        }
        model = spectral.hmm;
        spectralLogLikelihood = logLikelihood(data, emSequences, model);
        if (refineEm > 0) {
            if (gamma > 0) {
                warnings.push_back("--refine-em fits the foreground bins alone, so EM rounds "
                                   "pull the model back towards the foreground-only fit "
                                   "(gamma = 0)");
            }
            phase.restart();
            BaumWelchOptions emOptions;
            emOptions.maxIterations = refineEm;
            emOptions.tolerance = 0;
            em = baumWelch(data, emSequences, smoothedForEm(model, data), emOptions);
            emMs = phase.elapsedMs();
            model = em.hmm;
            ranEm = true;
        }
    } else {
        BaumWelchOptions emOptions;
        emOptions.maxIterations = emMaxIterations;
        emOptions.tolerance = emTolerance;
        em = baumWelch(data, emSequences, randomHmm(k, data, encoding, seed), emOptions);
        emMs = phase.elapsedMs();
        model = em.hmm;
        ranEm = true;
    }

    // 4. Segmentation of every bin.
    phase.restart();
    Segmentation segmentation = segmentTracks(data, model, decoding);
    const double decodeMs = phase.elapsedMs();

    // 5. Outputs.
    phase.restart();
    const int states = model.numStates();
    const std::vector<std::string> labels = defaultStateLabels(std::max(states, k));
    const Eigen::MatrixXd markEmissions = markProbabilities(model, data);
    writeFileAtomically(outDir, "emissions.tsv",
                        emissionTable(data.markNames, markEmissions, labels));
    writeFileAtomically(outDir, "transitions.tsv", transitionTable(model.transitions, labels));
    {
        std::string table = "state\tweight\tlambda\tforeground_specific\n";
        if (method == "spectral") {
            for (int t = 0; t < k; ++t) {
                table += labels[static_cast<size_t>(t)] + '\t' + number(spectral.weights[t]) +
                         '\t' + number(spectral.lambdas[t]) + '\t' +
                         (t < spectral.numSpecific ? "1" : "0") + '\n';
            }
            writeFileAtomically(outDir, "components.tsv",
                                emissionTable(data.markNames, spectral.markProbabilities, labels));
        } else {
            const Eigen::VectorXd share = occupancy(segmentation);
            for (int t = 0; t < states; ++t) {
                table += labels[static_cast<size_t>(t)] + '\t' + number(share[t]) + "\tnan\t1\n";
            }
        }
        writeFileAtomically(outDir, "states.tsv", table);
    }
    if (encoding == ObservationEncoding::MarkCombination) {
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
                table += '\t' + number(model.emissions(s, p));
            }
            table += '\n';
        }
        writeFileAtomically(outDir, "pattern_emissions.tsv", table);
    }
    std::set<std::string> cells;
    for (const auto& track : data.tracks) {
        cells.insert(track.cell);
    }
    if (writeSegments) {
        std::ostringstream bed;
        writeSegmentationBed9(bed, data, segmentation, labels, data.tracks.size() > 1);
        writeFileAtomically(outDir, "segments.bed", bed.str());
        if (cells.size() > 1) {
            for (const auto& cell : cells) {
                std::ostringstream perCell;
                for (size_t t = 0; t < data.tracks.size(); ++t) {
                    if (data.tracks[t].cell == cell) {
                        writeSegmentationBed9(perCell, data, segmentation, labels, false,
                                              static_cast<int>(t));
                    }
                }
                writeFileAtomically(outDir, "segments." + safeName(cell) + ".bed", perCell.str());
            }
        }
    }
    const double writeMs = phase.elapsedMs();

    for (const auto& warning : warnings) {
        std::cerr << "contrast-cli hmm: warning: " << warning << "\n";
    }
    std::int64_t sequenceBins = 0;
    for (const auto& run : emSequences) {
        sequenceBins += run.length();
    }
    const double finalLogLikelihood = ranEm ? em.finalLogLikelihood() : spectralLogLikelihood;
    if (json) {
        JsonWriter out(std::cout);
        out.beginObject();
        out.field("command", "hmm");
        out.key("parameters").beginObject();
        out.field("k", k);
        out.field("gamma", gamma);
        out.field("encoding", toString(encoding));
        out.field("method", method);
        out.field("refine_em", refineEm);
        out.field("seed", static_cast<std::int64_t>(seed));
        out.field("bin_size", binSize);
        out.field("lag", lag);
        out.field("window", window);
        out.field("extra_components", solveOptions.extraComponents);
        out.field("validity_z", solveOptions.validityZ);
        out.field("decomposition", decompositionName);
        out.field("als_sweeps", solveOptions.alsSweeps);
        out.field("scaling", scalingName);
        out.field("decode", toString(decoding));
        out.field("threads", threadCount());
        out.endObject();
        out.key("data").beginObject();
        out.key("tracks").beginArray();
        for (const auto& track : data.tracks) {
            out.beginObject();
            out.field("path", track.path);
            out.field("cell", track.cell);
            out.field("chrom", track.chrom);
            out.field("bins", track.numBins());
            out.endObject();
        }
        out.endArray();
        out.key("marks").beginArray();
        for (const auto& mark : data.markNames) {
            out.value(mark);
        }
        out.endArray();
        out.field("patterns", data.numPatterns());
        out.field("foreground_bins", classes.foregroundBins);
        out.field("background_bins", classes.backgroundBins);
        if (method == "spectral") {
            out.field("foreground_triples", moments.foreground.numTriples);
            out.field("background_triples", moments.background.numTriples);
        }
        out.field("likelihood_sequences", static_cast<std::int64_t>(emSequences.size()));
        out.field("likelihood_bins", sequenceBins);
        out.endObject();
        out.key("timings_ms").beginObject();
        out.field("load", loadMs);
        out.field("regions", regionsMs);
        out.field("moments", momentsMs);
        out.field("solve", solveMs);
        out.field("learning", momentsMs + solveMs);
        out.field("em", emMs);
        out.field("decode", decodeMs);
        out.field("write", writeMs);
        out.field("total", total.elapsedMs());
        out.endObject();
        out.key("model").beginObject();
        out.field("states", states);
        if (method == "spectral") {
            out.field("status", toString(spectral.status));
            out.field("components", k);
            out.field("foreground_specific", spectral.numSpecific);
            out.field("weights", toVector(spectral.weights));
            out.field("lambdas", toVector(spectral.lambdas));
            out.field("residual", spectral.residual);
            out.field("decomposition_rank", spectral.decompositionRank);
            out.field("candidate_ranks", spectral.candidateRanks);
            out.field("invalid_mass", spectral.invalidMass);
            out.field("component_invalid_mass", toVector(spectral.componentInvalidMass));
            out.field("emission_clipping", toVector(spectral.emissionClipping));
            out.field("emission_tolerance", toVector(spectral.emissionTolerance));
            out.field("dropped_weights", toVector(spectral.droppedWeights));
        }
        auto matrix = [&](const char* name, const Eigen::MatrixXd& m) {
            out.key(name).beginArray();
            for (Eigen::Index i = 0; i < m.rows(); ++i) {
                out.beginArray();
                for (Eigen::Index j = 0; j < m.cols(); ++j) {
                    out.value(m(i, j));
                }
                out.endArray();
            }
            out.endArray();
        };
        matrix("emissions", markEmissions);
        if (method == "spectral") {
            matrix("components", spectral.markProbabilities);
            matrix("dropped_components", spectral.droppedMarkProbabilities);
        }
        matrix("transitions", model.transitions);
        out.field("start", toVector(model.start));
        out.endObject();
        out.key("log_likelihood").beginObject();
        out.field("spectral", spectralLogLikelihood);
        if (ranEm) {
            out.field("em", em.logLikelihoods);
            out.field("em_iterations", em.iterations);
            out.field("em_status", toString(em.status));
        }
        out.field("final", finalLogLikelihood);
        out.field("final_per_bin", sequenceBins > 0
                                       ? finalLogLikelihood / static_cast<double>(sequenceBins)
                                       : std::nan(""));
        out.field("segmentation", segmentation.logLikelihood);
        out.endObject();
        out.key("warnings").beginArray();
        for (const auto& warning : warnings) {
            out.value(warning);
        }
        out.endArray();
        out.endObject();
        std::cout << "\n";
    } else {
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
            std::cout << '\n';
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
        std::cout << "log-likelihood " << number(finalLogLikelihood) << "\nwrote " << outDir
                  << "/{emissions,transitions,states" << (writeSegments ? ",segments" : "")
                  << "}\n";
    }
    return 0;
}

} // namespace cx::cli
