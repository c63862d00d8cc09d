#include "core/tensor/jennrich.h"

#include "core/common/error.h"
#include "core/common/random.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cx {

const char* toString(Decomposition decomposition) {
    switch (decomposition) {
    case Decomposition::Jennrich:
        return "jennrich";
    case Decomposition::Pencil:
        return "pencil";
    case Decomposition::Power:
        break;
    }
    return "power";
}

Decomposition parseDecomposition(const std::string& text) {
    if (text == "power" || text == "deflation") {
        return Decomposition::Power;
    }
    if (text == "jennrich") {
        return Decomposition::Jennrich;
    }
    if (text == "pencil") {
        return Decomposition::Pencil;
    }
    throw InputError("decomposition '" + text + "' is not 'power', 'jennrich' or 'pencil'");
}

namespace {

/// Top-k left singular vectors of m.
Eigen::MatrixXd leftSingular(const Eigen::MatrixXd& m, int k) {
    Eigen::BDCSVD<Eigen::MatrixXd> svd(m, Eigen::ComputeThinU);
    return svd.matrixU().leftCols(k);
}

struct Diagonalisation {
    Eigen::MatrixXd vectors; ///< K × K eigenvectors (real parts), empty if none usable
    double separation = -1;
};

/// Simultaneous diagonalisation of the K×K×K core (mode-1 unfolding, K × K²): of `slices`
/// random pairs (x, y), the eigenvectors of T(I,I,x)·T(I,I,y)⁻¹ with the best separated,
/// most nearly real spectrum.
Diagonalisation diagonalise(const Eigen::MatrixXd& core, int k, const JennrichOptions& options) {
    Rng rng(options.seed);
    auto contract = [&](const Eigen::VectorXd& x) {
        Eigen::MatrixXd slice = Eigen::MatrixXd::Zero(k, k);
        for (int c = 0; c < k; ++c) {
            slice += x[c] * core.middleCols(static_cast<Eigen::Index>(c) * k, k);
        }
        return slice;
    };
    Diagonalisation best;
    for (int s = 0; s < options.slices; ++s) {
        Eigen::VectorXd x(k), y(k);
        for (int i = 0; i < k; ++i) {
            x[i] = rng.normal();
        }
        for (int i = 0; i < k; ++i) {
            y[i] = rng.normal();
        }
        const Eigen::MatrixXd mx = contract(x);
        const Eigen::MatrixXd my = contract(y);
        Eigen::FullPivLU<Eigen::MatrixXd> lu(my);
        if (!lu.isInvertible()) {
            continue;
        }
        Eigen::EigenSolver<Eigen::MatrixXd> eigen(mx * lu.inverse());
        if (eigen.info() != Eigen::Success) {
            continue;
        }
        const Eigen::VectorXcd values = eigen.eigenvalues();
        const double scale = std::max(values.cwiseAbs().maxCoeff(), 1e-300);
        double gap = std::numeric_limits<double>::infinity();
        double imaginary = 0;
        for (int i = 0; i < k; ++i) {
            imaginary = std::max(imaginary, std::abs(values[i].imag()) / scale);
            for (int j = i + 1; j < k; ++j) {
                gap = std::min(gap, std::abs(values[i] - values[j]) / scale);
            }
        }
        const double separation = (k == 1 ? 1.0 : gap) - imaginary;
        if (best.vectors.size() == 0 || separation > best.separation) {
            best.separation = separation;
            best.vectors = eigen.eigenvectors().real();
        }
    }
    return best;
}

/// Flips v so that its largest-magnitude entry is positive; returns the sign applied.
double canonicalSign(Eigen::Ref<Eigen::VectorXd> v) {
    Eigen::Index at = 0;
    v.cwiseAbs().maxCoeff(&at);
    if (v[at] < 0) {
        v = -v;
        return -1.0;
    }
    return 1.0;
}

/// Scales every column to unit length; false when a column is zero (or not finite).
bool normaliseColumns(Eigen::MatrixXd& a) {
    for (Eigen::Index t = 0; t < a.cols(); ++t) {
        const double norm = a.col(t).norm();
        if (!(norm > 0) || !std::isfinite(norm)) {
            return false;
        }
        a.col(t) /= norm;
    }
    return true;
}

void checkRank(int k, Eigen::Index minDim, int slices, const char* where) {
    if (k < 1 || k > minDim || slices < 1) {
        throw std::invalid_argument(std::string(where) +
                                    ": need 1 <= K <= " + std::to_string(minDim) +
                                    " and slices >= 1 (K = " + std::to_string(k) + ")");
    }
}

} // namespace

JennrichResult jennrichDecomposition(const DenseTensor3& tensor, const JennrichOptions& options) {
    const int k = options.rank;
    const Eigen::Index d1 = tensor.dim(0), d2 = tensor.dim(1), d3 = tensor.dim(2);
    checkRank(k, std::min({d1, d2, d3}), options.slices, "jennrichDecomposition");
    JennrichResult out;
    const Eigen::MatrixXd u1 = leftSingular(tensor.matrix(), k);
    const Eigen::MatrixXd u2 = leftSingular(tensor.permuted({1, 0, 2}).matrix(), k);
    const Eigen::MatrixXd u3 = leftSingular(tensor.permuted({2, 0, 1}).matrix(), k);
    const DenseTensor3 core = tensor.transformed(u1, u2, u3);
    // The contraction of mode 3 of the core with x: Σ_c x_c core(:, :, c) = K × K slices of
    // the mode-1 unfolding (column j + K·c).
    const Diagonalisation diag = diagonalise(core.matrix(), k, options);
    out.separation = diag.separation;
    if (diag.vectors.size() == 0) {
        out.status = Status::NumericalIssue;
        return out;
    }
    out.a = u1 * diag.vectors;
    if (!normaliseColumns(out.a)) {
        out.status = Status::NumericalIssue;
        return out;
    }
    const Eigen::MatrixXd rows =
        out.a.completeOrthogonalDecomposition().pseudoInverse() * tensor.matrix(); // K × d2·d3
    out.b.resize(d2, k);
    out.c.resize(d3, k);
    out.weights.resize(k);
    for (int t = 0; t < k; ++t) {
        const Eigen::MatrixXd slab =
            Eigen::Map<const Eigen::MatrixXd>(Eigen::RowVectorXd(rows.row(t)).data(), d2, d3);
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(slab, Eigen::ComputeThinU | Eigen::ComputeThinV);
        out.b.col(t) = svd.matrixU().col(0);
        out.c.col(t) = svd.matrixV().col(0);
        double w = svd.singularValues()[0];
        w *= canonicalSign(out.a.col(t));
        w *= canonicalSign(out.b.col(t));
        w *= canonicalSign(out.c.col(t));
        out.weights[t] = w;
    }
    DenseTensor3 residual = tensor;
    for (int t = 0; t < k; ++t) {
        residual.addRankOne(-out.weights[t], out.a.col(t), out.b.col(t), out.c.col(t));
    }
    out.residual = residual.norm() / std::max(tensor.norm(), 1e-300);
    out.status = std::isfinite(out.residual) ? Status::Successful : Status::NumericalIssue;
    return out;
}

JennrichResult jennrichSymmetric(const SymmetricTensor3& tensor, const JennrichOptions& options) {
    const int k = options.rank;
    const Eigen::Index n = tensor.dimension();
    checkRank(k, n, options.slices, "jennrichSymmetric");
    JennrichResult out;
    const Eigen::MatrixXd u = leftSingular(tensor.unfolded(), k);
    const SymmetricTensor3 core = tensor.multilinear(u);
    const Diagonalisation diag = diagonalise(core.unfolded(), k, options);
    out.separation = diag.separation;
    if (diag.vectors.size() == 0) {
        out.status = Status::NumericalIssue;
        return out;
    }
    out.a = u * diag.vectors;
    if (!normaliseColumns(out.a)) {
        out.status = Status::NumericalIssue;
        return out;
    }
    for (int t = 0; t < k; ++t) {
        canonicalSign(out.a.col(t));
    }
    // Least squares for the weights: Gram G_st = ⟨v_s, v_t⟩³, right-hand side T(v_t, v_t, v_t).
    const Eigen::MatrixXd inner = out.a.transpose() * out.a;
    const Eigen::MatrixXd gram = inner.array().cube().matrix();
    Eigen::VectorXd rhs(k);
    for (int t = 0; t < k; ++t) {
        rhs[t] = tensor.value(out.a.col(t), out.a.col(t), out.a.col(t));
    }
    out.weights = gram.completeOrthogonalDecomposition().solve(rhs);
    out.b = out.a;
    out.c = out.a;
    SymmetricTensor3 residual = tensor;
    for (int t = 0; t < k; ++t) {
        residual.addRankOne(-out.weights[t], out.a.col(t));
    }
    out.residual = residual.unfolded().norm() / std::max(tensor.unfolded().norm(), 1e-300);
    out.status = std::isfinite(out.residual) ? Status::Successful : Status::NumericalIssue;
    return out;
}

} // namespace cx
