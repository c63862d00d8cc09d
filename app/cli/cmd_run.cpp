// contrast-cli run SESSION.cxproj --out DIR [--workspace NAME]: repeats what a session
// describes through the same jobs and writers as the commands, so a session saved with
// `--save-session` reproduces that command's result files byte for byte.
#include "cli_session.h"
#include "commands.h"
#include "hmm_job.h"
#include "topic_job.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/crowd/crowd_methods.h"
#include "core/crowd/crowd_tables.h"
#include "core/io/crowd_labels.h"
#include "core/session/crowd_section.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"

#include <cmath>
#include <filesystem>
#include <iostream>

namespace cx::cli {

namespace {

namespace fs = std::filesystem;

/// Topics: the command that saved the section (topics or sweep); a section the GUI saved gives
/// both the topics at its γ and, with a positive rule, the sweep over its grid.
void runTopicsSection(const TopicsSection& section, const fs::path& out) {
    if (section.foreground.empty()) {
        throw InputError("the topics section has no foreground rule: nothing to compute");
    }
    TopicSession session;
    applyTopicsSection(section, session);
    session.outDir = out.string();
    session.prepare();
    if (section.savedBy != "sweep") {
        writeTopicFiles(session, solveTopics(session, section.gamma), session.outDir);
        std::cout << "wrote " << session.outDir << "/{topic_word,components,top_words}.tsv\n";
    }
    if (section.savedBy == "sweep" || (section.savedBy.empty() && !section.positive.empty())) {
        SpecificitySweep sweep =
            specificitySweep(*session.engine, parseGrid("gammas", section.aucGammas),
                             positiveFlags(session, section.positive), session.modelOptions,
                             session.scorerSmoothing());
        // The split-half check of `sweep` (or the GUI's), seeded alike: the same notes.
        if (section.splitHalf) {
            sweep.halves = splitHalfPath(*session.engine, sweep.path, session.modelOptions,
                                         session.modelOptions.seed);
        }
        // The bootstrap of `sweep --bootstrap B` (or the GUI's), seeded by the model seed as
        // there: the same bands.
        PathBootstrap bands;
        if (section.bootstrap > 0) {
            BootstrapOptions bootstrap;
            bootstrap.replicates = section.bootstrap;
            bootstrap.seed = session.modelOptions.seed;
            bands =
                bootstrapPath(*session.engine, sweep.path, positiveFlags(session, section.positive),
                              session.modelOptions, bootstrap, session.scorerSmoothing());
        }
        writeFileAtomically(session.outDir, "sweep.tsv",
                            sweepTable(sweep, section.bootstrap > 0 ? &bands : nullptr));
        std::cout << "wrote " << session.outDir << "/sweep.tsv\n";
    }
}

void runChromatinSection(const ChromatinSection& section, const fs::path& out) {
    const HmmJobOptions options = hmmOptionsOf(section);
    const HmmJobResult result = runHmmJob(options);
    for (const auto& warning : result.warnings) {
        std::cerr << "warning: " << warning << "\n";
    }
    writeHmmFiles(options, result, out.string());
    std::cout << "wrote " << out.string() << "/{emissions,transitions,states}.tsv"
              << (options.writeSegments ? " and segments.bed" : "") << "\n";
    if (!section.gammaPath.empty()) {
        // `hmm --gamma-path … [--bootstrap B]`: the same path and, seeded alike, the same bands.
        const HmmPathRun run =
            runHmmPath(options, result, parseGrid("gamma-path", section.gammaPath),
                       section.pathStarts, section.bootstrap, section.blockLength);
        writeFileAtomically(out.string(), "path.tsv", hmmPathTable(run, result.data.markNames));
        std::cout << "wrote " << out.string() << "/path.tsv"
                  << (section.bootstrap > 0 ? " with bootstrap bands" : "") << "\n";
    }
}

/// Crowd: the method of the section on its labels (and gold), the files `contrast-cli crowd
/// --out` writes.
void runCrowdSection(const CrowdSection& section, const fs::path& out) {
    const CrowdLabels data = readCrowdLabels(section.labels.string(), section.gold.string());
    for (const std::string& warning : data.warnings) {
        std::cerr << "warning: " << warning << "\n";
    }
    const CrowdMethod method =
        parseCrowdMethod(section.method).value_or(CrowdMethod::StagewiseRefine);
    const CrowdResult result = runCrowdMethod(data, method, section.options());
    writeFileAtomically(out.string(), "labels.tsv", crowdLabelsTable(data, result));
    writeFileAtomically(out.string(), "workers.tsv", crowdWorkersTable(data, result));
    writeFileAtomically(out.string(), "trace.tsv", crowdTraceTable(result));
    std::cout << crowdMethodName(method) << ": " << data.numItems << " items, " << data.numWorkers
              << " workers";
    if (std::isfinite(result.errorRate)) {
        std::cout << ", error rate " << formatCrowdNumber(100 * result.errorRate) << " % on "
                  << data.numGold() << " gold items";
    }
    std::cout << "\nwrote " << out.string() << "/{labels,workers,trace}.tsv\n";
}

/// The options of `run` (declared in addRunCommand).
struct RunCommandOptions {
    std::string file;
    std::string outDir;
    std::string only;
    std::string dataRoot; ///< where moved data is looked for (empty: nowhere)
    int threads = 0;
};

/// Runs the command that `add` declares on `arguments` (its options, without the command's
/// name), parsed by CLI11 exactly as from the command line.
int runCommandLine(CommandEntry (*add)(CLI::App&), const std::vector<std::string>& arguments) {
    CLI::App root;
    const CommandEntry entry = add(root);
    std::vector<std::string> reversed(arguments.rbegin(), arguments.rend()); // CLI11's order
    reversed.push_back(entry.app->get_name());
    root.parse(reversed);
    return entry.run();
}

int runSessionFile(const RunCommandOptions& options) {
    const std::string& file = options.file;
    const fs::path outDir = options.outDir;
    const std::string& only = options.only;
    setThreadCount(options.threads);

    const Session session = readSession(file);
    // No one to ask where moved data went: a missing file is an error naming the entry and the
    // path, unless --data-root says where the data went (the files beside it follow).
    PathResolver resolver(session.file, options.dataRoot.empty()
                                            ? MovedDataHandler()
                                            : dataRootHandler(options.dataRoot));
    std::error_code noFolder;
    if (!options.dataRoot.empty() && !fs::is_directory(options.dataRoot, noFolder)) {
        throw InputError("parameter --data-root: " + options.dataRoot + ": no such folder");
    }
    std::vector<std::string> keys;
    std::string present;
    for (const auto& [key, section] : session.workspaces.items()) {
        present += (present.empty() ? "" : ", ") + key;
        const bool runnable = key == TopicsSection::kKey || key == ChromatinSection::kKey ||
                              key == CrowdSection::kKey || key == TreeSection::kKey;
        if (!only.empty() && key != only) {
            continue;
        }
        if (!runnable) {
            if (!only.empty()) {
                throw InputError("parameter --workspace: this version cannot run the '" + key +
                                 "' workspace of " + file);
            }
            std::cerr << "note: " << file << ": workspace '" << key
                      << "' is not run by this version\n";
            continue;
        }
        keys.push_back(key);
    }
    if (!only.empty() && keys.empty()) {
        throw InputError("parameter --workspace: " + file + " has no workspace '" + only +
                         "' (it has: " + (present.empty() ? "none" : present) + ")");
    }
    if (keys.empty()) {
        throw InputError(file, 0, "the session holds no workspace to run");
    }
    // Read every section before computing anything: a bad one stops the run at once.
    std::vector<TopicsSection> topics;
    std::vector<ChromatinSection> chromatin;
    std::vector<CrowdSection> crowd;
    std::vector<TreeSection> trees;
    try {
        for (const std::string& key : keys) {
            if (key == TopicsSection::kKey) {
                topics.push_back(TopicsSection::fromSession(session, resolver));
            } else if (key == CrowdSection::kKey) {
                crowd.push_back(CrowdSection::fromSession(session, resolver));
            } else if (key == TreeSection::kKey) {
                trees.push_back(TreeSection::fromSession(session, resolver));
            } else {
                chromatin.push_back(ChromatinSection::fromSession(session, resolver));
            }
        }
    } catch (const InputError& error) {
        // "…: EXPECTED: no such file or folder (nor at ABSOLUTE); not located": say where.
        const std::string message = error.what();
        if (options.dataRoot.empty() || message.find("; not located") == std::string::npos) {
            throw;
        }
        throw InputError(message + " under --data-root " + options.dataRoot);
    }
    // One workspace: its files in --out, as the command wrote them; several: a folder each.
    const bool oneFolder = keys.size() == 1;
    for (const auto& section : topics) {
        const fs::path out = oneFolder ? outDir : outDir / TopicsSection::kKey;
        createOutputFolder(out);
        runTopicsSection(section, out);
    }
    for (const auto& section : chromatin) {
        const fs::path out = oneFolder ? outDir : outDir / ChromatinSection::kKey;
        createOutputFolder(out);
        runChromatinSection(section, out);
    }
    for (const auto& section : crowd) {
        const fs::path out = oneFolder ? outDir : outDir / CrowdSection::kKey;
        createOutputFolder(out);
        runCrowdSection(section, out);
    }
    for (const auto& section : trees) {
        const fs::path out = oneFolder ? outDir : outDir / TreeSection::kKey;
        createOutputFolder(out);
        std::vector<std::string> arguments = treeArgumentsOf(section);
        arguments.emplace_back("--out");
        arguments.push_back(out.string());
        runCommandLine(addTreeCommand, arguments);
        std::cout << "wrote " << out.string() << "/{emissions,transitions,segments}_CELL.*\n";
    }
    return 0;
}

} // namespace

CommandEntry addRunCommand(CLI::App& root) {
    auto options = std::make_shared<RunCommandOptions>();
    OptionList list(addSubcommand(
        root, "run",
        "repeat what a saved session (.cxproj) describes: the saving command's result files, "
        "byte for byte (several workspaces: DIR/topics, DIR/chromatin, DIR/crowd, DIR/tree)"));
    list.positional("SESSION", options->file, "the session file (.cxproj)")
        .text("out", options->outDir, "output folder")
        .required()
        .text("workspace", options->only,
              "run only this workspace (topics | chromatin | crowd | tree)")
        .text("data-root", options->dataRoot,
              "the session's data moved below DIR: a missing file is looked for there by the "
              "end of its path, and the files beside it follow")
        .integer("threads", options->threads, 0, 1024, "worker threads (0 = all cores)");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runSessionFile(*options);
            }};
}

} // namespace cx::cli
