#pragma once

#include "core/io/chromhmm_reader.h"

#include <Eigen/Dense>

#include <string>

namespace cx {

/// How a bin's mark row becomes an observation.
enum class ObservationEncoding {
    /// x ∈ {0,1}^M; emission = per-mark presence probabilities, marks independent given the
    /// state (ChromHMM's model). Spectral methods need K ≤ M + 1 (see sequence_moments.h).
    MarkVector,
    /// One-hot over the distinct mark patterns observed in the data (a categorical emission
    /// over patterns; "mark combination"). Rows with a missing mark are not categories.
    MarkCombination,
};

const char* toString(ObservationEncoding encoding);
/// "marks" / "combinations" (also accepts "vector", "mark-vector", "combination").
/// \throws InputError on anything else.
ObservationEncoding parseObservationEncoding(const std::string& text);

/// A K-state HMM over chromatin bins.
///
/// Conventions: `transitions(i, j)` = P(h_{t+1} = j | h_t = i) (rows on the simplex); `start`
/// is the distribution of the first bin of a sequence. Emissions have one ROW per state:
///  * MarkVector: K × M, `emissions(k, m)` = P(mark m present | state k) ∈ [0, 1];
///  * MarkCombination: K × P, `emissions(k, p)` = P(pattern p | state k) over the patterns
///    of the ChromatinData the model was fitted to (rows on the simplex).
struct HmmParameters {
    ObservationEncoding encoding = ObservationEncoding::MarkVector;
    Eigen::VectorXd start;
    Eigen::MatrixXd transitions;
    Eigen::MatrixXd emissions;

    int numStates() const { return static_cast<int>(start.size()); }
    /// Throws std::invalid_argument (naming `where`) if shapes disagree or entries are not
    /// finite probabilities.
    void validate(const char* where) const;
};

/// Per-mark presence probability of each state (K × M). For MarkVector this is `emissions`;
/// for MarkCombination it is Σ_p P(p | k)·[mark m present in p].
Eigen::MatrixXd markProbabilities(const HmmParameters& hmm, const ChromatinData& data);

/// Smallest probability used inside likelihoods: Bernoulli parameters are clamped to
/// [kProbabilityFloor, 1 − kProbabilityFloor] and categorical ones floored, so a spectral
/// estimate clipped to exactly 0 or 1 never makes a bin impossible.
constexpr double kProbabilityFloor = 1e-6;

/// Emission likelihood table L (K × P): L(k, p) = P(pattern p | state k), one column per
/// distinct pattern of `data` (so a column is contiguous). MarkVector: Π over observed marks
/// of e^x (1 − e)^(1 − x), missing marks skipped. MarkCombination: the categorical probability
/// (floored); patterns with a missing mark get likelihood 1 (uninformative).
/// \pre hmm.emissions has M columns (MarkVector) or data.numPatterns() columns. Cost O(K·P·M).
Eigen::MatrixXd emissionLikelihoods(const HmmParameters& hmm, const ChromatinData& data);

} // namespace cx
