// contrast-cli binarize: aligned reads (BAM/SAM/CRAM), BED reads or peaks → ChromHMM binarized
// files (CELL_CHROM_binary.txt), the same calls as ChromHMM's BinarizeBam / BinarizeBed.
// docs/binarize.md describes every rule and option.
#include "commands.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/io/binarize.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace cx::cli {

namespace {

struct BinarizeCommandOptions {
    std::string chromSizes;
    std::string inputDir;
    std::string table;
    std::string controlDir;
    std::string outDir;
    std::string format = "auto";
    BinarizeOptions options;
    int threads = 0;
    bool json = false;
};

BinarizeFormat parseFormat(const std::string& name) {
    if (name == "bam") {
        return BinarizeFormat::Bam;
    }
    if (name == "bed") {
        return BinarizeFormat::Bed;
    }
    if (name == "peaks") {
        return BinarizeFormat::Peaks;
    }
    return BinarizeFormat::Auto;
}

int runBinarize(BinarizeCommandOptions command, bool shiftGiven) {
    if (command.options.paired && shiftGiven) {
        throw InputError("parameter --shift: not used with --paired (the fragment's middle is "
                         "taken from the template length; ChromHMM refuses -n with -paired too)");
    }
    command.options.format = parseFormat(command.format);
    setThreadCount(command.threads);
    const BinarizeResult result = binarize(command.chromSizes, command.inputDir, command.table,
                                           command.controlDir, command.outDir, command.options);
    for (const auto& warning : result.warnings) {
        std::cerr << "contrast-cli binarize: warning: " << warning << "\n";
    }
    if (command.json) {
        nlohmann::ordered_json out;
        out["marks"] = result.marks;
        out["seconds"] = result.seconds;
        out["files"] = nlohmann::ordered_json::array();
        for (const auto& file : result.files) {
            out["files"].push_back({{"path", file.path},
                                    {"cell", file.cell},
                                    {"chrom", file.chrom},
                                    {"bins", file.numBins}});
        }
        out["inputs"] = nlohmann::ordered_json::array();
        for (const auto& input : result.inputs) {
            out["inputs"].push_back({{"path", input.path},
                                     {"control", input.isControl},
                                     {"records", input.records},
                                     {"counted", input.counted},
                                     {"unmapped", input.unmapped},
                                     {"other_contig", input.otherContig},
                                     {"sorted", input.sorted}});
        }
        out["warnings"] = result.warnings;
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::int64_t records = 0;
    for (const auto& input : result.inputs) {
        records += input.records;
    }
    std::cout << "binarized " << result.inputs.size() << " files (" << records << " records), "
              << result.marks.size() << " marks: wrote " << result.files.size() << " files to "
              << command.outDir << " in " << result.seconds << " s\n";
    return 0;
}

} // namespace

CommandEntry addBinarizeCommand(CLI::App& root) {
    auto command = std::make_shared<BinarizeCommandOptions>();
    BinarizeOptions& o = command->options;
    OptionList list(addSubcommand(
        root, "binarize",
        "reads (BAM/SAM/CRAM, BED) or peaks -> ChromHMM binarized files, ChromHMM's calls"));
    list.text("chrom-sizes", command->chromSizes, "chromosome sizes file (NAME<TAB>LENGTH)")
        .required()
        .text("input-dir", command->inputDir, "folder of the files named in the table")
        .required()
        .text("cellmarkfiletable", command->table,
              "CELL<TAB>MARK<TAB>FILE[<TAB>CONTROL] per line, as ChromHMM takes it")
        .required()
        .text("control-dir", command->controlDir, "folder of the control files")
        .defaultText("--input-dir")
        .choice("format", command->format, {"auto", "bam", "bed", "peaks"},
                "input format (auto: from the file names)")
        .integer("bin-size", o.binSize, 1, 100000000, "bp per bin [ChromHMM -b]")
        .integer("shift", o.shift, -100000000, 100000000, "bp a read moves toward its 3' end [-n]")
        .real("poisson-threshold", o.poissonThreshold, 1e-300, 1,
              "upper-tail probability of the Poisson background [-p]")
        .real("fold-threshold", o.foldThreshold, 0, 1e300, "count >= fold x expected [-f]")
        .real("signal-threshold", o.signalThreshold, 0, 1e300, "count >= this [-g]")
        .integer("flank-width", o.flankWidth, 0, 100000000,
                 "control window: bins on each side [-w]")
        .integer("pseudocount", o.pseudocount, 0, 1000000, "added to every control bin [-u]")
        .flag("strict-threshold", o.strictThreshold,
              "Poisson tail strictly below the threshold [-strictthresh]")
        .flag("paired", o.paired, "one count per properly paired fragment (BAM) [-paired]")
        .flag("center", o.center, "bin of the read's midpoint, no shift [-center]")
        .flag("gzip", o.gzip, "write CELL_CHROM_binary.txt.gz [-gzip]")
        .flag("allow-missing-marks", o.allowMissingMarks,
              "a mark with no file for a cell is written as 2 (ChromHMM's behaviour)")
        .text("temp-dir", o.tempDir, "folder for the per-chromosome counts between the passes")
        .defaultText("system temporary folder")
        .integer("threads", command->threads, 0, 1024,
                 "files read (and written) in parallel; 0 = all cores")
        .text("out", command->outDir, "output folder")
        .required()
        .flag("json", command->json, "print a JSON summary");
    return {list.app(), [command, list]() {
                list.checkAfterParse();
                return runBinarize(*command, list.given("shift"));
            }};
}

} // namespace cx::cli
