#include "core/session/reads_section.h"

#include "core/session/session_fields.h"

namespace cx {

namespace {

const char* formatName(BinarizeFormat format) {
    switch (format) {
    case BinarizeFormat::Bam:
        return "bam";
    case BinarizeFormat::Bed:
        return "bed";
    case BinarizeFormat::Peaks:
        return "peaks";
    default:
        return "auto";
    }
}

} // namespace

SessionJson ReadsSection::toJson(const std::filesystem::path& sessionDirectory) const {
    const ReadsSection& reads = *this;
    SessionJson out = SessionJson::object();
    out["files"] = SessionJson::array();
    for (const auto& entry : reads.entries) {
        SessionJson file = dataPathToJson(entry.file, sessionDirectory);
        file["cell"] = entry.cell;
        file["mark"] = entry.mark;
        if (!entry.control.empty()) {
            file["control"] = dataPathToJson(entry.control, sessionDirectory);
        }
        out["files"].push_back(std::move(file));
    }
    out["chrom_sizes"] = dataPathToJson(reads.chromSizes, sessionDirectory);
    out["out_dir"] = reads.outDir.string();
    const BinarizeOptions& o = reads.options;
    out["options"] = {{"format", formatName(o.format)},
                      {"bin_size", o.binSize},
                      {"shift", o.shift},
                      {"poisson_threshold", o.poissonThreshold},
                      {"fold_threshold", o.foldThreshold},
                      {"signal_threshold", o.signalThreshold},
                      {"flank_width", o.flankWidth},
                      {"pseudocount", o.pseudocount},
                      {"strict", o.strictThreshold},
                      {"paired", o.paired},
                      {"center", o.center},
                      {"gzip", o.gzip}};
    return out;
}

ReadsSection ReadsSection::fromJson(const SessionFields& fields, PathResolver& resolver) {
    ReadsSection reads;
    for (const SessionFields& file : fields.objects("files")) {
        Entry entry;
        entry.file = resolver.resolve(file.json(), file.pointer());
        entry.cell = file.requiredString("cell");
        entry.mark = file.requiredString("mark");
        if (file.has("control")) {
            entry.control = resolver.resolve(file.json().at("control"), file.pointer("control"));
        }
        reads.entries.push_back(std::move(entry));
    }
    if (reads.entries.empty()) {
        fields.fail("files", "the reads name no file");
    }
    if (!fields.has("chrom_sizes")) {
        fields.fail("chrom_sizes", "missing");
    }
    reads.chromSizes =
        resolver.resolve(fields.json().at("chrom_sizes"), fields.pointer("chrom_sizes"));
    reads.outDir = fields.requiredString("out_dir");
    const SessionFields options = fields.object("options");
    BinarizeOptions& o = reads.options;
    const std::string format = options.choice("format", "auto", {"auto", "bam", "bed", "peaks"});
    o.format = format == "bam"     ? BinarizeFormat::Bam
               : format == "bed"   ? BinarizeFormat::Bed
               : format == "peaks" ? BinarizeFormat::Peaks
                                   : BinarizeFormat::Auto;
    o.binSize = static_cast<int>(options.integer("bin_size", 200, 1, 1000000000));
    o.shift = static_cast<int>(options.integer("shift", 100, 0, 1000000000));
    o.poissonThreshold = options.real("poisson_threshold", 1e-4, 0.0, 1.0);
    o.foldThreshold = options.real("fold_threshold", 0.0, 0.0, 1e12);
    o.signalThreshold = options.real("signal_threshold", 0.0, 0.0, 1e12);
    o.flankWidth = static_cast<int>(options.integer("flank_width", 5, 0, 1000000000));
    o.pseudocount = static_cast<int>(options.integer("pseudocount", 1, 0, 1000000000));
    o.strictThreshold = options.boolean("strict", false);
    o.paired = options.boolean("paired", false);
    o.center = options.boolean("center", false);
    o.gzip = options.boolean("gzip", false);
    return reads;
}

} // namespace cx
