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

/// The Chromatin workspace's part of a session (key "chromatin"). Defaults are those of
/// `contrast-cli hmm`.
///
///     {"tracks": [{"path": "GM12878_binary.txt.gz", "absolute": "/…"}, …],
///      "bin_size": 200,
///      "annotations": [{"path": "genes.bed.gz", "absolute": "/…", "foreground": true,
///                       "background": false, "lane": true, "enrichment": true}, …],
///      "model": {"method": "spectral", "k": 7, "gamma": 1, "seed": 1, "encoding": "marks",
///                "decode": "posterior", "iterations": 100, "restarts": 10, …},
///      "view": {"region": "chr11:5000000-5800000",
///               "states": [{"name": "active promoter", "colour": "#ff0000", "renamed": false,
///                           "profile": [0.91, 0.02, …]}, …]},
///      "path": {"gammas": "0:2:0.05", "starts": "continued", "bootstrap": 20,
///               "block_length": 0},
///      "reads": {"files": [{"path": "C1_H3K4me3.bam", "absolute": "/…", "cell": "C1",
///                           "mark": "H3K4me3", "control": {"path": …, "absolute": …}}, …],
///                "chrom_sizes": {"path": …, "absolute": …}, "out_dir": "/…/binarized",
///                "options": {"format": "auto", "bin_size": 200, "shift": 100,
///                            "poisson_threshold": 1e-4, "fold_threshold": 0,
///                            "signal_threshold": 0, "flank_width": 5, "pseudocount": 1,
///                            "strict": false, "paired": false, "center": false,
///                            "gzip": false}},
///      "saved_by": "hmm"}
///
/// "reads" (optional) is where the tracks came from when they were binarized from aligned
/// reads (the GUI's File ▸ Open Aligned Reads…, `contrast-cli binarize`'s table and options);
/// "tracks" then lists the binarized files.
///
/// "path" (optional) is the γ path (`hmm --gamma-path FROM:TO:STEP --path-starts`; the GUI's
/// weights-vs-γ grid) and its block bootstrap over genomic regions (`--bootstrap B`, absent or
/// 0 = none, else 2 … cx::kMaxHmmBootstrapReplicates; `--block-length L`, 0 = chosen from the
/// data), seeded by the model seed: reopening runs it again and gets the same bands. Sessions
/// written before the field existed have neither.
///
/// Foreground regions are the annotations with "foreground": true (their union), background
/// regions those with "background": true; without background annotations the background is
/// every bin outside the foreground.
struct ChromatinSection {
    static constexpr const char* kKey = "chromatin";

    struct Annotation {
        std::filesystem::path path; ///< absolute
        bool foreground = false;
        bool background = false;
        bool lane = false;
        bool enrichment = true;
    };
    /// A state row of the views, in row order: its name and colour ("#rrggbb"), whether the
    /// user gave the name, and its emission profile (P(mark), one per mark), by which the
    /// states of a recomputed model are matched to the saved rows.
    struct StateView {
        std::string name;
        std::string colour;
        bool renamed = false;
        std::vector<double> profile;
    };

    /// Aligned reads the tracks were binarized from (the "reads" object).
    using Reads = ReadsSection;

    std::vector<std::filesystem::path> tracks; ///< absolute
    std::optional<Reads> reads;
    std::vector<Annotation> annotations;
    int binSize = 200;

    std::string method = "spectral"; ///< spectral | em
    int numComponents = 7;
    double gamma = 0;
    std::uint64_t seed = 1;
    std::string encoding = "marks";   ///< marks | combinations
    std::string decode = "posterior"; ///< posterior | viterbi
    int iterations = 100;
    int restarts = 10;
    /// `hmm --starts`: seeded starts of the whole spectral solve, the best kept (absent in
    /// sessions saved before the field: the CLI's default, kDefaultStarts).
    int starts = kDefaultStarts;
    int extraComponents = 1;
    double validityZ = 3.0;
    int window = 1;
    int lag = 1;
    int refineRounds = 0;
    int alsSweeps = 0;
    int momentFit = -1; ///< sweeps of the moment refit (`hmm --moment-fit`); -1 = off
    /// Highest moment order of the refit (`hmm --moment-order`, 2 or 3); a section without the
    /// field was saved before the third-order block existed and reopens with 2.
    int momentOrder = 2;
    std::string decomposition = "deflation"; ///< deflation | jennrich
    std::string scaling = "mean";            ///< mean | none | whiten
    int projectionRank = 0;
    /// Baum–Welch rounds refining the spectral model (`hmm --refine-em`); 0 = none. In the GUI
    /// this refines the γ = 0 ("Foreground only") model only.
    int refineEm = 0;
    /// The refinement stops early when a round's relative log-likelihood gain is below this
    /// (`hmm --refine-tolerance`); 0 = exactly refineEm rounds (also a section without the field).
    double refineTolerance = 0;
    int emMaxIterations = 1000;
    double emTolerance = 1e-5;
    bool segments = true; ///< write/compute the segmentation

    std::string gammaPath;                ///< FROM:TO:STEP of the γ path; empty = none
    std::string pathStarts = "continued"; ///< continued | fresh
    int bootstrap = 0;                    ///< block-bootstrap resamples of the path; 0 = none
    int blockLength = 0;                  ///< bootstrap block length in bins; 0 = automatic

    std::string region; ///< view: "chr:start-end" (empty: the whole first chromosome)
    std::vector<StateView> states;
    std::string savedBy; ///< "hmm" or empty (GUI)

    std::vector<std::filesystem::path> foregroundRegions() const;
    std::vector<std::filesystem::path> backgroundRegions() const;

    SessionJson toJson(const std::filesystem::path& sessionDirectory) const;
    /// Reads and validates /workspaces/chromatin of `session`. Throws cx::InputError naming the
    /// session file and JSON pointer.
    static ChromatinSection fromSession(const Session& session, PathResolver& resolver);
};

} // namespace cx
