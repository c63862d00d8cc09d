// The bad-input catalogue (tests/data/bad, README there) through contrast-cli: one test per
// malformed file. Each must end with a non-zero exit (not a signal, not a sanitizer report), a
// message that names the file (and the line where there is one) in readable text (no raw bytes
// of a binary file), and leave an output folder that already holds results untouched.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace cx {
namespace {

using test::readText;
using test::runCli;
using test::TempDir;

const std::string kBad = std::string(CX_TEST_DATA_DIR) + "/bad/";
const std::string kGoodTrack = std::string(CX_TEST_DATA_DIR) + "/hmm/K562_chr11_slice.txt.gz";

enum class Kind { Track, Bed, Corpus, Uci };

struct BadInput {
    const char* file; ///< under tests/data/bad
    Kind kind;
    int line;            ///< line named in the message; 0 = the file only
    const char* problem; ///< a fragment of the problem text
};

// clang-format off
const BadInput kCases[] = {
    {"chromhmm_empty_binary.txt", Kind::Track, 0, "empty file"},
    {"chromhmm_no_header_binary.txt", Kind::Track, 1, "missing header line"},
    {"chromhmm_header_three_fields_binary.txt", Kind::Track, 1, "found 3 fields"},
    {"chromhmm_header_only_binary.txt", Kind::Track, 2, "missing mark-name line"},
    {"chromhmm_duplicate_mark_binary.txt", Kind::Track, 2, "appears twice"},
    {"chromhmm_ragged_binary.txt", Kind::Track, 6, "row has 2 values, expected 3"},
    {"chromhmm_value_out_of_range_binary.txt", Kind::Track, 4, "'3' is not 0, 1 or 2"},
    {"chromhmm_blank_row_binary.txt", Kind::Track, 6, "empty row among the bins"},
    {"chromhmm_no_bins_binary.txt", Kind::Track, 2, "no data rows"},
    {"chromhmm_random_bytes_binary.txt", Kind::Track, 3, "is not 0, 1 or 2"},
    {"chromhmm_utf16_binary.txt", Kind::Track, 3, "is not 0, 1 or 2"},
    {"chromhmm_too_many_marks_binary.txt", Kind::Track, 2, "at most 128 marks"},
    {"chromhmm_truncated_binary.txt.gz", Kind::Track, 0, "corrupt or truncated gzip"},
    {"chromhmm_text_value_binary.txt", Kind::Track, 4, "'yes' is not 0, 1 or 2"},
    {"bed_two_columns.bed", Kind::Bed, 2, "expected at least 3"},
    {"bed_negative_start.bed", Kind::Bed, 1, "'-5'"},
    {"bed_start_after_end.bed", Kind::Bed, 2, "start 900 is after end 800"},
    {"bed_not_a_number.bed", Kind::Bed, 2, "'ten'"},
    {"bed_only_comments.bed", Kind::Bed, 3, "no intervals"},
    {"bed_random_bytes.bed", Kind::Bed, 1, ""},
    {"bed_huge_coordinate.bed", Kind::Bed, 1, "not a non-negative integer"},
    {"tsv_empty.tsv", Kind::Corpus, 0, "empty file"},
    {"tsv_no_text_column.tsv", Kind::Corpus, 1, "text"},
    {"tsv_ragged.tsv", Kind::Corpus, 4, "expected 2 fields"},
    {"tsv_nul_bytes.tsv", Kind::Corpus, 4, "looks binary"},
    {"tsv_utf16.tsv", Kind::Corpus, 1, "looks binary"},
    {"tsv_header_only.tsv", Kind::Corpus, 1, "no data rows"},
    {"tsv_huge_line.tsv.gz", Kind::Corpus, 2, "longer than"},
    {"tsv_truncated.tsv.gz", Kind::Corpus, 0, "corrupt or truncated gzip"},
    {"tsv_random_bytes.tsv", Kind::Corpus, 1, "looks binary"},
    {"tsv_only_stop_words.tsv", Kind::Corpus, 0, "no words found"},
    {"csv_unterminated_quote.csv", Kind::Corpus, 2, "quote"},
    {"csv_ragged.csv", Kind::Corpus, 3, "found 4"},
    {"csv_empty.csv", Kind::Corpus, 0, "empty file"},
    {"uci/docword.header_not_number.txt", Kind::Uci, 1, "'three'"},
    {"uci/docword.truncated.txt", Kind::Uci, 5, "truncated?"},
    {"uci/docword.word_out_of_range.txt", Kind::Uci, 5, "wordID 9"},
    {"uci/docword.document_zero.txt", Kind::Uci, 4, "docID 0"},
    {"uci/docword.negative_count.txt", Kind::Uci, 4, "'-2'"},
    {"uci/docword.random_bytes.txt", Kind::Uci, 1, "looks binary"},
    {"uci/vocab.short.txt", Kind::Uci, 2, "has 2 words but W = 4"},
    {"reuters/reut2-unclosed.sgm", Kind::Corpus, 5, "not closed"},
    {"reuters/reut2-no-block.sgm", Kind::Corpus, 0, "no <REUTERS> block"},
    {"reuters/reut2-random-bytes.sgm", Kind::Corpus, 1, "looks binary"},
    {"reuters/reut2-truncated.sgm.gz", Kind::Corpus, 0, "corrupt or truncated gzip"},
    {"reuters/reut2-empty.sgm", Kind::Corpus, 0, "empty file"},
    {"textfolder_binary", Kind::Corpus, 0, "looks binary"},
    {"textfolder_no_txt", Kind::Corpus, 0, "no .txt files"},
};
// clang-format on

/// Every file below `folder` with its bytes.
std::map<std::string, std::string> snapshot(const std::filesystem::path& folder) {
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
        if (entry.is_regular_file()) {
            files[entry.path().string()] = readText(entry.path());
        }
    }
    return files;
}

/// Valid UTF-8 without control characters other than newline and tab.
bool isReadable(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c < 0x20 && c != '\n' && c != '\t') {
                return false;
            }
            ++i;
            continue;
        }
        const size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
        if (length == 0 || i + length > text.size()) {
            return false;
        }
        for (size_t k = 1; k < length; ++k) {
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) {
                return false;
            }
        }
        i += length;
    }
    return true;
}

class BadInputCatalogue : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputCatalogue, NamesTheFileExitsNonZeroAndKeepsPreviousResults) {
    const BadInput& bad = GetParam();
    const std::string file = kBad + bad.file;
    ASSERT_TRUE(std::filesystem::exists(file)) << file;
    TempDir dir;
    const std::string out = dir / "out";
    std::filesystem::create_directories(out);
    std::ofstream(out + "/summary.tsv") << "results of an earlier run\n";
    std::ofstream(out + "/states.tsv") << "state\tweight\n1\t0.5\n";
    const auto before = snapshot(out);

    std::vector<std::string> args;
    switch (bad.kind) {
    case Kind::Track:
        args = {"hmm", "--tracks", file, "--k", "2", "--gamma", "0", "--out", out};
        break;
    case Kind::Bed:
        args = {"hmm", "--tracks", kGoodTrack, "--fg-regions", file, "--k",
                "2",   "--gamma",  "0",        "--out",        out};
        break;
    case Kind::Corpus:
        args = {"convert", "--corpus", file, "--out", out};
        break;
    case Kind::Uci: {
        const bool vocabIsBad = std::string(bad.file).find("vocab.") != std::string::npos;
        const std::string docword = vocabIsBad ? kBad + "uci/docword.good.txt" : file;
        const std::string vocab = vocabIsBad ? file : kBad + "uci/vocab.good.txt";
        args = {"convert", "--corpus", docword + "," + vocab, "--format", "uci", "--out", out};
        break;
    }
    }
    const auto result = runCli(args, dir);
    SCOPED_TRACE(result.err);
    EXPECT_GT(result.exitCode, 0) << "expected a non-zero exit, not a signal";
    EXPECT_EQ(result.err.find("Sanitizer"), std::string::npos);
    EXPECT_EQ(result.err.find("runtime error"), std::string::npos);
    EXPECT_NE(result.err.find(file), std::string::npos) << "the message names the file";
    if (bad.line > 0) {
        EXPECT_NE(result.err.find(file + ":" + std::to_string(bad.line) + ":"), std::string::npos)
            << "the message names line " << bad.line;
    }
    EXPECT_NE(result.err.find(bad.problem), std::string::npos);
    EXPECT_TRUE(isReadable(result.err)) << "raw bytes in the message";
    EXPECT_LT(result.err.size(), 2000u) << "a message, not a dump";
    EXPECT_EQ(snapshot(out), before) << "results of an earlier run were touched";
}

std::string caseName(const ::testing::TestParamInfo<BadInput>& info) {
    std::string name;
    for (const char c : std::string(info.param.file)) {
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(Files, BadInputCatalogue, ::testing::ValuesIn(kCases), caseName);

TEST(BadInputCatalogue, HoldsAtLeastFortyFilesAndEveryOneIsTested) {
    size_t tested = std::size(kCases);
    // Sessions are covered by tests/core/session/test_session_bad_inputs.cpp; the good UCI
    // companions and the generator are not cases.
    size_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kBad)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.find(".good.") == std::string::npos &&
            name.rfind("session_", 0) != 0 && entry.path().extension() != ".py" &&
            entry.path().extension() != ".md" &&
            entry.path().string().find("textfolder_") == std::string::npos) {
            ++files;
        }
    }
    EXPECT_EQ(files + 2, tested) << "every file (and the two text folders) has a case";
    EXPECT_GE(tested + 8, 40u);
}

} // namespace
} // namespace cx
