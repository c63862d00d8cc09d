#include "core/topics/moment_kernels.h"

namespace cx::moment_kernels {

CX_DISPATCHED_KERNEL
void m2GatherScatter(const CsrView& csr, const double* w, std::int64_t begin, std::int64_t end,
                     const Float16* x, int blocks, Float16* acc, double* diag, Float16* y) {
    const std::int32_t* colIdx = csr.colIdx;
    const float* counts = csr.counts;
    for (std::int64_t n = begin; n < end; ++n) {
        const std::int64_t row = csr.documents[n];
        const std::int64_t first = csr.rowPtr[row];
        const std::int64_t last = csr.rowPtr[row + 1];
        // y = cᵀX, one 16-column block at a time (its two partial sums stay in registers).
        for (int b = 0; b < blocks; ++b) {
            Float16 even = {};
            Float16 odd = {};
            std::int64_t p = first;
            for (; p + 1 < last; p += 2) {
                even += counts[p] * x[static_cast<std::int64_t>(colIdx[p]) * blocks + b];
                odd += counts[p + 1] * x[static_cast<std::int64_t>(colIdx[p + 1]) * blocks + b];
            }
            if (p < last) {
                even += counts[p] * x[static_cast<std::int64_t>(colIdx[p]) * blocks + b];
            }
            y[b] = even + odd;
        }
        // Row i of c cᵀX is c_i·y; the diagonal part diag(c)X is subtracted once, after the pass.
        const double weight = w[n];
        for (std::int64_t p = first; p < last; ++p) {
            const double f = weight * static_cast<double>(counts[p]);
            const auto ff = static_cast<float>(f);
            Float16* out = acc + static_cast<std::int64_t>(colIdx[p]) * blocks;
            for (int b = 0; b < blocks; ++b) {
                out[b] += ff * y[b];
            }
            diag[colIdx[p]] += f;
        }
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
