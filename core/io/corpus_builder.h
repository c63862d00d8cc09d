#pragma once

// Building blocks shared by the corpus readers (internal to core/io; not part of the public
// loader API): label accumulation, tokenised count accumulation, the final vocabulary cut, and
// progress / binary-file checks over LineReader.

#include "core/common/cancel.h"
#include "core/common/string_hash.h"
#include "core/io/corpus.h"
#include "core/io/corpus_loader.h"
#include "core/io/text_input.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cx {

using StringIdMap = std::unordered_map<std::string, std::int32_t, StringHash, std::equal_to<>>;

/// Accumulates label values row by row (one row per document read). Values are trimmed,
/// lower-cased and decoded leniently to UTF-8; empty values are ignored; repeated values in a
/// row count once.
class LabelTable {
public:
    LabelTable() = default;
    explicit LabelTable(const std::vector<std::string>& fieldNames);

    size_t numFields() const { return m_fields.size(); }
    std::int64_t numRows() const { return m_numRows; }
    /// Adds the values of one cell, separated by ',' or ';', to field `field` of the open row.
    void addCell(size_t field, std::string_view cell);
    /// Adds one value to field `field` of the open row.
    void addValue(size_t field, std::string_view value);
    /// Closes the open row.
    void endRow();
    /// The fields restricted to `keptRows` (increasing row numbers). Values are sorted, values
    /// that occur in no kept row are dropped, valueDocumentCounts is filled.
    std::vector<LabelField> finish(const std::vector<std::int64_t>& keptRows);

private:
    struct Field {
        std::string name;
        StringIdMap ids;
        std::vector<std::string> values;
        std::vector<std::int64_t> offsets{0};
        std::vector<std::int32_t> valueIds;
    };
    std::vector<Field> m_fields;
    std::int64_t m_numRows = 0;
};

/// Tokenises documents into a count matrix over a provisional vocabulary (words in order of
/// first appearance). Stop words, if removed, never enter the matrix.
class TokenCounter {
public:
    explicit TokenCounter(bool removeStopWords) : m_removeStopWords(removeStopWords) {}
    /// Appends one document (one row).
    void addDocument(std::string_view text);
    std::int64_t numDocuments() const { return m_counts.numRows; }

    std::vector<std::string> words; ///< provisional vocabulary
    /// One per document: its text's first kExcerptBytes bytes (Corpus::documentExcerpts).
    std::vector<std::string> excerpts;
    /// Moves the matrix out (numCols = words.size()).
    CountMatrix takeCounts();

private:
    bool m_removeStopWords;
    StringIdMap m_ids;
    CountMatrix m_counts;
    std::vector<std::int32_t> m_rowIds;
    std::string m_scratch;
};

/// Everything a reader has read, before the vocabulary cut.
struct RawCorpus {
    std::vector<std::string> words;       ///< provisional vocabulary (column i = words[i])
    std::vector<std::uint8_t> excluded;   ///< optional, size words.size(): 1 = never keep
    CountMatrix counts;                   ///< one row per document read; unique columns per row
    LabelTable labels;                    ///< numRows() == counts.numRows (or no fields)
    std::vector<std::string> documentIds; ///< empty or one per row
    std::vector<std::string> excerpts;    ///< empty or one per row (Corpus::documentExcerpts)
    LoadReport report;
};

/// The vocabulary cut shared by every reader: drop excluded words (and stop words if the options
/// say so), drop words in fewer than minDocumentFrequency documents (and words in none), keep the
/// maxVocabulary words of highest document frequency (ties alphabetical), sort the vocabulary
/// alphabetically, remap counts, then drop documents with fewer than minTokens tokens left.
/// Rows may list columns in any order. Works in place on the count arrays (no second copy).
/// \throws InputError(source, 0, why) when no word or no document survives.
Corpus finishCorpus(RawCorpus raw, const CorpusLoadOptions& options, const std::string& source,
                    const CancelToken& cancel, const ProgressFn& progress);

/// Polls the cancel token and reports progress as a fraction of the bytes of all input files.
/// The reading phase maps to [0, 0.9]; finishCorpus reports the rest.
class ReadProgress {
public:
    ReadProgress(const CancelToken& cancel, const ProgressFn& progress, std::int64_t totalBytes)
        : m_cancel(cancel), m_progress(progress), m_totalBytes(totalBytes) {}
    /// Call once per line (cheap: does real work every 4096 calls).
    void tick(const LineReader& reader) {
        if ((++m_ticks & 4095) == 0) {
            update(reader.bytesRead());
        }
    }
    void update(std::int64_t bytesInCurrentFile);
    /// A file was finished: its bytes count as done.
    void fileDone(std::int64_t fileBytes);

private:
    const CancelToken& m_cancel;
    const ProgressFn& m_progress;
    std::int64_t m_totalBytes;
    std::int64_t m_doneBytes = 0;
    std::uint64_t m_ticks = 0;
};

/// Throws InputError(file, line, "looks binary ...") when a NUL byte appears in the first 64 KiB
/// of a text file, and counts invalid UTF-8 bytes of every line into `invalidBytes`.
class TextLineCheck {
public:
    explicit TextLineCheck(std::int64_t& invalidBytes) : m_invalidBytes(invalidBytes) {}
    void check(std::string_view line, const LineReader& reader) {
        check(line, reader.path(), reader.lineNumber());
    }
    /// The same for a line the caller numbered itself (bulk parsing with LineReader::nextLines).
    void check(std::string_view line, const std::string& path, std::int64_t lineNumber);

private:
    std::int64_t& m_invalidBytes;
    std::int64_t m_bytesChecked = 0;
};

/// Appends "FILE:LINE: problem" (or "FILE: problem" for line 0) to report.warnings; after
/// kMaxWarnings warnings, further ones are only counted in a final summary line.
void addWarning(LoadReport& report, const std::string& file, std::int64_t line,
                const std::string& problem);
constexpr size_t kMaxWarnings = 100;

/// Column names from the cells of a header row: trimmed, lower-cased, a leading UTF-8 byte-order
/// mark removed; an empty name becomes "columnN" (with a warning).
/// \throws InputError(path, line, ...) on a duplicate name.
std::vector<std::string> headerColumnNames(const std::vector<std::string>& cells,
                                           LoadReport& report, const std::string& path,
                                           std::int64_t line);

/// Splits a line at every tab into `cells` (reusing its strings); returns the number of cells.
size_t splitTabs(std::string_view line, std::vector<std::string>& cells);

/// Sum of the sizes of the given files (for progress).
std::int64_t totalFileSize(const std::vector<std::string>& paths);

/// Base name of a path ("a/b/c.txt" → "c.txt").
std::string baseName(const std::string& path);

/// Readers. `paths` are existing files (or one folder for the text-folder reader).
RawCorpus readDelimited(const std::string& path, char separator, const CorpusLoadOptions& options,
                        const CancelToken& cancel, const ProgressFn& progress);
RawCorpus readUci(const std::string& docwordPath, const std::string& vocabPath,
                  const std::string& labelsPath, const CorpusLoadOptions& options,
                  const CancelToken& cancel, const ProgressFn& progress);
RawCorpus readReuters(const std::vector<std::string>& paths, const CorpusLoadOptions& options,
                      const CancelToken& cancel, const ProgressFn& progress);
RawCorpus readTextFolder(const std::string& folder, const CorpusLoadOptions& options,
                         const CancelToken& cancel, const ProgressFn& progress);

} // namespace cx
