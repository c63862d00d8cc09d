#include "core/io/corpus_loader.h"
#include "core/io/tokenizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cx {
namespace {

using Tokens = std::vector<std::string>;

TEST(Tokenizer, SplitsOnEverythingButAsciiLettersAndDigits) {
    EXPECT_EQ(tokenize("Hello, World! It's 1987."), (Tokens{"hello", "world", "it", "s", "1987"}));
    EXPECT_EQ(tokenize("money-fx\tU.S.\n1,750 dlrs/tonne 3.5%"),
              (Tokens{"money", "fx", "u", "s", "1", "750", "dlrs", "tonne", "3", "5"}));
    EXPECT_EQ(tokenize(""), Tokens{});
    EXPECT_EQ(tokenize("  ...  "), Tokens{});
    EXPECT_EQ(tokenize("abc"), Tokens{"abc"});
}

TEST(Tokenizer, KeepsPureNumbersAndMixedTokens) {
    EXPECT_EQ(tokenize("Q3 1987 earnings rose 12 pct", true),
              (Tokens{"q3", "1987", "earnings", "rose", "12", "pct"}));
}

TEST(Tokenizer, NonAsciiBytesSplitTokens) {
    // "café naïve" in UTF-8: é and ï are two bytes each and split the words.
    EXPECT_EQ(tokenize("caf\xC3\xA9 na\xC3\xAFve"), (Tokens{"caf", "na", "ve"}));
    // A stray Latin-1 byte (as in Reuters reut2-017) splits too.
    EXPECT_EQ(tokenize("M\xFCnchen"), (Tokens{"m", "nchen"}));
}

TEST(Tokenizer, RemovesStopWordsWhenAsked) {
    EXPECT_EQ(tokenize("The cat and the hat said it would not", true), (Tokens{"cat", "hat"}));
    EXPECT_EQ(tokenize("The cat", false), (Tokens{"the", "cat"}));
    // Contraction fragments are stop words; "won" is not (it is a verb in news text).
    EXPECT_EQ(tokenize("didn't they've won", true), (Tokens{"won"}));
}

TEST(Tokenizer, StopWordListIsSortedUniqueAndSmartSized) {
    const std::vector<std::string>& words = englishStopWords();
    EXPECT_GE(words.size(), 300u);
    EXPECT_LE(words.size(), 550u);
    EXPECT_TRUE(std::is_sorted(words.begin(), words.end()));
    EXPECT_EQ(std::adjacent_find(words.begin(), words.end()), words.end());
    for (const std::string& word : words) {
        EXPECT_EQ(tokenize(word), Tokens{word}) << "stop word '" << word << "' is not one token";
        EXPECT_TRUE(isStopWord(word));
    }
    EXPECT_TRUE(isStopWord("the"));
    EXPECT_TRUE(isStopWord("said"));
    EXPECT_FALSE(isStopWord("cocoa"));
    EXPECT_FALSE(isStopWord("The")); // the list is lower case; tokens are lower-cased first
}

TEST(Tokenizer, CountsInvalidUtf8Bytes) {
    EXPECT_EQ(countInvalidUtf8("plain ascii"), 0);
    EXPECT_EQ(countInvalidUtf8("M\xC3\xBCnchen \xE2\x82\xAC \xF0\x9F\x98\x80"), 0);
    EXPECT_EQ(countInvalidUtf8("M\xFCnchen"), 1);       // Latin-1 ü
    EXPECT_EQ(countInvalidUtf8("\xE2\x82"), 2);         // cut-off sequence
    EXPECT_EQ(countInvalidUtf8("\xC0\xAF"), 2);         // overlong '/'
    EXPECT_EQ(countInvalidUtf8("\xED\xA0\x80"), 3);     // UTF-16 surrogate
    EXPECT_EQ(countInvalidUtf8("\xF4\x90\x80\x80"), 4); // above U+10FFFF
    EXPECT_EQ(countInvalidUtf8("a\x80"
                               "b"),
              1); // stray continuation byte
}

TEST(Tokenizer, DecodesInvalidBytesAsLatin1) {
    EXPECT_EQ(toValidUtf8("M\xFCnchen"), "M\xC3\xBCnchen");
    EXPECT_EQ(toValidUtf8("M\xC3\xBCnchen"), "M\xC3\xBCnchen"); // valid UTF-8 is untouched
    EXPECT_EQ(toValidUtf8("\xE9t\xE9"), "\xC3\xA9t\xC3\xA9");
    EXPECT_EQ(countInvalidUtf8(toValidUtf8("\xFF\xFE\x80 \xC0")), 0);
}

TEST(Tokenizer, TrimsAndLowerCasesAscii) {
    EXPECT_EQ(trimAscii("  a b \t\r\n"), "a b");
    EXPECT_EQ(trimAscii(" \t "), "");
    EXPECT_EQ(toLowerAscii("MiXeD \xC3\x89"), "mixed \xC3\x89");
}

} // namespace
} // namespace cx
