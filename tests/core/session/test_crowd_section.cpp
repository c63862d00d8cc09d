// core/session: the Crowd workspace's section round-trips and names bad values by JSON pointer.
#include "core/common/error.h"
#include "core/session/crowd_section.h"
#include "core/session/session.h"

#include <gtest/gtest.h>

#include <fstream>

#include <unistd.h>

namespace fs = std::filesystem;

TEST(CrowdSection, RoundTripsThroughASessionFile) {
    const fs::path folder =
        fs::temp_directory_path() / ("cx_crowd_section_" + std::to_string(::getpid()));
    fs::create_directories(folder);
    std::ofstream(folder / "labels.csv") << "item,worker,label\n1,a,0\n";
    std::ofstream(folder / "gold.csv") << "1,0\n";
    cx::CrowdSection section;
    section.labels = folder / "labels.csv";
    section.gold = folder / "gold.csv";
    section.method = "spectral-em";
    section.numComponents = 3;
    section.seed = 42;
    section.smoothing = 0.5;
    section.significance = 0.01;
    section.extensionSignificance = 0.2;
    section.extensionProcedure = "holm";
    section.workerFilter = "A1";
    section.compare = true;
    section.workerSortColumn = 2;
    section.workerSortDescending = true;
    cx::Session session;
    session.setSection(cx::CrowdSection::kKey, section.toJson(folder));
    cx::writeSession(session, folder / "s.cxproj");
    const cx::Session read = cx::readSession(folder / "s.cxproj");
    cx::PathResolver resolver(read.file);
    const cx::CrowdSection back = cx::CrowdSection::fromSession(read, resolver);
    EXPECT_EQ(back.labels, fs::absolute(folder / "labels.csv"));
    EXPECT_EQ(back.gold, fs::absolute(folder / "gold.csv"));
    EXPECT_EQ(back.method, "spectral-em");
    EXPECT_EQ(back.numComponents, 3);
    EXPECT_EQ(back.seed, 42u);
    EXPECT_DOUBLE_EQ(back.smoothing, 0.5);
    EXPECT_DOUBLE_EQ(back.options().significance, 0.01);
    EXPECT_DOUBLE_EQ(back.options().extensionSignificance, 0.2);
    EXPECT_EQ(back.extensionProcedure, "holm");
    EXPECT_EQ(back.options().extensionProcedure, cx::MultipleTesting::Holm);
    EXPECT_EQ(cx::CrowdSection().options().extensionProcedure,
              cx::MultipleTesting::BenjaminiHochberg);
    EXPECT_EQ(back.workerFilter, "A1");
    EXPECT_TRUE(back.compare);
    EXPECT_EQ(back.workerSortColumn, 2);
    EXPECT_TRUE(back.workerSortDescending);
    EXPECT_EQ(read.section("crowd").at("labels").at("path"), "labels.csv");

    cx::Session bad = read;
    cx::SessionJson json = bad.section("crowd");
    json["model"]["method"] = "glad";
    bad.setSection("crowd", json);
    try {
        cx::CrowdSection::fromSession(bad, resolver);
        ADD_FAILURE() << "accepted an unknown method";
    } catch (const cx::InputError& error) {
        EXPECT_NE(std::string(error.what()).find("/workspaces/crowd/model/method"),
                  std::string::npos)
            << error.what();
    }
    json["model"]["method"] = "mv";
    json["model"]["extension_procedure"] = "bonferroni";
    bad.setSection("crowd", json);
    try {
        cx::CrowdSection::fromSession(bad, resolver);
        ADD_FAILURE() << "accepted an unknown extension procedure";
    } catch (const cx::InputError& error) {
        EXPECT_NE(std::string(error.what()).find("/workspaces/crowd/model/extension_procedure"),
                  std::string::npos)
            << error.what();
    }
    json["model"]["extension_procedure"] = "bh";
    json["model"]["k"] = 1;
    bad.setSection("crowd", json);
    EXPECT_THROW(cx::CrowdSection::fromSession(bad, resolver), cx::InputError);
    fs::remove_all(folder);
}
