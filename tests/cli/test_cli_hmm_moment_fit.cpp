// contrast-cli hmm --moment-fit on a synthetic sparse-mark HMM with exact truth: the
// plain solve misses the dominant unmarked state, the refit's weights account for
// the data; the option is off by default and reported in --json.
#include "cli_runner.h"

#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/synthetic_hmm.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace cx {
namespace {

using test::runCli;
using test::TempDir;

/// As tests/core/hmm/test_hmm_moment_refit.cpp: state 0 is unmarked (every mark 0.01) and
/// holds most of the bins.
HmmParameters sparseMarkHmm(int k, int m, std::uint64_t seed) {
    HmmParameters hmm = randomSyntheticHmm(k, m, seed, 0.85);
    hmm.emissions.row(0).setConstant(0.01);
    for (int i = 1; i < k; ++i) {
        hmm.transitions.row(i) *= 0.7;
        hmm.transitions(i, 0) += 0.3;
    }
    hmm.transitions.row(0).setConstant(0.03 / (k - 1));
    hmm.transitions(0, 0) = 0.97;
    hmm.start = stationaryDistribution(hmm.transitions);
    return hmm;
}

/// Writes a sampled chromosome as a ChromHMM binarized file.
void writeBinarized(const ChromatinData& data, const std::filesystem::path& path) {
    std::ofstream out(path);
    out << "SYN\tchr1\n";
    for (int mark = 0; mark < data.numMarks(); ++mark) {
        out << (mark ? "\t" : "") << data.markNames[static_cast<size_t>(mark)];
    }
    out << "\n";
    for (const std::uint32_t pattern : data.tracks.front().bins) {
        for (int mark = 0; mark < data.numMarks(); ++mark) {
            out << (mark ? "\t" : "") << int(data.value(static_cast<int>(pattern), mark));
        }
        out << "\n";
    }
}

TEST(CliHmmMomentFit, RefitWeightsAccountForASparseMarkHmmAndTheDefaultIsReported) {
    TempDir dir;
    const HmmParameters truth = sparseMarkHmm(6, 8, 5);
    ASSERT_GT(truth.start[0], 0.6);
    const ChromatinData data = sampleChromatinData(truth, {200000}, 77);
    const auto track = dir / "SYN_chr1_binary.txt";
    writeBinarized(data, track);
    const auto solve = [&](const std::vector<std::string>& extra, const std::string& out) {
        std::vector<std::string> args = {"hmm",           "--tracks", track,   "--k",    "6",
                                         "--no-segments", "--json",   "--out", dir / out};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto result = runCli(args, dir);
        EXPECT_EQ(result.exitCode, 0) << result.err;
        return nlohmann::json::parse(result.out);
    };
    const auto emissionsOf = [](const nlohmann::json& model) {
        const auto& rows = model.at("components");
        Eigen::MatrixXd e(static_cast<Eigen::Index>(rows.size()),
                          static_cast<Eigen::Index>(rows.at(0).size()));
        for (Eigen::Index i = 0; i < e.rows(); ++i) {
            for (Eigen::Index j = 0; j < e.cols(); ++j) {
                e(i, j) = rows.at(static_cast<size_t>(i)).at(static_cast<size_t>(j));
            }
        }
        return e;
    };
    const auto sum = [](const nlohmann::json& weights) {
        double s = 0;
        for (const auto& w : weights) {
            s += w.get<double>();
        }
        return s;
    };
    // Unrefined (--refine-em 0): off by default, reported as −1; the eigenvalue weights do
    // not account for the bins. (The default at γ = 0 refines, from the moment selection.)
    const nlohmann::json plain = solve({"--gamma", "0", "--refine-em", "0"}, "plain");
    EXPECT_EQ(plain.at("parameters").at("moment_fit"), -1);
    EXPECT_EQ(plain.at("parameters").at("refine_em"), 0);
    const double plainSum = sum(plain.at("model").at("weights"));
    // --moment-fit 0: weights sum to 1 with an unmarked state holding the truth's share.
    const nlohmann::json fit =
        solve({"--gamma", "0", "--moment-fit", "0", "--refine-em", "0"}, "fit");
    EXPECT_EQ(fit.at("parameters").at("moment_fit"), 0);
    const auto& weights = fit.at("model").at("weights");
    EXPECT_NEAR(sum(weights), 1.0, 1e-4);
    EXPECT_GT(std::abs(plainSum - 1.0), 0.1) << "the plain solve already accounts for the data";
    const Eigen::MatrixXd emissions = emissionsOf(fit.at("model"));
    Eigen::Index unmarked = 0;
    emissions.rowwise().maxCoeff().minCoeff(&unmarked);
    EXPECT_LT(emissions.row(unmarked).maxCoeff(), 0.05);
    EXPECT_NEAR(weights.at(static_cast<size_t>(unmarked)).get<double>(), truth.start[0], 0.05);
    EXPECT_LT(matchedMeanAbsoluteDifference(truth.emissions, emissions),
              matchedMeanAbsoluteDifference(truth.emissions, emissionsOf(plain.at("model"))));
    // With a foreground (the first half of the chromosome, same HMM) at γ = 0.5 the refit's
    // weights sum to 1 − γ, and the validity test is still reported.
    const auto bed = dir / "half.bed";
    std::ofstream(bed) << "chr1\t0\t" << 100000 * 200 << "\n";
    const nlohmann::json contrast =
        solve({"--fg-regions", bed, "--gamma", "0.5", "--moment-fit", "0"}, "contrast");
    EXPECT_NEAR(sum(contrast.at("model").at("weights")), 0.5, 1e-4);
    EXPECT_TRUE(contrast.at("model").contains("component_invalid_mass"));
}

TEST(CliHmmMomentFit, MomentOrderIsReportedSavedAndReplayed) {
    TempDir dir;
    const HmmParameters truth = sparseMarkHmm(5, 6, 9);
    const ChromatinData data = sampleChromatinData(truth, {20000}, 78);
    const auto track = dir / "SYN_chr1_binary.txt";
    writeBinarized(data, track);
    const std::vector<std::string> common = {
        "hmm", "--tracks", track, "--k", "5", "--gamma", "0", "--no-segments", "--moment-fit", "0"};
    auto withOrder = common;
    for (const std::string& extra :
         {std::string("--moment-order"), std::string("3"), std::string("--json"),
          std::string("--out"), dir / "o3", std::string("--save-session"), dir / "o3.cxproj"}) {
        withOrder.push_back(extra);
    }
    auto result = runCli(withOrder, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json.at("parameters").at("moment_order"), 3);
    std::ifstream in(dir / "o3.cxproj");
    nlohmann::json session = nlohmann::json::parse(in);
    in.close();
    auto& model = session.at("workspaces").at("chromatin").at("model");
    EXPECT_EQ(model.at("moment_order"), 3);
    result = runCli({"run", dir / "o3.cxproj", "--out", dir / "again"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(test::readText(dir / "o3/emissions.tsv"),
              test::readText(dir / "again/emissions.tsv"));
    // A session saved before the option existed (no moment_order) replays with order 2.
    auto second = common;
    for (const std::string& extra : {std::string("--out"), dir / "o2"}) {
        second.push_back(extra);
    }
    ASSERT_EQ(runCli(second, dir).exitCode, 0);
    model.erase("moment_order");
    std::ofstream(dir / "old.cxproj") << session.dump(2);
    result = runCli({"run", dir / "old.cxproj", "--out", dir / "old"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(test::readText(dir / "o2/emissions.tsv"), test::readText(dir / "old/emissions.tsv"));
    // Out of range: a clear error naming the option.
    auto bad = common;
    for (const std::string& extra :
         {std::string("--moment-order"), std::string("4"), std::string("--out"), dir / "bad"}) {
        bad.push_back(extra);
    }
    result = runCli(bad, dir);
    EXPECT_NE(result.exitCode, 0);
    EXPECT_NE(result.err.find("moment-order"), std::string::npos) << result.err;
}

TEST(CliHmmMomentFit, RefinementToAToleranceIsReportedSavedAndReplayed) {
    TempDir dir;
    const HmmParameters truth = sparseMarkHmm(5, 6, 9);
    const ChromatinData data = sampleChromatinData(truth, {20000}, 78);
    const auto track = dir / "SYN_chr1_binary.txt";
    writeBinarized(data, track);
    auto result = runCli({"hmm", "--tracks", track, "--k", "5", "--gamma", "0", "--no-segments",
                          "--moment-fit", "0", "--refine-em", "1000", "--refine-tolerance", "1e-5",
                          "--json", "--out", dir / "r", "--save-session", dir / "r.cxproj"},
                         dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const nlohmann::json json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json.at("parameters").at("refine_em"), 1000);
    EXPECT_EQ(json.at("parameters").at("refine_tolerance"), 1e-5);
    const auto& ll = json.at("log_likelihood");
    // Stopped by the tolerance, long before the cap; the likelihood only went up.
    EXPECT_EQ(ll.at("em_status"), "successful");
    const int rounds = ll.at("em_iterations");
    EXPECT_GT(rounds, 0);
    EXPECT_LT(rounds, 1000);
    const std::vector<double> trace = ll.at("em");
    ASSERT_EQ(trace.size(), static_cast<size_t>(rounds) + 1);
    for (size_t i = 1; i < trace.size(); ++i) {
        EXPECT_GE(trace[i], trace[i - 1] - 1e-6 * std::abs(trace[i - 1]));
    }
    const double lastGain =
        (trace.back() - trace[trace.size() - 2]) / std::abs(trace[trace.size() - 2]);
    EXPECT_LT(lastGain, 1e-5);
    EXPECT_GE(ll.at("final").get<double>(), ll.at("spectral").get<double>());
    // The refined emissions are those of the truth (after matching).
    Eigen::MatrixXd emissions(5, 6);
    for (int k = 0; k < 5; ++k) {
        for (int m = 0; m < 6; ++m) {
            emissions(k, m) = json.at("model").at("emissions")[k][m];
        }
    }
    const auto match = matchStates(truth.emissions, emissions);
    for (int k = 0; k < 5; ++k) {
        EXPECT_LT((truth.emissions.row(k) - emissions.row(match[static_cast<size_t>(k)]))
                      .cwiseAbs()
                      .maxCoeff(),
                  0.05)
            << "state " << k;
    }
    // The session keeps the rule and `run` replays it.
    std::ifstream in(dir / "r.cxproj");
    nlohmann::json session = nlohmann::json::parse(in);
    in.close();
    auto& model = session.at("workspaces").at("chromatin").at("model");
    EXPECT_EQ(model.at("refine_em"), 1000);
    EXPECT_EQ(model.at("refine_tolerance"), 1e-5);
    result = runCli({"run", dir / "r.cxproj", "--out", dir / "again"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(test::readText(dir / "r/emissions.tsv"), test::readText(dir / "again/emissions.tsv"));
    // A session without refine_tolerance (saved before it existed) runs exactly refine_em rounds.
    model["refine_em"] = 3;
    model.erase("refine_tolerance");
    std::ofstream(dir / "old.cxproj") << session.dump(2);
    result = runCli({"run", dir / "old.cxproj", "--out", dir / "old"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    ASSERT_EQ(runCli({"hmm", "--tracks", track, "--k", "5", "--gamma", "0", "--no-segments",
                      "--moment-fit", "0", "--refine-em", "3", "--out", dir / "three"},
                     dir)
                  .exitCode,
              0);
    EXPECT_EQ(test::readText(dir / "three/emissions.tsv"),
              test::readText(dir / "old/emissions.tsv"));
    EXPECT_NE(test::readText(dir / "three/emissions.tsv"), test::readText(dir / "r/emissions.tsv"));
    // Out of range: a clear error naming the option.
    result = runCli({"hmm", "--tracks", track, "--k", "5", "--gamma", "0", "--refine-em", "5",
                     "--refine-tolerance", "2", "--out", dir / "bad"},
                    dir);
    EXPECT_NE(result.exitCode, 0);
    EXPECT_NE(result.err.find("refine-tolerance"), std::string::npos) << result.err;
}

TEST(CliHmmMomentFit, RefinementAtPositiveGammaWarnsAlsoWhenReplayed) {
    TempDir dir;
    const ChromatinData data = sampleChromatinData(sparseMarkHmm(4, 6, 5), {20000}, 3);
    const auto track = dir / "SYN_chr1_binary.txt";
    writeBinarized(data, track);
    std::ofstream(dir / "fg.bed") << "chr1\t0\t2000000\n";
    auto result = runCli({"hmm", "--tracks", track, "--fg-regions", dir / "fg.bed", "--k", "4",
                          "--gamma", "0.5", "--refine-em", "2", "--no-segments", "--out", dir / "g",
                          "--save-session", dir / "g.cxproj"},
                         dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const std::string warning = "--refine-em fits the foreground bins alone";
    EXPECT_NE(result.err.find(warning), std::string::npos) << result.err;
    result = runCli({"run", dir / "g.cxproj", "--out", dir / "again"}, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_NE(result.err.find(warning), std::string::npos) << result.err;
    EXPECT_EQ(test::readText(dir / "g/emissions.tsv"), test::readText(dir / "again/emissions.tsv"));
}

} // namespace
} // namespace cx
