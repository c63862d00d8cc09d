#pragma once

// Hot inner loops of the moment passes (DocumentMoments), on raw CSR arrays. Internal to
// core/topics: DocumentMoments is the interface.
//
// Runtime dispatch: each kernel is compiled for AVX-512, AVX2 + FMA and the baseline x86-64 and
// the loader picks the best the CPU has (GCC/clang target_clones), so a binary built with
// -DCX_NATIVE_ARCH=OFF still runs the passes with the wide vector units. No kernel reorders a
// floating-point sum by target (the vector lanes are independent columns) and the build turns
// FMA contraction off, so every target gives the same numbers.

#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CX_NO_DISPATCH)
#define CX_DISPATCHED_KERNEL                                                                       \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CX_DISPATCHED_KERNEL
#endif

namespace cx::moment_kernels {

/// Sixteen floats (64 bytes), the unit of the single-precision passes: GCC/clang vector
/// extensions, lowered to one AVX-512, two AVX2 or four SSE registers. Declared with the
/// alignment of a float, so loads and stores are unaligned ones: a std::vector of them is not
/// 64-byte aligned in a build without AVX-512, yet the AVX-512 clone must not fault on it.
typedef float Float16 __attribute__((vector_size(64), aligned(4)));

/// The CSR arrays of a count matrix and the documents a pass runs over.
struct CsrView {
    const std::int64_t* rowPtr = nullptr;
    const std::int32_t* colIdx = nullptr;
    const float* counts = nullptr;
    const std::int64_t* documents = nullptr; ///< rows of the pass, in order
};

/// Single-precision M2·X over documents [begin, end): for each document n (row d = documents[n]),
/// y = Σ_i c_i X_i (X in rows of `blocks` Float16 blocks, i.e. 16·blocks columns), then
/// acc_i += (w[n]·c_i)·y for every word i of the document, and diag[i] += w[n]·c_i (in double).
/// `y` is scratch of `blocks` Float16. Within a document the gather sums its non-zeros in two
/// interleaved partial sums (even and odd positions), then adds them: a fixed order.
void m2GatherScatter(const CsrView& csr, const double* w, std::int64_t begin, std::int64_t end,
                     const Float16* x, int blocks, Float16* acc, double* diag, Float16* y);

/// M3(I, v, v) over documents [begin, end) (DocumentMoments::m3Contract): acc += Σ_n w[n]·
/// (⟨c,v⟩² c − 2⟨c,v⟩ c∘v − ⟨c,v∘v⟩ c + 2 c∘v∘v). `scratch` holds at least the longest
/// document's non-zero count. The two inner products are summed in four interleaved partial
/// sums each (positions mod 4), then combined ((s0 + s1) + (s2 + s3)): a fixed order.
void m3Contract(const CsrView& csr, const double* w, std::int64_t begin, std::int64_t end,
                const double* v, double* acc, double* scratch);

} // namespace cx::moment_kernels
