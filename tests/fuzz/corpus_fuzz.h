#pragma once

// Corpus targets share one body: write the parts, load with the format, touch the result.
#include "core/io/corpus_loader.h"
#include "fuzz_support.h"

namespace cx::fuzz {

/// Options that let small inputs reach the vocabulary and label code (the defaults drop
/// words seen in one document and documents under 3 tokens).
inline CorpusLoadOptions permissiveOptions(CorpusFormat format, const std::uint8_t* data,
                                           size_t size) {
    CorpusLoadOptions options;
    options.format = format;
    options.minDocumentFrequency = 1;
    options.minTokens = 1;
    // Let the input pick a few options too (from its last byte).
    const std::uint8_t knob = size > 0 ? data[size - 1] : 0;
    options.removeStopWords = (knob & 1) != 0;
    options.removeNumbers = (knob & 2) != 0;
    options.maxVocabulary = (knob & 4) != 0 ? 3 : 0;
    options.maxDocumentFraction = (knob & 8) != 0 ? 0.5 : 1.0;
    return options;
}

/// Loads `path` and checks the corpus is consistent (CSR offsets, word ids, label alignment).
inline void loadAndCheck(const std::string& path, const CorpusLoadOptions& options) {
    expectOnlyInputErrors([&] {
        const Corpus corpus = loadCorpus(path, options);
        const auto& counts = corpus.counts;
        if (counts.numCols != static_cast<std::int64_t>(corpus.vocabulary.size())) {
            __builtin_trap();
        }
        if (static_cast<std::int64_t>(counts.rowPtr.size()) != counts.numRows + 1 ||
            counts.rowPtr.back() != counts.nnz()) {
            __builtin_trap();
        }
        for (std::int64_t row = 0; row < counts.numRows; ++row) {
            for (std::int64_t p = counts.rowPtr[row]; p < counts.rowPtr[row + 1]; ++p) {
                const bool increasing =
                    p == counts.rowPtr[row] || counts.colIdx[p] > counts.colIdx[p - 1];
                if (counts.colIdx[p] < 0 || counts.colIdx[p] >= counts.numCols || !increasing ||
                    !(counts.counts[p] > 0)) {
                    __builtin_trap();
                }
            }
        }
        for (const auto& field : corpus.labels) {
            if (static_cast<std::int64_t>(field.offsets.size()) != counts.numRows + 1) {
                __builtin_trap();
            }
            for (const auto id : field.valueIds) {
                if (id < 0 || static_cast<size_t>(id) >= field.values.size()) {
                    __builtin_trap();
                }
            }
        }
    });
}

} // namespace cx::fuzz
