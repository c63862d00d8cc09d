#include "core/topics/document_moments.h"

#include "core/common/memory.h"
#include "core/common/parallel.h"
#include "core/topics/moment_kernels.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace cx {

namespace {
/// Documents per GEMM block in the projection pass.
constexpr std::int64_t kBlockDocuments = 256;
/// Vocabulary rows per GEMM block in the per-word part of the projection.
constexpr Eigen::Index kBlockWords = 512;
/// Documents per word-major chunk of m2TimesSingle: their single-precision rows y (64–256 KB
/// for the range finder's widths) stay in the core's cache; a word's single-precision sum has
/// at most this many terms before it is added into double.
constexpr std::int64_t kChunkDocuments = 2048;
/// Chunks whose single-precision word sums m2TimesSingle adds up before adding them into its
/// double accumulator: a word's float sum has at most 4 × 2,048 terms.
constexpr size_t kFlushChunks = 4;
static_assert(kChunkDocuments <= moment_kernels::kMaxChunkDocuments);
/// Rows per block of the triangular cubic product in the projection pass.
constexpr Eigen::Index kCubicRows = 8;
/// Row-major storage for the per-word rows that the passes gather from and scatter into
/// (contiguous rows instead of stride-D access).
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

moment_kernels::CsrView momentCsrView(const CountMatrix& counts,
                                      const std::vector<std::int64_t>& documents) {
    moment_kernels::CsrView view;
    view.rowPtr = counts.rowPtr.data();
    view.colIdx = counts.colIdx.data();
    view.counts = counts.counts.data();
    view.documents = documents.data();
    return view;
}
/// The first 64-byte boundary in `v` (which holds 16 floats more than it needs): Float16 blocks
/// from there on never straddle a cache line.
float* alignedBlocks(std::vector<float>& v) {
    const auto address = reinterpret_cast<std::uintptr_t>(v.data());
    return v.data() + ((64 - address % 64) % 64) / sizeof(float);
}
} // namespace

DocumentMoments::DocumentMoments(const CountMatrix& counts, std::vector<std::int64_t> documents)
    : m_counts(&counts), m_documents(std::move(documents)) {
    if (m_documents.empty()) {
        throw std::invalid_argument("DocumentMoments: no documents");
    }
    m_w2.resize(m_documents.size());
    m_w3.resize(m_documents.size());
    for (size_t n = 0; n < m_documents.size(); ++n) {
        const std::int64_t row = m_documents[n];
        if (row < 0 || row >= counts.numRows) {
            throw std::invalid_argument("DocumentMoments: document " + std::to_string(row) +
                                        " out of range [0, " + std::to_string(counts.numRows) +
                                        ")");
        }
        const double length = counts.rowLength(row);
        if (length < 3) {
            throw std::invalid_argument("DocumentMoments: document " + std::to_string(row) +
                                        " has length " + std::to_string(length) + " < 3");
        }
        m_w2[n] = 1.0 / (length * (length - 1.0));
        m_w3[n] = 1.0 / (length * (length - 1.0) * (length - 2.0));
        m_maxNonZeros = std::max(m_maxNonZeros, counts.rowPtr[row + 1] - counts.rowPtr[row]);
    }
}

Eigen::MatrixXd DocumentMoments::m2Times(const Eigen::MatrixXd& x,
                                         const CancelToken& cancel) const {
    if (x.rows() != dimension()) {
        throw std::invalid_argument("DocumentMoments::m2Times: X has " + std::to_string(x.rows()) +
                                    " rows, vocabulary has " + std::to_string(dimension()));
    }
    const Eigen::Index m = x.cols();
    const CountMatrix& c = *m_counts;
    const RowMatrix xr = x;
    std::vector<RowMatrix> partial(static_cast<size_t>(reductionSlots(numDocuments())));
    forEachSlot(numDocuments(), static_cast<int>(partial.size()),
                [&](int slot, std::int64_t begin, std::int64_t end) {
                    RowMatrix& acc = partial[static_cast<size_t>(slot)];
                    acc = RowMatrix::Zero(x.rows(), m);
                    std::vector<double> projection(static_cast<size_t>(m));
                    double* y = projection.data();
                    const double* xData = xr.data();
                    double* accData = acc.data();
                    for (std::int64_t n = begin; n < end; ++n) {
                        if (((n - begin) & 1023) == 0) {
                            throwIfCancelled(cancel);
                        }
                        const std::int64_t row = m_documents[static_cast<size_t>(n)];
                        const double w = m_w2[static_cast<size_t>(n)];
                        std::fill(y, y + m, 0.0);
                        for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
                            const double ci = c.counts[p];
                            const double* xi = xData + static_cast<std::int64_t>(c.colIdx[p]) * m;
                            for (Eigen::Index a = 0; a < m; ++a) {
                                y[a] += ci * xi[a];
                            }
                        }
                        // Row i of (c cᵀ − diag c) X is c_i (cᵀX) − c_i X_i.
                        for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
                            const double f = w * c.counts[p];
                            const std::int64_t offset = static_cast<std::int64_t>(c.colIdx[p]) * m;
                            const double* xi = xData + offset;
                            double* out = accData + offset;
                            for (Eigen::Index a = 0; a < m; ++a) {
                                out[a] += f * (y[a] - xi[a]);
                            }
                        }
                    }
                });
    RowMatrix out = RowMatrix::Zero(x.rows(), m);
    for (const auto& acc : partial) {
        out += acc;
    }
    return Eigen::MatrixXd(out / static_cast<double>(numDocuments()));
}

struct DocumentMoments::WordMajorLayout {
    const DocumentMoments* owner = nullptr; ///< the object whose documents these are
    /// Chunks of each reduction slot's documents, in document order.
    std::vector<std::vector<moment_kernels::WordMajorChunk>> slots;
    /// The entries of each slot's chunks, one after another (the chunks' document and count
    /// views point here): one allocation per slot, on huge pages where the system has them.
    std::vector<std::unique_ptr<std::uint16_t[]>> documentStorage;
    std::vector<std::unique_ptr<float[]>> countStorage;
    /// Σ_n w2[n]·c_i per word, the diagonal part of the products.
    Eigen::VectorXd diag;
};

void DocumentMoments::requireOwnLayout(const WordMajorLayout& layout, const char* caller) const {
    if (layout.owner != this) {
        throw std::invalid_argument(std::string("DocumentMoments::") + caller +
                                    ": the layout was built for other documents");
    }
}

std::shared_ptr<const DocumentMoments::WordMajorLayout>
DocumentMoments::wordMajorLayout(const CancelToken& cancel) const {
    auto layout = std::make_shared<WordMajorLayout>();
    layout->owner = this;
    const Eigen::Index d = dimension();
    const moment_kernels::CsrView csr = momentCsrView(*m_counts, m_documents);
    const int numSlots = reductionSlots(numDocuments());
    layout->slots.resize(static_cast<size_t>(numSlots));
    layout->documentStorage.resize(static_cast<size_t>(numSlots));
    layout->countStorage.resize(static_cast<size_t>(numSlots));
    std::vector<Eigen::VectorXd> diag(static_cast<size_t>(numSlots));
    forEachSlot(numDocuments(), numSlots, [&](int slot, std::int64_t begin, std::int64_t end) {
        auto& chunks = layout->slots[static_cast<size_t>(slot)];
        Eigen::VectorXd& slotDiag = diag[static_cast<size_t>(slot)];
        slotDiag = Eigen::VectorXd::Zero(d);
        std::int64_t entries = 0;
        for (std::int64_t n = begin; n < end; ++n) {
            const std::int64_t row = csr.documents[n];
            entries += csr.rowPtr[row + 1] - csr.rowPtr[row];
        }
        auto& documentStorage = layout->documentStorage[static_cast<size_t>(slot)];
        auto& countStorage = layout->countStorage[static_cast<size_t>(slot)];
        documentStorage =
            std::make_unique_for_overwrite<std::uint16_t[]>(static_cast<size_t>(entries));
        countStorage = std::make_unique_for_overwrite<float[]>(static_cast<size_t>(entries));
        adviseHugePages(documentStorage.get(),
                        static_cast<size_t>(entries) * sizeof(std::uint16_t));
        adviseHugePages(countStorage.get(), static_cast<size_t>(entries) * sizeof(float));
        std::vector<std::int32_t> fill(static_cast<size_t>(d), 0);
        chunks.reserve(static_cast<size_t>((end - begin + kChunkDocuments - 1) / kChunkDocuments));
        std::int64_t used = 0;
        for (std::int64_t first = begin; first < end; first += kChunkDocuments) {
            throwIfCancelled(cancel);
            chunks.emplace_back();
            moment_kernels::buildWordMajorChunk(
                csr, m_w2.data(), first, std::min(end, first + kChunkDocuments), fill,
                documentStorage.get() + used, countStorage.get() + used, chunks.back(),
                slotDiag.data());
            used += static_cast<std::int64_t>(chunks.back().count.size());
        }
    });
    layout->diag = Eigen::VectorXd::Zero(d);
    for (const Eigen::VectorXd& part : diag) {
        layout->diag += part;
    }
    return layout;
}

Eigen::MatrixXd DocumentMoments::m2TimesSingle(const Eigen::MatrixXd& x,
                                               const CancelToken& cancel) const {
    return m2TimesSingle(x, *wordMajorLayout(cancel), cancel);
}

Eigen::MatrixXd DocumentMoments::m2TimesSingle(const Eigen::MatrixXd& x,
                                               const WordMajorLayout& layout,
                                               const CancelToken& cancel) const {
    if (x.rows() != dimension()) {
        throw std::invalid_argument("DocumentMoments::m2TimesSingle: X has " +
                                    std::to_string(x.rows()) + " rows, vocabulary has " +
                                    std::to_string(dimension()));
    }
    requireOwnLayout(layout, "m2TimesSingle");
    using moment_kernels::Float16;
    const Eigen::Index d = x.rows();
    const Eigen::Index m = x.cols();
    const int blocks = static_cast<int>((m + 15) / 16);
    const Eigen::Index stride = 16 * static_cast<Eigen::Index>(blocks);
    // X in single precision, each row padded with zeros to whole 16-float blocks, from a 64-byte
    // boundary on.
    std::vector<float> xs(static_cast<size_t>(d * stride + 16), 0.0f);
    float* xsData = alignedBlocks(xs);
    for (Eigen::Index i = 0; i < d; ++i) {
        for (Eigen::Index a = 0; a < m; ++a) {
            xsData[i * stride + a] = static_cast<float>(x(i, a));
        }
    }
    const auto* xBlocks = reinterpret_cast<const Float16*>(xsData);
    std::vector<RowMatrix> slots(layout.slots.size());
    forEachSlot(numDocuments(), static_cast<int>(slots.size()),
                [&](int slot, std::int64_t, std::int64_t) {
                    RowMatrix& acc = slots[static_cast<size_t>(slot)]; // Σ w c_i (cᵀX): D × m
                    acc = RowMatrix::Zero(d, m);
                    // Single-precision sums of a few chunks, then added into `acc`.
                    std::vector<float> sums(static_cast<size_t>(d * stride + 16), 0.0f);
                    float* sumData = alignedBlocks(sums);
                    auto flush = [&] {
                        for (Eigen::Index i = 0; i < d; ++i) {
                            float* from = sumData + i * stride;
                            double* to = acc.data() + i * m;
                            for (Eigen::Index a = 0; a < m; ++a) {
                                to[a] += static_cast<double>(from[a]);
                            }
                            std::fill(from, from + stride, 0.0f);
                        }
                    };
                    std::vector<float> y;
                    const auto& chunks = layout.slots[static_cast<size_t>(slot)];
                    for (size_t k = 0; k < chunks.size(); ++k) {
                        throwIfCancelled(cancel);
                        y.assign(chunks[k].weight.size() * static_cast<size_t>(stride) + 16, 0.0f);
                        auto* yBlocks = reinterpret_cast<Float16*>(alignedBlocks(y));
                        moment_kernels::m2GatherWordMajor(chunks[k], xBlocks, blocks, yBlocks);
                        moment_kernels::m2ScatterWordMajor(chunks[k], yBlocks, blocks,
                                                           reinterpret_cast<Float16*>(sumData));
                        if ((k + 1) % kFlushChunks == 0 || k + 1 == chunks.size()) {
                            flush();
                        }
                    }
                });
    RowMatrix sum = RowMatrix::Zero(d, m);
    for (const RowMatrix& acc : slots) {
        sum += acc;
    }
    // Row i of Σ w (c cᵀ − diag c) X is the gathered sum minus (Σ w c_i)·X_i.
    const Eigen::MatrixXd out =
        (sum - layout.diag.asDiagonal() * x) / static_cast<double>(numDocuments());
    return out;
}

Eigen::VectorXd DocumentMoments::m3Contract(const Eigen::VectorXd& v,
                                            const CancelToken& cancel) const {
    if (v.size() != dimension()) {
        throw std::invalid_argument("DocumentMoments::m3Contract: v has " +
                                    std::to_string(v.size()) + " entries, vocabulary has " +
                                    std::to_string(dimension()));
    }
    const moment_kernels::CsrView csr = momentCsrView(*m_counts, m_documents);
    std::vector<Eigen::VectorXd> partial(static_cast<size_t>(reductionSlots(numDocuments())));
    forEachSlot(numDocuments(), static_cast<int>(partial.size()),
                [&](int slot, std::int64_t begin, std::int64_t end) {
                    Eigen::VectorXd& acc = partial[static_cast<size_t>(slot)];
                    acc = Eigen::VectorXd::Zero(v.size());
                    std::vector<double> scratch(static_cast<size_t>(m_maxNonZeros));
                    constexpr std::int64_t kChunk = 4096; // documents between cancellation checks
                    for (std::int64_t chunk = begin; chunk < end; chunk += kChunk) {
                        throwIfCancelled(cancel);
                        moment_kernels::m3Contract(csr, m_w3.data(), chunk,
                                                   std::min(end, chunk + kChunk), v.data(),
                                                   acc.data(), scratch.data());
                    }
                });
    Eigen::VectorXd out = Eigen::VectorXd::Zero(v.size());
    for (const auto& acc : partial) {
        out += acc;
    }
    return out / static_cast<double>(numDocuments());
}

Eigen::VectorXd DocumentMoments::m1() const {
    const CountMatrix& c = *m_counts;
    Eigen::VectorXd out = Eigen::VectorXd::Zero(dimension());
    for (size_t n = 0; n < m_documents.size(); ++n) {
        const std::int64_t row = m_documents[n];
        const double length = c.rowLength(row);
        for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
            out[c.colIdx[p]] += c.counts[p] / length;
        }
    }
    return out / static_cast<double>(numDocuments());
}

Eigen::MatrixXd DocumentMoments::denseM2() const {
    return m2Times(Eigen::MatrixXd::Identity(dimension(), dimension()));
}

SymmetricTensor3 DocumentMoments::denseM3() const {
    const Eigen::Index d = dimension();
    const CountMatrix& c = *m_counts;
    SymmetricTensor3 out(d);
    for (size_t n = 0; n < m_documents.size(); ++n) {
        const std::int64_t row = m_documents[n];
        Eigen::VectorXd counts = Eigen::VectorXd::Zero(d);
        for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
            counts[c.colIdx[p]] = c.counts[p];
        }
        const double w = m_w3[n];
        out.addRankOne(w, counts);
        for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
            const Eigen::Index i = c.colIdx[p];
            const double ci = c.counts[p];
            for (Eigen::Index j = 0; j < d; ++j) {
                out(i, i, j) -= w * ci * counts[j];
                out(i, j, i) -= w * ci * counts[j];
                out(j, i, i) -= w * ci * counts[j];
            }
            out(i, i, i) += 2.0 * w * ci;
        }
    }
    out.unfolded() /= static_cast<double>(numDocuments());
    return out;
}

DocumentMoments::Projected DocumentMoments::project(const Eigen::MatrixXd& basis,
                                                    const CancelToken& cancel) const {
    return project(basis, *wordMajorLayout(cancel), cancel);
}

DocumentMoments::Projected DocumentMoments::project(const Eigen::MatrixXd& basis,
                                                    const WordMajorLayout& layout,
                                                    const CancelToken& cancel) const {
    requireOwnLayout(layout, "project");
    const Eigen::Index d = dimension();
    const Eigen::Index r = basis.cols();
    if (basis.rows() != d || r < 1) {
        throw std::invalid_argument("DocumentMoments::project: basis is " +
                                    std::to_string(basis.rows()) + "x" + std::to_string(r) +
                                    ", vocabulary has " + std::to_string(d));
    }
    const RowMatrix basisRows = basis;
    // The unordered pairs (b ≤ c) of the y⊗y columns, b descending: the pairs with b ≥ a0 are
    // the first (r − a0)(r − a0 + 1)/2. Rows a of Σ w3 y (y⊗y) are only needed for a ≤ b (the
    // rest follows by symmetry), so a block of rows starting at a0 multiplies only that prefix:
    // about 0.45 of the full r × r(r+1)/2 product at r = 40, one third as r grows.
    const Eigen::Index pairs = r * (r + 1) / 2;
    std::vector<Eigen::Index> pairB(static_cast<size_t>(pairs)), pairC(static_cast<size_t>(pairs));
    {
        Eigen::Index p = 0;
        for (Eigen::Index b = r - 1; b >= 0; --b) {
            for (Eigen::Index cc = b; cc < r; ++cc, ++p) {
                pairB[static_cast<size_t>(p)] = b;
                pairC[static_cast<size_t>(p)] = cc;
            }
        }
    }
    auto pairsFrom = [r](Eigen::Index a0) { return (r - a0) * (r - a0 + 1) / 2; };

    struct SlotSums {
        Eigen::MatrixXd cubic; // Σ w3 y (y⊗y)_packed : r × pairs, entries (a, (b, c)) with a ≤ b
        Eigen::MatrixXd square;    // Σ w2 y yᵀ           : r × r
        RowMatrix g;               // g_i = Σ w3 c_i y    : D × r
        Eigen::VectorXd s2;        // Σ w2 c_i            : D
        Eigen::VectorXd s3;        // Σ w3 c_i            : D
        Eigen::MatrixXd squareOdd; // the M2 sums over odd-numbered documents only (split-half
        Eigen::VectorXd s2Odd;     // noise estimate)
    };
    std::vector<SlotSums> slots(static_cast<size_t>(reductionSlots(numDocuments())));
    forEachSlot(
        numDocuments(), static_cast<int>(slots.size()),
        [&](int slot, std::int64_t begin, std::int64_t) {
            SlotSums& s = slots[static_cast<size_t>(slot)];
            s.cubic = Eigen::MatrixXd::Zero(r, pairs);
            s.square = Eigen::MatrixXd::Zero(r, r);
            s.g = RowMatrix::Zero(d, r);
            s.s2 = Eigen::VectorXd::Zero(d);
            s.s3 = Eigen::VectorXd::Zero(d);
            s.squareOdd = Eigen::MatrixXd::Zero(r, r);
            s.s2Odd = Eigen::VectorXd::Zero(d);
            // Row-major blocks: one document's projection is a contiguous row.
            RowMatrix yw3(kBlockDocuments, r);
            RowMatrix yw2(kBlockDocuments, r);
            RowMatrix yw2Odd(kBlockDocuments, r); // rows of even-numbered documents are zero
            RowMatrix z(kBlockDocuments, pairs);
            std::vector<double> chunkRows; // y of the chunk's documents, r each
            std::vector<double> sum(static_cast<size_t>(r));
            std::int64_t first = begin;
            for (const moment_kernels::WordMajorChunk& chunk :
                 layout.slots[static_cast<size_t>(slot)]) {
                throwIfCancelled(cancel);
                const auto chunkDocuments = static_cast<Eigen::Index>(chunk.weight.size());
                chunkRows.assign(static_cast<size_t>(chunkDocuments * r), 0.0);
                moment_kernels::projectGatherWordMajor(chunk, basisRows.data(), r,
                                                       chunkRows.data());
                for (Eigen::Index blockStart = 0; blockStart < chunkDocuments;
                     blockStart += kBlockDocuments) {
                    const Eigen::Index rows =
                        std::min<Eigen::Index>(kBlockDocuments, chunkDocuments - blockStart);
                    const Eigen::Map<const RowMatrix> y(chunkRows.data() + blockStart * r, rows, r);
                    for (Eigen::Index local = 0; local < rows; ++local) {
                        const auto n = static_cast<size_t>(first + blockStart + local);
                        const double* yn = y.data() + local * r;
                        const double w2 = m_w2[n];
                        const double w3 = m_w3[n];
                        double* y3 = yw3.data() + local * r;
                        double* y2 = yw2.data() + local * r;
                        const bool odd = (n & 1) != 0;
                        double* y2Odd = yw2Odd.data() + local * r;
                        for (Eigen::Index a = 0; a < r; ++a) {
                            y3[a] = w3 * yn[a];
                            y2[a] = w2 * yn[a];
                            y2Odd[a] = odd ? y2[a] : 0.0;
                        }
                        double* zn = z.data() + local * pairs;
                        Eigen::Index p = 0;
                        for (Eigen::Index b = r - 1; b >= 0; --b) {
                            const double yb = yn[b];
                            for (Eigen::Index cc = b; cc < r; ++cc) {
                                zn[p++] = yb * yn[cc];
                            }
                        }
                    }
                    for (Eigen::Index a0 = 0; a0 < r; a0 += kCubicRows) {
                        const Eigen::Index height = std::min(kCubicRows, r - a0);
                        const Eigen::Index width = pairsFrom(a0);
                        s.cubic.block(a0, 0, height, width).noalias() +=
                            yw3.topRows(rows).middleCols(a0, height).transpose() *
                            z.topRows(rows).leftCols(width);
                    }
                    s.square.noalias() += yw2.topRows(rows).transpose() * y;
                    s.squareOdd.noalias() += yw2Odd.topRows(rows).transpose() * y;
                }
                moment_kernels::projectScatterWordMajor(
                    chunk, first, chunkRows.data(), r, m_w2.data(), m_w3.data(), s.g.data(),
                    s.s2.data(), s.s3.data(), s.s2Odd.data(), sum.data());
                first += chunkDocuments;
            }
        });
    SlotSums total = std::move(slots[0]);
    for (size_t slot = 1; slot < slots.size(); ++slot) {
        total.cubic += slots[slot].cubic;
        total.square += slots[slot].square;
        total.g += slots[slot].g;
        total.s2 += slots[slot].s2;
        total.s3 += slots[slot].s3;
        total.squareOdd += slots[slot].squareOdd;
        total.s2Odd += slots[slot].s2Odd;
    }
    const double scale = 1.0 / static_cast<double>(numDocuments());

    Projected out;
    out.m2 = scale * (total.square - basis.transpose() * total.s2.asDiagonal() * basis);
    out.m2 = 0.5 * (out.m2 + out.m2.transpose());
    // Split-half noise: the even- and odd-numbered documents give two independent estimates of
    // the same M2; half their difference has the covariance of the full estimate's error.
    const std::int64_t numOdd = numDocuments() / 2;
    const std::int64_t numEven = numDocuments() - numOdd;
    out.m2Noise = Eigen::MatrixXd::Zero(r, r);
    out.noiseAvailable = numOdd >= 1;
    if (out.noiseAvailable) {
        const Eigen::MatrixXd odd =
            (total.squareOdd - basis.transpose() * total.s2Odd.asDiagonal() * basis) /
            static_cast<double>(numOdd);
        const Eigen::MatrixXd even =
            (total.square - total.squareOdd -
             basis.transpose() * (total.s2 - total.s2Odd).asDiagonal() * basis) /
            static_cast<double>(numEven);
        out.m2Noise = 0.25 * ((even - odd) + (even - odd).transpose());
    }

    // Per-word correction terms. With g̃_i = g_i − (2/3) s3_i u_i and
    // B(a, b, c) = Σ_i u_ia u_ib g̃_ic (symmetric in a, b), the correction equals
    // −(B(a,b,c) + B(a,c,b) + B(b,c,a)). B is formed on packed pairs (a ≤ b) as one GEMM per
    // block of words: cost D·r³/2.
    const RowMatrix gTilde = total.g - (2.0 / 3.0) * (total.s3.asDiagonal() * basis);
    const Eigen::Index wordBlocks = (d + kBlockWords - 1) / kBlockWords;
    std::vector<Eigen::MatrixXd> bParts(static_cast<size_t>(reductionSlots(wordBlocks * 2048)));
    forEachSlot(wordBlocks, static_cast<int>(bParts.size()),
                [&](int slot, std::int64_t begin, std::int64_t end) {
                    Eigen::MatrixXd& acc = bParts[static_cast<size_t>(slot)];
                    acc = Eigen::MatrixXd::Zero(pairs, r);
                    RowMatrix w;
                    for (std::int64_t block = begin; block < end; ++block) {
                        throwIfCancelled(cancel);
                        const Eigen::Index first = static_cast<Eigen::Index>(block) * kBlockWords;
                        const Eigen::Index rows = std::min(kBlockWords, d - first);
                        w.resize(rows, pairs);
                        for (Eigen::Index i = 0; i < rows; ++i) {
                            const double* ui = basisRows.data() + (first + i) * r;
                            double* wi = w.data() + i * pairs;
                            Eigen::Index p = 0;
                            for (Eigen::Index cc = 0; cc < r; ++cc) {
                                const double ucc = ui[cc];
                                for (Eigen::Index b = 0; b <= cc; ++b) {
                                    wi[p++] = ui[b] * ucc;
                                }
                            }
                        }
                        acc.noalias() += w.transpose() * gTilde.middleRows(first, rows);
                    }
                });
    Eigen::MatrixXd bPacked = Eigen::MatrixXd::Zero(pairs, r);
    for (const auto& part : bParts) {
        bPacked += part;
    }
    // Packed index of the pair (min(a,b), max(a,b)).
    auto pairIndex = [](Eigen::Index a, Eigen::Index b) {
        const Eigen::Index lo = std::min(a, b);
        const Eigen::Index hi = std::max(a, b);
        return hi * (hi + 1) / 2 + lo;
    };

    out.m3 = SymmetricTensor3(r);
    Eigen::MatrixXd& t = out.m3.unfolded();
    for (Eigen::Index p = 0; p < pairs; ++p) {
        const Eigen::Index pb = pairB[static_cast<size_t>(p)];
        const Eigen::Index pc = pairC[static_cast<size_t>(p)];
        for (Eigen::Index a = 0; a <= pb; ++a) { // a ≤ b ≤ c: every permutation
            const double value = total.cubic(a, p);
            t(a, pb + r * pc) = value;
            t(a, pc + r * pb) = value;
            t(pb, a + r * pc) = value;
            t(pb, pc + r * a) = value;
            t(pc, a + r * pb) = value;
            t(pc, pb + r * a) = value;
        }
    }
    for (Eigen::Index a = 0; a < r; ++a) {
        for (Eigen::Index cc = 0; cc < r; ++cc) {
            for (Eigen::Index bb = 0; bb < r; ++bb) {
                t(a, bb + r * cc) -= bPacked(pairIndex(a, bb), cc) + bPacked(pairIndex(a, cc), bb) +
                                     bPacked(pairIndex(bb, cc), a);
            }
        }
    }
    t *= scale;
    out.m3.symmetrize();
    return out;
}

} // namespace cx
