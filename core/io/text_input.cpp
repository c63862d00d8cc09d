#include "core/io/text_input.h"

#include "core/common/error.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace cx {

namespace {
constexpr size_t kBlockSize = 1 << 20;

std::int64_t sizeOf(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        return -1;
    }
    return static_cast<std::int64_t>(info.st_size);
}
} // namespace

bool hasGzipSuffix(const std::string& path) {
    return path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

LineReader::LineReader(const std::string& path, size_t maxLineBytes)
    : m_path(path), m_maxLineBytes(maxLineBytes) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    if (S_ISDIR(info.st_mode)) {
        throw InputError(path, 0, "is a folder, not a file");
    }
    m_fileSize = static_cast<std::int64_t>(info.st_size);
    gzFile file = gzopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    // Small plain files get a buffer of their size (a block for gzip, whose size is unknown).
    const bool small = !hasGzipSuffix(path) && m_fileSize < static_cast<std::int64_t>(kBlockSize);
    gzbuffer(file, small ? 8192 : 256 * 1024);
    m_file = file;
    m_capacity = small ? static_cast<size_t>(std::max<std::int64_t>(m_fileSize, 4096)) : kBlockSize;
    m_buffer = std::make_unique<char[]>(m_capacity);
}

LineReader::~LineReader() {
    if (m_file != nullptr) {
        gzclose(static_cast<gzFile>(m_file));
    }
}

std::int64_t LineReader::bytesRead() const {
    if (m_file == nullptr) {
        return 0;
    }
    return static_cast<std::int64_t>(gzoffset(static_cast<gzFile>(m_file)));
}

bool LineReader::fill() {
    if (m_eof) {
        return false;
    }
    const int got =
        gzread(static_cast<gzFile>(m_file), m_buffer.get(), static_cast<unsigned>(m_capacity));
    if (got < 0) {
        int code = 0;
        const char* message = gzerror(static_cast<gzFile>(m_file), &code);
        throw InputError(m_path, m_lineNumber + 1,
                         std::string("read error (corrupt or truncated gzip?): ") +
                             (message ? message : "unknown"));
    }
    if (got == 0) {
        // gzread returns 0 both at a clean end and at a truncated gzip stream; tell them apart.
        int code = 0;
        const char* message = gzerror(static_cast<gzFile>(m_file), &code);
        if (code != Z_OK && code != Z_STREAM_END) {
            throw InputError(m_path, m_lineNumber + 1,
                             std::string("read error (corrupt or truncated gzip?): ") +
                                 (message ? message : "unknown"));
        }
        m_eof = true;
        return false;
    }
    m_begin = 0;
    m_end = static_cast<size_t>(got);
    return true;
}

bool LineReader::next(std::string_view& line) {
    m_carry.clear();
    bool haveCarry = false;
    for (;;) {
        if (m_begin >= m_end) {
            if (!fill()) {
                if (haveCarry) {
                    // Final line without a trailing newline.
                    ++m_lineNumber;
                    if (!m_carry.empty() && m_carry.back() == '\r') {
                        m_carry.pop_back();
                    }
                    line = m_carry;
                    return true;
                }
                return false;
            }
        }
        const char* start = m_buffer.get() + m_begin;
        const void* found = std::memchr(start, '\n', m_end - m_begin);
        if (found != nullptr) {
            const char* newline = static_cast<const char*>(found);
            const size_t length = static_cast<size_t>(newline - start);
            if (m_carry.size() + length > m_maxLineBytes + 1) { // + 1: a CR before the LF
                throw InputError(m_path, m_lineNumber + 1,
                                 "line is longer than " + std::to_string(m_maxLineBytes) +
                                     " bytes (not a text file of this format?)");
            }
            m_begin += length + 1;
            ++m_lineNumber;
            if (haveCarry) {
                m_carry.append(start, length);
                if (!m_carry.empty() && m_carry.back() == '\r') {
                    m_carry.pop_back();
                }
                line = m_carry;
            } else {
                size_t trimmed = length;
                if (trimmed > 0 && start[trimmed - 1] == '\r') {
                    --trimmed;
                }
                line = std::string_view(start, trimmed);
            }
            return true;
        }
        if (m_carry.size() + (m_end - m_begin) > m_maxLineBytes + 1) {
            throw InputError(m_path, m_lineNumber + 1,
                             "line is longer than " + std::to_string(m_maxLineBytes) +
                                 " bytes (not a text file of this format?)");
        }
        m_carry.append(start, m_end - m_begin);
        haveCarry = true;
        m_begin = m_end;
    }
}

std::string readWholeFile(const std::string& path) {
    LineReader probe(path); // validates existence and type with the standard messages
    (void)probe;
    gzFile file = gzopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    std::string out;
    std::int64_t size = sizeOf(path);
    if (size > 0 && !hasGzipSuffix(path)) {
        out.reserve(static_cast<size_t>(size));
    }
    char buffer[1 << 16];
    for (;;) {
        const int got = gzread(file, buffer, sizeof buffer);
        if (got < 0) {
            int code = 0;
            const char* message = gzerror(file, &code);
            const std::string text = message ? message : "unknown";
            gzclose(file);
            throw InputError(path, 0, "read error (corrupt or truncated gzip?): " + text);
        }
        if (got == 0) {
            int code = 0;
            const char* message = gzerror(file, &code);
            if (code != Z_OK && code != Z_STREAM_END) {
                const std::string text = message ? message : "unknown";
                gzclose(file);
                throw InputError(path, 0, "read error (corrupt or truncated gzip?): " + text);
            }
            break;
        }
        out.append(buffer, static_cast<size_t>(got));
    }
    gzclose(file);
    return out;
}

} // namespace cx
