#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cx::cli {

/// Parsed command line of one subcommand: `--name value` options and `--flag` switches.
/// Every getter validates and throws cx::InputError("parameter --name: ...") on a bad value, so
/// a command body reads like its usage line.
class Args {
public:
    /// `flags` are the switches that take no value (e.g. "json"). Throws InputError on an
    /// option given twice or a stray positional argument.
    Args(const std::vector<std::string>& argv, const std::set<std::string>& flags,
         const std::vector<std::string>& positionalNames = {});

    bool has(const std::string& name) const;
    bool flag(const std::string& name) const { return has(name); }
    std::string string(const std::string& name) const;                     ///< required
    std::string string(const std::string& name, const std::string& fallback) const;
    std::int64_t integer(const std::string& name, std::int64_t min, std::int64_t max) const;
    std::int64_t integer(const std::string& name, std::int64_t fallback, std::int64_t min,
                         std::int64_t max) const;
    double real(const std::string& name, double min, double max) const;
    double real(const std::string& name, double fallback, double min, double max) const;
    std::uint64_t seed(const std::string& name, std::uint64_t fallback) const;
    std::string positional(size_t index) const;

    /// Throws InputError naming the first option that no getter asked for (a typo guard).
    /// Call it after all getters.
    void rejectUnused() const;

private:
    std::map<std::string, std::string> m_values;
    std::vector<std::string> m_positional;
    std::vector<std::string> m_positionalNames;
    mutable std::set<std::string> m_used;
};

/// Splits "a,b,c" at commas, dropping empty pieces.
std::vector<std::string> splitList(const std::string& text, char separator = ',');

/// Parses FROM:TO:STEP into the grid FROM, FROM+STEP, … ≤ TO (+1e-9 slack). Throws InputError.
std::vector<double> parseGrid(const std::string& parameter, const std::string& text);

} // namespace cx::cli
