#include "cli_options.h"

#include "core/common/error.h"
#include "core/common/format.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace cx::cli {

namespace {

std::string optionName(const std::string& name) {
    return "parameter --" + name;
}

std::int64_t parseInteger(const std::string& name, const std::string& text, std::int64_t min,
                          std::int64_t max) {
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

std::string rangeText(std::int64_t min, std::int64_t max) {
    return "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

class HelpFormatter : public CLI::Formatter {
public:
    std::string make_option(const CLI::Option* option, bool positional) const override {
        const std::string left =
            "  " + make_option_name(option, positional) + make_option_opts(option);
        const size_t width = get_column_width();
        std::string out = left;
        if (left.size() + 2 > width) {
            out += "\n" + std::string(width, ' ');
        } else {
            out += std::string(width - left.size(), ' ');
        }
        return out + make_option_desc(option) + "\n";
    }
};

} // namespace

std::shared_ptr<CLI::Formatter> makeHelpFormatter() {
    auto formatter = std::make_shared<HelpFormatter>();
    formatter->column_width(36);
    return formatter;
}

CLI::Option* OptionList::add(const std::string& name, std::function<void(const std::string&)> parse,
                             const std::string& typeName, const std::string& meaning,
                             const std::string& defaultValue) {
    const std::string description =
        meaning + " (default: " + (defaultValue.empty() ? "none" : defaultValue) + ")";
    CLI::Option* option =
        m_app->add_option_function<std::string>("--" + name, std::move(parse), description);
    option->type_name(typeName);
    m_last = option;
    m_lastMeaning = meaning;
    return option;
}

OptionList& OptionList::text(const std::string& name, std::string& target,
                             const std::string& meaning) {
    add(
        name, [&target](const std::string& v) { target = v; }, "TEXT", meaning, target);
    return *this;
}

OptionList& OptionList::choice(const std::string& name, std::string& target,
                               const std::vector<std::string>& choices,
                               const std::string& meaning) {
    std::string listed;
    for (const auto& c : choices) {
        listed += (listed.empty() ? "" : "|") + c;
    }
    add(
        name,
        [&target, name, choices, listed](const std::string& v) {
            for (const auto& c : choices) {
                if (v == c) {
                    target = v;
                    return;
                }
            }
            throw InputError(optionName(name) + ": '" + v + "' is not one of " + listed);
        },
        listed, meaning, target);
    return *this;
}

OptionList& OptionList::integer(const std::string& name, int& target, std::int64_t min,
                                std::int64_t max, const std::string& meaning) {
    add(
        name,
        [&target, name, min, max](const std::string& v) {
            target = static_cast<int>(parseInteger(name, v, min, max));
        },
        "INT in " + rangeText(min, max), meaning, std::to_string(target));
    return *this;
}

OptionList& OptionList::integer(const std::string& name, std::int64_t& target, std::int64_t min,
                                std::int64_t max, const std::string& meaning) {
    add(
        name,
        [&target, name, min, max](const std::string& v) {
            target = parseInteger(name, v, min, max);
        },
        "INT in " + rangeText(min, max), meaning, std::to_string(target));
    return *this;
}

OptionList& OptionList::real(const std::string& name, double& target, double min, double max,
                             const std::string& meaning) {
    add(
        name,
        [&target, name, min, max](const std::string& text) {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0') {
                throw InputError(optionName(name) + ": '" + text + "' is not a number");
            }
            if (!std::isfinite(v)) {
                throw InputError(optionName(name) + ": " + text + " is not finite");
            }
            if (v < min || v > max) {
                throw InputError(optionName(name) + ": " + text + " is outside [" +
                                 formatNumber(min) + ", " + formatNumber(max) + "]");
            }
            target = v;
        },
        "NUMBER in [" + formatNumber(min) + ", " + formatNumber(max) + "]", meaning,
        formatNumber(target));
    return *this;
}

OptionList& OptionList::seed(const std::string& name, std::uint64_t& target,
                             const std::string& meaning) {
    add(
        name,
        [&target, name](const std::string& text) {
            char* end = nullptr;
            errno = 0;
            const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
            if (text.empty() || *end != '\0' || errno == ERANGE || text[0] == '-') {
                throw InputError(optionName(name) + ": '" + text +
                                 "' is not a non-negative integer");
            }
            target = v;
        },
        "INT >= 0", meaning, std::to_string(target));
    return *this;
}

OptionList& OptionList::texts(const std::string& name, std::vector<std::string>& target,
                              const std::string& meaning) {
    CLI::Option* option = m_app->add_option_function<std::vector<std::string>>(
        "--" + name,
        [&target](const std::vector<std::string>& values) {
            for (const auto& value : values) {
                for (const auto& piece : splitList(value)) {
                    target.push_back(piece);
                }
            }
        },
        meaning + " (default: none)");
    option->type_name("TEXT...");
    option->expected(1, CLI::detail::expected_max_vector_size);
    m_last = option;
    m_lastMeaning = meaning;
    return *this;
}

OptionList& OptionList::flag(const std::string& name, bool& target, const std::string& meaning) {
    m_last = m_app->add_flag_callback(
        "--" + name, [&target]() { target = true; }, meaning);
    m_lastMeaning = meaning;
    return *this;
}

OptionList& OptionList::positional(const std::string& name, std::string& target,
                                   const std::string& meaning) {
    m_last = m_app->add_option_function<std::string>(
        name, [&target](const std::string& v) { target = v; }, meaning + " (required)");
    m_last->type_name("");
    m_lastMeaning = meaning;
    m_positionals.push_back(name);
    return *this;
}

OptionList& OptionList::required() {
    m_required.push_back(m_last->get_name());
    m_last->description(m_lastMeaning + " (required)");
    return *this;
}

OptionList& OptionList::defaultText(const std::string& text) {
    m_last->description(m_lastMeaning + " (default: " + text + ")");
    return *this;
}

bool OptionList::given(const std::string& name) const {
    return m_app->count("--" + name) > 0;
}

void OptionList::checkAfterParse() const {
    for (const auto& arg : m_app->remaining()) {
        if (arg.rfind("--", 0) == 0 && arg.size() > 2) {
            throw InputError("unknown option " + arg.substr(0, arg.find('=')));
        }
        if (arg.size() > 1 && arg[0] == '-') {
            throw InputError("unknown option " + arg);
        }
        throw InputError("unexpected argument '" + arg + "'");
    }
    for (const auto& name : m_positionals) {
        if (m_app->count(name) == 0) {
            throw InputError("missing " + name);
        }
    }
    for (const auto& name : m_required) {
        if (m_app->count(name) == 0) {
            throw InputError(optionName(name.substr(2)) + ": required");
        }
    }
}

void createOutputFolder(const std::string& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error || !std::filesystem::is_directory(dir)) {
        throw InputError(dir, 0,
                         "cannot create output folder" +
                             (error ? ": " + error.message() : std::string()));
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
        // Round to 12 significant digits so 0:4:0.1 gives 2.4, not 2.4000000000000004.
        char rounded[32];
        std::snprintf(rounded, sizeof rounded, "%.12g", from + static_cast<double>(i) * step);
        grid.push_back(std::strtod(rounded, nullptr));
    }
    return grid;
}

} // namespace cx::cli
