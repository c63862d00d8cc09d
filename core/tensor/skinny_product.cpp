#include "core/tensor/skinny_product.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CX_SKINNY_X86 1
#endif

namespace cx {

namespace {

// Every output is Σ_p a(i, p)·b(p, c) accumulated in order of p, one fused multiply-add per term
// (exactly rounded: AVX-512, AVX2 + FMA and the scalar std::fma give the same number), so the
// product does not depend on the CPU, the blocking or the thread count. `a` has kBlockRows-row
// blocks (zero-padded), `b` groups of kGroupColumns columns (zero-padded).

constexpr std::int64_t kBlockRows = 56;   ///< AVX-512: 7 registers of 8 rows
constexpr std::int64_t kGroupColumns = 3; ///< 21 sums + 7 loads fit 32 AVX-512 registers

void productScalar(const double* a, std::int64_t lda, std::int64_t inner, const double* b,
                   std::int64_t columns, double* out) {
    for (std::int64_t c = 0; c < columns; ++c) {
        for (std::int64_t i = 0; i < lda; ++i) {
            double sum = 0;
            for (std::int64_t p = 0; p < inner; ++p) {
                sum = std::fma(a[p * lda + i], b[c * inner + p], sum);
            }
            out[c * lda + i] = sum;
        }
    }
}

#ifdef CX_SKINNY_X86

[[maybe_unused]] __attribute__((target("avx512f"))) void
productAvx512(const double* a, std::int64_t lda, std::int64_t inner, const double* b,
              std::int64_t columns, double* out) {
    constexpr int kVectors = kBlockRows / 8;
    for (std::int64_t r0 = 0; r0 < lda; r0 += kBlockRows) {
        for (std::int64_t c0 = 0; c0 < columns; c0 += kGroupColumns) {
            __m512d sums[kGroupColumns][kVectors];
            for (auto& row : sums) {
                for (__m512d& sum : row) {
                    sum = _mm512_setzero_pd();
                }
            }
            const double* bc = b + c0 * inner;
            for (std::int64_t p = 0; p < inner; ++p) {
                const double* column = a + p * lda + r0;
                __m512d x[kVectors];
                for (int v = 0; v < kVectors; ++v) {
                    x[v] = _mm512_loadu_pd(column + 8 * v);
                }
                for (int c = 0; c < kGroupColumns; ++c) {
                    const __m512d factor = _mm512_set1_pd(bc[c * inner + p]);
                    for (int v = 0; v < kVectors; ++v) {
                        sums[c][v] = _mm512_fmadd_pd(x[v], factor, sums[c][v]);
                    }
                }
            }
            for (int c = 0; c < kGroupColumns; ++c) {
                for (int v = 0; v < kVectors; ++v) {
                    _mm512_storeu_pd(out + (c0 + c) * lda + r0 + 8 * v, sums[c][v]);
                }
            }
        }
    }
}

[[maybe_unused]] __attribute__((target("avx2,fma"))) void
productAvx2(const double* a, std::int64_t lda, std::int64_t inner, const double* b,
            std::int64_t columns, double* out) {
    constexpr int kVectors = 2; // 8 rows: 6 sums + 2 loads + a broadcast of 16 registers
    for (std::int64_t r0 = 0; r0 < lda; r0 += 4 * kVectors) {
        for (std::int64_t c0 = 0; c0 < columns; c0 += kGroupColumns) {
            __m256d sums[kGroupColumns][kVectors];
            for (auto& row : sums) {
                for (__m256d& sum : row) {
                    sum = _mm256_setzero_pd();
                }
            }
            const double* bc = b + c0 * inner;
            for (std::int64_t p = 0; p < inner; ++p) {
                const double* column = a + p * lda + r0;
                __m256d x[kVectors];
                for (int v = 0; v < kVectors; ++v) {
                    x[v] = _mm256_loadu_pd(column + 4 * v);
                }
                for (int c = 0; c < kGroupColumns; ++c) {
                    const __m256d factor = _mm256_set1_pd(bc[c * inner + p]);
                    for (int v = 0; v < kVectors; ++v) {
                        sums[c][v] = _mm256_fmadd_pd(x[v], factor, sums[c][v]);
                    }
                }
            }
            for (int c = 0; c < kGroupColumns; ++c) {
                for (int v = 0; v < kVectors; ++v) {
                    _mm256_storeu_pd(out + (c0 + c) * lda + r0 + 4 * v, sums[c][v]);
                }
            }
        }
    }
}

#endif

using ProductKernel = void (*)(const double*, std::int64_t, std::int64_t, const double*,
                               std::int64_t, double*);

/// The widest kernel this CPU runs (chosen once); with CX_NO_DISPATCH, the widest the build's
/// own target has.
ProductKernel productKernel() {
#if defined(CX_SKINNY_X86) && defined(CX_NO_DISPATCH)
#if defined(__AVX512F__)
    return &productAvx512;
#elif defined(__AVX2__) && defined(__FMA__)
    return &productAvx2;
#else
    return &productScalar;
#endif
#elif defined(CX_SKINNY_X86)
    static const ProductKernel kernel = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f")) {
            return &productAvx512;
        }
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
            return &productAvx2;
        }
        return &productScalar;
    }();
    return kernel;
#else
    return &productScalar;
#endif
}

} // namespace

PaddedRows PaddedRows::of(const Eigen::MatrixXd& a) {
    PaddedRows padded;
    padded.rows = a.rows();
    padded.values =
        Eigen::MatrixXd::Zero((a.rows() + kBlockRows - 1) / kBlockRows * kBlockRows, a.cols());
    padded.values.topRows(a.rows()) = a;
    return padded;
}

namespace {

Eigen::MatrixXd productWith(ProductKernel kernel, const PaddedRows& a, const Eigen::MatrixXd& b) {
    if (a.values.cols() != b.rows()) {
        throw std::invalid_argument("skinnyProduct: " + std::to_string(a.values.cols()) +
                                    " columns times " + std::to_string(b.rows()) + " rows");
    }
    const Eigen::Index columns = (b.cols() + kGroupColumns - 1) / kGroupColumns * kGroupColumns;
    Eigen::MatrixXd padded = Eigen::MatrixXd::Zero(b.rows(), columns);
    padded.leftCols(b.cols()) = b;
    Eigen::MatrixXd out(a.values.rows(), columns);
    if (out.size() > 0 && b.rows() > 0) {
        kernel(a.values.data(), a.values.rows(), a.values.cols(), padded.data(), columns,
               out.data());
    } else {
        out.setZero();
    }
    return out.topLeftCorner(a.rows, b.cols());
}

} // namespace

Eigen::MatrixXd skinnyProduct(const PaddedRows& a, const Eigen::MatrixXd& b) {
    return productWith(productKernel(), a, b);
}

Eigen::MatrixXd skinnyProductPortable(const PaddedRows& a, const Eigen::MatrixXd& b) {
    return productWith(&productScalar, a, b);
}

} // namespace cx
