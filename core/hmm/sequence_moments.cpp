#include "core/hmm/sequence_moments.h"
#include "core/hmm/sequence_moments_detail.h"

#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/common/timer.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
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
    int window = 1;
    std::vector<TripleChunk> chunks;
    std::int64_t numTriples = 0;
    std::int64_t numBins = 0;
    std::int64_t numRuns = 0;
};

/// Centres t whose whole windows x_{t−reach..t−lag} and x_{t+lag..t+reach} (reach = lag +
/// window − 1) lie in one run.
ClassRuns collectTriples(const ChromatinData& data, const BinClasses& classes, std::uint8_t flag,
                         int lag, int window) {
    ClassRuns out;
    out.lag = lag;
    out.window = window;
    const std::int64_t reach = lag + window - 1;
    for (const auto& run : runsWithFlag(data, classes, flag, /*breakAtMissing=*/true)) {
        ++out.numRuns;
        out.numBins += run.length();
        if (run.length() < 2 * reach + 1) {
            continue;
        }
        for (std::int64_t t = run.begin + reach; t < run.end - reach; t += kChunkTriples) {
            out.chunks.push_back({run.track, t, std::min(run.end - reach, t + kChunkTriples)});
        }
        out.numTriples += run.length() - 2 * reach;
    }
    return out;
}

using detail::checkClasses;
using detail::emptyMoments;

/// MarkVector moments with window L: middle φ(x_t) = (x_t, 1) ∈ R^{M+1}, side views
/// ψ = (x_{t∓lag}, x_{t∓(lag+1)}, …, x_{t∓(lag+L−1)}, 1) ∈ R^{LM+1} (nearest bin first, one
/// constant). Exact integer counts of every (past, middle, future) feature triple.
ClassMoments markVectorMoments(const ChromatinData& data, const ClassRuns& runs,
                               const CancelToken& cancel) {
    const int m = data.numMarks();
    const int d = m + 1;
    const int window = runs.window;
    const int side = window * m + 1;
    const size_t cube =
        static_cast<size_t>(side) * static_cast<size_t>(d) * static_cast<size_t>(side);
    // Present marks of every pattern (the constant is added per view below).
    const std::vector<std::vector<int>> present = detail::presentMarksOfPatterns(data);
    const int lag = runs.lag;
    const size_t square = static_cast<size_t>(side) * static_cast<size_t>(side);
    std::vector<std::vector<std::int64_t>> slotCounts(kReductionSlots);
    // Per slot: past and future window second moments (S × S each), middle pattern histogram.
    std::vector<std::vector<std::int64_t>> slotSecond(kReductionSlots);
    std::vector<std::vector<std::int64_t>> slotPatterns(kReductionSlots);
    forEachSlot(static_cast<std::int64_t>(runs.chunks.size()), kReductionSlots,
                [&](int slot, std::int64_t begin, std::int64_t end) {
                    auto& counts = slotCounts[static_cast<size_t>(slot)];
                    counts.assign(cube, 0);
                    auto& second = slotSecond[static_cast<size_t>(slot)];
                    second.assign(2 * square, 0);
                    auto& patterns = slotPatterns[static_cast<size_t>(slot)];
                    patterns.assign(static_cast<size_t>(data.numPatterns()), 0);
                    std::vector<int> past, middle, future;
                    for (std::int64_t c = begin; c < end; ++c) {
                        throwIfCancelled(cancel);
                        const auto& chunk = runs.chunks[static_cast<size_t>(c)];
                        const auto& bins = data.tracks[static_cast<size_t>(chunk.track)].bins;
                        for (std::int64_t t = chunk.first; t < chunk.last; ++t) {
                            past.clear();
                            future.clear();
                            for (int l = 0; l < window; ++l) {
                                for (int j : present[bins[static_cast<size_t>(t - lag - l)]]) {
                                    past.push_back(l * m + j);
                                }
                                for (int j : present[bins[static_cast<size_t>(t + lag + l)]]) {
                                    future.push_back(l * m + j);
                                }
                            }
                            past.push_back(side - 1);
                            future.push_back(side - 1);
                            middle = present[bins[static_cast<size_t>(t)]];
                            middle.push_back(m);
                            ++patterns[bins[static_cast<size_t>(t)]];
                            for (int i : past) {
                                std::int64_t* row = second.data() + static_cast<size_t>(side) * i;
                                for (int i2 : past) {
                                    ++row[i2];
                                }
                            }
                            for (int k : future) {
                                std::int64_t* row =
                                    second.data() + square + static_cast<size_t>(side) * k;
                                for (int k2 : future) {
                                    ++row[k2];
                                }
                            }
                            for (int k : future) {
                                for (int j : middle) {
                                    std::int64_t* base =
                                        counts.data() +
                                        static_cast<size_t>(side) * static_cast<size_t>(j + d * k);
                                    for (int i : past) {
                                        ++base[i];
                                    }
                                }
                            }
                        }
                    }
                });
    std::vector<std::int64_t> total(cube, 0);
    std::vector<std::int64_t> secondTotal(2 * square, 0);
    std::vector<std::int64_t> patternTotal(static_cast<size_t>(data.numPatterns()), 0);
    for (int slot = 0; slot < kReductionSlots; ++slot) {
        const auto& counts = slotCounts[static_cast<size_t>(slot)];
        if (counts.empty()) {
            continue;
        }
        for (size_t i = 0; i < cube; ++i) {
            total[i] += counts[i];
        }
        for (size_t i = 0; i < 2 * square; ++i) {
            secondTotal[i] += slotSecond[static_cast<size_t>(slot)][i];
        }
        for (size_t p = 0; p < patternTotal.size(); ++p) {
            patternTotal[p] += slotPatterns[static_cast<size_t>(slot)][p];
        }
    }
    detail::MarkVectorTotals totals{std::move(total), std::move(secondTotal),
                                    std::move(patternTotal)};
    return detail::markVectorMomentsFromTotals(present, m, window, totals, runs.numTriples,
                                               runs.numBins, runs.numRuns);
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

using detail::categoryMarkFlags;

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
    Rng rng(seed);
    auto normal = [&] { return rng.normal(); };
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
                       const SparsePairs& pairs, std::int64_t numTriples, std::int64_t numBins,
                       std::int64_t numRuns, const Eigen::MatrixXd& basis) {
    const Eigen::Index r = basis.cols();
    ClassMoments out;
    out.numTriples = numTriples;
    out.numBins = numBins;
    out.numRuns = numRuns;
    emptyMoments(out, r);
    if (numTriples == 0) {
        return out;
    }
    out.m12 = basis.transpose() * (pairs.m12 * basis);
    out.m13 = basis.transpose() * (pairs.m13 * basis);
    out.m23 = basis.transpose() * (pairs.m23 * basis);
    // View second moments: one-hot φ gives E[y yᵀ] = Wᵀ diag(f) W, f the view's category
    // frequencies (marginals of the pair moments).
    {
        const Eigen::VectorXd ones = Eigen::VectorXd::Ones(pairs.m12.cols());
        const Eigen::VectorXd f1 = pairs.m12 * ones;
        const Eigen::VectorXd f2 = pairs.m12.transpose() * ones;
        const Eigen::VectorXd f3 = pairs.m13.transpose() * ones;
        out.m11 = basis.transpose() * f1.asDiagonal() * basis;
        out.m22 = basis.transpose() * f2.asDiagonal() * basis;
        out.m33 = basis.transpose() * f3.asDiagonal() * basis;
    }
    // m123 = Σ n·U[c0] ⊗ U[c1] ⊗ U[c2] / N, grouped by c0 then c1 (keys are sorted).
    const double inv = 1.0 / static_cast<double>(numTriples);
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

namespace detail {

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

void emptyMoments(ClassMoments& m, Eigen::Index r, Eigen::Index s) {
    m.m12 = Eigen::MatrixXd::Zero(s, r);
    m.m13 = Eigen::MatrixXd::Zero(s, s);
    m.m23 = Eigen::MatrixXd::Zero(r, s);
    m.m123 = DenseTensor3(s, r, s);
    m.m11 = Eigen::MatrixXd::Zero(s, s);
    m.m22 = Eigen::MatrixXd::Zero(r, r);
    m.m33 = Eigen::MatrixXd::Zero(s, s);
}

void emptyMoments(ClassMoments& m, Eigen::Index r) {
    emptyMoments(m, r, r);
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

} // namespace detail

int SequenceMoments::sideDim() const {
    return sideScale.size() > 0 ? static_cast<int>(sideScale.size()) : rank();
}

Eigen::MatrixXd SequenceMoments::sideBlock(int offset) const {
    const int r = rank();
    const int side = sideDim();
    if (offset < 0 || offset >= window) {
        throw std::invalid_argument("SequenceMoments::sideBlock: offset " + std::to_string(offset) +
                                    " outside the window of " + std::to_string(window));
    }
    if (window == 1) {
        return Eigen::MatrixXd::Identity(r, side);
    }
    // MarkVector: marks of block `offset`, then the shared constant.
    const int m = numMarks();
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(r, side);
    for (int j = 0; j < m; ++j) {
        out(j, offset * m + j) = 1;
    }
    out(m, side - 1) = 1;
    return out;
}

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
    if (options.window < 1) {
        throw std::invalid_argument("computeSequenceMoments: window must be >= 1 (window = " +
                                    std::to_string(options.window) + ")");
    }
    out.lag = options.lag;
    // Windows are a MarkVector feature (see SequenceMomentOptions::window).
    out.window = options.encoding == ObservationEncoding::MarkVector ? options.window : 1;
    const ClassRuns fgRuns = collectTriples(data, classes, kForegroundBin, options.lag, out.window);
    const ClassRuns bgRuns = collectTriples(data, classes, kBackgroundBin, options.lag, out.window);

    if (options.encoding == ObservationEncoding::MarkVector) {
        const int d = data.numMarks() + 1;
        out.featureDim = d;
        out.basis = Eigen::MatrixXd::Identity(d, d);
        out.scale = Eigen::VectorXd::Unit(d, d - 1);
        const int side = out.window * data.numMarks() + 1;
        out.sideScale = Eigen::VectorXd::Unit(side, side - 1);
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
        out.sideScale = out.scale;
        throwIfCancelled(cancel);
        if (progress) {
            progress(0.6, "projecting moments");
        }
        const Eigen::MatrixXd projection = out.projection();
        out.foreground = projectCategoryMoments(fgTriples, fgPairs, fgRuns.numTriples,
                                                fgRuns.numBins, fgRuns.numRuns, projection);
        out.background = projectCategoryMoments(bgTriples, bgPairs, bgRuns.numTriples,
                                                bgRuns.numBins, bgRuns.numRuns, projection);
    }
    if (progress) {
        progress(1.0, "moments");
    }
    out.elapsedMs = watch.elapsedMs();
    return out;
}

namespace detail {

std::vector<std::vector<int>> presentMarksOfPatterns(const ChromatinData& data) {
    std::vector<std::vector<int>> present(static_cast<size_t>(data.numPatterns()));
    for (int p = 0; p < data.numPatterns(); ++p) {
        auto& nz = present[static_cast<size_t>(p)];
        for (int j = 0; j < data.numMarks(); ++j) {
            if (data.value(p, j) == static_cast<std::uint8_t>(MarkValue::Present)) {
                nz.push_back(j);
            }
        }
    }
    return present;
}

MarkVectorTotals emptyMarkVectorTotals(int numMarks, int window, int numPatterns) {
    const auto d = static_cast<size_t>(numMarks + 1);
    const auto side = static_cast<size_t>(window * numMarks + 1);
    MarkVectorTotals totals;
    totals.cube.assign(side * d * side, 0);
    totals.second.assign(2 * side * side, 0);
    totals.patterns.assign(static_cast<size_t>(numPatterns), 0);
    return totals;
}

void addMarkVectorTuple(MarkVectorTotals& totals, const std::vector<std::vector<int>>& present,
                        int numMarks, int window, const std::uint32_t* tuple, std::int64_t count) {
    const int m = numMarks;
    const int d = m + 1;
    const int side = window * m + 1;
    const size_t square = static_cast<size_t>(side) * static_cast<size_t>(side);
    // tuple[window − 1 − l] is x_{t−d−l}, tuple[window] is x_t, tuple[window + 1 + l] x_{t+d+l}.
    std::vector<int> past, future;
    for (int l = 0; l < window; ++l) {
        for (int j : present[tuple[window - 1 - l]]) {
            past.push_back(l * m + j);
        }
        for (int j : present[tuple[window + 1 + l]]) {
            future.push_back(l * m + j);
        }
    }
    past.push_back(side - 1);
    future.push_back(side - 1);
    std::vector<int> middle = present[tuple[window]];
    middle.push_back(m);
    totals.patterns[tuple[window]] += count;
    for (int i : past) {
        std::int64_t* row = totals.second.data() + static_cast<size_t>(side) * i;
        for (int i2 : past) {
            row[i2] += count;
        }
    }
    for (int k : future) {
        std::int64_t* row = totals.second.data() + square + static_cast<size_t>(side) * k;
        for (int k2 : future) {
            row[k2] += count;
        }
    }
    for (int k : future) {
        for (int j : middle) {
            std::int64_t* base =
                totals.cube.data() + static_cast<size_t>(side) * static_cast<size_t>(j + d * k);
            for (int i : past) {
                base[i] += count;
            }
        }
    }
}

ClassMoments markVectorMomentsFromTotals(const std::vector<std::vector<int>>& present, int numMarks,
                                         int window, const MarkVectorTotals& totals,
                                         std::int64_t numTriples, std::int64_t numBins,
                                         std::int64_t numRuns) {
    const int m = numMarks;
    const int d = m + 1;
    const int side = window * m + 1;
    const size_t square = static_cast<size_t>(side) * static_cast<size_t>(side);
    ClassMoments out;
    out.numTriples = numTriples;
    out.numBins = numBins;
    out.numRuns = numRuns;
    emptyMoments(out, d, side);
    if (numTriples == 0) {
        return out;
    }
    const double inv = 1.0 / static_cast<double>(numTriples);
    for (int k = 0; k < side; ++k) {
        for (int j = 0; j < d; ++j) {
            for (int i = 0; i < side; ++i) {
                out.m123(i, j, k) =
                    static_cast<double>(totals.cube[static_cast<size_t>(i + side * (j + d * k))]) *
                    inv;
            }
        }
    }
    // Pairs: contract the other view with its constant coordinate.
    for (int i = 0; i < side; ++i) {
        for (int j = 0; j < d; ++j) {
            out.m12(i, j) = out.m123(i, j, side - 1);
            out.m23(j, i) = out.m123(side - 1, j, i);
        }
        for (int k = 0; k < side; ++k) {
            out.m13(i, k) = out.m123(i, m, k);
            out.m11(i, k) =
                static_cast<double>(totals.second[static_cast<size_t>(side * i + k)]) * inv;
            out.m33(i, k) =
                static_cast<double>(totals.second[square + static_cast<size_t>(side * i + k)]) *
                inv;
        }
    }
    out.m222 = DenseTensor3(d, d, d);
    for (size_t p = 0; p < totals.patterns.size(); ++p) {
        const double weight = static_cast<double>(totals.patterns[p]) * inv;
        if (weight == 0) {
            continue;
        }
        std::vector<int> nz = present[p];
        nz.push_back(m);
        for (int i : nz) {
            for (int j : nz) {
                out.m22(i, j) += weight;
                for (int l : nz) {
                    out.m222(i, j, l) += weight;
                }
            }
        }
    }
    return out;
}

ClassMoments categoryMomentsFromCounts(const CategoryTripleCounts& triples, std::int64_t numTriples,
                                       std::int64_t numBins, std::int64_t numRuns, int categories,
                                       const Eigen::MatrixXd& projection) {
    const SparsePairs pairs = sparsePairs(triples, numTriples, categories);
    return projectCategoryMoments(triples, pairs, numTriples, numBins, numRuns, projection);
}

} // namespace detail

} // namespace cx
