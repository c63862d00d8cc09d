#pragma once

#include "args.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace cx::cli {

/// A subcommand: receives the arguments after its name, writes results, returns the exit code.
/// Throwing cx::InputError is the normal way to report bad input: main() prints it and exits 2.
struct Command {
    const char* name;
    const char* summary;
    const char* usage;
    int (*run)(const std::vector<std::string>& args);
};

/// Every subcommand, in help order. Defined in main.cpp; each command's run function is defined
/// in its own cmd_*.cpp.
const std::vector<Command>& commands();

int runTopics(const std::vector<std::string>& args);
int runSweep(const std::vector<std::string>& args);
int runHmm(const std::vector<std::string>& args);
int runGenerate(const std::vector<std::string>& args);
int runConvert(const std::vector<std::string>& args);
int runCrowd(const std::vector<std::string>& args);
int runGenerateCrowd(const std::vector<std::string>& args);
int runTree(const std::vector<std::string>& args);
/// `run SESSION.cxproj --out DIR [--workspace NAME]` (cmd_run.cpp).
int runSessionFile(const std::vector<std::string>& args);

} // namespace cx::cli
