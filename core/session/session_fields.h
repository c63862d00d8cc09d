#pragma once

#include "core/session/session.h"

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

namespace cx {

/// Typed, validated reads of one JSON object of a session, for workspace sections. Every
/// problem throws cx::InputError "SESSION: /json/pointer/key: problem", so a user can find the
/// entry; a missing optional key gives the fallback.
class SessionFields {
public:
    SessionFields(const SessionJson& object, std::string pointer, std::filesystem::path file);

    bool has(const std::string& key) const;
    /// JSON pointer of `key` in this object ("/workspaces/topics/model/k").
    std::string pointer(const std::string& key) const;
    const std::string& pointer() const { return m_pointer; }
    const std::filesystem::path& file() const { return m_file; }
    const SessionJson& json() const { return m_object; }

    std::string string(const std::string& key, const std::string& fallback) const;
    std::string requiredString(const std::string& key) const;
    /// A string among `allowed`.
    std::string choice(const std::string& key, const std::string& fallback,
                       std::initializer_list<const char*> allowed) const;
    std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t min,
                         std::int64_t max) const;
    /// A finite number in [min, max].
    double real(const std::string& key, double fallback, double min, double max) const;
    bool boolean(const std::string& key, bool fallback) const;
    /// A bootstrap resample count: absent or 0 = none, else an integer in [2, max]. A value of
    /// 1, a negative one or a non-integer is refused naming the entry.
    int resamples(const std::string& key, int max) const;
    std::uint64_t seed(const std::string& key, std::uint64_t fallback) const;
    /// A nested object; an absent key gives an empty object.
    SessionFields object(const std::string& key) const;
    /// An array of objects (absent: empty).
    std::vector<SessionFields> objects(const std::string& key) const;
    /// An array (absent: empty array); throws when the value is not an array.
    const SessionJson& array(const std::string& key) const;

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
    /// The same for entry `index` of the array `key` ("/…/key/index: problem").
    [[noreturn]] void failItem(const std::string& key, std::size_t index,
                               const std::string& problem) const;

private:
    const SessionJson& m_object;
    std::string m_pointer;
    std::filesystem::path m_file;
};

/// "integer", "string", "object", … for messages.
std::string jsonTypeName(const SessionJson& value);

/// A colour as sessions store it: "#rrggbb" (hexadecimal digits, either case).
bool isHexColour(const std::string& text);

} // namespace cx
