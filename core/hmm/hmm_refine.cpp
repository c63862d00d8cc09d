#include "hmm_refine.h"

#include "core/common/timer.h"
#include "core/hmm/synthetic_hmm.h" // stationaryDistribution

#include <cmath>
#include <stdexcept>
#include <string>

namespace cx {

RefinedHmm refineWithBaumWelch(const ChromatinData& data, const std::vector<BinRun>& sequences,
                               const HmmParameters& start, int maxRounds, double tolerance,
                               const CancelToken& cancel, const ProgressFn& progress) {
    if (maxRounds < 1 || !(tolerance >= 0) || !(tolerance <= 1)) {
        throw std::invalid_argument("refineWithBaumWelch: need maxRounds >= 1 and tolerance in "
                                    "[0, 1] (maxRounds = " +
                                    std::to_string(maxRounds) + ")");
    }
    Stopwatch watch;
    BaumWelchOptions options;
    options.maxIterations = maxRounds;
    options.tolerance = tolerance;
    ProgressFn rounds;
    if (progress) {
        rounds = [&](double fraction, const char*) {
            const int round = static_cast<int>(std::lround(fraction * maxRounds));
            const std::string phase = tolerance > 0
                                          ? "Baum–Welch round " + std::to_string(round) +
                                                " (at most " + std::to_string(maxRounds) + ")"
                                          : "Baum–Welch round " + std::to_string(round) + " of " +
                                                std::to_string(maxRounds);
            progress(fraction, phase.c_str());
        };
    }
    BaumWelchResult em =
        baumWelch(data, sequences, smoothedForEm(start, data), options, cancel, rounds);
    RefinedHmm out;
    out.hmm = std::move(em.hmm);
    out.markProbabilities = markProbabilities(out.hmm, data);
    out.occupancy = stationaryDistribution(out.hmm.transitions);
    out.logLikelihoods = std::move(em.logLikelihoods);
    for (const auto& run : sequences) {
        out.bins += run.length();
    }
    out.rounds = em.iterations;
    out.converged = tolerance > 0 && em.status == Status::Successful;
    out.elapsedMs = watch.elapsedMs();
    return out;
}

} // namespace cx
