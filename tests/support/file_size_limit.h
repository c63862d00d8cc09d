#pragma once

// Shared by the core and UI session tests: a write that fails for real, even for root (whom
// folder permissions do not stop).

#include <csignal>

#include <sys/resource.h>

namespace cx::test {

/// Lowers this process' file size limit while alive, with SIGXFSZ ignored: write() beyond
/// `bytes` then fails with EFBIG.
struct FileSizeLimit {
    rlimit previous{};
    void (*previousHandler)(int) = nullptr;
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &previous);
        previousHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = previous;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &previous);
        std::signal(SIGXFSZ, previousHandler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
};

} // namespace cx::test
