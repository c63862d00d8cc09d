// Size bounds of the readers: lines, marks, tracks; and inputs found by the fuzz
// targets in tests/fuzz (each regression names the target that found it).
#include "core/io/chromhmm_reader.h"
#include "core/io/corpus_loader.h"
#include "core/io/text_input.h"
#include "corpus_test_support.h"

#include <gtest/gtest.h>

#include <string>

// The reader's bounds (core/io/chromhmm_reader.h).
constexpr int kMaxChromatinMarks = 128;
constexpr int kMaxChromatinTracks = 4096;

namespace cx {
namespace {

using test::expectInputError;
using test::ScratchFolder;

TEST(InputBounds, LineLongerThanTheBoundIsRefusedWithItsLineNumber) {
    ScratchFolder scratch;
    const std::string path =
        scratch.write("long.txt", "short\nalso short\n" + std::string(5000, 'x') + "\nend\n");
    LineReader reader(path, 1000);
    std::string_view line;
    ASSERT_TRUE(reader.next(line));
    ASSERT_TRUE(reader.next(line));
    expectInputError([&] { reader.next(line); }, {path + ":3:", "longer than 1000 bytes"});
}

TEST(InputBounds, LinesUpToTheBoundAreRead) {
    ScratchFolder scratch;
    const std::string text(1000, 'y');
    const std::string path = scratch.write("ok.txt", text + "\n" + text);
    LineReader reader(path, 1000);
    std::string_view line;
    ASSERT_TRUE(reader.next(line));
    EXPECT_EQ(line, text);
    ASSERT_TRUE(reader.next(line));
    EXPECT_EQ(line, text);
    EXPECT_FALSE(reader.next(line));
}

TEST(InputBounds, GzipBombWithoutLineBreaksStopsAtTheDefaultBound) {
    ScratchFolder scratch;
    // 80 MiB of zeros compress to ~80 KB: a file that is small on disk and one endless line.
    const std::string path =
        scratch.writeGzip("bomb.tsv.gz", std::string(LineReader::kMaxLineBytes + (16u << 20), 'a'));
    expectInputError([&] { loadCorpus(path); }, {path + ":1:", "longer than"});
}

TEST(InputBounds, SmallAndLargePlainFilesReadTheSameLines) {
    ScratchFolder scratch;
    std::string text;
    for (int i = 0; i < 200000; ++i) {
        text += "line " + std::to_string(i) + "\n";
    }
    const std::string path = scratch.write("many.txt", text); // larger than one block
    LineReader reader(path);
    std::string_view line;
    int count = 0;
    while (reader.next(line)) {
        ASSERT_EQ(line, "line " + std::to_string(count));
        ++count;
    }
    EXPECT_EQ(count, 200000);
}

TEST(InputBounds, TooManyMarksAreRefusedOnTheMarkLine) {
    ScratchFolder scratch;
    std::string names;
    std::string row;
    for (int m = 0; m <= kMaxChromatinMarks; ++m) {
        names += (m ? "\tM" : "M") + std::to_string(m);
        row += m ? "\t0" : "0";
    }
    const std::string path =
        scratch.write("wide_binary.txt", "C\tchr1\n" + names + "\n" + row + "\n");
    ChromatinData data;
    expectInputError([&] { appendChromHmmFile(data, path); },
                     {path + ":2:", std::to_string(kMaxChromatinMarks + 1) + " mark names",
                      "at most " + std::to_string(kMaxChromatinMarks)});
    EXPECT_TRUE(data.tracks.empty());
}

TEST(InputBounds, TooManyTracksAreRefusedAndTheDataKept) {
    ScratchFolder scratch;
    const std::string path = scratch.write("c_binary.txt", "C\tchr1\nA\tB\n0\t1\n");
    ChromatinData data;
    data.tracks.resize(kMaxChromatinTracks);
    expectInputError([&] { appendChromHmmFile(data, path); },
                     {path, "too many tracks", std::to_string(kMaxChromatinTracks)});
    EXPECT_EQ(data.tracks.size(), static_cast<size_t>(kMaxChromatinTracks));
}

} // namespace
} // namespace cx
