#include "core/io/tokenizer.h"

#include "core/io/corpus_loader.h"

#include <unordered_set>

namespace cx {

std::vector<std::string> tokenize(std::string_view text, bool removeStopWords) {
    std::vector<std::string> tokens;
    std::string scratch;
    forEachToken(text, scratch, [&](std::string_view token) {
        if (!removeStopWords || !isStopWord(token)) {
            tokens.emplace_back(token);
        }
    });
    return tokens;
}

bool isStopWord(std::string_view word) {
    // Views into the strings owned by englishStopWords(), which lives for the whole program.
    static const std::unordered_set<std::string_view> set = [] {
        std::unordered_set<std::string_view> out;
        for (const std::string& stopWord : englishStopWords()) {
            out.insert(stopWord);
        }
        return out;
    }();
    return set.count(word) != 0;
}

int utf8SequenceLength(const unsigned char* p, const unsigned char* end) {
    const unsigned char c = p[0];
    if (c < 0x80) {
        return 1;
    }
    const auto isContinuation = [](unsigned char b) { return (b & 0xC0) == 0x80; };
    const std::ptrdiff_t available = end - p;
    if (c < 0xC2) {
        return 0; // continuation byte or overlong two-byte form
    }
    if (c < 0xE0) {
        return available >= 2 && isContinuation(p[1]) ? 2 : 0;
    }
    if (c < 0xF0) {
        if (available < 3 || !isContinuation(p[1]) || !isContinuation(p[2])) {
            return 0;
        }
        if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0)) {
            return 0; // overlong, or a UTF-16 surrogate
        }
        return 3;
    }
    if (c < 0xF5) {
        if (available < 4 || !isContinuation(p[1]) || !isContinuation(p[2]) ||
            !isContinuation(p[3])) {
            return 0;
        }
        if ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90)) {
            return 0; // overlong, or above U+10FFFF
        }
        return 4;
    }
    return 0;
}

std::int64_t countInvalidUtf8(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    std::int64_t invalid = 0;
    while (p < end) {
        if (*p < 0x80) {
            ++p;
            continue;
        }
        const int length = utf8SequenceLength(p, end);
        if (length == 0) {
            ++invalid;
            ++p;
        } else {
            p += length;
        }
    }
    return invalid;
}

std::string toValidUtf8(std::string_view text) {
    if (countInvalidUtf8(text) == 0) {
        return std::string(text);
    }
    std::string out;
    out.reserve(text.size() + 8);
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
        const int length = utf8SequenceLength(p, end);
        if (length == 0) {
            // Latin-1 byte b >= 0x80 is code point U+00b: two UTF-8 bytes.
            out.push_back(static_cast<char>(0xC0 | (*p >> 6)));
            out.push_back(static_cast<char>(0x80 | (*p & 0x3F)));
            ++p;
        } else {
            out.append(reinterpret_cast<const char*>(p), static_cast<size_t>(length));
            p += length;
        }
    }
    return out;
}

std::string toLowerAscii(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

std::string_view trimAscii(std::string_view text) {
    const auto isSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
    };
    size_t begin = 0;
    size_t end = text.size();
    while (begin < end && isSpace(text[begin])) {
        ++begin;
    }
    while (end > begin && isSpace(text[end - 1])) {
        --end;
    }
    return text.substr(begin, end - begin);
}

} // namespace cx
