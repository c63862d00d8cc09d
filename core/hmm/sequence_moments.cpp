#include "core/hmm/sequence_moments.h"

#include "core/common/parallel.h"
#include "core/common/timer.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <unordered_map>

namespace cx {

namespace {

/// A contiguous range of triple centres t ∈ [first, last) of one track (each t has bins t−1
/// and t+1 in the same run).
struct TripleChunk {
    int track = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
};

constexpr std::int64_t kChunkTriples = 1 << 15;

struct ClassRuns {
    int lag = 1;
    std::vector<TripleChunk> chunks;
    std::int64_t numTriples = 0;
    std::int64_t numBins = 0;
    std::int64_t numRuns = 0;
};

ClassRuns collectTriples(const ChromatinData& data, const BinClasses& classes, std::uint8_t flag,
                         int lag) {
    ClassRuns out;
    out.lag = lag;
    for (const auto& run : runsWithFlag(data, classes, flag, /*breakAtMissing=*/true)) {
        ++out.numRuns;
        out.numBins += run.length();
        if (run.length() < 2 * lag + 1) {
            continue;
        }
        for (std::int64_t t = run.begin + lag; t < run.end - lag; t += kChunkTriples) {
            out.chunks.push_back({run.track, t, std::min(run.end - lag, t + kChunkTriples)});
        }
        out.numTriples += run.length() - 2 * lag;
    }
    return out;
}

void checkClasses(const ChromatinData& data, const BinClasses& classes, const char* where) {
    if (classes.flags.size() != data.tracks.size()) {
        throw std::invalid_argument(std::string(where) + ": bin classes cover " +
                                    std::to_string(classes.flags.size()) + " tracks, data has " +
                                    std::to_string(data.tracks.size()));
    }
    for (size_t t = 0; t < data.tracks.size(); ++t) {
        if (static_cast<std::int64_t>(classes.flags[t].size()) != data.tracks[t].numBins()) {
            throw std::invalid_argument(std::string(where) + ": bin classes of track " +
                                        std::to_string(t) + " have the wrong length");
        }
    }
}

void emptyMoments(ClassMoments& m, Eigen::Index r) {
    m.m12 = Eigen::MatrixXd::Zero(r, r);
    m.m13 = Eigen::MatrixXd::Zero(r, r);
    m.m23 = Eigen::MatrixXd::Zero(r, r);
    m.m123 = DenseTensor3(r, r, r);
}

ClassMoments markVectorMoments(const ChromatinData& data, const ClassRuns& runs,
                               const CancelToken& cancel) {
    const int m = data.numMarks();
    const int d = m + 1;
    const size_t cube = static_cast<size_t>(d) * static_cast<size_t>(d) * static_cast<size_t>(d);
    // Feature indices with value 1 of every pattern (present marks, then the constant).
    std::vector<std::vector<int>> nonzeros(static_cast<size_t>(data.numPatterns()));
    for (int p = 0; p < data.numPatterns(); ++p) {
        auto& nz = nonzeros[static_cast<size_t>(p)];
        for (int j = 0; j < m; ++j) {
            if (data.value(p, j) == static_cast<std::uint8_t>(MarkValue::Present)) {
                nz.push_back(j);
            }
        }
        nz.push_back(m);
    }
    const int lag = runs.lag;
    std::vector<std::vector<std::int64_t>> slotCounts(kReductionSlots);
    forEachSlot(static_cast<std::int64_t>(runs.chunks.size()), kReductionSlots,
                [&](int slot, std::int64_t begin, std::int64_t end) {
                    auto& counts = slotCounts[static_cast<size_t>(slot)];
                    counts.assign(cube, 0);
                    for (std::int64_t c = begin; c < end; ++c) {
                        throwIfCancelled(cancel);
                        const auto& chunk = runs.chunks[static_cast<size_t>(c)];
                        const auto& bins = data.tracks[static_cast<size_t>(chunk.track)].bins;
                        for (std::int64_t t = chunk.first; t < chunk.last; ++t) {
                            const auto& n0 = nonzeros[bins[static_cast<size_t>(t - lag)]];
                            const auto& n1 = nonzeros[bins[static_cast<size_t>(t)]];
                            const auto& n2 = nonzeros[bins[static_cast<size_t>(t + lag)]];
                            for (int k : n2) {
                                for (int j : n1) {
                                    std::int64_t* base =
                                        counts.data() +
                                        static_cast<size_t>(d) * static_cast<size_t>(j + d * k);
                                    for (int i : n0) {
                                        ++base[i];
                                    }
                                }
                            }
                        }
                    }
                });
    std::vector<std::int64_t> total(cube, 0);
    for (const auto& counts : slotCounts) {
        if (counts.empty()) {
            continue;
        }
        for (size_t i = 0; i < cube; ++i) {
            total[i] += counts[i];
        }
    }
    ClassMoments out;
    out.numTriples = runs.numTriples;
    out.numBins = runs.numBins;
    out.numRuns = runs.numRuns;
    emptyMoments(out, d);
    if (runs.numTriples == 0) {
        return out;
    }
    const double inv = 1.0 / static_cast<double>(runs.numTriples);
    for (int k = 0; k < d; ++k) {
        for (int j = 0; j < d; ++j) {
            for (int i = 0; i < d; ++i) {
                out.m123(i, j, k) =
                    static_cast<double>(total[static_cast<size_t>(i + d * (j + d * k))]) * inv;
            }
        }
    }
    const int c = m; // constant coordinate
    for (int i = 0; i < d; ++i) {
        for (int j = 0; j < d; ++j) {
            out.m12(i, j) = out.m123(i, j, c);
            out.m13(i, j) = out.m123(i, c, j);
            out.m23(i, j) = out.m123(c, i, j);
        }
    }
    return out;
}

/// Sorted sparse pattern-triple counts of one class (key = c0·2⁴² + c1·2²¹ + c2).
std::vector<std::pair<std::uint64_t, std::int64_t>>
categoryTripleCounts(const ChromatinData& data, const ClassRuns& runs,
                     const std::vector<int>& patternCategory, const CancelToken& cancel) {
    const int lag = runs.lag;
    std::vector<std::unordered_map<std::uint64_t, std::int64_t>> slotMaps(kReductionSlots);
    forEachSlot(static_cast<std::int64_t>(runs.chunks.size()), kReductionSlots,
                [&](int slot, std::int64_t begin, std::int64_t end) {
                    auto& counts = slotMaps[static_cast<size_t>(slot)];
                    for (std::int64_t c = begin; c < end; ++c) {
                        throwIfCancelled(cancel);
                        const auto& chunk = runs.chunks[static_cast<size_t>(c)];
                        const auto& bins = data.tracks[static_cast<size_t>(chunk.track)].bins;
                        for (std::int64_t t = chunk.first; t < chunk.last; ++t) {
                            const auto c0 = static_cast<std::uint64_t>(
                                patternCategory[bins[static_cast<size_t>(t - lag)]]);
                            const auto c1 = static_cast<std::uint64_t>(
                                patternCategory[bins[static_cast<size_t>(t)]]);
                            const auto c2 = static_cast<std::uint64_t>(
                                patternCategory[bins[static_cast<size_t>(t + lag)]]);
                            ++counts[(c0 << 42) | (c1 << 21) | c2];
                        }
                    }
                });
    std::unordered_map<std::uint64_t, std::int64_t> merged;
    for (const auto& counts : slotMaps) {
        for (const auto& [key, count] : counts) {
            merged[key] += count;
        }
    }
    std::vector<std::pair<std::uint64_t, std::int64_t>> sorted(merged.begin(), merged.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

std::vector<std::uint8_t> categoryMarkFlags(const ChromatinData& data,
                                            const std::vector<int>& categoryPattern) {
    const int m = data.numMarks();
    std::vector<std::uint8_t> flags(categoryPattern.size() * static_cast<size_t>(m), 0);
    for (size_t c = 0; c < categoryPattern.size(); ++c) {
        for (int j = 0; j < m; ++j) {
            flags[c * static_cast<size_t>(m) + static_cast<size_t>(j)] =
                data.value(categoryPattern[c], j) == static_cast<std::uint8_t>(MarkValue::Present)
                    ? 1
                    : 0;
        }
    }
    return flags;
}

using SparseMatrix = Eigen::SparseMatrix<double>;

struct SparsePairs {
    SparseMatrix m12, m13, m23;
};

SparsePairs sparsePairs(const std::vector<std::pair<std::uint64_t, std::int64_t>>& triples,
                        std::int64_t numTriples, int categories) {
    std::vector<Eigen::Triplet<double>> t12, t13, t23;
    t12.reserve(triples.size());
    t13.reserve(triples.size());
    t23.reserve(triples.size());
    const double inv = numTriples > 0 ? 1.0 / static_cast<double>(numTriples) : 0.0;
    const std::uint64_t mask = (std::uint64_t{1} << 21) - 1;
    for (const auto& [key, count] : triples) {
        const auto c0 = static_cast<int>(key >> 42);
        const auto c1 = static_cast<int>((key >> 21) & mask);
        const auto c2 = static_cast<int>(key & mask);
        const double v = static_cast<double>(count) * inv;
        t12.emplace_back(c0, c1, v);
        t13.emplace_back(c0, c2, v);
        t23.emplace_back(c1, c2, v);
    }
    SparsePairs out{SparseMatrix(categories, categories), SparseMatrix(categories, categories),
                    SparseMatrix(categories, categories)};
    out.m12.setFromTriplets(t12.begin(), t12.end());
    out.m13.setFromTriplets(t13.begin(), t13.end());
    out.m23.setFromTriplets(t23.begin(), t23.end());
    return out;
}

Eigen::MatrixXd thinQ(const Eigen::MatrixXd& y) {
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(y);
    return qr.householderQ() * Eigen::MatrixXd::Identity(y.rows(), y.cols());
}

/// Top-r left singular vectors of the horizontal concatenation of `blocks` (randomized range
/// finder with two power iterations; deterministic given the seed).
Eigen::MatrixXd jointRangeBasis(const std::vector<const SparseMatrix*>& blocks, int categories,
                                int r, std::uint64_t seed) {
    const int l = std::min(categories, r + 10);
    std::mt19937_64 engine(seed);
    auto normal = [&] {
        double u1 = static_cast<double>(engine() >> 11) * 0x1.0p-53;
        while (u1 <= 0.0) {
            u1 = static_cast<double>(engine() >> 11) * 0x1.0p-53;
        }
        const double u2 = static_cast<double>(engine() >> 11) * 0x1.0p-53;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    };
    Eigen::MatrixXd y = Eigen::MatrixXd::Zero(categories, l);
    for (const auto* block : blocks) {
        Eigen::MatrixXd omega(categories, l);
        for (Eigen::Index j = 0; j < l; ++j) {
            for (Eigen::Index i = 0; i < categories; ++i) {
                omega(i, j) = normal();
            }
        }
        y += (*block) * omega;
        y += block->transpose() * omega;
    }
    for (int pass = 0; pass < 2; ++pass) {
        const Eigen::MatrixXd q = thinQ(y);
        y.setZero();
        for (const auto* block : blocks) {
            // S Sᵀ q for S = [B, Bᵀ]: B(Bᵀq) + Bᵀ(Bq).
            y += (*block) * (block->transpose() * q);
            y += block->transpose() * ((*block) * q);
        }
    }
    const Eigen::MatrixXd q = thinQ(y);
    Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(l, l);
    for (const auto* block : blocks) {
        const Eigen::MatrixXd left = (block->transpose() * q).transpose(); // qᵀB
        const Eigen::MatrixXd right = ((*block) * q).transpose();          // qᵀBᵀ
        gram += left * left.transpose() + right * right.transpose();
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(gram);
    // Eigenvalues ascending: take the last r.
    Eigen::MatrixXd v = eigen.eigenvectors().rightCols(r).rowwise().reverse();
    Eigen::MatrixXd basis = q * v;
    // Sign convention for reproducibility: largest-magnitude entry of each column positive.
    for (Eigen::Index j = 0; j < basis.cols(); ++j) {
        Eigen::Index arg = 0;
        basis.col(j).cwiseAbs().maxCoeff(&arg);
        if (basis(arg, j) < 0) {
            basis.col(j) = -basis.col(j);
        }
    }
    return basis;
}

ClassMoments
projectCategoryMoments(const std::vector<std::pair<std::uint64_t, std::int64_t>>& triples,
                       const SparsePairs& pairs, const ClassRuns& runs,
                       const Eigen::MatrixXd& basis) {
    const Eigen::Index r = basis.cols();
    ClassMoments out;
    out.numTriples = runs.numTriples;
    out.numBins = runs.numBins;
    out.numRuns = runs.numRuns;
    emptyMoments(out, r);
    if (runs.numTriples == 0) {
        return out;
    }
    out.m12 = basis.transpose() * (pairs.m12 * basis);
    out.m13 = basis.transpose() * (pairs.m13 * basis);
    out.m23 = basis.transpose() * (pairs.m23 * basis);
    // m123 = Σ n·U[c0] ⊗ U[c1] ⊗ U[c2] / N, grouped by c0 then c1 (keys are sorted).
    const double inv = 1.0 / static_cast<double>(runs.numTriples);
    const std::uint64_t mask = (std::uint64_t{1} << 21) - 1;
    const Eigen::MatrixXd ut = basis.transpose(); // columns = U rows
    Eigen::MatrixXd z(r, r);
    Eigen::VectorXd w(r);
    size_t i = 0;
    while (i < triples.size()) {
        const auto c0 = static_cast<Eigen::Index>(triples[i].first >> 42);
        z.setZero();
        while (i < triples.size() && static_cast<Eigen::Index>(triples[i].first >> 42) == c0) {
            const auto c1 = static_cast<Eigen::Index>((triples[i].first >> 21) & mask);
            w.setZero();
            while (i < triples.size() && static_cast<Eigen::Index>(triples[i].first >> 42) == c0 &&
                   static_cast<Eigen::Index>((triples[i].first >> 21) & mask) == c1) {
                const auto c2 = static_cast<Eigen::Index>(triples[i].first & mask);
                w += static_cast<double>(triples[i].second) * ut.col(c2);
                ++i;
            }
            z.noalias() += ut.col(c1) * w.transpose();
        }
        out.m123.matrix().noalias() +=
            (inv * ut.col(c0)) * Eigen::Map<const Eigen::RowVectorXd>(z.data(), r * r);
    }
    return out;
}

} // namespace

Eigen::MatrixXd SequenceMoments::projection() const {
    if (categoryScale.size() == 0) {
        return basis;
    }
    return categoryScale.asDiagonal() * basis;
}

SequenceMoments computeSequenceMoments(const ChromatinData& data, const BinClasses& classes,
                                       const SequenceMomentOptions& options,
                                       const CancelToken& cancel, const ProgressFn& progress) {
    checkClasses(data, classes, "computeSequenceMoments");
    Stopwatch watch;
    SequenceMoments out;
    out.encoding = options.encoding;
    out.markNames = data.markNames;
    out.numPatterns = data.numPatterns();
    if (progress) {
        progress(0.0, "collecting triples");
    }
    if (options.lag < 1) {
        throw std::invalid_argument(
            "computeSequenceMoments: lag must be >= 1 (lag = " + std::to_string(options.lag) + ")");
    }
    out.lag = options.lag;
    const ClassRuns fgRuns = collectTriples(data, classes, kForegroundBin, options.lag);
    const ClassRuns bgRuns = collectTriples(data, classes, kBackgroundBin, options.lag);

    if (options.encoding == ObservationEncoding::MarkVector) {
        const int d = data.numMarks() + 1;
        out.featureDim = d;
        out.basis = Eigen::MatrixXd::Identity(d, d);
        out.scale = Eigen::VectorXd::Unit(d, d - 1);
        if (progress) {
            progress(0.1, "foreground moments");
        }
        out.foreground = markVectorMoments(data, fgRuns, cancel);
        if (progress) {
            progress(0.55, "background moments");
        }
        out.background = markVectorMoments(data, bgRuns, cancel);
    } else {
        std::vector<int> patternCategory(static_cast<size_t>(data.numPatterns()), -1);
        for (int p = 0; p < data.numPatterns(); ++p) {
            if (!data.patternHasMissing(p)) {
                patternCategory[static_cast<size_t>(p)] =
                    static_cast<int>(out.categoryPattern.size());
                out.categoryPattern.push_back(p);
            }
        }
        out.categoryMarks = categoryMarkFlags(data, out.categoryPattern);
        const int categories = static_cast<int>(out.categoryPattern.size());
        if (categories >= (1 << 21)) {
            throw std::invalid_argument("computeSequenceMoments: too many distinct patterns (" +
                                        std::to_string(categories) +
                                        ") for the combination "
                                        "encoding");
        }
        out.featureDim = categories;
        if (progress) {
            progress(0.1, "counting pattern triples");
        }
        const auto fgTriples = categoryTripleCounts(data, fgRuns, patternCategory, cancel);
        const auto bgTriples = categoryTripleCounts(data, bgRuns, patternCategory, cancel);
        const SparsePairs fgPairs = sparsePairs(fgTriples, fgRuns.numTriples, categories);
        const SparsePairs bgPairs = sparsePairs(bgTriples, bgRuns.numTriples, categories);
        const int requested = options.projectionRank > 0 ? options.projectionRank : 20;
        if (progress) {
            progress(0.5, "projection basis");
        }
        // Category scaling d_c = 1/√(f_c + τ), f_c the frequency of pattern c over all bins:
        // φ(x) = d_c·e_c.
        Eigen::VectorXd d = Eigen::VectorXd::Ones(categories);
        if (options.scaleCategories) {
            if (!(options.categorySmoothing > 0)) {
                throw std::invalid_argument(
                    "computeSequenceMoments: categorySmoothing must be > 0");
            }
            double total = 0;
            for (int p : out.categoryPattern) {
                total += static_cast<double>(data.patternCounts[static_cast<size_t>(p)]);
            }
            for (int c = 0; c < categories; ++c) {
                const double count = std::max<double>(
                    1.0, static_cast<double>(
                             data.patternCounts[static_cast<size_t>(out.categoryPattern[c])]));
                d[c] = 1.0 / std::sqrt(count / total + options.categorySmoothing);
            }
        }
        out.categoryScale = d;
        if (categories <= requested) {
            out.basis = Eigen::MatrixXd::Identity(categories, categories);
        } else {
            std::vector<SparseMatrix> scaledBlocks;
            for (const SparsePairs* pairs : {&fgPairs, &bgPairs}) {
                if (pairs->m12.nonZeros() > 0) {
                    for (const SparseMatrix* m : {&pairs->m12, &pairs->m13, &pairs->m23}) {
                        scaledBlocks.push_back(
                            SparseMatrix(d.asDiagonal() * (*m) * d.asDiagonal()));
                    }
                }
            }
            if (scaledBlocks.empty()) {
                out.basis = Eigen::MatrixXd::Identity(categories, requested);
            } else {
                std::vector<const SparseMatrix*> blocks;
                for (const auto& block : scaledBlocks) {
                    blocks.push_back(&block);
                }
                out.basis = jointRangeBasis(blocks, categories, requested, options.seed);
            }
        }
        out.scale = out.basis.transpose() * d.cwiseInverse();
        throwIfCancelled(cancel);
        if (progress) {
            progress(0.6, "projecting moments");
        }
        const Eigen::MatrixXd projection = out.projection();
        out.foreground = projectCategoryMoments(fgTriples, fgPairs, fgRuns, projection);
        out.background = projectCategoryMoments(bgTriples, bgPairs, bgRuns, projection);
    }
    if (progress) {
        progress(1.0, "moments");
    }
    out.elapsedMs = watch.elapsedMs();
    return out;
}

SequenceMoments computeSequenceMomentsDirect(const ChromatinData& data, const BinClasses& classes,
                                             ObservationEncoding encoding, int lag) {
    checkClasses(data, classes, "computeSequenceMomentsDirect");
    SequenceMoments out;
    out.encoding = encoding;
    out.markNames = data.markNames;
    out.numPatterns = data.numPatterns();
    out.lag = lag;
    const int m = data.numMarks();
    std::vector<Eigen::VectorXd> features(static_cast<size_t>(data.numPatterns()));
    if (encoding == ObservationEncoding::MarkVector) {
        out.featureDim = m + 1;
        for (int p = 0; p < data.numPatterns(); ++p) {
            Eigen::VectorXd phi = Eigen::VectorXd::Zero(m + 1);
            for (int j = 0; j < m; ++j) {
                phi[j] = data.value(p, j) == static_cast<std::uint8_t>(MarkValue::Present) ? 1 : 0;
            }
            phi[m] = 1;
            features[static_cast<size_t>(p)] = phi;
        }
        out.scale = Eigen::VectorXd::Unit(m + 1, m);
    } else {
        for (int p = 0; p < data.numPatterns(); ++p) {
            if (!data.patternHasMissing(p)) {
                out.categoryPattern.push_back(p);
            }
        }
        out.categoryMarks = categoryMarkFlags(data, out.categoryPattern);
        out.featureDim = static_cast<int>(out.categoryPattern.size());
        for (size_t c = 0; c < out.categoryPattern.size(); ++c) {
            features[static_cast<size_t>(out.categoryPattern[c])] =
                Eigen::VectorXd::Unit(out.featureDim, static_cast<Eigen::Index>(c));
        }
        out.scale = Eigen::VectorXd::Ones(out.featureDim);
    }
    const int d = out.featureDim;
    out.basis = Eigen::MatrixXd::Identity(d, d);
    for (auto [flag, target] :
         {std::pair{kForegroundBin, &out.foreground}, std::pair{kBackgroundBin, &out.background}}) {
        ClassMoments& moments = *target;
        emptyMoments(moments, d);
        for (const auto& run : runsWithFlag(data, classes, flag, true)) {
            ++moments.numRuns;
            moments.numBins += run.length();
            const auto& bins = data.tracks[static_cast<size_t>(run.track)].bins;
            for (std::int64_t t = run.begin + lag; t + lag < run.end; ++t) {
                const auto& x0 = features[bins[static_cast<size_t>(t - lag)]];
                const auto& x1 = features[bins[static_cast<size_t>(t)]];
                const auto& x2 = features[bins[static_cast<size_t>(t + lag)]];
                moments.m12 += x0 * x1.transpose();
                moments.m13 += x0 * x2.transpose();
                moments.m23 += x1 * x2.transpose();
                moments.m123.addRankOne(1.0, x0, x1, x2);
                ++moments.numTriples;
            }
        }
        if (moments.numTriples > 0) {
            const double inv = 1.0 / static_cast<double>(moments.numTriples);
            moments.m12 *= inv;
            moments.m13 *= inv;
            moments.m23 *= inv;
            moments.m123.matrix() *= inv;
        }
    }
    return out;
}

} // namespace cx
