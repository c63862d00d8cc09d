#include "core/tree/tree_decoding.h"

#include "core/tree/fixed_meta_chain.h"
#include "core/tree/meta_chain.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/hmm/decoding.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <ostream>
#include <stdexcept>
#include <type_traits>

namespace cx {

const char* toString(TreeDecodingMode mode) {
    switch (mode) {
    case TreeDecodingMode::Auto:
        return "auto";
    case TreeDecodingMode::PathMarginal:
        return "path-marginal";
    case TreeDecodingMode::Joint:
        return "joint";
    }
    return "unknown";
}

namespace {

using detail::FixedMetaChain;
using detail::MetaChain;

/// Decodes one chromosome over the meta-states of `nodes` (closed under parents, root first):
/// FixedMetaChain where K ∈ [2, 8] and |nodes| ≤ 3, MetaChain otherwise (on two threads if
/// `twoThreads`).
double runMetaChain(const TreeHmmParameters& model, const std::vector<int>& nodes,
                    const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
                    std::vector<std::vector<std::uint16_t>*>& out, const CancelToken& cancel,
                    bool twoThreads = false) {
    auto fixed = [&](auto k, auto s) {
        auto chain =
            std::make_unique<FixedMetaChain<decltype(k)::value, decltype(s)::value>>(model, nodes);
        return chain->run(tracks, chrom, wanted, out, cancel);
    };
    auto bySize = [&](auto k) {
        switch (nodes.size()) {
        case 1:
            return fixed(k, std::integral_constant<int, 1>{});
        case 2:
            return fixed(k, std::integral_constant<int, 2>{});
        default:
            return fixed(k, std::integral_constant<int, 3>{});
        }
    };
    if (nodes.size() <= 3) {
        switch (model.numStates) {
        case 2:
            return bySize(std::integral_constant<int, 2>{});
        case 3:
            return bySize(std::integral_constant<int, 3>{});
        case 4:
            return bySize(std::integral_constant<int, 4>{});
        case 5:
            return bySize(std::integral_constant<int, 5>{});
        case 6:
            return bySize(std::integral_constant<int, 6>{});
        case 7:
            return bySize(std::integral_constant<int, 7>{});
        case 8:
            return bySize(std::integral_constant<int, 8>{});
        default:
            break;
        }
    }
    MetaChain chain(model, nodes);
    return twoThreads ? chain.runOnTwoThreads(tracks, chrom, wanted, out, cancel)
                      : chain.run(tracks, chrom, wanted, out, cancel);
}

/// Runs body(i) for every i, the largest cost first, each i taken by the next free thread
/// (keeps both cores busy to the end; every i writes its own output).
void forEachLargestFirst(const std::vector<std::int64_t>& cost,
                         const std::function<void(size_t)>& body) {
    std::vector<size_t> order(cost.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return cost[a] > cost[b]; });
    std::atomic<size_t> next{0};
    const auto workers = std::min<std::int64_t>(threadCount(), std::max<size_t>(cost.size(), 1));
    parallelFor(workers, [&](std::int64_t) {
        for (size_t i = next++; i < order.size(); i = next++) {
            body(order[i]);
        }
    });
}

/// Exact joint decoding keeps the forward messages of a whole chromosome: 4 bytes per
/// meta-state and bin, per thread. Beyond this it is refused rather than swapping or failing
/// to allocate.
constexpr double kJointAlphaBytes = 2e9;

} // namespace

void checkJointDecodingFits(int numStates, int numNodes, std::int64_t longestChromBins) {
    const double states = std::pow(static_cast<double>(numStates), numNodes);
    const double bytes = states * static_cast<double>(longestChromBins) * 4.0;
    if (bytes <= kJointAlphaBytes) {
        return;
    }
    char text[400];
    std::snprintf(
        text, sizeof text,
        "parameter decode: exact joint decoding under the whole tree has K^nodes = "
        "%d^%d = %.0f meta-states per bin; its forward messages for the longest "
        "chromosome (%lld bins) need %.3g GB (limit %.3g GB): decode along each cell type's "
        "root path instead (exact for that path), or use fewer cell types",
        numStates, numNodes, states, static_cast<long long>(longestChromBins), bytes / 1e9,
        kJointAlphaBytes / 1e9);
    throw InputError(text);
}

TreeSegmentation decodeTree(const MultiCellTracks& tracks, const TreeHmmParameters& model,
                            const TreeDecodingOptions& options, const CancelToken& cancel) {
    model.validate("decodeTree");
    if (tracks.cells != model.tree.names || tracks.numMarks() != model.numMarks()) {
        throw std::invalid_argument("decodeTree: tracks and model disagree on cells or marks");
    }
    const int n = model.numNodes();
    std::int64_t jointStates = 1;
    for (int v = 0; v < n && jointStates <= options.maxJointStates; ++v) {
        jointStates *= model.numStates;
    }
    std::int64_t longest = 0;
    for (auto bins : tracks.chromBins) {
        longest = std::max(longest, bins);
    }
    TreeSegmentation out;
    out.mode = options.mode;
    if (out.mode == TreeDecodingMode::Auto) {
        // Joint needs 4 bytes per meta-state and bin of the longest chromosome; keep it < 1 GB.
        const bool fits =
            jointStates <= options.maxJointStates &&
            static_cast<double>(jointStates) * static_cast<double>(longest) * 4.0 < 1e9;
        out.mode = fits ? TreeDecodingMode::Joint : TreeDecodingMode::PathMarginal;
    }
    out.states.assign(static_cast<size_t>(n),
                      std::vector<std::vector<std::uint16_t>>(tracks.chromBins.size()));
    for (int v = 0; v < n; ++v) {
        for (size_t c = 0; c < tracks.chromBins.size(); ++c) {
            out.states[static_cast<size_t>(v)][c].resize(static_cast<size_t>(tracks.chromBins[c]));
        }
    }
    if (out.mode == TreeDecodingMode::Joint) {
        std::vector<int> nodes(static_cast<size_t>(n));
        for (int v = 0; v < n; ++v) {
            nodes[static_cast<size_t>(v)] = v;
        }
        checkJointDecodingFits(model.numStates, n, longest);
        // One job per chromosome, each writing its own output; the log-likelihoods are summed
        // in chromosome order, so any thread count gives the same result. A single chromosome
        // (the demo's region) is decoded on two threads instead (MetaChain::runOnTwoThreads:
        // the same log-likelihood); two or more keep a thread each busy as they are.
        std::vector<double> logLik(tracks.chromBins.size(), 0.0);
        const bool twoThreads = tracks.chromBins.size() == 1 && threadCount() > 1;
        auto decodeChromosome = [&](size_t c) {
            std::vector<std::vector<std::uint16_t>*> targets;
            for (int v = 0; v < n; ++v) {
                targets.push_back(&out.states[static_cast<size_t>(v)][c]);
            }
            logLik[c] = runMetaChain(model, nodes, tracks, static_cast<int>(c), nodes, targets,
                                     cancel, twoThreads);
        };
        if (twoThreads) {
            decodeChromosome(0);
        } else {
            forEachLargestFirst(tracks.chromBins, decodeChromosome);
        }
        for (double ll : logLik) {
            out.logLikelihood += ll;
        }
        return out;
    }
    // One job per (cell, chromosome), each writing its own output: any thread count gives the
    // same result.
    const int chroms = tracks.numChroms();
    std::vector<double> rootLogLik(static_cast<size_t>(chroms), 0.0);
    std::vector<std::int64_t> cost(static_cast<size_t>(n) * static_cast<size_t>(chroms));
    for (size_t job = 0; job < cost.size(); ++job) { // bins × meta-states of the path
        cost[job] = tracks.chromBins[job % static_cast<size_t>(chroms)];
        for (size_t q = model.tree.pathFromRoot(static_cast<int>(job) / chroms).size(); q > 0;
             --q) {
            cost[job] *= model.numStates;
        }
    }
    forEachLargestFirst(cost, [&](size_t job) {
        const int v = static_cast<int>(job) / chroms;
        const int c = static_cast<int>(job) % chroms;
        const std::vector<int> path = model.tree.pathFromRoot(v);
        std::vector<std::vector<std::uint16_t>*> targets{
            &out.states[static_cast<size_t>(v)][static_cast<size_t>(c)]};
        const double ll = runMetaChain(model, path, tracks, c, {static_cast<int>(path.size()) - 1},
                                       targets, cancel);
        if (v == 0) {
            rootLogLik[static_cast<size_t>(c)] = ll;
        }
    });
    for (double ll : rootLogLik) {
        out.logLikelihood += ll;
    }
    return out;
}

double decodingAccuracy(const std::vector<std::vector<std::uint16_t>>& states,
                        const std::vector<std::vector<std::uint16_t>>& truth) {
    std::int64_t same = 0, total = 0;
    for (size_t c = 0; c < states.size() && c < truth.size(); ++c) {
        for (size_t t = 0; t < states[c].size() && t < truth[c].size(); ++t) {
            same += states[c][t] == truth[c][t];
            ++total;
        }
    }
    return total > 0 ? static_cast<double>(same) / static_cast<double>(total) : 0.0;
}

std::vector<StateChange> stateChanges(const TreeSegmentation& segmentation, int cell,
                                      int reference) {
    std::vector<StateChange> out;
    const auto& own = segmentation.states[static_cast<size_t>(cell)];
    const auto& ref = segmentation.states[static_cast<size_t>(reference)];
    for (size_t c = 0; c < own.size(); ++c) {
        const auto n = static_cast<std::int64_t>(own[c].size());
        std::int64_t t = 0;
        while (t < n) {
            const auto s = own[c][static_cast<size_t>(t)];
            const auto r = ref[c][static_cast<size_t>(t)];
            std::int64_t end = t + 1;
            while (end < n && own[c][static_cast<size_t>(end)] == s &&
                   ref[c][static_cast<size_t>(end)] == r) {
                ++end;
            }
            if (s != r) {
                out.push_back({static_cast<int>(c), t, end, r, s});
            }
            t = end;
        }
    }
    return out;
}

void writeStateChangesBed(std::ostream& out, const MultiCellTracks& tracks,
                          const std::vector<StateChange>& changes,
                          const std::vector<std::string>& labels) {
    const std::int64_t bin = tracks.binSize;
    for (const StateChange& change : changes) {
        const std::int64_t start = change.begin * bin;
        const std::int64_t end = change.end * bin;
        out << tracks.chroms[static_cast<size_t>(change.chrom)] << '\t' << start << '\t' << end
            << '\t' << labels[static_cast<size_t>(change.referenceState)] << '>'
            << labels[static_cast<size_t>(change.state)] << "\t0\t.\t" << start << '\t' << end
            << '\t' << stateColor(change.state) << '\n';
    }
}

} // namespace cx
