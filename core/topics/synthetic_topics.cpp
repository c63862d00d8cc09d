#include "core/topics/synthetic_topics.h"

#include "core/common/error.h"
#include "core/common/random.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
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

SyntheticTopicCorpus
streamSyntheticTopics(const SyntheticTopicSpec& spec,
                      const std::function<void(const SyntheticDocument&)>& consumer) {
    const int k = spec.numA + spec.numB + spec.numC;
    if (spec.vocabularySize < 2 || k < 1 || spec.numA < 0 || spec.numB < 0 || spec.numC < 0 ||
        spec.lengthSpread < 0 || spec.documentLength - spec.lengthSpread < 3 ||
        spec.foregroundDocuments < 1 || spec.backgroundDocuments < 1 || spec.numA + spec.numB < 1 ||
        spec.numB + spec.numC < 1) {
        throw std::invalid_argument(
            "generateSyntheticTopics: inconsistent spec (vocabulary " +
            std::to_string(spec.vocabularySize) + ", topics " + std::to_string(k) + ", length " +
            std::to_string(spec.documentLength) + " +- " + std::to_string(spec.lengthSpread) + ")");
    }
    Rng rng(spec.seed);
    SyntheticTopicCorpus out;
    const int d = spec.vocabularySize;
    out.topics.resize(d, k);
    for (int t = 0; t < k; ++t) {
        out.topics.col(t) = rng.dirichlet(d, spec.topicConcentration);
        out.topicSet.push_back(t < spec.numA ? 'A' : (t < spec.numA + spec.numB ? 'B' : 'C'));
    }
    auto weightsFor = [&](const std::vector<double>& given, int first, int count,
                          const char* side) {
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
    out.foregroundWeights =
        weightsFor(spec.foregroundWeights, 0, spec.numA + spec.numB, "foreground");
    out.backgroundWeights =
        weightsFor(spec.backgroundWeights, spec.numA, spec.numB + spec.numC, "background");
    out.corpus.vocabulary.resize(static_cast<size_t>(d));
    for (int i = 0; i < d; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "w%05d", i);
        out.corpus.vocabulary[static_cast<size_t>(i)] = name;
    }

    std::vector<AliasTable> wordTables;
    for (int t = 0; t < k; ++t) {
        wordTables.emplace_back(out.topics.col(t));
    }
    const AliasTable foregroundTopics(out.foregroundWeights);
    const AliasTable backgroundTopics(out.backgroundWeights);
    const std::int64_t total = spec.foregroundDocuments + spec.backgroundDocuments;
    std::vector<int> words;
    std::vector<std::pair<std::int32_t, std::int32_t>> wordCounts;
    SyntheticDocument document;
    document.wordCounts = &wordCounts;
    for (std::int64_t n = 0; n < total; ++n) {
        const bool isForeground = n < spec.foregroundDocuments;
        const int topic = (isForeground ? foregroundTopics : backgroundTopics)
                              .sample(rng.uniform(), rng.uniform());
        const int length =
            spec.documentLength - spec.lengthSpread +
            static_cast<int>(rng.below(static_cast<std::uint64_t>(2 * spec.lengthSpread + 1)));
        words.resize(static_cast<size_t>(length));
        for (int& w : words) {
            w = wordTables[static_cast<size_t>(topic)].sample(rng.uniform(), rng.uniform());
        }
        std::sort(words.begin(), words.end());
        wordCounts.clear();
        for (size_t p = 0; p < words.size();) {
            size_t q = p;
            while (q < words.size() && words[q] == words[p]) {
                ++q;
            }
            wordCounts.emplace_back(words[p], static_cast<std::int32_t>(q - p));
            p = q;
        }
        (isForeground ? out.foregroundDocuments : out.backgroundDocuments).push_back(n);
        document.index = n;
        document.foreground = isForeground;
        document.topic = topic;
        consumer(document);
    }
    return out;
}

SyntheticTopicCorpus generateSyntheticTopics(const SyntheticTopicSpec& spec) {
    const int k = spec.numA + spec.numB + spec.numC;
    CountMatrix counts;
    counts.rowPtr.assign(1, 0);
    LabelField group{"group", {"background", "foreground"}, {0}, {}, {0, 0}};
    LabelField set{"set", {"a", "b", "c"}, {0}, {}, {0, 0, 0}};
    LabelField topicField{
        "topic", {}, {0}, {}, std::vector<std::int64_t>(static_cast<size_t>(std::max(k, 0)), 0)};
    for (int t = 0; t < k; ++t) {
        topicField.values.push_back("t" + std::to_string(t));
    }
    std::sort(topicField.values.begin(), topicField.values.end());
    std::vector<int> topicValueId(static_cast<size_t>(std::max(k, 0)));
    for (int t = 0; t < k; ++t) {
        const auto it =
            std::find(topicField.values.begin(), topicField.values.end(), "t" + std::to_string(t));
        topicValueId[static_cast<size_t>(t)] = static_cast<int>(it - topicField.values.begin());
    }
    std::vector<std::string> documentIds;
    std::vector<char> topicSets;
    auto addLabel = [](LabelField& field, int valueId) {
        field.valueIds.push_back(valueId);
        field.offsets.push_back(static_cast<std::int64_t>(field.valueIds.size()));
        ++field.valueDocumentCounts[static_cast<size_t>(valueId)];
    };
    double tokens = 0;
    SyntheticTopicCorpus out = streamSyntheticTopics(spec, [&](const SyntheticDocument& doc) {
        for (const auto& [word, count] : *doc.wordCounts) {
            counts.colIdx.push_back(word);
            counts.counts.push_back(static_cast<float>(count));
            tokens += count;
        }
        counts.rowPtr.push_back(counts.nnz());
        addLabel(group, doc.foreground ? 1 : 0);
        const int setId = doc.topic < spec.numA ? 0 : (doc.topic < spec.numA + spec.numB ? 1 : 2);
        addLabel(set, setId);
        addLabel(topicField, topicValueId[static_cast<size_t>(doc.topic)]);
        documentIds.push_back(std::to_string(doc.index + 1));
    });
    counts.numRows = static_cast<std::int64_t>(counts.rowPtr.size()) - 1;
    counts.numCols = spec.vocabularySize;
    Corpus& corpus = out.corpus;
    corpus.counts = std::move(counts);
    corpus.labels = {std::move(group), std::move(set), std::move(topicField)};
    corpus.documentIds = std::move(documentIds);
    corpus.report.documentsRead = corpus.counts.numRows;
    corpus.report.documentsKept = corpus.counts.numRows;
    corpus.report.vocabularySize = spec.vocabularySize;
    corpus.report.tokensKept = static_cast<std::int64_t>(tokens);
    return out;
}

SyntheticTopicCorpus writeSyntheticTopicsUci(const SyntheticTopicSpec& spec,
                                             const std::string& directory,
                                             const std::string& name) {
    const std::string docwordPath = directory + "/docword." + name + ".txt";
    const std::string vocabPath = directory + "/vocab." + name + ".txt";
    const std::string labelsPath = directory + "/labels." + name + ".tsv";
    auto open = [](const std::string& path) {
        std::FILE* file = std::fopen(path.c_str(), "wb");
        if (file == nullptr) {
            throw InputError(path, 0, std::string("cannot write: ") + std::strerror(errno));
        }
        return file;
    };
    std::FILE* docword = open(docwordPath);
    std::FILE* labels = nullptr;
    try {
        labels = open(labelsPath);
    } catch (...) {
        std::fclose(docword);
        throw;
    }
    const std::int64_t total = spec.foregroundDocuments + spec.backgroundDocuments;
    // NNZ is known only at the end: reserve a fixed-width header line and rewrite it then.
    std::fprintf(docword, "%lld\n%d\n%-20s\n", static_cast<long long>(total), spec.vocabularySize,
                 "0");
    std::fprintf(labels, "group\tset\ttopic\n");
    std::int64_t nnz = 0;
    std::vector<char> buffer;
    SyntheticTopicCorpus truth;
    try {
        truth = streamSyntheticTopics(spec, [&](const SyntheticDocument& doc) {
            buffer.clear();
            char line[64];
            for (const auto& [word, count] : *doc.wordCounts) {
                const int length =
                    std::snprintf(line, sizeof line, "%lld %d %d\n",
                                  static_cast<long long>(doc.index + 1), word + 1, count);
                buffer.insert(buffer.end(), line, line + length);
                ++nnz;
            }
            std::fwrite(buffer.data(), 1, buffer.size(), docword);
            const char setName = static_cast<char>(
                'a' + (doc.topic < spec.numA ? 0 : (doc.topic < spec.numA + spec.numB ? 1 : 2)));
            std::fprintf(labels, "%s\t%c\tt%d\n", doc.foreground ? "foreground" : "background",
                         setName, doc.topic);
        });
    } catch (...) {
        std::fclose(docword);
        std::fclose(labels);
        throw;
    }
    char header[32];
    std::snprintf(header, sizeof header, "%-20lld", static_cast<long long>(nnz));
    std::fseek(docword, 0, SEEK_SET);
    std::fprintf(docword, "%lld\n%d\n%s", static_cast<long long>(total), spec.vocabularySize,
                 header);
    const bool docwordOk = std::fclose(docword) == 0;
    const bool labelsOk = std::fclose(labels) == 0;
    if (!docwordOk || !labelsOk) {
        throw InputError(docwordOk ? labelsPath : docwordPath, 0, "write failed (disk full?)");
    }
    std::FILE* vocab = open(vocabPath);
    for (const auto& word : truth.corpus.vocabulary) {
        std::fprintf(vocab, "%s\n", word.c_str());
    }
    if (std::fclose(vocab) != 0) {
        throw InputError(vocabPath, 0, "write failed (disk full?)");
    }
    return truth;
}

} // namespace cx
