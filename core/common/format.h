#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cx {

/// A number for messages and TSV output: %g with `significantDigits` digits; "nan", "inf" and
/// "-inf" for non-finite values.
inline std::string formatNumber(double value, int significantDigits = 10) {
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value > 0 ? "inf" : "-inf";
    }
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.*g", significantDigits, value);
    return buffer;
}

/// Names for a message: 'a', 'b', 'c'.
inline std::string quotedList(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        out += (i > 0 ? ", '" : "'") + names[i] + "'";
    }
    return out;
}

/// `text` as part of a file name: letters, digits, '-', '_' and '.' kept, anything else '_'
/// (a cell type "HeLa S3" → "HeLa_S3").
inline std::string fileNamePart(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        out += keep ? c : '_';
    }
    return out;
}

/// A token quoted for an error message: printable ASCII only (others become '?'), at most
/// `maxLength` characters followed by "..." when longer.
inline std::string quoteForMessage(std::string_view token, size_t maxLength = 24) {
    std::string out = "'";
    for (size_t i = 0; i < token.size() && i < maxLength; ++i) {
        const char c = token[i];
        out += (c >= 32 && c < 127) ? c : '?';
    }
    if (token.size() > maxLength) {
        out += "...";
    }
    return out + "'";
}

/// `text` with every byte outside printable ASCII replaced by '?': for messages that quote what
/// a library said about a file's bytes (e.g. a JSON parser's "last read: '…'").
inline std::string printableAscii(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (c < 32 || c >= 127) {
            c = '?';
        }
    }
    return out;
}

} // namespace cx
