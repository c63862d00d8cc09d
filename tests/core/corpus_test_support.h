#pragma once

// Helpers for the corpus input tests: fixture paths, scratch folders, gzip writing and checks
// on InputError messages.

#include "core/common/error.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <string>
#include <unistd.h>

namespace cx::test {

/// Path of a fixture under tests/data/corpus.
inline std::string corpusFixture(const std::string& relative) {
    return std::string(CX_TEST_DATA_DIR) + "/corpus/" + relative;
}

/// The real Reuters-21578 folder, or "" when the shared data is not mounted.
inline std::string sharedReutersFolder() {
    const std::string folder = std::string(CX_SHARED_DATA_DIR) + "/reuters21578";
    std::error_code error;
    return std::filesystem::exists(folder + "/reut2-000.sgm.gz", error) ? folder : std::string();
}

/// A fresh folder under the system temp folder, removed with everything in it on destruction.
class ScratchFolder {
public:
    ScratchFolder() {
        static std::atomic<int> counter{0};
        m_path = std::filesystem::temp_directory_path() /
                 ("cx_corpus_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~ScratchFolder() {
        std::error_code error;
        std::filesystem::remove_all(m_path, error);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    std::string path(const std::string& name) const { return (m_path / name).string(); }
    std::string root() const { return m_path.string(); }

    /// Writes `content` byte for byte (creating parent folders) and returns the path.
    std::string write(const std::string& name, const std::string& content) const {
        const std::filesystem::path full = m_path / name;
        std::filesystem::create_directories(full.parent_path());
        std::ofstream out(full, std::ios::binary);
        out << content;
        return full.string();
    }

    /// Writes `content` gzip-compressed and returns the path.
    std::string writeGzip(const std::string& name, const std::string& content) const {
        const std::filesystem::path full = m_path / name;
        std::filesystem::create_directories(full.parent_path());
        gzFile file = gzopen(full.string().c_str(), "wb9");
        EXPECT_NE(file, nullptr);
        if (file != nullptr) {
            if (!content.empty()) {
                gzwrite(file, content.data(), static_cast<unsigned>(content.size()));
            }
            gzclose(file);
        }
        return full.string();
    }

private:
    std::filesystem::path m_path;
};

/// Reads a file byte for byte.
inline std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Runs `body`, expects an InputError, and checks that its message contains every fragment.
/// Returns the message for further checks.
inline std::string expectInputError(const std::function<void()>& body,
                                    std::initializer_list<std::string> fragments) {
    try {
        body();
    } catch (const InputError& error) {
        const std::string message = error.what();
        for (const std::string& fragment : fragments) {
            EXPECT_NE(message.find(fragment), std::string::npos)
                << "message '" << message << "' lacks '" << fragment << "'";
        }
        return message;
    } catch (const std::exception& error) {
        ADD_FAILURE() << "expected InputError, got another exception: " << error.what();
        return {};
    }
    ADD_FAILURE() << "expected InputError, nothing was thrown";
    return {};
}

} // namespace cx::test
