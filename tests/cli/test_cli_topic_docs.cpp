// contrast-cli topics --top-docs: topic_docs.tsv and the npmi column.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace cx {
namespace {

using test::parseTsv;
using test::readText;
using test::runCli;
using test::TempDir;

const std::string kEconomicIndicators =
    "gnp,cpi,trade,bop,money-supply,jobs,ipi,wpi,retail,housing,income,lei,reserves,instal-debt,"
    "interest,money-fx";

std::vector<std::string> demoArguments(const std::string& out) {
    return {"topics",
            "--corpus",
            std::string(CX_SOURCE_DIR) + "/resources/demo/reuters",
            "--fg",
            "places=usa",
            "--bg",
            "topics=" + kEconomicIndicators,
            "--k",
            "8",
            "--gamma",
            "1",
            "--out",
            out};
}

TEST(CliTopicDocs, OneRankedBlockPerForegroundSpecificTopic) {
    TempDir dir;
    const std::string out = dir / "out";
    std::vector<std::string> args = demoArguments(out);
    args.insert(args.end(), {"--top-docs", "7", "--json"});
    const auto result = runCli(args, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out);
    const auto& npmi = json["result"]["npmi"];
    ASSERT_EQ(npmi.size(), 8u);
    for (const auto& value : npmi) {
        ASSERT_TRUE(value.is_number());
        EXPECT_GE(value.get<double>(), -1.0);
        EXPECT_LE(value.get<double>(), 1.0);
    }

    const auto rows = parseTsv(readText(out + "/topic_docs.tsv"));
    ASSERT_GT(rows.size(), 1u);
    const auto& header = rows[0];
    ASSERT_GE(header.size(), 9u);
    EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + 5),
              (std::vector<std::string>{"topic", "rank", "document", "source", "score"}));
    EXPECT_EQ(std::vector<std::string>(header.end() - 3, header.end()),
              (std::vector<std::string>{"foreground_specific", "admissible", "snippet"}));
    const auto column = [&](const std::string& name) {
        return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    const size_t places = column("places");
    ASSERT_LT(places, header.size() - 3) << "the label column 'places' is missing";
    ASSERT_LT(column("topics"), header.size() - 3) << "the label column 'topics' is missing";

    // The foreground-specific components of components.tsv, each with one block of 7.
    const auto components = parseTsv(readText(out + "/components.tsv"));
    ASSERT_EQ(components[0].back(), "npmi");
    std::vector<std::string> specific;
    for (size_t r = 1; r < components.size(); ++r) {
        if (components[r][3] == "1") {
            specific.push_back(components[r][0]);
        }
    }
    ASSERT_FALSE(specific.empty());
    ASSERT_EQ(rows.size(), 1 + 7 * specific.size());
    for (size_t block = 0; block < specific.size(); ++block) {
        double previous = 2.0;
        for (size_t rank = 1; rank <= 7; ++rank) {
            const auto& row = rows[block * 7 + rank];
            ASSERT_EQ(row.size(), header.size());
            EXPECT_EQ(row[0], specific[block]);
            EXPECT_EQ(row[1], std::to_string(rank));
            EXPECT_GE(std::stoll(row[2]), 0);
            EXPECT_FALSE(row[3].empty()); // Reuters NEWID
            const double score = std::stod(row[4]);
            EXPECT_GE(score, 0.0);
            EXPECT_LE(score, 1.0 + 1e-12);
            EXPECT_LE(score, previous);
            previous = score;
            // Foreground by default: every document is places=usa.
            EXPECT_NE(row[places].find("usa"), std::string::npos) << row[places];
            EXPECT_EQ(row[header.size() - 3], "1");
            EXPECT_FALSE(row.back().empty());
        }
    }
    const auto top = parseTsv(readText(out + "/top_words.tsv"));
    EXPECT_EQ(top[0].back(), "npmi");
}

TEST(CliTopicDocs, AllComponentsAndBackgroundPool) {
    TempDir dir;
    const std::string out = dir / "out";
    std::vector<std::string> args = demoArguments(out);
    args.insert(args.end(),
                {"--top-docs", "3", "--top-docs-from", "background", "--all-components"});
    const auto result = runCli(args, dir);
    ASSERT_EQ(result.exitCode, 0) << result.err;
    const auto rows = parseTsv(readText(out + "/topic_docs.tsv"));
    ASSERT_EQ(rows.size(), 1u + 8u * 3u);
    std::map<std::string, int> perTopic;
    const size_t topics =
        static_cast<size_t>(std::find(rows[0].begin(), rows[0].end(), "topics") - rows[0].begin());
    for (size_t r = 1; r < rows.size(); ++r) {
        ++perTopic[rows[r][0]];
        // Background: every document carries an economic-indicator topic.
        EXPECT_FALSE(rows[r][topics].empty());
    }
    EXPECT_EQ(perTopic.size(), 8u);
}

TEST(CliTopicDocs, BadCountGivesClearMessage) {
    TempDir dir;
    for (const std::string bad : {"-1", "many"}) {
        std::vector<std::string> args = demoArguments(dir / "out");
        args.insert(args.end(), {"--top-docs", bad});
        const auto result = runCli(args, dir);
        EXPECT_NE(result.exitCode, 0) << bad;
        EXPECT_NE(result.err.find("--top-docs"), std::string::npos) << result.err;
    }
    const auto from = runCli({"topics", "--corpus", "x", "--fg", "a=b", "--bg", "a=c", "--gamma",
                              "1", "--top-docs", "3", "--top-docs-from", "elsewhere"},
                             dir);
    EXPECT_NE(from.exitCode, 0);
    EXPECT_NE(from.err.find("--top-docs-from"), std::string::npos) << from.err;
    // Without --out there is nowhere to write topic_docs.tsv.
    const auto noOut =
        runCli({"topics", "--corpus", std::string(CX_SOURCE_DIR) + "/resources/demo/reuters",
                "--fg", "places=usa", "--bg", "topics=" + kEconomicIndicators, "--k", "8",
                "--gamma", "1", "--top-docs", "3"},
               dir);
    EXPECT_NE(noOut.exitCode, 0);
    EXPECT_NE(noOut.err.find("--top-docs"), std::string::npos) << noOut.err;
}

} // namespace
} // namespace cx
