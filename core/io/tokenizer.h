#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cx {

/// The tokeniser shared by the TSV/CSV, Reuters and text-folder readers.
///
/// A token is a maximal run of ASCII letters and digits, lower-cased. Everything else splits:
/// punctuation, whitespace, apostrophes ("don't" → "don", "t"), hyphens ("money-fx" → "money",
/// "fx"), and every non-ASCII byte, so UTF-8 letters such as "é" split words rather than join
/// them. Pure numbers are kept as tokens ("1987", "155"): in news text they carry meaning (years,
/// quarters, rates) and the min-document-frequency cut removes the rare ones. "1,750" gives
/// "1" and "750"; "3.5" gives "3" and "5".
namespace detail {
/// kTokenChar[c] is the lower-case form of byte c if c is an ASCII letter or digit, else 0.
constexpr std::array<char, 256> makeTokenCharTable() {
    std::array<char, 256> table{};
    for (int c = '0'; c <= '9'; ++c) {
        table[static_cast<size_t>(c)] = static_cast<char>(c);
    }
    for (int c = 'a'; c <= 'z'; ++c) {
        table[static_cast<size_t>(c)] = static_cast<char>(c);
        table[static_cast<size_t>(c - 'a' + 'A')] = static_cast<char>(c);
    }
    return table;
}
inline constexpr std::array<char, 256> kTokenChar = makeTokenCharTable();
} // namespace detail

/// Calls fn(std::string_view token) for every token of `text` in order. `scratch` holds the
/// lower-cased token (the view passed to fn is valid until fn returns). Cost: O(text.size()).
template <class Fn> void forEachToken(std::string_view text, std::string& scratch, Fn&& fn) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
        while (p < end && detail::kTokenChar[*p] == 0) {
            ++p;
        }
        if (p == end) {
            break;
        }
        scratch.clear();
        while (p < end && detail::kTokenChar[*p] != 0) {
            scratch.push_back(detail::kTokenChar[*p]);
            ++p;
        }
        fn(std::string_view(scratch));
    }
}

/// The tokens of `text` as strings, optionally without stop words (see isStopWord).
std::vector<std::string> tokenize(std::string_view text, bool removeStopWords = false);

/// True if the lower-case `word` is in the bundled English stop-word list
/// (englishStopWords() in corpus_loader.h). Cost: one hash lookup.
bool isStopWord(std::string_view word);

/// Length (1–4) of the valid UTF-8 sequence starting at p, or 0 if the byte at p does not start
/// one (stray continuation byte, overlong form, surrogate, code point above U+10FFFF, or a
/// sequence cut off by `end`). \pre p < end.
int utf8SequenceLength(const unsigned char* p, const unsigned char* end);

/// Number of bytes of `text` that are not part of a valid UTF-8 sequence.
std::int64_t countInvalidUtf8(std::string_view text);

/// `text` as valid UTF-8: valid sequences are copied, every other byte is decoded as Latin-1
/// (byte 0xFC becomes "ü"). Returns the text unchanged when it is already valid.
std::string toValidUtf8(std::string_view text);

/// ASCII lower-casing (other bytes unchanged) and ASCII-whitespace trimming.
std::string toLowerAscii(std::string_view text);
std::string_view trimAscii(std::string_view text);

} // namespace cx
