#include "core/hmm/baum_welch.h"

#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/common/timer.h"
#include "core/hmm/decoding.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cx {

namespace {

void checkSequences(const ChromatinData& data, const std::vector<BinRun>& sequences) {
    for (const auto& run : sequences) {
        if (run.track < 0 || run.track >= static_cast<int>(data.tracks.size()) || run.begin < 0 ||
            run.end > data.tracks[static_cast<size_t>(run.track)].numBins() ||
            run.begin > run.end) {
            throw std::invalid_argument("baumWelch: sequence [" + std::to_string(run.begin) + ", " +
                                        std::to_string(run.end) + ") of track " +
                                        std::to_string(run.track) + " is outside the data");
        }
    }
}

HmmSufficientStats expectation(const ChromatinData& data, const std::vector<BinRun>& sequences,
                               const HmmParameters& hmm,
                               std::vector<std::vector<double>>& workspaces,
                               const CancelToken& cancel) {
    const Eigen::MatrixXd table = emissionLikelihoods(hmm, data);
    const int k = hmm.numStates();
    std::vector<HmmSufficientStats> slots(kReductionSlots);
    forEachSlot(static_cast<std::int64_t>(sequences.size()), kReductionSlots,
                [&](int slot, std::int64_t begin, std::int64_t end) {
                    auto& stats = slots[static_cast<size_t>(slot)];
                    stats.reset(k, data.numPatterns());
                    for (std::int64_t s = begin; s < end; ++s) {
                        throwIfCancelled(cancel);
                        const auto& run = sequences[static_cast<size_t>(s)];
                        if (run.length() == 0) {
                            continue;
                        }
                        const auto& bins = data.tracks[static_cast<size_t>(run.track)].bins;
                        forwardBackward(
                            hmm.start, hmm.transitions, table,
                            std::span<const std::uint32_t>(bins.data() + run.begin,
                                                           static_cast<size_t>(run.length())),
                            workspaces[static_cast<size_t>(slot)], &stats);
                    }
                });
    HmmSufficientStats total;
    total.reset(k, data.numPatterns());
    for (const auto& stats : slots) {
        if (stats.start.size() == k) {
            total.add(stats);
        }
    }
    return total;
}

HmmParameters maximization(const ChromatinData& data, const HmmSufficientStats& stats,
                           const HmmParameters& previous) {
    HmmParameters next = previous;
    const int k = previous.numStates();
    const double startMass = stats.start.sum();
    if (startMass > 0) {
        next.start = stats.start / startMass;
    }
    for (int i = 0; i < k; ++i) {
        const double rowMass = stats.transitions.row(i).sum();
        if (rowMass > 0) {
            next.transitions.row(i) = stats.transitions.row(i) / rowMass;
        }
    }
    const int m = data.numMarks();
    if (previous.encoding == ObservationEncoding::MarkVector) {
        Eigen::MatrixXd present = Eigen::MatrixXd::Zero(k, m);
        Eigen::MatrixXd observed = Eigen::MatrixXd::Zero(k, m);
        for (int p = 0; p < data.numPatterns(); ++p) {
            const auto g = stats.patternPosteriors.col(p);
            for (int j = 0; j < m; ++j) {
                const auto v = data.value(p, j);
                if (v == static_cast<std::uint8_t>(MarkValue::Missing)) {
                    continue;
                }
                observed.col(j) += g;
                if (v == static_cast<std::uint8_t>(MarkValue::Present)) {
                    present.col(j) += g;
                }
            }
        }
        for (int s = 0; s < k; ++s) {
            for (int j = 0; j < m; ++j) {
                if (observed(s, j) > 0) {
                    next.emissions(s, j) = std::clamp(present(s, j) / observed(s, j),
                                                      kProbabilityFloor, 1.0 - kProbabilityFloor);
                }
            }
        }
    } else {
        for (int s = 0; s < k; ++s) {
            double mass = 0;
            for (int p = 0; p < data.numPatterns(); ++p) {
                if (!data.patternHasMissing(p)) {
                    mass += stats.patternPosteriors(s, p);
                }
            }
            if (mass <= 0) {
                continue;
            }
            for (int p = 0; p < data.numPatterns(); ++p) {
                next.emissions(s, p) =
                    data.patternHasMissing(p) ? 0.0 : stats.patternPosteriors(s, p) / mass;
            }
        }
    }
    return next;
}

} // namespace

BaumWelchResult baumWelch(const ChromatinData& data, const std::vector<BinRun>& sequences,
                          const HmmParameters& initial, const BaumWelchOptions& options,
                          const CancelToken& cancel, const ProgressFn& progress) {
    initial.validate("baumWelch");
    checkSequences(data, sequences);
    if (options.maxIterations < 0 || !(options.tolerance >= 0)) {
        throw std::invalid_argument("baumWelch: need maxIterations >= 0 and tolerance >= 0 "
                                    "(maxIterations = " +
                                    std::to_string(options.maxIterations) + ")");
    }
    Stopwatch watch;
    BaumWelchResult result;
    result.hmm = initial;
    std::vector<std::vector<double>> workspaces(kReductionSlots);
    result.status = Status::NotConverged;
    for (int iteration = 0;; ++iteration) {
        throwIfCancelled(cancel);
        const HmmSufficientStats stats =
            expectation(data, sequences, result.hmm, workspaces, cancel);
        result.logLikelihoods.push_back(stats.logLikelihood);
        if (progress) {
            progress(options.maxIterations > 0
                         ? static_cast<double>(iteration) / options.maxIterations
                         : 1.0,
                     "Baum-Welch EM");
        }
        if (iteration > 0 && options.tolerance > 0) {
            const double previous = result.logLikelihoods[result.logLikelihoods.size() - 2];
            const double gain = (stats.logLikelihood - previous) / std::abs(previous);
            if (gain < options.tolerance) {
                result.status = Status::Successful;
                break;
            }
        }
        if (iteration >= options.maxIterations) {
            break;
        }
        result.hmm = maximization(data, stats, result.hmm);
        ++result.iterations;
    }
    if (options.tolerance == 0 && result.iterations == options.maxIterations) {
        result.status = Status::Successful;
    }
    result.elapsedMs = watch.elapsedMs();
    return result;
}

HmmParameters randomHmm(int numStates, const ChromatinData& data, ObservationEncoding encoding,
                        std::uint64_t seed) {
    if (numStates < 1) {
        throw std::invalid_argument("randomHmm: need K >= 1 (K = " + std::to_string(numStates) +
                                    ")");
    }
    Rng rng(seed);
    HmmParameters hmm;
    hmm.encoding = encoding;
    hmm.start = Eigen::VectorXd::Constant(numStates, 1.0 / numStates);
    hmm.transitions.resize(numStates, numStates);
    for (int i = 0; i < numStates; ++i) {
        for (int j = 0; j < numStates; ++j) {
            hmm.transitions(i, j) = rng.uniformOpen();
        }
        hmm.transitions.row(i) /= hmm.transitions.row(i).sum();
    }
    if (encoding == ObservationEncoding::MarkVector) {
        hmm.emissions.resize(numStates, data.numMarks());
        for (int i = 0; i < numStates; ++i) {
            for (int j = 0; j < data.numMarks(); ++j) {
                hmm.emissions(i, j) = rng.uniformOpen();
            }
        }
    } else {
        hmm.emissions = Eigen::MatrixXd::Zero(numStates, data.numPatterns());
        for (int i = 0; i < numStates; ++i) {
            for (int p = 0; p < data.numPatterns(); ++p) {
                hmm.emissions(i, p) = data.patternHasMissing(p) ? 0.0 : rng.uniformOpen();
            }
            hmm.emissions.row(i) /= hmm.emissions.row(i).sum();
        }
    }
    return hmm;
}

HmmParameters smoothedForEm(const HmmParameters& hmm, const ChromatinData& data, double epsilon) {
    hmm.validate("smoothedForEm");
    if (!(epsilon > 0 && epsilon < 0.5)) {
        throw std::invalid_argument(
            "smoothedForEm: need 0 < epsilon < 0.5 (epsilon = " + std::to_string(epsilon) + ")");
    }
    HmmParameters out = hmm;
    const int k = hmm.numStates();
    out.start = (1.0 - epsilon) * hmm.start / std::max(hmm.start.sum(), 1e-300) +
                Eigen::VectorXd::Constant(k, epsilon / k);
    for (int i = 0; i < k; ++i) {
        const double rowSum = std::max(hmm.transitions.row(i).sum(), 1e-300);
        out.transitions.row(i) = (1.0 - epsilon) * hmm.transitions.row(i) / rowSum +
                                 Eigen::RowVectorXd::Constant(k, epsilon / k);
    }
    if (hmm.encoding == ObservationEncoding::MarkVector) {
        out.emissions = hmm.emissions.array().max(epsilon).min(1.0 - epsilon).matrix();
    } else {
        int categories = 0;
        for (int p = 0; p < data.numPatterns(); ++p) {
            categories += data.patternHasMissing(p) ? 0 : 1;
        }
        for (int i = 0; i < k; ++i) {
            const double rowSum = std::max(hmm.emissions.row(i).sum(), 1e-300);
            for (int p = 0; p < data.numPatterns(); ++p) {
                out.emissions(i, p) =
                    data.patternHasMissing(p)
                        ? 0.0
                        : (1.0 - epsilon) * hmm.emissions(i, p) / rowSum + epsilon / categories;
            }
        }
    }
    return out;
}

} // namespace cx
