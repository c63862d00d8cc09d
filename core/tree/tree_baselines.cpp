#include "core/tree/tree_baselines.h"

#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/hmm/baum_welch.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/hmm_starts.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"

#include <cmath>
#include <unordered_map>

namespace cx {

PerCellHmmResult perCellSpectralHmms(const MultiCellTracks& tracks, int numStates,
                                     Decomposition decomposition, std::uint64_t seed,
                                     const CancelToken& cancel, int starts) {
    // The cell types are independent: learn them side by side, then decode them side by side
    // (each cell's passes then run on its own thread; the numbers do not depend on the split).
    // A cell's data is built where it is used, so only one per thread is held at a time.
    const auto cells = static_cast<size_t>(tracks.numCells());
    PerCellHmmResult out;
    out.hmms.resize(cells);
    out.starts.resize(cells);
    out.states.resize(cells);
    Stopwatch learn;
    parallelFor(static_cast<std::int64_t>(cells), [&](std::int64_t i) {
        const auto c = static_cast<size_t>(i);
        throwIfCancelled(cancel);
        const ChromatinData data = tracks.cellData(static_cast<int>(i));
        const BinClasses classes = classifyBins(data, nullptr, nullptr);
        const SequenceMoments moments = computeSequenceMoments(data, classes, {}, cancel);
        ContrastiveHmmOptions options;
        options.numComponents = numStates;
        options.seed = seed;
        options.initialization = decomposition == Decomposition::Jennrich
                                     ? AsymmetricInit::SimultaneousDiagonalization
                                     : AsymmetricInit::Deflation;
        const std::vector<BinRun> runs = wholeTrackRuns(data);
        ContrastiveHmmStarts fit =
            solveContrastiveHmmStarts(moments, 0.0, options, starts, &data, &runs, cancel);
        out.starts[c] = std::move(fit.spread);
        out.hmms[c] = std::move(fit.best.hmm);
    });
    out.learnMs = learn.elapsedMs();
    Stopwatch decode;
    parallelFor(static_cast<std::int64_t>(cells), [&](std::int64_t i) {
        const auto c = static_cast<size_t>(i);
        throwIfCancelled(cancel);
        const ChromatinData data = tracks.cellData(static_cast<int>(i));
        out.states[c] = segmentTracks(data, out.hmms[c], DecodingMethod::Posterior, cancel).states;
    });
    out.decodeMs = decode.elapsedMs();
    return out;
}

FlattenedEmResult flattenedEm(const MultiCellTracks& tracks, const TreeHmmParameters& initial,
                              const FlattenedEmOptions& options, const CancelToken& cancel) {
    initial.validate("flattenedEm");
    FlattenedEmResult out;
    const int n = initial.numNodes();
    const int k = initial.numStates;
    const int m = initial.numMarks();
    double states = 1;
    for (int v = 0; v < n; ++v) {
        states *= k;
    }
    std::int64_t longest = 0;
    for (auto bins : tracks.chromBins) {
        longest = std::max(longest, bins);
    }
    out.metaStates = states < 9e18 ? static_cast<std::int64_t>(states) : -1;
    // Dense K^n × K^n transitions (a few copies) + forward–backward workspace per sequence.
    out.estimatedBytes = 8.0 * (3 * states * states + 3 * states * static_cast<double>(longest));
    if (states > static_cast<double>(options.maxMetaStates) ||
        out.estimatedBytes > options.maxBytes) {
        out.reason = "K^cells = " + std::to_string(k) + "^" + std::to_string(n) + " = " +
                     (states < 1e15 ? std::to_string(static_cast<long long>(states))
                                    : std::to_string(states)) +
                     " product states need about " +
                     std::to_string(static_cast<long long>(out.estimatedBytes / 1e6)) +
                     " MB (limit " + std::to_string(options.maxMetaStates) + " states, " +
                     std::to_string(static_cast<long long>(options.maxBytes / 1e6)) + " MB)";
        return out;
    }
    out.fits = true;
    const auto s = static_cast<int>(states);
    // Flattened data: marks CELL:MARK, one pattern per distinct joint code vector.
    ChromatinData data;
    data.binSize = tracks.binSize;
    for (int v = 0; v < n; ++v) {
        for (const auto& mark : tracks.markNames) {
            data.markNames.push_back(tracks.cells[static_cast<size_t>(v)] + ":" + mark);
        }
    }
    std::unordered_map<std::string, std::uint32_t> patternOf;
    std::string key(static_cast<size_t>(n) * 2, '\0');
    for (int c = 0; c < tracks.numChroms(); ++c) {
        ChromatinTrack track;
        track.cell = "flattened";
        track.chrom = tracks.chroms[static_cast<size_t>(c)];
        const auto length = static_cast<size_t>(tracks.chromBins[static_cast<size_t>(c)]);
        track.bins.resize(length);
        for (size_t t = 0; t < length; ++t) {
            for (int v = 0; v < n; ++v) {
                const std::uint16_t code =
                    tracks.codes[static_cast<size_t>(v)][static_cast<size_t>(c)][t];
                key[static_cast<size_t>(2 * v)] = static_cast<char>(code & 0xFF);
                key[static_cast<size_t>(2 * v + 1)] = static_cast<char>(code >> 8);
            }
            auto it = patternOf.find(key);
            if (it == patternOf.end()) {
                it = patternOf.emplace(key, static_cast<std::uint32_t>(data.patternCounts.size()))
                         .first;
                data.patternCounts.push_back(0);
                for (int v = 0; v < n; ++v) {
                    const std::uint16_t code =
                        tracks.codes[static_cast<size_t>(v)][static_cast<size_t>(c)][t];
                    for (int j = 0; j < m; ++j) {
                        data.patternValues.push_back(
                            code == kMissingObservation
                                ? 2
                                : static_cast<std::uint8_t>((code >> j) & 1));
                    }
                }
            }
            track.bins[t] = it->second;
            ++data.patternCounts[it->second];
        }
        data.tracks.push_back(std::move(track));
    }
    // Flattened model: H = Σ_v h_v K^v.
    auto digit = [&](int h, int v) {
        for (int i = 0; i < v; ++i) {
            h /= k;
        }
        return h % k;
    };
    HmmParameters hmm;
    hmm.encoding = ObservationEncoding::MarkVector;
    hmm.start.resize(s);
    hmm.emissions.resize(s, n * m);
    hmm.transitions.resize(s, s);
    for (int h = 0; h < s; ++h) {
        double p = initial.rootStart[digit(h, 0)];
        for (int v = 0; v < n; ++v) {
            if (v > 0) {
                p *= initial.occupancy[static_cast<size_t>(v)][digit(h, v)];
            }
            hmm.emissions.block(h, v * m, 1, m) =
                initial.emissions[static_cast<size_t>(v)].row(digit(h, v));
        }
        hmm.start[h] = p;
        for (int g = 0; g < s; ++g) {
            double q = initial.rootTransitions(digit(h, 0), digit(g, 0));
            for (int v = 1; v < n; ++v) {
                const int parentNew = digit(g, initial.tree.parent[static_cast<size_t>(v)]);
                q *= initial
                         .childTransitions[static_cast<size_t>(v)][static_cast<size_t>(parentNew)](
                             digit(h, v), digit(g, v));
            }
            hmm.transitions(h, g) = q;
        }
    }
    hmm.start /= hmm.start.sum();
    const std::vector<BinRun> runs = wholeTrackRuns(data);
    Stopwatch learn;
    BaumWelchOptions bw;
    bw.maxIterations = options.maxIterations;
    bw.tolerance = options.tolerance;
    const BaumWelchResult result = baumWelch(data, runs, smoothedForEm(hmm, data), bw, cancel);
    out.learnMs = learn.elapsedMs();
    out.iterations = result.iterations;
    out.logLikelihood = result.finalLogLikelihood();
    Stopwatch decode;
    const Segmentation segmentation =
        segmentTracks(data, result.hmm, DecodingMethod::Posterior, cancel);
    out.decodeMs = decode.elapsedMs();
    out.states.assign(static_cast<size_t>(n), std::vector<std::vector<std::uint16_t>>(
                                                  static_cast<size_t>(tracks.numChroms())));
    for (int v = 0; v < n; ++v) {
        for (int c = 0; c < tracks.numChroms(); ++c) {
            const auto& meta = segmentation.states[static_cast<size_t>(c)];
            auto& target = out.states[static_cast<size_t>(v)][static_cast<size_t>(c)];
            target.resize(meta.size());
            for (size_t t = 0; t < meta.size(); ++t) {
                target[t] = static_cast<std::uint16_t>(digit(meta[t], v));
            }
        }
    }
    return out;
}

} // namespace cx
