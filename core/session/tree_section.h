#pragma once

#include "core/common/multi_start.h"
#include "core/session/reads_section.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cx {

/// The Tree workspace's part of a session (key "tree"): Spectral-Tree over several cell types.
/// Defaults are those of `contrast-cli tree`.
///
///     {"tracks": [{"path": "cells", "absolute": "/…/cells"}, …],   // files or folders
///      "bin_size": 200, "strict_marks": false,
///      "tree": "H1-hESC>GM12878,K562",
///      "model": {"k": 4, "decomposition": "power", "seed": 1, "projection": 0,
///                "iterations": 100, "restarts": 10, "starts": 20, "scaling": "none", "moment_fit":
///                200, "extra_components": 1, "decode": "auto"},
///      "compare": ["per-cell", "em"], "em_iterations": 50,
///      "tss": {"path": "tss.txt.gz", "absolute": "/…"}, "flank": 1000, "promoter_state": 0,
///      "segments": true,
///      "view": {"region": "chr20:0-3000000", "cell": "GM12878",
///               "states": [{"name": "promoter", "colour": "#ff0000", "renamed": true}, …]},
///      "saved_by": "tree"}
///
/// "reads" (optional, cx::ReadsSection) is where the tracks came from when they were binarized
/// from aligned reads (File ▸ Open Aligned Reads…); "tracks" then lists the binarized files.
/// "tss" is absent without a TSS file; "promoter_state" is 1-based (0: the state most enriched
/// in TSS bins, per cell and method).
struct TreeSection {
    static constexpr const char* kKey = "tree";

    /// A state row of the views, in the shared state order: its name, colour ("#rrggbb") and
    /// whether the user gave the name.
    struct StateView {
        std::string name;
        std::string colour;
        bool renamed = false;
    };

    std::vector<std::filesystem::path> tracks; ///< absolute files or folders
    std::optional<ReadsSection> reads;
    int binSize = 200;
    bool strictMarks = false;
    std::string tree; ///< "ROOT>CHILD1,CHILD2;…" (validated by parseTreeSpec)

    int numStates = 4;
    std::string decomposition = "power"; ///< power | jennrich
    std::uint64_t seed = 1;
    int projection = 0; ///< product-projection dimension (0: K)
    int iterations = 100;
    int restarts = 10;
    int starts = kDefaultTreeStarts; ///< SpectralTreeOptions::starts and the per-cell baseline's
    std::string scaling = "none";    ///< mean | none (SpectralTreeOptions::featureScaling)
    int momentFit = 200;             ///< SpectralTreeOptions::momentFitSweeps (-1: off)
    int extraComponents = 1;         ///< SpectralTreeOptions::reserveComponents
    std::string decode = "auto";     ///< auto | path | joint

    std::vector<std::string> compare; ///< subset of {"per-cell", "em"}, in this order
    int emIterations = 50;
    std::filesystem::path tss; ///< absolute; empty: none
    std::int64_t flank = 1000;
    int promoterState = 0; ///< 1-based; 0 = by TSS enrichment
    bool segments = true;

    std::string region;       ///< view: "chr:start-end" (empty: the start of the first chromosome)
    std::string selectedCell; ///< view: the cell type selected in the tree (empty: the root)
    std::vector<StateView> states;
    std::string savedBy; ///< "tree" or empty (GUI)

    SessionJson toJson(const std::filesystem::path& sessionDirectory) const;
    /// Reads and validates /workspaces/tree of `session`. Throws cx::InputError naming the
    /// session file and JSON pointer (a bad tree specification names /workspaces/tree/tree and
    /// the parser's problem).
    static TreeSection fromSession(const Session& session, PathResolver& resolver);
};

} // namespace cx
