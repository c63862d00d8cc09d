#pragma once

// Checks shared by the corpus reader tests (test_corpus_loader.cpp, test_corpus_readers.cpp):
// rows and labels of a loaded corpus, its invariants, and the loose tokenizer options.

#include "corpus_test_support.h"

#include "core/io/corpus_loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace cx::test {

using Strings = std::vector<std::string>;
using WordCounts = std::map<std::string, double>;

/// Word → count of one document.
inline WordCounts row(const Corpus& corpus, std::int64_t document) {
    WordCounts out;
    const CountMatrix& m = corpus.counts;
    for (std::int64_t p = m.rowPtr[document]; p < m.rowPtr[document + 1]; ++p) {
        out[corpus.vocabulary[m.colIdx[p]]] = m.counts[p];
    }
    return out;
}

inline const LabelField& field(const Corpus& corpus, const std::string& name) {
    const int index = corpus.labelFieldIndex(name);
    EXPECT_GE(index, 0) << "no label field " << name;
    return corpus.labels.at(static_cast<size_t>(std::max(index, 0)));
}

/// Value → number of documents, from valueDocumentCounts.
inline std::map<std::string, std::int64_t> valueCounts(const Corpus& corpus,
                                                       const std::string& name) {
    const LabelField& f = field(corpus, name);
    std::map<std::string, std::int64_t> out;
    for (size_t v = 0; v < f.values.size(); ++v) {
        out[f.values[v]] = f.valueDocumentCounts.at(v);
    }
    return out;
}

inline Strings labelsOf(const Corpus& corpus, const std::string& name, std::int64_t document) {
    const LabelField& f = field(corpus, name);
    Strings out;
    for (std::int64_t p = f.offsets[document]; p < f.offsets[document + 1]; ++p) {
        out.push_back(f.values[f.valueIds[p]]);
    }
    return out;
}

/// Structural invariants every loaded corpus must satisfy.
inline void expectWellFormed(const Corpus& corpus) {
    const CountMatrix& m = corpus.counts;
    ASSERT_EQ(static_cast<std::int64_t>(m.rowPtr.size()), m.numRows + 1);
    EXPECT_EQ(m.rowPtr.front(), 0);
    EXPECT_EQ(m.rowPtr.back(), m.nnz());
    EXPECT_EQ(m.counts.size(), m.colIdx.size());
    EXPECT_EQ(m.numCols, static_cast<std::int64_t>(corpus.vocabulary.size()));
    EXPECT_TRUE(std::is_sorted(corpus.vocabulary.begin(), corpus.vocabulary.end()));
    EXPECT_EQ(std::adjacent_find(corpus.vocabulary.begin(), corpus.vocabulary.end()),
              corpus.vocabulary.end());
    double tokens = 0;
    for (std::int64_t r = 0; r < m.numRows; ++r) {
        for (std::int64_t p = m.rowPtr[r]; p < m.rowPtr[r + 1]; ++p) {
            EXPECT_GT(m.counts[p], 0.0f);
            EXPECT_GE(m.colIdx[p], 0);
            EXPECT_LT(m.colIdx[p], m.numCols);
            if (p > m.rowPtr[r]) {
                EXPECT_LT(m.colIdx[p - 1], m.colIdx[p]) << "row " << r;
            }
            tokens += m.counts[p];
        }
    }
    EXPECT_EQ(static_cast<std::int64_t>(tokens), corpus.report.tokensKept);
    EXPECT_EQ(corpus.report.documentsKept, m.numRows);
    EXPECT_EQ(corpus.report.documentsRead,
              corpus.report.documentsKept + corpus.report.documentsSkippedShort);
    EXPECT_EQ(corpus.report.vocabularySize, m.numCols);
    if (!corpus.documentIds.empty()) {
        EXPECT_EQ(static_cast<std::int64_t>(corpus.documentIds.size()), m.numRows);
    }
    for (const LabelField& f : corpus.labels) {
        ASSERT_EQ(static_cast<std::int64_t>(f.offsets.size()), m.numRows + 1) << f.name;
        EXPECT_TRUE(std::is_sorted(f.values.begin(), f.values.end())) << f.name;
        ASSERT_EQ(f.valueDocumentCounts.size(), f.values.size()) << f.name;
        std::vector<std::int64_t> counted(f.values.size(), 0);
        for (std::int64_t d = 0; d < m.numRows; ++d) {
            for (std::int64_t p = f.offsets[d]; p < f.offsets[d + 1]; ++p) {
                if (p > f.offsets[d]) {
                    EXPECT_LT(f.valueIds[p - 1], f.valueIds[p]) << f.name;
                }
                ++counted.at(static_cast<size_t>(f.valueIds[p]));
            }
        }
        EXPECT_EQ(counted, f.valueDocumentCounts) << f.name;
        for (const std::int64_t count : f.valueDocumentCounts) {
            EXPECT_GT(count, 0) << f.name;
        }
    }
}

/// Same counts, vocabulary and labels (document ids are compared separately where they should
/// agree).
inline void expectSameCorpus(const Corpus& a, const Corpus& b) {
    EXPECT_EQ(a.vocabulary, b.vocabulary);
    EXPECT_EQ(a.counts.numRows, b.counts.numRows);
    EXPECT_EQ(a.counts.rowPtr, b.counts.rowPtr);
    EXPECT_EQ(a.counts.colIdx, b.counts.colIdx);
    EXPECT_EQ(a.counts.counts, b.counts.counts);
    ASSERT_EQ(a.labels.size(), b.labels.size());
    for (size_t i = 0; i < a.labels.size(); ++i) {
        EXPECT_EQ(a.labels[i].name, b.labels[i].name);
        EXPECT_EQ(a.labels[i].values, b.labels[i].values);
        EXPECT_EQ(a.labels[i].offsets, b.labels[i].offsets);
        EXPECT_EQ(a.labels[i].valueIds, b.labels[i].valueIds);
        EXPECT_EQ(a.labels[i].valueDocumentCounts, b.labels[i].valueDocumentCounts);
    }
    EXPECT_EQ(a.report.documentsRead, b.report.documentsRead);
    EXPECT_EQ(a.report.documentsSkippedShort, b.report.documentsSkippedShort);
    EXPECT_EQ(a.report.tokensKept, b.report.tokensKept);
    EXPECT_EQ(a.report.invalidBytes, b.report.invalidBytes);
}

inline std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
    return text;
}

inline CorpusLoadOptions loose() {
    CorpusLoadOptions options;
    options.minDocumentFrequency = 1;
    options.minTokens = 1;
    return options;
}

} // namespace cx::test
