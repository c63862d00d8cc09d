#pragma once

#include "core/crowd/crowd_methods.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace cx {

/// The Crowd workspace's part of a session (key "crowd"). Defaults are those of
/// `contrast-cli crowd`.
///
///     {"labels": {"path": "answer.csv", "absolute": "/…"},
///      "gold": {"path": "truth.csv", "absolute": "/…"},            (optional)
///      "model": {"method": "stagewise-refine", "k": 0, "seed": 1, "restarts": 10,
///                "max_iter": 100, "smoothing": 0.01, "significance": 0,
///                "extension_significance": 0.05, "extension_procedure": "bh"},
///      "view": {"worker_filter": "", "compare": true,
///               "worker_sort_column": 2, "worker_sort_descending": true},   (sort optional)
///      "saved_by": "crowd"}
///
/// k = 0 means "the number of classes in the labels".
struct CrowdSection {
    static constexpr const char* kKey = "crowd";

    std::filesystem::path labels; ///< absolute (or as given on the command line)
    std::filesystem::path gold;   ///< empty: no gold
    std::string method = "stagewise-refine";
    int numComponents = 0;
    std::uint64_t seed = 1;
    int restarts = 10;
    int maxIterations = 100;
    double smoothing = 0.01;
    double significance = 0;
    double extensionSignificance = 0.05;
    std::string extensionProcedure = "bh"; ///< "bh" (Benjamini–Hochberg) or "holm"
    std::string workerFilter;              ///< view: the worker table's search text
    bool compare = false;                  ///< view: the method comparison was shown
    int workerSortColumn = -1;             ///< view: the worker table's sort column (-1: unsorted)
    bool workerSortDescending = false;     ///< view: its order
    std::string savedBy;                   ///< "crowd" (CLI) or empty (GUI)

    /// The core options these settings describe.
    CrowdOptions options() const;

    SessionJson toJson(const std::filesystem::path& sessionDirectory) const;
    /// Reads and validates /workspaces/crowd of `session`. Throws cx::InputError naming the
    /// session file and JSON pointer.
    static CrowdSection fromSession(const Session& session, PathResolver& resolver);
};

} // namespace cx
