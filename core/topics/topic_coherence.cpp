#include "core/topics/topic_coherence.h"

#include "core/common/parallel.h"
#include "core/topics/topic_evaluation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace cx {

namespace {

/// Document co-occurrence of the words of each list in one pass over the documents: for list
/// l, together[l](i, j) (i ≤ j, slots in the list) counts the documents holding both words,
/// (i, i) the documents holding word i. A word listed twice in one list keeps its first slot.
/// Whole counts, so the slot-parallel sums are exact in any order.
std::vector<Eigen::MatrixXd> coOccurrence(const CountMatrix& counts,
                                          const std::vector<std::int64_t>& documents,
                                          const std::vector<std::vector<Eigen::Index>>& lists) {
    // Per vocabulary word, its (list, slot) hits: a CSR over the words.
    std::vector<std::int64_t> start(static_cast<size_t>(counts.numCols) + 1, 0);
    std::vector<std::vector<int>> slotOf(lists.size());
    for (size_t l = 0; l < lists.size(); ++l) {
        slotOf[l].assign(lists[l].size(), -1);
        for (size_t s = 0; s < lists[l].size(); ++s) {
            const Eigen::Index word = lists[l][s];
            if (word < 0 || word >= counts.numCols) {
                throw std::invalid_argument("npmiCoherence: word " + std::to_string(word) +
                                            " outside the vocabulary of " +
                                            std::to_string(counts.numCols));
            }
            const auto first = static_cast<size_t>(
                std::find(lists[l].begin(), lists[l].end(), word) - lists[l].begin());
            if (first == s) {
                ++start[static_cast<size_t>(word) + 1];
            }
        }
    }
    for (size_t i = 1; i < start.size(); ++i) {
        start[i] += start[i - 1];
    }
    struct Hit {
        int list;
        int slot;
    };
    std::vector<Hit> hits(static_cast<size_t>(start.back()));
    {
        std::vector<std::int64_t> next(start.begin(), start.end() - 1);
        for (size_t l = 0; l < lists.size(); ++l) {
            for (size_t s = 0; s < lists[l].size(); ++s) {
                const Eigen::Index word = lists[l][s];
                if (std::find(lists[l].begin(), lists[l].end(), word) - lists[l].begin() ==
                    static_cast<std::ptrdiff_t>(s)) {
                    hits[static_cast<size_t>(next[static_cast<size_t>(word)]++)] = {
                        static_cast<int>(l), static_cast<int>(s)};
                }
            }
        }
    }
    auto zeroCounts = [&lists]() {
        std::vector<Eigen::MatrixXd> out;
        for (const auto& list : lists) {
            const auto w = static_cast<Eigen::Index>(list.size());
            out.push_back(Eigen::MatrixXd::Zero(w, w));
        }
        return out;
    };
    const auto n = static_cast<std::int64_t>(documents.size());
    std::vector<std::vector<Eigen::MatrixXd>> parts(static_cast<size_t>(reductionSlots(n)));
    forEachSlot(n, static_cast<int>(parts.size()),
                [&](int part, std::int64_t begin, std::int64_t end) {
                    std::vector<Eigen::MatrixXd>& together = parts[static_cast<size_t>(part)];
                    together = zeroCounts();
                    std::vector<Hit> present;
                    for (std::int64_t d = begin; d < end; ++d) {
                        const std::int64_t row = documents[static_cast<size_t>(d)];
                        present.clear();
                        for (std::int64_t p = counts.rowPtr[row]; p < counts.rowPtr[row + 1]; ++p) {
                            const auto word = static_cast<size_t>(counts.colIdx[p]);
                            for (std::int64_t h = start[word]; h < start[word + 1]; ++h) {
                                present.push_back(hits[static_cast<size_t>(h)]);
                            }
                        }
                        std::sort(present.begin(), present.end(), [](const Hit& x, const Hit& y) {
                            return x.list != y.list ? x.list < y.list : x.slot < y.slot;
                        });
                        for (size_t a = 0; a < present.size(); ++a) {
                            Eigen::MatrixXd& m = together[static_cast<size_t>(present[a].list)];
                            for (size_t b = a;
                                 b < present.size() && present[b].list == present[a].list; ++b) {
                                m(present[a].slot, present[b].slot) += 1;
                            }
                        }
                    }
                });
    std::vector<Eigen::MatrixXd> together = zeroCounts();
    for (const auto& part : parts) {
        for (size_t l = 0; l < together.size(); ++l) {
            together[l] += part[l];
        }
    }
    return together;
}

/// Mean NPMI of a list's pairs from its co-occurrence counts over n documents.
double npmiFromCounts(const std::vector<Eigen::Index>& words, const Eigen::MatrixXd& together,
                      double n) {
    auto slot = [&words](size_t s) {
        return static_cast<Eigen::Index>(std::find(words.begin(), words.end(), words[s]) -
                                         words.begin());
    };
    const size_t w = words.size();
    double total = 0;
    int pairs = 0;
    for (size_t a = 0; a < w; ++a) {
        for (size_t b = a + 1; b < w; ++b) {
            // A repeated word stands in its first slot.
            const Eigen::Index i = slot(a);
            const Eigen::Index j = slot(b);
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

} // namespace

double npmiCoherence(const CountMatrix& counts, const std::vector<std::int64_t>& documents,
                     const std::vector<Eigen::Index>& words) {
    if (words.size() < 2 || documents.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const std::vector<Eigen::MatrixXd> together = coOccurrence(counts, documents, {words});
    return npmiFromCounts(words, together[0], static_cast<double>(documents.size()));
}

std::vector<double> topicCoherence(const CountMatrix& counts,
                                   const std::vector<std::int64_t>& documents,
                                   const TopicModelResult& model, int numWords) {
    std::vector<std::vector<Eigen::Index>> lists;
    for (int t = 0; t < model.numComponents(); ++t) {
        lists.push_back(topEntries(model.topics.col(t), numWords));
    }
    std::vector<double> out(lists.size(), std::numeric_limits<double>::quiet_NaN());
    if (documents.empty()) {
        return out;
    }
    const std::vector<Eigen::MatrixXd> together = coOccurrence(counts, documents, lists);
    for (size_t t = 0; t < lists.size(); ++t) {
        if (lists[t].size() >= 2) {
            out[t] = npmiFromCounts(lists[t], together[t], static_cast<double>(documents.size()));
        }
    }
    return out;
}

} // namespace cx
