#include "core/tensor/symmetric_tensor.h"

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
