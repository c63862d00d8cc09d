#include "core/tensor/symmetric_tensor.h"

#include "core/common/parallel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cx {

namespace {
void requireDimension(const char* function, Eigen::Index expected, Eigen::Index got) {
    if (expected != got) {
        throw std::invalid_argument(std::string(function) + ": dimension mismatch (tensor " +
                                    std::to_string(expected) + ", argument " + std::to_string(got) +
                                    ")");
    }
}
} // namespace

Eigen::VectorXd SymmetricTensor3::contract(const Eigen::VectorXd& v) const {
    requireDimension("SymmetricTensor3::contract", m_n, v.size());
    // T(I, v, v) = Σ_k v_k · (T(:, :, k) v): one GEMV on the n × n² unfolding with v⊗v would
    // need n² memory; this form reuses the unfolding as n blocks of n × n.
    Eigen::VectorXd out = Eigen::VectorXd::Zero(m_n);
    for (Eigen::Index k = 0; k < m_n; ++k) {
        if (v[k] == 0.0) {
            continue;
        }
        out.noalias() += v[k] * (m_unfolded.middleCols(k * m_n, m_n) * v);
    }
    return out;
}

double SymmetricTensor3::value(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                               const Eigen::VectorXd& c) const {
    requireDimension("SymmetricTensor3::value", m_n, a.size());
    requireDimension("SymmetricTensor3::value", m_n, b.size());
    requireDimension("SymmetricTensor3::value", m_n, c.size());
    double total = 0;
    for (Eigen::Index k = 0; k < m_n; ++k) {
        if (c[k] == 0.0) {
            continue;
        }
        total += c[k] * a.dot(m_unfolded.middleCols(k * m_n, m_n) * b);
    }
    return total;
}

Eigen::MatrixXd SymmetricTensor3::contractModes23(const Eigen::MatrixXd& v) const {
    requireDimension("SymmetricTensor3::contractModes23", m_n, v.rows());
    const Eigen::Index m = v.cols();
    // Step 1, mode 3: W(i, j + n·b) = Σ_k T(i, j, k) V(k, b). Viewing the unfolding as an
    // (n·n) × n matrix (rows i + n·j, columns k) makes this a single GEMM.
    Eigen::Map<const Eigen::MatrixXd> asRowsIJ(m_unfolded.data(), m_n * m_n, m_n);
    const Eigen::MatrixXd w = asRowsIJ * v; // (n·n) × m, entry (i + n·j, b)
    // Step 2, mode 2: out(i, a + m·b) = Σ_j W(i, j, b) V(j, a).
    Eigen::MatrixXd out(m_n, m * m);
    for (Eigen::Index b = 0; b < m; ++b) {
        Eigen::Map<const Eigen::MatrixXd> slice(w.col(b).data(), m_n, m_n); // (i, j)
        out.middleCols(b * m, m).noalias() = slice * v;
    }
    return out;
}

SymmetricTensor3 SymmetricTensor3::multilinear(const Eigen::MatrixXd& v) const {
    const Eigen::MatrixXd partial = contractModes23(v); // n × m²
    SymmetricTensor3 out(v.cols());
    out.m_unfolded.noalias() = v.transpose() * partial;
    return out;
}

SymmetricTensor3 SymmetricTensor3::plusScaled(double alpha, const SymmetricTensor3& other) const {
    requireDimension("SymmetricTensor3::plusScaled", m_n, other.m_n);
    SymmetricTensor3 out(m_n);
    out.m_unfolded = m_unfolded + alpha * other.m_unfolded;
    return out;
}

void SymmetricTensor3::addRankOne(double weight, const Eigen::VectorXd& a) {
    requireDimension("SymmetricTensor3::addRankOne", m_n, a.size());
    for (Eigen::Index k = 0; k < m_n; ++k) {
        m_unfolded.middleCols(k * m_n, m_n).noalias() += (weight * a[k]) * a * a.transpose();
    }
}

void SymmetricTensor3::symmetrize() {
    const Eigen::Index n = m_n;
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j = i; j < n; ++j) {
            for (Eigen::Index k = j; k < n; ++k) {
                const double mean = ((*this)(i, j, k) + (*this)(i, k, j) + (*this)(j, i, k) +
                                     (*this)(j, k, i) + (*this)(k, i, j) + (*this)(k, j, i)) /
                                    6.0;
                (*this)(i, j, k) = mean;
                (*this)(i, k, j) = mean;
                (*this)(j, i, k) = mean;
                (*this)(j, k, i) = mean;
                (*this)(k, i, j) = mean;
                (*this)(k, j, i) = mean;
            }
        }
    }
}

SymmetricContraction contractSymmetric(const SymmetricTensor3& a, const Eigen::MatrixXd& v,
                                       double alpha, const SymmetricTensor3* b) {
    const Eigen::Index n = a.dimension();
    requireDimension("contractSymmetric", n, v.rows());
    if (b != nullptr) {
        requireDimension("contractSymmetric", n, b->dimension());
    }
    const bool combine = b != nullptr && alpha != 0.0;
    const Eigen::Index m = v.cols();
    const Eigen::MatrixXd vt = v.transpose(); // m × n
    // Tasks are fixed per k (step 1) and per j (step 2): each output column is computed by the
    // same GEMM whichever thread runs it, so threads change nothing but the wall time. Below
    // this size thread start-up costs more than it saves.
    const bool threaded = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) *
                              static_cast<double>(std::max<Eigen::Index>(m, 1)) >=
                          2e6;
    const int slots = threaded ? kReductionSlots : 1;

    // Step 1: X (m × n²), column j + n·k = Vᵀ·T(:, j, k) = T(V, e_j, e_k), computed for j ≤ k
    // (block k: one m × n × (k+1) GEMM); step 2 mirrors them to (k, j). Blocks are visited in the
    // order 0, n−1, 1, n−2, … so that contiguous slot ranges carry equal work.
    Eigen::MatrixXd x(m, n * n);
    forEachSlot(n, slots, [&](int, std::int64_t begin, std::int64_t end) {
        Eigen::MatrixXd buffer;
        if (combine) {
            buffer.resize(n, n);
        }
        for (std::int64_t item = begin; item < end; ++item) {
            const Eigen::Index k = (item % 2 == 0) ? item / 2 : n - 1 - item / 2;
            const Eigen::Index width = k + 1;
            Eigen::Map<const Eigen::MatrixXd> ak(a.unfolded().data() + n * n * k, n, width);
            auto xk = x.middleCols(n * k, width);
            if (combine) {
                Eigen::Map<const Eigen::MatrixXd> bk(b->unfolded().data() + n * n * k, n, width);
                buffer.leftCols(width) = ak + alpha * bk;
                xk.noalias() = vt * buffer.leftCols(width);
            } else {
                xk.noalias() = vt * ak;
            }
        }
    });

    // Step 2: T(e_j, V_a, V_b) = Σ_k X(a, k, j)·V(k, b): block j of X (m × n) times V, written
    // as column j of partialᵀ (m² × n). It is symmetric in (a, b): only the lower triangle is
    // computed (a triangular GEMM, half the work) and mirrored. Block j's columns k > j are
    // step 1's (j, k), copied in just before the product that reads them (still in cache);
    // their sources, columns j ≤ k of block k, are never copied to.
    Eigen::MatrixXd partialT(m * m, n);
    forEachSlot(n, slots, [&](int, std::int64_t begin, std::int64_t end) {
        for (std::int64_t j = begin; j < end; ++j) {
            for (Eigen::Index k = j + 1; k < n; ++k) {
                x.col(k + n * j) = x.col(j + n * k);
            }
            Eigen::Map<Eigen::MatrixXd> zj(partialT.col(j).data(), m, m);
            zj.triangularView<Eigen::Lower>() = x.middleCols(n * j, n) * v;
            zj.triangularView<Eigen::StrictlyUpper>() = zj.transpose();
        }
    });
    SymmetricContraction out;
    out.partialT = std::move(partialT);
    // Step 3: core = Vᵀ·partial, one m × n × m GEMM per column block b (partial's columns read
    // as partialT's rows: the same products, without forming the transpose).
    out.core.resize(m, m * m);
    forEachSlot(m,
                threaded
                    ? std::min<int>(kReductionSlots, static_cast<int>(std::max<Eigen::Index>(m, 1)))
                    : 1,
                [&](int, std::int64_t begin, std::int64_t end) {
                    for (std::int64_t c = begin; c < end; ++c) {
                        out.core.middleCols(m * c, m).noalias() =
                            vt * out.partialT.middleRows(m * c, m).transpose();
                    }
                });
    return out;
}

double SymmetricTensor3::asymmetry() const {
    double worst = 0;
    for (Eigen::Index i = 0; i < m_n; ++i) {
        for (Eigen::Index j = 0; j < m_n; ++j) {
            for (Eigen::Index k = 0; k < m_n; ++k) {
                const double t = (*this)(i, j, k);
                worst = std::max({worst, std::abs(t - (*this)(j, i, k)),
                                  std::abs(t - (*this)(k, j, i)), std::abs(t - (*this)(i, k, j))});
            }
        }
    }
    return worst;
}

} // namespace cx
