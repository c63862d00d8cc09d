#pragma once

// The body of a UCI docword file ("docID wordID count" lines after the three header lines),
// read into CSR counts. Internal to core/io (reader_uci.cpp).
//
// The lines come from LineReader::nextLines in large blocks. Each block is cut at line breaks
// into parts that are parsed side by side (up to threadCount() threads) into per-part triples,
// which are then appended in file order, so the matrix is the same for any thread count. A line
// the fast parser does not accept (a blank line, or a bad one) gets the checks and messages of
// the line-by-line reader, and the rest of its part is parsed again after it.

#include "core/io/corpus.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cx {

class LineReader;
class ReadProgress;
class TextLineCheck;

namespace uci {

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

/// The first 60 characters of `text` as valid UTF-8 ("..." when cut), for messages.
std::string shown(std::string_view text);

/// What the header promised, and the word id → column map (nullptr: identity).
struct BodyShape {
    std::int64_t numDocs = 0;
    std::int64_t numWords = 0;
    std::int64_t numEntries = 0;
    const std::int32_t* alias = nullptr;
};

class EntryReader {
public:
    /// `matrix` has numRows + 1 zeroed row pointers and reserved column/count storage.
    EntryReader(CountMatrix& matrix, const BodyShape& shape, TextLineCheck& check,
                std::string path);

    /// Blocks smaller than this are parsed in one part.
    static constexpr size_t kMinPartBytes = size_t{1} << 20;

    /// Reads every remaining line of `reader`, each block in up to `parts` parts at once (of at
    /// least minPartBytes; tests use small parts).
    /// \throws InputError naming the file and line of the first bad entry, of the first entry
    /// past NNZ, or when the entries are fewer than NNZ.
    void read(LineReader& reader, ReadProgress& progress, int parts,
              size_t minPartBytes = kMinPartBytes);

    /// File line of the first count above 2^24 (0: none).
    std::int64_t firstLargeCountLine() const { return m_firstLargeCountLine; }

    /// Completes the CSR row pointers (sorting the entries by row when documents came out of
    /// order).
    void finish();

    /// Triples parsed from one part of a block (a cache line of its own: parts are parsed on
    /// different threads).
    struct alignas(64) Part {
        const char* begin = nullptr;
        const char* end = nullptr;
        std::unique_ptr<std::int32_t[]> rows;
        std::unique_ptr<std::int32_t[]> cols;
        std::unique_ptr<float[]> counts;
        size_t capacity = 0;
        size_t size = 0;
        std::int64_t firstLarge = -1; // index of the first count above 2^24
        const char* stop = nullptr;   // start of the first line not parsed (nullptr: none)
    };

private:
    std::int64_t readBlock(std::string_view lines, std::int64_t lineBefore, int parts,
                           size_t minPartBytes);
    const char* skipBlankLine(const char* from, const char* end, std::int64_t line);
    void parse(Part& part) const;
    void append(const Part& part, std::int64_t lineBefore);

    CountMatrix& m_matrix;
    BodyShape m_shape;
    TextLineCheck& m_check;
    std::string m_path;
    std::vector<Part> m_parts;
    const char* m_blockEnd = nullptr;  // end of the block being read (of readable memory)
    std::vector<std::int32_t> m_rowOf; // only once documents turn out to be unsorted
    bool m_unsorted = false;
    std::int64_t m_current = -1;
    std::int64_t m_entries = 0;
    std::int64_t m_firstLargeCountLine = 0;
};

} // namespace uci
} // namespace cx
