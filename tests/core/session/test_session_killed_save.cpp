// A save killed in the middle of writing leaves the previous session file intact. The
// test binary runs itself as a child that saves a large session; the temporary
// file the save writes (".NAME.tmp-PID", core/common/atomic_file.h) is a pipe the parent
// drains, so the child is inside write() with part of the new session written when the parent
// kills it with SIGKILL: a real kill at a known point, no timing. The next save removes the
// temporary the killed one left.
#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/session/session.h"
#include "support/files.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace cx {
namespace {

namespace fs = std::filesystem;
using test::readText;

constexpr const char* kTargetVariable = "CX_KILLED_SAVE_TARGET";

fs::path temporaryOf(const fs::path& target, pid_t pid) {
    return target.parent_path() /
           ("." + target.filename().string() + ".tmp-" + std::to_string(pid));
}

// The child's half: skipped unless the parent test below started this binary for it.
TEST(SessionKilledSave, ChildSavesIntoAPipe) {
    const char* target = std::getenv(kTargetVariable);
    if (target == nullptr) {
        GTEST_SKIP() << "runs only as the child of SessionKilledSave.KillMidWriteKeepsTheOldFile";
    }
    ::alarm(60); // never outlives a parent that failed to kill it
    const fs::path path(target);
    Session session = readSession(path);
    session.title = "the new version";
    session.extra["padding"] = std::string(std::size_t{4} << 20, 'x'); // far beyond a pipe's 64 KiB
    ASSERT_EQ(::mkfifo(temporaryOf(path, ::getpid()).c_str(), 0600), 0);
    writeSession(session, path); // blocks in write() until the parent reads; killed there
    ADD_FAILURE() << "the save finished although the parent stopped reading";
}

TEST(SessionKilledSave, KillMidWriteKeepsTheOldFile) {
    const fs::path folder =
        fs::temp_directory_path() / ("cx_killed_save_" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    const fs::path target = folder / "analysis.cxproj";
    Session old;
    old.title = "the old version";
    old.active = "crowd";
    old.setSection("crowd", SessionJson{{"labels",
                                         {{"path", "answer.csv"},
                                          {"absolute", (folder / "answer.csv").string()}}},
                                        {"saved_by", "crowd"}});
    writeSession(old, target);
    const std::string before = readText(target);
    ASSERT_FALSE(before.empty());

    // The child: this binary, running only the test above, told where to save.
    const std::string executable = fs::read_symlink("/proc/self/exe").string();
    std::string filter = "--gtest_filter=SessionKilledSave.ChildSavesIntoAPipe";
    std::vector<char*> arguments{const_cast<char*>(executable.c_str()), filter.data(), nullptr};
    std::vector<std::string> variables{std::string(kTargetVariable) + "=" + target.string()};
    for (char** entry = environ; *entry != nullptr; ++entry) {
        variables.emplace_back(*entry);
    }
    std::vector<char*> environment;
    for (std::string& variable : variables) {
        environment.push_back(variable.data());
    }
    environment.push_back(nullptr);
    posix_spawn_file_actions_t quiet; // the child's gtest report would interleave with ours
    ::posix_spawn_file_actions_init(&quiet);
    ::posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    pid_t child = 0;
    const int spawned = ::posix_spawn(&child, executable.c_str(), &quiet, nullptr, arguments.data(),
                                      environment.data());
    ::posix_spawn_file_actions_destroy(&quiet);
    ASSERT_EQ(spawned, 0);

    // Wait for its temporary (a pipe), then read the first 256 KiB of the new session: the
    // child has then written part of the file and is blocked writing the rest.
    const fs::path temporary = temporaryOf(target, child);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::error_code error;
    int status = 0;
    bool reaped = false; // the child ended by itself (a save that never blocked)
    const auto ended = [&] {
        reaped = reaped || ::waitpid(child, &status, WNOHANG) == child;
        return reaped;
    };
    while (!fs::is_fifo(temporary, error) && !ended() &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::string received;
    const int pipe = ::open(temporary.c_str(), O_RDONLY | O_NONBLOCK);
    if (pipe >= 0) {
        std::vector<char> buffer(1 << 16);
        while (received.size() < (std::size_t{256} << 10) && !ended() &&
               std::chrono::steady_clock::now() < deadline) {
            pollfd ready{pipe, POLLIN, 0};
            if (::poll(&ready, 1, 100) <= 0) {
                continue;
            }
            const ssize_t n = ::read(pipe, buffer.data(), buffer.size());
            if (n > 0) {
                received.append(buffer.data(), static_cast<std::size_t>(n));
            }
        }
    }
    if (!reaped) {
        ::kill(child, SIGKILL);
        ASSERT_EQ(::waitpid(child, &status, 0), child);
    }
    if (pipe >= 0) {
        ::close(pipe);
    }
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the child was not killed by SIGKILL (status " << status << ")";
    // The file on disk is the old session, byte for byte, and still opens.
    EXPECT_EQ(readText(target), before);
    EXPECT_EQ(readSession(target).title, "the old version");
    // ... although the child was killed while writing the new one.
    ASSERT_GE(received.size(), std::size_t{256} << 10) << "the child never wrote its session";
    EXPECT_NE(received.find("the new version"), std::string::npos);
    // The killed save's temporary is still there (the kill left it) ...
    EXPECT_TRUE(fs::exists(fs::symlink_status(temporary)));
    // ... until the next save, which replaces the file normally and removes it.
    Session next = readSession(target);
    next.title = "saved after the crash";
    writeSession(next, target);
    EXPECT_EQ(readSession(target).title, "saved after the crash");
    EXPECT_FALSE(fs::exists(fs::symlink_status(temporary)))
        << temporary << " of the killed save is left behind";
    fs::remove_all(folder, error);
}

// Only temporaries of writers that are gone are removed: a save running in another process keeps
// its temporary, and files that only look alike (another session's, a name that is no PID) stay.
TEST(SessionKilledSave, NextSaveRemovesOnlyTemporariesOfGoneWriters) {
    const fs::path folder =
        fs::temp_directory_path() / ("cx_stale_temporaries_" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    const fs::path target = folder / "analysis.cxproj";
    // A process that has ended: its PID names no process now.
    pid_t gone = 0;
    char* const arguments[] = {const_cast<char*>("/bin/true"), nullptr};
    ASSERT_EQ(::posix_spawn(&gone, "/bin/true", nullptr, nullptr, arguments, environ), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(gone, &status, 0), gone);
    const auto touch = [](const fs::path& file) { std::ofstream(file) << "partial"; };
    const fs::path stale = temporaryOf(target, gone);
    const fs::path running = temporaryOf(target, ::getppid()); // our parent still runs
    const fs::path otherSession = temporaryOf(folder / "other.cxproj", gone);
    const fs::path notAPid = folder / ".analysis.cxproj.tmp-backup";
    for (const fs::path& file : {stale, running, otherSession, notAPid}) {
        touch(file);
    }
    Session session;
    session.title = "saved";
    writeSession(session, target);
    EXPECT_EQ(readSession(target).title, "saved");
    EXPECT_FALSE(fs::exists(stale)) << "a dead writer's temporary stays";
    EXPECT_TRUE(fs::exists(running)) << "a running writer's temporary was removed";
    EXPECT_TRUE(fs::exists(otherSession)) << "another session's temporary was removed";
    EXPECT_TRUE(fs::exists(notAPid));
    // A folder that cannot be listed: nothing removed, no throw.
    EXPECT_EQ(removeStaleTemporaries(folder / "missing" / "x.cxproj"), 0);
    std::error_code error;
    fs::remove_all(folder, error);
}

} // namespace
} // namespace cx
