#pragma once

#include "core/io/binarize.h"
#include "core/session/session.h"
#include "core/session/session_paths.h"

#include <filesystem>
#include <string>
#include <vector>

namespace cx {

class SessionFields;

/// Aligned reads a workspace's tracks were binarized from (the "reads" object of the Chromatin
/// and Tree sections: the GUI's File ▸ Open Aligned Reads…, `contrast-cli binarize`'s table and
/// options); the section's "tracks" then list the binarized files.
///
///     {"files": [{"path": "C1_H3K4me3.bam", "absolute": "/…", "cell": "C1",
///                 "mark": "H3K4me3", "control": {"path": …, "absolute": …}}, …],
///      "chrom_sizes": {"path": …, "absolute": …}, "out_dir": "/…/binarized",
///      "options": {"format": "auto", "bin_size": 200, "shift": 100,
///                  "poisson_threshold": 1e-4, "fold_threshold": 0, "signal_threshold": 0,
///                  "flank_width": 5, "pseudocount": 1, "strict": false, "paired": false,
///                  "center": false, "gzip": false}}
struct ReadsSection {
    struct Entry {
        std::string cell;
        std::string mark;
        std::filesystem::path file;    ///< absolute
        std::filesystem::path control; ///< absolute; empty: none
    };
    std::vector<Entry> entries;
    std::filesystem::path chromSizes; ///< absolute
    std::filesystem::path outDir;     ///< absolute
    BinarizeOptions options;

    SessionJson toJson(const std::filesystem::path& sessionDirectory) const;
    /// Reads and validates a "reads" object. Throws cx::InputError naming the session file and
    /// JSON pointer.
    static ReadsSection fromJson(const SessionFields& fields, PathResolver& resolver);
};

} // namespace cx
