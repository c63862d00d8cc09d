#include "core/session/session_fields.h"

#include "core/common/error.h"
#include "core/common/format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace cx {

namespace {
const SessionJson& emptyObject() {
    static const SessionJson empty = SessionJson::object();
    return empty;
}
const SessionJson& emptyArray() {
    static const SessionJson empty = SessionJson::array();
    return empty;
}
// JSON pointer escaping (RFC 6901): '~' → "~0", '/' → "~1".
std::string escapePointerToken(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}
} // namespace

bool isHexColour(const std::string& text) {
    return text.size() == 7 && text[0] == '#' &&
           std::all_of(text.begin() + 1, text.end(),
                       [](unsigned char c) { return std::isxdigit(c) != 0; });
}

std::string jsonTypeName(const SessionJson& value) {
    if (value.is_number_integer()) {
        return "an integer";
    }
    if (value.is_number()) {
        return "a number";
    }
    if (value.is_string()) {
        return "a string";
    }
    if (value.is_boolean()) {
        return "a boolean";
    }
    if (value.is_object()) {
        return "an object";
    }
    if (value.is_array()) {
        return "an array";
    }
    return "null";
}

SessionFields::SessionFields(const SessionJson& object, std::string pointer,
                             std::filesystem::path file)
    : m_object(object.is_object() ? object : emptyObject()), m_pointer(std::move(pointer)),
      m_file(std::move(file)) {
    if (!object.is_object()) {
        throw InputError(m_file.string(), 0,
                         (m_pointer.empty() ? "/" : m_pointer) + ": expected an object, got " +
                             jsonTypeName(object));
    }
}

bool SessionFields::has(const std::string& key) const {
    return m_object.contains(key) && !m_object.at(key).is_null();
}

std::string SessionFields::pointer(const std::string& key) const {
    return m_pointer + "/" + escapePointerToken(key);
}

void SessionFields::fail(const std::string& key, const std::string& problem) const {
    throw InputError(m_file.string(), 0, pointer(key) + ": " + problem);
}

void SessionFields::failItem(const std::string& key, std::size_t index,
                             const std::string& problem) const {
    throw InputError(m_file.string(), 0,
                     pointer(key) + "/" + std::to_string(index) + ": " + problem);
}

std::string SessionFields::string(const std::string& key, const std::string& fallback) const {
    if (!has(key)) {
        return fallback;
    }
    const SessionJson& value = m_object.at(key);
    if (!value.is_string()) {
        fail(key, "expected a string, got " + jsonTypeName(value));
    }
    return value.get<std::string>();
}

std::string SessionFields::requiredString(const std::string& key) const {
    if (!has(key)) {
        fail(key, "missing");
    }
    const std::string value = string(key, {});
    if (value.empty()) {
        fail(key, "must not be empty");
    }
    return value;
}

std::string SessionFields::choice(const std::string& key, const std::string& fallback,
                                  std::initializer_list<const char*> allowed) const {
    const std::string value = string(key, fallback);
    std::string list;
    for (const char* option : allowed) {
        if (value == option) {
            return value;
        }
        list += (list.empty() ? "" : ", ") + std::string(option);
    }
    fail(key, quoteForMessage(value) + " is not one of " + list);
}

std::int64_t SessionFields::integer(const std::string& key, std::int64_t fallback, std::int64_t min,
                                    std::int64_t max) const {
    if (!has(key)) {
        return fallback;
    }
    const SessionJson& value = m_object.at(key);
    if (!value.is_number_integer()) {
        fail(key, "expected an integer, got " + jsonTypeName(value));
    }
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
        fail(key, "must lie in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    const std::int64_t number = value.get<std::int64_t>();
    if (number < min || number > max) {
        fail(key, "must lie in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " +
                      std::to_string(number));
    }
    return number;
}

double SessionFields::real(const std::string& key, double fallback, double min, double max) const {
    if (!has(key)) {
        return fallback;
    }
    const SessionJson& value = m_object.at(key);
    if (!value.is_number()) {
        fail(key, "expected a number, got " + jsonTypeName(value));
    }
    const double number = value.get<double>();
    if (!std::isfinite(number) || number < min || number > max) {
        fail(key, "must be a number in [" + formatNumber(min) + ", " + formatNumber(max) +
                      "], got " + formatNumber(number));
    }
    return number;
}

bool SessionFields::boolean(const std::string& key, bool fallback) const {
    if (!has(key)) {
        return fallback;
    }
    const SessionJson& value = m_object.at(key);
    if (!value.is_boolean()) {
        fail(key, "expected true or false, got " + jsonTypeName(value));
    }
    return value.get<bool>();
}

int SessionFields::resamples(const std::string& key, int max) const {
    if (!has(key)) {
        return 0;
    }
    const SessionJson& value = m_object.at(key);
    const std::string expected =
        "expected a whole number of bootstrap resamples: 0 (none) or 2 to " + std::to_string(max);
    if (!value.is_number_integer()) {
        fail(key, expected + ", got " + (value.is_number() ? value.dump() : jsonTypeName(value)));
    }
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
        fail(key, expected + ", got " + value.dump());
    }
    const std::int64_t number = value.get<std::int64_t>();
    if (number != 0 && (number < 2 || number > max)) {
        fail(key, expected + ", got " + std::to_string(number));
    }
    return static_cast<int>(number);
}

std::uint64_t SessionFields::seed(const std::string& key, std::uint64_t fallback) const {
    if (!has(key)) {
        return fallback;
    }
    const SessionJson& value = m_object.at(key);
    if (!value.is_number_integer() || (value.is_number_integer() && !value.is_number_unsigned() &&
                                       value.get<std::int64_t>() < 0)) {
        fail(key, "expected an integer ≥ 0, got " + jsonTypeName(value));
    }
    return value.get<std::uint64_t>();
}

SessionFields SessionFields::object(const std::string& key) const {
    if (!has(key)) {
        return SessionFields(emptyObject(), pointer(key), m_file);
    }
    return SessionFields(m_object.at(key), pointer(key), m_file);
}

const SessionJson& SessionFields::array(const std::string& key) const {
    if (!has(key)) {
        return emptyArray();
    }
    const SessionJson& value = m_object.at(key);
    if (!value.is_array()) {
        fail(key, "expected an array, got " + jsonTypeName(value));
    }
    return value;
}

std::vector<SessionFields> SessionFields::objects(const std::string& key) const {
    std::vector<SessionFields> out;
    const SessionJson& values = array(key);
    for (size_t i = 0; i < values.size(); ++i) {
        out.emplace_back(values[i], pointer(key) + "/" + std::to_string(i), m_file);
    }
    return out;
}

} // namespace cx
