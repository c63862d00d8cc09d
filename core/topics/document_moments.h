#pragma once

#include "core/common/cancel.h"
#include "core/io/corpus.h"
#include "core/tensor/symmetric_tensor.h"

#include <Eigen/Dense>

#include <cstdint>
#include <memory>
#include <vector>

namespace cx {

/// Unbiased estimators of the word moments of a single-topic model from a set of documents
/// (Zou et al. 2013, Props. 3–4 and App. C). With c_n the count vector and ℓ_n ≥ 3 the length of
/// document n, w2_n = 1/(ℓ_n(ℓ_n−1)) and w3_n = 1/(ℓ_n(ℓ_n−1)(ℓ_n−2)):
///
///   M2 = (1/N) Σ_n w2_n (c_n c_nᵀ − diag(c_n))
///   M3 = (1/N) Σ_n w3_n (c_n^{⊗3} − Σ_i c_n(i)(e_i⊗e_i⊗c_n + e_i⊗c_n⊗e_i + c_n⊗e_i⊗e_i)
///                         + 2 Σ_i c_n(i) e_i^{⊗3})
///
/// so that E[M2] = Σ_t w_t μ_t μ_tᵀ and E[M3] = Σ_t w_t μ_t^{⊗3}. Neither is materialised:
/// products and contractions run in one pass over the CSR counts in O(nnz) (times the block
/// width). Passes use `threadCount()` threads with a fixed reduction order, so results are
/// bit-identical for any thread count.
///
/// The object refers to `counts` (not copied): it must outlive this object.
class DocumentMoments {
public:
    /// \pre every listed document has length ≥ 3 (the loader's minTokens); throws
    /// std::invalid_argument otherwise or if `documents` is empty / out of range.
    DocumentMoments(const CountMatrix& counts, std::vector<std::int64_t> documents);

    std::int64_t numDocuments() const { return static_cast<std::int64_t>(m_documents.size()); }
    Eigen::Index dimension() const { return static_cast<Eigen::Index>(m_counts->numCols); }
    const std::vector<std::int64_t>& documents() const { return m_documents; }

    /// M2·X for X of size D × m. Cost O(nnz·m).
    Eigen::MatrixXd m2Times(const Eigen::MatrixXd& x, const CancelToken& cancel = {}) const;
    /// M2·X as m2Times, with X rounded to single precision and each document's products summed
    /// in single precision (a slot's sums are flushed into double every few thousand
    /// documents): relative error about 1e-6 (tested against m2Times), half the memory traffic
    /// per non-zero and twice the vector width. For the randomized range finder, where only the
    /// spanned subspace matters. The kernel is dispatched at run time (moment_kernels.h).
    Eigen::MatrixXd m2TimesSingle(const Eigen::MatrixXd& x, const CancelToken& cancel = {}) const;
    /// The listed documents regrouped word by word, in chunks of a few thousand documents
    /// (about 6 bytes per non-zero): m2TimesSingle and project run over it so that X (or U) and
    /// the accumulators are read in word order and only a chunk's own document rows are
    /// accessed at random. Building it costs about one product; keep it across the products of
    /// one range finder and the projection that follows (ContrastiveTopicEngine does).
    struct WordMajorLayout;
    std::shared_ptr<const WordMajorLayout> wordMajorLayout(const CancelToken& cancel = {}) const;
    /// m2TimesSingle on a layout built by this object's wordMajorLayout().
    Eigen::MatrixXd m2TimesSingle(const Eigen::MatrixXd& x, const WordMajorLayout& layout,
                                  const CancelToken& cancel = {}) const;
    /// M3(I, v, v) (the estimator of Prop. 4 contracted on modes 2, 3). Cost O(nnz).
    Eigen::VectorXd m3Contract(const Eigen::VectorXd& v, const CancelToken& cancel = {}) const;
    /// M1 = (1/N) Σ_n c_n/ℓ_n (average word distribution).
    Eigen::VectorXd m1() const;

    /// Dense D × D M2 (tests and small vocabularies only).
    Eigen::MatrixXd denseM2() const;
    /// Dense D × D × D M3 (tests only; D³ memory).
    SymmetricTensor3 denseM3() const;

    /// Moments projected on an orthonormal basis U (D × r): m2 = UᵀM2U and m3 = M3(U, U, U).
    /// One pass over the documents; cost O(nnz·r + N·r³/2 + D·r³).
    struct Projected {
        Eigen::MatrixXd m2;
        SymmetricTensor3 m3;
        /// Split-half estimate of m2's sampling error: half the difference of the estimates
        /// from the even- and the odd-numbered documents (same covariance as the error of m2
        /// itself). Its spectral norm bounds, by Weyl's inequality, how far noise alone moves
        /// m2's eigenvalues. Zero when there are fewer than 2 documents (noiseAvailable false).
        Eigen::MatrixXd m2Noise;
        bool noiseAvailable = false;
    };
    Projected project(const Eigen::MatrixXd& basis, const CancelToken& cancel = {}) const;
    /// project() on a layout built by this object's wordMajorLayout() (the pass runs word by
    /// word over it; project() without one builds it first).
    Projected project(const Eigen::MatrixXd& basis, const WordMajorLayout& layout,
                      const CancelToken& cancel = {}) const;

private:
    void requireOwnLayout(const WordMajorLayout& layout, const char* caller) const;

    const CountMatrix* m_counts;
    std::vector<std::int64_t> m_documents;
    std::vector<double> m_w2;
    std::vector<double> m_w3;
    std::int64_t m_maxNonZeros = 0; ///< the most non-zeros of any listed document
};

} // namespace cx
