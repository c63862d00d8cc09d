#pragma once

// Command-line options of contrast-cli on CLI11. Each command declares its options once, in one
// function (addXxxCommand in its cmd_*.cpp), through an OptionList bound to the command's option
// struct: the declaration gives the name, the meaning, the default (the bound variable's value at
// declaration) and the range, so `contrast-cli CMD --help` lists every option on its own line.
// Values are checked while CLI11 parses; a bad one throws cx::InputError naming the option
// ("parameter --k: 'x' is not an integer"), which main() prints before exiting with 2.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cx::cli {

class OptionList {
public:
    explicit OptionList(CLI::App* app) : m_app(app) {}

    OptionList& text(const std::string& name, std::string& target, const std::string& meaning);
    /// One of `choices` (listed in the help); anything else is refused naming the option.
    OptionList& choice(const std::string& name, std::string& target,
                       const std::vector<std::string>& choices, const std::string& meaning);
    OptionList& integer(const std::string& name, int& target, std::int64_t min, std::int64_t max,
                        const std::string& meaning);
    OptionList& integer(const std::string& name, std::int64_t& target, std::int64_t min,
                        std::int64_t max, const std::string& meaning);
    OptionList& real(const std::string& name, double& target, double min, double max,
                     const std::string& meaning);
    /// A non-negative 64-bit integer (random seeds).
    OptionList& seed(const std::string& name, std::uint64_t& target, const std::string& meaning);
    /// One or more values (`--NAME A B`, `--NAME A --NAME B` or `--NAME A,B`), appended to
    /// `target` in order, commas split.
    OptionList& texts(const std::string& name, std::vector<std::string>& target,
                      const std::string& meaning);
    /// A switch without value: sets `target` to true when given.
    OptionList& flag(const std::string& name, bool& target, const std::string& meaning);
    /// A positional argument (e.g. SESSION of `run`), required.
    OptionList& positional(const std::string& name, std::string& target,
                           const std::string& meaning);

    /// Marks the option declared last as required (checked by checkRequired()).
    OptionList& required();
    /// Replaces the default shown in the help for the option declared last.
    OptionList& defaultText(const std::string& text);

    /// Whether the option was given on the command line.
    bool given(const std::string& name) const;
    /// After parsing: throws InputError for a missing required option ("parameter --k: required"),
    /// an unknown option ("unknown option --bogus") or a stray argument.
    void checkAfterParse() const;

    CLI::App* app() const { return m_app; }

private:
    CLI::Option* add(const std::string& name, std::function<void(const std::string&)> parse,
                     const std::string& typeName, const std::string& meaning,
                     const std::string& defaultValue);
    CLI::App* m_app;
    CLI::Option* m_last = nullptr;
    std::string m_lastMeaning;
    std::vector<std::string> m_required;
    std::vector<std::string> m_positionals;
};

/// A subcommand of contrast-cli: its CLI11 app and what runs it after a successful parse.
struct CommandEntry {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

/// The help layout of every command: option name and type, then at least two spaces and the
/// meaning on the same line, or the meaning on the next line when the name and type are long.
std::shared_ptr<CLI::Formatter> makeHelpFormatter();

/// Creates the output folder `dir` (and its parents) when it does not exist.
/// \throws InputError(dir, 0, "cannot create output folder: …") when that fails or `dir` is a file.
void createOutputFolder(const std::string& dir);

/// Splits "a,b,c" at commas, dropping empty pieces.
std::vector<std::string> splitList(const std::string& text, char separator = ',');

/// Parses FROM:TO:STEP into the grid FROM, FROM+STEP, … ≤ TO (+1e-9 slack). Throws InputError.
std::vector<double> parseGrid(const std::string& parameter, const std::string& text);

} // namespace cx::cli
