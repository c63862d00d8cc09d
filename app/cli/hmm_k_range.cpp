#include "hmm_k_range.h"

#include "cli_options.h"
#include "topic_session.h" // writeFileAtomically

#include "core/common/error.h"
#include "core/common/timer.h"
#include "core/hmm/decoding.h"
#include "core/hmm/state_count.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <iostream>
#include <sstream>

namespace cx::cli {

namespace {

std::string cell(double value) {
    return std::isnan(value) ? std::string("NA") : hmmNumber(value);
}

} // namespace

std::pair<int, int> parseKRange(const std::string& text) {
    const size_t colon = text.find(':');
    int from = 0;
    int to = 0;
    const auto read = [](std::string_view piece, int& value) {
        const auto [end, error] = std::from_chars(piece.data(), piece.data() + piece.size(), value);
        return error == std::errc() && end == piece.data() + piece.size() && !piece.empty();
    };
    if (colon == std::string::npos || !read(std::string_view(text).substr(0, colon), from) ||
        !read(std::string_view(text).substr(colon + 1), to) || from < 1 || to < from || to > 1000) {
        throw InputError("parameter --k-range: '" + text +
                         "' is not A:B with 1 <= A <= B <= 1000 (e.g. 2:10)");
    }
    return {from, to};
}

int runHmmKRange(const HmmJobOptions& options, const std::string& range, const std::string& outDir,
                 bool json) {
    const auto [from, to] = parseKRange(range);
    if (!options.foregroundPaths.empty() || !options.backgroundPaths.empty() ||
        options.method != "spectral" || options.encoding != ObservationEncoding::MarkVector ||
        options.gamma != 0.0) {
        throw InputError("parameter --k-range: fits the whole tracks at --gamma 0 with the "
                         "spectral method and the marks encoding (no --fg-regions, "
                         "--bg-regions)");
    }
    createOutputFolder(outDir);
    Stopwatch total;
    ChromHmmReadOptions readOptions;
    readOptions.binSize = options.binSize;
    const ChromatinData data = readChromHmmTracks(options.trackPaths, readOptions);
    StateCountOptions count;
    count.minStates = from;
    count.maxStates = to;
    count.solve = options.solveOptions;
    count.moments.lag = options.lag;
    count.moments.window = options.window;
    count.moments.seed = options.seed;
    count.refineRounds = options.refineEm;
    count.refineTolerance = options.refineTolerance;
    const StateCountResult result = chooseStateCount(data, count);

    std::ostringstream table;
    table << "K\tlog_likelihood\tlog_likelihood_per_bin\theld_out_residual\tmatch_min\tmatch_"
             "mean\tsuggested\tproblem\n";
    for (const StateCountFit& fit : result.fits) {
        const bool matched = fit.largestMatch.size() > 0;
        table << fit.numStates << '\t' << cell(fit.logLikelihood) << '\t'
              << cell(fit.logLikelihoodPerBin) << '\t' << cell(fit.heldOutResidual) << '\t'
              << cell(matched ? fit.largestMatch.minCoeff() : std::nan("")) << '\t'
              << cell(matched ? fit.largestMatch.mean() : std::nan("")) << '\t'
              << (fit.numStates == result.suggestedStates ? "yes" : "no") << '\t' << fit.problem
              << '\n';
    }
    writeFileAtomically(outDir, "k_range.tsv", table.str());
    std::ostringstream compare;
    compare << "state (K=" << result.largestStates << ")";
    for (const StateCountFit& fit : result.fits) {
        compare << "\tK=" << fit.numStates;
    }
    compare << '\n';
    // The solve keeps the components of positive weight: the largest model may have < K states.
    Eigen::Index largestRows = 0;
    for (const StateCountFit& fit : result.fits) {
        if (fit.numStates == result.largestStates) {
            largestRows = fit.markProbabilities.rows();
        }
    }
    for (Eigen::Index s = 0; s < largestRows; ++s) {
        compare << 'E' << (s + 1);
        for (const StateCountFit& fit : result.fits) {
            compare << '\t'
                    << cell(fit.largestMatch.size() > s ? fit.largestMatch[s] : std::nan(""));
        }
        compare << '\n';
    }
    writeFileAtomically(outDir, "compare_models.tsv", compare.str());

    const std::string rule = "the smallest K whose held-out moment residual is within the "
                             "sampling noise of the smallest residual of the range";
    if (json) {
        using Json = nlohmann::ordered_json;
        Json fits = Json::array();
        for (const StateCountFit& fit : result.fits) {
            Json row = {{"k", fit.numStates}};
            if (fit.isFitted()) {
                row["log_likelihood"] = fit.logLikelihood;
                row["log_likelihood_per_bin"] = fit.logLikelihoodPerBin;
                row["held_out_residual"] = fit.heldOutResidual;
                row["largest_match"] = std::vector<double>(
                    fit.largestMatch.data(), fit.largestMatch.data() + fit.largestMatch.size());
            } else {
                row["problem"] = fit.problem;
            }
            fits.push_back(row);
        }
        Json out = {{"command", "hmm"},
                    {"k_range", {from, to}},
                    {"training_bins", result.trainingBins},
                    {"held_out_bins", result.heldOutBins},
                    {"noise_level", result.noiseLevel},
                    {"largest_k", result.largestStates},
                    {"suggested_k", result.suggestedStates},
                    {"rule", rule},
                    {"fits", fits},
                    {"timings_ms", {{"total", total.elapsedMs()}}}};
        std::cout << out.dump() << "\n";
        return 0;
    }
    std::cout << "K\tlog-likelihood\theld-out residual\tCompareModels min/mean vs K="
              << result.largestStates << "\n";
    for (const StateCountFit& fit : result.fits) {
        if (!fit.isFitted()) {
            std::cout << fit.numStates << "\tnot fitted: " << fit.problem << "\n";
            continue;
        }
        std::cout << fit.numStates << '\t' << cell(fit.logLikelihood) << '\t'
                  << cell(fit.heldOutResidual) << '\t' << cell(fit.largestMatch.minCoeff()) << '/'
                  << cell(fit.largestMatch.mean()) << "\n";
    }
    std::cout << "suggested K = " << result.suggestedStates << " (" << rule << "; noise "
              << cell(result.noiseLevel) << ", " << result.heldOutBins << " held-out bins)\nwrote "
              << outDir << "/{k_range,compare_models}.tsv\n";
    return 0;
}

} // namespace cx::cli
