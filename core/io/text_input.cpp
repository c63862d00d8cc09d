#include "core/io/text_input.h"

#include "core/common/error.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace cx {

namespace {
constexpr int kReadAheadBuffers = 3; // one being parsed, one being read, one ready

/// Size of an existing regular file. \throws InputError(path, 0, …) for a missing file or a
/// folder.
std::int64_t inputFileSize(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    if (S_ISDIR(info.st_mode)) {
        throw InputError(path, 0, "is a folder, not a file");
    }
    return static_cast<std::int64_t>(info.st_size);
}

std::string gzipProblem(gzFile file) {
    int code = 0;
    const char* message = gzerror(file, &code);
    return std::string("read error (corrupt or truncated gzip?): ") +
           (message ? message : "unknown");
}
} // namespace

/// The blocks of a file, in order: read on the caller's thread, or read ahead on a thread of
/// its own into a few rotating buffers.
class LineReader::Source {
public:
    /// Result of next(): a block, the end of the file, or a read error (message in `error`).
    enum class Status { Block, End, Error };

    Source(gzFile file, size_t capacity, bool readAhead) : m_file(file), m_capacity(capacity) {
        const int buffers = readAhead ? kReadAheadBuffers : 1;
        // Room for every block and the final status up front: the reading thread's push_back
        // never allocates (so never throws).
        m_ready.reserve(static_cast<size_t>(buffers) + 1);
        m_free.reserve(static_cast<size_t>(buffers));
        for (int b = 0; b < buffers; ++b) {
            // Not zero-filled: a block is written by gzread before it is read, and the pages
            // of a 16 MB block that a small file never reaches are never touched.
            m_buffers.push_back(std::make_unique_for_overwrite<char[]>(capacity));
            m_free.push_back(m_buffers.back().get());
        }
        if (readAhead) {
            m_thread = std::thread([this] { produce(); });
        }
    }

    ~Source() {
        if (m_thread.joinable()) {
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                m_stop = true;
            }
            m_changed.notify_all();
            m_thread.join();
        }
        gzclose(m_file);
    }

    Source(const Source&) = delete;
    Source& operator=(const Source&) = delete;

    /// The next block (valid until the next call) and the compressed bytes consumed up to its
    /// end. Hands the previous block's buffer back for reading.
    Status next(const char*& data, size_t& size, std::int64_t& offset, std::string& error) {
        if (!m_thread.joinable()) {
            Filled block{m_buffers.front().get(), 0, 0, Status::End, {}};
            read(block);
            return deliver(block, data, size, offset, error);
        }
        std::unique_lock<std::mutex> lock(m_mutex);
        if (m_held != nullptr) {
            m_free.push_back(m_held);
            m_held = nullptr;
            m_changed.notify_all();
        }
        m_changed.wait(lock, [this] { return !m_ready.empty(); });
        Filled block = std::move(m_ready.front());
        m_ready.erase(m_ready.begin());
        if (block.status == Status::Block) {
            m_held = block.data;
        } else {
            m_ready.push_back(block); // the end or the error stays the answer
        }
        return deliver(block, data, size, offset, error);
    }

private:
    struct Filled {
        char* data;
        size_t size;
        std::int64_t offset;
        Status status;
        std::string error;
    };

    static Status deliver(const Filled& block, const char*& data, size_t& size,
                          std::int64_t& offset, std::string& error) {
        data = block.data;
        size = block.size;
        if (block.status == Status::Block) {
            offset = block.offset;
        }
        error = block.error;
        return block.status;
    }

    /// One gzread into block.data; sets size, offset and status (and error).
    void read(Filled& block) {
        const int got = gzread(m_file, block.data, static_cast<unsigned>(m_capacity));
        if (got < 0) {
            block.status = Status::Error;
            block.error = gzipProblem(m_file);
            return;
        }
        if (got == 0) {
            // gzread returns 0 both at a clean end and at a truncated gzip stream.
            int code = 0;
            gzerror(m_file, &code);
            block.status = code != Z_OK && code != Z_STREAM_END ? Status::Error : Status::End;
            if (block.status == Status::Error) {
                block.error = gzipProblem(m_file);
            }
            return;
        }
        block.size = static_cast<size_t>(got);
        block.offset = static_cast<std::int64_t>(gzoffset(m_file));
        block.status = Status::Block;
    }

    void produce() {
        for (;;) {
            Filled block{nullptr, 0, 0, Status::End, {}};
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_changed.wait(lock, [this] { return m_stop || !m_free.empty(); });
                if (m_stop) {
                    return;
                }
                block.data = m_free.back();
                m_free.pop_back();
            }
            read(block);
            const bool last = block.status != Status::Block;
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                m_ready.push_back(std::move(block));
            }
            m_changed.notify_all();
            if (last) {
                return;
            }
        }
    }

    gzFile m_file;
    size_t m_capacity;
    std::vector<std::unique_ptr<char[]>> m_buffers;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<char*> m_free;   // buffers the reading thread may fill
    std::vector<Filled> m_ready; // filled, in file order
    char* m_held = nullptr;      // the block the caller works on
    bool m_stop = false;
};

bool hasGzipSuffix(const std::string& path) {
    return path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

LineReader::LineReader(const std::string& path, size_t maxLineBytes, size_t blockBytes)
    : m_path(path), m_maxLineBytes(maxLineBytes) {
    m_fileSize = inputFileSize(path);
    gzFile file = gzopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    blockBytes = std::max<size_t>(1, std::min(blockBytes, maxLineBytes));
    const auto block = static_cast<std::int64_t>(blockBytes);
    const bool gzip = hasGzipSuffix(path);
    // Small plain files get a buffer of their size (a block for gzip, whose size is unknown).
    const bool small = !gzip && m_fileSize < block;
    gzbuffer(file, small ? 8192 : 256 * 1024);
    const size_t capacity = small ? static_cast<size_t>(std::max<std::int64_t>(
                                        m_fileSize, std::min<std::int64_t>(4096, block)))
                                  : blockBytes;
    const bool readAhead = gzip ? m_fileSize * 4 > block : m_fileSize > block;
    try {
        m_source = std::make_unique<Source>(file, capacity, readAhead);
    } catch (...) {
        gzclose(file);
        throw;
    }
}

LineReader::~LineReader() = default;

bool LineReader::fill() {
    if (m_eof) {
        return false;
    }
    std::string error;
    const Source::Status status = m_source->next(m_buffer, m_end, m_bytesRead, error);
    m_begin = 0;
    if (status != Source::Status::Block) {
        m_end = 0;
        m_eof = true;
        if (status == Source::Status::Error) {
            throw InputError(m_path, m_lineNumber + 1, error);
        }
        return false;
    }
    return true;
}

void LineReader::throwTooLong() const {
    throw InputError(m_path, m_lineNumber + 1,
                     "line is longer than " + std::to_string(m_maxLineBytes) +
                         " bytes (not a text file of this format?)");
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
        const char* start = m_buffer + m_begin;
        const void* found = std::memchr(start, '\n', m_end - m_begin);
        if (found != nullptr) {
            const char* newline = static_cast<const char*>(found);
            const size_t length = static_cast<size_t>(newline - start);
            if (m_carry.size() + length > m_maxLineBytes + 1) { // + 1: a CR before the LF
                throwTooLong();
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
            throwTooLong();
        }
        m_carry.append(start, m_end - m_begin);
        haveCarry = true;
        m_begin = m_end;
    }
}

bool LineReader::nextLines(std::string_view& lines) {
    if (m_begin >= m_end && !fill()) {
        return false;
    }
    const char* start = m_buffer + m_begin;
    const size_t available = m_end - m_begin;
    if (const void* last = ::memrchr(start, '\n', available); last != nullptr) {
        const size_t length = static_cast<size_t>(static_cast<const char*>(last) - start) + 1;
        lines = std::string_view(start, length);
        m_begin += length;
        return true;
    }
    // The rest of the block begins a line that ends in a later block (or ends the file).
    m_carry.clear();
    for (;;) {
        const char* from = m_buffer + m_begin;
        const size_t rest = m_end - m_begin;
        const void* found = std::memchr(from, '\n', rest);
        const size_t length =
            found != nullptr ? static_cast<size_t>(static_cast<const char*>(found) - from) : rest;
        if (m_carry.size() + length > m_maxLineBytes + 1) { // + 1: a CR before the LF
            throwTooLong();
        }
        m_carry.append(from, found != nullptr ? length + 1 : length);
        m_begin += found != nullptr ? length + 1 : length;
        if (found != nullptr || !fill()) {
            lines = m_carry;
            return true;
        }
    }
}

std::string readWholeFile(const std::string& path) {
    // Validates existence and type with the standard messages.
    const std::int64_t size = inputFileSize(path);
    gzFile file = gzopen(path.c_str(), "rb");
    if (file == nullptr) {
        throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
    }
    std::string out;
    if (size > 0 && !hasGzipSuffix(path)) {
        out.reserve(static_cast<size_t>(size));
    }
    char buffer[1 << 16];
    for (;;) {
        const int got = gzread(file, buffer, sizeof buffer);
        int code = Z_OK;
        if (got == 0) {
            gzerror(file, &code); // 0 both at a clean end and at a truncated gzip stream
        }
        if (got < 0 || (code != Z_OK && code != Z_STREAM_END)) {
            const std::string problem = gzipProblem(file);
            gzclose(file);
            throw InputError(path, 0, problem);
        }
        if (got == 0) {
            break;
        }
        out.append(buffer, static_cast<size_t>(got));
    }
    gzclose(file);
    return out;
}

} // namespace cx
