#include "core/hmm/state_count.h"

#include "core/common/error.h"
#include "core/hmm/decoding.h"
#include "core/hmm/hmm_model.h"
#include "core/hmm/synthetic_hmm.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cx {

namespace {

/// Pearson correlation of two rows; 0 when either is constant, except that a row always
/// matches an identical one (1) — the largest model compared with itself matches every state,
/// also one whose marks are all at the same level (seen at K above the data's states).
double correlation(const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b) {
    if (a == b) {
        return 1.0;
    }
    const Eigen::RowVectorXd x = a.array() - a.mean();
    const Eigen::RowVectorXd y = b.array() - b.mean();
    const double norm = x.norm() * y.norm();
    return norm > 0 ? x.dot(y) / norm : 0.0;
}

/// Even blocks of `blockBins` bins train (kForegroundBin), odd blocks are held out
/// (kBackgroundBin).
BinClasses alternateBlocks(const ChromatinData& data, std::int64_t blockBins) {
    BinClasses classes;
    classes.flags.resize(data.tracks.size());
    for (size_t t = 0; t < data.tracks.size(); ++t) {
        const std::int64_t n = data.tracks[t].numBins();
        auto& flags = classes.flags[t];
        flags.resize(static_cast<size_t>(n));
        for (std::int64_t bin = 0; bin < n; ++bin) {
            const bool train = (bin / blockBins) % 2 == 0;
            flags[static_cast<size_t>(bin)] = train ? kForegroundBin : kBackgroundBin;
            (train ? classes.foregroundBins : classes.backgroundBins) += 1;
        }
    }
    return classes;
}

} // namespace

Eigen::VectorXd compareModels(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& other) {
    if (reference.cols() != other.cols()) {
        throw std::invalid_argument("compareModels: " + std::to_string(reference.cols()) +
                                    " marks in the reference, " + std::to_string(other.cols()) +
                                    " in the other model");
    }
    Eigen::VectorXd best = Eigen::VectorXd::Constant(reference.rows(), other.rows() > 0 ? -1.0 : 0);
    for (Eigen::Index r = 0; r < reference.rows(); ++r) {
        for (Eigen::Index o = 0; o < other.rows(); ++o) {
            best[r] = std::max(best[r], correlation(reference.row(r), other.row(o)));
        }
    }
    return best;
}

int suggestStateCount(const std::vector<int>& numStates, const std::vector<double>& residuals,
                      double noiseLevel) {
    if (numStates.size() != residuals.size()) {
        throw std::invalid_argument("suggestStateCount: " + std::to_string(numStates.size()) +
                                    " K for " + std::to_string(residuals.size()) + " residuals");
    }
    double smallest = std::numeric_limits<double>::infinity();
    for (double residual : residuals) {
        if (!std::isnan(residual)) {
            smallest = std::min(smallest, residual);
        }
    }
    int suggested = 0;
    for (size_t i = 0; i < residuals.size(); ++i) {
        if (!std::isnan(residuals[i]) && residuals[i] <= smallest + noiseLevel &&
            (suggested == 0 || numStates[i] < suggested)) {
            suggested = numStates[i];
        }
    }
    return suggested;
}

MarkMomentTargets binMarkMoments(const ChromatinData& data, const BinClasses& classes,
                                 std::uint8_t flag) {
    const int m = data.numMarks();
    // Per-pattern counts of the flagged bins, then one pass over the patterns.
    std::vector<std::int64_t> counts(static_cast<size_t>(data.numPatterns()), 0);
    for (size_t t = 0; t < data.tracks.size(); ++t) {
        const auto& bins = data.tracks[t].bins;
        for (size_t bin = 0; bin < bins.size(); ++bin) {
            if (classes.flags[t][bin] & flag) {
                ++counts[bins[bin]];
            }
        }
    }
    MarkMomentTargets targets;
    targets.mean = Eigen::VectorXd::Zero(m);
    targets.second = Eigen::MatrixXd::Zero(m, m);
    double total = 0;
    Eigen::VectorXd x(m);
    for (int p = 0; p < data.numPatterns(); ++p) {
        if (counts[static_cast<size_t>(p)] == 0) {
            continue;
        }
        bool missing = false;
        for (int j = 0; j < m; ++j) {
            const std::uint8_t value = data.value(p, j);
            missing = missing || value == static_cast<std::uint8_t>(MarkValue::Missing);
            x[j] = value == static_cast<std::uint8_t>(MarkValue::Present) ? 1.0 : 0.0;
        }
        if (missing) {
            continue;
        }
        const double n = static_cast<double>(counts[static_cast<size_t>(p)]);
        targets.mean += n * x;
        targets.second += n * x * x.transpose();
        total += n;
    }
    if (total > 0) {
        targets.mean /= total;
        targets.second /= total;
    }
    targets.total = 1.0;
    targets.effectiveBins = std::max(total, 1.0);
    return targets;
}

StateCountResult chooseStateCount(const ChromatinData& data, const StateCountOptions& options,
                                  const CancelToken& cancel, const ProgressFn& progress) {
    if (options.minStates < 1 || options.maxStates < options.minStates || options.blockBins < 1) {
        throw std::invalid_argument(
            "chooseStateCount: bad range " + std::to_string(options.minStates) + ":" +
            std::to_string(options.maxStates) + " or block " + std::to_string(options.blockBins));
    }
    StateCountResult out;
    const BinClasses classes = alternateBlocks(data, options.blockBins);
    const std::vector<BinRun> training = runsWithFlag(data, classes, kForegroundBin, false);
    const MarkMomentTargets heldOut = binMarkMoments(data, classes, kBackgroundBin);
    const MarkMomentTargets trained = binMarkMoments(data, classes, kForegroundBin);
    out.trainingBins = static_cast<std::int64_t>(trained.effectiveBins);
    out.heldOutBins = static_cast<std::int64_t>(heldOut.effectiveBins);
    if (classes.foregroundBins == 0 || classes.backgroundBins == 0) {
        throw InputError(
            "parameter K range: the tracks are too short to hold out every other block of " +
            std::to_string(options.blockBins) + " bins (" +
            std::to_string(classes.foregroundBins + classes.backgroundBins) + " bins)");
    }
    const int m = data.numMarks();
    const double terms = m + m * (m - 1) / 2.0;
    out.noiseLevel = std::sqrt(terms * (1.0 / std::max(trained.effectiveBins, 1.0) +
                                        1.0 / std::max(heldOut.effectiveBins, 1.0)));

    SequenceMomentOptions momentOptions = options.moments;
    momentOptions.encoding = ObservationEncoding::MarkVector;
    const SequenceMoments moments = computeSequenceMoments(data, classes, momentOptions, cancel);
    const int count = options.maxStates - options.minStates + 1;
    for (int k = options.minStates; k <= options.maxStates; ++k) {
        throwIfCancelled(cancel);
        StateCountFit fit;
        fit.numStates = k;
        if (k > moments.rank()) {
            fit.problem = "K = " + std::to_string(k) + " exceeds the moment rank " +
                          std::to_string(moments.rank()) + " (number of marks + 1)";
            out.fits.push_back(std::move(fit));
            continue;
        }
        ContrastiveHmmOptions solve = options.solve;
        solve.numComponents = k;
        HmmParameters model;
        try {
            model = solveContrastiveHmm(moments, 0.0, solve, cancel).hmm;
            if (model.numStates() == 0) {
                throw std::runtime_error("no state with positive weight");
            }
            if (options.refineRounds > 0) {
                model = refineWithBaumWelch(data, training, model, options.refineRounds,
                                            options.refineTolerance, cancel)
                            .hmm;
            }
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& error) {
            fit.problem = error.what();
            out.fits.push_back(std::move(fit));
            continue;
        }
        fit.markProbabilities = markProbabilities(model, data);
        fit.weights = stationaryDistribution(model.transitions);
        fit.logLikelihood = logLikelihood(data, training, model, cancel);
        fit.logLikelihoodPerBin = fit.logLikelihood / std::max(trained.effectiveBins, 1.0);
        fit.heldOutResidual = markMomentResidual(fit.weights, fit.markProbabilities, heldOut);
        out.fits.push_back(std::move(fit));
        if (progress) {
            progress(static_cast<double>(k - options.minStates + 1) / count, "Fitting K");
        }
    }

    // CompareModels against the largest model that was fitted; the rule over every fitted K.
    const auto largest = std::find_if(out.fits.rbegin(), out.fits.rend(),
                                      [](const StateCountFit& fit) { return fit.isFitted(); });
    std::vector<int> ks;
    std::vector<double> residuals;
    for (StateCountFit& fit : out.fits) {
        ks.push_back(fit.numStates);
        residuals.push_back(fit.heldOutResidual);
        if (fit.isFitted() && largest != out.fits.rend()) {
            fit.largestMatch = compareModels(largest->markProbabilities, fit.markProbabilities);
        }
    }
    out.largestStates = largest != out.fits.rend() ? largest->numStates : 0;
    out.suggestedStates = suggestStateCount(ks, residuals, out.noiseLevel);
    return out;
}

} // namespace cx
