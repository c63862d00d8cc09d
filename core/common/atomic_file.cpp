#include "core/common/atomic_file.h"

#include "core/common/error.h"

#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace cx {

namespace {

// POSIX calls rather than std::ofstream: every write(), fsync() and close() reports its own
// errno, so a full disk or a file size limit is detected before the rename, not after it.
std::string systemReason(int error) {
    return std::strerror(error);
}

} // namespace

void writeFileAtomically(const std::filesystem::path& target, std::string_view content) {
    const std::filesystem::path folder =
        target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
    const std::filesystem::path temporary =
        folder / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()));
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        throw InputError(target.string(), 0, "cannot write: " + systemReason(errno));
    }
    const auto fail = [&](const char* what, int error) {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw InputError(target.string(), 0, std::string(what) + ": " + systemReason(error));
    };
    size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail("write failed", errno);
        }
        written += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) {
        fail("write failed", errno);
    }
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw InputError(target.string(), 0, "write failed: " + systemReason(error));
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw InputError(target.string(), 0, "cannot replace: " + systemReason(error));
    }
}

} // namespace cx
