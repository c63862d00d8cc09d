#pragma once

// Internal to tree_decoding.cpp: the forward–backward over a tree's meta-states for any K and
// number of nodes (FixedMetaChain, fixed_meta_chain.h, covers the small cases).

#include "core/tree/fixed_meta_chain.h"

#include "core/common/cancel.h"
#include "core/common/parallel.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_hmm.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace cx::detail {

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
        return dispatch(
            [&](auto k) { return runK<decltype(k)::value>(tracks, chrom, wanted, out, cancel); });
    }

    /// As run(), on two threads (when threadCount() allows): the forward pass over the first
    /// half of the bins runs beside the backward pass over the second half, then each continues
    /// into the other half and decodes there from the other's stored messages. The same
    /// recursions, so the same log-likelihood bit for bit and the same states up to ties at
    /// rounding. Falls back to run() when the structurally reachable meta-states have not
    /// settled by the middle of the chromosome (see settledReach).
    double runOnTwoThreads(const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
                           std::vector<std::vector<std::uint16_t>*>& out,
                           const CancelToken& cancel) {
        return dispatch([&](auto k) {
            return runSplitK<decltype(k)::value>(tracks, chrom, wanted, out, cancel);
        });
    }

private:
    /// Lane tables are at least this long where the node's stride allows (vector loops).
    static constexpr std::int64_t kMinLane = 64;

    /// Calls body(std::integral_constant<int, K>) for K = 2 … 8, or with 0 for any other K.
    /// The root step's loops run over K; a compile-time K lets the compiler unroll them.
    template <typename Body> double dispatch(const Body& body) {
        switch (m_k) {
        case 2:
            return body(std::integral_constant<int, 2>{});
        case 3:
            return body(std::integral_constant<int, 3>{});
        case 4:
            return body(std::integral_constant<int, 4>{});
        case 5:
            return body(std::integral_constant<int, 5>{});
        case 6:
            return body(std::integral_constant<int, 6>{});
        case 7:
            return body(std::integral_constant<int, 7>{});
        case 8:
            return body(std::integral_constant<int, 8>{});
        default:
            return body(std::integral_constant<int, 0>{});
        }
    }

    using Codes = std::vector<const std::uint16_t*>;

    Codes codesOf(const MultiCellTracks& tracks, int chrom) const {
        Codes codes;
        for (const int node : m_nodes) {
            codes.push_back(
                tracks.codes[static_cast<size_t>(node)][static_cast<size_t>(chrom)].data());
        }
        return codes;
    }

    /// One forward step: α_t from α_{t−1} (or the start), times e_t, normalised, stored as
    /// float in `stored` (stored α = 0 means exactly unreachable). Returns log of the normaliser.
    template <int KC>
    double forwardBin(const Codes& codes, size_t t, std::vector<double>& a, std::vector<double>& e,
                      float* stored) {
        emission(codes, t, e);
        if (t == 0) {
            start(a);
        } else {
            forward<KC>(a);
        }
        return scaleAndStoreAlpha(a, e, stored);
    }

    /// One backward step: β_t = P · (e_{t+1} ∘ β_{t+1}) (β_t = 1 at the last bin).
    template <int KC>
    void backwardBin(const Codes& codes, size_t t, size_t length, std::vector<double>& beta,
                     std::vector<double>& e) {
        if (t + 1 < length) {
            emission(codes, t + 1, e);
            for (size_t i = 0; i < beta.size(); ++i) {
                beta[i] *= e[i];
            }
            backward<KC>(beta);
        }
    }

    /// The arg-max of each wanted node's marginal of the posterior in m_next, into out at bin t.
    void decodeBin(size_t t, const std::vector<int>& wanted,
                   std::vector<std::vector<std::uint16_t>*>& out, std::vector<double>& marginal) {
        for (size_t w = 0; w < wanted.size(); ++w) {
            nodeMarginal(static_cast<size_t>(wanted[w]), marginal);
            (*out[w])[t] = static_cast<std::uint16_t>(
                std::max_element(marginal.begin(), marginal.end()) - marginal.begin());
        }
    }

    template <int KC>
    double runK(const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
                std::vector<std::vector<std::uint16_t>*>& out, const CancelToken& cancel) {
        const auto length = static_cast<size_t>(tracks.chromBins[static_cast<size_t>(chrom)]);
        const auto n = static_cast<size_t>(m_size);
        float* alphas = threadAlphaBuffer(tracks, n);
        const Codes codes = codesOf(tracks, chrom);
        std::vector<double> a(n), e(n);
        double logLik = 0;
        for (size_t t = 0; t < length; ++t) {
            if (t % kCancelCheckBins == 0) {
                throwIfCancelled(cancel);
            }
            logLik += forwardBin<KC>(codes, t, a, e, alphas + t * n);
        }
        std::vector<double> beta(n, 1.0), marginal(static_cast<size_t>(m_k));
        for (size_t tt = length; tt-- > 0;) {
            if (tt % kCancelCheckBins == 0) {
                throwIfCancelled(cancel);
            }
            backwardBin<KC>(codes, tt, length, beta, e);
            const float* stored = alphas + tt * n;
            scaleToLargest(beta, largestZeroingUnreached(stored, beta));
            // The posterior (up to a constant) in m_next; each wanted node's marginal sums it
            // over blocks first (vector adds), then over the offsets within a digit.
            for (size_t i = 0; i < n; ++i) {
                m_next[i] = static_cast<double>(stored[i]) * beta[i];
            }
            decodeBin(tt, wanted, out, marginal);
        }
        return logLik;
    }

    template <int KC>
    double runSplitK(const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
                     std::vector<std::vector<std::uint16_t>*>& out, const CancelToken& cancel) {
        const auto length = static_cast<size_t>(tracks.chromBins[static_cast<size_t>(chrom)]);
        const auto n = static_cast<size_t>(m_size);
        const size_t half = length / 2;
        // Where α = 0 in the second half, known before the forward pass gets there.
        const std::vector<char> reach = half > 0 ? settledReach<KC>(half) : std::vector<char>();
        if (reach.empty()) {
            return runK<KC>(tracks, chrom, wanted, out, cancel);
        }
        MetaChain other(*this); // its own scratch vectors for the second thread
        const Codes codes = codesOf(tracks, chrom);
        // Messages of one half each: α of the first (forward), β of the second (backward).
        const std::unique_ptr<float[]> alphas(new float[half * n]);
        const std::unique_ptr<float[]> betas(new float[(length - half) * n]);
        std::vector<double> a(n), beta(n, 1.0);
        double logLik = 0;
        parallelFor(2, [&](std::int64_t part) {
            std::vector<double> e(n);
            if (part == 0) {
                for (size_t t = 0; t < half; ++t) {
                    if (t % kCancelCheckBins == 0) {
                        throwIfCancelled(cancel);
                    }
                    logLik += forwardBin<KC>(codes, t, a, e, alphas.get() + t * n);
                }
                return;
            }
            for (size_t t = length; t-- > half;) {
                if (t % kCancelCheckBins == 0) {
                    throwIfCancelled(cancel);
                }
                other.backwardBin<KC>(codes, t, length, beta, e);
                double largest = 0;
                for (size_t i = 0; i < n; ++i) {
                    beta[i] = reach[i] != 0 ? beta[i] : 0.0;
                    largest = std::max(largest, beta[i]);
                }
                scaleToLargest(beta, largest);
                float* stored = betas.get() + (t - half) * n;
                for (size_t i = 0; i < n; ++i) {
                    stored[i] =
                        beta[i] > 0 ? std::max(static_cast<float>(beta[i]), kTinyFloat) : 0.0f;
                }
            }
        });
        parallelFor(2, [&](std::int64_t part) {
            std::vector<double> e(n), marginal(static_cast<size_t>(m_k));
            if (part == 0) { // α on into the second half, decoded with its stored β
                std::vector<float> row(n);
                for (size_t t = half; t < length; ++t) {
                    if (t % kCancelCheckBins == 0) {
                        throwIfCancelled(cancel);
                    }
                    logLik += forwardBin<KC>(codes, t, a, e, row.data());
                    const float* stored = betas.get() + (t - half) * n;
                    for (size_t i = 0; i < n; ++i) {
                        m_next[i] = a[i] * static_cast<double>(stored[i]);
                    }
                    decodeBin(t, wanted, out, marginal);
                }
                return;
            }
            for (size_t t = half; t-- > 0;) { // β on into the first half, with its stored α
                if (t % kCancelCheckBins == 0) {
                    throwIfCancelled(cancel);
                }
                other.backwardBin<KC>(codes, t, length, beta, e);
                const float* stored = alphas.get() + t * n;
                scaleToLargest(beta, largestZeroingUnreached(stored, beta));
                for (size_t i = 0; i < n; ++i) {
                    other.m_next[i] = static_cast<double>(stored[i]) * beta[i];
                }
                other.decodeBin(t, wanted, out, marginal);
            }
        });
        return logLik;
    }

    /// The meta-states the forward pass can reach at every bin from `from` on (α > 0 up to
    /// underflow; emissions are never 0), as 0/1 — or empty when they have not settled by then.
    /// Reach(0) = support of the start; Reach(t+1) = the states with a non-zero transition from
    /// Reach(t), found by the node steps on 0/1 matrices. Once one step changes nothing, every
    /// later bin has the same set.
    template <int KC> std::vector<char> settledReach(size_t from) const {
        const auto toPattern = [](std::vector<double>& values) {
            for (double& v : values) {
                v = v > 0 ? 1.0 : 0.0;
            }
        };
        MetaChain pattern(*this);
        toPattern(pattern.m_root);
        toPattern(pattern.m_rootTransposed);
        for (auto& lanes : pattern.m_lanes) {
            toPattern(lanes);
        }
        const auto n = static_cast<size_t>(m_size);
        std::vector<double> reach(n);
        start(reach);
        toPattern(reach);
        for (size_t t = 0; t <= from; ++t) {
            std::vector<double> next = reach;
            pattern.forward<KC>(next);
            toPattern(next);
            if (next == reach) {
                return std::vector<char>(reach.begin(), reach.end());
            }
            reach.swap(next);
        }
        return {};
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

} // namespace cx::detail
