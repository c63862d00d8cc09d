#pragma once

// The `hmm` command as options → job → writers, so that other commands (a session's `run`)
// reuse the job and the result files without going through the command line.

#include "core/hmm/baum_welch.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/hmm_bootstrap.h"
#include "core/hmm/hmm_path.h"
#include "core/hmm/hmm_starts.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace cx::cli {

/// Everything `contrast-cli hmm` is asked to do (defaults = the command's defaults).
struct HmmJobOptions {
    std::vector<std::string> trackPaths;
    std::vector<std::string> foregroundPaths;
    std::vector<std::string> backgroundPaths;
    int numComponents = 1; ///< --k
    double gamma = 0;
    ObservationEncoding encoding = ObservationEncoding::MarkVector;
    std::string method = "spectral"; ///< spectral | em
    /// --refine-em: Baum–Welch rounds refining the spectral model. kAuto (the default) is the
    /// GUI's rule: the γ = 0 model is refined (cx::kRefineMaxRounds rounds at most, stopping at
    /// cx::kRefineTolerance), a contrastive one (γ > 0, no likelihood) is not.
    int refineEm = kAuto;
    /// --refine-tolerance: the refinement stops before refineEm rounds once the relative
    /// log-likelihood gain of a round is below this; 0 = exactly refineEm rounds. kAuto:
    /// cx::kRefineTolerance for the automatic refinement, else 0.
    double refineTolerance = kAuto;
    /// --moment-fit (ContrastiveHmmOptions::momentRefitSweeps): kAuto is the GUI's rule — the
    /// moment selection (0 sweeps) for a model that is refined with the marks encoding (so the
    /// start accounts for every bin), else off (−1).
    int momentFit = kAuto;
    static constexpr int kAuto = -2;
    std::uint64_t seed = 1;
    /// --starts: seeded starts of the spectral solve (solveContrastiveHmmStarts: the best by
    /// likelihood at γ = 0, by moment residual otherwise); the refinement starts from it.
    int starts = kDefaultStarts;
    int binSize = 200;
    int emMaxIterations = 1000;
    double emTolerance = 1e-5;
    std::string decodeName = "posterior";                ///< posterior | viterbi
    DecodingMethod decoding = DecodingMethod::Posterior; ///< set by validate() from decodeName
    int projectionRank = 0;
    int lag = 1;
    int window = 1;
    std::string decompositionName = "deflation"; ///< deflation | jennrich
    std::string scalingName = "mean";            ///< mean | none | whiten
    /// numComponents, seed, iterations, restarts, refinement rounds, extra components,
    /// validity z, ALS sweeps; initialization and scaling follow the names above.
    ContrastiveHmmOptions solveOptions;
    bool writeSegments = true;
    /// --state-labels: what the result files call the states — "numbers" (E1…EK, ChromHMM's
    /// convention, which `enrichment` and ChromHMM read) or "names" (the names states.tsv gives,
    /// the GUI's). The colours of segments.bed are the states' colours either way.
    std::string stateLabels = "numbers";

    /// Checks the combination of options and sets `decoding` and solveOptions'
    /// initialization, scaling, numComponents, seed and moment refit; resolves the kAuto
    /// defaults (refineEm, refineTolerance, momentFit) to concrete values.
    /// \throws InputError naming the parameter.
    void validate();
};

/// What the job computed, with the phase timings (milliseconds).
struct HmmJobResult {
    ChromatinData data;
    BinClasses classes;
    SequenceMoments moments;       ///< spectral method only
    std::vector<BinRun> sequences; ///< the foreground runs the likelihoods are over
    ContrastiveHmmResult spectral; ///< spectral method only
    StartSpread starts;            ///< spectral method only: every start, the kept one
    BaumWelchResult em;            ///< when ranEm
    bool ranEm = false;
    HmmParameters model;              ///< the reported HMM (spectral, refined or EM)
    double spectralLogLikelihood = 0; ///< NaN for the EM method
    Segmentation segmentation;
    std::vector<std::string> warnings;
    double loadMs = 0;
    double regionsMs = 0;
    double momentsMs = 0;
    double solveMs = 0;
    double emMs = 0;
    double decodeMs = 0;

    /// Log-likelihood of the reported model over `sequences`.
    double finalLogLikelihood() const;
    std::int64_t sequenceBins() const;
};

/// Reads tracks and regions, computes the moments, fits the model and decodes every bin.
/// \pre options validated. \throws InputError (file, line, problem; or the parameter).
HmmJobResult runHmmJob(const HmmJobOptions& options);

/// State labels of the result files: E1…EK, or with --state-labels names the states' names
/// (hmmStateNames; tabs and line breaks as blanks) and E<k> for a component beyond the states.
std::vector<std::string> hmmStateLabels(const HmmJobOptions& options, const HmmJobResult& result);

/// Names and colours of the reported model's states by core's naming rule (cx::nameStates on
/// the model's mark probabilities and weights: classifyChromatinState, repeated names told
/// apart; "State k" where no rule applies) — what the GUI calls the same emissions and the
/// colour it draws them in. Colours as "R,G,B".
struct HmmStateNames {
    std::vector<std::string> names;
    std::vector<std::string> colours;
};
HmmStateNames hmmStateNames(const HmmJobResult& result);

/// Writes emissions.tsv, transitions.tsv, states.tsv (+ components.tsv for the spectral
/// method, pattern_emissions.tsv for the combinations encoding, segments[.CELL].bed unless
/// disabled) into `outDir` (which must exist), each atomically.
void writeHmmFiles(const HmmJobOptions& options, const HmmJobResult& result,
                   const std::string& outDir);

/// Several starts as JSON (`hmm` and `tree`): {starts, criterion, values, seeds, chosen (0-based),
/// criterion_spread (max − min), emission_spread}.
nlohmann::json startSpreadJson(const StartSpread& spread);
/// One line for the text summaries: "5 starts by log_likelihood: kept start 2 (…), spread …".
std::string startSpreadText(const StartSpread& spread);

/// Six significant digits, as in the HMM tables (probabilities, weights).
std::string hmmNumber(double value);

/// The γ path of `hmm --gamma-path` and its block bootstrap (`--bootstrap`), with timings.
struct HmmPathRun {
    HmmPath path;
    HmmPathBootstrap bands; ///< empty without a bootstrap
    double pathMs = 0;
    double blocksMs = 0;
};
/// Solves the path over `gammas` (starts "continued" or "fresh") on the job's moments and, with
/// `bootstrap` ≥ 2 resamples, its block bootstrap (block length `blockLength`, 0 = automatic;
/// seeded by options.seed). \pre the spectral method; arguments checked by the caller.
HmmPathRun runHmmPath(const HmmJobOptions& options, const HmmJobResult& result,
                      const std::vector<double>& gammas, const std::string& starts, int bootstrap,
                      int blockLength);
/// path.tsv: one row per γ and component (identity, weight, validity, mark probabilities;
/// with a bootstrap also the weight band and the stability at that γ and of the identity).
std::string hmmPathTable(const HmmPathRun& run, const std::vector<std::string>& marks);

} // namespace cx::cli
