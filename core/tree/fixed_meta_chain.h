#pragma once

// Internal to tree_decoding.cpp: the forward–backward over a tree's meta-states with K and the
// number of nodes fixed at compile time.

#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_hmm.h"

#include "core/common/cancel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace cx::detail {

/// Smallest positive float: a positive α below float range is stored as this, so that a stored
/// α = 0 means exactly unreachable.
constexpr float kTinyFloat = std::numeric_limits<float>::denorm_min();

/// Both chains check the cancel token every this many bins of each pass (a whole human
/// chromosome at 200 bp is 1.2 M bins: cancelling must not wait for it).
constexpr size_t kCancelCheckBins = 4096;

/// The end of one scaled forward step, shared by MetaChain and FixedMetaChain: α ← α ∘ e,
/// normalised to sum 1 (uniform when nothing is reachable), stored as float in `stored`.
/// Returns log of the normaliser. `Vector` is std::vector<double> or std::array<double, n>
/// (then every bound is a constant).
template <typename Vector>
inline double scaleAndStoreAlpha(Vector& a, const Vector& e, float* stored) {
    const size_t n = a.size();
    // Summed in 8 interleaved lanes (vector adds instead of one chain of n dependent adds),
    // then the lanes in order: the same sum for every n, CPU and build.
    constexpr size_t kSumLanes = 8;
    std::array<double, kSumLanes> lanes{};
    size_t i = 0;
    for (; i + kSumLanes <= n; i += kSumLanes) {
        for (size_t l = 0; l < kSumLanes; ++l) {
            a[i + l] *= e[i + l];
            lanes[l] += a[i + l];
        }
    }
    for (; i < n; ++i) {
        a[i] *= e[i];
        lanes[i % kSumLanes] += a[i];
    }
    double sum = 0;
    for (const double lane : lanes) {
        sum += lane;
    }
    if (!(sum > 0)) {
        std::fill(a.begin(), a.end(), 1.0 / static_cast<double>(n));
        sum = 1e-300;
    } else {
        const double inv = 1.0 / sum;
        for (double& v : a) {
            v *= inv;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        stored[i] = a[i] > 0 ? std::max(static_cast<float>(a[i]), kTinyFloat) : 0.0f;
    }
    return std::log(sum);
}

/// The forward messages of the longest chromosome of `tracks` at n meta-states per bin (float),
/// in a buffer kept per thread and shared by both chains: allocating and zeroing ~50 MB per
/// chromosome costs more than the recursion (every value is written before it is read).
inline float* threadAlphaBuffer(const MultiCellTracks& tracks, size_t n) {
    thread_local std::vector<float> alphas;
    std::int64_t longest = 0;
    for (auto bins : tracks.chromBins) {
        longest = std::max(longest, bins);
    }
    if (alphas.size() < static_cast<size_t>(longest) * n) {
        alphas = std::vector<float>(static_cast<size_t>(longest) * n);
    }
    return alphas.data();
}

/// β ← 0 where the stored α is 0; returns max β. Shared by both chains. The maximum of
/// non-negative numbers does not depend on the order: running maxima of 8 lanes (vector), then
/// of the lanes. `Vector` is std::vector<double> or std::array<double, n>.
template <typename Vector>
inline double largestZeroingUnreached(const float* stored, Vector& beta) {
    constexpr size_t kLanes = 8;
    const size_t n = beta.size();
    const size_t whole = n - n % kLanes; // meta-states in whole groups of kLanes
    std::array<double, kLanes> most{};
    for (size_t i = 0; i < whole; i += kLanes) {
        for (size_t l = 0; l < kLanes; ++l) {
            const double b = stored[i + l] == 0.0f ? 0.0 : beta[i + l];
            beta[i + l] = b;
            most[l] = most[l] < b ? b : most[l];
        }
    }
    double largest = 0;
    for (size_t i = whole; i < n; ++i) {
        beta[i] = stored[i] == 0.0f ? 0.0 : beta[i];
        largest = std::max(largest, beta[i]);
    }
    for (const double m : most) {
        largest = std::max(largest, m);
    }
    return largest;
}

/// β is only needed up to a constant per bin (the marginals are normalised by the argmax).
/// A meta-state the forward pass cannot reach (α = 0: exact zeros in the transitions) has no
/// posterior mass and its β feeds only the β of other unreachable states, but left alone it
/// grows relative to the reachable ones along a chromosome (by b/c per bin, c the forward
/// normaliser) until it overflows, inf·0 = NaN reaches every state and every earlier bin
/// decodes as state 0. Hence: β = 0 where α = 0 (largestZeroingUnreached, or a known set of
/// reachable states), then β scaled to max 1 here (never overflows; changes no argmax).
template <typename Vector> inline void scaleToLargest(Vector& beta, double largest) {
    if (largest > 0 && std::isfinite(largest)) {
        const double inv = 1.0 / largest;
        for (double& v : beta) {
            v *= inv;
        }
    }
}

/// tree_decoding.cpp's MetaChain with K and the number of nodes S fixed at compile time, for the
/// common small cases (a root-to-cell path, a small joint tree): the same operations in the same
/// order for every value, so the same results bit for bit, but every loop has constant bounds and
/// the tables are flat arrays (about 2.5× faster on the 9-cell star's paths, 2× on a 3-cell
/// joint).
template <int K, int S> class FixedMetaChain {
public:
    static constexpr int kStates = [] {
        int n = 1;
        for (int q = 0; q < S; ++q) {
            n *= K;
        }
        return n;
    }();
    static constexpr size_t kPrefetchBins = 16;
    static constexpr std::array<int, S + 1> kStride = [] {
        std::array<int, S + 1> out{};
        out[0] = 1;
        for (int q = 0; q < S; ++q) {
            out[q + 1] = out[q] * K;
        }
        return out;
    }();

    FixedMetaChain(const TreeHmmParameters& model, const std::vector<int>& nodes) : m_model(model) {
        for (int q = 0; q < S; ++q) {
            m_nodes[q] = nodes[static_cast<size_t>(q)];
            m_tables[q] = codeLikelihoods(model.emissions[static_cast<size_t>(m_nodes[q])]);
            const int parent = model.tree.parent[static_cast<size_t>(m_nodes[q])];
            m_parentPos[q] =
                static_cast<int>(std::find(nodes.begin(), nodes.end(), parent) - nodes.begin());
            const auto& mats = q == 0 ? std::vector<Eigen::MatrixXd>{model.rootTransitions}
                                      : model.childTransitions[static_cast<size_t>(m_nodes[q])];
            m_matrices[q].resize(mats.size() * K * K);
            m_transposed[q].resize(mats.size() * K * K);
            for (size_t p = 0; p < mats.size(); ++p) {
                for (int i = 0; i < K; ++i) {
                    for (int j = 0; j < K; ++j) {
                        m_matrices[q][p * K * K + i * K + j] = mats[p](i, j);
                        m_transposed[q][p * K * K + j * K + i] = mats[p](i, j);
                    }
                }
            }
        }
        for (int q = 0; q < S; ++q) {
            for (int i = 0; i < kStates; ++i) {
                m_digits[q][i] = static_cast<std::uint8_t>((i / kStride[q]) % K);
            }
        }
        for (int q = 1; q < S; ++q) {
            const int st = kStride[q];
            m_lanes[q].resize(static_cast<size_t>(K * K * st));
            for (int lo = 0; lo < st; ++lo) {
                const double* p = m_matrices[q].data() +
                                  static_cast<size_t>(m_digits[m_parentPos[q]][lo]) * K * K;
                for (int ij = 0; ij < K * K; ++ij) {
                    m_lanes[q][static_cast<size_t>(ij * st + lo)] = p[ij];
                }
            }
        }
    }

    /// As MetaChain::run: posterior-decodes one chromosome, writes the argmax of the marginal of
    /// the node at position wanted[w] into (*out[w])[t] and returns log P(x).
    double run(const MultiCellTracks& tracks, int chrom, const std::vector<int>& wanted,
               std::vector<std::vector<std::uint16_t>*>& out, const CancelToken& cancel) {
        const auto length = static_cast<size_t>(tracks.chromBins[static_cast<size_t>(chrom)]);
        constexpr auto n = static_cast<size_t>(kStates);
        float* alphas = threadAlphaBuffer(tracks, n);
        std::array<const std::uint16_t*, S> codes;
        for (int q = 0; q < S; ++q) {
            codes[q] =
                tracks.codes[static_cast<size_t>(m_nodes[q])][static_cast<size_t>(chrom)].data();
        }
        alignas(64) std::array<double, n> a, e, next;
        double logLik = 0;
        for (size_t t = 0; t < length; ++t) {
            if (t % kCancelCheckBins == 0) {
                throwIfCancelled(cancel);
            }
            emission(codes, t, e);
            if (t == 0) {
                start(a);
            } else {
                forward(a, next);
            }
            logLik += scaleAndStoreAlpha(a, e, alphas + t * n);
        }
        alignas(64) std::array<double, n> beta;
        beta.fill(1.0);
        for (size_t tt = length; tt-- > 0;) {
            if (tt % kCancelCheckBins == 0) {
                throwIfCancelled(cancel);
            }
            if (tt + 1 < length) {
                emission(codes, tt + 1, e);
                for (size_t i = 0; i < n; ++i) {
                    beta[i] *= e[i];
                }
                backward(beta, next);
            }
            const float* stored = alphas + tt * n;
            if (tt >= kPrefetchBins) { // α is read from the end: ask for it ahead
                const char* ahead = reinterpret_cast<const char*>(stored - kPrefetchBins * n);
                for (size_t byte = 0; byte < n * sizeof(float); byte += 64) {
                    __builtin_prefetch(ahead + byte);
                }
            }
            scaleToLargest(beta, largestZeroingUnreached(stored, beta)); // as MetaChain
            for (size_t w = 0; w < wanted.size(); ++w) {
                // Σ over the meta-states with digit d, in increasing index as MetaChain.
                const int stride = kStride[wanted[w]];
                std::array<double, K> marginal{};
                for (int d = 0; d < K; ++d) {
                    double sum = 0;
                    for (int hi = 0; hi < kStates; hi += stride * K) {
                        for (int lo = 0; lo < stride; ++lo) {
                            const int i = hi + d * stride + lo;
                            sum += static_cast<double>(stored[i]) * beta[static_cast<size_t>(i)];
                        }
                    }
                    marginal[d] = sum;
                }
                (*out[w])[tt] = static_cast<std::uint16_t>(
                    std::max_element(marginal.begin(), marginal.end()) - marginal.begin());
            }
        }
        return logLik;
    }

private:
    using States = std::array<double, static_cast<size_t>(kStates)>;

    /// e[i] = Π_q lik_q[digit q of i] over the nodes whose code is not missing (1 otherwise),
    /// multiplied in node order as MetaChain::emission.
    void emission(const std::array<const std::uint16_t*, S>& codes, size_t t, States& e) const {
        e.fill(1.0);
        emissionFrom<0>(codes, t, e);
    }
    template <int Q>
    void emissionFrom(const std::array<const std::uint16_t*, S>& codes, size_t t, States& e) const {
        if constexpr (Q < S) {
            const std::uint16_t code = codes[Q][t];
            if (code != kMissingObservation) {
                const double* lik = &m_tables[Q][static_cast<size_t>(code) * K];
                constexpr int st = kStride[Q];
                for (int hi = 0; hi < kStates; hi += st * K) {
                    for (int d = 0; d < K; ++d) {
                        const double l = lik[d];
                        double* row = e.data() + hi + d * st;
                        for (int lo = 0; lo < st; ++lo) {
                            row[lo] *= l;
                        }
                    }
                }
            }
            emissionFrom<Q + 1>(codes, t, e);
        }
    }

    void start(States& a) const {
        for (int i = 0; i < kStates; ++i) {
            double p = m_model.rootStart[m_digits[0][i]];
            for (int q = 1; q < S; ++q) {
                p *= m_model.occupancy[static_cast<size_t>(m_nodes[q])][m_digits[q][i]];
            }
            a[i] = p;
        }
    }

    /// a ← a · P node by node, as MetaChain::forward: every output is summed over the same
    /// terms in the same order, only several outputs at once (vectorised).
    void forward(States& a, States& next) const { forwardFrom<0>(a, next); }
    template <int Q> void forwardFrom(States& a, States& next) const {
        if constexpr (Q < S) {
            forwardNode<Q>(a.data(), next.data());
            a.swap(next);
            forwardFrom<Q + 1>(a, next);
        }
    }
    /// Node position Q (stride st = K^Q; base = hi + lo with lo < st and digit Q = 0):
    /// out[base + j·st] = Σ_i in[base + i·st] · P_base(i, j), i ascending.
    template <int Q> void forwardNode(const double* in, double* out) const {
        constexpr int st = kStride[Q];
        if constexpr (Q == 0) {
            // One matrix (the root's): the K outputs of a base side by side along P's rows.
            const double* p = m_matrices[0].data();
            for (int base = 0; base < kStates; base += K) {
                std::array<double, K> acc{};
                for (int i = 0; i < K; ++i) {
                    const double x = in[base + i];
                    for (int j = 0; j < K; ++j) {
                        acc[j] += x * p[i * K + j];
                    }
                }
                for (int j = 0; j < K; ++j) {
                    out[base + j] = acc[j];
                }
            }
        } else {
            // The st bases of a block side by side, each with its own matrix (lane table).
            const double* lanes = m_lanes[Q].data();
            for (int hi = 0; hi < kStates; hi += st * K) {
                for (int j = 0; j < K; ++j) {
                    std::array<double, st> acc{};
                    for (int i = 0; i < K; ++i) {
                        const double* x = in + hi + i * st;
                        const double* t = lanes + (i * K + j) * st;
                        for (int lo = 0; lo < st; ++lo) {
                            acc[lo] += x[lo] * t[lo];
                        }
                    }
                    for (int lo = 0; lo < st; ++lo) {
                        out[hi + j * st + lo] = acc[lo];
                    }
                }
            }
        }
    }

    /// g ← P · g node by node, deepest first, as MetaChain::backward (same terms, same order).
    void backward(States& g, States& next) const { backwardFrom<S - 1>(g, next); }
    template <int Q> void backwardFrom(States& g, States& next) const {
        if constexpr (Q >= 0) {
            backwardNode<Q>(g.data(), next.data());
            g.swap(next);
            backwardFrom<Q - 1>(g, next);
        }
    }
    /// out[base + i·st] = Σ_j P_base(i, j) · in[base + j·st], j ascending.
    template <int Q> void backwardNode(const double* in, double* out) const {
        constexpr int st = kStride[Q];
        if constexpr (Q == 0) {
            const double* pt = m_transposed[0].data(); // row j of Pᵀ = column j of P
            for (int base = 0; base < kStates; base += K) {
                std::array<double, K> acc{};
                for (int j = 0; j < K; ++j) {
                    const double x = in[base + j];
                    for (int i = 0; i < K; ++i) {
                        acc[i] += pt[j * K + i] * x;
                    }
                }
                for (int i = 0; i < K; ++i) {
                    out[base + i] = acc[i];
                }
            }
        } else {
            const double* lanes = m_lanes[Q].data();
            for (int hi = 0; hi < kStates; hi += st * K) {
                for (int i = 0; i < K; ++i) {
                    std::array<double, st> acc{};
                    for (int j = 0; j < K; ++j) {
                        const double* x = in + hi + j * st;
                        const double* t = lanes + (i * K + j) * st;
                        for (int lo = 0; lo < st; ++lo) {
                            acc[lo] += t[lo] * x[lo];
                        }
                    }
                    for (int lo = 0; lo < st; ++lo) {
                        out[hi + i * st + lo] = acc[lo];
                    }
                }
            }
        }
    }

    const TreeHmmParameters& m_model;
    std::array<int, S> m_nodes{};
    std::array<int, S> m_parentPos{};
    std::array<std::vector<double>, S> m_tables;
    std::array<std::vector<double>, S> m_matrices;   ///< per position: its matrices, row-major
    std::array<std::vector<double>, S> m_transposed; ///< the same, transposed
    /// Position q ≥ 1: lanes[(i·K + j)·K^q + lo] = P_lo(i, j), the matrix of the bases lo < K^q
    /// (chosen by their parent's digit), so the bases of a block run side by side.
    std::array<std::vector<double>, S> m_lanes;
    std::array<std::array<std::uint8_t, static_cast<size_t>(kStates)>, S> m_digits{};
};

} // namespace cx::detail
