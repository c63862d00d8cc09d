#include "core/session/crowd_section.h"

#include "core/session/session_fields.h"

namespace cx {

CrowdOptions CrowdSection::options() const {
    CrowdOptions out;
    out.numComponents = numComponents;
    out.seed = seed;
    out.restarts = restarts;
    out.em.maxIterations = maxIterations;
    out.em.smoothing = smoothing;
    out.significance = significance;
    out.extensionSignificance = extensionSignificance;
    out.extensionProcedure = extensionProcedure == multipleTestingName(MultipleTesting::Holm)
                                 ? MultipleTesting::Holm
                                 : MultipleTesting::BenjaminiHochberg;
    return out;
}

SessionJson CrowdSection::toJson(const std::filesystem::path& sessionDirectory) const {
    SessionJson section = SessionJson::object();
    section["labels"] = dataPathToJson(std::filesystem::absolute(labels), sessionDirectory);
    if (!gold.empty()) {
        section["gold"] = dataPathToJson(std::filesystem::absolute(gold), sessionDirectory);
    }
    section["model"] = {{"method", method},
                        {"k", numComponents},
                        {"seed", seed},
                        {"restarts", restarts},
                        {"max_iter", maxIterations},
                        {"smoothing", smoothing},
                        {"significance", significance},
                        {"extension_significance", extensionSignificance},
                        {"extension_procedure", extensionProcedure}};
    section["view"] = {{"worker_filter", workerFilter}, {"compare", compare}};
    if (workerSortColumn >= 0) {
        section["view"]["worker_sort_column"] = workerSortColumn;
        section["view"]["worker_sort_descending"] = workerSortDescending;
    }
    if (!savedBy.empty()) {
        section["saved_by"] = savedBy;
    }
    return section;
}

CrowdSection CrowdSection::fromSession(const Session& session, PathResolver& resolver) {
    const SessionFields fields(session.section(kKey), std::string("/workspaces/") + kKey,
                               session.file);
    CrowdSection section;
    if (!fields.has("labels")) {
        fields.fail("labels", "missing: the section names no label file");
    }
    section.labels = resolver.resolve(fields.json().at("labels"), fields.pointer("labels"));
    if (fields.has("gold") && !fields.json().at("gold").is_null()) {
        section.gold = resolver.resolve(fields.json().at("gold"), fields.pointer("gold"));
    }
    const SessionFields model = fields.object("model");
    section.method =
        model.choice("method", "stagewise-refine",
                     {"mv", "em", "mv-em", "spectral-em", "stagewise", "stagewise-refine"});
    section.numComponents = static_cast<int>(model.integer("k", 0, 0, 64));
    if (section.numComponents == 1) {
        model.fail("k", "1 component cannot aggregate anything (0 = number of classes, or 2–64)");
    }
    section.seed = model.seed("seed", 1);
    section.restarts = static_cast<int>(model.integer("restarts", 10, 1, 10000));
    section.maxIterations = static_cast<int>(model.integer("max_iter", 100, 1, 1000000));
    section.smoothing = model.real("smoothing", 0.01, 0.0, 1e6);
    section.significance = model.real("significance", 0.0, 0.0, 0.999999);
    section.extensionSignificance = model.real("extension_significance", 0.05, 0.0, 0.999999);
    section.extensionProcedure = model.choice("extension_procedure", "bh", {"bh", "holm"});
    const SessionFields view = fields.object("view");
    section.workerFilter = view.string("worker_filter", "");
    section.compare = view.boolean("compare", false);
    section.workerSortColumn = static_cast<int>(view.integer("worker_sort_column", -1, -1, 64));
    section.workerSortDescending = view.boolean("worker_sort_descending", false);
    section.savedBy = fields.choice("saved_by", "", {"", "crowd"});
    return section;
}

} // namespace cx
