#pragma once

// The `topics` and `sweep` commands' job and result files, apart from the command line, so
// that other commands (a session's `run`) write the same files byte for byte. The options and
// the data preparation are TopicSession's.

#include "topic_session.h"

#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"

#include <string>

namespace cx::cli {

/// Alg. 1 at `gamma` with the session's method (projected engine or direct). \pre prepared.
TopicModelResult solveTopics(const TopicSession& session, double gamma);

/// Writes topic_word.tsv, components.tsv and top_words.tsv (session.topWords words per
/// component; components.tsv and top_words.tsv end with each component's npmi) into `outDir`
/// (which must exist), each atomically.
void writeTopicFiles(const TopicSession& session, const TopicModelResult& model,
                     const std::string& outDir);

/// NPMI coherence of each component's top kCoherenceWords words over every document of the
/// corpus (topic_coherence.h): components.tsv's and top_words.tsv's `npmi`.
std::vector<double> corpusCoherence(const TopicSession& session, const TopicModelResult& model);

/// The documents --top-docs-from names: foreground | background | all (foreground and
/// background together, in corpus order).
std::vector<std::int64_t> topDocumentPool(const TopicSession& session, const std::string& from);

/// topic_docs.tsv's text: per shown component (the foreground-specific ones, every
/// one with `allComponents`) its `count` documents of the pool with the highest posterior
/// responsibility (documentPosteriors; ties by the log-odds), one block per component, columns
/// topicDocumentHeader's (core/topics/topic_documents.h).
std::string topicDocumentTable(const TopicSession& session, const TopicModelResult& model,
                               std::int64_t count, const std::string& from, bool allComponents);

/// The specificity test's classes: true for the foreground documents matching `rule`.
/// \throws InputError (parameter --positive) unless both classes occur.
std::vector<bool> positiveFlags(const TopicSession& session, const std::string& rule);

/// sweep.tsv's text: gamma, auc, relative_auc, n_foreground_specific per grid point, with
/// auc_lo and auc_hi when `bands` (a bootstrap of sweep.path) is given, n_inadmissible
/// (inadmissibleAt) and a last column `note`: why the app does not stand behind the point
/// (judgeSweep with `bands` and the sweep's split-half check; "" when it does).
std::string sweepTable(const SpecificitySweep& sweep, const PathBootstrap* bands = nullptr);

/// Components at grid point p whose weight is outside [−γ, 1] (checkPathPoint: with the
/// bootstrap's bands when `bands` is given, else the point rule).
int inadmissibleAt(const SpecificitySweep& sweep, const SpecificityPoint& p,
                   const PathBootstrap* bands);

/// The value of a per-path-point band (`values` indexed like sweep.path) at grid point p; NaN
/// when there is none.
double bandAt(const SpecificitySweep& sweep, const SpecificityPoint& p,
              const std::vector<double>& values);

} // namespace cx::cli
