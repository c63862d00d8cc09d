#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace cx {

/// Reads a plain or gzip-compressed text file line by line (zlib's gzread handles both
/// transparently), in large buffered blocks. Line terminators (LF, CRLF) are stripped; a final
/// line without a newline is still returned. Line numbers are 1-based. Suitable for
/// multi-gigabyte inputs: memory use is a few blocks plus the longest line, which is bounded
/// (kMaxLineBytes by default) so that a binary file or a gzip bomb without line breaks fails
/// with a message instead of exhausting memory. Files larger than a block (gzip files larger
/// than a quarter block) are read ahead on a second thread: while the caller works on one block,
/// the next one is read and inflated.
///
///   LineReader reader(path);           // throws InputError(path, 0, "cannot open: ...")
///   std::string_view line;
///   while (reader.next(line)) { ... reader.lineNumber() ... }
class LineReader {
public:
    /// Longest line accepted by default (64 MiB; a line of real input is at most a few MB).
    static constexpr size_t kMaxLineBytes = size_t{64} << 20;
    /// Bytes read (inflated) per block by default.
    static constexpr size_t kBlockBytes = size_t{16} << 20;

    /// \throws InputError(path, 0, …) when the file cannot be opened or is a folder.
    /// `blockBytes` (at most maxLineBytes) is the read size; tests use small blocks.
    explicit LineReader(const std::string& path, size_t maxLineBytes = kMaxLineBytes,
                        size_t blockBytes = kBlockBytes);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    /// Next line (valid until the next call). Returns false at end of file.
    /// \throws InputError on a read error, a corrupt/truncated gzip stream, or a line longer
    /// than maxLineBytes ("line N is longer than … bytes (not a text file?)").
    bool next(std::string_view& line);

    /// Bulk access for fast parsers: the next run of whole lines as one view (valid until the
    /// next call), terminators kept: every line ends in '\n' except the file's final line when
    /// it has no newline (a CR before the end is the caller's to strip, as next() does). The
    /// lines of a view are numbered from lineNumber() + 1; the caller counts them and reports
    /// the count with countLines() before the next call, so that errors name the right line.
    /// Only lines that span two blocks are held to maxLineBytes. Returns false at end of file.
    /// \throws InputError as next().
    bool nextLines(std::string_view& lines);
    /// Adds the lines of a view returned by nextLines() to lineNumber().
    void countLines(std::int64_t lines) { m_lineNumber += lines; }

    std::int64_t lineNumber() const { return m_lineNumber; }
    const std::string& path() const { return m_path; }
    /// Compressed bytes consumed so far and total file size, for progress reporting.
    std::int64_t bytesRead() const { return m_bytesRead; }
    std::int64_t fileSize() const { return m_fileSize; }

private:
    class Source;
    bool fill();
    [[noreturn]] void throwTooLong() const;
    std::string m_path;
    std::unique_ptr<Source> m_source;
    const char* m_buffer = nullptr;
    size_t m_maxLineBytes = kMaxLineBytes;
    size_t m_begin = 0;
    size_t m_end = 0;
    bool m_eof = false;
    std::string m_carry;
    std::int64_t m_lineNumber = 0;
    std::int64_t m_fileSize = 0;
    std::int64_t m_bytesRead = 0;
};

/// Reads a whole plain or gzip file into memory. \throws InputError.
std::string readWholeFile(const std::string& path);

/// True if the file name ends in ".gz".
bool hasGzipSuffix(const std::string& path);

} // namespace cx
