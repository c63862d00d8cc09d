#include "topic_job.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/topics/topic_admissibility.h"

#include "core/topics/topic_coherence.h"
#include "core/topics/topic_documents.h"
#include "core/topics/topic_trust.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cx::cli {

namespace {

std::string topicWordTable(const Corpus& corpus, const TopicModelResult& model) {
    std::string out = "word";
    for (int t = 0; t < model.numComponents(); ++t) {
        out += "\tc" + std::to_string(t + 1);
    }
    out += '\n';
    for (size_t i = 0; i < corpus.vocabulary.size(); ++i) {
        out += corpus.vocabulary[i];
        for (int t = 0; t < model.numComponents(); ++t) {
            out += '\t';
            out += formatNumber(model.topics(static_cast<Eigen::Index>(i), t));
        }
        out += '\n';
    }
    return out;
}

std::string componentTable(const TopicModelResult& model, const std::vector<double>& npmi) {
    // signed_weight = sign(λ̂)/λ̂² (ω); admissible = ω ∈ [−γ, 1] (topic_admissibility.h);
    // npmi = coherence of the top kCoherenceWords words (topic_coherence.h).
    const ComponentAdmissibility admissibility = checkComponents(model);
    std::string out =
        "component\tlambda\tweight\tforeground_specific\tsigned_weight\tadmissible\tnpmi\n";
    for (int t = 0; t < model.numComponents(); ++t) {
        out += "c" + std::to_string(t + 1) + '\t' + formatNumber(model.lambdas[t]) + '\t' +
               formatNumber(model.weights[t]) + '\t' +
               (model.foregroundSpecific[static_cast<size_t>(t)] ? "1" : "0") + '\t' +
               formatNumber(model.signedWeights[t]) + '\t' +
               (admissibility.admissible(t) ? "1" : "0") + '\t' +
               formatNumber(npmi[static_cast<size_t>(t)]) + '\n';
    }
    return out;
}

std::string topWordTable(const Corpus& corpus, const TopicModelResult& model, int count,
                         const std::vector<double>& npmi) {
    const ComponentAdmissibility admissibility = checkComponents(model);
    std::string out = "component\tforeground_specific\tweight\trank\tword\tprobability\tadmissible"
                      "\tnpmi\n";
    for (int t = 0; t < model.numComponents(); ++t) {
        const char* admissible = admissibility.admissible(t) ? "1" : "0";
        const auto top = topEntries(model.topics.col(t), count);
        for (size_t rank = 0; rank < top.size(); ++rank) {
            out += "c" + std::to_string(t + 1) + '\t' +
                   (model.foregroundSpecific[static_cast<size_t>(t)] ? "1" : "0") + '\t' +
                   formatNumber(model.signedWeights[t]) + '\t' + std::to_string(rank + 1) + '\t' +
                   corpus.vocabulary[static_cast<size_t>(top[rank])] + '\t' +
                   formatNumber(model.topics(top[rank], t)) + '\t' + admissible + '\t' +
                   formatNumber(npmi[static_cast<size_t>(t)]) + '\n';
        }
    }
    return out;
}

} // namespace

TopicModelResult solveTopics(const TopicSession& session, double gamma) {
    if (session.method == "direct") {
        return solveContrastiveTopicsDirect(session.engine->foreground(),
                                            session.engine->background(), gamma,
                                            session.modelOptions);
    }
    return session.engine->solve(gamma, session.modelOptions);
}

void writeTopicFiles(const TopicSession& session, const TopicModelResult& model,
                     const std::string& outDir) {
    writeFileAtomically(outDir, "topic_word.tsv", topicWordTable(*session.corpus, model));
    const std::vector<double> npmi = corpusCoherence(session, model);
    writeFileAtomically(outDir, "components.tsv", componentTable(model, npmi));
    writeFileAtomically(outDir, "top_words.tsv",
                        topWordTable(*session.corpus, model, session.topWords, npmi));
}

std::vector<double> corpusCoherence(const TopicSession& session, const TopicModelResult& model) {
    std::vector<std::int64_t> every(static_cast<size_t>(session.corpus->numDocuments()));
    std::iota(every.begin(), every.end(), std::int64_t{0});
    return topicCoherence(session.corpus->counts, every, model);
}

std::vector<std::int64_t> topDocumentPool(const TopicSession& session, const std::string& from) {
    if (from == "foreground") {
        return session.foreground;
    }
    if (from == "background") {
        return session.background;
    }
    std::vector<std::int64_t> pool = session.foreground;
    pool.insert(pool.end(), session.background.begin(), session.background.end());
    std::sort(pool.begin(), pool.end());
    pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
    return pool;
}

std::string topicDocumentTable(const TopicSession& session, const TopicModelResult& model,
                               std::int64_t count, const std::string& from, bool allComponents) {
    const Corpus& corpus = *session.corpus;
    const std::vector<std::int64_t> pool = topDocumentPool(session, from);
    Eigen::MatrixXd logOdds;
    const Eigen::MatrixXd posteriors =
        documentPosteriors(corpus.counts, pool, model, session.scorerSmoothing(), &logOdds);
    const ComponentAdmissibility admissibility = checkComponents(model);
    std::string out = topicDocumentHeader(corpus);
    for (int t = 0; t < model.numComponents(); ++t) {
        const bool specific = model.foregroundSpecific[static_cast<size_t>(t)];
        if (!specific && !allComponents) {
            continue;
        }
        std::vector<std::string> marked;
        for (auto i : topEntries(model.topics.col(t), session.topWords)) {
            marked.push_back(corpus.vocabulary[static_cast<size_t>(i)]);
        }
        // Ties in the posterior (many exactly 1 on Reuters) by the log-odds, as the GUI.
        const std::vector<RankedDocument> ranked =
            rankDocuments(posteriors, pool, t, count, &logOdds);
        for (size_t rank = 0; rank < ranked.size(); ++rank) {
            out += topicDocumentRow(corpus, "c" + std::to_string(t + 1),
                                    static_cast<std::int64_t>(rank + 1), ranked[rank], specific,
                                    admissibility.admissible(t), marked);
        }
    }
    return out;
}

std::vector<bool> positiveFlags(const TopicSession& session, const std::string& rule) {
    std::vector<bool> positive = session.foregroundMatching(rule);
    const auto numPositive = std::count(positive.begin(), positive.end(), true);
    if (numPositive == 0 || numPositive == static_cast<long>(positive.size())) {
        throw InputError("parameter --positive: rule '" + rule + "' matches " +
                         std::to_string(numPositive) + " of " + std::to_string(positive.size()) +
                         " foreground documents; the AUC needs both classes");
    }
    return positive;
}

double bandAt(const SpecificitySweep& sweep, const SpecificityPoint& p,
              const std::vector<double>& values) {
    const int i = sweep.path.nearest(p.gamma);
    return values.empty() || i < 0 ? std::nan("") : values[static_cast<size_t>(i)];
}

int inadmissibleAt(const SpecificitySweep& sweep, const SpecificityPoint& p,
                   const PathBootstrap* bands) {
    const int i = sweep.path.nearest(p.gamma);
    return i < 0 ? 0 : checkPathPoint(sweep.path, i, bands).inadmissible;
}

std::string sweepTable(const SpecificitySweep& sweep, const PathBootstrap* bands) {
    std::string table = "gamma\tauc\trelative_auc\tn_foreground_specific";
    table +=
        bands != nullptr ? "\tauc_lo\tauc_hi\tn_inadmissible\tnote\n" : "\tn_inadmissible\tnote\n";
    const std::vector<GammaVerdict> verdicts = judgeSweep(sweep, bands);
    for (size_t q = 0; q < sweep.points.size(); ++q) {
        const SpecificityPoint& p = sweep.points[q];
        table += formatNumber(p.gamma) + '\t' + formatNumber(p.auc) + '\t' +
                 formatNumber(p.relativeAuc) + '\t' + std::to_string(p.numForegroundSpecific);
        if (bands != nullptr) {
            table += '\t' + formatNumber(bandAt(sweep, p, bands->aucLo)) + '\t' +
                     formatNumber(bandAt(sweep, p, bands->aucHi));
        }
        // The note says why the app does not stand behind this γ (judgeSweep): no AUC, an
        // inadmissible foreground-specific component, instability under the bootstrap, a
        // component missing from a half of the documents, signal below the split-half noise.
        table += '\t' + std::to_string(inadmissibleAt(sweep, p, bands)) + '\t' +
                 tsvField(verdicts[q].trusted ? std::string() : verdicts[q].reason) + '\n';
    }
    return table;
}

} // namespace cx::cli
