// contrast-cli generate-tree: seeded synthetic cell types that `tree` reads and learns back, and
// its bad-input paths.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cx {
namespace {

using test::readText;
using test::runCli;
using test::TempDir;

TEST(CliGenerateTree, WritesWhatTreeReadsAndScoresDeterministically) {
    TempDir dir;
    const std::vector<std::string> generate = {
        "generate-tree", "--tree", "R>A,B", "--k",          "3",   "--marks", "5", "--bins",
        "4000,3000",     "--seed", "4",     "--tss-per-mb", "100", "--json"};
    auto first = generate;
    first.insert(first.end(), {"--out", dir / "g1"});
    auto second = generate;
    second.insert(second.end(), {"--out", dir / "g2"});
    const auto made = runCli(first, dir);
    ASSERT_EQ(made.exitCode, 0) << made.err;
    ASSERT_EQ(runCli(second, dir).exitCode, 0);
    const auto json = nlohmann::json::parse(made.out);
    EXPECT_EQ(json["bins_per_cell"].get<std::int64_t>(), 7000);
    EXPECT_GT(json["tss_sites"].get<std::int64_t>(), 0);
    for (const char* file : {"/R_chr1_binary.txt", "/B_chr2_binary.txt", "/tss.txt",
                             "/truth/emissions_A.tsv", "/truth/states_A_chr2.bed"}) {
        EXPECT_EQ(readText(dir / "g1" + file), readText(dir / "g2" + file)) << file;
    }
    EXPECT_EQ(readText(dir / "g1/R_chr1_binary.txt").rfind("R\tchr1\nM1\tM2\tM3\tM4\tM5\n", 0), 0u);
    const auto tree =
        runCli({"tree", "--tracks", dir / "g1", "--tree", "R>A,B", "--k", "3", "--tss",
                dir / "g1/tss.txt", "--no-segments", "--out", dir / "t", "--json"},
               dir);
    ASSERT_EQ(tree.exitCode, 0) << tree.err;
    const auto learned = nlohmann::json::parse(tree.out);
    EXPECT_EQ(learned["data"]["bins_per_cell"].get<std::int64_t>(), 7000);
    EXPECT_TRUE(learned["promoter_f1"]["spectral-tree"]["A"].is_object());
}

TEST(CliGenerateTree, AssemblyChromosomesAreHg19Sizes) {
    TempDir dir;
    const auto made =
        runCli({"generate-tree", "--tree", "R>A", "--k", "2", "--marks", "2", "--assembly", "hg19",
                "--chroms", "chr21", "--bin-size", "100000", "--out", dir / "g", "--json"},
               dir);
    ASSERT_EQ(made.exitCode, 0) << made.err;
    const auto json = nlohmann::json::parse(made.out);
    EXPECT_EQ(json["chroms"], nlohmann::json::array({"chr21"}));
    EXPECT_EQ(json["bins_per_cell"].get<std::int64_t>(), 48129895 / 100000);
}

TEST(CliGenerateTree, BadInputsNameTheOptionAndExitNonZero) {
    TempDir dir;
    const std::string out = dir / "g";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--out", out}, "parameter --bins / --assembly: give exactly one of them"},
        {{"--out", out, "--bins", "10", "--assembly", "hg19"},
         "parameter --bins / --assembly: give exactly one of them"},
        {{"--out", out, "--bins", "10,x"}, "parameter --bins: 'x' is not a bin count"},
        {{"--out", out, "--bins", "0"}, "parameter --bins: '0' is not a bin count"},
        {{"--out", out, "--assembly", "hg38"}, "parameter --assembly: assembly 'hg38'"},
        {{"--out", out, "--assembly", "hg19", "--chroms", "chrZ"},
         "parameter --chroms: 'chrZ' is not a chromosome of hg19"},
        {{"--out", out, "--bins", "10", "--chroms", "chr1"}, "parameter --chroms: only with"},
        {{"--out", out, "--bins", "10", "--tree", "A>B;B>A"}, "cycle"},
        {{"--out", out, "--bins", "10", "--tree", "R>a/b"},
         "parameter --tree: cell type 'a/b' cannot be part of a file name"},
        {{"--out", out, "--bins", "10", "--marks", "16"}, "parameter --marks: 16 is outside"},
        {{"--out", out, "--bins", "10", "--tss-per-mb", "20000"}, "TSS per Mb"},
        {{"--bins", "10"}, "parameter --out: required"},
        {{"--out", dir / "file.txt/sub", "--bins", "10"}, "file.txt/sub"},
    };
    test::writeText(dir / "file.txt", "not a folder");
    for (const auto& [args, expected] : cases) {
        std::vector<std::string> command = {"generate-tree"};
        command.insert(command.end(), args.begin(), args.end());
        const auto result = runCli(command, dir);
        EXPECT_EQ(result.exitCode, 2) << expected;
        EXPECT_NE(result.err.find(expected), std::string::npos) << expected << "\n" << result.err;
    }
}

TEST(CliGenerateTree, ExactJointDecodingOfNineCellTypesIsRefusedWithTheNumbers) {
    TempDir dir;
    ASSERT_EQ(runCli({"generate-tree", "--bins", "500", "--out", dir / "g"}, dir).exitCode, 0);
    const auto joint = runCli({"tree", "--tracks", dir / "g", "--tree", "R>C1,C2,C3,C4,C5,C6,C7,C8",
                               "--k", "6", "--decode", "joint", "--out", dir / "t"},
                              dir);
    EXPECT_EQ(joint.exitCode, 2);
    EXPECT_NE(joint.err.find("parameter decode: exact joint decoding under the whole tree has "
                             "K^nodes = 6^9 = 10077696 meta-states per bin"),
              std::string::npos)
        << joint.err;
}

} // namespace
} // namespace cx
