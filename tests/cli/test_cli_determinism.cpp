// Determinism: the same inputs and seed give byte-identical output files across
// runs and thread counts, for every command that writes results.
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

/// Every file of `folder` (name → bytes).
std::map<std::string, std::string> outputs(const std::string& folder) {
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        if (entry.is_regular_file()) {
            files[entry.path().filename().string()] = readText(entry.path());
        }
    }
    return files;
}

/// Runs `args` + --threads T --out DIR for each T (twice for the first) and checks that every
/// run wrote the same files byte for byte.
void expectIdenticalOutputs(const std::vector<std::string>& args, const TempDir& dir,
                            const std::vector<int>& threadCounts) {
    std::map<std::string, std::string> reference;
    std::vector<int> runs = {threadCounts.front()};
    runs.insert(runs.end(), threadCounts.begin(), threadCounts.end());
    for (size_t i = 0; i < runs.size(); ++i) {
        const std::string out = dir / ("run" + std::to_string(i));
        auto full = args;
        full.insert(full.end(), {"--threads", std::to_string(runs[i]), "--out", out});
        const auto result = runCli(full, dir);
        ASSERT_EQ(result.exitCode, 0) << result.err;
        auto files = outputs(out);
        // The IGV batch script names the output folder itself (absolute paths for IGV).
        if (auto it = files.find("igv_batch.txt"); it != files.end()) {
            const std::string folder = std::filesystem::absolute(out).lexically_normal().string();
            for (size_t at = it->second.find(folder); at != std::string::npos;
                 at = it->second.find(folder, at)) {
                it->second.replace(at, folder.size(), "OUT");
            }
        }
        ASSERT_FALSE(files.empty());
        if (i == 0) {
            reference = files;
            continue;
        }
        ASSERT_EQ(files.size(), reference.size()) << "run " << i;
        for (const auto& [name, bytes] : reference) {
            EXPECT_EQ(files.at(name), bytes)
                << name << " differs with --threads " << runs[i] << " (run " << i << ")";
        }
    }
}

TEST(CliDeterminism, TopicsAndSweepRepeatAcrossRunsAndThreadCounts) {
    TempDir dir;
    const auto generated = runCli({"generate", "--out", dir.path().string(), "--fg-docs", "1500",
                                   "--bg-docs", "1500", "--vocab", "300", "--length", "50", "--a",
                                   "2", "--b", "2", "--c", "2", "--seed", "11"},
                                  dir);
    ASSERT_EQ(generated.exitCode, 0) << generated.err;
    const std::string corpus = dir / "docword.synthetic.txt";
    expectIdenticalOutputs({"topics", "--corpus", corpus, "--fg", "group=foreground", "--bg",
                            "group=background", "--k", "6", "--gamma", "1.5", "--seed", "4",
                            "--min-df", "1"},
                           dir, {1, 2, 3});
    expectIdenticalOutputs({"sweep", "--corpus", corpus, "--fg", "group=foreground", "--bg",
                            "group=background", "--positive", "set=a", "--k", "4", "--gammas",
                            "0:2:0.5", "--seed", "4", "--min-df", "1"},
                           dir, {1, 2});
}

TEST(CliDeterminism, HmmRepeatsAcrossRunsAndThreadCounts) {
    TempDir dir;
    const std::string data = std::string(CX_TEST_DATA_DIR) + "/hmm/";
    expectIdenticalOutputs({"hmm", "--tracks",
                            data + "GM12878_chr11_slice.txt.gz," + data + "K562_chr11_slice.txt.gz",
                            "--fg-regions", data + "RefSeqGene.chr11_slice.bed", "--k", "5",
                            "--gamma", "0.5", "--seed", "7", "--refine-em", "2"},
                           dir, {1, 2, 3});
}

} // namespace
} // namespace cx
