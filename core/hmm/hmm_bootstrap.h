#pragma once

// Seeded block bootstrap of a contrastive HMM γ path over genomic regions: bands on the signed
// weights and a stability score per state identity.

#include "core/common/cancel.h"
#include "core/hmm/hmm_path.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace cx {

/// Largest number of replicates accepted (a replicate costs one γ path).
constexpr int kMaxHmmBootstrapReplicates = 10000;

/// States whose stability is below this are flagged unstable in every view (the topic
/// bootstrap's kMinStability).
constexpr double kMinStateStability = 0.5;

/// Options of the block bootstrap.
struct HmmBootstrapOptions {
    int replicates = 20;    ///< B resamples (2 … kMaxHmmBootstrapReplicates)
    std::uint64_t seed = 1; ///< replicate b draws its blocks from deriveSeed(seed, b)
    double level = 0.95;    ///< central percentile interval of the weight bands
    /// Block length ℓ in bins; 0 = automatic per class (automaticBlockLength).
    int blockLength = 0;
};

/// Block length of the non-overlapping block bootstrap for the bins of one class (flag
/// kForegroundBin or kBackgroundBin), chosen from the data by the rule of Politis & White
/// (2004, with the correction of Patton, Politis & White 2009) applied to the mark vectors
/// x_t ∈ {0,1}^M of the class's runs (runsWithFlag, missing marks excluded):
///   R(k) = (1/n) Σ_{t, t+k in one run} ⟨x_t − μ, x_{t+k} − μ⟩ (trace autocovariance, pooled
///   over runs), ρ(k) = R(k)/R(0); m̂ = the smallest m with |ρ(m + j)| < 2√(log₁₀ n / n) for
///   j = 1 … K_n, K_n = max(5, ⌈√log₁₀ n⌉), searched up to m_max = ⌈√n⌉ + K_n; M = min(2m̂,
///   m_max); with the flat-top window λ, ĝ = Σ_{|k|≤M} λ(k/M) R(k), Ĝ = Σ_{|k|≤M} λ(k/M) |k|
///   R(k); ℓ = ⌈(2Ĝ²/D)^{1/3} n^{1/3}⌉ with D = 2ĝ² (the non-overlapping block constant:
///   Lahiri 1999, 3/2 of the moving-block variance constant 4/3·ĝ²), clamped to
///   [1, min(⌈3√n⌉, ⌈n/3⌉)]. Independent bins give ℓ = 1; slowly mixing chains longer blocks.
/// Returns 1 for a class with fewer than 3 bins or constant marks. O(n · m_max) at worst.
int automaticBlockLength(const ChromatinData& data, const BinClasses& classes, std::uint8_t flag,
                         const CancelToken& cancel = {});

/// Blocks of one class: every run of the class (runsWithFlag with missing marks excluded, so no
/// block crosses a region, chromosome, file or missing-mark boundary — the runs the moments
/// use) is cut into consecutive blocks of `blockLength` bins (the last block of a run may be
/// shorter). A moment centre t (a triple x_{t−d}, x_t, x_{t+d} or its windows) belongs to the
/// block holding t, so the blocks partition the centres of computeSequenceMoments and the
/// moments are a sum over blocks. Per block the counts of its distinct observation tuples are
/// stored once (MarkVector: the 2L + 1 patterns of past window, centre, future window;
/// combinations: the 3 pattern categories): memory O(centres), and a replicate's moments are a
/// weighted sum of these counts mapped through the moment formulas, O(centres + distinct
/// tuples · nnz³), without reading the bins again.
struct ClassBlocks {
    int blockLength = 1;
    int tupleLength = 3;
    std::int64_t numRuns = 0;
    std::vector<std::uint32_t> tuples;     ///< distinct tuples (tupleLength ids each)
    std::vector<std::int64_t> entryOffset; ///< block b's entries: [offset[b], offset[b+1])
    std::vector<std::uint32_t> entryTuple;
    std::vector<std::int64_t> entryCount;
    std::vector<std::int64_t> blockTriples; ///< centres of each block
    std::vector<std::int64_t> blockBins;    ///< bins of each block

    int numBlocks() const { return static_cast<int>(blockTriples.size()); }
};

/// The block decomposition of the moments of one data set (fixed basis and scaling: those of
/// the full-data moments, as the topic bootstrap keeps its basis).
struct HmmBlockMoments {
    SequenceMoments reference; ///< the full-data moments the blocks reproduce
    ClassBlocks foreground;
    ClassBlocks background;
    std::vector<std::vector<int>> present; ///< present marks of every pattern
    std::vector<int> patternCategory;      ///< combinations: pattern id ↦ category (−1 missing)

    /// Moments of the blocks with integer weights (one per block of each class; a multinomial
    /// draw for a replicate, all ones for the full data). All ones reproduce `reference`'s
    /// class moments (same integer counts, same formulas). \throws std::invalid_argument for
    /// wrong lengths or negative weights.
    SequenceMoments weighted(const std::vector<std::int64_t>& foregroundWeights,
                             const std::vector<std::int64_t>& backgroundWeights) const;
    /// Replicate `index` of a bootstrap seeded with `seed`: per class, numBlocks blocks drawn
    /// uniformly with replacement (multinomial counts) from Rng(deriveSeed(seed, index)),
    /// foreground first.
    SequenceMoments replicate(std::uint64_t seed, std::uint64_t index) const;
};

/// Cuts the data into blocks (one pass over the bins). `moments` must come from
/// computeSequenceMoments(data, classes, …) (its encoding, lag, window, basis and scaling are
/// used). blockLength 0 = automaticBlockLength per class.
/// \throws std::invalid_argument (classes not matching data, blockLength < 0); Cancelled.
HmmBlockMoments computeBlockMoments(const ChromatinData& data, const BinClasses& classes,
                                    const SequenceMoments& moments, int blockLength = 0,
                                    const CancelToken& cancel = {});

/// Bootstrap of an HMM γ path. Replicate b reweights the blocks (HmmBlockMoments::replicate),
/// solves the same γ grid with the same options and starts (solveHmmPath), and at every grid
/// point matches its components to the original ones by the path's identity rule
/// (matchStates, Hungarian on the L1 distance of the mark profiles, accepted within
/// kStateIdentityMaxMarkChange in every mark) and requires the same sign of ω.
/// Per point i and component slot t of the original path (same layout as path.solutions):
/// - `stability[i][t]`: fraction of the B replicates with a matched component;
/// - `weightLo/Hi[i][t]`: percentile band (level) of the matched components' signed weights ω
///   (NaN when fewer than 2 replicates matched).
/// Per identity id: `identityStability[id]`, the mean of stability over the points where the
/// id exists (NaN for none); unstable when below kMinStateStability.
struct HmmPathBootstrap {
    int replicates = 0;
    double level = 0.95;
    std::uint64_t seed = 1;
    std::vector<double> gammas;
    int foregroundBlockLength = 0;
    int backgroundBlockLength = 0;
    int foregroundBlocks = 0;
    int backgroundBlocks = 0;
    std::vector<std::vector<double>> stability, weightLo, weightHi;
    std::vector<double> identityStability;
    double elapsedMs = 0;

    bool empty() const { return replicates == 0; }
    /// identityStability[id] < kMinStateStability (false for an unknown id or NaN).
    bool isUnstable(int id) const;
    /// Stability of identity id (NaN for an unknown id).
    double stabilityOf(int id) const;
};

/// \param path from solveHmmPath(blocks.reference, path.gammas, options, starts).
/// progress(done, total) after each replicate. Deterministic for a given seed (replicates run
/// in order; each replicate's draws depend only on (seed, b)).
/// \throws std::invalid_argument (replicates outside [2, kMaxHmmBootstrapReplicates], level
///         outside (0, 1), an empty path); Cancelled.
HmmPathBootstrap bootstrapHmmPath(const HmmBlockMoments& blocks, const HmmPath& path,
                                  const ContrastiveHmmOptions& options,
                                  const HmmBootstrapOptions& bootstrap,
                                  HmmPathStarts starts = HmmPathStarts::Continued,
                                  const CancelToken& cancel = {},
                                  const std::function<void(int, int)>& progress = {});

} // namespace cx
