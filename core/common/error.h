#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cx {

/// A problem with user-supplied input (a file, a rule, a parameter). The message names the
/// file, the line (1-based, 0 when not applicable) and the problem, ready to show to a user as
/// "FILE:LINE: problem". Readers throw it; the CLI prints it and exits non-zero; the GUI shows
/// it in a dialog and keeps what was loaded before.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::int64_t line, const std::string& problem)
        : std::runtime_error(format(file, line, problem)), m_file(std::move(file)), m_line(line),
          m_problem(problem) {}
    /// A parameter problem (no file): "parameter --k: must be ≥ 1".
    explicit InputError(const std::string& problem)
        : std::runtime_error(problem), m_line(0), m_problem(problem) {}

    const std::string& file() const { return m_file; }
    std::int64_t line() const { return m_line; }
    const std::string& problem() const { return m_problem; }

private:
    static std::string format(const std::string& file, std::int64_t line,
                              const std::string& problem) {
        std::string out;
        out.reserve(file.size() + problem.size() + 24);
        out.append(file);
        if (line > 0) {
            out.push_back(':');
            out.append(std::to_string(line));
        }
        out.append(": ");
        out.append(problem);
        return out;
    }
    std::string m_file;
    std::int64_t m_line;
    std::string m_problem;
};

} // namespace cx
