// ChromHMM binarized tracks, BED regions, bin classes: good files, quirks and bad inputs.
#include "core/common/error.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace cx {
namespace {

const std::string kSlices = std::string(CX_TEST_DATA_DIR) + "/hmm/";

/// A private temporary folder per test, removed afterwards.
class TempFiles {
public:
    TempFiles() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = std::filesystem::temp_directory_path() /
                ("cx_hmm_" + std::string(info->test_suite_name()) + "_" + info->name());
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }
    ~TempFiles() {
        std::error_code ignored;
        std::filesystem::remove_all(m_dir, ignored);
    }
    std::string write(const std::string& name, const std::string& content) const {
        const auto path = (m_dir / name).string();
        if (path.size() > 3 && path.substr(path.size() - 3) == ".gz") {
            gzFile file = gzopen(path.c_str(), "wb");
            gzwrite(file, content.data(), static_cast<unsigned>(content.size()));
            gzclose(file);
        } else {
            std::ofstream(path, std::ios::binary) << content;
        }
        return path;
    }

private:
    std::filesystem::path m_dir;
};

/// Message of the InputError thrown by `f` ("" if none).
template <typename F> std::string inputError(F&& f) {
    try {
        f();
    } catch (const InputError& error) {
        return error.what();
    }
    return "";
}

const std::string kHeader = "CELL1\tchr1\nA\tB\tC\n";

TEST(ChromHmmReader, ReadsRowsPatternsAndAFinalLineWithoutNewline) {
    TempFiles files;
    const auto path = files.write("a.txt", kHeader + "0\t0\t0\n1\t0\t1\n0\t0\t0\n2\t1\t0");
    ChromatinData data = readChromHmmTracks({path});
    ASSERT_EQ(data.tracks.size(), 1u);
    EXPECT_EQ(data.tracks[0].cell, "CELL1");
    EXPECT_EQ(data.tracks[0].chrom, "chr1");
    EXPECT_EQ(data.markNames, (std::vector<std::string>{"A", "B", "C"}));
    ASSERT_EQ(data.tracks[0].numBins(), 4);
    EXPECT_EQ(data.numPatterns(), 3);
    EXPECT_EQ(data.tracks[0].bins[0], data.tracks[0].bins[2]);
    const int last = static_cast<int>(data.tracks[0].bins[3]);
    EXPECT_EQ(data.value(last, 0), 2);
    EXPECT_EQ(data.value(last, 1), 1);
    EXPECT_TRUE(data.patternHasMissing(last));
    EXPECT_FALSE(data.patternHasMissing(static_cast<int>(data.tracks[0].bins[1])));
    EXPECT_EQ(data.patternCounts[data.tracks[0].bins[0]], 2);
}

TEST(ChromHmmReader, GzipCrlfAndSpacesGiveTheSameData) {
    TempFiles files;
    const auto plain = files.write("p.txt", kHeader + "0\t1\t0\n1\t1\t1\n");
    const auto gz = files.write("g.txt.gz", "CELL1\tchr1\r\nA\tB\tC\r\n0 1 0\r\n1  1\t1\r\n");
    const ChromatinData a = readChromHmmTracks({plain});
    const ChromatinData b = readChromHmmTracks({gz});
    EXPECT_EQ(a.tracks[0].bins, b.tracks[0].bins);
    EXPECT_EQ(a.patternValues, b.patternValues);
    EXPECT_EQ(a.markNames, b.markNames);
}

TEST(ChromHmmReader, SeveralFilesShareOnePatternTable) {
    TempFiles files;
    const auto a = files.write("a.txt", kHeader + "0\t1\t0\n1\t1\t1\n");
    const auto b = files.write("b.txt", "CELL2\tchr1\nA\tB\tC\n1\t1\t1\n0\t0\t0\n0\t1\t0");
    const ChromatinData data = readChromHmmTracks({a, b});
    ASSERT_EQ(data.tracks.size(), 2u);
    EXPECT_EQ(data.numPatterns(), 3);
    EXPECT_EQ(data.tracks[0].bins[1], data.tracks[1].bins[0]);
    EXPECT_EQ(data.tracks[0].bins[0], data.tracks[1].bins[2]);
    EXPECT_EQ(data.totalBins(), 5);
    EXPECT_EQ(data.findTrack("CELL2", "chr1"), 1);
    EXPECT_EQ(data.findTrack("CELL3", "chr1"), -1);
}

TEST(ChromHmmReader, RealSlicesKeepTheLastBin) {
    const ChromatinData data = readChromHmmTracks(
        {kSlices + "GM12878_chr11_slice.txt.gz", kSlices + "K562_chr11_slice.txt.gz"});
    ASSERT_EQ(data.tracks.size(), 2u);
    EXPECT_EQ(data.tracks[0].numBins(), 20000);
    EXPECT_EQ(data.tracks[1].numBins(), 20000);
    EXPECT_EQ(data.numMarks(), 10);
    EXPECT_EQ(data.markNames.front(), "CTCF");
    EXPECT_EQ(data.markNames.back(), "WCE");
    EXPECT_EQ(data.tracks[1].cell, "K562");
}

TEST(ChromHmmReader, BadInputsNameFileLineAndProblem) {
    TempFiles files;
    struct Case {
        const char* name;
        std::string content;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {"empty.txt", "", ":"},
        {"nohead.txt", "0\t1\t0\n1\t1\t1\n", ":1: missing header"},
        {"threefields.txt", "CELL\tchr1\textra\nA\tB\n0\t1\n", ":1: header must be"},
        {"nomarks.txt", "CELL\tchr1\n", ":2: missing mark-name line"},
        {"datamarks.txt", "CELL\tchr1\n0\t1\t0\n", ":2: missing mark-name line"},
        {"dupmarks.txt", "CELL\tchr1\nA\tA\n0\t1\n", ":2: mark name 'A' appears twice"},
        {"ragged.txt", kHeader + "0\t1\t0\n0\t1\n", ":4: row has 2 values, expected 3"},
        {"long.txt", kHeader + "0\t1\t0\t1\n", ":3: row has more than 3 values"},
        {"value.txt", kHeader + "0\t1\t0\n0\t3\t0\n", ":4: column 2 (B): '3' is not 0, 1 or 2"},
        {"text.txt", kHeader + "0\tx\t0\n", ":3: column 2 (B): 'x' is not 0, 1 or 2"},
        {"blank.txt", kHeader + "0\t1\t0\n\n1\t1\t1\n", ":4: empty row among the bins"},
        {"nodata.txt", kHeader, "no data rows"},
        {"binary.txt", std::string("\x1f\x8b\x00\x01\xff\xfe", 6), ":1:"},
    };
    for (const auto& c : cases) {
        const auto path = files.write(c.name, c.content);
        const std::string message = inputError([&] { readChromHmmTracks({path}); });
        EXPECT_NE(message.find(path), std::string::npos) << c.name << ": " << message;
        EXPECT_NE(message.find(c.expected), std::string::npos) << c.name << ": " << message;
    }
    // Blank lines at the very end are fine.
    const auto trailing = files.write("trailing.txt", kHeader + "0\t1\t0\n\n\n");
    EXPECT_EQ(readChromHmmTracks({trailing}).totalBins(), 1);
    EXPECT_NE(
        inputError([] { readChromHmmTracks({"/nonexistent/track.txt"}); }).find("cannot open"),
        std::string::npos);
    EXPECT_NE(inputError([] { readChromHmmTracks({}); }), "");
}

TEST(ChromHmmReader, MismatchedMarksAndDuplicateTracksAcrossFiles) {
    TempFiles files;
    const auto a = files.write("a.txt", kHeader + "0\t1\t0\n");
    const auto b = files.write("b.txt", "CELL2\tchr1\nA\tX\tC\n0\t1\t0\n");
    const auto c = files.write("c.txt", "CELL2\tchr1\nA\tB\n0\t1\n");
    const auto d = files.write("d.txt", kHeader + "1\t1\t0\n");
    std::string message = inputError([&] { readChromHmmTracks({a, b}); });
    EXPECT_NE(message.find(b + ":2: mark names differ"), std::string::npos) << message;
    EXPECT_NE(message.find("column 2 is 'X', expected 'B'"), std::string::npos) << message;
    message = inputError([&] { readChromHmmTracks({a, c}); });
    EXPECT_NE(message.find("2 marks, expected 3"), std::string::npos) << message;
    message = inputError([&] { readChromHmmTracks({a, d}); });
    EXPECT_NE(message.find("already loaded from " + a), std::string::npos) << message;
    // The same marks in another order: columns are permuted into the first file's order.
    const auto e = files.write("e.txt", "CELL3\tchr1\nC\tA\tB\n1\t0\t0\n0\t2\t1\n");
    const ChromatinData permuted = readChromHmmTracks({a, e});
    EXPECT_EQ(permuted.markNames, (std::vector<std::string>{"A", "B", "C"}));
    ASSERT_EQ(permuted.tracks.size(), 2u);
    const auto& bins = permuted.tracks[1].bins;
    ASSERT_EQ(bins.size(), 2u);
    // Row "1 0 0" under C A B is A=0, B=0, C=1; row "0 2 1" is A=2, B=1, C=0.
    EXPECT_EQ(permuted.value(static_cast<int>(bins[0]), 0), 0);
    EXPECT_EQ(permuted.value(static_cast<int>(bins[0]), 1), 0);
    EXPECT_EQ(permuted.value(static_cast<int>(bins[0]), 2), 1);
    EXPECT_EQ(permuted.value(static_cast<int>(bins[1]), 0), 2);
    EXPECT_EQ(permuted.value(static_cast<int>(bins[1]), 1), 1);
    EXPECT_EQ(permuted.value(static_cast<int>(bins[1]), 2), 0);
    // A bad value names the file's own column and mark.
    const auto f = files.write("f.txt", "CELL4\tchr1\nC\tA\tB\n1\t0\t7\n");
    message = inputError([&] { readChromHmmTracks({a, f}); });
    EXPECT_NE(message.find(f + ":3: column 3 (B)"), std::string::npos) << message;

    // A failed append leaves the data unchanged.
    ChromatinData data = readChromHmmTracks({a});
    const auto patterns = data.patternValues;
    EXPECT_THROW(appendChromHmmFile(data, files.write("bad.txt", "CELL9\tchr1\nA\tB\tC\n1\t1\t1\n"
                                                                 "5\t0\t0\n")),
                 InputError);
    EXPECT_EQ(data.tracks.size(), 1u);
    EXPECT_EQ(data.patternValues, patterns);
    EXPECT_EQ(data.numPatterns(), 1);
}

TEST(BedReader, ReadsUnsortedGzAndSkipsHeaderLines) {
    TempFiles files;
    const auto a = files.write("a.bed.gz", "track name=x\n#comment\nbrowser position chr1\n"
                                           "chr1\t500\t900\tname\t0\t+\nchr1\t100\t300\n\n"
                                           "chr2 5 10\n");
    const auto b = files.write("b.bed", "chr1\t0\t0\nchr3\t7\t8");
    const BedRegions regions = readBedFiles({a, b});
    EXPECT_EQ(regions.numIntervals, 5);
    ASSERT_EQ(regions.byChrom.at("chr1").size(), 3u);
    EXPECT_EQ(regions.byChrom.at("chr1")[0].start, 500);
    EXPECT_EQ(regions.byChrom.at("chr1")[1].end, 300);
    EXPECT_EQ(regions.byChrom.at("chr2")[0].end, 10);
    EXPECT_EQ(regions.sources.size(), 2u);
}

TEST(BedReader, BadInputsNameFileLineAndProblem) {
    TempFiles files;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"chr1\t10\n", ":1: BED line has 2 column(s)"},
        {"chr1\t10\t20\nchr1\tabc\t20\n", ":2: column 2 (start): 'abc' is not a non-negative"},
        {"chr1\t10\t-5\n", ":1: column 3 (end): '-5' is not a non-negative"},
        {"chr1\t10.5\t20\n", ":1: column 2 (start)"},
        {"chr1\t30\t20\n", ":1: start 30 is after end 20"},
        {"", ": no intervals"},
        {"# only a comment\n", ":1: no intervals"},
    };
    int i = 0;
    for (const auto& [content, expected] : cases) {
        const auto path = files.write("bad" + std::to_string(i++) + ".bed", content);
        BedRegions regions;
        const std::string message = inputError([&] { appendBedFile(regions, path); });
        EXPECT_NE(message.find(path + expected), std::string::npos) << message;
        EXPECT_TRUE(regions.empty());
    }
}

TEST(HmmBinClasses, OverlapRulesAndDefaults) {
    TempFiles files;
    // 10 bins of 200 bp on chr1.
    std::string rows;
    for (int i = 0; i < 10; ++i) {
        rows += "0\t1\t0\n";
    }
    const ChromatinData data = readChromHmmTracks({files.write("t.txt", kHeader + rows)});
    BedRegions fg;
    fg.byChrom["chr1"] = {{199, 201}, {1000, 1001}, {1999, 5000}, {600, 600}};
    fg.byChrom["chrUn"] = {{0, 10}};
    fg.numIntervals = 5;
    fg.sources = {"fg.bed"};
    // [199, 201) touches bins 0 and 1; [1000, 1001) bin 5; [1999, 5000) bin 9 (clipped);
    // the empty interval [600, 600) overlaps nothing.
    const BinClasses classes = classifyBins(data, &fg, nullptr);
    const std::vector<std::uint8_t> expectedFg = {1, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(classes.isForeground(0, i), expectedFg[static_cast<size_t>(i)] == 1) << i;
        EXPECT_EQ(classes.isBackground(0, i), expectedFg[static_cast<size_t>(i)] == 0) << i;
    }
    EXPECT_EQ(classes.foregroundBins, 4);
    EXPECT_EQ(classes.backgroundBins, 6);
    ASSERT_EQ(classes.warnings.size(), 1u);
    EXPECT_NE(classes.warnings[0].find("'chrUn'"), std::string::npos);

    // Explicit background: independent flags (bins may be in both or neither).
    BedRegions bg;
    bg.byChrom["chr1"] = {{0, 400}};
    bg.numIntervals = 1;
    const BinClasses both = classifyBins(data, &fg, &bg);
    EXPECT_TRUE(both.isForeground(0, 0) && both.isBackground(0, 0));
    EXPECT_FALSE(both.isForeground(0, 3) || both.isBackground(0, 3));
    // Only a background: the foreground is its complement.
    const BinClasses onlyBg = classifyBins(data, nullptr, &bg);
    EXPECT_EQ(onlyBg.foregroundBins, 8);
    // No regions at all: the whole genome is foreground, no background.
    const BinClasses none = classifyBins(data, nullptr, nullptr);
    EXPECT_EQ(none.foregroundBins, 10);
    EXPECT_EQ(none.backgroundBins, 0);

    const auto runs = runsWithFlag(data, classes, kForegroundBin, false);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].begin, 0);
    EXPECT_EQ(runs[0].end, 2);
    EXPECT_EQ(runs[2].begin, 9);
}

TEST(HmmBinClasses, TriplesNeverCrossRegionTrackOrMissingBoundaries) {
    TempFiles files;
    // Track 1: 6 bins, bin 3 has a missing mark. Track 2: 4 bins.
    const auto a = files.write("a.txt", kHeader + "0\t0\t0\n1\t0\t0\n0\t1\t0\n2\t0\t0\n0\t0\t1\n"
                                                  "1\t1\t1\n");
    const auto b = files.write("b.txt", "CELL2\tchr1\nA\tB\tC\n0\t0\t0\n0\t0\t0\n0\t0\t0\n0\t0\t0");
    const ChromatinData data = readChromHmmTracks({a, b});
    const BinClasses all = classifyBins(data, nullptr, nullptr);
    const SequenceMoments moments = computeSequenceMoments(data, all);
    // Track 1: runs [0,3) and [4,6) → 1 + 0 triples; track 2: 2 triples.
    EXPECT_EQ(moments.foreground.numTriples, 3);
    EXPECT_EQ(moments.foreground.numBins, 9);
    EXPECT_EQ(moments.foreground.numRuns, 3);
    EXPECT_EQ(moments.background.numTriples, 0);
    // The constant coordinate (index 3) makes m123(3,3,3) = 1 exactly.
    EXPECT_DOUBLE_EQ(moments.foreground.m123(3, 3, 3), 1.0);
    // Mark A is present in the middle bin of 1 of the 3 triples.
    EXPECT_DOUBLE_EQ(moments.foreground.m123(3, 0, 3), 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(moments.foreground.m12(3, 0), 1.0 / 3.0);
}

} // namespace
} // namespace cx
