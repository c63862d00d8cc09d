// core/session: the bootstrap of a session:
// the resample count of the topics AUC sweep and the γ path, resamples and block length of the
// chromatin section round-trip; sessions written before the fields existed still open (no
// bootstrap); bad values are refused naming the file and the JSON entry.
#include "core/common/error.h"
#include "core/session/chromatin_section.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"
#include "core/session/topics_section.h"
#include "support/files.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include <unistd.h>

namespace cx {
namespace {

namespace fs = std::filesystem;
using test::inputErrorOf;
using test::readText;
using test::writeText;

/// A session file with one topics section whose "auc" object is `auc`.
std::string topicsSession(const std::string& auc) {
    return R"j({"format": "contrast-explorer-session", "version": 1, "workspaces": {
        "topics": {"corpus": [{"path": "c.tsv"}], "foreground": "a=b", "background": "a=c",
                   "auc": )j" +
           auc + "}}}";
}

/// A session file with one chromatin section whose "path" object is `path` (and `model`).
std::string chromatinSession(const std::string& path, const std::string& model = "{}") {
    return R"j({"format": "contrast-explorer-session", "version": 1, "workspaces": {
        "chromatin": {"tracks": [{"path": "t_binary.txt"}], "model": )j" +
           model + R"j(, "path": )j" + path + "}}}";
}

TEST(SessionBootstrap, TopicsResamplesRoundTripAndOldSessionsHaveNone) {
    test::TempDir folder;
    writeText(folder.path() / "c.tsv", "text\n");
    TopicsSection topics;
    topics.corpus = {folder.path() / "c.tsv"};
    topics.foreground = "a=b";
    topics.background = "a=c";
    topics.positive = "x=1";
    topics.bootstrap = 37;
    Session session;
    session.setSection(TopicsSection::kKey, topics.toJson(folder.path()));
    const fs::path file = folder.path() / "s.cxproj";
    writeSession(session, file);
    {
        const Session read = readSession(file);
        EXPECT_EQ(read.section("topics").at("auc").at("bootstrap"), 37);
        PathResolver resolver(read.file);
        EXPECT_EQ(TopicsSection::fromSession(read, resolver).bootstrap, 37);
    }
    // No bootstrap: the key is not written, and a file without it (older sessions) reads as 0.
    topics.bootstrap = 0;
    session.setSection(TopicsSection::kKey, topics.toJson(folder.path()));
    writeSession(session, file);
    const Session read = readSession(file);
    EXPECT_FALSE(read.section("topics").at("auc").contains("bootstrap"));
    PathResolver resolver(read.file);
    EXPECT_EQ(TopicsSection::fromSession(read, resolver).bootstrap, 0);
    writeText(file, topicsSession(R"j({"positive": "x=1", "gammas": "0:1:0.5"})j"));
    const Session old = readSession(file);
    PathResolver oldResolver(old.file);
    EXPECT_EQ(TopicsSection::fromSession(old, oldResolver).bootstrap, 0);
    // The split-half check: on by default and written; older sessions (without the key) had
    // none and reopen without it, so their notes stay the same.
    EXPECT_TRUE(TopicsSection().splitHalf);
    EXPECT_TRUE(TopicsSection::fromSession(read, resolver).splitHalf);
    EXPECT_EQ(read.section("topics").at("auc").at("split_half"), true);
    EXPECT_FALSE(TopicsSection::fromSession(old, oldResolver).splitHalf);
    topics.splitHalf = false;
    session.setSection(TopicsSection::kKey, topics.toJson(folder.path()));
    writeSession(session, file);
    const Session off = readSession(file);
    PathResolver offResolver(off.file);
    EXPECT_FALSE(TopicsSection::fromSession(off, offResolver).splitHalf);
    writeText(file, topicsSession(R"j({"positive": "x=1", "split_half": "yes"})j"));
    PathResolver badResolver(file);
    EXPECT_THROW((void)TopicsSection::fromSession(readSession(file), badResolver), InputError);
}

TEST(SessionBootstrap, ChromatinPathAndBootstrapRoundTripAndOldSessionsHaveNone) {
    test::TempDir folder;
    writeText(folder.path() / "t_binary.txt", "x\n");
    ChromatinSection chromatin;
    chromatin.tracks = {folder.path() / "t_binary.txt"};
    chromatin.gammaPath = "0:4:0.1";
    chromatin.pathStarts = "fresh";
    chromatin.bootstrap = 20;
    chromatin.blockLength = 150;
    Session session;
    session.setSection(ChromatinSection::kKey, chromatin.toJson(folder.path()));
    const fs::path file = folder.path() / "s.cxproj";
    writeSession(session, file);
    {
        const Session read = readSession(file);
        PathResolver resolver(read.file);
        const ChromatinSection back = ChromatinSection::fromSession(read, resolver);
        EXPECT_EQ(back.gammaPath, "0:4:0.1");
        EXPECT_EQ(back.pathStarts, "fresh");
        EXPECT_EQ(back.bootstrap, 20);
        EXPECT_EQ(back.blockLength, 150);
    }
    // A path without a bootstrap writes neither resamples nor block length.
    chromatin.bootstrap = 0;
    chromatin.blockLength = 0;
    session.setSection(ChromatinSection::kKey, chromatin.toJson(folder.path()));
    writeSession(session, file);
    {
        const Session read = readSession(file);
        EXPECT_FALSE(read.section("chromatin").at("path").contains("bootstrap"));
        PathResolver resolver(read.file);
        const ChromatinSection back = ChromatinSection::fromSession(read, resolver);
        EXPECT_EQ(back.gammaPath, "0:4:0.1");
        EXPECT_EQ(back.bootstrap, 0);
    }
    // No path at all: no "path" key; an old session without it reads as no path.
    chromatin.gammaPath.clear();
    session.setSection(ChromatinSection::kKey, chromatin.toJson(folder.path()));
    writeSession(session, file);
    EXPECT_FALSE(readSession(file).section("chromatin").contains("path"));
    writeText(file, R"j({"format": "contrast-explorer-session", "version": 1, "workspaces": {
        "chromatin": {"tracks": [{"path": "t_binary.txt"}], "model": {"k": 5}}}})j");
    const Session old = readSession(file);
    PathResolver resolver(old.file);
    const ChromatinSection back = ChromatinSection::fromSession(old, resolver);
    EXPECT_TRUE(back.gammaPath.empty());
    EXPECT_EQ(back.bootstrap, 0);
    EXPECT_EQ(back.blockLength, 0);
}

TEST(SessionBootstrap, BadResampleCountsNameTheFileAndTheEntry) {
    test::TempDir folder;
    writeText(folder.path() / "c.tsv", "text\n");
    writeText(folder.path() / "t_binary.txt", "x\n");
    const fs::path file = folder.path() / "bad.cxproj";
    const auto topicsError = [&](const std::string& auc) {
        writeText(file, topicsSession(auc));
        const Session session = readSession(file);
        PathResolver resolver(session.file);
        return inputErrorOf([&] { TopicsSection::fromSession(session, resolver); });
    };
    const auto chromatinError = [&](const std::string& path, const std::string& model = "{}") {
        writeText(file, chromatinSession(path, model));
        const Session session = readSession(file);
        PathResolver resolver(session.file);
        return inputErrorOf([&] { ChromatinSection::fromSession(session, resolver); });
    };
    const std::string topicsEntry = file.string() + ": /workspaces/topics/auc/bootstrap: ";
    const std::string expected =
        "expected a whole number of bootstrap resamples: 0 (none) or 2 to 10000, got ";
    EXPECT_EQ(topicsError(R"j({"positive": "x=1", "bootstrap": 1})j"),
              topicsEntry + expected + "1");
    EXPECT_EQ(topicsError(R"j({"positive": "x=1", "bootstrap": -5})j"),
              topicsEntry + expected + "-5");
    EXPECT_EQ(topicsError(R"j({"positive": "x=1", "bootstrap": 2.5})j"),
              topicsEntry + expected + "2.5");
    EXPECT_EQ(topicsError(R"j({"positive": "x=1", "bootstrap": "20"})j"),
              topicsEntry + expected + "a string");
    EXPECT_EQ(topicsError(R"j({"positive": "x=1", "bootstrap": 10001})j"),
              topicsEntry + expected + "10001");
    EXPECT_EQ(topicsError(R"j({"bootstrap": 20})j"),
              topicsEntry + "needs the positive rule (the bootstrap resamples the AUC sweep)");
    EXPECT_EQ(topicsError(R"j({"positive": "x=1", "bootstrap": 0})j"), "(no error)");
    EXPECT_EQ(topicsError(R"j({"positive": "x=1", "bootstrap": 2})j"), "(no error)");

    const std::string pathEntry = file.string() + ": /workspaces/chromatin/path/";
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:2:0.1", "bootstrap": 1})j"),
              pathEntry + "bootstrap: " + expected + "1");
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:2:0.1", "bootstrap": -1})j"),
              pathEntry + "bootstrap: " + expected + "-1");
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:2:0.1", "bootstrap": 20.5})j"),
              pathEntry + "bootstrap: " + expected + "20.5");
    EXPECT_EQ(chromatinError(R"j({"bootstrap": 20})j"),
              pathEntry + "gammas: missing: the bootstrap resamples the γ path (FROM:TO:STEP)");
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:2:0.1", "block_length": 100})j"),
              pathEntry + "block_length: needs a bootstrap (path/bootstrap ≥ 2)");
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:2:0.1", "bootstrap": 20, "block_length": -3})j"),
              pathEntry + "block_length: must lie in [0, 1000000000], got -3");
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:2"})j"),
              pathEntry + "gammas: \"0:2\" is not FROM:TO:STEP with FROM ≥ 0, STEP > 0, TO ≥ FROM");
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:x:0.1"})j"),
              pathEntry + "gammas: \"0:x:0.1\" is not FROM:TO:STEP with finite numbers");
    EXPECT_EQ(chromatinError(R"j({"gammas": "1:0:0.1"})j"),
              pathEntry +
                  "gammas: \"1:0:0.1\" is not FROM:TO:STEP with FROM ≥ 0, STEP > 0, TO ≥ FROM");
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:2:0.1", "starts": "warm"})j"),
              pathEntry + "starts: 'warm' is not one of continued, fresh");
    EXPECT_NE(chromatinError(R"j({"gammas": "0:2:0.1"})j", R"j({"method": "em"})j")
                  .find("path/gammas: a γ path needs the spectral method"),
              std::string::npos);
    EXPECT_EQ(chromatinError(R"j({"gammas": "0:2:0.1", "bootstrap": 20, "block_length": 7})j"),
              "(no error)");
}

} // namespace
} // namespace cx
