// contrast-cli crowd: aggregate crowdsourced labels (majority vote, EM, MV-EM, spectral-EM,
// stagewise EM of Zhao & Zucker 2015) and contrast-cli generate-crowd: the β-sparse synthetic
// crowds.
#include "cli_session.h"
#include "commands.h"
#include "topic_session.h"

#include "core/common/error.h"
#include "core/common/timer.h"
#include "core/crowd/crowd_methods.h"
#include "core/crowd/crowd_tables.h"
#include "core/crowd/synthetic_crowd.h"
#include "core/session/crowd_section.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cx::cli {

namespace {

nlohmann::ordered_json nullable(double value) {
    return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

void ensureFolder(const std::string& dir) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error || !std::filesystem::is_directory(dir)) {
        throw InputError(dir, 0, "cannot create output folder: " + error.message());
    }
}

/// The options of `crowd` (declared in addCrowdCommand).
struct CrowdCommandOptions {
    CrowdSection section;
    std::string labels; ///< → section.labels
    std::string gold;   ///< → section.gold
    std::string methodName = "stagewise-refine";
    std::string outDir;
    std::string sessionPath;
    bool json = false;
};

int runCrowd(CrowdCommandOptions& options) {
    CrowdSection& section = options.section;
    section.labels = options.labels;
    section.gold = options.gold;
    const std::string& methodName = options.methodName;
    const std::string& outDir = options.outDir;
    const std::string& sessionPath = options.sessionPath;
    const bool json = options.json;
    const std::optional<CrowdMethod> method = parseCrowdMethod(methodName);
    if (!method) {
        throw InputError("parameter --method: '" + methodName +
                         "' is not one of mv, em, mv-em, spectral-em, stagewise, stagewise-refine");
    }
    section.method = methodName;

    const Stopwatch loadWatch;
    const CrowdLabels data = readCrowdLabels(section.labels, section.gold);
    const double loadMs = loadWatch.elapsedMs();
    for (const std::string& warning : data.warnings) {
        std::cerr << "contrast-cli crowd: warning: " << warning << "\n";
    }
    const CrowdResult result = runCrowdMethod(data, *method, section.options());
    for (const std::string& note : result.notes) {
        std::cerr << "contrast-cli crowd: note: " << note << "\n";
    }
    if (!outDir.empty()) {
        ensureFolder(outDir);
        writeFileAtomically(outDir, "labels.tsv", crowdLabelsTable(data, result));
        writeFileAtomically(outDir, "workers.tsv", crowdWorkersTable(data, result));
        writeFileAtomically(outDir, "trace.tsv", crowdTraceTable(result));
    }
    if (!sessionPath.empty()) {
        section.savedBy = "crowd";
        saveSessionSection(
            sessionPath, CrowdSection::kKey,
            [&](const std::filesystem::path& folder) { return section.toJson(folder); });
    }
    if (json) {
        nlohmann::ordered_json out;
        out["command"] = "crowd";
        out["parameters"] = {
            {"labels", section.labels},
            {"gold", section.gold},
            {"method", methodName},
            {"k", section.numComponents > 0 ? section.numComponents : data.numClasses},
            {"seed", section.seed},
            {"restarts", section.restarts},
            {"max_iter", section.maxIterations},
            {"smoothing", section.smoothing},
            {"significance", section.significance},
            {"extension_significance", section.extensionSignificance},
            {"extension_procedure", section.extensionProcedure}};
        out["data"] = {{"items", data.numItems},       {"workers", data.numWorkers},
                       {"classes", data.classNames},   {"labels", data.observations.size()},
                       {"gold_items", data.numGold()}, {"warnings", data.warnings}};
        out["error_rate"] = nullable(result.errorRate);
        out["accuracy"] = nullable(1.0 - result.errorRate);
        if (*method == CrowdMethod::MajorityVote) {
            // error_rate is the expectation over random tie-breaks (the convention of Zhang et
            // al. 2014's reference code), kept under its old name too; the first-seen rule is
            // reported for comparison only (it lets the order of the file decide ties).
            const MajorityVoteTies ties = majorityVoteRandomTies(data);
            out["error_rate_random_ties"] = nullable(ties.expectedErrorRate);
            out["error_rate_first_seen"] = nullable(1.0 - goldAccuracy(data, majorityVote(data)));
            out["tied_gold_items"] = ties.tiedGoldItems;
        }
        out["informative_set_size"] = result.informativeSetSize();
        out["informative_order"] = nlohmann::ordered_json::array();
        for (int m : result.informativeOrder) {
            out["informative_order"].push_back(data.workerNames[static_cast<size_t>(m)]);
        }
        out["iterations"] = result.iterations;
        out["status"] = toString(result.status);
        out["log_likelihood"] = result.logLikelihood;
        out["class_prior"] = std::vector<double>(
            result.classPrior.data(), result.classPrior.data() + result.classPrior.size());
        out["notes"] = result.notes;
        out["timings_ms"] = {{"load", loadMs}, {"method", result.elapsedMs}};
        std::cout << out.dump() << "\n";
    } else {
        std::cout << crowdMethodName(*method) << ": " << data.numItems << " items, "
                  << data.numWorkers << " workers, " << data.numClasses << " classes; "
                  << result.iterations << " iterations, informative set "
                  << result.informativeSetSize() << " of " << data.numWorkers;
        if (std::isfinite(result.errorRate)) {
            std::cout << ", error rate " << formatCrowdNumber(100 * result.errorRate) << " % on "
                      << data.numGold() << " gold items";
        }
        std::cout << " (" << formatCrowdNumber(result.elapsedMs) << " ms)\n";
    }
    return 0;
}

/// The options of `generate-crowd` (declared in addGenerateCrowdCommand).
struct GenerateCrowdCommandOptions {
    std::string outDir;
    std::string name = "crowd";
    int numItems = 1000;
    int numWorkers = 100;
    int numClasses = 3;
    double beta = 0.3;
    double accuracy = 0.6;
    double lastAccuracy = -1; ///< < 0: same as accuracy
    double labelProbability = 1.0;
    std::uint64_t seed = 1;
    bool json = false;
};

int runGenerateCrowd(const GenerateCrowdCommandOptions& options) {
    const std::string& outDir = options.outDir;
    const std::string& name = options.name;
    const int numItems = options.numItems;
    const int numWorkers = options.numWorkers;
    const int numClasses = options.numClasses;
    const double beta = options.beta;
    const double accuracy = options.accuracy;
    const double lastAccuracy = options.lastAccuracy < 0 ? accuracy : options.lastAccuracy;
    const double labelProbability = options.labelProbability;
    const std::uint64_t seed = options.seed;
    const bool json = options.json;
    const int numInformative = static_cast<int>(std::lround(beta * numWorkers));
    SparseCrowdSpec spec = decayingExpertsSpec(accuracy, lastAccuracy, numInformative, numItems,
                                               numWorkers, numClasses, seed);
    spec.labelProbability = labelProbability;
    const SyntheticCrowd crowd = generateSparseCrowd(spec);
    ensureFolder(outDir);
    std::string labels = "item,worker,label\n";
    for (const CrowdObservation& o : crowd.data.observations) {
        labels += crowd.data.itemNames[static_cast<size_t>(o.item)] + ',' +
                  crowd.data.workerNames[static_cast<size_t>(o.worker)] + ',' +
                  crowd.data.classNames[static_cast<size_t>(o.label)] + '\n';
    }
    writeFileAtomically(outDir, name + ".labels.csv", labels);
    std::string gold = "item,truth\n";
    for (int n = 0; n < crowd.data.numItems; ++n) {
        gold +=
            crowd.data.itemNames[static_cast<size_t>(n)] + ',' +
            crowd.data.classNames[static_cast<size_t>(crowd.data.gold[static_cast<size_t>(n)])] +
            '\n';
    }
    writeFileAtomically(outDir, name + ".gold.csv", gold);
    std::string workers = "worker\tinformative\taccuracy";
    for (int c = 0; c < numClasses; ++c) {
        for (int l = 0; l < numClasses; ++l) {
            workers += "\tp_" + std::to_string(l) + "_given_" + std::to_string(c);
        }
    }
    workers += '\n';
    for (int m = 0; m < numWorkers; ++m) {
        const Eigen::MatrixXd& theta = crowd.truth.conditionals[static_cast<size_t>(m)];
        workers += crowd.data.workerNames[static_cast<size_t>(m)] + '\t' +
                   (crowd.informative[static_cast<size_t>(m)] ? "1" : "0") + '\t' +
                   formatCrowdNumber(theta.diagonal().mean());
        for (int c = 0; c < numClasses; ++c) {
            for (int l = 0; l < numClasses; ++l) {
                workers += '\t' + formatCrowdNumber(theta(l, c));
            }
        }
        workers += '\n';
    }
    writeFileAtomically(outDir, name + ".truth_workers.tsv", workers);
    if (json) {
        // The benchmark of Zhao & Zucker 2015's figures: the error of the generating model's
        // posterior.
        const ItemObservations items(crowd.data);
        const double bayesError =
            1.0 - goldAccuracy(crowd.data, argmaxRows(eStep(items, crowd.truth).posterior));
        nlohmann::ordered_json out;
        out["command"] = "generate-crowd";
        out["true_model_error_rate"] = bayesError;
        out["labels"] = outDir + "/" + name + ".labels.csv";
        out["gold"] = outDir + "/" + name + ".gold.csv";
        out["truth_workers"] = outDir + "/" + name + ".truth_workers.tsv";
        out["items"] = numItems;
        out["workers"] = numWorkers;
        out["informative_workers"] = numInformative;
        out["labels_written"] = crowd.data.observations.size();
        std::cout << out.dump() << "\n";
    }
    return 0;
}

} // namespace

CommandEntry addCrowdCommand(CLI::App& root) {
    auto options = std::make_shared<CrowdCommandOptions>();
    CrowdSection& section = options->section;
    OptionList list(addSubcommand(
        root, "crowd",
        "aggregate crowdsourced labels (stagewise EM, Dawid-Skene EM, majority vote)"));
    list.text("labels", options->labels, "labels file (item,worker,label)")
        .required()
        .text("gold", options->gold, "gold file (item,truth): reports the error rate")
        .text("method", options->methodName,
              "stagewise | stagewise-refine | mv-em | spectral-em | em | mv")
        .integer("k", section.numComponents, 0, 64, "number of classes (0 = from the labels)")
        .seed("seed", section.seed, "random seed")
        .integer("restarts", section.restarts, 1, 10000, "random restarts")
        .integer("max-iter", section.maxIterations, 1, 1000000, "maximum EM iterations")
        .real("smoothing", section.smoothing, 0.0, 1e6,
              "additive smoothing of the confusion matrices")
        .real("significance", section.significance, 0.0, 0.999999,
              "stagewise: significance level of the informative-pair test (0 = the paper's rule)")
        .real("extension-significance", section.extensionSignificance, 0.0, 0.999999,
              "stagewise: level at which workers whose labels depend on the posterior join the "
              "informative set, every round without a split (0 = off: the paper's algorithm alone)")
        .choice("extension-procedure", section.extensionProcedure, {"bh", "holm"},
                "stagewise: multiple-testing procedure of that extension over the workers outside "
                "the set: bh = Benjamini-Hochberg (false-discovery rate), holm = Holm step-down "
                "(family-wise error)")
        .text("out", options->outDir, "write result files into this folder")
        .flag("json", options->json, "print a JSON summary on standard output")
        .text("save-session", options->sessionPath,
              "also save these options as a session (.cxproj)");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runCrowd(*options);
            }};
}

CommandEntry addGenerateCrowdCommand(CLI::App& root) {
    auto options = std::make_shared<GenerateCrowdCommandOptions>();
    GenerateCrowdCommandOptions& o = *options;
    OptionList list(addSubcommand(
        root, "generate-crowd", "seeded beta-sparse synthetic crowd (labels, gold, true workers)"));
    list.text("out", o.outDir, "output folder")
        .required()
        .text("name", o.name, "file name stem: NAME.labels.csv, NAME.gold.csv, …")
        .integer("items", o.numItems, 1, 10000000, "items")
        .integer("workers", o.numWorkers, 1, 100000, "workers")
        .integer("classes", o.numClasses, 2, 64, "classes")
        .real("beta", o.beta, 0.0, 1.0, "fraction β of informative workers")
        .real("accuracy", o.accuracy, 0.0, 1.0, "accuracy of the first informative worker")
        .real("last-accuracy", o.lastAccuracy, 0.0, 1.0,
              "accuracy of the last informative worker (decaying in between)")
        .defaultText("--accuracy")
        .real("label-probability", o.labelProbability, 0.0, 1.0,
              "probability that a worker labels an item")
        .seed("seed", o.seed, "random seed")
        .flag("json", o.json, "print a JSON summary on standard output");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runGenerateCrowd(*options);
            }};
}

} // namespace cx::cli
