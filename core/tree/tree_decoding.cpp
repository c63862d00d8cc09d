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
using detail::kCancelCheckBins;
using detail::scaleAndStoreAlpha;

/// Forward–backward over the meta-states of a node set S (closed under parents, root first),
/// for any K and |S| (FixedMetaChain covers K ≤ 8 and |S| ≤ 3 with compile-time bounds).
/// Meta-state i has digit q = (i / K^q) mod K for the node at position q (stride K^q). A node's
/// parent sits at a lower position, so in a block of K^(q+1) meta-states the parent's digit
/// depends only on the offset lo < K^q: node q's step is, per block and output digit j,
/// out[lo] = Σ_i in_i[lo] · P_{parent digit of lo}(i, j) — K² multiply-adds along contiguous
/// rows, with the matrix entries laid out per lo in a "lane" table. The lane table repeats with
/// period K^(parent position + 1), so it is kept at most a few hundred entries long per (i, j)
/// (fits in cache at any size). Every output is summed over i (or j) ascending, as before.
class MetaChain {
public:
    MetaChain(const TreeHmmParameters& model, std::vector<int> nodes)
        : m_model(model), m_nodes(std::move(nodes)), m_k(model.numStates) {
        const auto s = m_nodes.size();
        const auto k = static_cast<size_t>(m_k);
        m_size = 1;
        for (size_t q = 0; q < s; ++q) {
            m_stride.push_back(m_size);
            m_size *= m_k;
            m_tables.push_back(codeLikelihoods(model.emissions[static_cast<size_t>(m_nodes[q])]));
        }
        m_root.resize(k * k);
        m_rootTransposed.resize(k * k);
        for (size_t i = 0; i < k; ++i) {
            for (size_t j = 0; j < k; ++j) {
                m_root[i * k + j] = model.rootTransitions(static_cast<Eigen::Index>(i),
                                                          static_cast<Eigen::Index>(j));
                m_rootTransposed[j * k + i] = m_root[i * k + j];
            }
        }
        m_lanes.resize(s);
        m_laneLength.assign(s, 1);
        for (size_t q = 1; q < s; ++q) {
            const int parent = model.tree.parent[static_cast<size_t>(m_nodes[q])];
            const auto parentPos = static_cast<size_t>(
                std::find(m_nodes.begin(), m_nodes.end(), parent) - m_nodes.begin());
            if (parentPos >= q) {
                throw std::logic_error("MetaChain: a node's parent must come before it");
            }
            // The shortest period K^r (r > parent position) of at least kMinLane, at most K^q.
            std::int64_t lane = m_stride[parentPos] * m_k;
            while (lane < kMinLane && lane < m_stride[q]) {
                lane *= m_k;
            }
            m_laneLength[q] = lane;
            const auto& mats = model.childTransitions[static_cast<size_t>(m_nodes[q])];
            const auto length = static_cast<size_t>(lane);
            m_lanes[q].resize(k * k * length);
            for (size_t lo = 0; lo < length; ++lo) {
                const auto digit = static_cast<size_t>(
                    (static_cast<std::int64_t>(lo) / m_stride[parentPos]) % m_k);
                const Eigen::MatrixXd& p = mats[digit];
                for (size_t i = 0; i < k; ++i) {
                    for (size_t j = 0; j < k; ++j) {
                        m_lanes[q][(i * k + j) * length + lo] =
                            p(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
                    }
                }
            }
        }
        m_next.resize(static_cast<size_t>(m_size));
        m_blockSums.resize(static_cast<size_t>(m_size));
    }

    /// Posterior-decodes one chromosome; writes the argmax of the marginal of the node at
    /// position wanted[w] into (*out[w])[t]. Returns log P(x). \throws Cancelled (checked every
    /// kCancelCheckBins bins).
    double run(const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
               std::vector<std::vector<std::uint16_t>*>& out, const CancelToken& cancel) {
        // The root step's loops run over K; a compile-time K lets the compiler unroll them.
        switch (m_k) {
        case 2:
            return runK<2>(tracks, chrom, wanted, out, cancel);
        case 3:
            return runK<3>(tracks, chrom, wanted, out, cancel);
        case 4:
            return runK<4>(tracks, chrom, wanted, out, cancel);
        case 5:
            return runK<5>(tracks, chrom, wanted, out, cancel);
        case 6:
            return runK<6>(tracks, chrom, wanted, out, cancel);
        case 7:
            return runK<7>(tracks, chrom, wanted, out, cancel);
        case 8:
            return runK<8>(tracks, chrom, wanted, out, cancel);
        default:
            return runK<0>(tracks, chrom, wanted, out, cancel);
        }
    }

private:
    /// Lane tables are at least this long where the node's stride allows (vector loops).
    static constexpr std::int64_t kMinLane = 64;

    template <int KC>
    double runK(const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
                std::vector<std::vector<std::uint16_t>*>& out, const CancelToken& cancel) {
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
        std::vector<const std::uint16_t*> codes;
        for (const int node : m_nodes) {
            codes.push_back(
                tracks.codes[static_cast<size_t>(node)][static_cast<size_t>(chrom)].data());
        }
        std::vector<double> a(n), e(n);
        double logLik = 0;
        for (size_t t = 0; t < length; ++t) {
            if (t % kCancelCheckBins == 0) {
                throwIfCancelled(cancel);
            }
            emission(codes, t, e);
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
            if (tt % kCancelCheckBins == 0) {
                throwIfCancelled(cancel);
            }
            if (tt + 1 < length) {
                emission(codes, tt + 1, e);
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
            double largest = largestZeroingUnreached(stored, beta);
            if (largest > 0 && std::isfinite(largest)) {
                const double inv = 1.0 / largest;
                for (double& v : beta) {
                    v *= inv;
                }
            }
            // The posterior (up to a constant) in m_next; each wanted node's marginal sums it
            // over blocks first (vector adds), then over the offsets within a digit.
            for (size_t i = 0; i < n; ++i) {
                m_next[i] = static_cast<double>(stored[i]) * beta[i];
            }
            for (size_t w = 0; w < wanted.size(); ++w) {
                nodeMarginal(static_cast<size_t>(wanted[w]), marginal);
                (*out[w])[tt] = static_cast<std::uint16_t>(
                    std::max_element(marginal.begin(), marginal.end()) - marginal.begin());
            }
        }
        return logLik;
    }

    /// β ← 0 where the stored α is 0; returns max β. The maximum of non-negative numbers does
    /// not depend on the order: running maxima of 8 lanes (vector), then of the lanes.
    static double largestZeroingUnreached(const float* stored, std::vector<double>& beta) {
        constexpr size_t kLanes = 8;
        const size_t n = beta.size();
        std::array<double, kLanes> most{};
        size_t i = 0;
        for (; i + kLanes <= n; i += kLanes) {
            for (size_t l = 0; l < kLanes; ++l) {
                const double b = stored[i + l] == 0.0f ? 0.0 : beta[i + l];
                beta[i + l] = b;
                most[l] = most[l] < b ? b : most[l];
            }
        }
        double largest = 0;
        for (; i < n; ++i) {
            beta[i] = stored[i] == 0.0f ? 0.0 : beta[i];
            largest = std::max(largest, beta[i]);
        }
        for (const double m : most) {
            largest = std::max(largest, m);
        }
        return largest;
    }

    /// marginal[d] = Σ of m_next over the meta-states whose digit at position q is d.
    void nodeMarginal(size_t q, std::vector<double>& marginal) {
        const auto n = static_cast<size_t>(m_size);
        const auto stride = static_cast<size_t>(m_stride[q]);
        const size_t block = stride * static_cast<size_t>(m_k);
        double* sums = m_blockSums.data();
        std::copy(m_next.begin(), m_next.begin() + static_cast<std::ptrdiff_t>(block), sums);
        for (size_t hi = block; hi < n; hi += block) {
            const double* row = m_next.data() + hi;
            for (size_t x = 0; x < block; ++x) {
                sums[x] += row[x];
            }
        }
        for (size_t d = 0; d < marginal.size(); ++d) {
            double sum = 0;
            for (size_t lo = 0; lo < stride; ++lo) {
                sum += sums[d * stride + lo];
            }
            marginal[d] = sum;
        }
    }

    /// e[i] = Π_q lik_q[digit q of i] over the nodes whose code is not missing (1 otherwise),
    /// multiplied in node order: built digit by digit, e over the first q + 1 positions is
    /// lik_q[d] times e over the first q, for each digit d.
    void emission(const std::vector<const std::uint16_t*>& codes, size_t t,
                  std::vector<double>& e) const {
        const auto k = static_cast<size_t>(m_k);
        e[0] = 1.0;
        size_t filled = 1;
        for (size_t q = 0; q < m_nodes.size(); ++q) {
            const std::uint16_t code = codes[q][t];
            const double* lik =
                code == kMissingObservation ? nullptr : &m_tables[q][static_cast<size_t>(code) * k];
            // Highest digit first: block d = 0 is the source of the others and is done last.
            for (size_t d = k; d-- > 0;) {
                double* row = e.data() + d * filled;
                if (lik == nullptr) {
                    std::copy(e.data(), e.data() + filled, row);
                } else {
                    const double l = lik[d];
                    for (size_t lo = 0; lo < filled; ++lo) {
                        row[lo] = e[lo] * l;
                    }
                }
            }
            filled *= k;
        }
    }

    void start(std::vector<double>& a) const {
        for (size_t i = 0; i < a.size(); ++i) {
            const auto digit = [&](size_t q) {
                return static_cast<size_t>((static_cast<std::int64_t>(i) / m_stride[q]) % m_k);
            };
            double p = m_model.rootStart[digit(0)];
            for (size_t q = 1; q < m_nodes.size(); ++q) {
                p *= m_model.occupancy[static_cast<size_t>(m_nodes[q])][digit(q)];
            }
            a[i] = p;
        }
    }

    /// a ← a · P, node by node (root first): a child's matrix depends on its parent's digit,
    /// which already holds the parent's new state.
    template <int KC> void forward(std::vector<double>& a) {
        rootStep<KC>(a.data(), m_next.data(), m_root.data());
        a.swap(m_next);
        for (size_t q = 1; q < m_nodes.size(); ++q) {
            childStep<KC>(q, a.data(), m_next.data(), false);
            a.swap(m_next);
        }
    }

    /// g ← P · g, node by node (deepest first, root last).
    template <int KC> void backward(std::vector<double>& g) {
        for (size_t q = m_nodes.size(); q-- > 1;) {
            childStep<KC>(q, g.data(), m_next.data(), true);
            g.swap(m_next);
        }
        rootStep<KC>(g.data(), m_next.data(), m_rootTransposed.data()); // Pᵀ's rows: P's columns
        g.swap(m_next);
    }

    /// The root (stride 1, one matrix): out[base + o] = Σ_s in[base + s] · table[s·K + o], s
    /// ascending, for every base (digit 0 = 0); table is P (forward) or Pᵀ (backward).
    template <int KC> void rootStep(const double* in, double* out, const double* table) const {
        const auto n = static_cast<size_t>(m_size);
        if constexpr (KC > 0) {
            for (size_t base = 0; base < n; base += KC) {
                std::array<double, KC> acc{};
                for (int s = 0; s < KC; ++s) {
                    const double x = in[base + static_cast<size_t>(s)];
                    for (int o = 0; o < KC; ++o) {
                        acc[static_cast<size_t>(o)] += x * table[s * KC + o];
                    }
                }
                std::copy(acc.begin(), acc.end(), out + base);
            }
        } else {
            const auto k = static_cast<size_t>(m_k);
            for (size_t base = 0; base < n; base += k) {
                double* y = out + base;
                std::fill(y, y + k, 0.0);
                for (size_t s = 0; s < k; ++s) {
                    const double x = in[base + s];
                    for (size_t o = 0; o < k; ++o) {
                        y[o] += x * table[s * k + o];
                    }
                }
            }
        }
    }

    /// Node q ≥ 1 (stride st): forward out[hi + j·st + lo] = Σ_i in[hi + i·st + lo] · P(i, j);
    /// backward out[hi + i·st + lo] = Σ_j P(i, j) · in[hi + j·st + lo]; P chosen by lo's
    /// parent digit through the lane table, the sum ascending in i (forward) or j (backward).
    /// The strides K and K² (lane as long as the stride) run with compile-time bounds when K is.
    template <int KC> void childStep(size_t q, const double* in, double* out, bool backward) const {
        if constexpr (KC > 0) {
            if (m_stride[q] == KC && m_laneLength[q] == KC) {
                return childStepFixed<KC, KC>(q, in, out, backward);
            }
            if (m_stride[q] == KC * KC && m_laneLength[q] == KC * KC) {
                return childStepFixed<KC, KC * KC>(q, in, out, backward);
            }
        }
        const auto n = static_cast<size_t>(m_size);
        const auto k = static_cast<size_t>(m_k);
        const auto stride = static_cast<size_t>(m_stride[q]);
        const auto lane = static_cast<size_t>(m_laneLength[q]);
        const double* lanes = m_lanes[q].data();
        for (size_t hi = 0; hi < n; hi += stride * k) {
            for (size_t o = 0; o < k; ++o) {
                double* target = out + hi + o * stride;
                for (size_t s = 0; s < k; ++s) {
                    const double* x = in + hi + s * stride;
                    const double* p = lanes + (backward ? o * k + s : s * k + o) * lane;
                    for (size_t chunk = 0; chunk < stride; chunk += lane) {
                        double* y = target + chunk;
                        const double* xc = x + chunk;
                        if (s == 0) {
                            for (size_t l = 0; l < lane; ++l) {
                                y[l] = xc[l] * p[l];
                            }
                        } else {
                            for (size_t l = 0; l < lane; ++l) {
                                y[l] += xc[l] * p[l];
                            }
                        }
                    }
                }
            }
        }
    }
    template <int K, int ST>
    void childStepFixed(size_t q, const double* in, double* out, bool backward) const {
        const auto n = static_cast<size_t>(m_size);
        const double* lanes = m_lanes[q].data();
        for (size_t hi = 0; hi < n; hi += ST * K) {
            for (int o = 0; o < K; ++o) {
                std::array<double, ST> acc{};
                for (int s = 0; s < K; ++s) {
                    const double* x = in + hi + s * ST;
                    const double* p = lanes + (backward ? o * K + s : s * K + o) * ST;
                    for (int l = 0; l < ST; ++l) {
                        acc[l] += x[l] * p[l];
                    }
                }
                std::copy(acc.begin(), acc.end(), out + hi + o * ST);
            }
        }
    }

    const TreeHmmParameters& m_model;
    std::vector<int> m_nodes;
    int m_k;
    std::int64_t m_size = 1;
    std::vector<std::int64_t> m_stride;
    std::vector<std::vector<double>> m_tables;
    std::vector<double> m_root;           ///< row-major root transitions
    std::vector<double> m_rootTransposed; ///< the same, transposed
    /// Position q ≥ 1: lanes[(i·K + j)·L + lo] = P_lo(i, j) for lo < L = m_laneLength[q], the
    /// matrix of offset lo chosen by its parent's digit (periodic in lo with period L).
    std::vector<std::vector<double>> m_lanes;
    std::vector<std::int64_t> m_laneLength;
    std::vector<double> m_next;
    std::vector<double> m_blockSums;
};

/// Decodes one chromosome over the meta-states of `nodes` (closed under parents, root first):
/// FixedMetaChain where K ∈ [2, 8] and |nodes| ≤ 3, MetaChain otherwise.
double runMetaChain(const TreeHmmParameters& model, const std::vector<int>& nodes,
                    const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
                    std::vector<std::vector<std::uint16_t>*>& out, const CancelToken& cancel) {
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
    return chain.run(tracks, chrom, wanted, out, cancel);
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
            std::vector<std::vector<std::uint16_t>*> targets;
            for (int v = 0; v < n; ++v) {
                targets.push_back(&out.states[static_cast<size_t>(v)][c]);
            }
            logLik[c] =
                runMetaChain(model, nodes, tracks, static_cast<int>(c), nodes, targets, cancel);
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
