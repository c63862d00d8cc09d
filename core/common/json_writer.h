#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace cx {

/// Minimal streaming JSON writer for the CLI's --json summaries (core has no Qt). Writes compact
/// JSON with keys in call order. Non-finite numbers are written as null (JSON has no NaN).
///
///   JsonWriter json(std::cout);
///   json.beginObject(); json.key("k").value(5); json.endObject();
class JsonWriter {
public:
    explicit JsonWriter(std::ostream& out) : m_out(out) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(const std::string& name);
    JsonWriter& value(const std::string& text);
    JsonWriter& value(const char* text) { return value(std::string(text)); }
    JsonWriter& value(double number);
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(bool flag);
    JsonWriter& null();
    /// Convenience: key + value.
    template <typename T> JsonWriter& field(const std::string& name, const T& v) {
        key(name);
        return value(v);
    }
    /// Convenience: key + an array of the values.
    template <typename T>
    JsonWriter& field(const std::string& name, const std::vector<T>& values) {
        key(name);
        beginArray();
        for (const T& v : values) {
            value(v);
        }
        return endArray();
    }

    static std::string escape(const std::string& text);

private:
    void separator();
    std::ostream& m_out;
    std::vector<bool> m_first; ///< per open container: no element written yet
    bool m_afterKey = false;
};

} // namespace cx
