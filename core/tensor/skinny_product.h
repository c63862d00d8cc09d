#pragma once

#include <Eigen/Core>

namespace cx {

/// A K-row matrix padded with zero rows to a multiple of skinnyProduct's block rows (56 in
/// double, 64 in single precision), kept for many products with few columns: a power step
/// multiplies the packed core of the tensor (K × K(K+1)/2) by one to a few trial columns.
template <typename Scalar> struct BasicPaddedRows {
    /// Rows of one block of the product's kernels: 7 AVX-512 registers of 8 doubles, or 4 of 16
    /// floats.
    static constexpr Eigen::Index kBlockRows = sizeof(Scalar) == 8 ? 56 : 64;

    Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> values; ///< the added rows are zero
    Eigen::Index rows = 0; ///< the rows of the matrix it holds

    /// `a` padded (and, in single precision, rounded to float).
    static BasicPaddedRows of(const Eigen::MatrixXd& a);
};

using PaddedRows = BasicPaddedRows<double>;
using PaddedRowsSingle = BasicPaddedRows<float>;

/// a·b for a b of few columns: a is streamed once per group of three columns of b and one block
/// of rows, the group's sums held in registers. A general GEMM re-packs `a` on every call, which
/// costs as much as the product when b has a handful of columns. Each output is accumulated over
/// the inner index in order with fused multiply-adds, so the result is the same on every CPU
/// (AVX-512, AVX2 + FMA or the scalar std::fma, chosen at run time) and thread count.
/// \throws std::invalid_argument when a's columns are not b's rows.
Eigen::MatrixXd skinnyProduct(const PaddedRows& a, const Eigen::MatrixXd& b);

/// The same product in single precision: b rounded to float, the sums in float (relative error
/// about 10⁻⁷ per term), the result widened to double — twice the multiply-adds per instruction.
/// Same order of operations on every CPU, so the same numbers bit for bit.
Eigen::MatrixXd skinnyProduct(const PaddedRowsSingle& a, const Eigen::MatrixXd& b);

/// The single-precision product into a buffer the caller keeps (the power steps: no allocation
/// per step): out = a.values·b, every padded row (the rows past a.rows are zero), the same
/// numbers as skinnyProduct(a, b) in double. b and out are column blocks of column-major
/// matrices whose columns are contiguous (b: a.values.cols() rows; out: a.values.rows() rows).
/// \throws std::invalid_argument on other shapes or strides.
void skinnyProductInto(const PaddedRowsSingle& a, const Eigen::Ref<const Eigen::MatrixXf>& b,
                       Eigen::Ref<Eigen::MatrixXf> out);

/// skinnyProduct with the scalar kernel whatever the CPU (tests: the same numbers bit for bit).
Eigen::MatrixXd skinnyProductPortable(const PaddedRows& a, const Eigen::MatrixXd& b);
Eigen::MatrixXd skinnyProductPortable(const PaddedRowsSingle& a, const Eigen::MatrixXd& b);

} // namespace cx
