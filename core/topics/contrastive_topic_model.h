#pragma once

#include "core/common/cancel.h"
#include "core/common/status.h"
#include "core/io/corpus.h"
#include "core/tensor/jennrich.h"
#include "core/tensor/symmetric_tensor.h"
#include "core/tensor/tensor_power_method.h"
#include "core/topics/document_moments.h"

#include <Eigen/Dense>

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace cx {

/// Options of the Contrastive Topic Model estimator (Zou et al. 2013, Alg. 1 + Alg. 2).
struct TopicModelOptions {
    int numComponents = 10; ///< K
    int iterations = 100;   ///< N, maximum power iterations per trial (stops early on convergence)
    int restarts = 5;       ///< trials per component (median-|λ̂| kept)
    std::uint64_t seed = 1;
    double tolerance = 1e-10;
    /// Power: Alg. 2 (restarts, median trial, deflation, warm starts along a γ path).
    /// Jennrich: simultaneous diagonalisation of the whitened core (DensePowerMethod::
    /// runJennrich; `restarts` random slice pairs, no iterations, no warm starts). The direct
    /// (unprojected) method supports Power only.
    Decomposition decomposition = Decomposition::Power;
    /// The topics are mapped to words by a single-precision basis × components product (the
    /// D × r basis kept in float too): half the bytes and twice the vector width of the largest
    /// product of a solve at a large vocabulary; the decomposition itself stays in double, so
    /// weights and components are unchanged and topic entries move by about 1e-7 (tested).
    /// false = the double product.
    bool singlePrecisionTopicWords = true;
};

/// One decomposition at one γ. Components are sorted by signed weight sign(λ̂)/λ̂², so the
/// foreground-specific topics (λ̂ > 0) come first, heaviest first.
///
/// Recovered topics are â/‖â‖₁ in exact arithmetic, but with estimated moments â can have small
/// negative entries. `topics` holds each â oriented so that its entries sum to a positive
/// number, with negative entries clipped to zero and the column renormalised to sum to 1;
/// `clippedMass` records the ℓ1 fraction removed so that a badly recovered component is visible.
struct TopicModelResult {
    double gamma = 0;
    Eigen::MatrixXd topics;        ///< D × K, columns are word distributions
    Eigen::VectorXd lambdas;       ///< λ̂_t
    Eigen::VectorXd weights;       ///< 1/λ̂² for λ̂ > 0, else 0 (Alg. 1's ω for the topic)
    Eigen::VectorXd signedWeights; ///< sign(λ̂)/λ̂²: the contrastive ω_t estimate
    Eigen::VectorXd clippedMass;   ///< ℓ1 fraction of â clipped away, per component
    std::vector<bool> foregroundSpecific; ///< λ̂ > 0
    std::vector<int> iterations;          ///< power iterations used, per component
    /// Per component: its power iteration met the tolerance. Any false makes the status
    /// NotConverged (the iterate at the limit is kept, by the median rule like any other).
    std::vector<bool> converged;
    Eigen::VectorXd m2Eigenvalues; ///< the K eigenvalues of M2f − γ·M2b kept for its pseudo-inverse
    /// Components in the engine's projected coordinates (r × K, result order): the warm start of
    /// a neighbouring γ on a path (empty for the direct method).
    Eigen::MatrixXd projectedComponents;
    /// Eigen-directions of M2f − γ·M2b above their noise level (see selectKeptDirections), of
    /// either sign and of them the positive (foreground-specific) ones: the suggested K is
    /// `significantDirections`.
    int significantDirections = 0;
    int significantPositive = 0;
    /// The strongest foreground-specific signal against the split-half noise:
    /// the largest ratio λ / (2‖N·v‖) over the positive eigenpairs (λ, v) of M2f − γ·M2b, N its
    /// split-half error estimate — the significance rule of selectKeptDirections, so > 1 exactly
    /// when significantPositive > 0. 0 without a positive eigenvalue; NaN without a noise
    /// estimate (fewer than 2 documents on a side, or a hand-made or direct-method result).
    double positiveSignalToNoise = std::numeric_limits<double>::quiet_NaN();
    /// Whitened residual of M3 left by the decomposition (DensePowerMethod::whitenedResidual).
    double residual = 0;
    /// True when this solution was continued from a neighbour's components (warm start) and
    /// kept over the fresh random starts.
    bool warmStarted = false;
    /// Sampling-noise level of M2f − γ·M2b: the spectral norm of its split-half error estimate
    /// (NaN when a side has fewer than 2 documents). Eigenvalues below it are indistinguishable
    /// from zero.
    double noiseLevel = 0;
    /// How many of the K kept eigen-directions are above their noise level (see
    /// selectKeptDirections). Below K, the trailing components fit noise: a smaller K (or more
    /// data) gives steadier topics.
    int effectiveRank = 0;
    /// Components of the K requested that had no acceptable trial (a weight beyond the model's
    /// bound |ω| ≤ max(1, γ), by more than a factor 2): left out of the result, status
    /// NumericalIssue. Typically K exceeds what the data support at this γ.
    int numRejected = 0;
    Status status = Status::NotComputed;
    double solveMs = 0; ///< decomposition + mapping back

    int numComponents() const { return static_cast<int>(lambdas.size()); }
    int numForegroundSpecific() const;
};

/// Options for the joint-range projection of the interactive engine (SPEC §3.2).
struct ProjectionOptions {
    /// Eigenvectors kept from each of M2f and M2b; 0 = automatic, max(2K, K + 8) capped by the
    /// vocabulary and document counts. The joint basis has r ≤ 2·rankPerSide columns.
    int rankPerSide = 0;
    int oversample = 10;     ///< extra randomized-range-finder columns
    int powerIterations = 3; ///< subspace iterations (passes over the data) per side
    std::uint64_t seed = 1;
    /// The range finder's products in single precision (DocumentMoments::m2TimesSingle, about
    /// 2-3× faster); false = double (m2Times). Only the basis depends on it: the moments are
    /// projected on the basis in double either way.
    bool singlePrecisionRange = true;
};

/// The eigen-directions of a contrastive second moment M2f − γ·M2b kept for Alg. 2's
/// pseudo-inverse, and how many are above the noise.
struct KeptDirections {
    SymmetricLowRank low;        ///< the K kept (value, vector) pairs, in selection order
    Eigen::VectorXd noise;       ///< per kept direction: its noise level ν = ‖N·v‖
    int significant = 0;         ///< directions (of all n) with |value| > 2ν
    int significantPositive = 0; ///< of them, positive ones
    /// max λ / (2ν) over the positive directions (0 if none; NaN without a noise estimate)
    double positiveSignalToNoise = std::numeric_limits<double>::quiet_NaN();
};

/// Order in which selectKeptDirections fills the K slots.
enum class KeptOrder {
    PositiveFirst, ///< significant positive, then significant negative, then the rest
    ByMagnitude,   ///< by |λ| whatever the sign and the noise (Alg. 2's truncation)
};

/// Noise-thresholded, sign-aware choice of the K eigen-directions of `m2` (n × n symmetric)
/// given an estimate `noise` of its sampling error (n × n, e.g. the split-half estimate;
/// empty = unknown). A direction (λ, v) is significant when |λ| > 2·‖N·v‖: for symmetric M + E
/// and an eigenpair (λ, v) of M, M + E has an eigenvalue within ‖E·v‖ of λ (residual bound), and
/// for a noise matrix ‖E·v‖ is about half of its extreme eigenvalue (semicircle edge 2σ√n
/// against ‖E·v‖ ≈ σ√n), so 2‖N·v‖ is where a direction leaves the noise bulk. Directions of
/// γ·M2b's noise grow with γ together with their noise level and never become significant.
/// Within a class, larger |λ| first. Without a noise estimate every direction is in "the rest":
/// the K largest |λ| (the literal Alg. 2), as with KeptOrder::ByMagnitude. \pre 1 ≤ k ≤ n.
KeptDirections selectKeptDirections(const Eigen::MatrixXd& m2, const Eigen::MatrixXd& noise, int k,
                                    KeptOrder order = KeptOrder::PositiveFirst);

/// Time spent building an engine, in milliseconds.
struct EngineTimings {
    double rangeMs = 0;      ///< randomized eigen-solves of M2f and M2b (passes over the data)
    double projectionMs = 0; ///< the projected-moment pass (m2f, m3f, m2b, m3b)
};

/// The interactive engine. Once per (foreground, background) pair it finds an orthonormal basis
/// U of range(M2f) + range(M2b) (top eigenvectors of each, by randomized subspace iteration on
/// the sparse estimators), and projects once: m2f = UᵀM2fU, m3f = M3f(U,U,U), likewise for the
/// background. Every γ then decomposes m2f − γ·m2b and m3f − γ·m3b in r dimensions and maps the
/// components back as U·ã. For exact moments this equals the direct method, because the range
/// of the contrastive moments lies in the joint range.
///
/// Thread safety: const member functions may be called concurrently.
class ContrastiveTopicEngine {
public:
    /// \param maxComponents the largest K that solve() will be asked for (sizes the basis).
    /// \throws InputError if the foreground or background is empty.
    ContrastiveTopicEngine(std::shared_ptr<const CountMatrix> counts,
                           std::vector<std::int64_t> foreground,
                           std::vector<std::int64_t> background, int maxComponents,
                           const ProjectionOptions& options = {}, const CancelToken& cancel = {},
                           const ProgressFn& progress = {});

    /// Alg. 1 at contrast weight γ on the projected moments. The K kept eigen-directions of
    /// m2f − γ·m2b (selectKeptDirections) are the K largest by magnitude (Alg. 2's
    /// truncation); if that leaves no
    /// foreground-specific component although significant positive directions exist, the
    /// significant positive directions go first (KeptOrder::PositiveFirst). So the growing
    /// γ·M2b cannot push out every foreground-specific direction that is above the noise.
    /// \throws InputError if γ is negative or not finite, or K is outside [1, rank].
    TopicModelResult solve(double gamma, const TopicModelOptions& options,
                           const CancelToken& cancel = {}) const;

    /// Alg. 1 at γ continued from a neighbouring solution (a path step): on the kept
    /// directions Alg. 2 runs once from `neighbour.projectedComponents` (one trial per
    /// component) and once from fresh random starts; the continued run is kept unless a fresh
    /// one leaves a whitened residual of M3 smaller by more than 0.01 (a better explanation of
    /// the data, not a tie). `warmStarted` in the result says which was kept.
    TopicModelResult solveFrom(double gamma, const TopicModelOptions& options,
                               const TopicModelResult& neighbour,
                               const CancelToken& cancel = {}) const;

    /// A bootstrap replicate: the same basis U, with projected moments of documents drawn with
    /// replacement from the foreground and from the background (seeded). Shares the counts.
    ContrastiveTopicEngine resampled(std::uint64_t seed, const CancelToken& cancel = {}) const;

    /// One of two complementary halves of the documents, on the same basis U: each side's
    /// documents in a seeded random order, `which` = 0 takes the first ⌈n/2⌉, 1 the rest (the
    /// same seed gives complementary halves). Shares the counts.
    /// \throws std::invalid_argument unless which is 0 or 1; InputError when a half is empty.
    ContrastiveTopicEngine half(std::uint64_t seed, int which,
                                const CancelToken& cancel = {}) const;

    const CountMatrix& counts() const { return *m_counts; }
    const DocumentMoments& foreground() const { return m_foreground; }
    const DocumentMoments& background() const { return m_background; }
    const Eigen::MatrixXd& basis() const { return m_basis; }
    int rank() const { return static_cast<int>(m_basis.cols()); }
    int rankPerSide() const { return m_rankPerSide; }
    int maxComponents() const { return m_maxComponents; }
    const EngineTimings& timings() const { return m_timings; }
    const Eigen::MatrixXd& projectedM2Foreground() const { return m_m2f; }
    const Eigen::MatrixXd& projectedM2Background() const { return m_m2b; }
    const SymmetricTensor3& projectedM3Foreground() const { return m_m3f; }
    const SymmetricTensor3& projectedM3Background() const { return m_m3b; }

private:
    ContrastiveTopicEngine(const ContrastiveTopicEngine& source, std::vector<std::int64_t> fg,
                           std::vector<std::int64_t> bg, const CancelToken& cancel);
    void adoptProjection(DocumentMoments::Projected f, DocumentMoments::Projected b);
    TopicModelResult solveImpl(double gamma, const TopicModelOptions& options,
                               const TopicModelResult* neighbour, const CancelToken& cancel) const;

    std::shared_ptr<const CountMatrix> m_counts;
    DocumentMoments m_foreground;
    DocumentMoments m_background;
    int m_maxComponents = 0;
    int m_rankPerSide = 0;
    Eigen::MatrixXd m_basis;
    Eigen::MatrixXf m_basisSingle; ///< m_basis in float, for the topic–word product
    Eigen::MatrixXd m_m2f, m_m2b;
    Eigen::MatrixXd m_noiseF, m_noiseB; ///< split-half error estimates of m2f, m2b
    bool m_noiseAvailable = false;
    SymmetricTensor3 m_m3f, m_m3b;
    EngineTimings m_timings;
};

/// The paper's direct method (the reference): M2 = M2f − γ·M2b as a sparse operator whose rank-K
/// part is found by a dense eigensolve (vocabulary ≤ `denseLimit`) or randomized subspace
/// iteration, and M3(I, v, v) evaluated in one pass over the documents for every power
/// iteration (Sec. 5.2). Slow (passes over the data per iteration) but free of projection.
TopicModelResult solveContrastiveTopicsDirect(const DocumentMoments& foreground,
                                              const DocumentMoments& background, double gamma,
                                              const TopicModelOptions& options,
                                              const CancelToken& cancel = {},
                                              Eigen::Index denseLimit = 2500);

/// Shared last step of Alg. 1: from Alg. 2's (â_t, λ̂_t) in word space to a sorted
/// TopicModelResult (orientation, clipping, renormalisation, weights).
/// `projectedComponents` (optional, same columns as the decomposition) is kept in result order
/// as TopicModelResult::projectedComponents.
TopicModelResult
makeTopicModelResult(double gamma, const PowerMethodResult& decomposition,
                     const Eigen::MatrixXd& wordSpaceComponents,
                     const Eigen::MatrixXd& projectedComponents = Eigen::MatrixXd());

/// Validates γ (finite, ≥ 0). \throws InputError("parameter gamma: ...").
void validateGamma(double gamma);

} // namespace cx
