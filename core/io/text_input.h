#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace cx {

/// Reads a plain or gzip-compressed text file line by line (zlib's gzread handles both
/// transparently), in large buffered blocks. Line terminators (LF, CRLF) are stripped; a final
/// line without a newline is still returned. Line numbers are 1-based. Suitable for
/// multi-gigabyte inputs: memory use is one buffer plus the longest line.
///
///   LineReader reader(path);           // throws InputError(path, 0, "cannot open: ...")
///   std::string_view line;
///   while (reader.next(line)) { ... reader.lineNumber() ... }
class LineReader {
public:
    explicit LineReader(const std::string& path);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    /// Next line (valid until the next call). Returns false at end of file.
    /// \throws InputError on a read error or a corrupt/truncated gzip stream.
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
