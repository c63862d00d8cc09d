#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace cx {

/// Reads a plain or gzip-compressed text file line by line (zlib's gzread handles both
/// transparently), in large buffered blocks. Line terminators (LF, CRLF) are stripped; a final
/// line without a newline is still returned. Line numbers are 1-based. Suitable for
/// multi-gigabyte inputs: memory use is one buffer plus the longest line, which is bounded
/// (kMaxLineBytes by default) so that a binary file or a gzip bomb without line breaks fails
/// with a message instead of exhausting memory.
///
///   LineReader reader(path);           // throws InputError(path, 0, "cannot open: ...")
///   std::string_view line;
///   while (reader.next(line)) { ... reader.lineNumber() ... }
class LineReader {
public:
    /// Longest line accepted by default (64 MiB; a line of real input is at most a few MB).
    static constexpr size_t kMaxLineBytes = size_t{64} << 20;

    /// \throws InputError(path, 0, …) when the file cannot be opened or is a folder.
    explicit LineReader(const std::string& path, size_t maxLineBytes = kMaxLineBytes);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    /// Next line (valid until the next call). Returns false at end of file.
    /// \throws InputError on a read error, a corrupt/truncated gzip stream, or a line longer
    /// than maxLineBytes ("line N is longer than … bytes (not a text file?)").
    bool next(std::string_view& line);
    std::int64_t lineNumber() const { return m_lineNumber; }
    const std::string& path() const { return m_path; }
    /// Compressed bytes consumed so far and total file size, for progress reporting.
    std::int64_t bytesRead() const;
    std::int64_t fileSize() const { return m_fileSize; }

private:
    bool fill();
    std::string m_path;
    void* m_file = nullptr; // gzFile
    std::unique_ptr<char[]> m_buffer;
    size_t m_capacity = 0;
    size_t m_maxLineBytes = kMaxLineBytes;
    size_t m_begin = 0;
    size_t m_end = 0;
    bool m_eof = false;
    std::string m_carry;
    std::int64_t m_lineNumber = 0;
    std::int64_t m_fileSize = 0;
};

/// Reads a whole plain or gzip file into memory. \throws InputError.
std::string readWholeFile(const std::string& path);

/// True if the file name ends in ".gz".
bool hasGzipSuffix(const std::string& path);

} // namespace cx
