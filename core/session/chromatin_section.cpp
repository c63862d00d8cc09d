#include "core/session/chromatin_section.h"

#include "core/hmm/hmm_bootstrap.h"
#include "core/session/session_fields.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace cx {

namespace {
/// Checks the text of a γ grid, FROM:TO:STEP with finite numbers, FROM ≥ 0, STEP > 0 and
/// TO ≥ FROM (what `hmm --gamma-path` accepts).
void checkGrid(const SessionFields& fields, const std::string& key, const std::string& text) {
    std::vector<double> numbers;
    size_t begin = 0;
    while (true) {
        const size_t end = text.find(':', begin);
        const std::string piece = text.substr(begin, end == std::string::npos ? end : end - begin);
        char* stop = nullptr;
        const double value = std::strtod(piece.c_str(), &stop);
        if (piece.empty() || *stop != '\0' || !std::isfinite(value)) {
            fields.fail(key, "\"" + text + "\" is not FROM:TO:STEP with finite numbers");
        }
        numbers.push_back(value);
        if (end == std::string::npos) {
            break;
        }
        begin = end + 1;
    }
    if (numbers.size() != 3 || numbers[0] < 0 || numbers[2] <= 0 || numbers[1] < numbers[0]) {
        fields.fail(key, "\"" + text + "\" is not FROM:TO:STEP with FROM ≥ 0, STEP > 0, TO ≥ FROM");
    }
}
} // namespace

std::vector<std::filesystem::path> ChromatinSection::foregroundRegions() const {
    std::vector<std::filesystem::path> out;
    for (const auto& annotation : annotations) {
        if (annotation.foreground) {
            out.push_back(annotation.path);
        }
    }
    return out;
}

std::vector<std::filesystem::path> ChromatinSection::backgroundRegions() const {
    std::vector<std::filesystem::path> out;
    for (const auto& annotation : annotations) {
        if (annotation.background) {
            out.push_back(annotation.path);
        }
    }
    return out;
}

SessionJson ChromatinSection::toJson(const std::filesystem::path& sessionDirectory) const {
    SessionJson section = SessionJson::object();
    section["tracks"] = SessionJson::array();
    for (const auto& path : tracks) {
        section["tracks"].push_back(dataPathToJson(path, sessionDirectory));
    }
    section["bin_size"] = binSize;
    section["annotations"] = SessionJson::array();
    for (const auto& annotation : annotations) {
        SessionJson entry = dataPathToJson(annotation.path, sessionDirectory);
        entry["foreground"] = annotation.foreground;
        entry["background"] = annotation.background;
        entry["lane"] = annotation.lane;
        entry["enrichment"] = annotation.enrichment;
        section["annotations"].push_back(std::move(entry));
    }
    section["model"] = {{"method", method},
                        {"k", numComponents},
                        {"gamma", gamma},
                        {"seed", seed},
                        {"encoding", encoding},
                        {"decode", decode},
                        {"iterations", iterations},
                        {"restarts", restarts},
                        {"starts", starts},
                        {"extra_components", extraComponents},
                        {"validity_z", validityZ},
                        {"window", window},
                        {"lag", lag},
                        {"refine_rounds", refineRounds},
                        {"als_sweeps", alsSweeps},
                        {"moment_fit", momentFit},
                        {"moment_order", momentOrder},
                        {"decomposition", decomposition},
                        {"scaling", scaling},
                        {"projection_rank", projectionRank},
                        {"refine_em", refineEm},
                        {"refine_tolerance", refineTolerance},
                        {"em_max_iter", emMaxIterations},
                        {"em_tolerance", emTolerance},
                        {"segments", segments}};
    SessionJson view = SessionJson::object();
    view["region"] = region;
    view["states"] = SessionJson::array();
    for (const auto& state : states) {
        SessionJson row = {{"name", state.name}, {"colour", state.colour}};
        if (state.renamed) {
            row["renamed"] = true;
        }
        if (!state.profile.empty()) {
            row["profile"] = state.profile;
        }
        view["states"].push_back(std::move(row));
    }
    section["view"] = std::move(view);
    if (!gammaPath.empty()) {
        SessionJson path = {{"gammas", gammaPath}, {"starts", pathStarts}};
        if (bootstrap > 0) {
            path["bootstrap"] = bootstrap;
            path["block_length"] = blockLength;
        }
        section["path"] = std::move(path);
    }
    if (reads) {
        section["reads"] = reads->toJson(sessionDirectory);
    }
    if (!savedBy.empty()) {
        section["saved_by"] = savedBy;
    }
    return section;
}

ChromatinSection ChromatinSection::fromSession(const Session& session, PathResolver& resolver) {
    const SessionFields fields(session.section(kKey), std::string("/workspaces/") + kKey,
                               session.file);
    ChromatinSection section;
    section.tracks = resolver.resolveAll(fields, "tracks", "the section names no track");
    section.binSize = static_cast<int>(fields.integer("bin_size", 200, 1, 1000000000));
    if (fields.has("reads")) {
        section.reads = ReadsSection::fromJson(fields.object("reads"), resolver);
    }
    for (const SessionFields& entry : fields.objects("annotations")) {
        Annotation annotation;
        annotation.path = resolver.resolve(entry.json(), entry.pointer());
        annotation.foreground = entry.boolean("foreground", false);
        annotation.background = entry.boolean("background", false);
        annotation.lane = entry.boolean("lane", false);
        annotation.enrichment = entry.boolean("enrichment", true);
        if (annotation.foreground && annotation.background) {
            entry.fail("background", "an annotation cannot be both foreground and background");
        }
        section.annotations.push_back(std::move(annotation));
    }
    const SessionFields model = fields.object("model");
    section.method = model.choice("method", "spectral", {"spectral", "em"});
    section.numComponents = static_cast<int>(model.integer("k", 7, 1, 1000));
    section.gamma = model.real("gamma", 0.0, 0.0, 1e6);
    section.seed = model.seed("seed", 1);
    section.encoding = model.choice("encoding", "marks", {"marks", "combinations"});
    section.decode = model.choice("decode", "posterior", {"posterior", "viterbi"});
    section.iterations = static_cast<int>(model.integer("iterations", 100, 1, 100000));
    section.restarts = static_cast<int>(model.integer("restarts", 10, 1, 10000));
    section.starts = static_cast<int>(model.integer("starts", kDefaultStarts, 1, 1000));
    section.extraComponents = static_cast<int>(model.integer("extra_components", 1, 0, 1000));
    section.validityZ = model.real("validity_z", 3.0, 0.0, 1e6);
    section.window = static_cast<int>(model.integer("window", 1, 1, 1000));
    section.lag = static_cast<int>(model.integer("lag", 1, 1, 1000));
    section.refineRounds = static_cast<int>(model.integer("refine_rounds", 0, 0, 100));
    section.alsSweeps = static_cast<int>(model.integer("als_sweeps", 0, 0, 100000));
    section.momentFit = static_cast<int>(model.integer("moment_fit", -1, -1, 100000));
    section.momentOrder = static_cast<int>(model.integer("moment_order", 2, 2, 3));
    section.decomposition = model.choice("decomposition", "deflation", {"deflation", "jennrich"});
    section.scaling = model.choice("scaling", "mean", {"mean", "none", "whiten"});
    section.projectionRank = static_cast<int>(model.integer("projection_rank", 0, 0, 10000));
    section.refineEm = static_cast<int>(model.integer("refine_em", 0, 0, 100000));
    section.refineTolerance = model.real("refine_tolerance", 0.0, 0.0, 1.0);
    section.emMaxIterations = static_cast<int>(model.integer("em_max_iter", 1000, 1, 1000000));
    section.emTolerance = model.real("em_tolerance", 1e-5, 0.0, 1.0);
    section.segments = model.boolean("segments", true);

    const SessionFields view = fields.object("view");
    section.region = view.string("region", "");
    for (const SessionFields& state : view.objects("states")) {
        StateView row;
        row.name = state.string("name", "");
        row.colour = state.string("colour", "");
        if (!row.colour.empty() && !isHexColour(row.colour)) {
            state.fail("colour", "expected \"#rrggbb\", got " + state.json().at("colour").dump());
        }
        row.renamed = state.boolean("renamed", false);
        const SessionJson& profile = state.array("profile");
        for (size_t i = 0; i < profile.size(); ++i) {
            if (!profile[i].is_number()) {
                state.fail("profile", "expected numbers, got " + jsonTypeName(profile[i]) +
                                          " at index " + std::to_string(i));
            }
            row.profile.push_back(profile[i].get<double>());
        }
        if (!section.states.empty() && !row.profile.empty() &&
            row.profile.size() != section.states.front().profile.size()) {
            state.fail("profile", "has " + std::to_string(row.profile.size()) +
                                      " values, the first state " +
                                      std::to_string(section.states.front().profile.size()));
        }
        section.states.push_back(std::move(row));
    }
    const SessionFields path = fields.object("path");
    section.gammaPath = path.string("gammas", "");
    section.pathStarts = path.choice("starts", "continued", {"continued", "fresh"});
    section.bootstrap = path.resamples("bootstrap", kMaxHmmBootstrapReplicates);
    section.blockLength = static_cast<int>(path.integer("block_length", 0, 0, 1000000000));
    if (!section.gammaPath.empty()) {
        checkGrid(path, "gammas", section.gammaPath);
        if (section.method != "spectral") {
            path.fail("gammas", "a γ path needs the spectral method (model/method is \"" +
                                    section.method + "\")");
        }
    } else if (section.bootstrap > 0) {
        path.fail("gammas", "missing: the bootstrap resamples the γ path (FROM:TO:STEP)");
    }
    if (section.blockLength != 0 && section.bootstrap == 0) {
        path.fail("block_length", "needs a bootstrap (path/bootstrap ≥ 2)");
    }
    section.savedBy = fields.choice("saved_by", "", {"", "hmm"});
    return section;
}

} // namespace cx
