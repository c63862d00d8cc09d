// contrast-cli hmm: contrastive spectral HMM on ChromHMM binarized chromatin tracks
// (paper 001, Sec. 4 and Alg. 3), Baum–Welch EM baseline/refinement, genome segmentation.
//
// Options beyond the usage line: --method spectral|em (em: Baum–Welch from a random start to
// convergence, the baseline; needs --gamma 0), --em-max-iter N (1000), --em-tolerance T (1e-5,
// relative log-likelihood gain), --decode posterior|viterbi, --bin-size BP (200), --lag D
// (triples x_{t−D}, x_t, x_{t+D}; 1), --window L (side views = windows of L bins; 1),
// --extra-components E (reserve components of the decomposition; 1), --validity-z Z (3),
// --decomposition deflation|jennrich, --als-sweeps N (0), --scaling mean|none|whiten,
// --moment-fit N (marks: re-select/refit the states against the first and second mark moments
// with N joint sweeps; -1 = off, the default),
// --iterations N, --restarts R, --refine-rounds N (power method), --projection-rank R
// (combinations), --threads T, --no-segments.
#include "cli_session.h"
#include "commands.h"
#include "hmm_job.h"

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

std::string number(double value) { return hmmNumber(value); }

std::vector<double> toVector(const Eigen::VectorXd& v) {
    return std::vector<double>(v.data(), v.data() + v.size());
}

/// The command line → HmmJobOptions (ranges checked here, combinations by validate()).
HmmJobOptions readHmmOptions(const Args& args) {
    HmmJobOptions options;
    options.trackPaths = splitList(args.string("tracks"));
    options.foregroundPaths = splitList(args.string("fg-regions", ""));
    options.backgroundPaths = splitList(args.string("bg-regions", ""));
    options.numComponents = static_cast<int>(args.integer("k", 1, 1000));
    options.gamma = args.real("gamma", 0.0, 1e6);
    options.encoding = parseObservationEncoding(args.string("encoding", "marks"));
    options.method = args.string("method", "spectral");
    options.refineEm = static_cast<int>(args.integer("refine-em", 0, 0, 100000));
    options.seed = args.seed("seed", 1);
    options.writeSegments = !args.flag("no-segments");
    options.binSize = static_cast<int>(args.integer("bin-size", 200, 1, 1000000000));
    options.emMaxIterations = static_cast<int>(args.integer("em-max-iter", 1000, 1, 1000000));
    options.emTolerance = args.real("em-tolerance", 1e-5, 0.0, 1.0);
    options.decodeName = args.string("decode", "posterior");
    ContrastiveHmmOptions& solve = options.solveOptions;
    solve.iterations = static_cast<int>(args.integer("iterations", 100, 1, 100000));
    solve.trials = static_cast<int>(args.integer("restarts", 10, 1, 10000));
    options.projectionRank = static_cast<int>(args.integer("projection-rank", 0, 0, 10000));
    options.lag = static_cast<int>(args.integer("lag", 1, 1, 1000));
    solve.refinementRounds = static_cast<int>(args.integer("refine-rounds", 0, 0, 100));
    options.window = static_cast<int>(args.integer("window", 1, 1, 1000));
    solve.extraComponents = static_cast<int>(args.integer("extra-components", 1, 0, 1000));
    solve.validityZ = args.real("validity-z", 3.0, 0.0, 1e6);
    solve.alsSweeps = static_cast<int>(args.integer("als-sweeps", 0, 0, 100000));
    solve.momentRefitSweeps = static_cast<int>(args.integer("moment-fit", -1, -1, 100000));
    options.decompositionName = args.string("decomposition", "deflation");
    options.scalingName = args.string("scaling", "mean");
    return options;
}

} // namespace

int runHmm(const std::vector<std::string>& argv) {
    const Args args(argv, {"json", "no-segments"});
    HmmJobOptions options = readHmmOptions(args);
    const std::string outDir = args.string("out");
    const bool json = args.flag("json");
    const int threads = static_cast<int>(args.integer("threads", 0, 0, 1024));
    const std::string saveSession = args.string("save-session", "");
    args.rejectUnused();
    options.validate();
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
    const HmmJobResult result = runHmmJob(options);
    Stopwatch phase;
    writeHmmFiles(options, result, outDir);
    const double writeMs = phase.elapsedMs();
    if (!saveSession.empty()) {
        const ChromatinSection section = chromatinSectionOf(options);
        saveSessionSection(saveSession, ChromatinSection::kKey,
                           [&](const auto& directory) { return section.toJson(directory); });
    }

    // Report.
    const ChromatinData& data = result.data;
    const BinClasses& classes = result.classes;
    const SequenceMoments& moments = result.moments;
    const ContrastiveHmmResult& spectral = result.spectral;
    const BaumWelchResult& em = result.em;
    const HmmParameters& model = result.model;
    const Segmentation& segmentation = result.segmentation;
    const std::vector<std::string>& warnings = result.warnings;
    const std::vector<std::string> labels = hmmStateLabels(options, result);
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
    const bool writeSegments = options.writeSegments;
    for (const auto& warning : warnings) {
        std::cerr << "contrast-cli hmm: warning: " << warning << "\n";
    }
    if (json) {
        JsonWriter out(std::cout);
        out.beginObject();
        out.field("command", "hmm");
        out.key("parameters").beginObject();
        out.field("k", k);
        out.field("gamma", gamma);
        out.field("encoding", toString(options.encoding));
        out.field("method", method);
        out.field("refine_em", options.refineEm);
        out.field("seed", static_cast<std::int64_t>(options.seed));
        out.field("bin_size", options.binSize);
        out.field("lag", options.lag);
        out.field("window", options.window);
        out.field("extra_components", solveOptions.extraComponents);
        out.field("validity_z", solveOptions.validityZ);
        out.field("decomposition", options.decompositionName);
        out.field("als_sweeps", solveOptions.alsSweeps);
        out.field("moment_fit", solveOptions.momentRefitSweeps);
        out.field("scaling", options.scalingName);
        out.field("decode", toString(options.decoding));
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
        out.field("likelihood_sequences", static_cast<std::int64_t>(result.sequences.size()));
        out.field("likelihood_bins", sequenceBins);
        out.endObject();
        out.key("timings_ms").beginObject();
        out.field("load", result.loadMs);
        out.field("regions", result.regionsMs);
        out.field("moments", result.momentsMs);
        out.field("solve", result.solveMs);
        out.field("learning", result.momentsMs + result.solveMs);
        out.field("em", result.emMs);
        out.field("decode", result.decodeMs);
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
            out.field("moment_residual_selected", spectral.momentResidualSelected);
            out.field("moment_residual_final", spectral.momentResidualFinal);
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
