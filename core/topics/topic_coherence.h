#pragma once

// Topic coherence from the corpus's own document co-occurrence.

#include "core/io/corpus.h"
#include "core/topics/contrastive_topic_model.h"

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace cx {

/// Words of a topic whose coherence is reported by default (its top 10, as is customary).
constexpr int kCoherenceWords = 10;

/// Mean normalised pointwise mutual information (NPMI, Bouma 2009; the topic-coherence measure
/// of Lau, Newman & Baldwin 2014) over the pairs of `words`, with document co-occurrence in the
/// listed documents (N of them) as the probabilities: p(i) = df(i)/N, p(i, j) = df(i, j)/N and
///   NPMI(i, j) = log(p(i, j) / (p(i) p(j))) / −log p(i, j)  ∈ [−1, 1].
/// Conventions: a pair that never co-occurs scores −1 (the limit as p(i, j) → 0); a pair that
/// co-occurs in every document scores 1. No smoothing is added. NaN with fewer than two words
/// or no documents. Cost O(nnz of the listed documents + N·w²) for w words.
/// \throws std::invalid_argument for a word index outside the vocabulary.
double npmiCoherence(const CountMatrix& counts, const std::vector<std::int64_t>& documents,
                     const std::vector<Eigen::Index>& words);

/// npmiCoherence of each component's `numWords` most probable words (topEntries), over the
/// listed documents. One value per component.
std::vector<double> topicCoherence(const CountMatrix& counts,
                                   const std::vector<std::int64_t>& documents,
                                   const TopicModelResult& model, int numWords = kCoherenceWords);

} // namespace cx
