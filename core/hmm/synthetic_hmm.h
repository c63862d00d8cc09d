#pragma once

#include "core/common/random.h"

#include "core/hmm/hmm_model.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// A random K-state MarkVector HMM with chromatin-like, well separated emissions: state 0 is
/// "quiescent" (every mark ≤ 0.05); every other state has a random non-empty set of marks
/// present with probability in [0.5, 0.95] and the rest in [0.01, 0.08]. Transitions keep the
/// state with probability `stickiness` and otherwise move to a random other state (random
/// weights); start = stationary distribution. Deterministic in `seed`.
/// \pre 1 ≤ K, 1 ≤ M, 0 ≤ stickiness < 1.
HmmParameters randomSyntheticHmm(int numStates, int numMarks, std::uint64_t seed,
                                 double stickiness = 0.8);

/// Stationary distribution π = πA of a row-stochastic matrix (left eigenvector for the
/// eigenvalue 1, normalised; dense solve, O(K³)).
Eigen::VectorXd stationaryDistribution(const Eigen::MatrixXd& transitions);

/// A sampled state path and its mark rows (L × M values 0/1, row-major).
struct HmmSample {
    std::vector<std::uint16_t> states;
    std::vector<std::uint8_t> values;
};

/// Samples `length` bins from a MarkVector HMM (first state from hmm.start).
HmmSample sampleHmm(const HmmParameters& hmm, std::int64_t length, Rng& rng);

/// Appends a track built from mark rows (L × M values 0/1/2, row-major) to `data`, extending
/// its pattern table. data.markNames must be set (M names).
void appendTrackFromValues(ChromatinData& data, const std::string& cell, const std::string& chrom,
                           const std::vector<std::uint8_t>& values);

/// "M1", …, "M<numMarks>": the mark names of synthetic data.
std::vector<std::string> numberedMarkNames(int numMarks);

/// One track per entry of `lengths` sampled from a MarkVector HMM (cells "C0", "C1", … on
/// "chrS", marks M1…MM), all from one generator seeded with `seed`.
ChromatinData sampleChromatinData(const HmmParameters& hmm,
                                  const std::vector<std::int64_t>& lengths, std::uint64_t seed);

/// Exact population moments of a stationary MarkVector HMM in the φ-coordinates of
/// SequenceMoments (φ(x) = (x, 1), D = M + 1): with π stationary, o_h = (e_h, 1),
/// a_h = Σ_j π_j A(j, h) o_j / π_h, c_h = Σ_j A(h, j) o_j,
/// m123 = Σ_h π_h a_h ⊗ o_h ⊗ c_h, m12 = Σ π_h a_h o_hᵀ, m13 = Σ π_h a_h c_hᵀ,
/// m23 = Σ π_h o_h c_hᵀ. numTriples is set to 1 (a marker, not a count).
/// With lag d and window L (SequenceMomentOptions) the outer views are the windows: block l of
/// the past factor is O·R^{d+l} (R(j, h) = π_j A(j, h)/π_h), of the future factor O·(A^{d+l})ᵀ,
/// marks only, then one constant 1 (L = 1: the plain (M + 1)-vectors above).
ClassMoments populationMoments(const HmmParameters& hmm, int lag = 1, int window = 1);

/// Exact moments of a contrastive mixture: foreground (1 − ρ)·HMM_A + ρ·HMM_B, background
/// HMM_B, as SequenceMoments (MarkVector encoding, U = I).
SequenceMoments populationContrastiveMoments(const HmmParameters& a, const HmmParameters& b,
                                             double rho, int lag = 1, int window = 1);

/// A synthetic chromosome for the contrastive model: `numBlocks` pairs of blocks of
/// `blockLength` bins; the first block of each pair is foreground and sampled from HMM_A with
/// probability 1 − ρ, else HMM_B; the second is background, sampled from HMM_B. Every block
/// starts from its HMM's start distribution (stationary for randomSyntheticHmm), so the
/// moments equal populationContrastiveMoments in expectation. Regions are returned as BED
/// intervals on "chrS" (cell "SYN").
struct SyntheticContrast {
    ChromatinData data;
    BedRegions foreground;
    BedRegions background;
    double rho = 0; ///< realised fraction of foreground bins sampled from HMM_B
    /// True state of every bin: A's states 0…K_A−1, B's K_A…K_A+K_B−1.
    std::vector<std::uint16_t> states;
};
SyntheticContrast syntheticContrastiveData(const HmmParameters& a, const HmmParameters& b,
                                           int numBlocks, int blockLength, double rho,
                                           std::uint64_t seed);

} // namespace cx
