#include "core/hmm/hmm_starts.h"

#include "core/hmm/baum_welch.h"
#include "core/hmm/decoding.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace cx {

ContrastiveHmmStarts solveContrastiveHmmStarts(const SequenceMoments& moments, double gamma,
                                               const ContrastiveHmmOptions& options, int starts,
                                               const ChromatinData* data,
                                               const std::vector<BinRun>* sequences,
                                               const CancelToken& cancel) {
    if (starts < 1) {
        throw std::invalid_argument("solveContrastiveHmmStarts: need starts >= 1 (starts = " +
                                    std::to_string(starts) + ")");
    }
    ContrastiveHmmStarts out;
    StartSpread& spread = out.spread;
    const bool likelihood = gamma == 0.0 && data != nullptr && sequences != nullptr;
    spread.criterion = likelihood ? StartCriterion::LogLikelihood : StartCriterion::MomentResidual;
    // The refit runs only on the marks encoding without windows (solveContrastiveHmm).
    const bool refit = options.momentRefitSweeps >= 0 &&
                       moments.encoding == ObservationEncoding::MarkVector && moments.window == 1;
    std::vector<Eigen::MatrixXd> emissions;
    for (int i = 0; i < starts; ++i) {
        throwIfCancelled(cancel);
        ContrastiveHmmOptions start = options;
        start.seed = startSeed(options.seed, i);
        ContrastiveHmmResult result = solveContrastiveHmm(moments, gamma, start, cancel);
        double value = std::numeric_limits<double>::quiet_NaN();
        if (likelihood) {
            if (result.hmm.numStates() > 0) {
                value = logLikelihood(*data, *sequences, smoothedForEm(result.hmm, *data), cancel);
            }
        } else {
            value = refit ? result.momentResidualFinal : result.residual;
        }
        spread.seeds.push_back(start.seed);
        spread.values.push_back(value);
        emissions.push_back(result.markProbabilities);
        if (i == 0 || spread.better(value, spread.values[static_cast<size_t>(spread.chosen)])) {
            spread.chosen = i;
            out.best = std::move(result);
        }
    }
    const Eigen::MatrixXd& kept = emissions[static_cast<size_t>(spread.chosen)];
    for (const Eigen::MatrixXd& other : emissions) {
        if (other.rows() >= kept.rows() && other.cols() == kept.cols() && kept.size() > 0) {
            spread.emissionSpread =
                std::max(spread.emissionSpread, matchedMeanAbsoluteDifference(kept, other));
        }
    }
    return out;
}

ContrastiveHmmOptions keptStartOptions(const SequenceMoments& moments,
                                       const ContrastiveHmmOptions& options, int starts,
                                       const ChromatinData& data,
                                       const std::vector<BinRun>& sequences,
                                       const CancelToken& cancel) {
    ContrastiveHmmOptions kept = options;
    kept.seed = solveContrastiveHmmStarts(moments, 0.0, options, starts, &data, &sequences, cancel)
                    .spread.keptSeed();
    return kept;
}

} // namespace cx
