// ChromHMM-compatible binarization: every option against ChromHMM 1.24's own output on the
// synthetic reads of tests/data/binarize (see its README for how each expected file was made).
#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/io/binarize.h"
#include "core/io/chromhmm_reader.h"
#include "core/io/text_input.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace cx {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(CX_TEST_DATA_DIR) / "binarize";

class ScratchDir {
public:
    ScratchDir() {
        char pattern[] = "/tmp/cx_binarize_test_XXXXXX";
        m_path = ::mkdtemp(pattern);
    }
    ~ScratchDir() {
        std::error_code ignored;
        fs::remove_all(m_path, ignored);
    }
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

std::vector<std::string> fileNames(const fs::path& folder) {
    std::vector<std::string> names;
    if (fs::is_directory(folder)) {
        for (const auto& entry : fs::directory_iterator(folder)) {
            names.push_back(entry.path().filename().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

BinarizeResult run(const std::string& table, const BinarizeOptions& options, const fs::path& out,
                   const std::string& sizes = "chrom.sizes") {
    return binarize((kData / sizes).string(), kData.string(), (kData / table).string(), "",
                    out.string(), options);
}

/// Same files, same decompressed bytes as ChromHMM's expected/<name>.
void expectSameAsChromHmm(const std::string& name, const fs::path& out) {
    const fs::path expected = kData / "expected" / name;
    ASSERT_EQ(fileNames(out), fileNames(expected)) << name;
    for (const auto& file : fileNames(expected)) {
        EXPECT_EQ(readWholeFile((out / file).string()), readWholeFile((expected / file).string()))
            << name << "/" << file;
    }
}

struct OptionCase {
    std::string name; ///< folder under expected/ (ChromHMM's output)
    std::string table;
    BinarizeOptions options;
};

BinarizeOptions with(void (*set)(BinarizeOptions&)) {
    BinarizeOptions options;
    set(options);
    return options;
}

class BinarizeMatchesChromHmm : public testing::TestWithParam<OptionCase> {};

TEST_P(BinarizeMatchesChromHmm, SameCallsBitForBit) {
    const OptionCase& param = GetParam();
    ScratchDir scratch;
    const BinarizeResult result = run(param.table, param.options, scratch.path());
    expectSameAsChromHmm(param.name, scratch.path());
    EXPECT_EQ(result.marks, (std::vector<std::string>{"H3K27ac", "H3K36me3", "H3K4me3"}));
}

INSTANTIATE_TEST_SUITE_P(
    EveryOption, BinarizeMatchesChromHmm,
    testing::Values(
        OptionCase{"bam_default", "table_bam.txt", {}},
        OptionCase{"bam_control", "table_bam_control.txt", {}},
        OptionCase{"bed_default", "table_bed.txt", {}},
        OptionCase{"bedgz_control", "table_bedgz_control.txt", {}},
        OptionCase{"bin_size_100", "table_bam_control.txt",
                   with([](BinarizeOptions& o) { o.binSize = 100; })},
        OptionCase{"shift_50", "table_bam.txt", with([](BinarizeOptions& o) { o.shift = 50; })},
        OptionCase{"poisson_0.01", "table_bam.txt",
                   with([](BinarizeOptions& o) { o.poissonThreshold = 0.01; })},
        OptionCase{"fold_2", "table_bam_control.txt",
                   with([](BinarizeOptions& o) { o.foldThreshold = 2; })},
        OptionCase{"signal_15", "table_bam.txt",
                   with([](BinarizeOptions& o) { o.signalThreshold = 15; })},
        OptionCase{"flank_2", "table_bam_control.txt",
                   with([](BinarizeOptions& o) { o.flankWidth = 2; })},
        OptionCase{"pseudocount_3", "table_bam_control.txt",
                   with([](BinarizeOptions& o) { o.pseudocount = 3; })},
        OptionCase{"strict", "table_bam_control.txt",
                   with([](BinarizeOptions& o) { o.strictThreshold = true; })},
        OptionCase{"strict_nocontrol", "table_bed.txt",
                   with([](BinarizeOptions& o) { o.strictThreshold = true; })},
        OptionCase{"paired", "table_paired.txt", with([](BinarizeOptions& o) { o.paired = true; })},
        OptionCase{"center", "table_bam.txt", with([](BinarizeOptions& o) { o.center = true; })},
        OptionCase{"center_bed", "table_bed.txt",
                   with([](BinarizeOptions& o) { o.center = true; })},
        OptionCase{"peaks", "table_peaks.txt", {}},
        OptionCase{"gzip", "table_bam_control.txt",
                   with([](BinarizeOptions& o) { o.gzip = true; })},
        OptionCase{"missing_mark", "table_missing.txt",
                   with([](BinarizeOptions& o) { o.allowMissingMarks = true; })}),
    [](const testing::TestParamInfo<OptionCase>& info) {
        std::string name = info.param.name;
        std::replace(name.begin(), name.end(), '.', '_');
        return name;
    });

TEST(Binarize, OutputRoundTripsThroughTheChromHmmReader) {
    ScratchDir scratch;
    const BinarizeResult result = run("table_bam_control.txt", {}, scratch.path());
    std::vector<std::string> paths;
    for (const auto& file : result.files) {
        paths.push_back(file.path);
    }
    const ChromatinData data = readChromHmmTracks(paths);
    EXPECT_EQ(data.markNames, result.marks);
    ASSERT_EQ(data.tracks.size(), 5u);
    for (size_t i = 0; i < result.files.size(); ++i) {
        const int track = data.findTrack(result.files[i].cell, result.files[i].chrom);
        ASSERT_GE(track, 0);
        EXPECT_EQ(data.tracks[static_cast<size_t>(track)].numBins(), result.files[i].numBins);
    }
}

TEST(Binarize, UnsortedBamGivesTheSameCalls) {
    ScratchDir scratch;
    const BinarizeResult result = run("table_unsorted.txt", {}, scratch.path());
    ASSERT_EQ(result.files.size(), 3u);
    const auto unsorted = std::find_if(result.inputs.begin(), result.inputs.end(),
                                       [](const BinarizeInputSummary& input) {
                                           return input.path.find("unsorted") != std::string::npos;
                                       });
    ASSERT_NE(unsorted, result.inputs.end());
    EXPECT_FALSE(unsorted->sorted);
    // C1's calls depend only on C1's files: the same as in the two-cell run.
    for (const auto& file : result.files) {
        const std::string name = fs::path(file.path).filename().string();
        EXPECT_EQ(readWholeFile(file.path),
                  readWholeFile((kData / "expected" / "bam_default" / name).string()))
            << name;
    }
}

TEST(Binarize, CramGivesTheSameCallsAsBam) {
    // The CRAMs were written from the BAMs against cram_ref.fa (README); no reference may be
    // found while reading (REF_PATH and REF_CACHE lead nowhere, so nothing is fetched either):
    // binarization reads no bases.
    const std::string nowhere = (fs::temp_directory_path() / "cx_no_reference" / "%s").string();
    ::setenv("REF_PATH", nowhere.c_str(), 1);
    ::setenv("REF_CACHE", nowhere.c_str(), 1);
    ScratchDir scratch;
    const BinarizeResult result = run("table_cram_control.txt", {}, scratch.path());
    ::unsetenv("REF_PATH");
    ::unsetenv("REF_CACHE");
    expectSameAsChromHmm("bam_control", scratch.path());
    ASSERT_FALSE(result.inputs.empty());
    EXPECT_TRUE(result.inputs.front().sorted);
}

TEST(Binarize, CountsAsChromHmmDoes) {
    ScratchDir scratch;
    const BinarizeResult result = run("table_bam.txt", {}, scratch.path());
    const auto& input = result.inputs.front();
    EXPECT_TRUE(input.sorted);
    EXPECT_EQ(input.unmapped, 30);    // 15 placed + 15 unplaced unmapped reads
    EXPECT_GE(input.otherContig, 15); // chrZ: in the BAM header, not in chrom.sizes
    EXPECT_LT(input.counted, input.records - input.unmapped - input.otherContig); // past the ends
}

TEST(Binarize, PoissonThresholdAsChromHmm) {
    // λ = 1: P(X ≤ 5) = 0.99941 ≤ 1 − 1e-4 < P(X ≤ 6) = 0.99992, so ChromHMM stops at 7 terms.
    EXPECT_EQ(poissonThreshold(1.0, 1e-4, false), 6);
    EXPECT_EQ(poissonThreshold(1.0, 1e-4, true), 7);
    // λ = 0: log(0)·0 is NaN, the loop runs once; the call then needs max(…, 1) = 1 read.
    EXPECT_EQ(poissonThreshold(0.0, 1e-4, true), 1);
}

TEST(Binarize, FormatFromFileNames) {
    EXPECT_EQ(formatFromFileName("a.bam"), BinarizeFormat::Bam);
    EXPECT_EQ(formatFromFileName("a.SAM"), BinarizeFormat::Bam);
    EXPECT_EQ(formatFromFileName("a.cram"), BinarizeFormat::Bam);
    EXPECT_EQ(formatFromFileName("a.bed.gz"), BinarizeFormat::Bed);
    EXPECT_EQ(formatFromFileName("a.tagAlign.gz"), BinarizeFormat::Bed);
    EXPECT_EQ(formatFromFileName("a.narrowPeak.gz"), BinarizeFormat::Peaks);
    EXPECT_EQ(formatFromFileName("a.broadPeak"), BinarizeFormat::Peaks);
    EXPECT_EQ(formatFromFileName("a.txt"), BinarizeFormat::Auto);
}

/// Runs a failing binarization and returns its message; the output folder must stay empty.
std::string failure(const std::string& table, const BinarizeOptions& options = {},
                    const std::string& sizes = "chrom.sizes") {
    ScratchDir scratch;
    const fs::path out = scratch.path() / "out";
    try {
        run(table, options, out, sizes);
    } catch (const InputError& error) {
        EXPECT_TRUE(fileNames(out).empty()) << "left files in the output folder";
        return error.what();
    }
    ADD_FAILURE() << table << " did not fail";
    return {};
}

TEST(BinarizeBadInput, EmptyBamNamesTheFile) {
    const std::string message = failure("table_empty.txt");
    EXPECT_NE(message.find("empty.bam"), std::string::npos) << message;
    EXPECT_NE(message.find("empty file"), std::string::npos) << message;
}

TEST(BinarizeBadInput, TruncatedBamNamesTheFile) {
    const std::string message = failure("table_truncated.txt");
    EXPECT_NE(message.find("truncated.bam"), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
}

/// Binarizes `table` (lines CELL MARK FILE, files in `folder`) and returns the error message.
std::string failureIn(const fs::path& folder, const std::string& table) {
    writeFileAtomically(folder / "table.txt", table);
    const fs::path out = folder / "out";
    try {
        binarize((kData / "chrom.sizes").string(), folder.string(), (folder / "table.txt").string(),
                 "", out.string(), {});
    } catch (const InputError& error) {
        EXPECT_TRUE(fileNames(out).empty()) << "left files in the output folder";
        return error.what();
    }
    ADD_FAILURE() << table << " did not fail";
    return {};
}

/// The first `bytes` bytes of tests/data/binarize/`name` as `folder`/`copy`.
void truncatedCopy(const std::string& name, size_t bytes, const fs::path& folder,
                   const std::string& copy) {
    const std::string whole = readWholeFile((kData / name).string());
    ASSERT_GT(whole.size(), bytes);
    writeFileAtomically(folder / copy, std::string_view(whole).substr(0, bytes));
}

TEST(BinarizeBadInput, TruncatedGzipBedNamesTheFile) {
    ScratchDir scratch;
    truncatedCopy("C1_H3K4me3.bed.gz", 3000, scratch.path(), "C1_H3K4me3.bed.gz");
    const std::string message = failureIn(scratch.path(), "C1\tH3K4me3\tC1_H3K4me3.bed.gz\n");
    // Cut inside a line: the broken last line is named (cut at a line end, the reader says
    // "corrupt or truncated gzip" at the end of the stream).
    EXPECT_NE(message.find("C1_H3K4me3.bed.gz:"), std::string::npos) << message;
}

TEST(BinarizeBadInput, TruncatedCramNamesTheFile) {
    ScratchDir scratch;
    truncatedCopy("C1_input.cram", 4000, scratch.path(), "C1_input.cram");
    const std::string message = failureIn(scratch.path(), "C1\tinput\tC1_input.cram\n");
    EXPECT_NE(message.find("C1_input.cram"), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
}

TEST(BinarizeBadInput, MissingFileNamesTheTableLine) {
    const std::string message = failure("table_nofile.txt");
    EXPECT_NE(message.find("no_such_file.bam"), std::string::npos) << message;
    EXPECT_NE(message.find("line 1"), std::string::npos) << message;
}

TEST(BinarizeBadInput, MissingMarkIsAnErrorUnlessAllowed) {
    const std::string message = failure("table_missing.txt");
    EXPECT_NE(message.find("'C2' has no file for mark 'H3K27ac'"), std::string::npos) << message;
    EXPECT_NE(message.find("--allow-missing-marks"), std::string::npos) << message;
}

TEST(BinarizeBadInput, ChromosomeNamesDifferingByChrPrefixOfferTheMapping) {
    const std::string message = failure("table_bam.txt", {}, "chrom_nochr.sizes");
    EXPECT_NE(message.find("C1_H3K4me3.bam"), std::string::npos) << message;
    EXPECT_NE(message.find("chrA → A"), std::string::npos) << message;
}

TEST(BinarizeBadInput, BadOptionsAreRefused) {
    BinarizeOptions options;
    options.binSize = 0;
    EXPECT_NE(failure("table_bam.txt", options).find("bin size"), std::string::npos);
    options = {};
    options.poissonThreshold = 1.5;
    EXPECT_NE(failure("table_bam.txt", options).find("Poisson"), std::string::npos);
    options = {};
    options.paired = true;
    options.center = true;
    EXPECT_NE(failure("table_paired.txt", options).find("--paired"), std::string::npos);
}

TEST(BinarizeBadInput, UnpairedReadWithPairedNamesTheFile) {
    BinarizeOptions options;
    options.paired = true;
    const std::string message = failure("table_bam.txt", options);
    EXPECT_NE(message.find(".bam"), std::string::npos) << message;
    EXPECT_NE(message.find("not paired"), std::string::npos) << message;
}

TEST(BinarizeBadInput, PeaksTakeNoControl) {
    BinarizeOptions options;
    options.format = BinarizeFormat::Peaks;
    const std::string message = failure("table_bam_control.txt", options);
    EXPECT_NE(message.find("peaks take no control"), std::string::npos) << message;
}

TEST(Binarize, CancelStopsBeforeWriting) {
    ScratchDir scratch;
    const CancelToken cancel = CancelToken::create();
    cancel.cancel();
    const fs::path out = scratch.path() / "out";
    EXPECT_THROW(binarize((kData / "chrom.sizes").string(), kData.string(),
                          (kData / "table_bam.txt").string(), "", out.string(), {}, cancel),
                 Cancelled);
    EXPECT_TRUE(fileNames(out).empty());
}

TEST(Binarize, ReportsProgressUpToOne) {
    ScratchDir scratch;
    double last = 0;
    bool increasing = true;
    binarize((kData / "chrom.sizes").string(), kData.string(), (kData / "table_bam.txt").string(),
             "", scratch.path().string(), {}, {}, [&](double fraction, const char*) {
                 increasing = increasing && fraction >= last;
                 last = fraction;
             });
    EXPECT_TRUE(increasing);
    EXPECT_DOUBLE_EQ(last, 1.0);
}

} // namespace
} // namespace cx

TEST(Binarize, CellAndMarkGuessedFromFileNames) {
    const auto guess = [](const std::string& name) {
        const cx::CellMarkGuess g = cx::guessCellMark(name);
        return g.cell + "|" + g.mark + (g.control ? "|control" : "");
    };
    EXPECT_EQ(guess("/data/C1_H3K4me3.bam"), "C1|H3K4me3");
    EXPECT_EQ(guess("C1_H3K27ac_paired.bam"), "C1|H3K27ac");
    EXPECT_EQ(guess("GM12878_H3K36me3.bed.gz"), "GM12878|H3K36me3");
    EXPECT_EQ(guess("C2_inputA.bam"), "C2|inputA|control");
    EXPECT_EQ(guess("K562_WCE.tagAlign.gz"), "K562|WCE|control");
    EXPECT_EQ(guess("wgEncodeBroadHistoneGm12878H3k4me3StdAlnRep1.bam"), "Gm12878|H3k4me3");
    EXPECT_EQ(guess("wgEncodeBroadHistoneK562H3k27acStdAln.bam"), "K562|H3k27ac");
    EXPECT_EQ(guess("wgEncodeBroadHistoneHepg2ControlStdAlnRep1.bam"), "Hepg2|Control|control");
    EXPECT_EQ(guess("wgEncodeUwHistoneHelas3H3k36me3StdRawDataRep1.bam"), "Helas3|H3k36me3");
    // Nothing to go by: empty, for the user to fill in.
    EXPECT_EQ(guess("reads.bam"), "|");
    EXPECT_EQ(guess("_x.bam"), "|");
    EXPECT_EQ(guess("C1_.bam"), "|");
    EXPECT_EQ(guess("wgEncodeBroadHistoneStdAln.bam"), "|");
}
