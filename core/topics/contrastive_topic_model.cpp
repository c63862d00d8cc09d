#include "core/topics/contrastive_topic_model.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/common/timer.h"
#include "core/tensor/linalg.h"
#include "core/tensor/randomized_eigen.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <functional>
#include <future>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace cx {

namespace {

/// a·x in fixed blocks of rows on the worker threads: each block is the same GEMM whichever
/// thread runs it, so the thread count changes nothing but the wall time (the vocabulary ×
/// rank basis times the K components is the largest product of a solve after the
/// contraction: 20k × 200 × 50 on Reuters at K = 50).
template <typename Scalar>
Eigen::MatrixXd rowBlockedProduct(const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& a,
                                  const Eigen::MatrixXd& x) {
    constexpr Eigen::Index kBlockRows = 2048;
    Eigen::MatrixXd out(a.rows(), x.cols());
    const Eigen::Index blocks = (a.rows() + kBlockRows - 1) / kBlockRows;
    const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> xs = x.template cast<Scalar>();
    parallelFor(blocks, [&](std::int64_t block) {
        const Eigen::Index begin = block * kBlockRows;
        const Eigen::Index rows = std::min(kBlockRows, a.rows() - begin);
        if constexpr (std::is_same_v<Scalar, double>) {
            out.middleRows(begin, rows).noalias() = a.middleRows(begin, rows) * xs;
        } else {
            out.middleRows(begin, rows) = (a.middleRows(begin, rows) * xs).template cast<double>();
        }
    });
    return out;
}

constexpr double kRankTolerance = 1e-10;

/// Alg. 2's options for Alg. 1 at contrast γ. The contrastive weights satisfy
/// ω_t = w_t^f − γ·w_t^b ∈ [−γ, 1], so |λ| = |ω|^{-1/2} ≥ 1/√max(1, γ); trials more than a
/// factor kWeightSlack beyond that bound are no topic (they fit noise or model misfit).
PowerMethodOptions powerOptions(const TopicModelOptions& options, double gamma) {
    constexpr double kWeightSlack = 2.0;
    PowerMethodOptions out;
    out.minAbsLambda = 1.0 / std::sqrt(kWeightSlack * std::max(1.0, gamma));
    out.numComponents = options.numComponents;
    out.iterations = options.iterations;
    out.restarts = options.restarts;
    out.seed = options.seed;
    out.tolerance = options.tolerance;
    out.singlePrecisionSteps = true;
    return out;
}

void validateOptions(const TopicModelOptions& options) {
    if (options.numComponents < 1) {
        throw InputError("parameter K: must be at least 1 (got " +
                         std::to_string(options.numComponents) + ")");
    }
    if (options.iterations < 1 || options.iterations > 100000) {
        throw InputError("parameter iterations: must lie in [1, 100000] (got " +
                         std::to_string(options.iterations) + ")");
    }
    if (options.restarts < 1 || options.restarts > 1000) {
        throw InputError("parameter restarts: must lie in [1, 1000] (got " +
                         std::to_string(options.restarts) + ")");
    }
}

/// Rejects K above the numerical rank of the kept M2 eigenvalues.
void checkRank(const Eigen::VectorXd& eigenvalues, int k, double gamma) {
    const int rank = numericalRank(eigenvalues, kRankTolerance);
    if (rank < k) {
        throw InputError(
            "parameter K: K = " + std::to_string(k) + " exceeds the rank (" + std::to_string(rank) +
            ") of the contrastive second moment M2f - gamma*M2b at gamma = " + formatNumber(gamma) +
            "; choose K <= " + std::to_string(rank));
    }
}

/// Whitened residuals closer than this count as equally good (ContrastiveTopicEngine::solve).
constexpr double kResidualTie = 0.01;

} // namespace

KeptDirections selectKeptDirections(const Eigen::MatrixXd& m2, const Eigen::MatrixXd& noise, int k,
                                    KeptOrder orderRule) {
    const Eigen::Index n = m2.rows();
    if (m2.cols() != n || k < 1 || k > n) {
        throw std::invalid_argument("selectKeptDirections: need a square matrix and 1 <= k <= n "
                                    "(n = " +
                                    std::to_string(n) + ", k = " + std::to_string(k) + ")");
    }
    const bool haveNoise = noise.rows() == n && noise.cols() == n;
    const Eigen::MatrixXd sym = 0.5 * (m2 + m2.transpose());
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(sym);
    const Eigen::VectorXd& values = solver.eigenvalues();
    const Eigen::MatrixXd& vectors = solver.eigenvectors();
    Eigen::VectorXd level = Eigen::VectorXd::Zero(n);
    if (haveNoise) {
        level = (noise * vectors).colwise().norm().transpose();
    }
    // Class of a direction: 0 = significant positive, 1 = significant negative, 2 = the rest.
    std::vector<int> klass(static_cast<size_t>(n), 2);
    KeptDirections out;
    if (haveNoise) {
        out.positiveSignalToNoise = 0;
    }
    for (Eigen::Index i = 0; i < n; ++i) {
        if (haveNoise && values[i] > 0) {
            const double ratio = level[i] > 0 ? values[i] / (2.0 * level[i])
                                              : std::numeric_limits<double>::infinity();
            out.positiveSignalToNoise = std::max(out.positiveSignalToNoise, ratio);
        }
        if (haveNoise && std::abs(values[i]) > 2.0 * level[i]) {
            klass[static_cast<size_t>(i)] = values[i] > 0 ? 0 : 1;
            ++out.significant;
            out.significantPositive += values[i] > 0 ? 1 : 0;
        }
    }
    const bool positivesFirst = orderRule == KeptOrder::PositiveFirst;
    // Rank used for the order: positives first keeps classes 0 < 1 < 2; by magnitude is one
    // class. Within a rank: decreasing |λ| (stable: ties keep ascending λ).
    auto rankOf = [&](Eigen::Index i) {
        return positivesFirst ? klass[static_cast<size_t>(i)] : 0;
    };
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
        const int ra = rankOf(a), rb = rankOf(b);
        if (ra != rb) {
            return ra < rb;
        }
        return std::abs(values[a]) > std::abs(values[b]);
    });
    out.low.values.resize(k);
    out.low.vectors.resize(n, k);
    out.noise.resize(k);
    for (int j = 0; j < k; ++j) {
        const Eigen::Index i = order[static_cast<size_t>(j)];
        out.low.values[j] = values[i];
        Eigen::VectorXd v = vectors.col(i);
        Eigen::Index arg = 0;
        v.cwiseAbs().maxCoeff(&arg);
        if (v[arg] < 0) {
            v = -v; // reproducible sign
        }
        out.low.vectors.col(j) = v;
        out.noise[j] = level[i];
    }
    return out;
}

int TopicModelResult::numForegroundSpecific() const {
    return static_cast<int>(std::count(foregroundSpecific.begin(), foregroundSpecific.end(), true));
}

void validateGamma(double gamma) {
    if (!std::isfinite(gamma)) {
        throw InputError("parameter gamma: must be a finite number (got " + formatNumber(gamma) +
                         ")");
    }
    if (gamma < 0) {
        throw InputError("parameter gamma: must be >= 0 (got " + formatNumber(gamma) + ")");
    }
}

TopicModelResult makeTopicModelResult(double gamma, const PowerMethodResult& decomposition,
                                      const Eigen::MatrixXd& wordSpaceComponents,
                                      const Eigen::MatrixXd& projectedComponents) {
    const Eigen::Index all = decomposition.lambdas.size();
    const Eigen::Index d = wordSpaceComponents.rows();
    Eigen::VectorXd signedWeights(all);
    std::vector<Eigen::Index> order; // the non-degenerate components
    for (Eigen::Index t = 0; t < all; ++t) {
        const double lambda = decomposition.lambdas[t];
        signedWeights[t] = lambda == 0 ? 0.0 : (lambda > 0 ? 1.0 : -1.0) / (lambda * lambda);
        const bool degenerate = static_cast<size_t>(t) < decomposition.degenerate.size() &&
                                decomposition.degenerate[static_cast<size_t>(t)];
        if (!degenerate) {
            order.push_back(t);
        }
    }
    const auto k = static_cast<Eigen::Index>(order.size());
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
        return signedWeights[a] > signedWeights[b];
    });

    TopicModelResult result;
    result.gamma = gamma;
    result.topics.resize(d, k);
    result.lambdas.resize(k);
    result.weights.resize(k);
    result.signedWeights.resize(k);
    result.clippedMass.resize(k);
    result.foregroundSpecific.reserve(static_cast<size_t>(k));
    result.m2Eigenvalues = decomposition.m2Eigenvalues;
    result.status = decomposition.status;
    result.numRejected = static_cast<int>(all - k);
    const bool keepProjected = projectedComponents.cols() == all;
    if (keepProjected) {
        result.projectedComponents.resize(projectedComponents.rows(), k);
    }
    // Components side by side: each writes only its own column and entries, so the numbers do
    // not depend on the thread count (a vocabulary of 20k words at K = 50: 3.3 → 1.6 ms).
    parallelFor(k, [&](std::int64_t slot) {
        const Eigen::Index t = order[static_cast<size_t>(slot)];
        const double lambda = decomposition.lambdas[t];
        Eigen::VectorXd a = wordSpaceComponents.col(t);
        if (a.sum() < 0) {
            a = -a; // orient: â = σ·a, and a ∝ μ has positive mass
        }
        const double l1 = a.cwiseAbs().sum();
        const double negative = (-a.array()).max(0.0).sum();
        Eigen::VectorXd clipped = a.array().max(0.0).matrix();
        const double mass = clipped.sum();
        if (mass > 0) {
            clipped /= mass;
        } else {
            clipped.setConstant(1.0 / static_cast<double>(d));
        }
        result.topics.col(slot) = clipped;
        if (keepProjected) {
            result.projectedComponents.col(slot) = projectedComponents.col(t);
        }
        result.lambdas[slot] = lambda;
        result.signedWeights[slot] = signedWeights[t];
        result.weights[slot] = lambda > 0 ? 1.0 / (lambda * lambda) : 0.0;
        result.clippedMass[slot] = l1 > 0 ? negative / l1 : 1.0;
    });
    for (const Eigen::Index t : order) { // vector<bool> packs bits: written by one thread
        result.foregroundSpecific.push_back(decomposition.lambdas[t] > 0);
        result.iterations.push_back(decomposition.iterations[static_cast<size_t>(t)]);
        result.converged.push_back(decomposition.converged[static_cast<size_t>(t)]);
    }
    return result;
}

ContrastiveTopicEngine::ContrastiveTopicEngine(std::shared_ptr<const CountMatrix> counts,
                                               std::vector<std::int64_t> foreground,
                                               std::vector<std::int64_t> background,
                                               int maxComponents, const ProjectionOptions& options,
                                               const CancelToken& cancel,
                                               const ProgressFn& progress)
    : m_counts(std::move(counts)),
      m_foreground(foreground.empty()
                       ? throw InputError("foreground: the rule selects no documents")
                       : DocumentMoments(*m_counts, std::move(foreground))),
      m_background(background.empty()
                       ? throw InputError("background: the rule selects no documents")
                       : DocumentMoments(*m_counts, std::move(background))),
      m_maxComponents(maxComponents) {
    const Eigen::Index d = m_foreground.dimension();
    if (maxComponents < 1) {
        throw InputError("parameter K: must be at least 1 (got " + std::to_string(maxComponents) +
                         ")");
    }
    if (maxComponents > d) {
        throw InputError("parameter K: K = " + std::to_string(maxComponents) +
                         " exceeds the vocabulary size (" + std::to_string(d) + ")");
    }
    int perSide = options.rankPerSide > 0 ? options.rankPerSide
                                          : std::max(2 * maxComponents, maxComponents + 8);
    perSide = std::max(perSide, maxComponents);
    perSide = static_cast<int>(std::min<Eigen::Index>(perSide, d));
    m_rankPerSide = perSide;

    auto report = [&](double fraction, const char* phase) {
        if (progress) {
            progress(fraction, phase);
        }
    };
    Stopwatch watch;
    // Range of each side: top eigenvectors (by |eigenvalue|) of the unbiased M2 estimator. The
    // products run in single precision unless options say otherwise: only the spanned subspace
    // is used, and the moments are then projected on it in double.
    // Each side's word-major layout is built once and serves its range finder and its
    // projection (about 6 bytes per non-zero each; both are freed after the projections).
    using Layout = std::shared_ptr<const DocumentMoments::WordMajorLayout>;
    auto m2Operator = [&](const DocumentMoments& side, const Layout& layout) -> BlockOperator {
        if (options.singlePrecisionRange) {
            return [&side, &cancel, &layout](const Eigen::MatrixXd& x) {
                return side.m2TimesSingle(x, *layout, cancel);
            };
        }
        return [&side, &cancel](const Eigen::MatrixXd& x) { return side.m2Times(x, cancel); };
    };
    report(0.0, "range of foreground M2");
    Layout layoutF = m_foreground.wordMajorLayout(cancel);
    const SymmetricLowRank rangeF =
        randomizedSymmetricEigen(m2Operator(m_foreground, layoutF), d, perSide, options.oversample,
                                 options.powerIterations, options.seed, cancel);
    report(0.25, "range of background M2");
    Layout layoutB = m_background.wordMajorLayout(cancel);
    const SymmetricLowRank rangeB =
        randomizedSymmetricEigen(m2Operator(m_background, layoutB), d, perSide, options.oversample,
                                 options.powerIterations, options.seed + 1, cancel);
    Eigen::MatrixXd joint(d, 2 * perSide);
    joint << rangeF.vectors, rangeB.vectors;
    m_basis = orthonormalBasis(joint, 1e-8);
    m_timings.rangeMs = watch.elapsedMs();

    watch.restart();
    report(0.5, "projecting foreground moments");
    DocumentMoments::Projected f = m_foreground.project(m_basis, *layoutF, cancel);
    layoutF.reset();
    report(0.75, "projecting background moments");
    DocumentMoments::Projected b = m_background.project(m_basis, *layoutB, cancel);
    layoutB.reset();
    adoptProjection(std::move(f), std::move(b));
    m_timings.projectionMs = watch.elapsedMs();
    report(1.0, "moments ready");
}

void ContrastiveTopicEngine::adoptProjection(DocumentMoments::Projected f,
                                             DocumentMoments::Projected b) {
    m_m2f = std::move(f.m2);
    m_m3f = std::move(f.m3);
    m_m2b = std::move(b.m2);
    m_m3b = std::move(b.m3);
    m_noiseF = std::move(f.m2Noise);
    m_noiseB = std::move(b.m2Noise);
    m_noiseAvailable = f.noiseAvailable && b.noiseAvailable;
    m_basisSingle = m_basis.cast<float>();
}

ContrastiveTopicEngine::ContrastiveTopicEngine(const ContrastiveTopicEngine& source,
                                               std::vector<std::int64_t> fg,
                                               std::vector<std::int64_t> bg,
                                               const CancelToken& cancel)
    : m_counts(source.m_counts), m_foreground(*m_counts, std::move(fg)),
      m_background(*m_counts, std::move(bg)), m_maxComponents(source.m_maxComponents),
      m_rankPerSide(source.m_rankPerSide), m_basis(source.m_basis) {
    Stopwatch watch;
    DocumentMoments::Projected f = m_foreground.project(m_basis, cancel);
    DocumentMoments::Projected b = m_background.project(m_basis, cancel);
    adoptProjection(std::move(f), std::move(b));
    m_timings.projectionMs = watch.elapsedMs();
}

ContrastiveTopicEngine ContrastiveTopicEngine::resampled(std::uint64_t seed,
                                                         const CancelToken& cancel) const {
    Rng rng(seed);
    auto draw = [&](const std::vector<std::int64_t>& documents) {
        std::vector<std::int64_t> out(documents.size());
        for (auto& d : out) {
            d = documents[static_cast<size_t>(rng.below(documents.size()))];
        }
        std::sort(out.begin(), out.end()); // locality of the pass; the multiset is what counts
        return out;
    };
    std::vector<std::int64_t> fg = draw(m_foreground.documents());
    std::vector<std::int64_t> bg = draw(m_background.documents());
    return ContrastiveTopicEngine(*this, std::move(fg), std::move(bg), cancel);
}

ContrastiveTopicEngine ContrastiveTopicEngine::half(std::uint64_t seed, int which,
                                                    const CancelToken& cancel) const {
    if (which != 0 && which != 1) {
        throw std::invalid_argument("ContrastiveTopicEngine::half: which must be 0 or 1");
    }
    Rng rng(seed);
    auto take = [&](std::vector<std::int64_t> documents) {
        // Fisher–Yates with the seeded stream, then the first or the second part.
        for (size_t i = documents.size(); i > 1; --i) {
            std::swap(documents[i - 1], documents[static_cast<size_t>(rng.below(i))]);
        }
        const auto middle =
            documents.begin() + static_cast<std::ptrdiff_t>((documents.size() + 1) / 2);
        std::vector<std::int64_t> out = which == 0
                                            ? std::vector<std::int64_t>(documents.begin(), middle)
                                            : std::vector<std::int64_t>(middle, documents.end());
        std::sort(out.begin(), out.end()); // locality of the pass
        return out;
    };
    std::vector<std::int64_t> fg = take(m_foreground.documents());
    std::vector<std::int64_t> bg = take(m_background.documents());
    if (fg.empty() || bg.empty()) {
        throw InputError(std::string("split halves: the ") +
                         (fg.empty() ? "foreground" : "background") +
                         " needs at least 2 documents to be split in two");
    }
    return ContrastiveTopicEngine(*this, std::move(fg), std::move(bg), cancel);
}

TopicModelResult ContrastiveTopicEngine::solve(double gamma, const TopicModelOptions& options,
                                               const CancelToken& cancel) const {
    return solveImpl(gamma, options, nullptr, cancel);
}

TopicModelResult ContrastiveTopicEngine::solveFrom(double gamma, const TopicModelOptions& options,
                                                   const TopicModelResult& neighbour,
                                                   const CancelToken& cancel) const {
    return solveImpl(gamma, options, &neighbour, cancel);
}

TopicModelResult ContrastiveTopicEngine::solveImpl(double gamma, const TopicModelOptions& options,
                                                   const TopicModelResult* neighbour,
                                                   const CancelToken& cancel) const {
    validateGamma(gamma);
    validateOptions(options);
    if (options.numComponents > rank()) {
        throw InputError("parameter K: K = " + std::to_string(options.numComponents) +
                         " exceeds the rank of the projected moments (" + std::to_string(rank()) +
                         "); rebuild the engine for a larger K");
    }
    Stopwatch watch;
    const Eigen::MatrixXd m2 = m_m2f - gamma * m_m2b;
    // Independent halves: the noise of M2f − γ·M2b is estimated by noiseF − γ·noiseB.
    const Eigen::MatrixXd noise =
        m_noiseAvailable ? Eigen::MatrixXd(m_noiseF - gamma * m_noiseB) : Eigen::MatrixXd();
    // The noise level (largest |eigenvalue| of the noise estimate) needs nothing of the solve:
    // with a second thread it runs beside the kept directions' eigendecomposition.
    auto noiseLevelOf = [](const Eigen::MatrixXd& estimate) {
        return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(estimate, Eigen::EigenvaluesOnly)
            .eigenvalues()
            .cwiseAbs()
            .maxCoeff();
    };
    std::future<double> noiseLevel;
    if (m_noiseAvailable) {
        noiseLevel = std::async(threadCount() > 1 ? std::launch::async : std::launch::deferred,
                                noiseLevelOf, std::cref(noise));
    }
    const PowerMethodOptions power = powerOptions(options, gamma);
    const bool haveNeighbour = neighbour != nullptr &&
                               neighbour->projectedComponents.rows() == rank() &&
                               neighbour->projectedComponents.cols() > 0;
    // One kept set: the run continued from the neighbour and the fresh run; the continued one
    // stays unless the fresh one's whitened residual is smaller by more than kResidualTie.
    struct Candidate {
        PowerMethodResult decomposition;
        double residual = 0;
        bool warm = false;
        KeptDirections kept;
    };
    auto solveKept = [&](KeptOrder rule) {
        Candidate out;
        out.kept = selectKeptDirections(m2, noise, options.numComponents, rule);
        checkRank(out.kept.low.values, options.numComponents, gamma);
        // M3f − γ·M3b enters through its contraction with the kept directions only.
        const DensePowerMethod method(out.kept.low, m_m3f, -gamma, m_m3b);
        // The run continued from the neighbour's components (one trial a component, so one
        // thread) goes beside the fresh run when there is a second thread: each run's numbers
        // do not depend on what runs beside it.
        std::future<PowerMethodResult> continuedRun;
        if (haveNeighbour && options.decomposition == Decomposition::Power) {
            continuedRun =
                std::async(threadCount() > 1 ? std::launch::async : std::launch::deferred, [&] {
                    return method.run(power, cancel, neighbour->projectedComponents);
                });
        }
        switch (options.decomposition) {
        case Decomposition::Jennrich:
            out.decomposition = method.runJennrich(power);
            break;
        case Decomposition::Pencil:
            out.decomposition = method.runPencil(
                power, method.pencilDirections(options.seed, 1 + options.restarts));
            break;
        case Decomposition::Power:
            out.decomposition = method.run(power, cancel);
            break;
        }
        out.residual = method.whitenedResidual(out.decomposition);
        if (continuedRun.valid()) {
            PowerMethodResult continued = continuedRun.get();
            const double continuedResidual = method.whitenedResidual(continued);
            if (!(out.residual < continuedResidual - kResidualTie)) {
                out.decomposition = std::move(continued);
                out.residual = continuedResidual;
                out.warm = true;
            }
        }
        return out;
    };
    auto positiveComponents = [](const PowerMethodResult& d) {
        int count = 0;
        for (Eigen::Index t = 0; t < d.lambdas.size(); ++t) {
            const bool degenerate = static_cast<size_t>(t) < d.degenerate.size() &&
                                    d.degenerate[static_cast<size_t>(t)];
            count += (!degenerate && d.lambdas[t] > 0) ? 1 : 0;
        }
        return count;
    };
    // Alg. 2's truncation by magnitude; if it leaves no
    // foreground-specific component although significant positive directions exist, the
    // positive directions go first.
    Candidate pick = solveKept(KeptOrder::ByMagnitude);
    if (positiveComponents(pick.decomposition) == 0 && pick.kept.significantPositive > 0) {
        Candidate positive = solveKept(KeptOrder::PositiveFirst);
        if (positiveComponents(positive.decomposition) > 0) {
            pick = std::move(positive);
        }
    }
    PowerMethodResult& decomposition = pick.decomposition;
    const double residual = pick.residual;
    const bool warm = pick.warm;
    const KeptDirections& kept = pick.kept;
    TopicModelResult result =
        makeTopicModelResult(gamma, decomposition,
                             options.singlePrecisionTopicWords
                                 ? rowBlockedProduct(m_basisSingle, decomposition.components)
                                 : rowBlockedProduct(m_basis, decomposition.components),
                             decomposition.components);
    result.residual = residual;
    result.warmStarted = warm;
    result.significantDirections = kept.significant;
    result.significantPositive = kept.significantPositive;
    result.positiveSignalToNoise = kept.positiveSignalToNoise;
    if (m_noiseAvailable) {
        result.noiseLevel = noiseLevel.get();
        result.effectiveRank = std::min(options.numComponents, kept.significant);
    } else {
        result.noiseLevel = std::numeric_limits<double>::quiet_NaN();
        result.effectiveRank = options.numComponents;
        result.significantDirections = options.numComponents;
    }
    result.solveMs = watch.elapsedMs();
    return result;
}

TopicModelResult solveContrastiveTopicsDirect(const DocumentMoments& foreground,
                                              const DocumentMoments& background, double gamma,
                                              const TopicModelOptions& options,
                                              const CancelToken& cancel, Eigen::Index denseLimit) {
    validateGamma(gamma);
    validateOptions(options);
    if (options.decomposition != Decomposition::Power) {
        throw InputError("parameter decomposition: the direct method decomposes with the power "
                         "method only (use the projected method for jennrich)");
    }
    const Eigen::Index d = foreground.dimension();
    if (background.dimension() != d) {
        throw std::invalid_argument("solveContrastiveTopicsDirect: vocabulary sizes differ");
    }
    if (options.numComponents > d) {
        throw InputError("parameter K: K = " + std::to_string(options.numComponents) +
                         " exceeds the vocabulary size (" + std::to_string(d) + ")");
    }
    Stopwatch watch;
    SymmetricLowRank low;
    if (d <= denseLimit) {
        const Eigen::MatrixXd m2 = foreground.denseM2() - gamma * background.denseM2();
        low = truncatedSymmetricEigen(m2, options.numComponents);
    } else {
        low = randomizedSymmetricEigen(
            [&](const Eigen::MatrixXd& x) {
                return Eigen::MatrixXd(foreground.m2Times(x, cancel) -
                                       gamma * background.m2Times(x, cancel));
            },
            d, options.numComponents, std::max(10, options.numComponents), 10, options.seed,
            cancel);
    }
    checkRank(low.values, options.numComponents, gamma);
    const TensorContraction m3 = [&](const Eigen::VectorXd& v) {
        Eigen::VectorXd out = foreground.m3Contract(v, cancel);
        if (gamma != 0) {
            out -= gamma * background.m3Contract(v, cancel);
        }
        return out;
    };
    const PowerMethodResult decomposition =
        generalizedPowerMethod(low, m3, powerOptions(options, gamma), cancel);
    TopicModelResult result = makeTopicModelResult(gamma, decomposition, decomposition.components);
    result.solveMs = watch.elapsedMs();
    return result;
}

} // namespace cx
