#pragma once

#include "core/io/corpus_loader.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace cx {

/// The Topics workspace's part of a session (key "topics"). Defaults are those of
/// `contrast-cli topics`, so a section names only what differs from them if it likes.
///
///     {"corpus": [{"path": "reuters", "absolute": "/…/reuters"}],
///      "reader": {"format": "auto", "min_df": 2, "max_df": 1, "max_vocab": 0,
///                 "keep_stopwords": false, "drop_numbers": true, "min_tokens": 3},
///      "foreground": "places=usa",
///      "background": {"mode": "rule", "rule": "topics=gnp,cpi"},
///      "model": {"method": "projected", "k": 10, "gamma": 2, "seed": 1, "iterations": 100,
///                "restarts": 5, "rank_per_side": 0, "range_iterations": 3, "smoothing": 0,
///                "smoothing_prior": "frequency", "decomposition": "power"},
///      "auc": {"positive": "!topics=gnp,cpi", "gammas": "0:4:0.25", "bootstrap": 20},
///      "view": {"top_words": 10, "all_components": false, "names": {"2": "Grain exports"}},
///      "saved_by": "topics"}
///
/// "background" may also be a plain rule string; its mode "not_foreground" means every
/// document outside the foreground, "all" every document. "saved_by" names the CLI command that
/// wrote the section ("topics" or "sweep"; absent when the GUI wrote it): `contrast-cli run`
/// repeats that command. "auc"/"bootstrap" (absent or 0 = none, else 2 … kMaxResamples) is the
/// number of bootstrap resamples over documents of the AUC sweep's path (`sweep --bootstrap B`;
/// the GUI's Bootstrap button), seeded by the model seed: reopening runs it again and gets the
/// same bands. Sessions written before the field existed have none. "auc"/"split_half" runs the
/// split-half check of each foreground-specific component (cx::splitHalfPath, seeded by the
/// model seed; on unless `sweep --no-split-half`); sessions written before it existed have none
/// (absent = false) and reopen to the same notes.
struct TopicsSection {
    static constexpr int kMaxResamples = 10000; ///< `sweep --bootstrap` accepts up to this
    static constexpr const char* kKey = "topics";

    /// Absolute paths; several are one comma list for the reader (Reuters files,
    /// DOCWORD,VOCAB[,LABELS]).
    std::vector<std::filesystem::path> corpus;
    CorpusLoadOptions reader;
    std::string foreground;
    std::string backgroundMode = "rule"; ///< rule | not_foreground | all
    std::string background;              ///< the rule when backgroundMode == "rule"
    std::string method = "projected";    ///< projected | direct
    int numComponents = 10;
    double gamma = 0;
    std::uint64_t seed = 1;
    int iterations = 100;
    int restarts = 5;
    std::string decomposition = "power"; ///< "power" or "jennrich" (cx::parseDecomposition)
    int rankPerSide = 0;                 ///< 0 = max(2K, K + 8)
    int rangeIterations = 3;
    double smoothing = 0.0; ///< 0 = the automatic rule (kAutoSmoothing), > 0 a fixed α
    /// Shape of the automatic rule's prior: "frequency" or "uniform" (cx::parseSmoothingPrior).
    /// Sessions saved before the field existed used the uniform (Jeffreys) prior and reopen
    /// with it; new sessions save the default, "frequency".
    std::string smoothingPrior = "frequency";
    std::string positive;               ///< specificity rule of the AUC; empty = no AUC
    std::string aucGammas = "0:4:0.25"; ///< γ grid text, FROM:TO:STEP
    int bootstrap = 0;                  ///< resamples of the AUC sweep's bootstrap; 0 = none
    bool splitHalf = true; ///< the sweep's split-half check (off: `sweep --no-split-half`)
    int topWords = 10;
    bool allComponents = false; ///< view: every component (signed), not only foreground-specific
    /// view/names: the user's topic names by path identity (the "T3" of the weights chart, 0-based
    /// id 2 → key "2"), e.g. {"2": "Grain exports"}; identities are reproducible from the rest of
    /// the section, so a name finds its topic again on reopening. Names are at most 200 characters.
    std::map<int, std::string> topicNames;
    std::string savedBy; ///< "topics", "sweep" or empty (GUI)

    /// The corpus paths joined by commas, as the readers take them.
    std::string corpusSpec() const;

    /// The section's JSON; data paths relative to `sessionDirectory`.
    SessionJson toJson(const std::filesystem::path& sessionDirectory) const;
    /// Reads and validates the section at /workspaces/topics of `session`, finding its data
    /// files through `resolver`. Throws cx::InputError naming the session file and JSON pointer.
    static TopicsSection fromSession(const Session& session, PathResolver& resolver);
};

} // namespace cx
