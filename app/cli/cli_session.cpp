#include "cli_session.h"

#include "cli_options.h"

#include "core/common/error.h"
#include "core/session/session.h"

#include <filesystem>

namespace cx::cli {

namespace {
namespace fs = std::filesystem;

fs::path absolutePath(const std::string& path) {
    return fs::absolute(fs::path(path)).lexically_normal();
}
} // namespace

TopicsSection topicsSectionOf(const TopicSession& session, double gamma,
                              const std::string& positiveRule, const std::string& gammas,
                              const std::string& command) {
    TopicsSection section;
    for (const std::string& path : splitList(session.corpusPath)) {
        section.corpus.push_back(absolutePath(path));
    }
    section.reader = session.loadOptions;
    section.foreground = session.foregroundRule;
    section.backgroundMode = session.backgroundMode;
    section.background = session.backgroundRule;
    section.method = session.method;
    section.numComponents = session.modelOptions.numComponents;
    section.gamma = gamma;
    section.seed = session.modelOptions.seed;
    section.iterations = session.modelOptions.iterations;
    section.restarts = session.modelOptions.restarts;
    section.decomposition = toString(session.modelOptions.decomposition);
    section.rankPerSide = session.projectionOptions.rankPerSide;
    section.rangeIterations = session.projectionOptions.powerIterations;
    section.smoothing = session.smoothing;
    section.smoothingPrior = session.smoothingPrior;
    section.positive = positiveRule;
    if (!gammas.empty()) {
        section.aucGammas = gammas;
    }
    section.topWords = session.topWords;
    section.savedBy = command;
    return section;
}

void applyTopicsSection(const TopicsSection& section, TopicSession& session) {
    session.corpusPath = section.corpusSpec();
    session.loadOptions = section.reader;
    session.foregroundRule = section.foreground;
    session.backgroundMode = section.backgroundMode;
    session.backgroundRule = section.background;
    session.method = section.method;
    session.modelOptions.numComponents = section.numComponents;
    session.modelOptions.seed = section.seed;
    session.modelOptions.iterations = section.iterations;
    session.modelOptions.restarts = section.restarts;
    session.decomposition = section.decomposition;
    session.modelOptions.decomposition = parseDecomposition(section.decomposition);
    session.projectionOptions.seed = section.seed;
    session.projectionOptions.rankPerSide = section.rankPerSide;
    session.projectionOptions.powerIterations = section.rangeIterations;
    session.smoothing = section.smoothing;
    session.smoothingPrior = section.smoothingPrior;
    session.topWords = section.topWords;
}

ChromatinSection chromatinSectionOf(const HmmJobOptions& options) {
    ChromatinSection section;
    for (const std::string& path : options.trackPaths) {
        section.tracks.push_back(absolutePath(path));
    }
    for (const std::string& path : options.foregroundPaths) {
        section.annotations.push_back({absolutePath(path), true, false, false, true});
    }
    for (const std::string& path : options.backgroundPaths) {
        section.annotations.push_back({absolutePath(path), false, true, false, true});
    }
    section.binSize = options.binSize;
    section.method = options.method;
    section.numComponents = options.numComponents;
    section.gamma = options.gamma;
    section.seed = options.seed;
    section.encoding =
        options.encoding == ObservationEncoding::MarkCombination ? "combinations" : "marks";
    section.decode = options.decodeName;
    section.iterations = options.solveOptions.iterations;
    section.restarts = options.solveOptions.trials;
    section.starts = options.starts;
    section.extraComponents = options.solveOptions.extraComponents;
    section.validityZ = options.solveOptions.validityZ;
    section.window = options.window;
    section.lag = options.lag;
    section.refineRounds = options.solveOptions.refinementRounds;
    section.alsSweeps = options.solveOptions.alsSweeps;
    section.momentFit = options.solveOptions.momentRefitSweeps;
    section.momentOrder = options.solveOptions.momentRefitOrder;
    section.decomposition = options.decompositionName;
    section.scaling = options.scalingName;
    section.projectionRank = options.projectionRank;
    section.refineEm = options.refineEm;
    section.refineTolerance = options.refineTolerance;
    section.emMaxIterations = options.emMaxIterations;
    section.emTolerance = options.emTolerance;
    section.segments = options.writeSegments;
    section.savedBy = "hmm";
    return section;
}

HmmJobOptions hmmOptionsOf(const ChromatinSection& section) {
    HmmJobOptions options;
    for (const auto& path : section.tracks) {
        options.trackPaths.push_back(path.string());
    }
    for (const auto& path : section.foregroundRegions()) {
        options.foregroundPaths.push_back(path.string());
    }
    for (const auto& path : section.backgroundRegions()) {
        options.backgroundPaths.push_back(path.string());
    }
    options.binSize = section.binSize;
    options.method = section.method;
    options.numComponents = section.numComponents;
    options.gamma = section.gamma;
    options.seed = section.seed;
    options.encoding = parseObservationEncoding(section.encoding);
    options.decodeName = section.decode;
    options.solveOptions.iterations = section.iterations;
    options.solveOptions.trials = section.restarts;
    options.starts = section.starts;
    options.solveOptions.extraComponents = section.extraComponents;
    options.solveOptions.validityZ = section.validityZ;
    options.window = section.window;
    options.lag = section.lag;
    options.solveOptions.refinementRounds = section.refineRounds;
    options.solveOptions.alsSweeps = section.alsSweeps;
    options.momentFit = section.momentFit;
    options.solveOptions.momentRefitOrder = section.momentOrder;
    options.decompositionName = section.decomposition;
    options.scalingName = section.scaling;
    options.projectionRank = section.projectionRank;
    options.refineEm = section.refineEm;
    options.refineTolerance = section.refineTolerance;
    options.emMaxIterations = section.emMaxIterations;
    options.emTolerance = section.emTolerance;
    options.writeSegments = section.segments;
    options.validate();
    return options;
}

std::vector<std::string> treeArgumentsOf(const TreeSection& section) {
    std::string tracks;
    for (const auto& path : section.tracks) {
        tracks += (tracks.empty() ? "" : ",") + path.string();
    }
    std::vector<std::string> out = {"--tracks",
                                    tracks,
                                    "--tree",
                                    section.tree,
                                    "--bin-size",
                                    std::to_string(section.binSize),
                                    "--k",
                                    std::to_string(section.numStates),
                                    "--decomposition",
                                    section.decomposition,
                                    "--seed",
                                    std::to_string(section.seed),
                                    "--projection",
                                    std::to_string(section.projection),
                                    "--iterations",
                                    std::to_string(section.iterations),
                                    "--restarts",
                                    std::to_string(section.restarts),
                                    "--starts",
                                    std::to_string(section.starts),
                                    "--scaling",
                                    section.scaling,
                                    "--moment-fit",
                                    std::to_string(section.momentFit),
                                    "--extra-components",
                                    std::to_string(section.extraComponents),
                                    "--decode",
                                    section.decode,
                                    "--em-iterations",
                                    std::to_string(section.emIterations),
                                    "--flank",
                                    std::to_string(section.flank),
                                    "--promoter-state",
                                    std::to_string(section.promoterState)};
    if (section.strictMarks) {
        out.emplace_back("--strict-marks");
    }
    if (!section.segments) {
        out.emplace_back("--no-segments");
    }
    if (!section.compare.empty()) {
        std::string methods;
        for (const auto& method : section.compare) {
            methods += (methods.empty() ? "" : ",") + method;
        }
        out.emplace_back("--compare");
        out.push_back(methods);
    }
    if (!section.tss.empty()) {
        out.emplace_back("--tss");
        out.push_back(section.tss.string());
    }
    return out;
}

void saveSessionSection(
    const std::string& file, const std::string& key,
    const std::function<SessionJson(const std::filesystem::path& sessionDirectory)>& sectionJson) {
    const fs::path target = absolutePath(file);
    Session session;
    std::error_code error;
    // Like --out, the session's folder is created when it does not exist yet.
    fs::create_directories(target.parent_path(), error);
    if (error) {
        throw InputError(file, 0, "cannot create the session's folder: " + error.message());
    }
    if (fs::exists(target, error)) {
        session = readSession(target); // keep the other workspaces of an existing session
    }
    session.setSection(key, sectionJson(target.parent_path()));
    session.active = key;
    writeSession(session, target);
}

} // namespace cx::cli
