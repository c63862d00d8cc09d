#include "args.h"

#include "core/common/error.h"
#include "core/common/format.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace cx::cli {

namespace {
std::string optionName(const std::string& name) { return "parameter --" + name; }
} // namespace

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& flags,
           const std::vector<std::string>& positionalNames)
    : m_positionalNames(positionalNames) {
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.rfind("--", 0) == 0 && arg.size() > 2) {
            std::string name = arg.substr(2);
            std::string value;
            const auto eq = name.find('=');
            if (eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
            } else if (flags.count(name)) {
                value = "1";
            } else {
                if (i + 1 >= argv.size()) {
                    throw InputError(optionName(name) + ": missing value");
                }
                value = argv[++i];
            }
            if (m_values.count(name)) {
                throw InputError(optionName(name) + ": given more than once");
            }
            m_values[name] = value;
        } else {
            if (m_positional.size() >= positionalNames.size()) {
                throw InputError("unexpected argument '" + arg + "'");
            }
            m_positional.push_back(arg);
        }
    }
}

bool Args::has(const std::string& name) const {
    m_used.insert(name);
    return m_values.count(name) > 0;
}

std::string Args::string(const std::string& name) const {
    m_used.insert(name);
    auto it = m_values.find(name);
    if (it == m_values.end()) {
        throw InputError(optionName(name) + ": required");
    }
    return it->second;
}

std::string Args::string(const std::string& name, const std::string& fallback) const {
    return has(name) ? string(name) : fallback;
}

std::int64_t Args::integer(const std::string& name, std::int64_t min, std::int64_t max) const {
    const std::string text = string(name);
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE) {
        throw InputError(optionName(name) + ": '" + text + "' is not an integer");
    }
    if (v < min || v > max) {
        throw InputError(optionName(name) + ": " + text + " is outside [" + std::to_string(min) +
                         ", " + std::to_string(max) + "]");
    }
    return v;
}

std::int64_t Args::integer(const std::string& name, std::int64_t fallback, std::int64_t min,
                           std::int64_t max) const {
    return has(name) ? integer(name, min, max) : fallback;
}

double Args::real(const std::string& name, double min, double max) const {
    const std::string text = string(name);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') {
        throw InputError(optionName(name) + ": '" + text + "' is not a number");
    }
    if (!std::isfinite(v)) {
        throw InputError(optionName(name) + ": " + text + " is not finite");
    }
    if (v < min || v > max) {
        throw InputError(optionName(name) + ": " + text + " is outside [" + formatNumber(min) +
                         ", " + formatNumber(max) + "]");
    }
    return v;
}

double Args::real(const std::string& name, double fallback, double min, double max) const {
    return has(name) ? real(name, min, max) : fallback;
}

std::uint64_t Args::seed(const std::string& name, std::uint64_t fallback) const {
    if (!has(name)) {
        return fallback;
    }
    const std::string text = string(name);
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || text[0] == '-') {
        throw InputError(optionName(name) + ": '" + text + "' is not a non-negative integer");
    }
    return v;
}

std::string Args::positional(size_t index) const {
    if (index >= m_positional.size()) {
        const std::string what =
            index < m_positionalNames.size() ? m_positionalNames[index] : "argument";
        throw InputError("missing " + what);
    }
    return m_positional[index];
}

void Args::rejectUnused() const {
    for (const auto& [name, value] : m_values) {
        if (!m_used.count(name)) {
            throw InputError("unknown option --" + name);
        }
    }
}

std::vector<std::string> splitList(const std::string& text, char separator) {
    std::vector<std::string> out;
    std::string current;
    for (char c : text) {
        if (c == separator) {
            if (!current.empty()) {
                out.push_back(current);
            }
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty()) {
        out.push_back(current);
    }
    return out;
}

std::vector<double> parseGrid(const std::string& parameter, const std::string& text) {
    const auto parts = splitList(text, ':');
    auto number = [&](const std::string& piece) {
        char* end = nullptr;
        const double v = std::strtod(piece.c_str(), &end);
        if (piece.empty() || *end != '\0' || !std::isfinite(v)) {
            throw InputError("parameter --" + parameter + ": '" + piece +
                             "' is not a finite number (expected FROM:TO:STEP)");
        }
        return v;
    };
    if (parts.size() != 3) {
        throw InputError("parameter --" + parameter + ": '" + text + "' is not FROM:TO:STEP");
    }
    const double from = number(parts[0]);
    const double to = number(parts[1]);
    const double step = number(parts[2]);
    if (step <= 0 || to < from) {
        throw InputError("parameter --" + parameter + ": need STEP > 0 and TO ≥ FROM in '" + text +
                         "'");
    }
    const auto count = static_cast<std::int64_t>(std::floor((to - from) / step + 1e-9)) + 1;
    if (count > 100000) {
        throw InputError("parameter --" + parameter + ": grid of " + std::to_string(count) +
                         " points is too large (at most 100000)");
    }
    std::vector<double> grid;
    for (std::int64_t i = 0; i < count; ++i) {
        grid.push_back(from + static_cast<double>(i) * step);
    }
    return grid;
}

} // namespace cx::cli
