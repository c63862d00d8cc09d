#include "core/io/uci_entries.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/io/corpus_builder.h"
#include "core/io/text_input.h"
#include "core/io/tokenizer.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cx::uci {

namespace {

constexpr std::uint64_t kMaxExactCount = 1u << 24; // floats hold integers exactly up to here

/// parseUnsigned for the fast parser: a number of up to 7 digits is read with a few word
/// operations instead of a loop per digit (whose length is hard to predict); longer numbers,
/// and numbers within 8 bytes of `limit` (the end of readable memory), take parseUnsigned.
inline bool parseUnsignedWord(const char*& p, const char* end, const char* limit,
                              std::uint64_t& out) {
    while (p < end && isSpaceOrTab(*p)) {
        ++p;
    }
    if (limit - p >= 8) {
        std::uint64_t chunk = 0;
        std::memcpy(&chunk, p, sizeof chunk);
        // Bytes '0'..'9' become 0..9; any other byte gets its high bit set in nonDigit.
        const std::uint64_t values = chunk ^ 0x3030303030303030ULL;
        const std::uint64_t nonDigit =
            (((values & 0x7F7F7F7F7F7F7F7FULL) + 0x7676767676767676ULL) | values) &
            0x8080808080808080ULL;
        if (nonDigit != 0) {
            const int length = std::countr_zero(nonDigit) >> 3;
            if (length == 0) {
                return false;
            }
            // The digits move to the high bytes behind zeros (little-endian: the first digit is
            // the lowest byte), then pairs, quads and the whole are combined.
            std::uint64_t value = values << (64 - 8 * length);
            value = (value * 10 + (value >> 8)) & 0x00FF00FF00FF00FFULL;
            value = (value * 100 + (value >> 16)) & 0x0000FFFF0000FFFFULL;
            value = (value * 10000 + (value >> 32)) & 0x00000000FFFFFFFFULL;
            out = value;
            p += length;
            return true;
        }
    }
    return parseUnsigned(p, end, out);
}

/// The value of the 1..7 decimal digits at p (the caller checked they are digits).
inline std::uint64_t digitsValue(const char* p, int length) {
    std::uint64_t chunk = 0;
    std::memcpy(&chunk, p, sizeof chunk);
    std::uint64_t value = (chunk ^ 0x3030303030303030ULL) << (64 - 8 * length);
    value = (value * 10 + (value >> 8)) & 0x00FF00FF00FF00FFULL;
    value = (value * 100 + (value >> 16)) & 0x0000FFFF0000FFFFULL;
    return (value * 10000 + (value >> 32)) & 0x00000000FFFFFFFFULL;
}

/// The common line "D W C\n" (single spaces, numbers of 1..7 digits, within 16 bytes) read with
/// one vector compare; false (p unchanged) for anything else, which the general path then reads.
/// At least 24 bytes from p must be readable.
inline bool parseCommonLine(const char*& p, std::uint64_t& doc, std::uint64_t& word,
                            std::uint64_t& count) {
#if defined(__SSE2__)
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i offset = _mm_sub_epi8(bytes, _mm_set1_epi8('0'));
    const auto digits = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(offset, _mm_set1_epi8(9)), offset)));
    const auto spaces =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(' '))));
    const auto newlines =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\n'))));
    const unsigned others = ~digits;
    const int length1 = std::countr_zero(others);
    const int start2 = length1 + 1;
    const int length2 = std::countr_zero(others >> start2);
    const int start3 = start2 + length2 + 1;
    const int length3 = std::countr_zero(others >> start3);
    const int stop = start3 + length3;
    if (length1 == 0 || length1 > 7 || length2 == 0 || length2 > 7 || length3 == 0 || length3 > 7 ||
        stop > 15 || ((spaces >> length1) & 1u) == 0 ||
        ((spaces >> (start2 + length2)) & 1u) == 0 || ((newlines >> stop) & 1u) == 0) {
        return false;
    }
    doc = digitsValue(p, length1);
    word = digitsValue(p + start2, length2);
    count = digitsValue(p + start3, length3);
    p += stop + 1;
    return true;
#else
    (void)p;
    (void)doc;
    (void)word;
    (void)count;
    return false;
#endif
}

[[noreturn]] void failAtLine(const std::string& path, std::int64_t line,
                             const std::string& problem) {
    throw InputError(path, line, problem);
}

/// Explains why an entry line did not parse or is out of range (the slow path).
[[noreturn]] void badEntry(const std::string& path, std::int64_t lineNumber, std::string_view line,
                           std::int64_t numDocs, std::int64_t numWords) {
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
        failAtLine(path, lineNumber,
                   "expected 3 numbers 'docID wordID count', found " +
                       std::to_string(fields.size()) + " field" + (fields.size() == 1 ? "" : "s") +
                       ": '" + shown(line) + "'");
    }
    const char* names[3] = {"docID", "wordID", "count"};
    const std::int64_t limits[3] = {numDocs, numWords, std::numeric_limits<std::int64_t>::max()};
    for (int i = 0; i < 3; ++i) {
        const char* p = fields[i].data();
        const char* end = p + fields[i].size();
        std::uint64_t value = 0;
        if (!parseUnsigned(p, end, value) || p != end) {
            failAtLine(path, lineNumber,
                       std::string(names[i]) + " '" + shown(fields[i]) +
                           "' is not a positive integer");
        }
        if (value == 0 || static_cast<std::int64_t>(value) > limits[i]) {
            if (i == 2) {
                failAtLine(path, lineNumber, "count 0 is not a positive integer");
            }
            failAtLine(path, lineNumber,
                       std::string(names[i]) + " " + std::to_string(value) +
                           " is out of range 1.." + std::to_string(limits[i]) + " (" +
                           (i == 0 ? "D" : "W") + " in the header)");
        }
    }
    failAtLine(path, lineNumber, "cannot parse '" + shown(line) + "'");
}

/// Reorders entries recorded with their row (documents in any order) into CSR, stably.
void sortEntriesByRow(CountMatrix& matrix, std::vector<std::int32_t>& rowOf) {
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

} // namespace

std::string shown(std::string_view text) {
    constexpr size_t kMax = 60;
    std::string out = toValidUtf8(text.substr(0, kMax));
    if (text.size() > kMax) {
        out += "...";
    }
    return out;
}

EntryReader::EntryReader(CountMatrix& matrix, const BodyShape& shape, TextLineCheck& check,
                         std::string path)
    : m_matrix(matrix), m_shape(shape), m_check(check), m_path(std::move(path)) {}

void EntryReader::read(LineReader& reader, ReadProgress& progress, int parts, size_t minPartBytes) {
    std::string_view lines;
    try {
        while (reader.nextLines(lines)) {
            reader.countLines(readBlock(lines, reader.lineNumber(), std::max(1, parts),
                                        std::max<size_t>(1, minPartBytes)));
            progress.update(reader.bytesRead());
        }
    } catch (const std::bad_alloc&) {
        throw InputError(m_path, reader.lineNumber(),
                         "not enough memory to hold the entries read so far");
    }
    if (m_entries != m_shape.numEntries) {
        throw InputError(m_path, reader.lineNumber(),
                         "NNZ = " + std::to_string(m_shape.numEntries) +
                             " in the header (line 3) but the file has " +
                             std::to_string(m_entries) + " entries (truncated?)");
    }
}

/// Parses and appends the whole lines in `lines` (numbered from lineBefore + 1); returns how
/// many lines there were.
std::int64_t EntryReader::readBlock(std::string_view lines, std::int64_t lineBefore, int parts,
                                    size_t minPartBytes) {
    const char* begin = lines.data();
    const char* end = begin + lines.size();
    m_blockEnd = end;
    parts = static_cast<int>(
        std::clamp<size_t>(lines.size() / minPartBytes, 1, static_cast<size_t>(parts)));
    if (m_parts.size() < static_cast<size_t>(parts)) {
        m_parts.resize(static_cast<size_t>(parts));
    }
    const char* from = begin;
    for (int k = 0; k < parts; ++k) {
        const char* to = end;
        if (k + 1 < parts) {
            to = std::max(from, begin + lines.size() * static_cast<size_t>(k + 1) /
                                            static_cast<size_t>(parts));
            const void* newline =
                to < end ? std::memchr(to, '\n', static_cast<size_t>(end - to)) : nullptr;
            to = newline != nullptr ? static_cast<const char*>(newline) + 1 : end;
        }
        m_parts[static_cast<size_t>(k)].begin = from;
        m_parts[static_cast<size_t>(k)].end = to;
        from = to;
    }
    if (parts == 1) {
        parse(m_parts.front());
    } else {
        parallelFor(parts, [&](std::int64_t k) { parse(m_parts[static_cast<size_t>(k)]); });
    }
    // In file order: a part's triples, then the line it stopped at (a blank line is skipped,
    // a bad one is an error), then the rest of the part parsed again, until its end.
    std::int64_t line = lineBefore;
    for (int k = 0; k < parts; ++k) {
        Part& part = m_parts[static_cast<size_t>(k)];
        for (;;) {
            append(part, line);
            line += static_cast<std::int64_t>(part.size);
            if (part.stop == nullptr) {
                break;
            }
            part.begin = skipBlankLine(part.stop, part.end, ++line);
            parse(part);
        }
    }
    return line - lineBefore;
}

/// The line at `from` (file line `line`) that the fast parser did not take: with the checks
/// and messages of the line-by-line reader, an error unless it is blank. Returns where the next
/// line starts.
const char* EntryReader::skipBlankLine(const char* from, const char* end, std::int64_t line) {
    const void* found = std::memchr(from, '\n', static_cast<size_t>(end - from));
    const char* lineEnd = found != nullptr ? static_cast<const char*>(found) : end;
    std::string_view text(from, static_cast<size_t>(lineEnd - from));
    if (!text.empty() && text.back() == '\r') {
        text.remove_suffix(1);
    }
    m_check.check(text, m_path, line);
    if (!trimAscii(text).empty()) {
        badEntry(m_path, line, text, m_shape.numDocs, m_shape.numWords);
    }
    return found != nullptr ? lineEnd + 1 : end;
}

/// The fast parser: "docID wordID count" with optional blanks, a CR before the line break
/// allowed, every value in range, exactly as the line-by-line check; stops at any other line.
void EntryReader::parse(Part& part) const {
    part.size = 0;
    part.firstLarge = -1;
    part.stop = nullptr;
    const auto maxDoc = static_cast<std::uint64_t>(m_shape.numDocs);
    const auto maxWord = static_cast<std::uint64_t>(m_shape.numWords);
    const std::int32_t* alias = m_shape.alias;
    const char* p = part.begin;
    const char* end = part.end;
    const char* limit = m_blockEnd;
    const auto most = static_cast<size_t>(end - p) / 6 + 1; // "1 1 1\n" is the shortest line
    if (part.capacity < most) {
        part.rows = std::make_unique_for_overwrite<std::int32_t[]>(most);
        part.cols = std::make_unique_for_overwrite<std::int32_t[]>(most);
        part.counts = std::make_unique_for_overwrite<float[]>(most);
        part.capacity = most;
    }
    // Locals, not the part's members, in the loop: parts sit side by side and are parsed on
    // different threads.
    std::int32_t* rows = part.rows.get();
    std::int32_t* cols = part.cols.get();
    float* counts = part.counts.get();
    size_t size = 0;
    std::int64_t firstLarge = -1;
    while (p < end) {
        const char* lineStart = p;
        std::uint64_t doc = 0;
        std::uint64_t word = 0;
        std::uint64_t count = 0;
        bool ok = limit - p >= 24 && parseCommonLine(p, doc, word, count);
        if (!ok) {
            ok = parseUnsignedWord(p, end, limit, doc) && parseUnsignedWord(p, end, limit, word) &&
                 parseUnsignedWord(p, end, limit, count);
            while (p < end && isSpaceOrTab(*p)) {
                ++p;
            }
            if (p < end && *p == '\r') {
                ++p;
            }
            if (p < end) {
                ok = ok && *p == '\n';
                ++p;
            }
        }
        if (!ok || doc - 1 >= maxDoc || word - 1 >= maxWord || count == 0) {
            part.stop = lineStart;
            break;
        }
        if (count > kMaxExactCount && firstLarge < 0) {
            firstLarge = static_cast<std::int64_t>(size);
        }
        const auto column = static_cast<std::int32_t>(word - 1);
        rows[size] = static_cast<std::int32_t>(doc - 1);
        cols[size] = alias != nullptr ? alias[column] : column;
        counts[size] = static_cast<float>(static_cast<std::int64_t>(count)); // count < 10^18
        ++size;
    }
    part.size = size;
    part.firstLarge = firstLarge;
}

/// Appends a part's triples in order (entry i is on line lineBefore + i + 1), keeping the row
/// pointers of documents seen in order, or each entry's row once they are not.
void EntryReader::append(const Part& part, std::int64_t lineBefore) {
    const auto n = static_cast<std::int64_t>(part.size);
    if (n == 0) {
        return;
    }
    if (m_entries + n > m_shape.numEntries) {
        throw InputError(m_path, lineBefore + (m_shape.numEntries - m_entries) + 1,
                         "more entries than NNZ = " + std::to_string(m_shape.numEntries) +
                             " in the header (line 3)");
    }
    if (part.firstLarge >= 0 && m_firstLargeCountLine == 0) {
        m_firstLargeCountLine = lineBefore + part.firstLarge + 1;
    }
    const auto size = static_cast<std::int64_t>(m_matrix.colIdx.size());
    std::int64_t i = 0;
    for (; i < n && !m_unsorted; ++i) {
        const std::int64_t row = part.rows[static_cast<size_t>(i)];
        if (row == m_current) {
            continue;
        }
        if (row > m_current) {
            // Rows current+1 .. row-1 are empty; row starts here.
            for (std::int64_t r = m_current + 1; r <= row; ++r) {
                m_matrix.rowPtr[static_cast<size_t>(r)] = size + i;
            }
            m_current = row;
            continue;
        }
        // A document seen before: from now on remember each entry's row and sort at the end
        // (the rows so far are known from rowPtr).
        m_unsorted = true;
        m_rowOf.reserve(std::max(m_matrix.colIdx.capacity(), static_cast<size_t>(size + n)));
        m_rowOf.resize(static_cast<size_t>(size + i));
        for (std::int64_t r = 0; r <= m_current; ++r) {
            const std::int64_t stop = r < m_current ? m_matrix.rowPtr[static_cast<size_t>(r + 1)]
                                                    : static_cast<std::int64_t>(m_rowOf.size());
            std::fill(m_rowOf.begin() + m_matrix.rowPtr[static_cast<size_t>(r)],
                      m_rowOf.begin() + stop, static_cast<std::int32_t>(r));
        }
        break;
    }
    if (m_unsorted) {
        m_rowOf.insert(m_rowOf.end(), part.rows.get() + i, part.rows.get() + n);
    }
    m_matrix.colIdx.insert(m_matrix.colIdx.end(), part.cols.get(), part.cols.get() + n);
    m_matrix.counts.insert(m_matrix.counts.end(), part.counts.get(), part.counts.get() + n);
    m_entries += n;
}

void EntryReader::finish() {
    if (m_unsorted) {
        sortEntriesByRow(m_matrix, m_rowOf);
        return;
    }
    const auto size = static_cast<std::int64_t>(m_matrix.colIdx.size());
    for (std::int64_t r = m_current + 1; r <= m_matrix.numRows; ++r) {
        m_matrix.rowPtr[static_cast<size_t>(r)] = size;
    }
}

} // namespace cx::uci
