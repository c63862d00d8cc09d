#include "core/topics/topic_documents.h"

#include "core/common/format.h"
#include "core/common/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace cx {

namespace {

/// log(r_k / (1 − r_k)) = s_k − log Σ_{j≠k} exp(s_j) for the log scores `score`;
/// `shifted` = exp(score − max score). O(K): only the best component needs its own sum.
Eigen::VectorXd posteriorLogOdds(const Eigen::RowVectorXd& score, const Eigen::ArrayXd& shifted) {
    const Eigen::Index k = score.size();
    Eigen::VectorXd out(k);
    Eigen::Index best = 0;
    const double top = score.maxCoeff(&best);
    const double total = shifted.sum();
    for (Eigen::Index t = 0; t < k; ++t) {
        if (t != best) {
            // Σ_{j≠t} exp(s_j − top) ≥ exp(s_best − top) = 1: no cancellation to fear.
            out[t] = score[t] - top - std::log(total - shifted[t]);
        }
    }
    double second = -std::numeric_limits<double>::infinity();
    for (Eigen::Index t = 0; t < k; ++t) {
        if (t != best) {
            second = std::max(second, score[t]);
        }
    }
    if (!std::isfinite(second)) {
        out[best] = std::numeric_limits<double>::infinity(); // no competitor
    } else {
        double others = 0;
        for (Eigen::Index t = 0; t < k; ++t) {
            if (t != best) {
                others += std::exp(score[t] - second);
            }
        }
        out[best] = top - second - std::log(others);
    }
    return out;
}

} // namespace

Eigen::MatrixXd documentPosteriors(const CountMatrix& counts,
                                   const std::vector<std::int64_t>& documents,
                                   const TopicModelResult& model, const ScorerSmoothing& smoothing,
                                   Eigen::MatrixXd* logOdds) {
    const Eigen::Index d = model.topics.rows();
    if (d != counts.numCols) {
        throw std::invalid_argument("documentPosteriors: model vocabulary " + std::to_string(d) +
                                    " != corpus vocabulary " + std::to_string(counts.numCols));
    }
    const int k = model.numComponents();
    if (k == 0) {
        throw std::invalid_argument("documentPosteriors: the model has no component");
    }
    std::vector<Eigen::Index> components(static_cast<size_t>(k));
    Eigen::VectorXd weights(k);
    for (int t = 0; t < k; ++t) {
        components[static_cast<size_t>(t)] = t;
        weights[t] = std::abs(model.signedWeights[t]);
    }
    if (!(weights.sum() > 0)) {
        weights.setOnes(); // no weight information: a flat prior
    }
    const SmoothedTopics smoothed =
        smoothedLogTopics(counts, documents, model, components, weights, smoothing);
    const auto n = static_cast<Eigen::Index>(documents.size());
    Eigen::MatrixXd out(k, n);
    if (logOdds != nullptr) {
        logOdds->resize(k, n);
    }
    parallelFor(n, [&](std::int64_t index) {
        const std::int64_t row = documents[static_cast<size_t>(index)];
        Eigen::RowVectorXd score = smoothed.logPrior.transpose();
        for (std::int64_t p = counts.rowPtr[row]; p < counts.rowPtr[row + 1]; ++p) {
            score.noalias() +=
                static_cast<double>(counts.counts[p]) * smoothed.logTopics.row(counts.colIdx[p]);
        }
        // log π_k = −∞ for a zero weight: exp gives 0 there; the maximum is finite.
        const double top = score.maxCoeff();
        const Eigen::ArrayXd shifted = (score.array() - top).exp().transpose();
        out.col(index) = (shifted / shifted.sum()).matrix();
        if (logOdds != nullptr) {
            logOdds->col(index) = posteriorLogOdds(score, shifted);
        }
    });
    return out;
}

std::vector<RankedDocument> rankDocuments(const Eigen::MatrixXd& posteriors,
                                          const std::vector<std::int64_t>& documents, int component,
                                          std::int64_t count, const Eigen::MatrixXd* logOdds) {
    if (component < 0 || component >= posteriors.rows()) {
        throw std::invalid_argument("rankDocuments: component " + std::to_string(component) +
                                    " outside 0.." + std::to_string(posteriors.rows() - 1));
    }
    if (posteriors.cols() != static_cast<Eigen::Index>(documents.size())) {
        throw std::invalid_argument("rankDocuments: " + std::to_string(posteriors.cols()) +
                                    " posterior columns but " + std::to_string(documents.size()) +
                                    " documents");
    }
    if (logOdds != nullptr &&
        (logOdds->rows() != posteriors.rows() || logOdds->cols() != posteriors.cols())) {
        throw std::invalid_argument("rankDocuments: log-odds of another shape than the posteriors");
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<RankedDocument> all(documents.size());
    for (size_t i = 0; i < documents.size(); ++i) {
        const auto column = static_cast<Eigen::Index>(i);
        all[i] = {documents[i], posteriors(component, column),
                  logOdds != nullptr ? (*logOdds)(component, column) : nan};
    }
    // NaN log-odds (none given) compare as equal, leaving the document index.
    const auto better = [](const RankedDocument& a, const RankedDocument& b) {
        if (a.score != b.score) {
            return a.score > b.score;
        }
        if (a.logOdds > b.logOdds || a.logOdds < b.logOdds) {
            return a.logOdds > b.logOdds;
        }
        return a.document < b.document;
    };
    const auto keep = static_cast<size_t>(
        std::clamp<std::int64_t>(count, 0, static_cast<std::int64_t>(all.size())));
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                      better);
    all.resize(keep);
    return all;
}

std::string tsvField(const std::string& text) {
    std::string out = text;
    for (char& c : out) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
            c = ' ';
        }
    }
    return out;
}

namespace {

bool isWordByte(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

std::string lowerAscii(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

bool isContinuationByte(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

/// The excerpt's first `maxCharacters` code points, words in `marked` wrapped in [ ].
std::string markedText(const std::string& text, const std::unordered_set<std::string>& marked,
                       size_t maxCharacters) {
    std::string out;
    size_t characters = 0;
    size_t i = 0;
    while (i < text.size() && characters < maxCharacters) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (!isWordByte(c)) {
            out.push_back(text[i]);
            ++characters;
            ++i;
            continue;
        }
        size_t end = i;
        while (end < text.size() && isWordByte(static_cast<unsigned char>(text[end]))) {
            ++end;
        }
        // Take the whole word if it fits, else as many code points as fit.
        size_t take = i;
        size_t wordCharacters = 0;
        while (take < end && characters + wordCharacters < maxCharacters) {
            ++take;
            while (take < end && isContinuationByte(static_cast<unsigned char>(text[take]))) {
                ++take;
            }
            ++wordCharacters;
        }
        const std::string_view word(text.data() + i, take - i);
        const bool mark = take == end && marked.count(lowerAscii(word)) > 0;
        out += mark ? "[" + std::string(word) + "]" : std::string(word);
        characters += wordCharacters;
        i = take;
    }
    if (i < text.size()) {
        out += "\u2026";
    }
    return out;
}

} // namespace

std::string documentSnippet(const Corpus& corpus, std::int64_t document,
                            const std::vector<std::string>& markedWords, size_t maxCharacters) {
    if (document < 0 || document >= corpus.numDocuments()) {
        throw std::invalid_argument("documentSnippet: document " + std::to_string(document) +
                                    " outside 0.." + std::to_string(corpus.numDocuments() - 1));
    }
    std::unordered_set<std::string> marked;
    for (const std::string& word : markedWords) {
        marked.insert(lowerAscii(word));
    }
    if (static_cast<std::int64_t>(corpus.documentExcerpts.size()) == corpus.numDocuments()) {
        return tsvField(markedText(corpus.documentExcerpts[static_cast<size_t>(document)], marked,
                                   maxCharacters));
    }
    // Bag of words: the most frequent words, ties alphabetical (the vocabulary is sorted).
    const CountMatrix& counts = corpus.counts;
    std::vector<std::pair<float, std::int32_t>> words;
    for (std::int64_t p = counts.rowPtr[document]; p < counts.rowPtr[document + 1]; ++p) {
        words.emplace_back(counts.counts[p], counts.colIdx[p]);
    }
    std::stable_sort(words.begin(), words.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out;
    size_t characters = 0;
    for (const auto& [count, column] : words) {
        const std::string& word = corpus.vocabulary[static_cast<size_t>(column)];
        std::string item = marked.count(lowerAscii(word)) > 0 ? "[" + word + "]" : word;
        item += "\u00d7" + std::to_string(static_cast<std::int64_t>(count));
        if (!out.empty() && characters + 1 + item.size() > maxCharacters) {
            out += " \u2026";
            break;
        }
        if (!out.empty()) {
            out += ' ';
            ++characters;
        }
        characters += item.size();
        out += item;
    }
    return tsvField(out);
}

std::string documentLabelValues(const LabelField& field, std::int64_t document) {
    const auto row = static_cast<size_t>(document);
    std::string values;
    if (document < 0 || row + 1 >= field.offsets.size()) {
        return values;
    }
    for (std::int64_t v = field.offsets[row]; v < field.offsets[row + 1]; ++v) {
        values += (values.empty() ? "" : ",") +
                  field.values[static_cast<size_t>(field.valueIds[static_cast<size_t>(v)])];
    }
    return values;
}

std::vector<std::pair<std::string, double>> documentWordCounts(const Corpus& corpus,
                                                               std::int64_t document) {
    if (document < 0 || document >= corpus.numDocuments()) {
        throw std::invalid_argument("documentWordCounts: document " + std::to_string(document) +
                                    " outside 0.." + std::to_string(corpus.numDocuments() - 1));
    }
    const CountMatrix& counts = corpus.counts;
    std::vector<std::pair<std::string, double>> words;
    for (std::int64_t p = counts.rowPtr[document]; p < counts.rowPtr[document + 1]; ++p) {
        words.emplace_back(corpus.vocabulary[static_cast<size_t>(counts.colIdx[p])],
                           static_cast<double>(counts.counts[p]));
    }
    std::sort(words.begin(), words.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return words;
}

std::string topicDocumentHeader(const Corpus& corpus) {
    std::string out = "topic\trank\tdocument\tsource\tscore\tlog_odds";
    for (const LabelField& field : corpus.labels) {
        out += '\t' + tsvField(field.name);
    }
    return out + "\tforeground_specific\tadmissible\tsnippet\n";
}

std::string topicDocumentRow(const Corpus& corpus, const std::string& topic, std::int64_t rank,
                             const RankedDocument& ranked, bool foregroundSpecific, bool admissible,
                             const std::vector<std::string>& marked) {
    const std::int64_t n = ranked.document;
    const auto row = static_cast<size_t>(n);
    std::string out =
        tsvField(topic) + '\t' + std::to_string(rank) + '\t' + std::to_string(n) + '\t' +
        tsvField(row < corpus.documentIds.size() ? corpus.documentIds[row] : std::to_string(n)) +
        '\t' + formatNumber(ranked.score) + '\t' + formatNumber(ranked.logOdds);
    for (const LabelField& field : corpus.labels) {
        out += '\t' + tsvField(documentLabelValues(field, n));
    }
    out += std::string("\t") + (foregroundSpecific ? "1" : "0") + '\t' + (admissible ? "1" : "0") +
           '\t' + documentSnippet(corpus, n, marked) + '\n';
    return out;
}

} // namespace cx
