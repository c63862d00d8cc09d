#pragma once

#include "core/io/corpus.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cx {

/// A seeded single-topic corpus with the A/B/C partition of Zou et al. 2013 §2: the foreground
/// mixes topics A ∪ B, the background topics B ∪ C. Each document draws one topic from its side's
/// weights, then `length` words i.i.d. from that topic.
struct SyntheticTopicSpec {
    int vocabularySize = 500;
    int numA = 3;                    ///< foreground-only topics
    int numB = 3;                    ///< shared topics
    int numC = 3;                    ///< background-only topics
    double topicConcentration = 0.1; ///< Dirichlet(β) prior of each topic's word distribution
    std::int64_t foregroundDocuments = 10000;
    std::int64_t backgroundDocuments = 10000;
    int documentLength = 50; ///< mean length
    int lengthSpread = 10;   ///< length uniform in [mean − spread, mean + spread], ≥ 3
    /// Weights over A ∪ B (foreground) and B ∪ C (background), in that topic order; empty =
    /// uniform.
    std::vector<double> foregroundWeights;
    std::vector<double> backgroundWeights;
    std::uint64_t seed = 1;
};

/// The generated corpus and its ground truth. Documents are foreground first, then background.
/// Label fields: `group` (foreground|background), `set` (a|b|c) and `topic` (t0, t1, …).
struct SyntheticTopicCorpus {
    Corpus corpus;
    Eigen::MatrixXd topics;            ///< D × (A+B+C); columns A first, then B, then C
    Eigen::VectorXd foregroundWeights; ///< over all topics (0 on C)
    Eigen::VectorXd backgroundWeights; ///< over all topics (0 on A)
    std::vector<char> topicSet;        ///< 'A', 'B' or 'C' per topic
    std::vector<std::int64_t> foregroundDocuments;
    std::vector<std::int64_t> backgroundDocuments;

    /// Prop. 1's bound max_{t∈B} w_t^f / w_t^b (0 when B is empty).
    double gammaBound() const;
};

/// \throws std::invalid_argument on an inconsistent spec.
SyntheticTopicCorpus generateSyntheticTopics(const SyntheticTopicSpec& spec);

/// One generated document, as handed to a streaming consumer.
struct SyntheticDocument {
    std::int64_t index = 0; ///< 0-based, foreground documents first
    bool foreground = false;
    int topic = 0; ///< generating topic (column of the truth's `topics`)
    const std::vector<std::pair<std::int32_t, std::int32_t>>* wordCounts =
        nullptr; ///< (word, count), word ascending
};

/// Streams the same documents generateSyntheticTopics() would build (same seed, same numbers)
/// to `consumer` without holding the corpus in memory; returns the ground truth (its `corpus`
/// holds only the vocabulary).
SyntheticTopicCorpus
streamSyntheticTopics(const SyntheticTopicSpec& spec,
                      const std::function<void(const SyntheticDocument&)>& consumer);

/// Writes a synthetic corpus as UCI bag-of-words files in `directory`: docword.NAME.txt,
/// vocab.NAME.txt and the label sidecar labels.NAME.tsv (fields group, set, topic), streaming,
/// so 10⁶ documents need no more memory than one document. Returns the truth (vocabulary only).
/// \throws InputError if a file cannot be written.
SyntheticTopicCorpus writeSyntheticTopicsUci(const SyntheticTopicSpec& spec,
                                             const std::string& directory, const std::string& name);

/// Walker's alias table for O(1) sampling from a discrete distribution.
class AliasTable {
public:
    explicit AliasTable(const Eigen::VectorXd& probabilities);
    /// Draws an index from two uniforms in [0, 1).
    int sample(double u1, double u2) const {
        const int column = std::min(static_cast<int>(u1 * static_cast<double>(m_size)), m_size - 1);
        return u2 < m_probability[static_cast<size_t>(column)]
                   ? column
                   : m_alias[static_cast<size_t>(column)];
    }

private:
    int m_size = 0;
    std::vector<double> m_probability;
    std::vector<int> m_alias;
};

} // namespace cx
