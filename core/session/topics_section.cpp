#include "core/session/topics_section.h"

#include "core/session/session_fields.h"

namespace cx {

std::string TopicsSection::corpusSpec() const {
    std::string spec;
    for (const auto& path : corpus) {
        spec += (spec.empty() ? "" : ",") + path.string();
    }
    return spec;
}

SessionJson TopicsSection::toJson(const std::filesystem::path& sessionDirectory) const {
    SessionJson section = SessionJson::object();
    section["corpus"] = SessionJson::array();
    for (const auto& path : corpus) {
        section["corpus"].push_back(dataPathToJson(path, sessionDirectory));
    }
    section["reader"] = {{"format", toString(reader.format)},
                         {"min_df", reader.minDocumentFrequency},
                         {"max_df", reader.maxDocumentFraction},
                         {"max_vocab", reader.maxVocabulary},
                         {"keep_stopwords", !reader.removeStopWords},
                         {"drop_numbers", reader.removeNumbers},
                         {"min_tokens", reader.minTokens}};
    section["foreground"] = foreground;
    section["background"] = {{"mode", backgroundMode}, {"rule", background}};
    section["model"] = {{"method", method},
                        {"k", numComponents},
                        {"gamma", gamma},
                        {"seed", seed},
                        {"iterations", iterations},
                        {"restarts", restarts},
                        {"decomposition", decomposition},
                        {"rank_per_side", rankPerSide},
                        {"range_iterations", rangeIterations},
                        {"smoothing", smoothing},
                        {"smoothing_prior", smoothingPrior}};
    section["auc"] = {{"positive", positive}, {"gammas", aucGammas}};
    if (bootstrap > 0) {
        section["auc"]["bootstrap"] = bootstrap;
    }
    section["auc"]["split_half"] = splitHalf;
    section["view"] = {{"top_words", topWords}, {"all_components", allComponents}};
    if (!topicNames.empty()) {
        SessionJson names = SessionJson::object();
        for (const auto& [identity, name] : topicNames) {
            names[std::to_string(identity)] = name;
        }
        section["view"]["names"] = names;
    }
    if (!savedBy.empty()) {
        section["saved_by"] = savedBy;
    }
    return section;
}

TopicsSection TopicsSection::fromSession(const Session& session, PathResolver& resolver) {
    const SessionFields fields(session.section(kKey), std::string("/workspaces/") + kKey,
                               session.file);
    TopicsSection section;
    section.corpus = resolver.resolveAll(fields, "corpus", "the section names no corpus");
    const SessionFields reader = fields.object("reader");
    section.reader.format = parseCorpusFormat(
        reader.choice("format", "auto", {"auto", "tsv", "csv", "uci", "reuters", "txt"}));
    section.reader.minDocumentFrequency = reader.integer("min_df", 2, 1, 1000000000);
    section.reader.maxDocumentFraction = reader.real("max_df", 1.0, 1e-9, 1.0);
    section.reader.maxVocabulary = reader.integer("max_vocab", 0, 0, 100000000);
    section.reader.removeStopWords = !reader.boolean("keep_stopwords", false);
    section.reader.removeNumbers =
        reader.boolean("drop_numbers", true); // CLI default (--keep-numbers)
    section.reader.minTokens = reader.integer("min_tokens", 3, 3, 1000000);

    // Empty when the session was saved before a foreground was chosen (corpus open, nothing
    // selected): the GUI reopens the corpus; `contrast-cli run` says there is nothing to compute.
    section.foreground = fields.string("foreground", "");
    if (fields.has("background") && fields.json().at("background").is_string()) {
        section.background = fields.string("background", "");
    } else {
        const SessionFields background = fields.object("background");
        section.backgroundMode =
            background.choice("mode", "rule", {"rule", "not_foreground", "all"});
        section.background = background.string("rule", "");
    }
    if (!section.foreground.empty() && section.backgroundMode == "rule" &&
        section.background.empty()) {
        fields.fail("background", "missing: a background rule (or \"mode\": \"not_foreground\")");
    }

    const SessionFields model = fields.object("model");
    section.method = model.choice("method", "projected", {"projected", "direct"});
    section.numComponents = static_cast<int>(model.integer("k", 10, 1, 1000));
    section.gamma = model.real("gamma", 0.0, 0.0, 1e12);
    section.seed = model.seed("seed", 1);
    section.iterations = static_cast<int>(model.integer("iterations", 100, 1, 100000));
    section.restarts = static_cast<int>(model.integer("restarts", 5, 1, 1000));
    section.decomposition = model.choice("decomposition", "power", {"power", "jennrich", "pencil"});
    section.rankPerSide = static_cast<int>(model.integer("rank_per_side", 0, 0, 100000));
    section.rangeIterations = static_cast<int>(model.integer("range_iterations", 3, 0, 100));
    // 0 = the Jeffreys rule (kAutoSmoothing); sessions saved before it existed carry 0.01.
    section.smoothing = model.real("smoothing", 0.0, 0.0, 1e6);
    // Absent in sessions saved before the word-frequency prior: they scored with the uniform one.
    section.smoothingPrior = model.choice("smoothing_prior", "uniform", {"frequency", "uniform"});

    const SessionFields auc = fields.object("auc");
    section.positive = auc.string("positive", "");
    section.aucGammas = auc.string("gammas", section.aucGammas);
    if (section.aucGammas.empty()) {
        auc.fail("gammas", "must not be empty (FROM:TO:STEP)");
    }
    section.bootstrap = auc.resamples("bootstrap", kMaxResamples);
    if (section.bootstrap > 0 && section.positive.empty()) {
        auc.fail("bootstrap", "needs the positive rule (the bootstrap resamples the AUC sweep)");
    }
    section.splitHalf = auc.boolean("split_half", false);
    const SessionFields view = fields.object("view");
    section.topWords = static_cast<int>(view.integer("top_words", 10, 1, 10000));
    section.allComponents = view.boolean("all_components", false);
    if (view.has("names")) {
        const SessionJson& names = view.json().at("names");
        if (!names.is_object()) {
            view.fail("names", "must be an object of topic identity → name");
        }
        for (const auto& [key, value] : names.items()) {
            const bool digits = !key.empty() && key.size() <= 6 &&
                                key.find_first_not_of("0123456789") == std::string::npos;
            if (!digits || !value.is_string() || value.get<std::string>().size() > 200) {
                view.fail("names", "entry '" + key +
                                       "': expected a topic identity (0, 1, …) and a name of at "
                                       "most 200 characters");
            }
            section.topicNames[std::stoi(key)] = value.get<std::string>();
        }
    }
    section.savedBy = fields.choice("saved_by", "", {"", "topics", "sweep"});
    if (section.savedBy == "sweep" && section.positive.empty()) {
        auc.fail("positive", "missing: a section saved by sweep needs the positive rule");
    }
    return section;
}

} // namespace cx
