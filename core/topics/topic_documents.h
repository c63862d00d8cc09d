#pragma once

// The documents behind a topic: each document's posterior responsibility of each
// component under the single-topic model, ranked lists per component, and a one-line snippet.

#include "core/io/corpus.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/topic_evaluation.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// Posterior responsibility of every component for each listed document under the single-topic
/// (mixture of unigrams) model of Zou et al. 2013, Alg. 1: a document draws one component k with
/// probability π_k and all its words from μ_k, so
///   r_k(n) = π_k Π_i μ̃_k(i)^{c_n(i)} / Σ_j π_j Π_i μ̃_j(i)^{c_n(i)},
/// computed in log space (log-sum-exp). μ̃ is the scorer's smoothing (smoothedLogTopics, the
/// rule of perTokenLogLikelihood, over the same `documents`), so every component has full
/// support. π_k = |ω_k| / Σ_j |ω_j| over all K components (ω = signedWeights), so that
/// background components, whose Alg. 1 weight is 0, still compete for a document.
/// Returns a K × N matrix (column n = documents[n]); each column sums to 1. A document with no
/// tokens gets the prior π. Cost O(nnz·K + D·K).
/// With `logOdds`, it is set to the K × N posterior log-odds log(r_k / (1 − r_k)) computed from
/// the unnormalised log scores (never saturates: where r_k rounds to exactly 1, as for many
/// Reuters documents, the log-odds still say how much more the words favour k than any other
/// component; +inf only with a single component).
/// \throws std::invalid_argument when the model's vocabulary differs from the counts' or the
/// model has no component.
Eigen::MatrixXd documentPosteriors(const CountMatrix& counts,
                                   const std::vector<std::int64_t>& documents,
                                   const TopicModelResult& model,
                                   const ScorerSmoothing& smoothing = {},
                                   Eigen::MatrixXd* logOdds = nullptr);

/// One ranked document of a component.
struct RankedDocument {
    std::int64_t document = 0; ///< row of the corpus (0-based, reading order)
    double score = 0;          ///< posterior responsibility of the component
    double logOdds = 0;        ///< its posterior log-odds (NaN when not given)
};

/// The `count` documents (of `documents`, the columns of `posteriors`) with the highest
/// posterior of `component`, highest first; ties in the posterior (e.g. many exactly 1) by the
/// larger log-odds (`logOdds`, same shape, from documentPosteriors), then by lower document
/// index. `count` larger than the list gives the whole list; a negative count is 0.
/// \throws std::invalid_argument for a bad component or shape.
std::vector<RankedDocument> rankDocuments(const Eigen::MatrixXd& posteriors,
                                          const std::vector<std::int64_t>& documents, int component,
                                          std::int64_t count,
                                          const Eigen::MatrixXd* logOdds = nullptr);

/// The values of label `field` for corpus row `document`, comma-separated ("" for none).
std::string documentLabelValues(const LabelField& field, std::int64_t document);

/// A document's words and counts, most frequent first (ties alphabetical): the "full text"
/// of a bag-of-words document. \throws std::invalid_argument for a bad document.
std::vector<std::pair<std::string, double>> documentWordCounts(const Corpus& corpus,
                                                               std::int64_t document);

/// topic_docs.tsv's header for `corpus`: topic, rank, document, source, score, log_odds, each
/// label field by its own name, foreground_specific, admissible, snippet (then a newline).
std::string topicDocumentHeader(const Corpus& corpus);

/// One line of topic_docs.tsv (with its newline): `topic` names the component (c3, or the
/// user's name), `rank` is 1-based, `marked` the topic's top words for the snippet.
std::string topicDocumentRow(const Corpus& corpus, const std::string& topic, std::int64_t rank,
                             const RankedDocument& ranked, bool foregroundSpecific, bool admissible,
                             const std::vector<std::string>& marked);

/// Characters (Unicode code points) a snippet shows at most.
constexpr size_t kSnippetCharacters = 160;

/// A one-line snippet of a document for a table cell: the first ~kSnippetCharacters characters
/// of its text (Corpus::documentExcerpts) with every word that is in `markedWords` (compared
/// lower case, as the tokenizer folds) wrapped in [ ]. A corpus without text (UCI
/// bag-of-words) gives the document's most frequent words with counts instead, "word×count"
/// joined by spaces, marked the same way. Tabs, newlines and other control characters become
/// spaces, so the snippet is a valid TSV field; "…" ends a cut text.
std::string documentSnippet(const Corpus& corpus, std::int64_t document,
                            const std::vector<std::string>& markedWords,
                            size_t maxCharacters = kSnippetCharacters);

/// `text` with tabs, carriage returns, newlines and other ASCII control characters replaced by
/// spaces: a valid field of a tab-separated file.
std::string tsvField(const std::string& text);

} // namespace cx
