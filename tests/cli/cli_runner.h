#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace cx::test {

struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

inline std::string shellQuote(const std::string& arg) {
    std::string out = "'";
    for (char c : arg) {
        if (c == '\'') {
            out += "'\\''";
        } else {
            out += c;
        }
    }
    return out + "'";
}

/// A fresh temporary folder per test, removed at destruction.
class TempDir {
public:
    TempDir() {
        char pattern[] = "/tmp/cx_cli_test_XXXXXX";
        const char* made = ::mkdtemp(pattern);
        m_path = made ? made : "/tmp";
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    const std::filesystem::path& path() const { return m_path; }
    std::string operator/(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

/// Runs contrast-cli with `args`, capturing stdout and stderr.
inline CliResult runCli(const std::vector<std::string>& args, const TempDir& scratch) {
    std::string command = shellQuote(CX_CLI_PATH);
    for (const auto& arg : args) {
        command += " " + shellQuote(arg);
    }
    const std::string outPath = scratch / ".stdout";
    const std::string errPath = scratch / ".stderr";
    command += " >" + shellQuote(outPath) + " 2>" + shellQuote(errPath);
    const int status = std::system(command.c_str());
    CliResult result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = readText(outPath);
    result.err = readText(errPath);
    return result;
}

/// Splits a TSV text into rows of cells.
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

} // namespace cx::test
