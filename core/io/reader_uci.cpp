// UCI bag-of-words reader: docword.NAME.txt[.gz] (D, W, NNZ header lines, then
// "docID wordID count" lines, 1-based) + vocab.NAME.txt (W lines) + optional labels.NAME.tsv.
//
// This is the path for million-document inputs: the entry lines are parsed in large blocks on
// every thread (uci_entries.cpp) and appended into the CSR arrays, which are reserved once from
// the header's NNZ.

#include "core/common/error.h"
#include "core/common/memory.h"
#include "core/common/parallel.h"
#include "core/io/corpus_builder.h"
#include "core/io/tokenizer.h"
#include "core/io/uci_entries.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>
#include <numeric>
#include <string>
#include <vector>

namespace cx {

namespace {

/// Reads one header line holding a single non-negative integer.
std::int64_t readHeaderNumber(LineReader& reader, TextLineCheck& check, const char* what) {
    std::string_view line;
    if (!reader.next(line)) {
        throw InputError(reader.path(), reader.lineNumber() + 1,
                         reader.lineNumber() == 0
                             ? "empty file (expected the header lines D, W and NNZ)"
                             : std::string("file ends before the header line ") + what);
    }
    check.check(line, reader);
    const std::string_view trimmed = trimAscii(line);
    const char* p = trimmed.data();
    const char* end = p + trimmed.size();
    std::uint64_t value = 0;
    if (!uci::parseUnsigned(p, end, value) || p != end) {
        throw InputError(reader.path(), reader.lineNumber(),
                         std::string("header line must hold ") + what + ", found '" +
                             uci::shown(line) + "'");
    }
    return static_cast<std::int64_t>(value);
}

struct Vocabulary {
    std::vector<std::string> words;
    std::vector<std::uint8_t> excluded; // duplicates of an earlier word
    std::vector<std::int32_t> alias;    // column of each word id (itself unless a duplicate)
    bool hasAlias = false;
};

Vocabulary readVocabulary(const std::string& path, std::int64_t expectedWords,
                          const std::string& docwordPath, LoadReport& report) {
    LineReader reader(path);
    TextLineCheck check(report.invalidBytes);
    Vocabulary vocabulary;
    std::vector<std::int64_t> lineOf;
    std::int64_t lastNonEmpty = 0;
    std::string_view line;
    while (reader.next(line)) {
        check.check(line, reader);
        vocabulary.words.push_back(toValidUtf8(trimAscii(line)));
        if (!vocabulary.words.back().empty()) {
            lastNonEmpty = reader.lineNumber();
        }
        if (static_cast<std::int64_t>(vocabulary.words.size()) > expectedWords &&
            !vocabulary.words.back().empty()) {
            throw InputError(path, reader.lineNumber(),
                             "more words than W = " + std::to_string(expectedWords) + " in " +
                                 baseName(docwordPath) + " (line 2)");
        }
    }
    vocabulary.words.resize(static_cast<size_t>(lastNonEmpty)); // trailing blank lines
    if (static_cast<std::int64_t>(vocabulary.words.size()) != expectedWords) {
        throw InputError(
            path, lastNonEmpty,
            lastNonEmpty == 0
                ? "empty file (expected " + std::to_string(expectedWords) + " words, one per line)"
                : "has " + std::to_string(lastNonEmpty) + " words but W = " +
                      std::to_string(expectedWords) + " in " + baseName(docwordPath) + " (line 2)");
    }
    const size_t numWords = vocabulary.words.size();
    vocabulary.excluded.assign(numWords, 0);
    vocabulary.alias.resize(numWords);
    std::iota(vocabulary.alias.begin(), vocabulary.alias.end(), 0);
    StringIdMap first;
    first.reserve(numWords);
    for (size_t w = 0; w < numWords; ++w) {
        const std::string& word = vocabulary.words[w];
        if (word.empty()) {
            throw InputError(path, static_cast<std::int64_t>(w + 1),
                             "empty word (every line up to W must hold one word)");
        }
        auto [found, inserted] = first.emplace(word, static_cast<std::int32_t>(w));
        if (!inserted) {
            vocabulary.alias[w] = found->second;
            vocabulary.excluded[w] = 1;
            vocabulary.hasAlias = true;
            addWarning(report, path, static_cast<std::int64_t>(w + 1),
                       "word '" + word + "' repeats line " + std::to_string(found->second + 1) +
                           "; their counts are added");
        }
    }
    return vocabulary;
}

/// Sorts the entries of every row by column and adds up repeated columns, in place. Rows are
/// usually already strictly increasing, so a first pass only checks.
std::int64_t normalizeRows(CountMatrix& matrix) {
    bool clean = true;
    for (std::int64_t row = 0; row < matrix.numRows && clean; ++row) {
        for (std::int64_t p = matrix.rowPtr[row] + 1; p < matrix.rowPtr[row + 1]; ++p) {
            if (matrix.colIdx[p] <= matrix.colIdx[p - 1]) {
                clean = false;
                break;
            }
        }
    }
    if (clean) {
        return 0;
    }
    std::int64_t merged = 0;
    std::vector<std::pair<std::int32_t, float>> scratch;
    std::int64_t write = 0;
    std::int64_t begin = 0;
    for (std::int64_t row = 0; row < matrix.numRows; ++row) {
        const std::int64_t end = matrix.rowPtr[row + 1];
        scratch.clear();
        for (std::int64_t p = begin; p < end; ++p) {
            scratch.emplace_back(matrix.colIdx[p], matrix.counts[p]);
        }
        std::sort(scratch.begin(), scratch.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        const std::int64_t rowStart = write;
        for (const auto& [column, count] : scratch) {
            if (write > rowStart && matrix.colIdx[write - 1] == column) {
                matrix.counts[write - 1] += count;
                ++merged;
            } else {
                matrix.colIdx[write] = column;
                matrix.counts[write] = count;
                ++write;
            }
        }
        matrix.rowPtr[row + 1] = write;
        begin = end;
    }
    matrix.colIdx.resize(static_cast<size_t>(write));
    matrix.counts.resize(static_cast<size_t>(write));
    return merged;
}

void readLabels(const std::string& path, std::int64_t numDocs, RawCorpus& raw,
                const CancelToken& cancel) {
    LineReader reader(path);
    TextLineCheck check(raw.report.invalidBytes);
    std::string_view line;
    if (!reader.next(line)) {
        throw InputError(path, 0, "empty file (expected a header row of label field names)");
    }
    check.check(line, reader);
    std::vector<std::string> cells;
    cells.resize(splitTabs(line, cells));
    const std::vector<std::string> names =
        headerColumnNames(cells, raw.report, path, reader.lineNumber());
    raw.labels = LabelTable(names);
    while (reader.next(line)) {
        check.check(line, reader);
        if (raw.labels.numRows() == numDocs) {
            if (trimAscii(line).empty()) {
                continue; // trailing blank lines
            }
            throw InputError(path, reader.lineNumber(),
                             "more label rows than D = " + std::to_string(numDocs) + " documents");
        }
        const size_t found = splitTabs(line, cells);
        if (found != names.size()) {
            throw InputError(path, reader.lineNumber(),
                             "expected " + std::to_string(names.size()) +
                                 " fields (as in the header), found " + std::to_string(found));
        }
        for (size_t f = 0; f < names.size(); ++f) {
            raw.labels.addCell(f, cells[f]);
        }
        raw.labels.endRow();
        if ((reader.lineNumber() & 0xFFFF) == 0) {
            throwIfCancelled(cancel);
        }
    }
    if (raw.labels.numRows() != numDocs) {
        throw InputError(path, reader.lineNumber(),
                         "has " + std::to_string(raw.labels.numRows()) +
                             " label rows but D = " + std::to_string(numDocs) +
                             " documents (one row per document, in docID order)");
    }
}

} // namespace

RawCorpus readUci(const std::string& docwordPath, const std::string& vocabPath,
                  const std::string& labelsPath, const CorpusLoadOptions& options,
                  const CancelToken& cancel, const ProgressFn& progress) {
    (void)options; // the vocabulary cut happens in finishCorpus
    RawCorpus raw;
    raw.report.files = {docwordPath, vocabPath};
    if (!labelsPath.empty()) {
        raw.report.files.push_back(labelsPath);
    }
    LineReader reader(docwordPath);
    TextLineCheck check(raw.report.invalidBytes);
    const std::int64_t numDocs = readHeaderNumber(reader, check, "D, the number of documents");
    const std::int64_t numWords = readHeaderNumber(reader, check, "W, the vocabulary size");
    const std::int64_t numEntries =
        readHeaderNumber(reader, check, "NNZ, the number of docID-wordID-count lines");
    constexpr std::int64_t kMaxIndex = std::numeric_limits<std::int32_t>::max();
    if (numDocs < 1 || numDocs > kMaxIndex) {
        throw InputError(docwordPath, 1,
                         "D = " + std::to_string(numDocs) + " documents is out of range 1.." +
                             std::to_string(kMaxIndex));
    }
    if (numDocs > numEntries + 10'000'000) {
        // Documents may be empty, but not tens of millions of them: guards against a corrupt
        // header making us allocate per-document arrays for nothing.
        throw InputError(docwordPath, 1,
                         "D = " + std::to_string(numDocs) +
                             " documents is implausible for NNZ = " + std::to_string(numEntries) +
                             " entries (over 10 million documents would be empty)");
    }
    if (numWords < 1 || numWords > kMaxIndex) {
        throw InputError(docwordPath, 2,
                         "W = " + std::to_string(numWords) + " words is out of range 1.." +
                             std::to_string(kMaxIndex));
    }

    Vocabulary vocabulary = readVocabulary(vocabPath, numWords, docwordPath, raw.report);
    throwIfCancelled(cancel);

    CountMatrix& matrix = raw.counts;
    matrix.numRows = numDocs;
    matrix.numCols = numWords;
    // Reserve the header's NNZ, bounded by what the file can hold ("1 1 1\n" is 6 bytes; gzip
    // rarely compresses docword text beyond 16:1), so a lying header cannot exhaust memory.
    const std::int64_t fileBytes = reader.fileSize();
    const std::int64_t plausible =
        hasGzipSuffix(docwordPath) ? fileBytes * 16 / 6 + 1024 : fileBytes / 6 + 1024;
    try {
        matrix.rowPtr.assign(static_cast<size_t>(numDocs) + 1, 0);
        const auto reserve = static_cast<size_t>(std::min(numEntries, plausible));
        matrix.colIdx.reserve(reserve);
        matrix.counts.reserve(reserve);
        adviseHugePages(matrix.colIdx.data(), matrix.colIdx.capacity() * sizeof(std::int32_t));
        adviseHugePages(matrix.counts.data(), matrix.counts.capacity() * sizeof(float));
    } catch (const std::bad_alloc&) {
        throw InputError(docwordPath, 0,
                         "not enough memory for D = " + std::to_string(numDocs) +
                             " documents and NNZ = " + std::to_string(numEntries) + " entries");
    }

    ReadProgress tracker(cancel, progress, totalFileSize(raw.report.files));
    const std::int32_t* alias = vocabulary.hasAlias ? vocabulary.alias.data() : nullptr;
    uci::EntryReader entries(matrix, {numDocs, numWords, numEntries, alias}, check, docwordPath);
    entries.read(reader, tracker, threadCount());
    if (entries.firstLargeCountLine() > 0) {
        addWarning(raw.report, docwordPath, entries.firstLargeCountLine(),
                   "count above 16777216 is stored rounded (counts are single-precision)");
    }
    tracker.fileDone(reader.fileSize());
    entries.finish();
    throwIfCancelled(cancel);
    const std::int64_t merged = normalizeRows(matrix);
    if (merged > 0 && !vocabulary.hasAlias) {
        addWarning(raw.report, docwordPath, 0,
                   std::to_string(merged) +
                       " entries repeat a (docID, wordID) pair seen before; their counts are "
                       "added");
    }

    raw.words = std::move(vocabulary.words);
    raw.excluded = std::move(vocabulary.excluded);
    if (!labelsPath.empty()) {
        readLabels(labelsPath, numDocs, raw, cancel);
        tracker.fileDone(totalFileSize({vocabPath, labelsPath}));
    }
    raw.documentIds.reserve(static_cast<size_t>(numDocs));
    for (std::int64_t d = 1; d <= numDocs; ++d) {
        raw.documentIds.push_back(std::to_string(d));
    }
    return raw;
}

} // namespace cx
