#include "core/common/error.h"
#include "core/io/crowd_labels.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string fixture(const std::string& name) {
    return std::string(CX_TEST_DATA_DIR) + "/crowd/" + name;
}

std::string expectInputError(const std::string& labels, const std::string& gold = {}) {
    try {
        cx::readCrowdLabels(labels, gold);
    } catch (const cx::InputError& error) {
        return error.what();
    }
    ADD_FAILURE() << "no InputError for " << labels;
    return {};
}

std::string writeTemp(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("cx_crowd_" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

} // namespace

TEST(CrowdLabels, ReadsStringIdsCrlfQuotesAndGold) {
    const cx::CrowdLabels data =
        cx::readCrowdLabels(fixture("labels_strings.csv"), fixture("gold_strings.csv"));
    EXPECT_EQ(data.numItems, 3);
    EXPECT_EQ(data.numWorkers, 3);
    ASSERT_EQ(data.numClasses, 2);
    EXPECT_EQ(data.classNames[0], "cat"); // lexicographic for non-integer labels
    EXPECT_EQ(data.classNames[1], "dog");
    EXPECT_EQ(data.itemNames[2], "q3");
    EXPECT_EQ(data.observations.size(), 6u);
    EXPECT_EQ(data.at(0, 1), 1); // q1, bob, dog
    EXPECT_EQ(data.at(2, 2), 0); // q3, carol, "cat"
    EXPECT_EQ(data.at(1, 2), cx::CrowdLabels::kMissingLabel);
    EXPECT_EQ(data.gold[0], 0);
    EXPECT_EQ(data.gold[1], 1);
    EXPECT_EQ(data.gold[2], cx::CrowdLabels::kMissingLabel);
    EXPECT_EQ(data.numGold(), 2);
    ASSERT_EQ(data.warnings.size(), 1u); // q9 has no labels
    EXPECT_NE(data.warnings[0].find("q9"), std::string::npos);
}

TEST(CrowdLabels, ReadsSnowLayoutWithGoldColumnAndNumericClassOrder) {
    const cx::CrowdLabels data = cx::readCrowdLabels(fixture("snow_style.tsv"));
    EXPECT_EQ(data.numItems, 2);
    EXPECT_EQ(data.numWorkers, 2);
    ASSERT_EQ(data.numClasses, 2);
    EXPECT_EQ(data.classNames[0], "1");
    EXPECT_EQ(data.classNames[1], "2");
    EXPECT_EQ(data.gold[0], 0);
    EXPECT_EQ(data.gold[1], 1);
    EXPECT_EQ(data.at(0, 0), 1);
}

TEST(CrowdLabels, HeaderlessTriplesAndNumericOrderAboveNine) {
    const std::string path = writeTemp("headerless.tsv", "a\tw1\t10\nb\tw1\t9\nb\tw2\t10\n");
    const cx::CrowdLabels data = cx::readCrowdLabels(path);
    EXPECT_EQ(data.numItems, 2);
    ASSERT_EQ(data.numClasses, 2);
    EXPECT_EQ(data.classNames[0], "9");
    EXPECT_EQ(data.classNames[1], "10");
}

TEST(CrowdLabels, ErrorsNameFileLineAndProblem) {
    const std::string ragged = expectInputError(fixture("ragged.csv"));
    EXPECT_NE(ragged.find("ragged.csv:3"), std::string::npos) << ragged;
    EXPECT_NE(ragged.find("fields"), std::string::npos) << ragged;
    const std::string duplicate = expectInputError(fixture("duplicate.csv"));
    EXPECT_NE(duplicate.find("duplicate.csv:3"), std::string::npos) << duplicate;
    EXPECT_NE(duplicate.find("first on line 2"), std::string::npos) << duplicate;
    const std::string empty = expectInputError(writeTemp("empty.csv", ""));
    EXPECT_NE(empty.find("empty file"), std::string::npos) << empty;
    const std::string headerOnly = expectInputError(writeTemp("header.csv", "item,worker,label\n"));
    EXPECT_NE(headerOnly.find("no labels"), std::string::npos) << headerOnly;
    const std::string binary =
        expectInputError(writeTemp("binary.csv", std::string("a,b,c\n\0\x01,x,y\n", 13)));
    EXPECT_NE(binary.find(":2: binary"), std::string::npos) << binary;
    const std::string missingColumn =
        expectInputError(writeTemp("nolabel.csv", "item,worker,comment\n1,2,3\n"));
    EXPECT_NE(missingColumn.find(":1: header has no label column"), std::string::npos)
        << missingColumn;
    const std::string emptyField = expectInputError(writeTemp("emptyfield.csv", "1,,0\n"));
    EXPECT_NE(emptyField.find(":1: empty worker id"), std::string::npos) << emptyField;
    const std::string quote = expectInputError(writeTemp("quote.csv", "1,2,\"0\n"));
    EXPECT_NE(quote.find("unterminated"), std::string::npos) << quote;
    const std::string goldConflict = expectInputError(
        writeTemp("goldconflict.tsv", "item\tworker\tlabel\tgold\n1\ta\t0\t0\n1\tb\t0\t1\n"));
    EXPECT_NE(goldConflict.find(":3: gold label '1'"), std::string::npos) << goldConflict;
    const std::string noGoldItem =
        expectInputError(fixture("labels_strings.csv"), writeTemp("gold_unknown.csv", "zz,cat\n"));
    EXPECT_NE(noGoldItem.find("no gold item is among the labelled items"), std::string::npos)
        << noGoldItem;
    std::string many = "item,worker,label\n";
    for (int i = 0; i < 70; ++i) {
        many += "i" + std::to_string(i) + ",w,free text " + std::to_string(i) + "\n";
    }
    const std::string tooMany = expectInputError(writeTemp("many.csv", many));
    EXPECT_NE(tooMany.find(":66: more than 64 distinct labels"), std::string::npos) << tooMany;
    const std::string missingFile = expectInputError("/nonexistent/labels.csv");
    EXPECT_NE(missingFile.find("/nonexistent/labels.csv"), std::string::npos) << missingFile;
}

TEST(CrowdLabels, BluebirdAndSnowSetsLoadAsDocumented) {
    const std::string shared = CX_SHARED_DATA_DIR;
    if (!std::filesystem::exists(shared + "/crowd_bluebird/answer.csv")) {
        GTEST_SKIP() << "shared data not present";
    }
    const cx::CrowdLabels bird = cx::readCrowdLabels(shared + "/crowd_bluebird/answer.csv",
                                                     shared + "/crowd_bluebird/truth.csv");
    EXPECT_EQ(bird.numItems, 108);
    EXPECT_EQ(bird.numWorkers, 39);
    EXPECT_EQ(bird.observations.size(), 4212u);
    EXPECT_EQ(bird.numGold(), 108);
    const cx::CrowdLabels rte =
        cx::readCrowdLabels(shared + "/crowd_snow2008_rte_temp/rte.standardized.tsv");
    EXPECT_EQ(rte.numItems, 800);
    EXPECT_EQ(rte.numWorkers, 164);
    EXPECT_EQ(rte.numGold(), 800);
    const cx::CrowdLabels temp =
        cx::readCrowdLabels(shared + "/crowd_snow2008_rte_temp/temp.standardized.tsv");
    EXPECT_EQ(temp.numItems, 462);
    EXPECT_EQ(temp.numWorkers, 76);
    EXPECT_EQ(temp.classNames[0], "1");
}
