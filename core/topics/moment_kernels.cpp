#include "core/topics/moment_kernels.h"

#include <algorithm>

namespace cx::moment_kernels {

void buildWordMajorChunk(const CsrView& csr, const double* w, std::int64_t begin, std::int64_t end,
                         std::vector<std::int32_t>& fill, std::uint16_t* document, float* count,
                         WordMajorChunk& out, double* diag) {
    const std::int32_t* colIdx = csr.colIdx;
    const float* counts = csr.counts;
    std::int64_t total = 0;
    for (std::int64_t n = begin; n < end; ++n) {
        const std::int64_t row = csr.documents[n];
        for (std::int64_t p = csr.rowPtr[row]; p < csr.rowPtr[row + 1]; ++p) {
            ++fill[static_cast<size_t>(colIdx[p])];
        }
        total += csr.rowPtr[row + 1] - csr.rowPtr[row];
    }
    std::int64_t distinct = 0;
    for (const std::int32_t count : fill) {
        distinct += count != 0 ? 1 : 0;
    }
    out.words.resize(static_cast<size_t>(distinct));
    out.wordStart.resize(static_cast<size_t>(distinct + 1));
    std::int32_t start = 0;
    size_t k = 0;
    for (size_t i = 0; i < fill.size(); ++i) {
        if (fill[i] != 0) {
            out.words[k] = static_cast<std::int32_t>(i);
            out.wordStart[k++] = start;
            start += fill[i];
            fill[i] = out.wordStart[k - 1]; // becomes the next free entry of word i
        }
    }
    out.wordStart[k] = start;
    out.document = std::span<std::uint16_t>(document, static_cast<size_t>(total));
    out.count = std::span<float>(count, static_cast<size_t>(total));
    out.weight.resize(static_cast<size_t>(end - begin));
    for (std::int64_t n = begin; n < end; ++n) {
        const std::int64_t row = csr.documents[n];
        const double weight = w[n];
        const auto local = static_cast<std::uint16_t>(n - begin);
        out.weight[static_cast<size_t>(n - begin)] = static_cast<float>(weight);
        for (std::int64_t p = csr.rowPtr[row]; p < csr.rowPtr[row + 1]; ++p) {
            const std::int32_t word = colIdx[p];
            const auto e = static_cast<size_t>(fill[static_cast<size_t>(word)]++);
            out.document[e] = local;
            out.count[e] = counts[p];
            diag[word] += weight * static_cast<double>(counts[p]);
        }
    }
    for (const std::int32_t word : out.words) {
        fill[static_cast<size_t>(word)] = 0;
    }
}

namespace {

// The bodies of the two M2 kernels for a row of Blocks 16-float blocks, inlined into each
// dispatched clone (the gather up to 4 blocks, 64 floats; the scatter, whose per-half sums must
// stay in registers, up to 2). A non-zero's whole row is visited at once (both 64-byte halves of a
// 30-wide row, adjacent lines) instead of one block of every row after another; each sum still runs
// over the same terms in the same order, so the numbers are the same.

// The gather's unit of work: where the registers hold 16 floats, a whole Float16; elsewhere
// (AVX2, and every clone of a dispatched build, which is compiled for the baseline) 8-float
// halves, like the scatter — there GCC builds c·(16 floats) by storing c sixteen times to the
// stack and reloading it, a store-forwarding stall per non-zero (3× the range finding's time on
// an AMD Zen 5 running the AVX2 code).
#if defined(__AVX512F__)
using GatherUnit = Float16;
#else
using GatherUnit = Float8;
#endif
constexpr int kGatherUnitsPerBlock = static_cast<int>(sizeof(Float16) / sizeof(GatherUnit));

template <int Blocks>
[[gnu::always_inline]] inline void gatherRows(const WordMajorChunk& chunk, const Float16* x,
                                              Float16* y) {
    constexpr int kUnits = Blocks * kGatherUnitsPerBlock;
    const std::uint16_t* document = chunk.document.data();
    const float* count = chunk.count.data();
    const auto* xUnits = reinterpret_cast<const GatherUnit*>(x);
    auto* yUnits = reinterpret_cast<GatherUnit*>(y);
    const size_t numWords = chunk.words.size();
    for (size_t k = 0; k < numWords; ++k) {
        const GatherUnit* xi = xUnits + static_cast<std::int64_t>(chunk.words[k]) * kUnits;
        GatherUnit xb[kUnits];
        for (int u = 0; u < kUnits; ++u) {
            xb[u] = xi[u];
        }
        const std::int64_t last = chunk.wordStart[k + 1];
        for (std::int64_t e = chunk.wordStart[k]; e < last; ++e) {
            GatherUnit* row = yUnits + static_cast<std::int64_t>(document[e]) * kUnits;
            const float c = count[e];
            for (int u = 0; u < kUnits; ++u) {
                row[u] += c * xb[u];
            }
        }
    }
}

/// Per word, every half of the row summed in two interleaved partial sums by entry parity.
template <int Blocks>
[[gnu::always_inline]] inline void scatterRows(const WordMajorChunk& chunk, const Float16* y,
                                               Float16* acc) {
    constexpr int kHalves = 2 * Blocks;
    const std::uint16_t* document = chunk.document.data();
    const float* count = chunk.count.data();
    const float* weight = chunk.weight.data();
    const auto* halves = reinterpret_cast<const Float8*>(y);
    auto* accHalves = reinterpret_cast<Float8*>(acc);
    const size_t numWords = chunk.words.size();
    for (size_t k = 0; k < numWords; ++k) {
        Float8* out = accHalves + static_cast<std::int64_t>(chunk.words[k]) * kHalves;
        const std::int64_t first = chunk.wordStart[k];
        const std::int64_t last = chunk.wordStart[k + 1];
        Float8 even[kHalves] = {};
        Float8 odd[kHalves] = {};
        std::int64_t e = first;
        for (; e + 1 < last; e += 2) {
            const Float8* ye = halves + document[e] * kHalves;
            const Float8* yo = halves + document[e + 1] * kHalves;
            const float we = weight[document[e]] * count[e];
            const float wo = weight[document[e + 1]] * count[e + 1];
            for (int h = 0; h < kHalves; ++h) {
                even[h] += we * ye[h];
                odd[h] += wo * yo[h];
            }
        }
        if (e < last) {
            const Float8* ye = halves + document[e] * kHalves;
            const float we = weight[document[e]] * count[e];
            for (int h = 0; h < kHalves; ++h) {
                even[h] += we * ye[h];
            }
        }
        for (int h = 0; h < kHalves; ++h) {
            out[h] += even[h] + odd[h];
        }
    }
}

} // namespace

CX_DISPATCHED_KERNEL
void m2GatherWordMajor(const WordMajorChunk& chunk, const Float16* x, int blocks, Float16* y) {
    if (blocks == 1) {
        gatherRows<1>(chunk, x, y);
        return;
    }
    if (blocks == 2) {
        gatherRows<2>(chunk, x, y);
        return;
    }
    if (blocks == 3) {
        gatherRows<3>(chunk, x, y);
        return;
    }
    if (blocks == 4) {
        gatherRows<4>(chunk, x, y);
        return;
    }
    const std::uint16_t* document = chunk.document.data();
    const float* count = chunk.count.data();
    const size_t numWords = chunk.words.size();
    for (size_t k = 0; k < numWords; ++k) {
        const Float16* xi = x + static_cast<std::int64_t>(chunk.words[k]) * blocks;
        const std::int64_t first = chunk.wordStart[k];
        const std::int64_t last = chunk.wordStart[k + 1];
        const auto* xu = reinterpret_cast<const GatherUnit*>(xi);
        auto* yUnits = reinterpret_cast<GatherUnit*>(y);
        const std::int64_t units = static_cast<std::int64_t>(blocks) * kGatherUnitsPerBlock;
        for (std::int64_t u = 0; u < units; ++u) {
            const GatherUnit xb = xu[u];
            for (std::int64_t e = first; e < last; ++e) {
                yUnits[static_cast<std::int64_t>(document[e]) * units + u] += count[e] * xb;
            }
        }
    }
}

CX_DISPATCHED_KERNEL
void m2ScatterWordMajor(const WordMajorChunk& chunk, const Float16* y, int blocks, Float16* acc) {
    if (blocks == 1) {
        scatterRows<1>(chunk, y, acc);
        return;
    }
    if (blocks == 2) {
        scatterRows<2>(chunk, y, acc);
        return;
    }
    // The sums are kept in 8-float halves: GCC lowers a long-lived 16-float vector badly
    // where the registers are narrower (AVX2 keeps it on the stack, through GPRs).
    const std::uint16_t* document = chunk.document.data();
    const float* count = chunk.count.data();
    const float* weight = chunk.weight.data();
    const auto* halves = reinterpret_cast<const Float8*>(y);
    auto* accHalves = reinterpret_cast<Float8*>(acc);
    const std::int64_t rowHalves = 2 * static_cast<std::int64_t>(blocks);
    const size_t numWords = chunk.words.size();
    for (size_t k = 0; k < numWords; ++k) {
        Float8* out = accHalves + static_cast<std::int64_t>(chunk.words[k]) * rowHalves;
        const std::int64_t first = chunk.wordStart[k];
        const std::int64_t last = chunk.wordStart[k + 1];
        for (std::int64_t h = 0; h < rowHalves; h += 2) {
            Float8 even0 = {};
            Float8 even1 = {};
            Float8 odd0 = {};
            Float8 odd1 = {};
            std::int64_t e = first;
            for (; e + 1 < last; e += 2) {
                const Float8* ye = halves + document[e] * rowHalves + h;
                const Float8* yo = halves + document[e + 1] * rowHalves + h;
                const float we = weight[document[e]] * count[e];
                const float wo = weight[document[e + 1]] * count[e + 1];
                even0 += we * ye[0];
                even1 += we * ye[1];
                odd0 += wo * yo[0];
                odd1 += wo * yo[1];
            }
            if (e < last) {
                const Float8* ye = halves + document[e] * rowHalves + h;
                const float we = weight[document[e]] * count[e];
                even0 += we * ye[0];
                even1 += we * ye[1];
            }
            out[h] += even0 + odd0;
            out[h + 1] += even1 + odd1;
        }
    }
}

CX_DISPATCHED_KERNEL
void projectGatherWordMajor(const WordMajorChunk& chunk, const double* u, std::int64_t r,
                            double* y) {
    const std::uint16_t* document = chunk.document.data();
    const float* count = chunk.count.data();
    const size_t numWords = chunk.words.size();
    for (size_t k = 0; k < numWords; ++k) {
        const double* ui = u + static_cast<std::int64_t>(chunk.words[k]) * r;
        for (std::int64_t e = chunk.wordStart[k]; e < chunk.wordStart[k + 1]; ++e) {
            const double c = count[e];
            double* yn = y + static_cast<std::int64_t>(document[e]) * r;
            for (std::int64_t a = 0; a < r; ++a) {
                yn[a] += c * ui[a];
            }
        }
    }
}

CX_DISPATCHED_KERNEL
void projectScatterWordMajor(const WordMajorChunk& chunk, std::int64_t first, const double* y,
                             std::int64_t r, const double* w2, const double* w3, double* g,
                             double* s2, double* s3, double* s2Odd, double* sum) {
    const std::uint16_t* document = chunk.document.data();
    const float* count = chunk.count.data();
    const size_t numWords = chunk.words.size();
    for (size_t k = 0; k < numWords; ++k) {
        std::fill(sum, sum + r, 0.0);
        double sum2 = 0;
        double sum3 = 0;
        double sumOdd = 0;
        for (std::int64_t e = chunk.wordStart[k]; e < chunk.wordStart[k + 1]; ++e) {
            const std::int64_t n = first + document[e];
            const double c = count[e];
            const double f3 = w3[n] * c;
            const double* yn = y + static_cast<std::int64_t>(document[e]) * r;
            for (std::int64_t a = 0; a < r; ++a) {
                sum[a] += f3 * yn[a];
            }
            const double f2 = w2[n] * c;
            sum2 += f2;
            sum3 += f3;
            sumOdd += (n & 1) != 0 ? f2 : 0.0;
        }
        const std::int32_t word = chunk.words[k];
        double* gi = g + static_cast<std::int64_t>(word) * r;
        for (std::int64_t a = 0; a < r; ++a) {
            gi[a] += sum[a];
        }
        s2[word] += sum2;
        s3[word] += sum3;
        s2Odd[word] += sumOdd;
    }
}

CX_DISPATCHED_KERNEL
void m3Contract(const CsrView& csr, const double* w, std::int64_t begin, std::int64_t end,
                const double* v, double* acc, double* scratch) {
    const std::int32_t* colIdx = csr.colIdx;
    const float* counts = csr.counts;
    for (std::int64_t n = begin; n < end; ++n) {
        const std::int64_t row = csr.documents[n];
        const std::int64_t first = csr.rowPtr[row];
        const std::int64_t length = csr.rowPtr[row + 1] - first;
        const std::int32_t* idx = colIdx + first;
        const float* c = counts + first;
        double cv[4] = {0, 0, 0, 0};  // ⟨c, v⟩ by position mod 4
        double cvv[4] = {0, 0, 0, 0}; // ⟨c, v∘v⟩
        std::int64_t p = 0;
        for (; p + 3 < length; p += 4) {
            for (int lane = 0; lane < 4; ++lane) {
                const double vi = v[idx[p + lane]];
                const double ci = c[p + lane];
                scratch[p + lane] = vi;
                cv[lane] += ci * vi;
                cvv[lane] += ci * vi * vi;
            }
        }
        for (int lane = 0; p < length; ++p, ++lane) {
            const double vi = v[idx[p]];
            const double ci = c[p];
            scratch[p] = vi;
            cv[lane] += ci * vi;
            cvv[lane] += ci * vi * vi;
        }
        const double sv = (cv[0] + cv[1]) + (cv[2] + cv[3]);
        const double svv = (cvv[0] + cvv[1]) + (cvv[2] + cvv[3]);
        // ⟨c,v⟩² c − 2⟨c,v⟩ (c∘v) − ⟨c, v∘v⟩ c + 2 c∘v∘v, entry by entry.
        const double weight = w[n];
        const double base = sv * sv - svv;
        const double slope = 2.0 * sv;
        for (p = 0; p < length; ++p) {
            const double vi = scratch[p];
            acc[idx[p]] += weight * c[p] * (base - slope * vi + 2.0 * vi * vi);
        }
    }
}

} // namespace cx::moment_kernels
