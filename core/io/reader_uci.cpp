// UCI bag-of-words reader: docword.NAME.txt[.gz] (D, W, NNZ header lines, then
// "docID wordID count" lines, 1-based) + vocab.NAME.txt (W lines) + optional labels.NAME.tsv.
//
// This is the path for million-document inputs, so the entry loop does no allocation per line:
// integers are parsed by hand from LineReader's string_view and appended straight into the CSR
// arrays, which are reserved once from the header's NNZ.

#include "core/common/error.h"
#include "core/io/corpus_builder.h"
#include "core/io/tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>
#include <numeric>
#include <string>
#include <vector>

namespace cx {

namespace {

constexpr std::uint64_t kMaxExactCount = 1u << 24; // floats hold integers exactly up to here

inline bool isSpaceOrTab(char c) {
    return c == ' ' || c == '\t';
}

/// Parses an unsigned decimal after optional blanks; false if there is no digit or more than
/// 18 digits (so the value cannot overflow).
inline bool parseUnsigned(const char*& p, const char* end, std::uint64_t& out) {
    while (p < end && isSpaceOrTab(*p)) {
        ++p;
    }
    const char* start = p;
    std::uint64_t value = 0;
    while (p < end && static_cast<unsigned>(*p - '0') < 10u) {
        value = value * 10 + static_cast<std::uint64_t>(*p - '0');
        ++p;
    }
    if (p == start || p - start > 18) {
        return false;
    }
    out = value;
    return true;
}

std::string shown(std::string_view text) {
    constexpr size_t kMax = 60;
    std::string out = toValidUtf8(text.substr(0, kMax));
    if (text.size() > kMax) {
        out += "...";
    }
    return out;
}

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
    if (!parseUnsigned(p, end, value) || p != end) {
        throw InputError(reader.path(), reader.lineNumber(),
                         std::string("header line must hold ") + what + ", found '" + shown(line) +
                             "'");
    }
    return static_cast<std::int64_t>(value);
}

[[noreturn]] void failAt(const LineReader& reader, const std::string& problem) {
    throw InputError(reader.path(), reader.lineNumber(), problem);
}

/// Explains why an entry line did not parse or is out of range (the slow path).
[[noreturn]] void badEntry(const LineReader& reader, std::string_view line, std::int64_t numDocs,
                           std::int64_t numWords) {
    std::vector<std::string_view> fields;
    size_t start = 0;
    while (start < line.size()) {
        while (start < line.size() && isSpaceOrTab(line[start])) {
            ++start;
        }
        size_t end = start;
        while (end < line.size() && !isSpaceOrTab(line[end])) {
            ++end;
        }
        if (end > start) {
            fields.push_back(line.substr(start, end - start));
        }
        start = end;
    }
    if (fields.size() != 3) {
        failAt(reader, "expected 3 numbers 'docID wordID count', found " +
                           std::to_string(fields.size()) + " field" +
                           (fields.size() == 1 ? "" : "s") + ": '" + shown(line) + "'");
    }
    const char* names[3] = {"docID", "wordID", "count"};
    const std::int64_t limits[3] = {numDocs, numWords, std::numeric_limits<std::int64_t>::max()};
    for (int i = 0; i < 3; ++i) {
        const char* p = fields[i].data();
        const char* end = p + fields[i].size();
        std::uint64_t value = 0;
        if (!parseUnsigned(p, end, value) || p != end) {
            failAt(reader,
                   std::string(names[i]) + " '" + shown(fields[i]) + "' is not a positive integer");
        }
        if (value == 0 || static_cast<std::int64_t>(value) > limits[i]) {
            if (i == 2) {
                failAt(reader, "count 0 is not a positive integer");
            }
            failAt(reader, std::string(names[i]) + " " + std::to_string(value) +
                               " is out of range 1.." + std::to_string(limits[i]) + " (" +
                               (i == 0 ? "D" : "W") + " in the header)");
        }
    }
    failAt(reader, "cannot parse '" + shown(line) + "'");
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

/// Reorders entries recorded with their row (documents in any order) into CSR, stably.
void sortByRow(CountMatrix& matrix, std::vector<std::int32_t>& rowOf) {
    const size_t nnz = rowOf.size();
    std::vector<std::int64_t> rowPtr(static_cast<size_t>(matrix.numRows) + 1, 0);
    for (const std::int32_t row : rowOf) {
        ++rowPtr[static_cast<size_t>(row) + 1];
    }
    for (size_t r = 0; r < static_cast<size_t>(matrix.numRows); ++r) {
        rowPtr[r + 1] += rowPtr[r];
    }
    std::vector<std::int32_t> colIdx(nnz);
    std::vector<float> counts(nnz);
    std::vector<std::int64_t> next(rowPtr.begin(), rowPtr.end() - 1);
    for (size_t p = 0; p < nnz; ++p) {
        const std::int64_t to = next[static_cast<size_t>(rowOf[p])]++;
        colIdx[static_cast<size_t>(to)] = matrix.colIdx[p];
        counts[static_cast<size_t>(to)] = matrix.counts[p];
    }
    std::vector<std::int32_t>().swap(rowOf);
    matrix.rowPtr = std::move(rowPtr);
    matrix.colIdx = std::move(colIdx);
    matrix.counts = std::move(counts);
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
    } catch (const std::bad_alloc&) {
        throw InputError(docwordPath, 0,
                         "not enough memory for D = " + std::to_string(numDocs) +
                             " documents and NNZ = " + std::to_string(numEntries) + " entries");
    }

    ReadProgress tracker(cancel, progress, totalFileSize(raw.report.files));
    std::vector<std::int32_t> rowOf; // only once documents turn out to be unsorted
    bool unsorted = false;
    std::int64_t current = -1;
    std::int64_t entries = 0;
    std::int64_t firstLargeCountLine = 0;
    const std::uint64_t maxDoc = static_cast<std::uint64_t>(numDocs);
    const std::uint64_t maxWord = static_cast<std::uint64_t>(numWords);
    const std::int32_t* alias = vocabulary.hasAlias ? vocabulary.alias.data() : nullptr;
    std::string_view line;
    try {
        while (reader.next(line)) {
            tracker.tick(reader);
            const char* p = line.data();
            const char* end = p + line.size();
            std::uint64_t doc = 0;
            std::uint64_t word = 0;
            std::uint64_t count = 0;
            bool ok = parseUnsigned(p, end, doc) && parseUnsigned(p, end, word) &&
                      parseUnsigned(p, end, count);
            while (p < end && isSpaceOrTab(*p)) {
                ++p;
            }
            ok = ok && p == end && doc - 1 < maxDoc && word - 1 < maxWord && count > 0;
            if (!ok) {
                check.check(line, reader);
                if (trimAscii(line).empty()) {
                    continue;
                }
                badEntry(reader, line, numDocs, numWords);
            }
            if (entries == numEntries) {
                throw InputError(docwordPath, reader.lineNumber(),
                                 "more entries than NNZ = " + std::to_string(numEntries) +
                                     " in the header (line 3)");
            }
            ++entries;
            if (count > kMaxExactCount && firstLargeCountLine == 0) {
                firstLargeCountLine = reader.lineNumber();
            }
            const auto row = static_cast<std::int64_t>(doc - 1);
            const auto column = static_cast<std::int32_t>(word - 1);
            if (row != current && !unsorted) {
                if (row > current) {
                    // Rows current+1 .. row-1 are empty; row starts here.
                    const auto size = static_cast<std::int64_t>(matrix.colIdx.size());
                    for (std::int64_t r = current + 1; r <= row; ++r) {
                        matrix.rowPtr[r] = size;
                    }
                    current = row;
                } else {
                    // A document seen before: from now on remember each entry's row and sort
                    // at the end (the rows so far are known from rowPtr).
                    unsorted = true;
                    rowOf.reserve(matrix.colIdx.capacity());
                    rowOf.resize(matrix.colIdx.size());
                    for (std::int64_t r = 0; r <= current; ++r) {
                        const std::int64_t stop = r < current
                                                      ? matrix.rowPtr[r + 1]
                                                      : static_cast<std::int64_t>(rowOf.size());
                        std::fill(rowOf.begin() + matrix.rowPtr[r], rowOf.begin() + stop,
                                  static_cast<std::int32_t>(r));
                    }
                }
            }
            matrix.colIdx.push_back(alias != nullptr ? alias[column] : column);
            matrix.counts.push_back(static_cast<float>(count));
            if (unsorted) {
                rowOf.push_back(static_cast<std::int32_t>(row));
            }
        }
    } catch (const std::bad_alloc&) {
        throw InputError(docwordPath, reader.lineNumber(),
                         "not enough memory to hold the entries read so far");
    }
    if (entries != numEntries) {
        throw InputError(docwordPath, reader.lineNumber(),
                         "NNZ = " + std::to_string(numEntries) +
                             " in the header (line 3) but the file has " + std::to_string(entries) +
                             " entries (truncated?)");
    }
    if (firstLargeCountLine > 0) {
        addWarning(raw.report, docwordPath, firstLargeCountLine,
                   "count above 16777216 is stored rounded (counts are single-precision)");
    }
    tracker.fileDone(reader.fileSize());

    if (unsorted) {
        sortByRow(matrix, rowOf);
    } else {
        const auto size = static_cast<std::int64_t>(matrix.colIdx.size());
        for (std::int64_t r = current + 1; r <= numDocs; ++r) {
            matrix.rowPtr[r] = size;
        }
    }
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
