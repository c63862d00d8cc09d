// core/session: the Tree workspace's section round-trips through a session file (paths relative
// to the session with an absolute fallback) and names bad values by JSON pointer.
#include "core/common/error.h"
#include "core/session/session.h"
#include "core/session/tree_section.h"
#include "core/tree/spectral_tree.h"

#include <gtest/gtest.h>

#include <fstream>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct TreeSectionFolder {
    fs::path folder = fs::temp_directory_path() / ("cx_tree_section_" + std::to_string(::getpid()));
    TreeSectionFolder() {
        fs::create_directories(folder / "cells");
        std::ofstream(folder / "cells" / "A_chr1_binary.txt") << "A\tchr1\nm1\tm2\n0\t1\n";
        std::ofstream(folder / "tss.txt") << "chr1\t100\t+\n";
    }
    ~TreeSectionFolder() { fs::remove_all(folder); }
};

cx::TreeSection exampleSection(const fs::path& folder) {
    cx::TreeSection section;
    section.tracks = {folder / "cells"};
    section.binSize = 100;
    section.strictMarks = true;
    section.tree = "H1-hESC>GM12878,K562";
    section.numStates = 3;
    section.decomposition = "jennrich";
    section.seed = 77;
    section.projection = 5;
    section.iterations = 40;
    section.restarts = 3;
    section.starts = 2;
    section.decode = "joint";
    section.compare = {"per-cell", "em"};
    section.emIterations = 7;
    section.tss = folder / "tss.txt";
    section.flank = 500;
    section.promoterState = 2;
    section.segments = false;
    section.region = "chr20:1000-50000";
    section.selectedCell = "K562";
    section.states = {
        {"promoter", "#ff0000", true}, {"E2", "#00ff00", false}, {"quiet", "#0000ff", true}};
    return section;
}

/// Expects fromSession to throw an InputError mentioning `needle` after `edit` of the section.
template <typename Edit>
void expectRefused(const cx::Session& read, Edit edit, const std::string& needle) {
    cx::Session bad = read;
    cx::SessionJson json = bad.section("tree");
    edit(json);
    bad.setSection("tree", json);
    cx::PathResolver resolver(bad.file);
    try {
        cx::TreeSection::fromSession(bad, resolver);
        ADD_FAILURE() << "accepted a section without '" << needle << "'";
    } catch (const cx::InputError& error) {
        EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("s.cxproj"), std::string::npos) << error.what();
    }
}

} // namespace

TEST(TreeSection, RoundTripsEveryFieldThroughASessionFile) {
    TreeSectionFolder dir;
    const cx::TreeSection section = exampleSection(dir.folder);
    cx::Session session;
    session.setSection(cx::TreeSection::kKey, section.toJson(dir.folder));
    cx::writeSession(session, dir.folder / "s.cxproj");
    const cx::Session read = cx::readSession(dir.folder / "s.cxproj");
    EXPECT_EQ(read.section("tree").at("tracks").at(0).at("path"), "cells");
    EXPECT_EQ(read.section("tree").at("tss").at("path"), "tss.txt");
    cx::PathResolver resolver(read.file);
    const cx::TreeSection back = cx::TreeSection::fromSession(read, resolver);
    ASSERT_EQ(back.tracks.size(), 1u);
    EXPECT_EQ(back.tracks[0], fs::absolute(dir.folder / "cells"));
    EXPECT_EQ(back.tss, fs::absolute(dir.folder / "tss.txt"));
    EXPECT_EQ(back.binSize, 100);
    EXPECT_TRUE(back.strictMarks);
    EXPECT_EQ(back.tree, section.tree);
    EXPECT_EQ(back.numStates, 3);
    EXPECT_EQ(back.decomposition, "jennrich");
    EXPECT_EQ(back.seed, 77u);
    EXPECT_EQ(back.projection, 5);
    EXPECT_EQ(back.iterations, 40);
    EXPECT_EQ(back.restarts, 3);
    EXPECT_EQ(back.starts, 2);
    EXPECT_EQ(back.decode, "joint");
    EXPECT_EQ(back.compare, (std::vector<std::string>{"per-cell", "em"}));
    EXPECT_EQ(back.emIterations, 7);
    EXPECT_EQ(back.flank, 500);
    EXPECT_EQ(back.promoterState, 2);
    EXPECT_FALSE(back.segments);
    EXPECT_EQ(back.region, "chr20:1000-50000");
    EXPECT_EQ(back.selectedCell, "K562");
    ASSERT_EQ(back.states.size(), 3u);
    EXPECT_EQ(back.states[0].name, "promoter");
    EXPECT_EQ(back.states[0].colour, "#ff0000");
    EXPECT_TRUE(back.states[0].renamed);
    EXPECT_FALSE(back.states[1].renamed);
    // Written again, the section is the same JSON.
    EXPECT_EQ(back.toJson(dir.folder), read.section("tree"));

    // Moving the whole folder keeps the session working through the relative paths.
    const fs::path moved = dir.folder.string() + "_moved";
    fs::rename(dir.folder, moved);
    const cx::Session again = cx::readSession(moved / "s.cxproj");
    cx::PathResolver movedResolver(again.file);
    const cx::TreeSection fromMoved = cx::TreeSection::fromSession(again, movedResolver);
    EXPECT_EQ(fromMoved.tracks[0], fs::absolute(moved / "cells"));
    fs::rename(moved, dir.folder);
}

TEST(TreeSection, DefaultsAreThoseOfTheCommandAndNoTssIsAbsent) {
    TreeSectionFolder dir;
    cx::TreeSection section;
    section.tracks = {dir.folder / "cells"};
    section.tree = "A";
    const cx::SessionJson json = section.toJson(dir.folder);
    EXPECT_FALSE(json.contains("tss"));
    cx::Session session;
    session.setSection("tree", {{"tracks", json.at("tracks")}, {"tree", "A>B"}});
    session.file = dir.folder / "s.cxproj";
    cx::PathResolver resolver(session.file);
    const cx::TreeSection back = cx::TreeSection::fromSession(session, resolver);
    EXPECT_EQ(back.numStates, 4);
    EXPECT_EQ(back.decomposition, "power");
    EXPECT_EQ(back.decode, "auto");
    EXPECT_EQ(back.flank, 1000);
    EXPECT_EQ(back.emIterations, 50);
    EXPECT_EQ(back.starts, cx::SpectralTreeOptions{}.starts); // the CLI's default
    EXPECT_EQ(back.starts, cx::kDefaultTreeStarts);
    EXPECT_TRUE(back.segments);
    EXPECT_TRUE(back.tss.empty());
    EXPECT_TRUE(back.compare.empty());
}

TEST(TreeSection, BadValuesAreRefusedNamingTheEntry) {
    TreeSectionFolder dir;
    cx::Session session;
    session.setSection(cx::TreeSection::kKey, exampleSection(dir.folder).toJson(dir.folder));
    cx::writeSession(session, dir.folder / "s.cxproj");
    const cx::Session read = cx::readSession(dir.folder / "s.cxproj");
    using J = cx::SessionJson;
    expectRefused(
        read, [](J& j) { j["tracks"] = J::array(); }, "/workspaces/tree/tracks");
    expectRefused(
        read,
        [](J& j) {
            j["tracks"][0] = {{"path", "nowhere"}, {"absolute", "/nowhere"}};
        },
        "/workspaces/tree/tracks/0");
    expectRefused(
        read, [](J& j) { j["tree"] = "A>B;B>A"; }, "/workspaces/tree/tree");
    expectRefused(
        read, [](J& j) { j["tree"] = "A>B;C>D"; }, "/workspaces/tree/tree");
    expectRefused(
        read, [](J& j) { j.erase("tree"); }, "/workspaces/tree/tree");
    expectRefused(
        read, [](J& j) { j["model"]["k"] = 0; }, "/workspaces/tree/model/k");
    expectRefused(
        read, [](J& j) { j["model"]["starts"] = 0; }, "/workspaces/tree/model/starts");
    expectRefused(
        read, [](J& j) { j["model"]["k"] = "four"; }, "/workspaces/tree/model/k");
    expectRefused(
        read, [](J& j) { j["model"]["decode"] = "viterbi"; }, "/workspaces/tree/model/decode");
    expectRefused(
        read, [](J& j) { j["model"]["decomposition"] = "als"; },
        "/workspaces/tree/model/decomposition");
    expectRefused(
        read,
        [](J& j) {
            j["compare"] = {"per-cell", "glad"};
        },
        "/workspaces/tree/compare/1");
    expectRefused(
        read,
        [](J& j) {
            j["compare"] = {"em", "em"};
        },
        "listed twice");
    expectRefused(
        read, [](J& j) { j["compare"] = {3}; }, "/workspaces/tree/compare/0");
    expectRefused(
        read, [](J& j) { j["flank"] = -1; }, "/workspaces/tree/flank");
    expectRefused(
        read, [](J& j) { j["promoter_state"] = 4; }, "exceeds K = 3");
    expectRefused(
        read,
        [](J& j) {
            j["tss"] = {{"path", "gone.txt"}, {"absolute", "/gone.txt"}};
        },
        "/workspaces/tree/tss");
    expectRefused(
        read, [](J& j) { j["view"]["cell"] = "HeLa-S3"; }, "/workspaces/tree/view/cell");
    expectRefused(
        read, [](J& j) { j["view"]["states"][1]["colour"] = "green"; },
        "/workspaces/tree/view/states/1/colour");
    expectRefused(
        read, [](J& j) { j["view"]["states"].erase(0); }, "the model K = 3");
    expectRefused(
        read, [](J& j) { j["saved_by"] = "hmm"; }, "/workspaces/tree/saved_by");
}

TEST(TreeSection, ReadsRoundTripAndABadOneNamesThePointer) {
    TreeSectionFolder dir;
    cx::TreeSection section = exampleSection(dir.folder);
    std::ofstream(dir.folder / "C1_H3K4me3.bam") << "x";
    std::ofstream(dir.folder / "C2_H3K4me3.bam") << "x";
    std::ofstream(dir.folder / "chrom.sizes") << "chr1\t1000\n";
    cx::ReadsSection reads;
    reads.entries = {{"C1", "H3K4me3", dir.folder / "C1_H3K4me3.bam", {}},
                     {"C2", "H3K4me3", dir.folder / "C2_H3K4me3.bam", {}}};
    reads.chromSizes = dir.folder / "chrom.sizes";
    reads.outDir = dir.folder / "binarized";
    reads.options.shift = 50;
    section.reads = reads;
    cx::Session session;
    session.setSection(cx::TreeSection::kKey, section.toJson(dir.folder));
    cx::writeSession(session, dir.folder / "s.cxproj");
    const cx::Session read = cx::readSession(dir.folder / "s.cxproj");
    EXPECT_EQ(read.section("tree").at("reads").at("files").at(1).at("path"), "C2_H3K4me3.bam");
    cx::PathResolver resolver(read.file);
    const cx::TreeSection back = cx::TreeSection::fromSession(read, resolver);
    ASSERT_TRUE(back.reads.has_value());
    ASSERT_EQ(back.reads->entries.size(), 2u);
    EXPECT_EQ(back.reads->entries[1].cell, "C2");
    EXPECT_EQ(back.reads->entries[1].file, fs::absolute(dir.folder / "C2_H3K4me3.bam"));
    EXPECT_EQ(back.reads->outDir, dir.folder / "binarized");
    EXPECT_EQ(back.reads->options.shift, 50);
    EXPECT_EQ(back.toJson(dir.folder), read.section("tree"));
    // Without reads the section has none.
    EXPECT_FALSE(exampleSection(dir.folder).toJson(dir.folder).contains("reads"));
    expectRefused(
        read, [](cx::SessionJson& json) { json["reads"]["files"][0].erase("cell"); },
        "/workspaces/tree/reads/files/0/cell");
}
