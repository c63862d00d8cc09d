// contrast-cli enrichment: ChromHMM-compatible overlap enrichment of a segmentation's states with
// annotation BED files and neighbourhood enrichment around anchor positions (core/hmm/enrichment),
// written as ChromHMM's tables (overlap.tsv, neighborhood_ANCHOR.tsv) with heatmaps (SVG, and PNG
// rasterised from the same SVG by librsvg) and an IGV batch script.
#include "commands.h"
#include "png_render.h"
#include "topic_session.h" // writeFileAtomically

#include "core/common/error.h"
#include "core/common/svg_heatmap.h"
#include "core/common/timer.h"
#include "core/hmm/decoding.h"
#include "core/hmm/enrichment.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace cx::cli {

namespace {

/// The options of `enrichment` (declared in addEnrichmentCommand).
struct EnrichmentCommandOptions {
    std::string segments;
    std::vector<std::string> coords;
    std::vector<std::string> anchors;
    int binSize = 200;
    std::string outDir;
    bool json = false;
    bool binResolution = false;
    bool center = false;
    bool multiCount = false;
    bool uniformScale = false;
    bool pValues = false;
    bool noStrand = false;
    int left = 10;
    int right = 10;
    int spacing = 0;
    bool noImages = false;
    int dpi = 300;
};

/// "tss_anchors.txt.gz" → "tss_anchors": the ANCHOR of neighborhood_ANCHOR.tsv.
std::string anchorName(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    for (const char* suffix : {".gz", ".txt", ".tsv", ".bed"}) {
        const std::string s = suffix;
        if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
            name.resize(name.size() - s.size());
        }
    }
    for (char& c : name) {
        if (c == '/' || c == '\\' || c == ' ') {
            c = '_';
        }
    }
    return name.empty() ? "anchors" : name;
}

std::string tableText(const EnrichmentTable& table, bool pValues = false) {
    std::ostringstream out;
    if (pValues) {
        writeEnrichmentPValues(out, table);
    } else {
        writeEnrichmentTable(out, table);
    }
    return out.str();
}

/// ChromHMM's heatmap: the overlap table with its Genome % column, scaled per column unless
/// uniform; the neighbourhood table on one scale.
std::string heatmapSvg(const EnrichmentTable& table, const std::string& title,
                       const std::string& xAxis, bool perColumn) {
    Eigen::MatrixXd values = table.fold;
    std::vector<std::string> columns = table.columnNames;
    if (table.genomePercent.size() > 0) {
        values.resize(table.fold.rows(), table.fold.cols() + 1);
        values.col(0) = table.genomePercent;
        values.rightCols(table.fold.cols()) = table.fold;
        columns.insert(columns.begin(), "Genome %");
    }
    SvgHeatmapOptions options;
    options.title = title;
    options.xAxisLabel = xAxis;
    options.yAxisLabel = table.corner;
    options.scalePerColumn = perColumn;
    std::ostringstream out;
    writeSvgHeatmap(out, values, table.rowLabels, columns, options);
    return out.str();
}

/// Writes STEM.svg and STEM.png (the SVG rasterised at `dpi`) into `dir`, listing them in
/// `written`. A PNG librsvg cannot make (e.g. larger than a PNG image can be at this resolution)
/// is a warning: the tables and the SVG are still written.
void writeHeatmap(const std::string& dir, const std::string& stem, const std::string& svg, int dpi,
                  std::vector<std::string>& written, std::vector<std::string>& warnings) {
    writeFileAtomically(dir, stem + ".svg", svg);
    written.push_back(stem + ".svg");
    std::string png;
    try {
        png = renderSvgToPng(svg, dpi);
    } catch (const std::runtime_error& error) {
        warnings.push_back(stem + ".png not written (" + error.what() +
                           "); a lower --dpi may fit, " + stem + ".svg has the heatmap");
        return;
    }
    writeFileAtomically(dir, stem + ".png", png);
    written.push_back(stem + ".png");
}

nlohmann::ordered_json tableJson(const EnrichmentTable& table) {
    using Json = nlohmann::ordered_json;
    const auto finite = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
    Json rows = Json::array();
    for (Eigen::Index r = 0; r < table.fold.rows(); ++r) {
        Json row;
        row["state"] = table.rowLabels[static_cast<size_t>(r)];
        if (table.genomePercent.size() > 0) {
            row["genome_percent"] = table.genomePercent(r);
        }
        Json fold = Json::array();
        for (Eigen::Index c = 0; c < table.fold.cols(); ++c) {
            fold.push_back(finite(table.fold(r, c)));
        }
        row["fold"] = fold;
        if (table.log10PValues.size() > 0) {
            Json p = Json::array();
            for (Eigen::Index c = 0; c < table.log10PValues.cols(); ++c) {
                p.push_back(table.log10PValues(r, c));
            }
            row["log10_pvalue"] = p;
        }
        rows.push_back(row);
    }
    Json out;
    out["columns"] = table.columnNames;
    out["rows"] = rows;
    if (table.basePercent.size() > 0) {
        out["base_percent"] = std::vector<double>(
            table.basePercent.data(), table.basePercent.data() + table.basePercent.size());
    }
    return out;
}

std::string absolutePathText(const std::string& path) {
    std::error_code error;
    const auto full = std::filesystem::absolute(path, error);
    return error ? path : full.lexically_normal().string();
}

int runEnrichment(const EnrichmentCommandOptions& command) {
    if (command.coords.empty() && command.anchors.empty()) {
        throw InputError("parameter --coords: give annotation files or a folder (or --anchors)");
    }
    createOutputFolder(command.outDir);
    Stopwatch watch;
    const StateSegmentation segmentation = readStateSegmentation(command.segments, command.binSize);
    std::vector<std::string> warnings = segmentation.warnings;
    std::vector<std::string> written;

    using Json = nlohmann::ordered_json;
    Json json;
    json["command"] = "enrichment";
    json["parameters"] = {{"segments", command.segments},
                          {"bin_size", command.binSize},
                          {"base_resolution", !command.binResolution},
                          {"center", command.center},
                          {"multicount", command.multiCount},
                          {"uniform_scale", command.uniformScale},
                          {"pvalues", command.pValues},
                          {"strand", !command.noStrand},
                          {"left", command.left},
                          {"right", command.right},
                          {"spacing", command.spacing > 0 ? command.spacing : command.binSize},
                          {"images", !command.noImages},
                          {"dpi", command.dpi}};
    std::vector<std::string> states;
    for (int s = 0; s < segmentation.numIndices(); ++s) {
        if (segmentation.stateBins[static_cast<size_t>(s)] > 0) {
            states.push_back(segmentation.stateLabels[static_cast<size_t>(s)]);
        }
    }
    json["segmentation"] = {
        {"chromosomes", segmentation.chroms}, {"states", states}, {"bins", segmentation.totalBins}};

    std::vector<std::string> annotationPaths;
    if (!command.coords.empty()) {
        const auto annotations = readEnrichmentAnnotations(command.coords);
        OverlapEnrichmentOptions options;
        options.baseResolution = !command.binResolution;
        options.center = command.center;
        options.multiCount = command.multiCount;
        options.genomeColumn = !command.uniformScale;
        options.pValues = command.pValues;
        const EnrichmentTable table = overlapEnrichment(segmentation, annotations, options);
        warnings.insert(warnings.end(), table.warnings.begin(), table.warnings.end());
        writeFileAtomically(command.outDir, "overlap.tsv", tableText(table));
        written.push_back("overlap.tsv");
        if (command.pValues) {
            writeFileAtomically(command.outDir, "overlap_log10pvals.tsv", tableText(table, true));
            written.push_back("overlap_log10pvals.tsv");
        }
        if (!command.noImages) {
            writeHeatmap(
                command.outDir, "overlap",
                heatmapSvg(table, "Overlap fold enrichment", "Annotation", !command.uniformScale),
                command.dpi, written, warnings);
        }
        json["overlap"] = tableJson(table);
        for (const auto& annotation : annotations) {
            annotationPaths.push_back(absolutePathText(annotation.path));
        }
    }

    std::set<std::string> usedNames;
    Json neighborhoods = Json::object();
    for (const auto& path : command.anchors) {
        std::string name = anchorName(path);
        for (int n = 2; usedNames.count(name); ++n) {
            name = anchorName(path) + "_" + std::to_string(n);
        }
        usedNames.insert(name);
        NeighborhoodEnrichmentOptions options;
        options.useStrand = !command.noStrand;
        options.numLeft = command.left;
        options.numRight = command.right;
        options.spacing = command.spacing;
        const EnrichmentTable table = neighborhoodEnrichment(
            segmentation, readAnchorFile(path, options.useStrand), path, options);
        warnings.insert(warnings.end(), table.warnings.begin(), table.warnings.end());
        const std::string stem = "neighborhood_" + name;
        writeFileAtomically(command.outDir, stem + ".tsv", tableText(table));
        written.push_back(stem + ".tsv");
        if (!command.noImages) {
            writeHeatmap(command.outDir, stem,
                         heatmapSvg(table, "Neighborhood fold enrichment: " + name,
                                    "Position (bp from anchor)", false),
                         command.dpi, written, warnings);
        }
        neighborhoods[name] = tableJson(table);
    }
    if (!command.anchors.empty()) {
        json["neighborhoods"] = neighborhoods;
    }

    std::vector<std::string> browserFiles{absolutePathText(command.segments)};
    browserFiles.insert(browserFiles.end(), annotationPaths.begin(), annotationPaths.end());
    const auto& firstChrom = segmentation.chroms.front();
    const std::int64_t chromEnd =
        static_cast<std::int64_t>(segmentation.bins.front().size()) * segmentation.binSize;
    writeFileAtomically(
        command.outDir, "igv_batch.txt",
        igvBatchScript(browserFiles, firstChrom + ":1-" +
                                         std::to_string(std::min<std::int64_t>(chromEnd, 100000))));
    written.push_back("igv_batch.txt");

    for (const auto& warning : warnings) {
        std::cerr << "contrast-cli enrichment: warning: " << warning << "\n";
    }
    json["files"] = written;
    json["warnings"] = warnings;
    json["elapsed_ms"] = watch.elapsedMs();
    if (command.json) {
        std::cout << json.dump(2) << "\n";
    } else {
        std::cout << "segmentation: " << segmentation.chroms.size() << " chromosome(s), "
                  << states.size() << " states, " << segmentation.totalBins << " bins of "
                  << segmentation.binSize << " bp\nwrote " << command.outDir << "/{";
        for (size_t i = 0; i < written.size(); ++i) {
            std::cout << (i ? "," : "") << written[i];
        }
        std::cout << "}\n";
    }
    return 0;
}

} // namespace

CommandEntry addEnrichmentCommand(CLI::App& root) {
    auto options = std::make_shared<EnrichmentCommandOptions>();
    OptionList list(addSubcommand(
        root, "enrichment",
        "ChromHMM-compatible overlap and neighbourhood enrichment of a segmentation's states"));
    list.text("segments", options->segments,
              "segmentation BED (chrom start end state), e.g. segments.bed of `hmm` or "
              "ChromHMM's _segments.bed")
        .required()
        .texts("coords", options->coords,
               "annotation BED files, or folders of them (every non-hidden file, as ChromHMM's "
               "COORDDIR): one overlap column each")
        .texts("anchors", options->anchors,
               "ANCHORFILES (chrom position strand): one neighborhood_ANCHOR.tsv each")
        .integer("bin-size", options->binSize, 1, 1000000000,
                 "bin size of the segmentation in bp (ChromHMM -b; 1 for lifted-over segments)")
        .text("out", options->outDir, "output folder")
        .required()
        .flag("json", options->json, "print a JSON summary (all tables) on standard output")
        .flag("binres", options->binResolution,
              "count whole bins an interval touches instead of base pairs (ChromHMM -binres)")
        .flag("center", options->center, "use only the centre of each interval (ChromHMM -center)")
        .flag("multicount", options->multiCount,
              "count overlapping intervals once each (ChromHMM -multicount)")
        .flag("uniformscale", options->uniformScale,
              "no Genome % column; one colour scale for the heatmap (ChromHMM -uniformscale)")
        .flag("pvalues", options->pValues,
              "also write overlap_log10pvals.tsv: -log10 hypergeometric p-values over base "
              "pairs (binomial with --multicount), as ChromHMM 1.27 -center")
        .flag("no-strand", options->noStrand,
              "read anchors as chrom position, all on '+' (ChromHMM -nostrand)")
        .integer("left", options->left, 0, 100000, "positions before each anchor (ChromHMM -l)")
        .integer("right", options->right, 0, 100000, "positions after each anchor (ChromHMM -r)")
        .integer("spacing", options->spacing, 0, 1000000000,
                 "bp between neighbourhood positions (ChromHMM -s; 0 = the bin size)")
        .integer("dpi", options->dpi, 72, 1200,
                 "resolution of the PNG heatmaps in dots per inch (the SVG is drawn at 96)")
        .flag("no-images", options->noImages, "do not write the heatmaps (SVG and PNG)");
    return {list.app(), [options, list]() {
                list.checkAfterParse();
                return runEnrichment(*options);
            }};
}

} // namespace cx::cli
