#include "core/topics/topic_coherence.h"

#include "core/topics/topic_evaluation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace cx {

double npmiCoherence(const CountMatrix& counts, const std::vector<std::int64_t>& documents,
                     const std::vector<Eigen::Index>& words) {
    const auto w = words.size();
    if (w < 2 || documents.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    // Slot of each listed word (−1 for the rest); a word listed twice keeps its first slot.
    std::vector<int> slot(static_cast<size_t>(counts.numCols), -1);
    for (size_t s = 0; s < w; ++s) {
        if (words[s] < 0 || words[s] >= counts.numCols) {
            throw std::invalid_argument("npmiCoherence: word " + std::to_string(words[s]) +
                                        " outside the vocabulary of " +
                                        std::to_string(counts.numCols));
        }
        if (slot[static_cast<size_t>(words[s])] < 0) {
            slot[static_cast<size_t>(words[s])] = static_cast<int>(s);
        }
    }
    // Document frequencies of the words and of their pairs (w × w, upper triangle).
    Eigen::MatrixXd together =
        Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(w), static_cast<Eigen::Index>(w));
    std::vector<int> present;
    for (const std::int64_t row : documents) {
        present.clear();
        for (std::int64_t p = counts.rowPtr[row]; p < counts.rowPtr[row + 1]; ++p) {
            const int s = slot[static_cast<size_t>(counts.colIdx[p])];
            if (s >= 0) {
                present.push_back(s);
            }
        }
        for (size_t a = 0; a < present.size(); ++a) {
            for (size_t b = a; b < present.size(); ++b) {
                const int i = std::min(present[a], present[b]);
                const int j = std::max(present[a], present[b]);
                together(i, j) += 1;
            }
        }
    }
    const auto n = static_cast<double>(documents.size());
    double total = 0;
    int pairs = 0;
    for (size_t a = 0; a < w; ++a) {
        for (size_t b = a + 1; b < w; ++b) {
            // A repeated word stands in its first slot.
            const auto i = static_cast<Eigen::Index>(slot[static_cast<size_t>(words[a])]);
            const auto j = static_cast<Eigen::Index>(slot[static_cast<size_t>(words[b])]);
            const double pi = together(i, i) / n;
            const double pj = together(j, j) / n;
            const double pij = together(std::min(i, j), std::max(i, j)) / n;
            double value = 0;
            if (pij <= 0) {
                value = -1;
            } else if (pij >= 1) {
                value = 1;
            } else {
                value = std::log(pij / (pi * pj)) / -std::log(pij);
            }
            total += value;
            ++pairs;
        }
    }
    return total / pairs;
}

std::vector<double> topicCoherence(const CountMatrix& counts,
                                   const std::vector<std::int64_t>& documents,
                                   const TopicModelResult& model, int numWords) {
    std::vector<double> out;
    out.reserve(static_cast<size_t>(model.numComponents()));
    for (int t = 0; t < model.numComponents(); ++t) {
        out.push_back(npmiCoherence(counts, documents, topEntries(model.topics.col(t), numWords)));
    }
    return out;
}

} // namespace cx
