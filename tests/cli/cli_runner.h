#pragma once

#include "support/files.h"

#include <gtest/gtest.h>

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

/// What `contrast-cli generate` writes for a test: a seeded synthetic A/B/C corpus whose
/// documents carry group=foreground / group=background.
struct GeneratedCorpus {
    int documentsPerSide = 1500;
    int vocabulary = 300;
    int length = 50;
    int topicsPerKind = 0; ///< --a, --b and --c; 0: the command's defaults
    int seed = 9;
    std::string folder; ///< below the test's folder; empty: the folder itself
};

/// Runs `contrast-cli generate` into `dir` and returns the docword file's path.
inline std::string generateCorpus(const TempDir& dir, const GeneratedCorpus& spec) {
    const std::string out = spec.folder.empty() ? dir.path().string() : dir / spec.folder;
    std::vector<std::string> args = {"generate",
                                     "--out",
                                     out,
                                     "--fg-docs",
                                     std::to_string(spec.documentsPerSide),
                                     "--bg-docs",
                                     std::to_string(spec.documentsPerSide),
                                     "--vocab",
                                     std::to_string(spec.vocabulary),
                                     "--length",
                                     std::to_string(spec.length),
                                     "--seed",
                                     std::to_string(spec.seed)};
    if (spec.topicsPerKind > 0) {
        for (const char* kind : {"--a", "--b", "--c"}) {
            args.insert(args.end(), {kind, std::to_string(spec.topicsPerKind)});
        }
    }
    const CliResult result = runCli(args, dir);
    EXPECT_EQ(result.exitCode, 0) << result.err;
    return (std::filesystem::path(out) / "docword.synthetic.txt").string();
}

} // namespace cx::test
