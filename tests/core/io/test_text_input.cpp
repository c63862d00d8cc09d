#include "corpus_test_support.h"

#include "core/common/error.h"
#include "core/io/text_input.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cx {
namespace {

using test::expectInputError;
using test::ScratchFolder;
using Lines = std::vector<std::string>;

Lines readLines(const std::string& path) {
    LineReader reader(path);
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

} // namespace
} // namespace cx
