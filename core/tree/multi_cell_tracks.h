#pragma once

#include "core/common/cancel.h"
#include "core/io/chromhmm_reader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// Observation code of a bin whose shared marks include a missing value (2).
constexpr std::uint16_t kMissingObservation = 0xFFFF;
/// Largest number of shared marks (codes are 16-bit masks, 0xFFFF is reserved).
constexpr int kMaxTreeMarks = 15;

/// Binarized marks of several cell types over the same chromosomes and bins (the input of
/// Spectral-Tree). Each bin of each cell is a bit mask over the shared marks (bit m = mark m
/// present) or kMissingObservation.
struct MultiCellTracks {
    std::vector<std::string> cells;      ///< cell types (MultiCellReadOptions::cells order)
    std::vector<std::string> markNames;  ///< marks every cell type has, in the first file's order
    std::vector<std::string> chroms;     ///< chromosomes every cell type covers, in reading order
    std::vector<std::int64_t> chromBins; ///< bins per chromosome (equal in every cell type)
    int binSize = 200;
    /// codes[cell][chrom][bin].
    std::vector<std::vector<std::vector<std::uint16_t>>> codes;
    /// files[cell][chrom]: the file the track came from.
    std::vector<std::vector<std::string>> files;
    /// Marks left out because some cell type lacks them, and which cell types lack each.
    std::vector<std::string> droppedMarks;
    std::vector<std::string> notes; ///< human-readable report lines (dropped marks, …)

    int numCells() const { return static_cast<int>(cells.size()); }
    int numMarks() const { return static_cast<int>(markNames.size()); }
    int numChroms() const { return static_cast<int>(chroms.size()); }
    std::int64_t totalBins() const;
    int findCell(const std::string& cell) const;
    /// One cell type as a ChromatinData (one track per chromosome, the shared marks), for the
    /// per-cell HMM engines and decoding. Cost O(bins).
    ChromatinData cellData(int cell) const;
};

struct MultiCellReadOptions {
    int binSize = 200;
    /// Refuse cell types whose marks differ (InputError naming the file and the missing mark)
    /// instead of keeping the marks all share.
    bool strictMarks = false;
    /// Cell types to keep, in this order (e.g. the tree's nodes); empty = every cell type read,
    /// in order of first appearance. Shared marks are computed over the kept cell types only.
    std::vector<std::string> cells;
};

/// Expands folders into their ChromHMM binarized files (`*_binary.txt[.gz]`, sorted by name);
/// other items are kept as given. \throws InputError for a folder without such files or an
/// item that does not exist.
std::vector<std::string> expandTrackPaths(const std::vector<std::string>& items);

/// Reads binarized files of several cell types (each file one cell × one chromosome, names
/// from its header) and aligns them.
/// \throws InputError (file, line, problem) for reader errors, and naming the file for: the
///   same cell and chromosome twice, a chromosome that one cell type lacks, a bin count that
///   differs from another cell type's on the same chromosome, more than kMaxTreeMarks shared
///   marks, no shared mark, (strict) a cell type lacking a mark the others have, or a cell
///   type in options.cells that no file provides (the message lists those read).
/// Polls `cancel`; `progress` gets the fraction of files read.
MultiCellTracks readMultiCellTracks(const std::vector<std::string>& paths,
                                    const MultiCellReadOptions& options = {},
                                    const CancelToken& cancel = {},
                                    const ProgressFn& progress = {});

} // namespace cx
