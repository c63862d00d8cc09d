#include "core/tensor/skinny_product.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CX_SKINNY_X86 1
#endif

namespace cx {

namespace {

// Every output is Σ_p a(i, p)·b(p, c) accumulated in order of p, one fused multiply-add per term
// (exactly rounded: AVX-512, AVX2 + FMA and the scalar std::fma give the same number), so the
// product does not depend on the CPU, the blocking or the thread count. `a` has kBlockRows-row
// blocks (zero-padded), `b` in groups of kGroupColumns columns and a last group of one or two.

constexpr std::int64_t kBlockRows = PaddedRows::kBlockRows;             ///< 7 × 8 doubles
constexpr std::int64_t kBlockRowsSingle = PaddedRowsSingle::kBlockRows; ///< 4 × 16 floats
constexpr std::int64_t kGroupColumns = 3; ///< 21 sums + 7 loads fit 32 AVX-512 registers

template <typename Scalar>
void productScalar(const Scalar* a, std::int64_t lda, std::int64_t inner, const Scalar* b,
                   std::int64_t columns, Scalar* out) {
    for (std::int64_t c = 0; c < columns; ++c) {
        for (std::int64_t i = 0; i < lda; ++i) {
            Scalar sum = 0;
            for (std::int64_t p = 0; p < inner; ++p) {
                sum = std::fma(a[p * lda + i], b[c * inner + p], sum);
            }
            out[c * lda + i] = sum;
        }
    }
}

template <typename Scalar>
using ProductKernel = void (*)(const Scalar*, std::int64_t, std::int64_t, const Scalar*,
                               std::int64_t, Scalar*);

#ifdef CX_SKINNY_X86

// Keeps a loaded vector in its register. Without it GCC folds the load into every multiply-add
// that uses it (one memory operand per term: three times the loads, and on data not aligned to
// 64 bytes a split cache line each), which made the three-column kernels 1.9–3× slower (a step
// of three single-precision trials at K = 50: 5.5 µs instead of 2.9 µs). Changes no arithmetic.
#define CX_IN_REGISTER(v) asm("" : "+v"(v))

// One group of Cols (1 to 3) columns of b against every row block of a; a kernel runs its full
// groups of three and then the remaining one or two columns, so a step of one trial costs a
// third of a step of three.

template <int Cols>
__attribute__((target("avx512f"))) void
groupAvx512(const double* a, std::int64_t lda, std::int64_t inner, const double* bc, double* out) {
    constexpr int kVectors = kBlockRows / 8;
    for (std::int64_t r0 = 0; r0 < lda; r0 += kBlockRows) {
        __m512d sums[Cols][kVectors];
        for (auto& row : sums) {
            for (__m512d& sum : row) {
                sum = _mm512_setzero_pd();
            }
        }
        for (std::int64_t p = 0; p < inner; ++p) {
            const double* column = a + p * lda + r0;
            __m512d x[kVectors];
            for (int v = 0; v < kVectors; ++v) {
                x[v] = _mm512_loadu_pd(column + 8 * v);
                CX_IN_REGISTER(x[v]);
            }
            for (int c = 0; c < Cols; ++c) {
                const __m512d factor = _mm512_set1_pd(bc[c * inner + p]);
                for (int v = 0; v < kVectors; ++v) {
                    sums[c][v] = _mm512_fmadd_pd(x[v], factor, sums[c][v]);
                }
            }
        }
        for (int c = 0; c < Cols; ++c) {
            for (int v = 0; v < kVectors; ++v) {
                _mm512_storeu_pd(out + c * lda + r0 + 8 * v, sums[c][v]);
            }
        }
    }
}

template <int Cols>
__attribute__((target("avx2,fma"))) void
groupAvx2(const double* a, std::int64_t lda, std::int64_t inner, const double* bc, double* out) {
    constexpr int kVectors = 2; // 8 rows: 6 sums + 2 loads + a broadcast of 16 registers
    for (std::int64_t r0 = 0; r0 < lda; r0 += 4 * kVectors) {
        __m256d sums[Cols][kVectors];
        for (auto& row : sums) {
            for (__m256d& sum : row) {
                sum = _mm256_setzero_pd();
            }
        }
        for (std::int64_t p = 0; p < inner; ++p) {
            const double* column = a + p * lda + r0;
            __m256d x[kVectors];
            for (int v = 0; v < kVectors; ++v) {
                x[v] = _mm256_loadu_pd(column + 4 * v);
                CX_IN_REGISTER(x[v]);
            }
            for (int c = 0; c < Cols; ++c) {
                const __m256d factor = _mm256_set1_pd(bc[c * inner + p]);
                for (int v = 0; v < kVectors; ++v) {
                    sums[c][v] = _mm256_fmadd_pd(x[v], factor, sums[c][v]);
                }
            }
        }
        for (int c = 0; c < Cols; ++c) {
            for (int v = 0; v < kVectors; ++v) {
                _mm256_storeu_pd(out + c * lda + r0 + 4 * v, sums[c][v]);
            }
        }
    }
}

// The single-precision groups: the same loops over 16 (AVX-512) or 8 (AVX2) floats a register.

template <int Cols>
__attribute__((target("avx512f"))) void groupAvx512Single(const float* a, std::int64_t lda,
                                                          std::int64_t inner, const float* bc,
                                                          float* out) {
    constexpr int kVectors = kBlockRowsSingle / 16;
    for (std::int64_t r0 = 0; r0 < lda; r0 += kBlockRowsSingle) {
        __m512 sums[Cols][kVectors];
        for (auto& row : sums) {
            for (__m512& sum : row) {
                sum = _mm512_setzero_ps();
            }
        }
        for (std::int64_t p = 0; p < inner; ++p) {
            const float* column = a + p * lda + r0;
            __m512 x[kVectors];
            for (int v = 0; v < kVectors; ++v) {
                x[v] = _mm512_loadu_ps(column + 16 * v);
                CX_IN_REGISTER(x[v]);
            }
            for (int c = 0; c < Cols; ++c) {
                const __m512 factor = _mm512_set1_ps(bc[c * inner + p]);
                for (int v = 0; v < kVectors; ++v) {
                    sums[c][v] = _mm512_fmadd_ps(x[v], factor, sums[c][v]);
                }
            }
        }
        for (int c = 0; c < Cols; ++c) {
            for (int v = 0; v < kVectors; ++v) {
                _mm512_storeu_ps(out + c * lda + r0 + 16 * v, sums[c][v]);
            }
        }
    }
}

template <int Cols>
__attribute__((target("avx2,fma"))) void
groupAvx2Single(const float* a, std::int64_t lda, std::int64_t inner, const float* bc, float* out) {
    constexpr int kVectors = 2; // 16 rows: 6 sums + 2 loads + a broadcast of 16 registers
    for (std::int64_t r0 = 0; r0 < lda; r0 += 8 * kVectors) {
        __m256 sums[Cols][kVectors];
        for (auto& row : sums) {
            for (__m256& sum : row) {
                sum = _mm256_setzero_ps();
            }
        }
        for (std::int64_t p = 0; p < inner; ++p) {
            const float* column = a + p * lda + r0;
            __m256 x[kVectors];
            for (int v = 0; v < kVectors; ++v) {
                x[v] = _mm256_loadu_ps(column + 8 * v);
                CX_IN_REGISTER(x[v]);
            }
            for (int c = 0; c < Cols; ++c) {
                const __m256 factor = _mm256_set1_ps(bc[c * inner + p]);
                for (int v = 0; v < kVectors; ++v) {
                    sums[c][v] = _mm256_fmadd_ps(x[v], factor, sums[c][v]);
                }
            }
        }
        for (int c = 0; c < Cols; ++c) {
            for (int v = 0; v < kVectors; ++v) {
                _mm256_storeu_ps(out + c * lda + r0 + 8 * v, sums[c][v]);
            }
        }
    }
}

/// Every column of b through Group: full groups of three, then the one or two left.
#define CX_SKINNY_KERNEL(name, Scalar, group)                                                      \
    [[maybe_unused]] void name(const Scalar* a, std::int64_t lda, std::int64_t inner,              \
                               const Scalar* b, std::int64_t columns, Scalar* out) {               \
        std::int64_t c0 = 0;                                                                       \
        for (; c0 + kGroupColumns <= columns; c0 += kGroupColumns) {                               \
            group<3>(a, lda, inner, b + c0 * inner, out + c0 * lda);                               \
        }                                                                                          \
        if (columns - c0 == 2) {                                                                   \
            group<2>(a, lda, inner, b + c0 * inner, out + c0 * lda);                               \
        } else if (columns - c0 == 1) {                                                            \
            group<1>(a, lda, inner, b + c0 * inner, out + c0 * lda);                               \
        }                                                                                          \
    }

CX_SKINNY_KERNEL(productAvx512, double, groupAvx512)
CX_SKINNY_KERNEL(productAvx2, double, groupAvx2)
CX_SKINNY_KERNEL(productAvx512Single, float, groupAvx512Single)
CX_SKINNY_KERNEL(productAvx2Single, float, groupAvx2Single)
#undef CX_SKINNY_KERNEL
#undef CX_IN_REGISTER

/// The x86 kernels of one precision.
template <typename Scalar> struct X86Kernels;
template <> struct X86Kernels<double> {
    [[maybe_unused]] static constexpr ProductKernel<double> avx512 = &productAvx512;
    [[maybe_unused]] static constexpr ProductKernel<double> avx2 = &productAvx2;
};
template <> struct X86Kernels<float> {
    [[maybe_unused]] static constexpr ProductKernel<float> avx512 = &productAvx512Single;
    [[maybe_unused]] static constexpr ProductKernel<float> avx2 = &productAvx2Single;
};

#endif

/// The widest kernels this CPU runs (chosen once); with CX_NO_DISPATCH, the widest the build's
/// own target has.
template <typename Scalar> ProductKernel<Scalar> productKernel() {
#if defined(CX_SKINNY_X86) && defined(CX_NO_DISPATCH)
#if defined(__AVX512F__)
    return X86Kernels<Scalar>::avx512;
#elif defined(__AVX2__) && defined(__FMA__)
    return X86Kernels<Scalar>::avx2;
#else
    return &productScalar<Scalar>;
#endif
#elif defined(CX_SKINNY_X86)
    static const ProductKernel<Scalar> kernel = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f")) {
            return X86Kernels<Scalar>::avx512;
        }
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
            return X86Kernels<Scalar>::avx2;
        }
        return ProductKernel<Scalar>{&productScalar<Scalar>};
    }();
    return kernel;
#else
    return &productScalar<Scalar>;
#endif
}

} // namespace

template <typename Scalar>
BasicPaddedRows<Scalar> BasicPaddedRows<Scalar>::of(const Eigen::MatrixXd& a) {
    BasicPaddedRows padded;
    padded.rows = a.rows();
    padded.values.setZero((a.rows() + kBlockRows - 1) / kBlockRows * kBlockRows, a.cols());
    padded.values.topRows(a.rows()) = a.cast<Scalar>();
    return padded;
}

template struct BasicPaddedRows<double>;
template struct BasicPaddedRows<float>;

namespace {

template <typename Scalar>
Eigen::MatrixXd productWith(ProductKernel<Scalar> kernel, const BasicPaddedRows<Scalar>& a,
                            const Eigen::MatrixXd& b) {
    using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
    if (a.values.cols() != b.rows()) {
        throw std::invalid_argument("skinnyProduct: " + std::to_string(a.values.cols()) +
                                    " columns times " + std::to_string(b.rows()) + " rows");
    }
    const Eigen::Index columns = b.cols();
    Matrix out(a.values.rows(), columns);
    if (out.size() == 0 || b.rows() == 0) {
        out.setZero();
    } else if constexpr (std::is_same_v<Scalar, double>) {
        kernel(a.values.data(), a.values.rows(), a.values.cols(), b.data(), columns, out.data());
    } else {
        const Matrix rounded = b.cast<Scalar>();
        kernel(a.values.data(), a.values.rows(), a.values.cols(), rounded.data(), columns,
               out.data());
    }
    return out.topRows(a.rows).template cast<double>();
}

} // namespace

Eigen::MatrixXd skinnyProduct(const PaddedRows& a, const Eigen::MatrixXd& b) {
    return productWith(productKernel<double>(), a, b);
}

Eigen::MatrixXd skinnyProduct(const PaddedRowsSingle& a, const Eigen::MatrixXd& b) {
    return productWith(productKernel<float>(), a, b);
}

void skinnyProductInto(const PaddedRowsSingle& a, const Eigen::Ref<const Eigen::MatrixXf>& b,
                       Eigen::Ref<Eigen::MatrixXf> out) {
    if (a.values.cols() != b.rows() || out.rows() != a.values.rows() || out.cols() != b.cols() ||
        (b.cols() > 1 && b.outerStride() != b.rows()) ||
        (out.cols() > 1 && out.outerStride() != out.rows())) {
        throw std::invalid_argument("skinnyProductInto: " + std::to_string(a.values.rows()) +
                                    " × " + std::to_string(a.values.cols()) + " times " +
                                    std::to_string(b.rows()) + " × " + std::to_string(b.cols()) +
                                    " into " + std::to_string(out.rows()) + " × " +
                                    std::to_string(out.cols()) + " (columns must be contiguous)");
    }
    if (out.size() == 0) {
        return;
    }
    if (b.rows() == 0) {
        out.setZero();
        return;
    }
    productKernel<float>()(a.values.data(), a.values.rows(), a.values.cols(), b.data(), b.cols(),
                           out.data());
}

Eigen::MatrixXd skinnyProductPortable(const PaddedRows& a, const Eigen::MatrixXd& b) {
    return productWith(ProductKernel<double>{&productScalar<double>}, a, b);
}

Eigen::MatrixXd skinnyProductPortable(const PaddedRowsSingle& a, const Eigen::MatrixXd& b) {
    return productWith(ProductKernel<float>{&productScalar<float>}, a, b);
}

} // namespace cx
