#pragma once

#include <Eigen/Core>

namespace cx {

/// A K-row matrix padded with zero rows to a multiple of 56 (the rows of skinnyProduct's
/// blocks), kept for many products with few columns: a power step multiplies the packed core
/// of the tensor (K × K(K+1)/2) by one to a few trial columns.
struct PaddedRows {
    Eigen::MatrixXd values; ///< rows rounded up to a multiple of 56; the added rows are zero
    Eigen::Index rows = 0;  ///< the rows of the matrix it holds

    static PaddedRows of(const Eigen::MatrixXd& a);
};

/// a·b for a b of few columns: a is streamed once per group of three columns of b and 56 rows,
/// the group's sums held in registers. A general GEMM re-packs `a` on every call, which costs
/// as much as the product when b has a handful of columns. Each output is accumulated over the
/// inner index in order with fused multiply-adds, so the result is the same on every CPU
/// (AVX-512, AVX2 + FMA or the scalar std::fma, chosen at run time) and thread count.
/// \throws std::invalid_argument when a's columns are not b's rows.
Eigen::MatrixXd skinnyProduct(const PaddedRows& a, const Eigen::MatrixXd& b);

/// skinnyProduct with the scalar kernel whatever the CPU (tests: the same numbers bit for bit).
Eigen::MatrixXd skinnyProductPortable(const PaddedRows& a, const Eigen::MatrixXd& b);

} // namespace cx
