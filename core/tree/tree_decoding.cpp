#include "core/tree/tree_decoding.h"

#include "core/tree/fixed_meta_chain.h"

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
using detail::scaleAndStoreAlpha;

/// Forward–backward over the meta-states of a node set S (closed under parents, root first).
/// Meta-state i has digit q = (i / K^q) mod K for the node at position q. Tables of digits,
/// of the "bases" (indices whose digit q is 0) and of the transition matrix each base uses are
/// precomputed, so a step is plain multiply-adds.
class MetaChain {
public:
    MetaChain(const TreeHmmParameters& model, std::vector<int> nodes)
        : m_model(model), m_nodes(std::move(nodes)), m_k(model.numStates) {
        const auto s = m_nodes.size();
        m_size = 1;
        for (size_t q = 0; q < s; ++q) {
            m_stride.push_back(m_size);
            m_size *= m_k;
            m_tables.push_back(codeLikelihoods(model.emissions[static_cast<size_t>(m_nodes[q])]));
        }
        const auto n = static_cast<size_t>(m_size);
        m_digits.assign(s, std::vector<std::uint8_t>(n));
        for (size_t q = 0; q < s; ++q) {
            for (size_t i = 0; i < n; ++i) {
                m_digits[q][i] =
                    static_cast<std::uint8_t>((static_cast<std::int64_t>(i) / m_stride[q]) % m_k);
            }
        }
        // Row-major copies of every matrix: root transitions, then each child's K matrices.
        auto rowMajor = [&](const Eigen::MatrixXd& m) {
            std::vector<double> out(static_cast<size_t>(m_k * m_k));
            for (int i = 0; i < m_k; ++i) {
                for (int j = 0; j < m_k; ++j) {
                    out[static_cast<size_t>(i * m_k + j)] = m(i, j);
                }
            }
            return out;
        };
        m_bases.resize(s);
        m_baseMatrix.resize(s);
        for (size_t q = 0; q < s; ++q) {
            const int node = m_nodes[q];
            const int parent = model.tree.parent[static_cast<size_t>(node)];
            const auto parentPos = static_cast<size_t>(
                std::find(m_nodes.begin(), m_nodes.end(), parent) - m_nodes.begin());
            const size_t first = m_matrices.size();
            if (q == 0) {
                m_matrices.push_back(rowMajor(model.rootTransitions));
                m_transposed.push_back(rowMajor(model.rootTransitions.transpose()));
            } else {
                for (const auto& m : model.childTransitions[static_cast<size_t>(node)]) {
                    m_matrices.push_back(rowMajor(m));
                    m_transposed.push_back(rowMajor(m.transpose()));
                }
            }
            for (size_t i = 0; i < n; ++i) {
                if (m_digits[q][i] != 0) {
                    continue;
                }
                m_bases[q].push_back(static_cast<std::int64_t>(i));
                m_baseMatrix[q].push_back(first + (q == 0 ? 0 : m_digits[parentPos][i]));
            }
        }
        m_next.resize(n);
    }

    /// Posterior-decodes one chromosome; writes the argmax of the marginal of the node at
    /// position wanted[w] into (*out[w])[t]. Returns log P(x).
    double run(const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
               std::vector<std::vector<std::uint16_t>*>& out) {
        // The inner loops run over K; a compile-time K lets the compiler unroll them (~2×).
        switch (m_k) {
        case 2:
            return runK<2>(tracks, chrom, wanted, out);
        case 3:
            return runK<3>(tracks, chrom, wanted, out);
        case 4:
            return runK<4>(tracks, chrom, wanted, out);
        case 5:
            return runK<5>(tracks, chrom, wanted, out);
        case 6:
            return runK<6>(tracks, chrom, wanted, out);
        case 7:
            return runK<7>(tracks, chrom, wanted, out);
        case 8:
            return runK<8>(tracks, chrom, wanted, out);
        default:
            return runK<0>(tracks, chrom, wanted, out);
        }
    }

private:
    template <int KC>
    double runK(const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
                std::vector<std::vector<std::uint16_t>*>& out) {
        const auto length = static_cast<size_t>(tracks.chromBins[static_cast<size_t>(chrom)]);
        const auto n = static_cast<size_t>(m_size);
        // Reused per thread: allocating and zeroing ~50 MB per chromosome costs more than the
        // recursion (every value is written before it is read).
        thread_local std::vector<float> alphas;
        std::int64_t longest = 0;
        for (auto bins : tracks.chromBins) {
            longest = std::max(longest, bins);
        }
        if (alphas.size() < static_cast<size_t>(longest) * n) {
            alphas = std::vector<float>(static_cast<size_t>(longest) * n);
        }
        std::vector<double> a(n), e(n);
        double logLik = 0;
        for (size_t t = 0; t < length; ++t) {
            emission(tracks, chrom, t, e);
            if (t == 0) {
                start(a);
            } else {
                forward<KC>(a);
            }
            // Stored as float: stored α = 0 means exactly unreachable (the backward pass).
            logLik += scaleAndStoreAlpha(a, e, alphas.data() + t * n);
        }
        std::vector<double> beta(n, 1.0), marginal(static_cast<size_t>(m_k));
        for (size_t tt = length; tt-- > 0;) {
            if (tt + 1 < length) {
                emission(tracks, chrom, tt + 1, e);
                for (size_t i = 0; i < n; ++i) {
                    beta[i] *= e[i];
                }
                backward<KC>(beta);
            }
            const float* stored = alphas.data() + tt * n;
            // β is only needed up to a constant per bin (the marginals are normalised by the
            // argmax). A meta-state the forward pass cannot reach (α = 0: exact zeros in the
            // transitions) has no posterior mass and its β feeds only the β of other unreachable
            // states, but left alone it grows relative to the reachable ones along a chromosome
            // (by b/c per bin, c the forward normaliser) until it overflows, inf·0 = NaN reaches
            // every state and every earlier bin decodes as state 0. Hence: β = 0 where α = 0, then
            // β scaled to max 1 (never overflows; changes no argmax).
            double largest = 0;
            for (size_t i = 0; i < n; ++i) {
                if (stored[i] == 0.0f) {
                    beta[i] = 0.0;
                }
                largest = std::max(largest, beta[i]);
            }
            if (largest > 0 && std::isfinite(largest)) {
                const double inv = 1.0 / largest;
                for (double& v : beta) {
                    v *= inv;
                }
            }
            for (size_t w = 0; w < wanted.size(); ++w) {
                const auto& digits = m_digits[static_cast<size_t>(wanted[w])];
                std::fill(marginal.begin(), marginal.end(), 0.0);
                for (size_t i = 0; i < n; ++i) {
                    marginal[digits[i]] += static_cast<double>(stored[i]) * beta[i];
                }
                (*out[w])[tt] = static_cast<std::uint16_t>(
                    std::max_element(marginal.begin(), marginal.end()) - marginal.begin());
            }
        }
        return logLik;
    }

    void emission(const MultiCellTracks& tracks, int chrom, size_t t,
                  std::vector<double>& e) const {
        std::fill(e.begin(), e.end(), 1.0);
        for (size_t q = 0; q < m_nodes.size(); ++q) {
            const std::uint16_t code =
                tracks.codes[static_cast<size_t>(m_nodes[q])][static_cast<size_t>(chrom)][t];
            if (code == kMissingObservation) {
                continue;
            }
            const double* lik = &m_tables[q][static_cast<size_t>(code) * static_cast<size_t>(m_k)];
            const auto& digits = m_digits[q];
            for (size_t i = 0; i < e.size(); ++i) {
                e[i] *= lik[digits[i]];
            }
        }
    }

    void start(std::vector<double>& a) const {
        for (size_t i = 0; i < a.size(); ++i) {
            double p = m_model.rootStart[m_digits[0][i]];
            for (size_t q = 1; q < m_nodes.size(); ++q) {
                p *= m_model.occupancy[static_cast<size_t>(m_nodes[q])][m_digits[q][i]];
            }
            a[i] = p;
        }
    }

    /// a ← a · P, node by node (root first): a child's matrix depends on its parent's digit,
    /// which already holds the parent's new state.
    template <int KC> void forward(std::vector<double>& a) {
        const int k = KC > 0 ? KC : m_k;
        for (size_t q = 0; q < m_nodes.size(); ++q) {
            const std::int64_t stride = m_stride[q];
            const auto& bases = m_bases[q];
            for (size_t b = 0; b < bases.size(); ++b) {
                const double* pt = m_transposed[m_baseMatrix[q][b]].data();
                const double* in = a.data() + bases[b];
                double* out = m_next.data() + bases[b];
                for (int j = 0; j < k; ++j) {
                    const double* column = pt + j * k;
                    double s = 0;
                    for (int i = 0; i < k; ++i) {
                        s += in[i * stride] * column[i];
                    }
                    out[j * stride] = s;
                }
            }
            a.swap(m_next);
        }
    }

    /// g ← P · g, node by node (deepest first, root last).
    template <int KC> void backward(std::vector<double>& g) {
        const int k = KC > 0 ? KC : m_k;
        for (size_t qq = m_nodes.size(); qq-- > 0;) {
            const std::int64_t stride = m_stride[qq];
            const auto& bases = m_bases[qq];
            for (size_t b = 0; b < bases.size(); ++b) {
                const double* p = m_matrices[m_baseMatrix[qq][b]].data();
                const double* in = g.data() + bases[b];
                double* out = m_next.data() + bases[b];
                for (int i = 0; i < k; ++i) {
                    const double* row = p + i * k;
                    double s = 0;
                    for (int j = 0; j < k; ++j) {
                        s += row[j] * in[j * stride];
                    }
                    out[i * stride] = s;
                }
            }
            g.swap(m_next);
        }
    }

    const TreeHmmParameters& m_model;
    std::vector<int> m_nodes;
    int m_k;
    std::int64_t m_size = 1;
    std::vector<std::int64_t> m_stride;
    std::vector<std::vector<double>> m_tables;
    std::vector<std::vector<std::uint8_t>> m_digits;
    std::vector<std::vector<double>> m_matrices;   ///< row-major P
    std::vector<std::vector<double>> m_transposed; ///< row-major Pᵀ
    std::vector<std::vector<std::int64_t>> m_bases;
    std::vector<std::vector<size_t>> m_baseMatrix;
    std::vector<double> m_next;
};

/// Decodes one chromosome over the meta-states of `nodes` (closed under parents, root first):
/// FixedMetaChain where K ∈ [2, 8] and |nodes| ≤ 3, MetaChain otherwise.
double runMetaChain(const TreeHmmParameters& model, const std::vector<int>& nodes,
                    const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
                    std::vector<std::vector<std::uint16_t>*>& out) {
    auto fixed = [&](auto k, auto s) {
        auto chain =
            std::make_unique<FixedMetaChain<decltype(k)::value, decltype(s)::value>>(model, nodes);
        return chain->run(tracks, chrom, wanted, out);
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
    return chain.run(tracks, chrom, wanted, out);
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
        // in chromosome order, so any thread count gives the same result.
        std::vector<double> logLik(tracks.chromBins.size(), 0.0);
        forEachLargestFirst(tracks.chromBins, [&](size_t c) {
            throwIfCancelled(cancel);
            std::vector<std::vector<std::uint16_t>*> targets;
            for (int v = 0; v < n; ++v) {
                targets.push_back(&out.states[static_cast<size_t>(v)][c]);
            }
            logLik[c] = runMetaChain(model, nodes, tracks, static_cast<int>(c), nodes, targets);
        });
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
        throwIfCancelled(cancel);
        const std::vector<int> path = model.tree.pathFromRoot(v);
        std::vector<std::vector<std::uint16_t>*> targets{
            &out.states[static_cast<size_t>(v)][static_cast<size_t>(c)]};
        const double ll =
            runMetaChain(model, path, tracks, c, {static_cast<int>(path.size()) - 1}, targets);
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
