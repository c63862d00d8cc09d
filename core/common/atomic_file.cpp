#include "core/common/atomic_file.h"

#include "core/common/error.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

namespace cx {

namespace {

// POSIX calls rather than std::ofstream: every write(), fsync() and close() reports its own
// errno, so a full disk or a file size limit is detected before the rename, not after it.
std::string systemReason(int error) {
    return std::strerror(error);
}

std::filesystem::path folderOf(const std::filesystem::path& target) {
    return target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
}

std::string temporaryPrefix(const std::filesystem::path& target) {
    return "." + target.filename().string() + ".tmp-";
}

/// Flushes the folder's entries (the rename) to disk. Where a folder cannot be opened or
/// synced (some file systems refuse fsync on a directory) the rename is still done; nothing
/// to report.
void syncFolder(const std::filesystem::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

int removeStaleTemporaries(const std::filesystem::path& target) {
    const std::string prefix = temporaryPrefix(target);
    std::error_code error;
    std::filesystem::directory_iterator entries(folderOf(target), error);
    if (error) {
        return 0;
    }
    int removed = 0;
    for (const auto& entry : entries) {
        const std::string name = entry.path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) {
            continue;
        }
        const std::string digits = name.substr(prefix.size());
        if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) {
            continue; // not one of ours
        }
        const pid_t pid = static_cast<pid_t>(std::stol(digits));
        // The process still runs (or runs as another user): its save may be under way.
        if (pid == ::getpid() || pid <= 0 || ::kill(pid, 0) == 0 || errno != ESRCH) {
            continue;
        }
        if (std::filesystem::remove(entry.path(), error)) {
            ++removed;
        }
    }
    return removed;
}

void writeFileAtomically(const std::filesystem::path& target, std::string_view content) {
    const std::filesystem::path folder = folderOf(target);
    removeStaleTemporaries(target);
    const std::filesystem::path temporary =
        folder / (temporaryPrefix(target) + std::to_string(::getpid()));
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
    syncFolder(folder);
}

} // namespace cx
