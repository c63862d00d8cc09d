#include "core/hmm/segmentation_analysis.h"

#include "core/common/timer.h"
#include "core/hmm/hmm_path.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace cx {

std::vector<std::vector<StateRun>> segmentationRuns(const Segmentation& segmentation) {
    std::vector<std::vector<StateRun>> out(segmentation.states.size());
    for (size_t t = 0; t < segmentation.states.size(); ++t) {
        const auto& states = segmentation.states[t];
        const auto n = static_cast<std::int64_t>(states.size());
        std::int64_t begin = 0;
        for (std::int64_t i = 1; i <= n; ++i) {
            if (i < n && states[static_cast<size_t>(i)] == states[static_cast<size_t>(begin)]) {
                continue;
            }
            out[t].push_back({begin, i, static_cast<int>(states[static_cast<size_t>(begin)])});
            begin = i;
        }
    }
    return out;
}

std::int64_t labelBackgroundRuns(const ChromatinData& data, const ContrastiveHmmResult& result,
                                 std::vector<std::vector<StateRun>>& runs,
                                 const CancelToken& cancel) {
    const auto k = static_cast<int>(result.markProbabilities.rows());
    const int specific = result.numSpecific;
    if (specific >= k || specific == 0 || result.markProbabilities.cols() != data.numMarks()) {
        return 0;
    }
    // log P(pattern | component) for every distinct pattern: K × P, cheap (a few hundred
    // patterns), so the per-bin work is one table lookup per candidate.
    const int patterns = data.numPatterns();
    Eigen::MatrixXd logLikelihood = Eigen::MatrixXd::Zero(k, patterns);
    for (int c = 0; c < k; ++c) {
        for (int p = 0; p < patterns; ++p) {
            double sum = 0;
            for (int m = 0; m < data.numMarks(); ++m) {
                const std::uint8_t v = data.value(p, m);
                if (v > 1) {
                    continue; // missing
                }
                const double q = std::clamp(result.markProbabilities(c, m), 1e-6, 1 - 1e-6);
                sum += v == 1 ? std::log(q) : std::log1p(-q);
            }
            logLikelihood(c, p) = sum;
        }
    }
    std::int64_t relabelled = 0;
    for (size_t t = 0; t < runs.size() && t < data.tracks.size(); ++t) {
        throwIfCancelled(cancel);
        const auto& bins = data.tracks[t].bins;
        std::vector<StateRun> merged;
        merged.reserve(runs[t].size());
        for (StateRun run : runs[t]) {
            Eigen::VectorXd score = Eigen::VectorXd::Zero(k);
            for (std::int64_t i = run.begin; i < run.end; ++i) {
                score += logLikelihood.col(bins[static_cast<size_t>(i)]);
            }
            int best = run.state;
            for (int b = specific; b < k; ++b) {
                if (score[b] > score[best]) {
                    best = b;
                }
            }
            if (best != run.state) {
                relabelled += run.end - run.begin;
                run.state = best;
            }
            if (!merged.empty() && merged.back().state == run.state &&
                merged.back().end == run.begin) {
                merged.back().end = run.end;
            } else {
                merged.push_back(run);
            }
        }
        runs[t] = std::move(merged);
    }
    return relabelled;
}

DecodedSegmentation decodeSegmentation(const ChromatinData& data,
                                       const ContrastiveHmmResult& result, DecodingMethod method,
                                       bool labelBackground, const CancelToken& cancel) {
    Stopwatch watch;
    const Segmentation segmentation = segmentTracks(data, result.hmm, method, cancel);
    throwIfCancelled(cancel);
    DecodedSegmentation out;
    out.method = method;
    out.numSpecific = segmentation.numStates;
    out.numStates = std::max(out.numSpecific, static_cast<int>(result.markProbabilities.rows()));
    out.logLikelihood = segmentation.logLikelihood;
    out.runs = segmentationRuns(segmentation);
    out.backgroundLabelled = labelBackground;
    if (labelBackground) {
        out.backgroundBins = labelBackgroundRuns(data, result, out.runs, cancel);
    }
    out.stateBins.assign(static_cast<size_t>(std::max(0, out.numStates)), 0);
    for (const auto& runs : out.runs) {
        for (const StateRun& run : runs) {
            out.stateBins[static_cast<size_t>(run.state)] += run.end - run.begin;
        }
    }
    out.decodeMs = watch.elapsedMs();
    return out;
}

DecodedContrast decodedContrast(const DecodedSegmentation& segmentation, const BinClasses& classes,
                                const ContrastiveHmmResult& result) {
    if (classes.flags.size() < segmentation.runs.size()) {
        throw std::invalid_argument(
            "decodedContrast: the bin classes cover " + std::to_string(classes.flags.size()) +
            " tracks, the segmentation " + std::to_string(segmentation.runs.size()));
    }
    const auto numStates = static_cast<size_t>(std::max(0, segmentation.numStates));
    std::vector<std::int64_t> foreground(numStates, 0), background(numStates, 0);
    for (size_t track = 0; track < segmentation.runs.size(); ++track) {
        const std::vector<std::uint8_t>& flags = classes.flags[track];
        for (const StateRun& run : segmentation.runs[track]) {
            if (run.end > static_cast<std::int64_t>(flags.size()) || run.begin < 0 ||
                run.state < 0 || static_cast<size_t>(run.state) >= numStates) {
                throw std::invalid_argument("decodedContrast: a run lies outside the bin classes");
            }
            for (std::int64_t bin = run.begin; bin < run.end; ++bin) {
                const std::uint8_t flag = flags[static_cast<size_t>(bin)];
                foreground[static_cast<size_t>(run.state)] += (flag & kForegroundBin) != 0;
                background[static_cast<size_t>(run.state)] += (flag & kBackgroundBin) != 0;
            }
        }
    }
    const double nf = static_cast<double>(classes.foregroundBins);
    const double nb = static_cast<double>(classes.backgroundBins);
    const double gamma = nb > 0 ? result.gamma : 0.0;
    DecodedContrast out;
    for (size_t s = 0; s < numStates; ++s) {
        const double pf = nf > 0 ? static_cast<double>(foreground[s]) / nf : 0.0;
        const double pb = nb > 0 ? static_cast<double>(background[s]) / nb : 0.0;
        const double variance = (nf > 0 ? pf * (1 - pf) / nf : 0.0) +
                                (nb > 0 ? gamma * gamma * pb * (1 - pb) / nb : 0.0);
        out.foregroundShare.push_back(pf);
        out.backgroundShare.push_back(pb);
        out.contrast.push_back(pf - gamma * pb);
        out.standardError.push_back(std::sqrt(variance));
        const auto component = static_cast<Eigen::Index>(s);
        if (component < result.weights.size()) {
            const double omega = result.weights[component];
            if (omega > 0 && out.contrast.back() + omega < -3.0 * out.standardError.back()) {
                out.contradicted.push_back(static_cast<int>(s));
            }
        }
    }
    return out;
}

StateWeightSweep sweepStateWeights(const SequenceMoments& moments,
                                   const std::vector<double>& gammas,
                                   const ContrastiveHmmOptions& options,
                                   const CancelToken& cancel) {
    StateWeightSweep sweep;
    Eigen::MatrixXd previous;
    auto shared = std::make_shared<const HmmPath>(
        solveHmmPath(moments, gammas, options, HmmPathStarts::Continued, cancel));
    const HmmPath& path = *shared;
    sweep.path = shared;
    for (size_t i = 0; i < path.gammas.size(); ++i) {
        const double gamma = path.gammas[i];
        const ContrastiveHmmResult& result = path.solutions[i];
        const Eigen::MatrixXd& current = result.markProbabilities;
        const auto k = current.rows();
        std::vector<int> order(static_cast<size_t>(k));
        if (previous.rows() == k && previous.cols() == current.cols()) {
            order = matchStates(previous, current);
        } else {
            for (Eigen::Index i = 0; i < k; ++i) {
                order[static_cast<size_t>(i)] = static_cast<int>(i);
            }
        }
        Eigen::VectorXd weights(k);
        Eigen::MatrixXd profiles(k, current.cols());
        for (Eigen::Index t = 0; t < k; ++t) {
            weights[t] = result.weights[order[static_cast<size_t>(t)]];
            profiles.row(t) = current.row(order[static_cast<size_t>(t)]);
        }
        sweep.gammas.push_back(gamma);
        sweep.weights.push_back(weights);
        sweep.profiles.push_back(profiles);
        sweep.specificInvalidMass.push_back(result.specificInvalidMass());
        previous = profiles;
    }
    return sweep;
}

void writeRunsBed9(std::ostream& out, const ChromatinData& data,
                   const std::vector<std::vector<StateRun>>& runs,
                   const std::vector<std::string>& labels, const std::vector<std::string>& colours,
                   const std::function<std::string(const ChromatinTrack&)>& trackLine,
                   int onlyTrack, const std::string& onlyCell) {
    const std::int64_t binSize = data.binSize;
    const size_t numTracks = std::min(data.tracks.size(), runs.size());
    // Track order: as given, or grouped by cell (first appearance) when each sample gets one
    // track line, so that a browser shows one track per sample, not one per chromosome.
    std::vector<size_t> order;
    std::vector<bool> startsSample;
    std::vector<std::string> cells;
    for (size_t t = 0; t < numTracks; ++t) {
        if (std::find(cells.begin(), cells.end(), data.tracks[t].cell) == cells.end()) {
            cells.push_back(data.tracks[t].cell);
        }
    }
    if (trackLine) {
        for (const auto& cell : cells) {
            bool first = true;
            for (size_t t = 0; t < numTracks; ++t) {
                if (data.tracks[t].cell == cell) {
                    order.push_back(t);
                    startsSample.push_back(first);
                    first = false;
                }
            }
        }
    } else {
        for (size_t t = 0; t < numTracks; ++t) {
            order.push_back(t);
            startsSample.push_back(false);
        }
    }
    bool pendingLine = false;
    for (size_t i = 0; i < order.size(); ++i) {
        const size_t t = order[i];
        const ChromatinTrack& track = data.tracks[t];
        if (startsSample[i]) {
            pendingLine = true;
        }
        if ((onlyTrack >= 0 && static_cast<int>(t) != onlyTrack) ||
            (!onlyCell.empty() && track.cell != onlyCell)) {
            continue;
        }
        if (trackLine && pendingLine) {
            out << trackLine(track) << '\n';
            pendingLine = false;
        }
        for (const StateRun& run : runs[t]) {
            const auto state = static_cast<size_t>(run.state);
            if (run.state < 0 || state >= labels.size() || state >= colours.size()) {
                throw std::invalid_argument("writeRunsBed9: state " + std::to_string(run.state) +
                                            " has no label or colour");
            }
            const std::int64_t startBp = run.begin * binSize;
            const std::int64_t endBp = run.end * binSize;
            out << track.chrom << '\t' << startBp << '\t' << endBp << '\t' << labels[state]
                << "\t0\t.\t" << startBp << '\t' << endBp << '\t' << colours[state] << '\n';
        }
    }
}

} // namespace cx
