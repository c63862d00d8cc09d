#pragma once

// Hot inner loops of the moment passes (DocumentMoments), on raw CSR arrays and on their
// word-major chunks. Internal to core/topics: DocumentMoments is the interface.
//
// Runtime dispatch: each kernel is compiled for AVX-512, AVX2 + FMA and the baseline x86-64 and
// the loader picks the best the CPU has (GCC/clang target_clones), so a binary built with
// -DCX_NATIVE_ARCH=OFF still runs the passes with the wide vector units. No kernel reorders a
// floating-point sum by target (the vector lanes are independent columns) and the build turns
// FMA contraction off, so every target gives the same numbers.

#include <cstdint>
#include <span>
#include <vector>

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

/// Eight floats (32 bytes): one AVX2 register, half a Float16.
typedef float Float8 __attribute__((vector_size(32), aligned(4)));

/// The CSR arrays of a count matrix and the documents a pass runs over.
struct CsrView {
    const std::int64_t* rowPtr = nullptr;
    const std::int32_t* colIdx = nullptr;
    const float* counts = nullptr;
    const std::int64_t* documents = nullptr; ///< rows of the pass, in order
};

/// Most documents in one word-major chunk (their index within the chunk is 16 bits).
constexpr std::int64_t kMaxChunkDocuments = 65536;

/// One chunk of documents in word-major order (buildWordMajorChunk): the chunk's non-zeros
/// grouped by word, words ascending, documents ascending within a word. The range finder's
/// products and the projection pass run over it so that X (or U) and the accumulators are read
/// in word order, once per word and chunk, and only the chunk's own rows y (in cache) are
/// gathered and scattered at random.
/// About 6 bytes per non-zero plus 8 per distinct word of the chunk.
struct WordMajorChunk {
    std::vector<std::int32_t> words;     ///< distinct words of the chunk, ascending
    std::vector<std::int32_t> wordStart; ///< entries of words[k]: [wordStart[k], wordStart[k+1])
    /// Per entry: the document's index within the chunk (in storage the caller owns).
    std::span<std::uint16_t> document;
    std::span<float> count;    ///< per entry: c_i (in storage the caller owns)
    std::vector<float> weight; ///< per document of the chunk: w[n] rounded to float
};

/// Fills `out` with documents [begin, end) of `csr` (at most kMaxChunkDocuments) in word-major
/// order and adds w[n]·c_i to diag[i] (in double, document order) for every non-zero. The
/// entries go to document[0..nnz) and count[0..nnz) (nnz = the documents' non-zeros, which the
/// caller has room for); `out.document` and `out.count` view them. `fill` is scratch of one
/// zero per vocabulary word, left zero.
void buildWordMajorChunk(const CsrView& csr, const double* w, std::int64_t begin, std::int64_t end,
                         std::vector<std::int32_t>& fill, std::uint16_t* document, float* count,
                         WordMajorChunk& out, double* diag);

/// y_n = Σ_i c_i X_i for every document n of the chunk (y: rows of `blocks` Float16, zeroed by
/// the caller), summed word by word in ascending word order.
void m2GatherWordMajor(const WordMajorChunk& chunk, const Float16* x, int blocks, Float16* y);

/// acc_i += Σ_n (w[n]·c_i)·y_n for every word i of the chunk, in single precision: each word's
/// sum over the chunk's documents in two interleaved partial sums by entry parity (w[n]·c_i as
/// a float product), then added to row i of `acc` (D rows of `blocks` Float16).
void m2ScatterWordMajor(const WordMajorChunk& chunk, const Float16* y, int blocks, Float16* acc);

/// Projection pass, double precision: y_n = Σ_i c_i U_i for every document n of the chunk (U:
/// D rows of r doubles; y: the chunk's rows of r doubles, zeroed by the caller), summed word by
/// word in ascending word order.
void projectGatherWordMajor(const WordMajorChunk& chunk, const double* u, std::int64_t r,
                            double* y);

/// Projection pass, the per-word sums of a chunk whose first document is number `first` of
/// the pass (w2, w3 indexed by that number): for every word i of the chunk, g_i += Σ_n
/// (w3[n]·c_i)·y_n (rows of r doubles), s2_i += Σ_n w2[n]·c_i, s3_i += Σ_n w3[n]·c_i and s2Odd_i +=
/// the s2 terms of odd-numbered documents, each summed over the word's entries in order, then
/// added. `sum` is scratch of r.
void projectScatterWordMajor(const WordMajorChunk& chunk, std::int64_t first, const double* y,
                             std::int64_t r, const double* w2, const double* w3, double* g,
                             double* s2, double* s3, double* s2Odd, double* sum);

/// M3(I, v, v) over documents [begin, end) (DocumentMoments::m3Contract): acc += Σ_n w[n]·
/// (⟨c,v⟩² c − 2⟨c,v⟩ c∘v − ⟨c,v∘v⟩ c + 2 c∘v∘v). `scratch` holds at least the longest
/// document's non-zero count. The two inner products are summed in four interleaved partial
/// sums each (positions mod 4), then combined ((s0 + s1) + (s2 + s3)): a fixed order.
void m3Contract(const CsrView& csr, const double* w, std::int64_t begin, std::int64_t end,
                const double* v, double* acc, double* scratch);

} // namespace cx::moment_kernels
