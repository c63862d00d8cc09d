#include "corpus_test_support.h"

#include "core/common/error.h"
#include "core/io/text_input.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cx {
namespace {

using test::expectInputError;
using test::ScratchFolder;
using Lines = std::vector<std::string>;

Lines readLines(const std::string& path, size_t blockBytes = LineReader::kBlockBytes) {
    LineReader reader(path, LineReader::kMaxLineBytes, blockBytes);
    Lines out;
    std::string_view line;
    while (reader.next(line)) {
        out.emplace_back(line);
        EXPECT_EQ(reader.lineNumber(), static_cast<std::int64_t>(out.size()));
    }
    return out;
}

TEST(LineReader, ReadsFinalLineWithoutNewline) {
    ScratchFolder scratch;
    EXPECT_EQ(readLines(scratch.write("a.txt", "one\ntwo\nthree")), (Lines{"one", "two", "three"}));
    EXPECT_EQ(readLines(scratch.write("b.txt", "one\ntwo\n")), (Lines{"one", "two"}));
    EXPECT_EQ(readLines(scratch.write("c.txt", "")), Lines{});
    EXPECT_EQ(readLines(scratch.write("d.txt", "\n\n")), (Lines{"", ""}));
}

TEST(LineReader, StripsCrlf) {
    ScratchFolder scratch;
    EXPECT_EQ(readLines(scratch.write("crlf.txt", "one\r\ntwo\r\n\r\nlast\r")),
              (Lines{"one", "two", "", "last"}));
}

TEST(LineReader, GzipAndPlainReadTheSame) {
    ScratchFolder scratch;
    std::string text;
    for (int i = 0; i < 50000; ++i) {
        text += std::to_string(i) + " " + std::string(static_cast<size_t>(i % 37), 'x') + "\n";
    }
    const Lines plain = readLines(scratch.write("big.txt", text));
    EXPECT_EQ(plain.size(), 50000u);
    EXPECT_EQ(readLines(scratch.writeGzip("big.txt.gz", text)), plain);
    EXPECT_EQ(readWholeFile(scratch.path("big.txt.gz")), text);
}

TEST(LineReader, ReadsLinesLongerThanItsBuffer) {
    ScratchFolder scratch;
    const std::string longLine(3 * (1 << 20) + 17, 'a');
    const Lines lines = readLines(scratch.write("long.txt", "x\n" + longLine + "\ny"));
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[1], longLine);
    EXPECT_EQ(lines[2], "y");
}

TEST(LineReader, ReportsMissingFilesFoldersAndTruncatedGzip) {
    ScratchFolder scratch;
    expectInputError([&] { LineReader reader(scratch.path("missing.txt")); },
                     {"missing.txt", "cannot open"});
    expectInputError([&] { LineReader reader(scratch.root()); }, {"is a folder"});
    std::string text;
    for (int i = 0; i < 20000; ++i) {
        text += "line " + std::to_string(i * 7919 % 100003) + "\n";
    }
    const std::string full = test::readBytes(scratch.writeGzip("whole.gz", text));
    const std::string cut = scratch.write("cut.gz", full.substr(0, full.size() / 2));
    expectInputError([&] { readLines(cut); }, {"cut.gz", "truncated"});
}

/// The file through nextLines(): the concatenated views (each must end in a newline except a
/// final one) and the number of lines they held.
std::string readViews(const std::string& path, size_t blockBytes, std::int64_t& lines) {
    LineReader reader(path, LineReader::kMaxLineBytes, blockBytes);
    std::string all;
    std::string_view view;
    bool finalSeen = false;
    while (reader.nextLines(view)) {
        EXPECT_FALSE(view.empty());
        EXPECT_FALSE(finalSeen) << "a view after one without a final newline";
        const auto count = static_cast<std::int64_t>(std::count(view.begin(), view.end(), '\n'));
        finalSeen = view.back() != '\n';
        reader.countLines(count + (finalSeen ? 1 : 0));
        all.append(view);
    }
    lines = reader.lineNumber();
    return all;
}

/// Lines of varied length (empty, CRLF, longer than the small blocks) and no final newline.
std::string mixedText() {
    std::string text;
    for (int i = 0; i < 400; ++i) {
        text += std::to_string(i) + std::string(static_cast<size_t>(i * 7 % 45), 'x');
        text += i % 5 == 0 ? "\r\n" : (i % 11 == 0 ? "\n\n" : "\n");
    }
    return text + "last\r";
}

Lines splitLines(const std::string& text) {
    Lines lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        const bool last = end == std::string::npos;
        end = last ? text.size() : end;
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

TEST(LineReader, SmallBlocksAndReadAheadGiveTheSameLines) {
    ScratchFolder scratch;
    const std::string text = mixedText();
    const Lines expected = splitLines(text);
    const std::string plain = scratch.write("mixed.txt", text);
    const std::string zipped = scratch.writeGzip("mixed.txt.gz", text);
    // 1 and 7 bytes split every line and CRLF; 4096 reads ahead; the default reads in one go.
    for (const size_t block :
         {size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{4096}, LineReader::kBlockBytes}) {
        EXPECT_EQ(readLines(plain, block), expected) << block;
        EXPECT_EQ(readLines(zipped, block), expected) << block;
        for (const std::string& path : {plain, zipped}) {
            std::int64_t lines = 0;
            EXPECT_EQ(readViews(path, block, lines), text) << path << " " << block;
            EXPECT_EQ(lines, static_cast<std::int64_t>(expected.size())) << block;
        }
    }
    std::int64_t lines = 0;
    EXPECT_EQ(readViews(scratch.write("ends.txt", "a\r\nb\n"), 3, lines), "a\r\nb\n");
    EXPECT_EQ(lines, 2);
    EXPECT_EQ(readViews(scratch.write("empty.txt", ""), 3, lines), "");
    EXPECT_EQ(lines, 0);
}

TEST(LineReader, NextLinesAfterNextContinuesAtTheFollowingLine) {
    ScratchFolder scratch;
    const std::string path = scratch.write("head.txt", "h1\nh2\r\nbody1\nbody2\nbody3");
    for (const size_t block : {size_t{1}, size_t{5}, LineReader::kBlockBytes}) {
        LineReader reader(path, LineReader::kMaxLineBytes, block);
        std::string_view line;
        ASSERT_TRUE(reader.next(line));
        ASSERT_TRUE(reader.next(line));
        EXPECT_EQ(line, "h2");
        std::string rest;
        std::string_view view;
        while (reader.nextLines(view)) {
            rest.append(view);
        }
        EXPECT_EQ(rest, "body1\nbody2\nbody3") << block;
    }
}

TEST(LineReader, TooLongLinesAndBadGzipNameTheLineWithReadAhead) {
    ScratchFolder scratch;
    const std::string path = scratch.write("long.txt", "ab\ncd\n" + std::string(100, 'z') + "\n");
    LineReader reader(path, 50, 8);
    std::string_view view;
    ASSERT_TRUE(reader.nextLines(view));
    EXPECT_EQ(view, "ab\ncd\n");
    reader.countLines(2);
    expectInputError([&] { reader.nextLines(view); }, {"long.txt:3:", "longer than 50 bytes"});

    std::string text;
    for (int i = 0; i < 40000; ++i) {
        text += std::to_string(i * 7919 % 100003) + " " + std::to_string(i) + "\n";
    }
    const std::string full = test::readBytes(scratch.writeGzip("whole.gz", text));
    const std::string cut = scratch.write("cut.gz", full.substr(0, full.size() / 2));
    std::string corrupt = full;
    for (size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 64; ++i) {
        corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5A);
    }
    const std::string bad = scratch.write("corrupt.gz", corrupt);
    for (const size_t block : {size_t{4096}, LineReader::kBlockBytes}) {
        expectInputError([&] { readLines(cut, block); }, {"cut.gz:", "truncated"});
        expectInputError([&] { readLines(bad, block); }, {"corrupt.gz:", "corrupt"});
        std::int64_t lines = 0;
        expectInputError([&] { readViews(cut, block, lines); }, {"cut.gz:", "truncated"});
    }
}

TEST(LineReader, StopsItsReadAheadWhenDestroyedEarly) {
    ScratchFolder scratch;
    std::string text;
    for (int i = 0; i < 20000; ++i) {
        text += "line " + std::to_string(i) + "\n";
    }
    const std::string plain = scratch.write("many.txt", text);
    const std::string zipped = scratch.writeGzip("many.txt.gz", text);
    for (const std::string& path : {plain, zipped}) {
        LineReader reader(path, LineReader::kMaxLineBytes, 256);
        std::string_view line;
        ASSERT_TRUE(reader.next(line));
        EXPECT_EQ(line, "line 0");
        EXPECT_GT(reader.bytesRead(), 0);
    } // the destructor joins the reading thread, which may be waiting for a free buffer
}

} // namespace
} // namespace cx
