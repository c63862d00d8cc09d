#pragma once

#include "core/topics/synthetic_topics.h"

#include <cstdint>

namespace cx::test {

/// A/B/C corpus of Zou et al. 2013 §2 (here B = shared, C = background-only): Prop. 1's bound is
/// max_B w_f / w_b = 1.5.
inline SyntheticTopicSpec abcSpec(std::int64_t documentsPerSide, std::uint64_t seed) {
    SyntheticTopicSpec spec;
    spec.vocabularySize = 300;
    spec.numA = 2;
    spec.numB = 3;
    spec.numC = 2;
    spec.topicConcentration = 0.05;
    spec.foregroundDocuments = documentsPerSide;
    spec.backgroundDocuments = documentsPerSide;
    spec.documentLength = 60;
    spec.lengthSpread = 20;
    spec.foregroundWeights = {0.15, 0.1, 0.3, 0.25, 0.2}; // A A B B B
    spec.backgroundWeights = {0.2, 0.25, 0.3, 0.15, 0.1}; // B B B C C
    spec.seed = seed;
    return spec;
}

} // namespace cx::test
