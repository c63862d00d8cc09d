// contrast-cli binarize end to end: ChromHMM's calls (expected files made by ChromHMM 1.24, see
// tests/data/binarize/README.md), the JSON summary, and errors that name the file.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <filesystem>

namespace cx::test {
namespace {

namespace fs = std::filesystem;

const fs::path kBinarizeData = fs::path(CX_TEST_DATA_DIR) / "binarize";

std::vector<std::string> baseArgs(const std::string& table, const std::string& out) {
    return {"binarize",
            "--chrom-sizes",
            (kBinarizeData / "chrom.sizes").string(),
            "--input-dir",
            kBinarizeData.string(),
            "--cellmarkfiletable",
            (kBinarizeData / table).string(),
            "--out",
            out};
}

std::string gunzip(const fs::path& path) {
    gzFile file = gzopen(path.c_str(), "rb");
    std::string text;
    char buffer[65536];
    int n = 0;
    while (file && (n = gzread(file, buffer, sizeof buffer)) > 0) {
        text.append(buffer, static_cast<size_t>(n));
    }
    if (file) {
        gzclose(file);
    }
    return text;
}

void expectSameBinarizedFiles(const fs::path& out, const std::string& expectedName) {
    const fs::path expected = kBinarizeData / "expected" / expectedName;
    size_t count = 0;
    for (const auto& entry : fs::directory_iterator(expected)) {
        const fs::path ours = out / entry.path().filename();
        ASSERT_TRUE(fs::exists(ours)) << ours;
        EXPECT_EQ(gunzip(ours), gunzip(entry.path())) << ours;
        ++count;
    }
    EXPECT_EQ(static_cast<size_t>(std::distance(fs::directory_iterator(out), {})), count);
}

TEST(CliBinarize, BamWithControlsMatchesChromHmm) {
    TempDir dir;
    const auto result = runCli(baseArgs("table_bam_control.txt", dir / "out"), dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.out.find("wrote 5 files"), std::string::npos) << result.out;
    expectSameBinarizedFiles(dir / "out", "bam_control");
}

TEST(CliBinarize, EveryOptionFlagReachesCore) {
    TempDir dir;
    struct Case {
        std::string expected;
        std::string table;
        std::vector<std::string> flags;
    };
    const std::vector<Case> cases = {
        {"bin_size_100", "table_bam_control.txt", {"--bin-size", "100"}},
        {"shift_50", "table_bam.txt", {"--shift", "50"}},
        {"poisson_0.01", "table_bam.txt", {"--poisson-threshold", "0.01"}},
        {"fold_2", "table_bam_control.txt", {"--fold-threshold", "2"}},
        {"signal_15", "table_bam.txt", {"--signal-threshold", "15"}},
        {"flank_2", "table_bam_control.txt", {"--flank-width", "2"}},
        {"pseudocount_3", "table_bam_control.txt", {"--pseudocount", "3"}},
        {"strict", "table_bam_control.txt", {"--strict-threshold"}},
        {"paired", "table_paired.txt", {"--paired"}},
        {"center_bed", "table_bed.txt", {"--center", "--format", "bed"}},
        {"peaks", "table_peaks.txt", {"--format", "peaks"}},
        {"gzip", "table_bam_control.txt", {"--gzip"}},
        {"missing_mark", "table_missing.txt", {"--allow-missing-marks"}},
    };
    for (const auto& c : cases) {
        const std::string out = dir / c.expected;
        auto args = baseArgs(c.table, out);
        args.insert(args.end(), c.flags.begin(), c.flags.end());
        const auto result = runCli(args, dir);
        ASSERT_EQ(result.exitCode, 0) << c.expected << "\n" << result.err;
        expectSameBinarizedFiles(out, c.expected);
    }
}

TEST(CliBinarize, ControlDirIsSearchedForControls) {
    TempDir dir;
    const fs::path controls = dir.path() / "controls";
    fs::create_directories(controls);
    for (const char* name : {"C1_input.bed.gz", "C2_inputA.bed.gz", "C2_inputB.bed.gz"}) {
        fs::copy_file(kBinarizeData / name, controls / name);
    }
    // Marks from a folder without the controls: only --control-dir can supply them.
    const fs::path marks = dir.path() / "marks";
    fs::create_directories(marks);
    for (const auto& entry : fs::directory_iterator(kBinarizeData)) {
        const std::string name = entry.path().filename().string();
        if (name.find("H3K") != std::string::npos && name.ends_with(".bed.gz")) {
            fs::copy_file(entry.path(), marks / name);
        }
    }
    auto args = baseArgs("table_bedgz_control.txt", dir / "out");
    args[4] = marks.string();
    args.insert(args.end(), {"--control-dir", controls.string()});
    const auto result = runCli(args, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    expectSameBinarizedFiles(dir / "out", "bedgz_control");
}

TEST(CliBinarize, JsonSummaryListsFilesAndInputs) {
    TempDir dir;
    auto args = baseArgs("table_bam.txt", dir / "out");
    args.push_back("--json");
    const auto result = runCli(args, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    for (const char* key : {"\"marks\"", "\"files\"", "\"inputs\"", "\"unmapped\": 30",
                            "\"sorted\": true", "\"H3K4me3\""}) {
        EXPECT_NE(result.out.find(key), std::string::npos) << key << "\n" << result.out;
    }
}

TEST(CliBinarize, BadInputsFailNamingTheFileAndLeaveNoOutput) {
    TempDir dir;
    struct Case {
        std::string table;
        std::vector<std::string> flags;
        std::string message;
    };
    const std::vector<Case> cases = {
        {"table_empty.txt", {}, "empty.bam: empty file"},
        {"table_truncated.txt", {}, "truncated.bam: truncated BAM"},
        {"table_nofile.txt", {}, "no_such_file.bam: file not found"},
        {"table_missing.txt", {}, "has no file for mark 'H3K27ac'"},
        {"table_paired.txt", {"--paired", "--shift", "50"}, "parameter --shift"},
        {"table_bam.txt", {"--format", "vcf"}, "--format"},
    };
    for (const auto& c : cases) {
        const std::string out = dir / ("out_" + c.table);
        auto args = baseArgs(c.table, out);
        args.insert(args.end(), c.flags.begin(), c.flags.end());
        const auto result = runCli(args, dir);
        EXPECT_EQ(result.exitCode, 2) << c.table;
        EXPECT_NE(result.err.find(c.message), std::string::npos) << c.table << "\n" << result.err;
        EXPECT_TRUE(!fs::exists(out) || fs::is_empty(out)) << c.table;
    }
    auto args = baseArgs("table_bam.txt", dir / "out_nochr");
    args[2] = (kBinarizeData / "chrom_nochr.sizes").string();
    const auto result = runCli(args, dir);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_NE(result.err.find("chrA → A"), std::string::npos) << result.err;
}

} // namespace
} // namespace cx::test
