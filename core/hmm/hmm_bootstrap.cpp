#include "core/hmm/hmm_bootstrap.h"

#include "core/common/random.h"
#include "core/common/statistics.h"
#include "core/common/timer.h"
#include "core/hmm/sequence_moments_detail.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace cx {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Flat-top lag window of Politis & Romano (1995): 1 on |s| ≤ ½, linear to 0 at |s| = 1.
double flatTop(double s) {
    s = std::abs(s);
    if (s <= 0.5) {
        return 1.0;
    }
    return s <= 1.0 ? 2.0 * (1.0 - s) : 0.0;
}

ClassBlocks cutIntoBlocks(const ChromatinData& data, const BinClasses& classes, std::uint8_t flag,
                          const SequenceMoments& moments, const std::vector<int>& patternCategory,
                          int blockLength, const CancelToken& cancel) {
    const bool combinations = moments.encoding == ObservationEncoding::MarkCombination;
    const int window = combinations ? 1 : moments.window;
    const int lag = moments.lag;
    const std::int64_t reach = lag + window - 1;
    ClassBlocks out;
    out.blockLength = blockLength;
    out.tupleLength = 2 * window + 1;
    const auto length = static_cast<size_t>(out.tupleLength);
    std::unordered_map<std::string, std::uint32_t> index;
    std::vector<std::uint32_t> tuple(length);
    std::vector<std::uint32_t> blockIds;
    out.entryOffset.push_back(0);
    for (const BinRun& run : runsWithFlag(data, classes, flag, /*breakAtMissing=*/true)) {
        throwIfCancelled(cancel);
        ++out.numRuns;
        const auto& bins = data.tracks[static_cast<size_t>(run.track)].bins;
        for (std::int64_t begin = run.begin; begin < run.end; begin += blockLength) {
            const std::int64_t end = std::min<std::int64_t>(begin + blockLength, run.end);
            const std::int64_t first = std::max(begin, run.begin + reach);
            const std::int64_t last = std::min(end, run.end - reach);
            blockIds.clear();
            for (std::int64_t t = first; t < last; ++t) {
                for (int l = 0; l < window; ++l) {
                    tuple[static_cast<size_t>(window - 1 - l)] =
                        bins[static_cast<size_t>(t - lag - l)];
                    tuple[static_cast<size_t>(window + 1 + l)] =
                        bins[static_cast<size_t>(t + lag + l)];
                }
                tuple[static_cast<size_t>(window)] = bins[static_cast<size_t>(t)];
                if (combinations) {
                    for (auto& id : tuple) {
                        id = static_cast<std::uint32_t>(patternCategory[id]);
                    }
                }
                std::string key(reinterpret_cast<const char*>(tuple.data()),
                                length * sizeof(std::uint32_t));
                auto [it, inserted] =
                    index.try_emplace(std::move(key), static_cast<std::uint32_t>(index.size()));
                if (inserted) {
                    out.tuples.insert(out.tuples.end(), tuple.begin(), tuple.end());
                }
                blockIds.push_back(it->second);
            }
            std::sort(blockIds.begin(), blockIds.end());
            for (size_t i = 0; i < blockIds.size();) {
                size_t j = i;
                while (j < blockIds.size() && blockIds[j] == blockIds[i]) {
                    ++j;
                }
                out.entryTuple.push_back(blockIds[i]);
                out.entryCount.push_back(static_cast<std::int64_t>(j - i));
                i = j;
            }
            out.entryOffset.push_back(static_cast<std::int64_t>(out.entryTuple.size()));
            out.blockTriples.push_back(std::max<std::int64_t>(0, last - first));
            out.blockBins.push_back(end - begin);
        }
    }
    return out;
}

ClassMoments weightedClass(const HmmBlockMoments& blocks, const ClassBlocks& cls,
                           const std::vector<std::int64_t>& weights, const char* name) {
    if (weights.size() != cls.blockTriples.size()) {
        throw std::invalid_argument(std::string("HmmBlockMoments::weighted: ") + name + " has " +
                                    std::to_string(cls.blockTriples.size()) + " blocks, got " +
                                    std::to_string(weights.size()) + " weights");
    }
    const size_t numTuples =
        cls.tupleLength > 0 ? cls.tuples.size() / static_cast<size_t>(cls.tupleLength) : 0;
    std::vector<std::int64_t> counts(numTuples, 0);
    std::int64_t triples = 0;
    std::int64_t bins = 0;
    for (size_t b = 0; b < weights.size(); ++b) {
        const std::int64_t w = weights[b];
        if (w < 0) {
            throw std::invalid_argument("HmmBlockMoments::weighted: negative block weight");
        }
        if (w == 0) {
            continue;
        }
        for (auto e = cls.entryOffset[b]; e < cls.entryOffset[b + 1]; ++e) {
            counts[cls.entryTuple[static_cast<size_t>(e)]] +=
                w * cls.entryCount[static_cast<size_t>(e)];
        }
        triples += w * cls.blockTriples[b];
        bins += w * cls.blockBins[b];
    }
    const SequenceMoments& ref = blocks.reference;
    const auto length = static_cast<size_t>(cls.tupleLength);
    if (ref.encoding == ObservationEncoding::MarkVector) {
        const int marks = ref.numMarks();
        detail::MarkVectorTotals totals = detail::emptyMarkVectorTotals(
            marks, ref.window, static_cast<int>(blocks.present.size()));
        for (size_t j = 0; j < numTuples; ++j) {
            if (counts[j] > 0) {
                detail::addMarkVectorTuple(totals, blocks.present, marks, ref.window,
                                           cls.tuples.data() + j * length, counts[j]);
            }
        }
        return detail::markVectorMomentsFromTotals(blocks.present, marks, ref.window, totals,
                                                   triples, bins, cls.numRuns);
    }
    detail::CategoryTripleCounts sparse;
    for (size_t j = 0; j < numTuples; ++j) {
        if (counts[j] > 0) {
            const std::uint32_t* t = cls.tuples.data() + j * length;
            sparse.emplace_back(detail::categoryTripleKey(t[0], t[1], t[2]), counts[j]);
        }
    }
    std::sort(sparse.begin(), sparse.end());
    return detail::categoryMomentsFromCounts(sparse, triples, bins, cls.numRuns, ref.featureDim,
                                             ref.projection());
}

std::vector<std::int64_t> multinomialBlocks(int numBlocks, Rng& rng) {
    std::vector<std::int64_t> weights(static_cast<size_t>(numBlocks), 0);
    for (int i = 0; i < numBlocks; ++i) {
        ++weights[rng.below(static_cast<std::uint64_t>(numBlocks))];
    }
    return weights;
}

} // namespace

int automaticBlockLength(const ChromatinData& data, const BinClasses& classes, std::uint8_t flag,
                         const CancelToken& cancel) {
    detail::checkClasses(data, classes, "computeBlockMoments");
    const std::vector<BinRun> runs = runsWithFlag(data, classes, flag, /*breakAtMissing=*/true);
    std::int64_t n = 0;
    for (const BinRun& run : runs) {
        n += run.length();
    }
    if (n < 3) {
        return 1;
    }
    const int marks = data.numMarks();
    const int words = std::max(1, (marks + 63) / 64);
    const int patterns = data.numPatterns();
    std::vector<std::uint64_t> masks(static_cast<size_t>(patterns) * static_cast<size_t>(words), 0);
    std::vector<std::int64_t> patternCount(static_cast<size_t>(patterns), 0);
    for (int p = 0; p < patterns; ++p) {
        for (int j = 0; j < marks; ++j) {
            if (data.value(p, j) == static_cast<std::uint8_t>(MarkValue::Present)) {
                masks[static_cast<size_t>(p) * static_cast<size_t>(words) +
                      static_cast<size_t>(j / 64)] |= std::uint64_t{1} << (j % 64);
            }
        }
    }
    for (const BinRun& run : runs) {
        const auto& bins = data.tracks[static_cast<size_t>(run.track)].bins;
        for (std::int64_t t = run.begin; t < run.end; ++t) {
            ++patternCount[bins[static_cast<size_t>(t)]];
        }
    }
    // μ, a_p = ⟨x_p, μ⟩ and |μ|².
    Eigen::VectorXd mu = Eigen::VectorXd::Zero(marks);
    for (int p = 0; p < patterns; ++p) {
        if (patternCount[static_cast<size_t>(p)] == 0) {
            continue;
        }
        for (int j = 0; j < marks; ++j) {
            if (data.value(p, j) == static_cast<std::uint8_t>(MarkValue::Present)) {
                mu[j] += static_cast<double>(patternCount[static_cast<size_t>(p)]);
            }
        }
    }
    mu /= static_cast<double>(n);
    const double muSquared = mu.squaredNorm();
    std::vector<double> a(static_cast<size_t>(patterns), 0.0);
    for (int p = 0; p < patterns; ++p) {
        for (int j = 0; j < marks; ++j) {
            if (data.value(p, j) == static_cast<std::uint8_t>(MarkValue::Present)) {
                a[static_cast<size_t>(p)] += mu[j];
            }
        }
    }
    // Prefix sums of a along every run: Σ_{t∈[b, e)} a_t in O(1).
    std::vector<std::vector<double>> prefix(runs.size());
    for (size_t r = 0; r < runs.size(); ++r) {
        const auto& bins = data.tracks[static_cast<size_t>(runs[r].track)].bins;
        auto& sums = prefix[r];
        sums.assign(static_cast<size_t>(runs[r].length() + 1), 0.0);
        for (std::int64_t t = 0; t < runs[r].length(); ++t) {
            sums[static_cast<size_t>(t + 1)] =
                sums[static_cast<size_t>(t)] + a[bins[static_cast<size_t>(runs[r].begin + t)]];
        }
    }
    auto autocovariance = [&](std::int64_t k) {
        throwIfCancelled(cancel);
        std::int64_t shared = 0;
        double linear = 0;
        std::int64_t pairs = 0;
        for (size_t r = 0; r < runs.size(); ++r) {
            const std::int64_t len = runs[r].length();
            if (len <= k) {
                continue;
            }
            const std::uint32_t* bins =
                data.tracks[static_cast<size_t>(runs[r].track)].bins.data() + runs[r].begin;
            for (std::int64_t t = 0; t + k < len; ++t) {
                const std::uint64_t* x =
                    masks.data() + static_cast<size_t>(bins[t]) * static_cast<size_t>(words);
                const std::uint64_t* y =
                    masks.data() + static_cast<size_t>(bins[t + k]) * static_cast<size_t>(words);
                for (int w = 0; w < words; ++w) {
                    shared += std::popcount(x[w] & y[w]);
                }
            }
            const auto& sums = prefix[r];
            linear += sums[static_cast<size_t>(len - k)] +
                      (sums[static_cast<size_t>(len)] - sums[static_cast<size_t>(k)]);
            pairs += len - k;
        }
        return (static_cast<double>(shared) - linear + static_cast<double>(pairs) * muSquared) /
               static_cast<double>(n);
    };
    const double r0 = autocovariance(0);
    const double nd = static_cast<double>(n);
    const auto cap = static_cast<int>(
        std::max(1.0, std::min(std::ceil(3.0 * std::sqrt(nd)), std::ceil(nd / 3.0))));
    if (!(r0 > 1e-12 * std::max(1.0, muSquared))) {
        return 1;
    }
    const double log10n = std::log10(nd);
    const double threshold = 2.0 * std::sqrt(log10n / nd);
    const int kn = std::max(5, static_cast<int>(std::ceil(std::sqrt(log10n))));
    const std::int64_t mMax =
        std::min<std::int64_t>(static_cast<std::int64_t>(std::ceil(std::sqrt(nd))) + kn, n - 1);
    std::vector<double> cov{r0};
    auto covAt = [&](std::int64_t k) {
        while (static_cast<std::int64_t>(cov.size()) <= k) {
            cov.push_back(autocovariance(static_cast<std::int64_t>(cov.size())));
        }
        return cov[static_cast<size_t>(k)];
    };
    std::int64_t mHat = mMax;
    int quiet = 0;
    for (std::int64_t k = 1; k <= mMax; ++k) {
        if (std::abs(covAt(k) / r0) < threshold) {
            if (++quiet == kn) {
                mHat = k - kn;
                break;
            }
        } else {
            quiet = 0;
        }
    }
    const std::int64_t bigM = std::min(2 * mHat, mMax);
    double g = r0;
    double bigG = 0;
    for (std::int64_t k = 1; k <= bigM; ++k) {
        const double lambda = flatTop(static_cast<double>(k) / static_cast<double>(bigM));
        g += 2 * lambda * covAt(k);
        bigG += 2 * lambda * static_cast<double>(k) * covAt(k);
    }
    if (!(g > 0)) {
        return cap;
    }
    const double length = std::cbrt(bigG * bigG / (g * g)) * std::cbrt(nd);
    if (!std::isfinite(length)) {
        return cap;
    }
    return std::clamp(static_cast<int>(std::ceil(length)), 1, cap);
}

SequenceMoments
HmmBlockMoments::weighted(const std::vector<std::int64_t>& foregroundWeights,
                          const std::vector<std::int64_t>& backgroundWeights) const {
    SequenceMoments out = reference;
    out.foreground = weightedClass(*this, foreground, foregroundWeights, "foreground");
    out.background = weightedClass(*this, background, backgroundWeights, "background");
    out.elapsedMs = 0;
    return out;
}

SequenceMoments HmmBlockMoments::replicate(std::uint64_t seed, std::uint64_t index) const {
    Rng rng(deriveSeed(seed, index));
    const std::vector<std::int64_t> fg = multinomialBlocks(foreground.numBlocks(), rng);
    const std::vector<std::int64_t> bg = multinomialBlocks(background.numBlocks(), rng);
    return weighted(fg, bg);
}

HmmBlockMoments computeBlockMoments(const ChromatinData& data, const BinClasses& classes,
                                    const SequenceMoments& moments, int blockLength,
                                    const CancelToken& cancel) {
    detail::checkClasses(data, classes, "computeBlockMoments");
    if (blockLength < 0) {
        throw std::invalid_argument("computeBlockMoments: block length must be >= 0 (0 = "
                                    "automatic), got " +
                                    std::to_string(blockLength));
    }
    if (moments.numPatterns != data.numPatterns() || moments.numMarks() != data.numMarks()) {
        throw std::invalid_argument("computeBlockMoments: the moments come from other data");
    }
    HmmBlockMoments out;
    out.reference = moments;
    out.present = detail::presentMarksOfPatterns(data);
    if (moments.encoding == ObservationEncoding::MarkCombination) {
        out.patternCategory.assign(static_cast<size_t>(data.numPatterns()), -1);
        for (size_t c = 0; c < moments.categoryPattern.size(); ++c) {
            out.patternCategory[static_cast<size_t>(moments.categoryPattern[c])] =
                static_cast<int>(c);
        }
    }
    const int fgLength =
        blockLength > 0 ? blockLength : automaticBlockLength(data, classes, kForegroundBin, cancel);
    const int bgLength =
        blockLength > 0 ? blockLength : automaticBlockLength(data, classes, kBackgroundBin, cancel);
    out.foreground = cutIntoBlocks(data, classes, kForegroundBin, moments, out.patternCategory,
                                   fgLength, cancel);
    out.background = cutIntoBlocks(data, classes, kBackgroundBin, moments, out.patternCategory,
                                   bgLength, cancel);
    return out;
}

bool HmmPathBootstrap::isUnstable(int id) const {
    const double s = stabilityOf(id);
    return std::isfinite(s) && s < kMinStateStability;
}

double HmmPathBootstrap::stabilityOf(int id) const {
    if (id < 0 || static_cast<size_t>(id) >= identityStability.size()) {
        return kNaN;
    }
    return identityStability[static_cast<size_t>(id)];
}

HmmPathBootstrap bootstrapHmmPath(const HmmBlockMoments& blocks, const HmmPath& path,
                                  const ContrastiveHmmOptions& options,
                                  const HmmBootstrapOptions& bootstrap, HmmPathStarts starts,
                                  const CancelToken& cancel,
                                  const std::function<void(int, int)>& progress) {
    if (bootstrap.replicates < 2 || bootstrap.replicates > kMaxHmmBootstrapReplicates) {
        throw std::invalid_argument(
            "parameter bootstrap: needs 2 to " + std::to_string(kMaxHmmBootstrapReplicates) +
            " replicates (got " + std::to_string(bootstrap.replicates) + ")");
    }
    if (!(bootstrap.level > 0 && bootstrap.level < 1)) {
        throw std::invalid_argument("bootstrapHmmPath: level must lie in (0, 1)");
    }
    if (path.gammas.empty()) {
        throw std::invalid_argument("bootstrapHmmPath: the γ path is empty");
    }
    Stopwatch watch;
    const size_t points = path.gammas.size();
    const int b = bootstrap.replicates;
    std::vector<std::vector<std::vector<double>>> weights(points);
    std::vector<std::vector<int>> hits(points);
    for (size_t i = 0; i < points; ++i) {
        const auto k = static_cast<size_t>(path.solutions[i].weights.size());
        weights[i].assign(k, {});
        hits[i].assign(k, 0);
    }
    for (int r = 0; r < b; ++r) {
        throwIfCancelled(cancel);
        const SequenceMoments moments =
            blocks.replicate(bootstrap.seed, static_cast<std::uint64_t>(r));
        HmmPath replicate;
        bool solved = true;
        try {
            replicate = solveHmmPath(moments, path.gammas, options, starts, cancel);
        } catch (const std::invalid_argument&) {
            // A replicate without foreground triples (tiny data): no state reappears in it.
            solved = false;
        }
        for (size_t i = 0; solved && i < points; ++i) {
            const ContrastiveHmmResult& original = path.solutions[i];
            const ContrastiveHmmResult& other = replicate.solutions[i];
            const Eigen::MatrixXd& p = original.markProbabilities;
            const Eigen::MatrixXd& q = other.markProbabilities;
            if (p.rows() == 0 || q.rows() == 0 || p.cols() != q.cols()) {
                continue;
            }
            // The path's identity rule (continueIdentities): Hungarian, then within tolerance.
            const bool originalIsReference = p.rows() <= q.rows();
            const std::vector<int> match =
                originalIsReference ? matchStates(p, q) : matchStates(q, p);
            for (size_t m = 0; m < match.size(); ++m) {
                const auto o = static_cast<Eigen::Index>(originalIsReference ? m : match[m]);
                const auto s = static_cast<Eigen::Index>(originalIsReference ? match[m] : m);
                if (o < 0 || s < 0) {
                    continue;
                }
                const double change = (p.row(o) - q.row(s)).cwiseAbs().maxCoeff();
                if (change > kStateIdentityMaxMarkChange ||
                    (original.weights[o] > 0) != (other.weights[s] > 0)) {
                    continue;
                }
                weights[i][static_cast<size_t>(o)].push_back(other.weights[s]);
                ++hits[i][static_cast<size_t>(o)];
            }
        }
        if (progress) {
            progress(r + 1, b);
        }
    }
    const double lo = 0.5 * (1 - bootstrap.level);
    const double hi = 1 - lo;
    HmmPathBootstrap out;
    out.replicates = b;
    out.level = bootstrap.level;
    out.seed = bootstrap.seed;
    out.gammas = path.gammas;
    out.foregroundBlockLength = blocks.foreground.blockLength;
    out.backgroundBlockLength = blocks.background.blockLength;
    out.foregroundBlocks = blocks.foreground.numBlocks();
    out.backgroundBlocks = blocks.background.numBlocks();
    out.stability.resize(points);
    out.weightLo.resize(points);
    out.weightHi.resize(points);
    std::vector<double> sum(static_cast<size_t>(path.numIdentities), 0.0);
    std::vector<int> count(static_cast<size_t>(path.numIdentities), 0);
    for (size_t i = 0; i < points; ++i) {
        for (size_t t = 0; t < weights[i].size(); ++t) {
            const double stability = static_cast<double>(hits[i][t]) / b;
            out.stability[i].push_back(stability);
            out.weightLo[i].push_back(percentileOf(weights[i][t], lo));
            out.weightHi[i].push_back(percentileOf(weights[i][t], hi));
            const auto id = static_cast<size_t>(path.ids[i][t]);
            sum[id] += stability;
            count[id] += 1;
        }
    }
    for (size_t id = 0; id < sum.size(); ++id) {
        out.identityStability.push_back(count[id] > 0 ? sum[id] / count[id] : kNaN);
    }
    out.elapsedMs = watch.elapsedMs();
    return out;
}

} // namespace cx
