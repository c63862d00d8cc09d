#include "core/models/synthetic_topics.h"

#include "core/common/random.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace cx {

AliasTable::AliasTable(const Eigen::VectorXd& probabilities)
    : m_size(static_cast<int>(probabilities.size())),
      m_probability(static_cast<size_t>(probabilities.size())),
      m_alias(static_cast<size_t>(probabilities.size()), 0) {
    if (m_size == 0) {
        throw std::invalid_argument("AliasTable: empty distribution");
    }
    const double total = probabilities.sum();
    std::vector<double> scaled(static_cast<size_t>(m_size));
    std::vector<int> small, large;
    for (int i = 0; i < m_size; ++i) {
        scaled[static_cast<size_t>(i)] = probabilities[i] / total * m_size;
        (scaled[static_cast<size_t>(i)] < 1.0 ? small : large).push_back(i);
    }
    while (!small.empty() && !large.empty()) {
        const int s = small.back();
        small.pop_back();
        const int l = large.back();
        m_probability[static_cast<size_t>(s)] = scaled[static_cast<size_t>(s)];
        m_alias[static_cast<size_t>(s)] = l;
        scaled[static_cast<size_t>(l)] += scaled[static_cast<size_t>(s)] - 1.0;
        if (scaled[static_cast<size_t>(l)] < 1.0) {
            large.pop_back();
            small.push_back(l);
        }
    }
    for (int i : large) {
        m_probability[static_cast<size_t>(i)] = 1.0;
    }
    for (int i : small) {
        m_probability[static_cast<size_t>(i)] = 1.0;
    }
}

double SyntheticTopicCorpus::gammaBound() const {
    double bound = 0;
    for (size_t t = 0; t < topicSet.size(); ++t) {
        if (topicSet[t] == 'B') {
            bound = std::max(bound, foregroundWeights[static_cast<Eigen::Index>(t)] /
                                        backgroundWeights[static_cast<Eigen::Index>(t)]);
        }
    }
    return bound;
}

SyntheticTopicCorpus generateSyntheticTopics(const SyntheticTopicSpec& spec) {
    const int k = spec.numA + spec.numB + spec.numC;
    if (spec.vocabularySize < 2 || k < 1 || spec.numA < 0 || spec.numB < 0 || spec.numC < 0 ||
        spec.documentLength - spec.lengthSpread < 3 || spec.foregroundDocuments < 1 ||
        spec.backgroundDocuments < 1 || spec.numA + spec.numB < 1 || spec.numB + spec.numC < 1) {
        throw std::invalid_argument("generateSyntheticTopics: inconsistent spec (vocabulary " +
                                    std::to_string(spec.vocabularySize) + ", topics " +
                                    std::to_string(k) + ", length " +
                                    std::to_string(spec.documentLength) + " +- " +
                                    std::to_string(spec.lengthSpread) + ")");
    }
    Rng rng(spec.seed);
    SyntheticTopicCorpus out;
    const int d = spec.vocabularySize;
    out.topics.resize(d, k);
    for (int t = 0; t < k; ++t) {
        out.topics.col(t) = rng.dirichlet(d, spec.topicConcentration);
        out.topicSet.push_back(t < spec.numA ? 'A' : (t < spec.numA + spec.numB ? 'B' : 'C'));
    }
    auto weightsFor = [&](const std::vector<double>& given, int first, int count, const char* side) {
        Eigen::VectorXd w = Eigen::VectorXd::Zero(k);
        if (given.empty()) {
            w.segment(first, count).setConstant(1.0 / count);
            return w;
        }
        if (static_cast<int>(given.size()) != count) {
            throw std::invalid_argument(std::string("generateSyntheticTopics: ") + side +
                                        " weights need " + std::to_string(count) + " entries");
        }
        double total = 0;
        for (double g : given) {
            if (!(g > 0)) {
                throw std::invalid_argument("generateSyntheticTopics: weights must be positive");
            }
            total += g;
        }
        for (int i = 0; i < count; ++i) {
            w[first + i] = given[static_cast<size_t>(i)] / total;
        }
        return w;
    };
    out.foregroundWeights = weightsFor(spec.foregroundWeights, 0, spec.numA + spec.numB, "foreground");
    out.backgroundWeights =
        weightsFor(spec.backgroundWeights, spec.numA, spec.numB + spec.numC, "background");

    std::vector<AliasTable> wordTables;
    for (int t = 0; t < k; ++t) {
        wordTables.emplace_back(out.topics.col(t));
    }
    const AliasTable foregroundTopics(out.foregroundWeights);
    const AliasTable backgroundTopics(out.backgroundWeights);

    Corpus& corpus = out.corpus;
    corpus.vocabulary.resize(static_cast<size_t>(d));
    for (int i = 0; i < d; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "w%05d", i);
        corpus.vocabulary[static_cast<size_t>(i)] = name;
    }
    const std::int64_t total = spec.foregroundDocuments + spec.backgroundDocuments;
    CountMatrix& counts = corpus.counts;
    counts.numRows = total;
    counts.numCols = d;
    counts.rowPtr.assign(1, 0);
    LabelField group{"group", {"background", "foreground"}, {0}, {}, {0, 0}};
    LabelField set{"set", {"a", "b", "c"}, {0}, {}, {0, 0, 0}};
    LabelField topicField{"topic", {}, {0}, {}, std::vector<std::int64_t>(static_cast<size_t>(k), 0)};
    for (int t = 0; t < k; ++t) {
        topicField.values.push_back("t" + std::to_string(t));
    }
    std::sort(topicField.values.begin(), topicField.values.end());
    std::vector<int> topicValueId(static_cast<size_t>(k));
    for (int t = 0; t < k; ++t) {
        const auto it = std::find(topicField.values.begin(), topicField.values.end(),
                                  "t" + std::to_string(t));
        topicValueId[static_cast<size_t>(t)] = static_cast<int>(it - topicField.values.begin());
    }
    std::vector<int> words;
    for (std::int64_t n = 0; n < total; ++n) {
        const bool isForeground = n < spec.foregroundDocuments;
        const int topic = (isForeground ? foregroundTopics : backgroundTopics)
                              .sample(rng.uniform(), rng.uniform());
        const int length = spec.documentLength - spec.lengthSpread +
                           static_cast<int>(rng.below(static_cast<std::uint64_t>(2 * spec.lengthSpread + 1)));
        words.resize(static_cast<size_t>(length));
        for (int& w : words) {
            w = wordTables[static_cast<size_t>(topic)].sample(rng.uniform(), rng.uniform());
        }
        std::sort(words.begin(), words.end());
        for (size_t p = 0; p < words.size();) {
            size_t q = p;
            while (q < words.size() && words[q] == words[p]) {
                ++q;
            }
            counts.colIdx.push_back(words[p]);
            counts.counts.push_back(static_cast<float>(q - p));
            p = q;
        }
        counts.rowPtr.push_back(counts.nnz());
        (isForeground ? out.foregroundDocuments : out.backgroundDocuments).push_back(n);
        const int groupId = isForeground ? 1 : 0;
        group.valueIds.push_back(groupId);
        group.offsets.push_back(static_cast<std::int64_t>(group.valueIds.size()));
        ++group.valueDocumentCounts[static_cast<size_t>(groupId)];
        const int setId = out.topicSet[static_cast<size_t>(topic)] - 'A';
        set.valueIds.push_back(setId);
        set.offsets.push_back(static_cast<std::int64_t>(set.valueIds.size()));
        ++set.valueDocumentCounts[static_cast<size_t>(setId)];
        const int topicId = topicValueId[static_cast<size_t>(topic)];
        topicField.valueIds.push_back(topicId);
        topicField.offsets.push_back(static_cast<std::int64_t>(topicField.valueIds.size()));
        ++topicField.valueDocumentCounts[static_cast<size_t>(topicId)];
        corpus.documentIds.push_back(std::to_string(n + 1));
    }
    corpus.labels = {std::move(group), std::move(set), std::move(topicField)};
    corpus.report.documentsRead = total;
    corpus.report.documentsKept = total;
    corpus.report.vocabularySize = d;
    double tokens = 0;
    for (float c : counts.counts) {
        tokens += c;
    }
    corpus.report.tokensKept = static_cast<std::int64_t>(tokens);
    return out;
}

} // namespace cx
