#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// Document-term counts in compressed sparse row form: row n is document n, column i is
/// vocabulary word i, entry = how often word i occurs in document n. Column indices are strictly
/// increasing within a row and every stored count is > 0. Counts are exact small integers held
/// in float (8 bytes per non-zero with the index; a 1M-document corpus fits in well under 1 GB).
struct CountMatrix {
    std::int64_t numRows = 0;
    std::int64_t numCols = 0;
    std::vector<std::int64_t> rowPtr{0}; ///< size numRows + 1
    std::vector<std::int32_t> colIdx;    ///< size nnz
    std::vector<float> counts;           ///< size nnz

    std::int64_t nnz() const { return static_cast<std::int64_t>(colIdx.size()); }
    /// Document length ℓ_n = Σ_i c_n(i).
    double rowLength(std::int64_t row) const {
        double total = 0;
        for (std::int64_t p = rowPtr[row]; p < rowPtr[row + 1]; ++p) {
            total += counts[p];
        }
        return total;
    }
};

/// One label field (e.g. Reuters "topics", or a TSV column "author"). Each document carries
/// zero or more values of the field, stored CSR-style as ids into `values`.
struct LabelField {
    std::string name;                     ///< lower-case field name as the user types it in rules
    std::vector<std::string> values;      ///< distinct values, sorted, lower case
    std::vector<std::int64_t> offsets{0}; ///< size numDocuments + 1
    std::vector<std::int32_t> valueIds;   ///< ids into `values`, sorted and unique per document
    /// Documents carrying each value (size values.size()); filled by the loader for pickers.
    std::vector<std::int64_t> valueDocumentCounts;
};

/// What a load did, for the data panel and the CLI's --json.
struct LoadReport {
    std::vector<std::string> files;         ///< files read, in order
    std::int64_t documentsRead = 0;         ///< documents found in the input
    std::int64_t documentsKept = 0;         ///< documents in the corpus (≥ minTokens tokens)
    std::int64_t documentsSkippedShort = 0; ///< dropped: fewer than minTokens in-vocabulary tokens
    std::int64_t tokensKept = 0;            ///< total in-vocabulary tokens over kept documents
    std::int64_t vocabularySize = 0;
    /// The vocabulary-size cap applied (0: none): CorpusLoadOptions::maxVocabulary, or with
    /// maxVocabulary = 0 the size rule max(documents read, kMinimumVocabularyCap).
    std::int64_t vocabularyCap = 0;
    bool vocabularyCapAutomatic = false; ///< the cap came from the size rule
    /// Words that passed every other cut but not the cap (the least frequent ones).
    std::int64_t wordsDroppedByCap = 0;
    std::int64_t invalidBytes = 0;     ///< non-UTF-8 bytes decoded leniently (Latin-1)
    std::vector<std::string> warnings; ///< "FILE:LINE: problem" lines that did not stop the load
};

/// Bytes of each document's text that a corpus keeps (Corpus::documentExcerpts): enough for a
/// snippet of ~160 characters, small enough for a million documents.
constexpr size_t kExcerptBytes = 320;

/// A loaded text corpus: counts, vocabulary, labels. Document order is input order.
struct Corpus {
    std::vector<std::string> vocabulary; ///< column i of `counts` is vocabulary[i]
    CountMatrix counts;
    std::vector<LabelField> labels;
    std::vector<std::string> documentIds; ///< optional (e.g. Reuters NEWID, TSV row number)
    /// Optional, one per document for readers of running text (TSV/CSV, Reuters, text folder):
    /// the first kExcerptBytes bytes of the document's text, whitespace runs collapsed to one
    /// space, valid UTF-8. Empty for bag-of-words input (UCI), which has no text.
    std::vector<std::string> documentExcerpts;
    LoadReport report;

    std::int64_t numDocuments() const { return counts.numRows; }
    /// Index of a label field by case-insensitive name, or -1.
    int labelFieldIndex(const std::string& name) const;
};

} // namespace cx
