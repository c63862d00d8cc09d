#pragma once

// The two inputs of ChromHMM's enrichments besides annotation BEDs: a segmentation BED
// (`chrom start end label`, as written by ChromHMM's LearnModel/MakeSegmentation or by
// `contrast-cli hmm`) and an ANCHORFILE (`chrom position [strand]`).

#include "core/common/cancel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// One segment: bases [start, end) of `chrom` in state `label`.
struct SegmentRecord {
    std::string chrom;
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::string label;
    std::int64_t line = 0; ///< 1-based line of the file, for messages
};

/// Reads a segmentation BED (plain or .gz): at least 4 columns (chrom, start, end, label), tab-
/// separated (a label may then contain spaces) or, in a line without tabs, space-separated; blank,
/// `#`, `track` and `browser` lines are skipped (one file may hold the track lines a browser
/// needs). Columns after the fourth are ignored. \throws InputError(file, line, problem) for fewer
/// than 4 columns, a bad coordinate,
///   start ≥ end, or a file without segments. Cost O(lines).
std::vector<SegmentRecord> readSegmentsBed(const std::string& path, const CancelToken& cancel = {});

/// One anchor position (0-based after ChromHMM's anchor offset is applied by the caller).
struct AnchorRecord {
    std::string chrom;
    std::int64_t position = 0;
    bool forward = true; ///< strand '+' (or no strand column)
    std::int64_t line = 0;
};

/// Reads an ANCHORFILE (plain or .gz): whitespace-separated `chrom position strand` lines
/// (`chrom position` when `useStrand` is false; further columns are ignored), as ChromHMM's
/// NeighborhoodEnrichment reads them. Blank lines are skipped.
/// \throws InputError(file, line, problem) for too few columns, a position that is not a
///   non-negative integer, a strand other than '+' or '-', or a file without anchors.
std::vector<AnchorRecord> readAnchorFile(const std::string& path, bool useStrand,
                                         const CancelToken& cancel = {});

/// Whether `path` reads as an ANCHORFILE rather than a BED file: its first line that is not
/// blank, `#`, `track` or `browser` has a position (an integer) in column 2 and either no third
/// column or a strand ('+', '-') where a BED file has its end coordinate (a ChromHMM binarized
/// file's first line, `CELL CHROM`, is not one). Reads one line (plain or .gz).
/// \throws InputError when the file cannot be opened.
bool isAnchorFile(const std::string& path);

} // namespace cx
