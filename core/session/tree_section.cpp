#include "core/session/tree_section.h"

#include "core/common/error.h"
#include "core/session/session_fields.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_spec.h"

#include <algorithm>
#include <cctype>

namespace cx {

SessionJson TreeSection::toJson(const std::filesystem::path& sessionDirectory) const {
    SessionJson section = SessionJson::object();
    section["tracks"] = SessionJson::array();
    for (const auto& path : tracks) {
        section["tracks"].push_back(dataPathToJson(path, sessionDirectory));
    }
    if (reads) {
        section["reads"] = reads->toJson(sessionDirectory);
    }
    section["bin_size"] = binSize;
    section["strict_marks"] = strictMarks;
    section["tree"] = tree;
    section["model"] = {{"k", numStates},
                        {"decomposition", decomposition},
                        {"seed", seed},
                        {"projection", projection},
                        {"iterations", iterations},
                        {"restarts", restarts},
                        {"starts", starts},
                        {"scaling", scaling},
                        {"moment_fit", momentFit},
                        {"extra_components", extraComponents},
                        {"decode", decode}};
    section["compare"] = compare;
    section["em_iterations"] = emIterations;
    if (!tss.empty()) {
        section["tss"] = dataPathToJson(tss, sessionDirectory);
    }
    section["flank"] = flank;
    section["promoter_state"] = promoterState;
    section["segments"] = segments;
    SessionJson view = SessionJson::object();
    view["region"] = region;
    view["cell"] = selectedCell;
    view["states"] = SessionJson::array();
    for (const auto& state : states) {
        SessionJson row = {{"name", state.name}, {"colour", state.colour}};
        if (state.renamed) {
            row["renamed"] = true;
        }
        view["states"].push_back(std::move(row));
    }
    section["view"] = std::move(view);
    if (!savedBy.empty()) {
        section["saved_by"] = savedBy;
    }
    return section;
}

TreeSection TreeSection::fromSession(const Session& session, PathResolver& resolver) {
    const SessionFields fields(session.section(kKey), std::string("/workspaces/") + kKey,
                               session.file);
    TreeSection section;
    section.tracks =
        resolver.resolveAll(fields, "tracks", "the section names no track file or folder");
    if (fields.has("reads")) {
        section.reads = ReadsSection::fromJson(fields.object("reads"), resolver);
    }
    section.binSize = static_cast<int>(fields.integer("bin_size", 200, 1, 1000000000));
    section.strictMarks = fields.boolean("strict_marks", false);
    section.tree = fields.requiredString("tree");
    TreeSpec spec;
    try {
        spec = parseTreeSpec(section.tree);
    } catch (const InputError& error) {
        fields.fail("tree", error.what());
    }

    const SessionFields model = fields.object("model");
    section.numStates = static_cast<int>(model.integer("k", 4, 1, kMaxTreeMarks + 1));
    section.decomposition = model.choice("decomposition", "power", {"power", "jennrich"});
    section.seed = model.seed("seed", 1);
    section.projection = static_cast<int>(model.integer("projection", 0, 0, kMaxTreeMarks + 1));
    section.iterations = static_cast<int>(model.integer("iterations", 100, 1, 100000));
    section.restarts = static_cast<int>(model.integer("restarts", 10, 1, 10000));
    // Every session saved since starts exist writes them; one without them gets the default.
    section.starts = static_cast<int>(model.integer("starts", kDefaultTreeStarts, 1, 1000));
    section.scaling = model.choice("scaling", "none", {"mean", "none"});
    section.momentFit = static_cast<int>(model.integer("moment_fit", 200, -1, 100000));
    section.extraComponents =
        static_cast<int>(model.integer("extra_components", 1, 0, kMaxTreeMarks + 1));
    section.decode = model.choice("decode", "auto", {"auto", "path", "joint"});

    const SessionJson& compare = fields.array("compare");
    for (size_t i = 0; i < compare.size(); ++i) {
        if (!compare[i].is_string()) {
            fields.failItem("compare", i,
                            "expected \"per-cell\" or \"em\", got " + jsonTypeName(compare[i]));
        }
        const std::string method = compare[i].get<std::string>();
        if (method != "per-cell" && method != "em") {
            fields.failItem("compare", i, "'" + method + "' is not \"per-cell\" or \"em\"");
        }
        if (std::find(section.compare.begin(), section.compare.end(), method) !=
            section.compare.end()) {
            fields.failItem("compare", i, "'" + method + "' is listed twice");
        }
        section.compare.push_back(method);
    }
    section.emIterations = static_cast<int>(fields.integer("em_iterations", 50, 1, 100000));
    if (fields.has("tss") && !fields.json().at("tss").is_null()) {
        section.tss = resolver.resolve(fields.json().at("tss"), fields.pointer("tss"));
    }
    section.flank = fields.integer("flank", 1000, 0, 100000000);
    section.promoterState =
        static_cast<int>(fields.integer("promoter_state", 0, 0, kMaxTreeMarks + 1));
    if (section.promoterState > section.numStates) {
        fields.fail("promoter_state", std::to_string(section.promoterState) +
                                          " exceeds K = " + std::to_string(section.numStates));
    }
    section.segments = fields.boolean("segments", true);

    const SessionFields view = fields.object("view");
    section.region = view.string("region", "");
    section.selectedCell = view.string("cell", "");
    if (!section.selectedCell.empty() && spec.find(section.selectedCell) < 0) {
        view.fail("cell",
                  "'" + section.selectedCell + "' is not a node of the tree " + section.tree);
    }
    for (const SessionFields& state : view.objects("states")) {
        StateView row;
        row.name = state.string("name", "");
        row.colour = state.string("colour", "");
        if (!row.colour.empty() && !isHexColour(row.colour)) {
            state.fail("colour", "expected \"#rrggbb\", got " + state.json().at("colour").dump());
        }
        row.renamed = state.boolean("renamed", false);
        section.states.push_back(std::move(row));
    }
    if (!section.states.empty() && static_cast<int>(section.states.size()) != section.numStates) {
        view.fail("states", "has " + std::to_string(section.states.size()) +
                                " rows, the model K = " + std::to_string(section.numStates));
    }
    section.savedBy = fields.choice("saved_by", "", {"", "tree"});
    return section;
}

} // namespace cx
