#pragma once

// Files in tests: read and write whole texts, split TSV tables, and a temporary folder per test.
// One copy for the core, CLI and UI tests (include as "support/files.h").

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace cx::test {

/// The whole file as bytes ("" when it cannot be read).
inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Writes `text` to `path`, creating its folder.
inline void writeText(const std::filesystem::path& path, const std::string& text) {
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path());
    }
    std::ofstream(path, std::ios::binary) << text;
}

/// Rows of tab-separated cells, one per line (an empty last field is dropped, as getline does).
inline std::vector<std::vector<std::string>> parseTsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::string cell;
        std::istringstream fields(line);
        while (std::getline(fields, cell, '\t')) {
            cells.push_back(cell);
        }
        rows.push_back(cells);
    }
    return rows;
}

/// parseTsv of a file.
inline std::vector<std::vector<std::string>> readTsv(const std::filesystem::path& path) {
    return parseTsv(readText(path));
}

/// A fresh temporary folder, removed with everything in it at destruction.
class TempDir {
public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "cx_test_XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("mkdtemp " + pattern + " failed");
        }
        m_path = pattern;
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    const std::filesystem::path& path() const { return m_path; }
    std::string operator/(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

} // namespace cx::test
