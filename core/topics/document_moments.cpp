#include "core/topics/document_moments.h"

#include "core/common/parallel.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cx {

namespace {
/// Documents per GEMM block in the projection pass.
constexpr std::int64_t kBlockDocuments = 256;
/// Vocabulary rows per GEMM block in the per-word part of the projection.
constexpr Eigen::Index kBlockWords = 512;
/// Row-major storage for the per-word rows that the passes gather from and scatter into
/// (contiguous rows instead of stride-D access).
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
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
    }
}

Eigen::MatrixXd DocumentMoments::m2Times(const Eigen::MatrixXd& x, const CancelToken& cancel) const {
    if (x.rows() != dimension()) {
        throw std::invalid_argument("DocumentMoments::m2Times: X has " + std::to_string(x.rows()) +
                                    " rows, vocabulary has " + std::to_string(dimension()));
    }
    const Eigen::Index m = x.cols();
    const CountMatrix& c = *m_counts;
    const RowMatrix xr = x;
    std::vector<RowMatrix> partial(static_cast<size_t>(reductionSlots(numDocuments())));
    forEachSlot(numDocuments(), static_cast<int>(partial.size()), [&](int slot, std::int64_t begin, std::int64_t end) {
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

Eigen::VectorXd DocumentMoments::m3Contract(const Eigen::VectorXd& v, const CancelToken& cancel) const {
    if (v.size() != dimension()) {
        throw std::invalid_argument("DocumentMoments::m3Contract: v has " + std::to_string(v.size()) +
                                    " entries, vocabulary has " + std::to_string(dimension()));
    }
    const CountMatrix& c = *m_counts;
    std::vector<Eigen::VectorXd> partial(static_cast<size_t>(reductionSlots(numDocuments())));
    forEachSlot(numDocuments(), static_cast<int>(partial.size()), [&](int slot, std::int64_t begin, std::int64_t end) {
        Eigen::VectorXd& acc = partial[static_cast<size_t>(slot)];
        acc = Eigen::VectorXd::Zero(v.size());
        for (std::int64_t n = begin; n < end; ++n) {
            if (((n - begin) & 4095) == 0) {
                throwIfCancelled(cancel);
            }
            const std::int64_t row = m_documents[static_cast<size_t>(n)];
            const double w = m_w3[static_cast<size_t>(n)];
            double cv = 0;  // ⟨c, v⟩
            double cvv = 0; // ⟨c, v∘v⟩
            for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
                const double vi = v[c.colIdx[p]];
                cv += c.counts[p] * vi;
                cvv += c.counts[p] * vi * vi;
            }
            // ⟨c,v⟩² c − 2⟨c,v⟩ (c∘v) − ⟨c, v∘v⟩ c + 2 c∘v∘v, entry by entry.
            for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
                const double ci = c.counts[p];
                const double vi = v[c.colIdx[p]];
                acc[c.colIdx[p]] += w * ci * (cv * cv - 2.0 * cv * vi - cvv + 2.0 * vi * vi);
            }
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
    const Eigen::Index d = dimension();
    const Eigen::Index r = basis.cols();
    if (basis.rows() != d || r < 1) {
        throw std::invalid_argument("DocumentMoments::project: basis is " +
                                    std::to_string(basis.rows()) + "x" + std::to_string(r) +
                                    ", vocabulary has " + std::to_string(d));
    }
    const CountMatrix& c = *m_counts;
    const RowMatrix basisRows = basis;
    // Packed index of the unordered pair (b ≤ c) used for the y⊗y columns.
    const Eigen::Index pairs = r * (r + 1) / 2;
    std::vector<Eigen::Index> pairB(static_cast<size_t>(pairs)), pairC(static_cast<size_t>(pairs));
    {
        Eigen::Index p = 0;
        for (Eigen::Index cc = 0; cc < r; ++cc) {
            for (Eigen::Index b = 0; b <= cc; ++b, ++p) {
                pairB[static_cast<size_t>(p)] = b;
                pairC[static_cast<size_t>(p)] = cc;
            }
        }
    }

    struct SlotSums {
        Eigen::MatrixXd cubic;  // Σ w3 y (y⊗y)_packed : r × pairs
        Eigen::MatrixXd square; // Σ w2 y yᵀ           : r × r
        RowMatrix g;            // g_i = Σ w3 c_i y    : D × r
        Eigen::VectorXd s2;     // Σ w2 c_i            : D
        Eigen::VectorXd s3;     // Σ w3 c_i            : D
        Eigen::MatrixXd squareOdd; // the M2 sums over odd-numbered documents only (split-half
        Eigen::VectorXd s2Odd;     // noise estimate)
    };
    std::vector<SlotSums> slots(static_cast<size_t>(reductionSlots(numDocuments())));
    forEachSlot(numDocuments(), static_cast<int>(slots.size()), [&](int slot, std::int64_t begin, std::int64_t end) {
        SlotSums& s = slots[static_cast<size_t>(slot)];
        s.cubic = Eigen::MatrixXd::Zero(r, pairs);
        s.square = Eigen::MatrixXd::Zero(r, r);
        s.g = RowMatrix::Zero(d, r);
        s.s2 = Eigen::VectorXd::Zero(d);
        s.s3 = Eigen::VectorXd::Zero(d);
        s.squareOdd = Eigen::MatrixXd::Zero(r, r);
        s.s2Odd = Eigen::VectorXd::Zero(d);
        // Row-major blocks: one document's projection is a contiguous row.
        RowMatrix y(kBlockDocuments, r);
        RowMatrix yw3(kBlockDocuments, r);
        RowMatrix yw2(kBlockDocuments, r);
        RowMatrix yw2Odd(kBlockDocuments, r); // rows of even-numbered documents are zero
        RowMatrix z(kBlockDocuments, pairs);
        const double* basisData = basisRows.data();
        for (std::int64_t blockStart = begin; blockStart < end; blockStart += kBlockDocuments) {
            throwIfCancelled(cancel);
            const std::int64_t blockEnd = std::min(end, blockStart + kBlockDocuments);
            const Eigen::Index rows = static_cast<Eigen::Index>(blockEnd - blockStart);
            for (Eigen::Index local = 0; local < rows; ++local) {
                const size_t n = static_cast<size_t>(blockStart + local);
                const std::int64_t row = m_documents[n];
                double* yn = y.data() + local * r;
                std::fill(yn, yn + r, 0.0);
                for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
                    const double ci = c.counts[p];
                    const double* ui = basisData + static_cast<std::int64_t>(c.colIdx[p]) * r;
                    for (Eigen::Index a = 0; a < r; ++a) {
                        yn[a] += ci * ui[a];
                    }
                }
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
                for (std::int64_t p = c.rowPtr[row]; p < c.rowPtr[row + 1]; ++p) {
                    const double ci = c.counts[p];
                    const std::int32_t word = c.colIdx[p];
                    double* gi = s.g.data() + static_cast<std::int64_t>(word) * r;
                    for (Eigen::Index a = 0; a < r; ++a) {
                        gi[a] += ci * y3[a];
                    }
                    s.s2[word] += w2 * ci;
                    s.s3[word] += w3 * ci;
                    if (odd) {
                        s.s2Odd[word] += w2 * ci;
                    }
                }
                double* zn = z.data() + local * pairs;
                Eigen::Index p = 0;
                for (Eigen::Index cc = 0; cc < r; ++cc) {
                    const double ycc = yn[cc];
                    for (Eigen::Index b = 0; b <= cc; ++b) {
                        zn[p++] = yn[b] * ycc;
                    }
                }
            }
            s.cubic.noalias() += yw3.topRows(rows).transpose() * z.topRows(rows);
            s.square.noalias() += yw2.topRows(rows).transpose() * y.topRows(rows);
            s.squareOdd.noalias() += yw2Odd.topRows(rows).transpose() * y.topRows(rows);
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
        const Eigen::MatrixXd even = (total.square - total.squareOdd -
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
        t.col(pb + r * pc) = total.cubic.col(p);
        t.col(pc + r * pb) = total.cubic.col(p);
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
