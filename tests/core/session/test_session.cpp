// core/session: the .cxproj schema: round trips, preserved sections, errors
// naming file and JSON pointer or line, newer versions refused, legacy descriptors migrated,
// atomic writes under a failing write, and data that moved.
#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/session/chromatin_section.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"
#include "core/session/topics_section.h"
#include "support/files.h"
#include "test_helpers.h"

#include "support/file_size_limit.h"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>

#include <sys/resource.h>
#include <unistd.h>

namespace cx {
namespace {

namespace fs = std::filesystem;
using test::inputErrorOf;
using test::readText;
using test::writeText;

TopicsSection sampleTopics(const fs::path& data) {
    TopicsSection topics;
    topics.corpus = {data / "corpus" / "docword.x.txt", data / "corpus" / "vocab.x.txt"};
    topics.reader.format = CorpusFormat::UciBagOfWords;
    topics.reader.minDocumentFrequency = 3;
    topics.reader.maxDocumentFraction = 0.5;
    topics.reader.removeNumbers = true;
    topics.reader.removeStopWords = false;
    topics.foreground = "places=usa";
    topics.background = "topics=gnp,cpi";
    topics.method = "direct";
    topics.numComponents = 7;
    topics.gamma = 1.75;
    topics.seed = 12345678901234ULL;
    topics.iterations = 55;
    topics.restarts = 4;
    topics.decomposition = "jennrich";
    topics.smoothing = 0.02;
    topics.positive = "!topics=gnp";
    topics.aucGammas = "0:2:0.5";
    topics.topWords = 12;
    topics.allComponents = true;
    topics.savedBy = "sweep";
    topics.topicNames = {{0, "Grain exports"}, {12, "Ölpreis \"Brent\""}};
    return topics;
}

ChromatinSection sampleChromatin(const fs::path& data) {
    ChromatinSection chromatin;
    chromatin.tracks = {data / "tracks" / "a_binary.txt.gz", data / "tracks" / "b_binary.txt.gz"};
    chromatin.annotations = {{data / "tracks" / "COORDS" / "genes.bed.gz", true, false, true, true},
                             {data / "tracks" / "COORDS" / "cpg.bed", false, true, false, false}};
    chromatin.binSize = 400;
    chromatin.numComponents = 6;
    chromatin.gamma = 0.85;
    chromatin.seed = 3;
    chromatin.encoding = "combinations";
    chromatin.decode = "viterbi";
    chromatin.extraComponents = 0;
    chromatin.scaling = "whiten";
    chromatin.refineEm = 5;
    chromatin.emTolerance = 1e-7;
    chromatin.segments = false;
    chromatin.region = "chr11:5000000-5800000";
    chromatin.states = {{"active promoter", "#ff0000", true, {0.91, 0.125}},
                        {"quiescent", "#ffffff", false, {0.0, 0.015625}}};
    return chromatin;
}

void createDataFiles(const TopicsSection& topics, const ChromatinSection& chromatin) {
    for (const auto& path : topics.corpus) {
        writeText(path, "x\n");
    }
    for (const auto& path : chromatin.tracks) {
        writeText(path, "x\n");
    }
    for (const auto& annotation : chromatin.annotations) {
        writeText(annotation.path, "x\n");
    }
}

void expectSameTopics(const TopicsSection& a, const TopicsSection& b) {
    EXPECT_EQ(a.corpus, b.corpus);
    EXPECT_EQ(a.reader.format, b.reader.format);
    EXPECT_EQ(a.reader.minDocumentFrequency, b.reader.minDocumentFrequency);
    EXPECT_EQ(a.reader.maxDocumentFraction, b.reader.maxDocumentFraction);
    EXPECT_EQ(a.reader.removeNumbers, b.reader.removeNumbers);
    EXPECT_EQ(a.reader.removeStopWords, b.reader.removeStopWords);
    EXPECT_EQ(a.foreground, b.foreground);
    EXPECT_EQ(a.backgroundMode, b.backgroundMode);
    EXPECT_EQ(a.background, b.background);
    EXPECT_EQ(a.method, b.method);
    EXPECT_EQ(a.numComponents, b.numComponents);
    EXPECT_EQ(a.gamma, b.gamma); // exact: JSON numbers round-trip doubles
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.restarts, b.restarts);
    EXPECT_EQ(a.smoothing, b.smoothing);
    EXPECT_EQ(a.smoothingPrior, b.smoothingPrior);
    EXPECT_EQ(a.positive, b.positive);
    EXPECT_EQ(a.aucGammas, b.aucGammas);
    EXPECT_EQ(a.topWords, b.topWords);
    EXPECT_EQ(a.decomposition, b.decomposition);
    EXPECT_EQ(a.allComponents, b.allComponents);
    EXPECT_EQ(a.savedBy, b.savedBy);
    EXPECT_EQ(a.topicNames, b.topicNames);
}

TEST(Session, RoundTripsBothWorkspacesExactly) {
    test::TempDir folder;
    const TopicsSection topics = sampleTopics(folder.path() / "data");
    const ChromatinSection chromatin = sampleChromatin(folder.path() / "data");
    createDataFiles(topics, chromatin);

    Session session;
    session.title = "both";
    session.active = "chromatin";
    const fs::path file = folder.path() / "project" / "analysis.cxproj";
    fs::create_directories(file.parent_path());
    session.setSection(TopicsSection::kKey, topics.toJson(file.parent_path()));
    session.setSection(ChromatinSection::kKey, chromatin.toJson(file.parent_path()));
    writeSession(session, file);

    const std::string text = readText(file);
    EXPECT_NE(text.find("\"format\": \"contrast-explorer-session\""), std::string::npos);
    EXPECT_NE(text.find("\"path\": \"../data/corpus/docword.x.txt\""), std::string::npos) << text;

    const Session read = readSession(file);
    EXPECT_EQ(read.title, "both");
    EXPECT_EQ(read.active, "chromatin");
    EXPECT_EQ(read.fileVersion, Session::kVersion);
    PathResolver resolver(read.file);
    expectSameTopics(TopicsSection::fromSession(read, resolver), topics);
    const ChromatinSection back = ChromatinSection::fromSession(read, resolver);
    EXPECT_EQ(back.tracks, chromatin.tracks);
    ASSERT_EQ(back.annotations.size(), 2u);
    EXPECT_EQ(back.annotations[1].path, chromatin.annotations[1].path);
    EXPECT_TRUE(back.annotations[1].background);
    EXPECT_FALSE(back.annotations[1].enrichment);
    EXPECT_EQ(back.foregroundRegions(), chromatin.foregroundRegions());
    EXPECT_EQ(back.binSize, 400);
    EXPECT_EQ(back.gamma, 0.85);
    EXPECT_EQ(back.encoding, "combinations");
    EXPECT_EQ(back.decode, "viterbi");
    EXPECT_EQ(back.extraComponents, 0);
    EXPECT_EQ(back.scaling, "whiten");
    EXPECT_EQ(back.emTolerance, 1e-7);
    EXPECT_FALSE(back.segments);
    EXPECT_EQ(back.region, chromatin.region);
    ASSERT_EQ(back.states.size(), 2u);
    EXPECT_EQ(back.states[0].name, "active promoter");
    EXPECT_EQ(back.states[1].colour, "#ffffff");
    EXPECT_TRUE(back.states[0].renamed);
    EXPECT_FALSE(back.states[1].renamed);
    EXPECT_EQ(back.states[1].profile, (std::vector<double>{0.0, 0.015625}));
    // Writing what was read gives the same bytes.
    Session again = read;
    writeSession(again, folder.path() / "project" / "again.cxproj");
    EXPECT_EQ(readText(folder.path() / "project" / "again.cxproj"), text);
}

TEST(Session, ChromatinReadsRoundTripAndBadOnesNameThePointer) {
    test::TempDir folder;
    ChromatinSection chromatin = sampleChromatin(folder.path() / "data");
    const fs::path reads = folder.path() / "data" / "reads";
    ChromatinSection::Reads origin;
    origin.entries = {{"C1", "H3K4me3", reads / "C1_H3K4me3.bam", reads / "C1_input.bam"},
                      {"C1", "H3K27ac", reads / "C1_H3K27ac.bam", {}}};
    origin.chromSizes = reads / "chrom.sizes";
    origin.outDir = folder.path() / "data" / "tracks";
    origin.options.format = BinarizeFormat::Bam;
    origin.options.binSize = 100;
    origin.options.poissonThreshold = 0.01;
    origin.options.flankWidth = 2;
    origin.options.paired = true;
    origin.options.gzip = true;
    chromatin.reads = origin;
    for (const auto& path : chromatin.tracks) {
        writeText(path, "x\n");
    }
    for (const auto& annotation : chromatin.annotations) {
        writeText(annotation.path, "x\n");
    }
    for (const char* name : {"C1_H3K4me3.bam", "C1_input.bam", "C1_H3K27ac.bam", "chrom.sizes"}) {
        writeText(reads / name, "x\n");
    }
    Session session;
    const fs::path file = folder.path() / "project" / "reads.cxproj";
    fs::create_directories(file.parent_path());
    session.setSection(ChromatinSection::kKey, chromatin.toJson(file.parent_path()));
    writeSession(session, file);
    const Session read = readSession(file);
    PathResolver resolver(read.file);
    const ChromatinSection back = ChromatinSection::fromSession(read, resolver);
    ASSERT_TRUE(back.reads.has_value());
    ASSERT_EQ(back.reads->entries.size(), 2u);
    EXPECT_EQ(back.reads->entries[0].cell, "C1");
    EXPECT_EQ(back.reads->entries[0].mark, "H3K4me3");
    EXPECT_EQ(back.reads->entries[0].file, origin.entries[0].file);
    EXPECT_EQ(back.reads->entries[0].control, origin.entries[0].control);
    EXPECT_TRUE(back.reads->entries[1].control.empty());
    EXPECT_EQ(back.reads->chromSizes, origin.chromSizes);
    EXPECT_EQ(back.reads->outDir, origin.outDir);
    EXPECT_EQ(back.reads->options.format, BinarizeFormat::Bam);
    EXPECT_EQ(back.reads->options.binSize, 100);
    EXPECT_EQ(back.reads->options.poissonThreshold, 0.01);
    EXPECT_EQ(back.reads->options.flankWidth, 2);
    EXPECT_TRUE(back.reads->options.paired);
    EXPECT_TRUE(back.reads->options.gzip);
    EXPECT_EQ(back.reads->options.shift, 100); // defaults kept
    // A section without reads has none.
    EXPECT_FALSE(
        sampleChromatin(folder.path() / "data").toJson(file.parent_path()).contains("reads"));

    // Bad: a read without its mark, a threshold out of range.
    for (const auto& [edit, pointer] :
         std::vector<std::pair<std::function<void(SessionJson&)>, std::string>>{
             {[](SessionJson& j) { j["reads"]["files"][1].erase("mark"); },
              "/workspaces/chromatin/reads/files/1/mark"},
             {[](SessionJson& j) { j["reads"]["options"]["poisson_threshold"] = 2; },
              "/workspaces/chromatin/reads/options/poisson_threshold"}}) {
        Session bad = read;
        SessionJson section = bad.section(ChromatinSection::kKey);
        edit(section);
        bad.setSection(ChromatinSection::kKey, section);
        PathResolver badResolver(bad.file);
        try {
            ChromatinSection::fromSession(bad, badResolver);
            ADD_FAILURE() << "accepted a bad " << pointer;
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find(pointer), std::string::npos) << error.what();
        }
    }
}

TEST(Session, TopicsSmoothingZeroMeansTheJeffreysRuleAndRoundTrips) {
    // 0 is kAutoSmoothing (the Jeffreys rule, the CLI default); a session saved with it must
    // reopen.
    test::TempDir folder;
    TopicsSection topics = sampleTopics(folder.path() / "data");
    topics.smoothing = 0.0;
    const ChromatinSection chromatin = sampleChromatin(folder.path() / "data");
    createDataFiles(topics, chromatin);
    Session session;
    const fs::path file = folder.path() / "auto.cxproj";
    session.setSection(TopicsSection::kKey, topics.toJson(file.parent_path()));
    writeSession(session, file);
    const Session read = readSession(file);
    PathResolver resolver(read.file);
    expectSameTopics(TopicsSection::fromSession(read, resolver), topics);
    EXPECT_EQ(TopicsSection().smoothing, 0.0) << "the default is the CLI's default";
    EXPECT_EQ(TopicsSection().smoothingPrior, "frequency") << "the default is the CLI's default";
    for (const char* prior : {"frequency", "uniform"}) {
        topics.smoothingPrior = prior;
        session.setSection(TopicsSection::kKey, topics.toJson(file.parent_path()));
        writeSession(session, file);
        const Session again = readSession(file);
        PathResolver againResolver(again.file);
        expectSameTopics(TopicsSection::fromSession(again, againResolver), topics);
    }
    EXPECT_TRUE(TopicsSection().reader.removeNumbers) << "the default is the CLI's default";
}

TEST(Session, TopicsWithoutASmoothingPriorReopenWithTheUniformOneTheyWereScoredWith) {
    // Sessions saved before "smoothing_prior" existed scored the AUC with the uniform (Jeffreys)
    // prior: they must reopen to the same numbers, not with the newer default.
    test::TempDir folder;
    writeText(folder.path() / "c.tsv", "text\n");
    const fs::path file = folder.path() / "old.cxproj";
    writeText(file, R"j({"format": "contrast-explorer-session", "version": 1, "workspaces": {
        "topics": {"corpus": [{"path": "c.tsv"}], "foreground": "a=b", "background": "a=c",
                   "model": {"k": 3, "smoothing": 0}}}})j");
    const Session session = readSession(file);
    PathResolver resolver(session.file);
    EXPECT_EQ(TopicsSection::fromSession(session, resolver).smoothingPrior, "uniform");
}

TEST(Session, TopicsSavedBeforeAForegroundWasChosenReopen) {
    // The GUI saves a corpus with nothing selected as an empty foreground (found by the seeded
    // random-action journey: such a session was written and then refused on reopening).
    test::TempDir folder;
    writeText(folder.path() / "c.tsv", "text\n");
    TopicsSection topics;
    topics.corpus.emplace_back(folder.path() / "c.tsv");
    Session session;
    session.setSection(TopicsSection::kKey, topics.toJson(folder.path()));
    const fs::path file = folder.path() / "unselected.cxproj";
    writeSession(session, file);
    const Session back = readSession(file);
    PathResolver resolver(back.file);
    const TopicsSection reopened = TopicsSection::fromSession(back, resolver);
    EXPECT_TRUE(reopened.foreground.empty());
    EXPECT_EQ(reopened.corpus.size(), 1U);
    // With a foreground, the background is still required.
    writeText(file, R"j({"format": "contrast-explorer-session", "version": 1, "workspaces": {
        "topics": {"corpus": [{"path": "c.tsv"}], "foreground": "a=b"}}})j");
    const Session selected = readSession(file);
    PathResolver selectedResolver(selected.file);
    EXPECT_THROW(TopicsSection::fromSession(selected, selectedResolver), InputError);
}

TEST(Session, KeepsSectionsAndKeysItDoesNotKnow) {
    test::TempDir folder;
    const fs::path file = folder.path() / "s.cxproj";
    writeText(file, R"j({"format": "contrast-explorer-session", "version": 1, "active": "tree",
        "workspaces": {"tree": {"tracks": [{"path": "x.gz", "absolute": "/elsewhere/x.gz"}],
                                "tree": "((a,b),c)", "k": 5}},
        "comment": {"by": "a newer workspace"}})j");
    Session session = readSession(file);
    EXPECT_TRUE(session.hasSection("tree"));
    writeText(folder.path() / "corpus.tsv", "text\tlabel\nsome words here\ta\n");
    TopicsSection topics;
    topics.corpus = {folder.path() / "corpus.tsv"};
    topics.foreground = "label=a";
    topics.backgroundMode = "not_foreground";
    session.setSection(TopicsSection::kKey, topics.toJson(session.directory()));
    // Save As into a subfolder: the unknown section's relative path follows.
    const fs::path moved = folder.path() / "sub" / "s.cxproj";
    fs::create_directories(moved.parent_path());
    writeSession(session, moved);
    const Session read = readSession(moved);
    EXPECT_EQ(read.active, "tree");
    EXPECT_EQ(read.section("tree").at("tree"), "((a,b),c)");
    EXPECT_EQ(read.section("tree").at("k"), 5);
    EXPECT_EQ(read.section("tree").at("tracks").at(0).at("path"), "../x.gz");
    EXPECT_EQ(read.extra.at("comment").at("by"), "a newer workspace");
    PathResolver resolver(read.file);
    const TopicsSection back = TopicsSection::fromSession(read, resolver);
    EXPECT_EQ(back.backgroundMode, "not_foreground");
    EXPECT_EQ(back.corpus.front(), folder.path() / "corpus.tsv");
}

TEST(Session, MalformedJsonNamesFileAndLine) {
    test::TempDir folder;
    const fs::path file = folder.path() / "broken.cxproj";
    writeText(file, "{\n  \"format\": \"contrast-explorer-session\",\n  \"version\": 1,\n"
                    "  \"workspaces\": {,}\n}\n");
    const std::string message = inputErrorOf([&] { readSession(file); });
    EXPECT_EQ(message.rfind(file.string() + ":4: not valid JSON", 0), 0u) << message;
    writeText(file, "");
    EXPECT_NE(inputErrorOf([&] { readSession(file); }).find(file.string() + ":1: not valid JSON"),
              std::string::npos);
    writeText(file, "[1, 2]");
    EXPECT_NE(inputErrorOf([&] { readSession(file); }).find("expected a JSON object"),
              std::string::npos);
    EXPECT_NE(
        inputErrorOf([&] { readSession(folder.path() / "missing.cxproj"); }).find("missing.cxproj"),
        std::string::npos);
}

TEST(Session, RefusesNewerVersionsAndOtherFiles) {
    test::TempDir folder;
    const fs::path file = folder.path() / "future.cxproj";
    writeText(file, R"j({"format": "contrast-explorer-session", "version": 2, "workspaces": {}})j");
    const std::string newer = inputErrorOf([&] { readSession(file); });
    EXPECT_NE(newer.find(file.string() +
                         ": written by a newer Contrast Explorer (session version 2; "
                         "this one reads up to version 1)"),
              std::string::npos)
        << newer;
    writeText(file, R"j({"format": "contrast-explorer-session", "version": "1"})j");
    EXPECT_NE(inputErrorOf([&] { readSession(file); }).find("/version: expected an integer"),
              std::string::npos);
    writeText(file, R"j({"format": "something-else", "version": 1})j");
    EXPECT_NE(inputErrorOf([&] {
                  readSession(file);
              }).find("/format: expected \"contrast-explorer-session\""),
              std::string::npos);
    writeText(file, R"j({"hello": 1})j");
    EXPECT_NE(inputErrorOf([&] { readSession(file); }).find("not a Contrast Explorer session"),
              std::string::npos);
    writeText(file, R"j({"format": "contrast-explorer-session", "version": 1, "active": "topics",
                        "workspaces": {}})j");
    EXPECT_NE(inputErrorOf([&] { readSession(file); }).find("/active: names no workspace"),
              std::string::npos);
}

TEST(Session, InvalidValuesNameTheJsonPointer) {
    test::TempDir folder;
    writeText(folder.path() / "c.tsv", "text\n");
    const fs::path file = folder.path() / "bad.cxproj";
    const auto sectionError = [&](const std::string& model) {
        writeText(file, R"j({"format": "contrast-explorer-session", "version": 1, "workspaces": {
            "topics": {"corpus": [{"path": "c.tsv"}], "foreground": "a=b", "background": "a=c",
                       "model": )j" +
                            model + "}}}");
        const Session session = readSession(file);
        PathResolver resolver(session.file);
        return inputErrorOf([&] { TopicsSection::fromSession(session, resolver); });
    };
    EXPECT_NE(sectionError(R"j({"k": "ten"})j")
                  .find(file.string() +
                        ": /workspaces/topics/model/k: expected an integer, got a string"),
              std::string::npos);
    EXPECT_NE(sectionError(R"j({"k": 0})j")
                  .find("/workspaces/topics/model/k: must lie in [1, 1000], got 0"),
              std::string::npos);
    EXPECT_NE(
        sectionError(R"j({"gamma": -1})j").find("/workspaces/topics/model/gamma: must be a number"),
        std::string::npos);
    EXPECT_NE(sectionError(R"j({"method": "magic"})j")
                  .find("/workspaces/topics/model/method: 'magic' is not one of projected, direct"),
              std::string::npos);
    EXPECT_NE(sectionError(R"j([1])j").find("/workspaces/topics/model: expected an object"),
              std::string::npos);
    EXPECT_NE(sectionError(R"j({"smoothing_prior": "zipf"})j")
                  .find("/workspaces/topics/model/smoothing_prior: 'zipf' is not one of frequency, "
                        "uniform"),
              std::string::npos);
    EXPECT_EQ(sectionError(R"j({"k": 3})j"), "(no error)");
    // Topic names: identity → name.
    const auto viewError = [&](const std::string& view) {
        writeText(file, R"j({"format": "contrast-explorer-session", "version": 1, "workspaces": {
            "topics": {"corpus": [{"path": "c.tsv"}], "foreground": "a=b", "background": "a=c",
                       "view": )j" +
                            view + "}}}");
        const Session session = readSession(file);
        PathResolver resolver(session.file);
        return inputErrorOf([&] { TopicsSection::fromSession(session, resolver); });
    };
    EXPECT_NE(
        viewError(R"j({"names": ["a"]})j").find("/workspaces/topics/view/names: must be an object"),
        std::string::npos);
    EXPECT_NE(
        viewError(R"j({"names": {"T3": "a"}})j").find("/workspaces/topics/view/names: entry 'T3'"),
        std::string::npos);
    EXPECT_NE(viewError(R"j({"names": {"3": 4}})j").find("entry '3'"), std::string::npos);
    EXPECT_EQ(viewError(R"j({"names": {"3": "Grain"}})j"), "(no error)");
}

TEST(Session, MigratesPreSessionDescriptors) {
    // The pre-session analysis descriptors (the old resources/demo/*.json) still open.
    test::TempDir folder;
    writeText(folder.path() / "a_binary.txt", "x\n");
    writeText(folder.path() / "genes.bed", "x\n");
    const fs::path chromatinFile = folder.path() / "analysis.json";
    writeText(chromatinFile, R"j({"version": 1, "title": "old", "tracks": ["a_binary.txt"],
        "annotations": [{"path": "genes.bed", "foreground": true, "lane": true}],
        "k": 5, "gamma": 0.5, "seed": 2, "encoding": "marks", "decode": "viterbi",
        "region": "chr1:1-1000"})j");
    const Session chromatinSession = readSession(chromatinFile);
    EXPECT_EQ(chromatinSession.fileVersion, 0);
    EXPECT_EQ(chromatinSession.active, "chromatin");
    EXPECT_EQ(chromatinSession.title, "old");
    PathResolver resolver(chromatinSession.file);
    const ChromatinSection chromatin = ChromatinSection::fromSession(chromatinSession, resolver);
    EXPECT_EQ(chromatin.tracks.front(), folder.path() / "a_binary.txt");
    EXPECT_EQ(chromatin.numComponents, 5);
    EXPECT_EQ(chromatin.gamma, 0.5);
    EXPECT_EQ(chromatin.decode, "viterbi");
    EXPECT_EQ(chromatin.region, "chr1:1-1000");
    ASSERT_EQ(chromatin.annotations.size(), 1u);
    EXPECT_TRUE(chromatin.annotations[0].foreground);
    EXPECT_TRUE(chromatin.annotations[0].lane);

    writeText(folder.path() / "reuters" / "reut2-000.sgm", "x\n");
    const fs::path topicsFile = folder.path() / "demo.json";
    writeText(topicsFile, R"j({"version": 1, "corpus": "reuters", "format": "reuters",
        "foreground": "places=usa", "background": "topics=gnp", "positive": "!topics=gnp",
        "k": 10, "gamma": 2.0, "seed": 1, "drop_numbers": true, "max_df": 0.5, "min_df": 2})j");
    const Session topicsSession = readSession(topicsFile);
    PathResolver topicsResolver(topicsSession.file);
    const TopicsSection topics = TopicsSection::fromSession(topicsSession, topicsResolver);
    EXPECT_EQ(topics.corpus.front(), folder.path() / "reuters");
    EXPECT_EQ(topics.reader.format, CorpusFormat::Reuters);
    EXPECT_TRUE(topics.reader.removeNumbers);
    EXPECT_EQ(topics.reader.maxDocumentFraction, 0.5);
    EXPECT_EQ(topics.background, "topics=gnp");
    EXPECT_EQ(topics.positive, "!topics=gnp");
    EXPECT_EQ(topics.gamma, 2.0);
}

TEST(Session, BundledDemoSessionsRead) {
    for (const char* name : {"demo/demo.cxproj"}) {
        const fs::path file = fs::path(CX_SOURCE_DIR) / "resources" / name;
        const Session session = readSession(file);
        PathResolver resolver(session.file);
        if (session.hasSection(TopicsSection::kKey)) {
            EXPECT_EQ(TopicsSection::fromSession(session, resolver).corpus.size(), 1u);
        }
        if (session.hasSection(ChromatinSection::kKey)) {
            EXPECT_EQ(ChromatinSection::fromSession(session, resolver).tracks.size(), 2u);
        }
        EXPECT_FALSE(session.active.empty()) << name;
    }
}

using cx::test::FileSizeLimit;

TEST(Session, FailedWriteLeavesTheOldFileIntact) {
    test::TempDir folder;
    const fs::path file = folder.path() / "keep.cxproj";
    Session session;
    session.title = "old";
    writeSession(session, file);
    const std::string before = readText(file);

    Session bigger;
    bigger.title = std::string(4096, 'x');
    {
        FileSizeLimit limit(256);
        const std::string message = inputErrorOf([&] { writeSession(bigger, file); });
        EXPECT_NE(message.find(file.string() + ": write failed"), std::string::npos) << message;
    }
    EXPECT_EQ(readText(file), before);
    EXPECT_TRUE(bigger.file.empty()) << "a failed write must not adopt the new name";
    for (const auto& entry : fs::directory_iterator(folder.path())) {
        EXPECT_EQ(entry.path().filename(), "keep.cxproj") << "temporary left behind";
    }
    // A folder that does not exist: refused, naming the target.
    const fs::path nowhere = folder.path() / "no" / "such" / "s.cxproj";
    EXPECT_NE(inputErrorOf([&] {
                  writeSession(bigger, nowhere);
              }).find(nowhere.string() + ": cannot write"),
              std::string::npos);
}

TEST(Session, RelativePathsWinSoAProjectFolderCanMove) {
    test::TempDir folder;
    const TopicsSection topics = sampleTopics(folder.path() / "project" / "data");
    const ChromatinSection chromatin = sampleChromatin(folder.path() / "project" / "data");
    createDataFiles(topics, chromatin);
    Session session;
    const fs::path file = folder.path() / "project" / "s.cxproj";
    session.setSection(TopicsSection::kKey, topics.toJson(file.parent_path()));
    writeSession(session, file);
    fs::rename(folder.path() / "project", folder.path() / "renamed");
    const Session read = readSession(folder.path() / "renamed" / "s.cxproj");
    PathResolver resolver(read.file, [](const fs::path&, const std::string&) {
        ADD_FAILURE() << "nothing moved relative to the session";
        return std::optional<fs::path>();
    });
    const TopicsSection back = TopicsSection::fromSession(read, resolver);
    EXPECT_EQ(back.corpus.front(), folder.path() / "renamed" / "data" / "corpus" / "docword.x.txt");
}

TEST(Session, MovedDataIsAskedForOnceAndTheRestFollows) {
    test::TempDir folder;
    const ChromatinSection chromatin = sampleChromatin(folder.path() / "data");
    const TopicsSection topics = sampleTopics(folder.path() / "data");
    createDataFiles(topics, chromatin);
    Session session;
    const fs::path file = folder.path() / "project" / "s.cxproj";
    fs::create_directories(file.parent_path());
    session.setSection(ChromatinSection::kKey, chromatin.toJson(file.parent_path()));
    writeSession(session, file);
    fs::rename(folder.path() / "data", folder.path() / "archive");

    const Session read = readSession(file);
    // Without a handler: the error names the session, the entry and where it looked.
    PathResolver strict(read.file);
    const std::string message = inputErrorOf([&] { ChromatinSection::fromSession(read, strict); });
    EXPECT_NE(message.find(file.string() + ": /workspaces/chromatin/tracks/0/path: " +
                           (folder.path() / "data" / "tracks" / "a_binary.txt.gz").string() +
                           ": no such file or folder"),
              std::string::npos)
        << message;

    int asked = 0;
    PathResolver resolver(read.file, [&](const fs::path& expected, const std::string& pointer) {
        ++asked;
        EXPECT_EQ(expected, folder.path() / "data" / "tracks" / "a_binary.txt.gz");
        EXPECT_EQ(pointer, "/workspaces/chromatin/tracks/0/path");
        return std::optional<fs::path>(folder.path() / "archive" / "tracks" / "a_binary.txt.gz");
    });
    const ChromatinSection back = ChromatinSection::fromSession(read, resolver);
    EXPECT_EQ(asked, 1);
    EXPECT_EQ(back.tracks[1], folder.path() / "archive" / "tracks" / "b_binary.txt.gz");
    EXPECT_EQ(back.annotations[0].path,
              folder.path() / "archive" / "tracks" / "COORDS" / "genes.bed.gz");

    // Giving up, or naming a file that is not there either, refuses the session.
    PathResolver givesUp(
        read.file, [](const fs::path&, const std::string&) { return std::optional<fs::path>(); });
    EXPECT_NE(
        inputErrorOf([&] { ChromatinSection::fromSession(read, givesUp); }).find("not located"),
        std::string::npos);
    PathResolver wrong(read.file, [&](const fs::path&, const std::string&) {
        return std::optional<fs::path>(folder.path() / "nowhere.gz");
    });
    EXPECT_NE(inputErrorOf([&] {
                  ChromatinSection::fromSession(read, wrong);
              }).find((folder.path() / "nowhere.gz").string() + ": no such file or folder"),
              std::string::npos);
}

TEST(Session, AbsolutePathIsTheFallbackWhenOnlyTheSessionMoved) {
    test::TempDir folder;
    const TopicsSection topics = sampleTopics(folder.path() / "data");
    createDataFiles(topics, {});
    Session session;
    const fs::path file = folder.path() / "a" / "s.cxproj";
    fs::create_directories(file.parent_path());
    session.setSection(TopicsSection::kKey, topics.toJson(file.parent_path()));
    writeSession(session, file);
    fs::create_directories(folder.path() / "b" / "c");
    fs::rename(file, folder.path() / "b" / "c" / "s.cxproj");
    const Session read = readSession(folder.path() / "b" / "c" / "s.cxproj");
    PathResolver resolver(read.file);
    EXPECT_EQ(TopicsSection::fromSession(read, resolver).corpus, topics.corpus);
}

} // namespace
} // namespace cx
