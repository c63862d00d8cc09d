#include "core/io/corpus_builder.h"

#include "core/common/error.h"
#include "core/io/tokenizer.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace cx {

LabelTable::LabelTable(const std::vector<std::string>& fieldNames) {
    m_fields.resize(fieldNames.size());
    for (size_t i = 0; i < fieldNames.size(); ++i) {
        m_fields[i].name = fieldNames[i];
    }
}

void LabelTable::addCell(size_t field, std::string_view cell) {
    size_t start = 0;
    for (size_t i = 0; i <= cell.size(); ++i) {
        if (i == cell.size() || cell[i] == ',' || cell[i] == ';') {
            addValue(field, cell.substr(start, i - start));
            start = i + 1;
        }
    }
}

void LabelTable::addValue(size_t field, std::string_view value) {
    const std::string_view trimmed = trimAscii(value);
    if (trimmed.empty()) {
        return;
    }
    Field& target = m_fields.at(field);
    // Fast path without allocation: a value already seen in its final form.
    auto found = target.ids.find(trimmed);
    if (found == target.ids.end()) {
        const std::string key = toLowerAscii(toValidUtf8(trimmed));
        found = target.ids.find(key);
        if (found == target.ids.end()) {
            const auto id = static_cast<std::int32_t>(target.values.size());
            target.values.push_back(key);
            found = target.ids.emplace(key, id).first;
        }
    }
    target.valueIds.push_back(found->second);
}

void LabelTable::endRow() {
    for (Field& field : m_fields) {
        const auto begin = field.valueIds.begin() + field.offsets.back();
        std::sort(begin, field.valueIds.end());
        field.valueIds.erase(std::unique(begin, field.valueIds.end()), field.valueIds.end());
        field.offsets.push_back(static_cast<std::int64_t>(field.valueIds.size()));
    }
    ++m_numRows;
}

std::vector<LabelField> LabelTable::finish(const std::vector<std::int64_t>& keptRows) {
    std::vector<LabelField> out;
    out.reserve(m_fields.size());
    for (Field& field : m_fields) {
        const size_t numValues = field.values.size();
        std::vector<std::int64_t> documents(numValues, 0);
        for (const std::int64_t row : keptRows) {
            for (std::int64_t p = field.offsets[row]; p < field.offsets[row + 1]; ++p) {
                ++documents[field.valueIds[p]];
            }
        }
        std::vector<std::int32_t> present;
        for (size_t v = 0; v < numValues; ++v) {
            if (documents[v] > 0) {
                present.push_back(static_cast<std::int32_t>(v));
            }
        }
        std::sort(present.begin(), present.end(), [&](std::int32_t a, std::int32_t b) {
            return field.values[a] < field.values[b];
        });
        std::vector<std::int32_t> newId(numValues, -1);
        LabelField result;
        result.name = field.name;
        for (size_t i = 0; i < present.size(); ++i) {
            newId[present[i]] = static_cast<std::int32_t>(i);
            result.values.push_back(std::move(field.values[present[i]]));
            result.valueDocumentCounts.push_back(documents[present[i]]);
        }
        result.offsets.reserve(keptRows.size() + 1);
        for (const std::int64_t row : keptRows) {
            const size_t begin = result.valueIds.size();
            for (std::int64_t p = field.offsets[row]; p < field.offsets[row + 1]; ++p) {
                result.valueIds.push_back(newId[field.valueIds[p]]);
            }
            std::sort(result.valueIds.begin() + static_cast<std::ptrdiff_t>(begin),
                      result.valueIds.end());
            result.offsets.push_back(static_cast<std::int64_t>(result.valueIds.size()));
        }
        out.push_back(std::move(result));
        field = Field{};
    }
    return out;
}

namespace {

/// The start of `text` with whitespace runs collapsed to one space, at most kExcerptBytes bytes,
/// cut before a partial UTF-8 sequence.
std::string excerptOf(std::string_view text) {
    std::string out;
    bool space = true; // drops leading whitespace
    for (size_t i = 0; i < text.size() && out.size() < kExcerptBytes; ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            if (!space) {
                out.push_back(' ');
            }
            space = true;
        } else {
            out.push_back(c);
            space = false;
        }
    }
    if (out.size() >= kExcerptBytes) {
        // Drop a trailing partial multi-byte sequence (toValidUtf8 would turn it into Latin-1).
        size_t end = out.size();
        size_t lead = end;
        while (lead > 0 && (static_cast<unsigned char>(out[lead - 1]) & 0xC0) == 0x80 &&
               end - lead < 3) {
            --lead;
        }
        if (lead > 0 && static_cast<unsigned char>(out[lead - 1]) >= 0xC0) {
            const auto first = static_cast<unsigned char>(out[lead - 1]);
            const size_t need = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2;
            if (end - (lead - 1) < need) {
                out.resize(lead - 1);
            }
        }
    }
    while (!out.empty() && out.back() == ' ') {
        out.pop_back();
    }
    return toValidUtf8(out);
}

} // namespace

void TokenCounter::addDocument(std::string_view text) {
    excerpts.push_back(excerptOf(text));
    m_rowIds.clear();
    forEachToken(text, m_scratch, [&](std::string_view token) {
        auto found = m_ids.find(token);
        std::int32_t id = 0;
        if (found != m_ids.end()) {
            id = found->second;
        } else if (m_removeStopWords && isStopWord(token)) {
            id = -1; // remembered so that the stop list is consulted once per distinct word
            m_ids.emplace(std::string(token), id);
        } else {
            id = static_cast<std::int32_t>(words.size());
            words.emplace_back(token);
            m_ids.emplace(std::string(token), id);
        }
        if (id >= 0) {
            m_rowIds.push_back(id);
        }
    });
    std::sort(m_rowIds.begin(), m_rowIds.end());
    for (size_t i = 0; i < m_rowIds.size();) {
        size_t j = i + 1;
        while (j < m_rowIds.size() && m_rowIds[j] == m_rowIds[i]) {
            ++j;
        }
        m_counts.colIdx.push_back(m_rowIds[i]);
        m_counts.counts.push_back(static_cast<float>(j - i));
        i = j;
    }
    m_counts.rowPtr.push_back(m_counts.nnz());
    ++m_counts.numRows;
}

CountMatrix TokenCounter::takeCounts() {
    m_counts.numCols = static_cast<std::int64_t>(words.size());
    CountMatrix out = std::move(m_counts);
    m_counts = CountMatrix{};
    return out;
}

namespace {

std::string minDfText(std::int64_t minDf) {
    return "min-df " + std::to_string(minDf);
}

} // namespace

Corpus finishCorpus(RawCorpus raw, const CorpusLoadOptions& options, const std::string& source,
                    const CancelToken& cancel, const ProgressFn& progress) {
    throwIfCancelled(cancel);
    if (progress) {
        progress(0.9, "building vocabulary");
    }
    CountMatrix& matrix = raw.counts;
    const std::int64_t numRead = matrix.numRows;
    const size_t numWords = raw.words.size();
    if (static_cast<std::int64_t>(matrix.rowPtr.size()) != numRead + 1 ||
        (raw.labels.numFields() > 0 && raw.labels.numRows() != numRead) ||
        (!raw.documentIds.empty() &&
         static_cast<std::int64_t>(raw.documentIds.size()) != numRead) ||
        (!raw.excerpts.empty() && static_cast<std::int64_t>(raw.excerpts.size()) != numRead)) {
        throw std::logic_error("finishCorpus: reader produced inconsistent row counts");
    }
    LoadReport report = std::move(raw.report);
    report.documentsRead = numRead;
    if (numRead == 0) {
        throw InputError(source, 0, "no documents found");
    }

    // Document frequency: rows hold each column at most once.
    std::vector<std::int64_t> documentFrequency(numWords, 0);
    for (const std::int32_t column : matrix.colIdx) {
        ++documentFrequency[static_cast<size_t>(column)];
    }
    const std::int64_t minDf = std::max<std::int64_t>(1, options.minDocumentFrequency);
    // Largest document frequency allowed by maxDocumentFraction (never below 1 document).
    const std::int64_t maxDf =
        options.maxDocumentFraction >= 1.0
            ? numRead
            : std::max<std::int64_t>(1, static_cast<std::int64_t>(options.maxDocumentFraction *
                                                                  static_cast<double>(numRead)));
    auto isNumber = [](const std::string& word) {
        return std::all_of(word.begin(), word.end(),
                           [](unsigned char c) { return c >= '0' && c <= '9'; });
    };
    std::vector<std::int32_t> candidates;
    bool anyWord = false;
    for (size_t w = 0; w < numWords; ++w) {
        const std::string& word = raw.words[w];
        if (word.empty() || (!raw.excluded.empty() && raw.excluded[w] != 0) ||
            documentFrequency[w] == 0) {
            continue;
        }
        if (options.removeStopWords && isStopWord(toLowerAscii(word))) {
            continue;
        }
        if (options.removeNumbers && isNumber(word)) {
            continue;
        }
        anyWord = true;
        if (documentFrequency[w] >= minDf && documentFrequency[w] <= maxDf) {
            candidates.push_back(static_cast<std::int32_t>(w));
        }
    }
    if (!anyWord) {
        throw InputError(source, 0,
                         options.removeStopWords
                             ? "no words found (the documents are empty or hold only stop words)"
                             : "no words found (the documents are empty)");
    }
    if (candidates.empty()) {
        throw InputError(source, 0,
                         "no word occurs in " + std::to_string(minDf) + " or more documents (" +
                             minDfText(minDf) + ")");
    }
    const std::int64_t vocabularyCap = options.maxVocabulary > 0 ? options.maxVocabulary
                                       : options.capVocabularyAtDocuments
                                           ? std::max<std::int64_t>(numRead, kMinimumVocabularyCap)
                                           : 0;
    report.vocabularyCap = vocabularyCap;
    report.vocabularyCapAutomatic = options.maxVocabulary <= 0 && vocabularyCap > 0;
    if (vocabularyCap > 0 && static_cast<std::int64_t>(candidates.size()) > vocabularyCap) {
        report.wordsDroppedByCap = static_cast<std::int64_t>(candidates.size()) - vocabularyCap;
        std::sort(candidates.begin(), candidates.end(), [&](std::int32_t a, std::int32_t b) {
            if (documentFrequency[a] != documentFrequency[b]) {
                return documentFrequency[a] > documentFrequency[b];
            }
            return raw.words[a] < raw.words[b];
        });
        candidates.resize(static_cast<size_t>(vocabularyCap));
    }
    std::sort(candidates.begin(), candidates.end(),
              [&](std::int32_t a, std::int32_t b) { return raw.words[a] < raw.words[b]; });

    Corpus corpus;
    std::vector<std::int32_t> newId(numWords, -1);
    for (const std::int32_t w : candidates) {
        // Equal strings (only possible if a reader passed duplicates) share one column.
        if (corpus.vocabulary.empty() || corpus.vocabulary.back() != raw.words[w]) {
            corpus.vocabulary.push_back(std::move(raw.words[w]));
        }
        newId[w] = static_cast<std::int32_t>(corpus.vocabulary.size() - 1);
    }
    raw.words.clear();
    raw.words.shrink_to_fit();
    std::vector<std::int64_t>().swap(documentFrequency);
    throwIfCancelled(cancel);

    // Remap every row in place, then drop short rows by not advancing the write position.
    std::vector<std::int64_t> keptRows;
    keptRows.reserve(static_cast<size_t>(numRead));
    std::vector<std::pair<std::int32_t, float>> scratch;
    std::int64_t write = 0;
    std::int64_t begin = 0;
    std::int64_t numKept = 0;
    std::int64_t tokensKept = 0;
    const double minTokens = static_cast<double>(options.minTokens);
    for (std::int64_t row = 0; row < numRead; ++row) {
        const std::int64_t end = matrix.rowPtr[row + 1];
        const std::int64_t rowStart = write;
        bool sorted = true;
        std::int32_t last = -1;
        for (std::int64_t p = begin; p < end; ++p) {
            const std::int32_t id = newId[matrix.colIdx[p]];
            if (id < 0) {
                continue;
            }
            sorted = sorted && id > last;
            last = id;
            matrix.colIdx[write] = id;
            matrix.counts[write] = matrix.counts[p];
            ++write;
        }
        if (!sorted) {
            scratch.clear();
            for (std::int64_t p = rowStart; p < write; ++p) {
                scratch.emplace_back(matrix.colIdx[p], matrix.counts[p]);
            }
            std::sort(scratch.begin(), scratch.end(),
                      [](const auto& a, const auto& b) { return a.first < b.first; });
            write = rowStart;
            for (size_t i = 0; i < scratch.size(); ++i) {
                if (write > rowStart && matrix.colIdx[write - 1] == scratch[i].first) {
                    matrix.counts[write - 1] += scratch[i].second;
                } else {
                    matrix.colIdx[write] = scratch[i].first;
                    matrix.counts[write] = scratch[i].second;
                    ++write;
                }
            }
        }
        double length = 0;
        for (std::int64_t p = rowStart; p < write; ++p) {
            length += matrix.counts[p];
        }
        if (length >= minTokens) {
            keptRows.push_back(row);
            // numKept + 1 <= row + 1: never overwrites an entry not yet read (end is saved).
            matrix.rowPtr[numKept + 1] = write;
            ++numKept;
            tokensKept += static_cast<std::int64_t>(length);
        } else {
            write = rowStart;
        }
        begin = end;
        if ((row & 0xFFFF) == 0) {
            throwIfCancelled(cancel);
        }
    }
    if (numKept == 0) {
        throw InputError(source, 0,
                         "no document has " + std::to_string(options.minTokens) +
                             " or more tokens after the vocabulary cut (" + minDfText(minDf) +
                             (options.maxVocabulary > 0
                                  ? ", max vocabulary " + std::to_string(options.maxVocabulary)
                                  : std::string()) +
                             ")");
    }
    matrix.rowPtr.resize(static_cast<size_t>(numKept + 1));
    matrix.rowPtr[0] = 0;
    matrix.colIdx.resize(static_cast<size_t>(write));
    matrix.counts.resize(static_cast<size_t>(write));
    if (matrix.colIdx.capacity() > 2 * matrix.colIdx.size() + 1024) {
        // Only when much was dropped: the copy briefly needs both buffers.
        matrix.colIdx.shrink_to_fit();
        matrix.counts.shrink_to_fit();
    }
    matrix.numRows = numKept;
    matrix.numCols = static_cast<std::int64_t>(corpus.vocabulary.size());
    corpus.counts = std::move(matrix);

    if (!raw.documentIds.empty()) {
        corpus.documentIds.reserve(keptRows.size());
        for (const std::int64_t row : keptRows) {
            corpus.documentIds.push_back(std::move(raw.documentIds[row]));
        }
    }
    if (!raw.excerpts.empty()) {
        corpus.documentExcerpts.reserve(keptRows.size());
        for (const std::int64_t row : keptRows) {
            corpus.documentExcerpts.push_back(std::move(raw.excerpts[row]));
        }
    }
    if (raw.labels.numFields() > 0) {
        corpus.labels = raw.labels.finish(keptRows);
    }

    report.documentsKept = numKept;
    report.documentsSkippedShort = numRead - numKept;
    report.tokensKept = tokensKept;
    report.vocabularySize = static_cast<std::int64_t>(corpus.vocabulary.size());
    corpus.report = std::move(report);
    if (progress) {
        progress(1.0, "done");
    }
    return corpus;
}

void ReadProgress::update(std::int64_t bytesInCurrentFile) {
    throwIfCancelled(m_cancel);
    if (m_progress && m_totalBytes > 0) {
        const double fraction = static_cast<double>(m_doneBytes + bytesInCurrentFile) /
                                static_cast<double>(m_totalBytes);
        m_progress(0.9 * std::clamp(fraction, 0.0, 1.0), "reading");
    }
}

void ReadProgress::fileDone(std::int64_t fileBytes) {
    m_doneBytes += fileBytes;
    update(0);
}

void TextLineCheck::check(std::string_view line, const std::string& path, std::int64_t lineNumber) {
    if (m_bytesChecked < (1 << 16)) {
        if (std::memchr(line.data(), '\0', line.size()) != nullptr) {
            throw InputError(path, lineNumber,
                             "looks binary (NUL byte near the start), not a text file");
        }
        m_bytesChecked += static_cast<std::int64_t>(line.size()) + 1;
    }
    m_invalidBytes += countInvalidUtf8(line);
}

void addWarning(LoadReport& report, const std::string& file, std::int64_t line,
                const std::string& problem) {
    if (report.warnings.size() < kMaxWarnings) {
        report.warnings.push_back(InputError(file, line, problem).what());
        return;
    }
    // One summary line at the end, rewritten as the count grows.
    static const std::string prefix = "further warnings not shown: ";
    if (report.warnings.size() == kMaxWarnings) {
        report.warnings.push_back(prefix + "1");
        return;
    }
    std::string& summary = report.warnings.back();
    const std::int64_t count = std::stoll(summary.substr(prefix.size())) + 1;
    summary = prefix + std::to_string(count);
}

std::vector<std::string> headerColumnNames(const std::vector<std::string>& cells,
                                           LoadReport& report, const std::string& path,
                                           std::int64_t line) {
    std::vector<std::string> names;
    for (size_t i = 0; i < cells.size(); ++i) {
        std::string_view cell = cells[i];
        if (i == 0 && cell.substr(0, 3) == "\xEF\xBB\xBF") {
            cell.remove_prefix(3); // UTF-8 byte-order mark
        }
        std::string name = toLowerAscii(toValidUtf8(trimAscii(cell)));
        if (name.empty()) {
            name = "column" + std::to_string(i + 1);
            addWarning(report, path, line,
                       "column " + std::to_string(i + 1) + " has no name; calling it '" + name +
                           "'");
        }
        for (size_t j = 0; j < names.size(); ++j) {
            if (names[j] == name) {
                throw InputError(path, line,
                                 "duplicate column name '" + name + "' (columns " +
                                     std::to_string(j + 1) + " and " + std::to_string(i + 1) + ")");
            }
        }
        names.push_back(std::move(name));
    }
    return names;
}

size_t splitTabs(std::string_view line, std::vector<std::string>& cells) {
    size_t count = 0;
    size_t start = 0;
    for (;;) {
        const size_t tab = line.find('\t', start);
        if (count == cells.size()) {
            cells.emplace_back();
        }
        std::string& out = cells[count++];
        if (tab == std::string_view::npos) {
            out.assign(line.substr(start));
            return count;
        }
        out.assign(line.substr(start, tab - start));
        start = tab + 1;
    }
}

std::int64_t totalFileSize(const std::vector<std::string>& paths) {
    std::int64_t total = 0;
    for (const std::string& path : paths) {
        std::error_code error;
        const auto size = std::filesystem::file_size(path, error);
        if (!error) {
            total += static_cast<std::int64_t>(size);
        }
    }
    return total;
}

std::string baseName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

} // namespace cx
