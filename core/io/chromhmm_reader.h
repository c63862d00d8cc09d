#pragma once

#include "core/common/cancel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// Value of a mark in a bin, as in ChromHMM binarized files.
enum class MarkValue : std::uint8_t { Absent = 0, Present = 1, Missing = 2 };

/// One binarized file: one cell type on one chromosome. Bin i covers the 0-based half-open
/// interval [i·binSize, (i+1)·binSize) of `chrom`.
struct ChromatinTrack {
    std::string path;
    std::string cell;
    std::string chrom;
    /// Pattern id (index into ChromatinData's pattern table) of every bin, in genome order.
    std::vector<std::uint32_t> bins;

    std::int64_t numBins() const { return static_cast<std::int64_t>(bins.size()); }
};

/// Several ChromHMM binarized tracks sharing one list of marks (cell types × chromosomes).
/// Each bin is stored as the id of its distinct observation row ("pattern"): real data has a
/// few hundred distinct 10-mark patterns among millions of bins, so per-pattern tables
/// (emission likelihoods, moment contributions) make every pass over the bins cheap.
struct ChromatinData {
    std::vector<std::string> markNames;
    int binSize = 200;
    std::vector<ChromatinTrack> tracks;
    /// numPatterns × numMarks values (MarkValue as 0/1/2), row-major: pattern p, mark m at
    /// patternValues[p·numMarks + m]. Ids are assigned in order of first appearance.
    std::vector<std::uint8_t> patternValues;
    /// Number of bins with each pattern, over all tracks.
    std::vector<std::int64_t> patternCounts;

    int numMarks() const { return static_cast<int>(markNames.size()); }
    int numPatterns() const { return static_cast<int>(patternCounts.size()); }
    std::uint8_t value(int pattern, int mark) const {
        return patternValues[static_cast<size_t>(pattern) * markNames.size() +
                             static_cast<size_t>(mark)];
    }
    /// True if any mark of the pattern is Missing (2).
    bool patternHasMissing(int pattern) const;
    std::int64_t totalBins() const;
    /// Index of the first track on `chrom` of `cell`, or -1.
    int findTrack(const std::string& cell, const std::string& chrom) const;
};

struct ChromHmmReadOptions {
    int binSize = 200; ///< bp per bin (the files do not say; ChromHMM's default is 200)
};

/// Reads one ChromHMM binarized file (plain or .gz) and appends it as a track to `data`.
///
/// Format: line 1 `CELL<TAB>CHROM`; line 2 the mark names (tab-separated); then one row per bin
/// with one value per mark, each `0`, `1` or `2` (2 = missing: excluded from moments, skipped in
/// likelihoods). Separators are tabs (runs of spaces are accepted too); a final row without a
/// newline is still a bin; CRLF is accepted.
///
/// \throws InputError(file, line, problem) for: an empty file, a missing header (first line
///   not two fields, or looking like data), a missing or duplicated mark name, mark names that
///   differ from tracks already in `data`, a ragged row (wrong number of values), a value other
///   than 0/1/2 (names the column and the mark), an empty row inside the data, no data rows,
///   a cell/chromosome pair already loaded, more than 128 marks (data sets have a few dozen;
///   the moments are cubic in the marks), more than 4096 tracks (cell types × chromosomes),
///   a line longer than LineReader::kMaxLineBytes. On error `data` is left unchanged.
/// Cost: one pass over the file, O(bins · marks); memory 4 bytes per bin.
void appendChromHmmFile(ChromatinData& data, const std::string& path,
                        const CancelToken& cancel = {});

/// Reads several binarized files (cell types × chromosomes) into one ChromatinData.
/// \throws InputError as appendChromHmmFile; also when `paths` is empty.
/// `progress` (may be empty) gets the fraction of files read.
ChromatinData readChromHmmTracks(const std::vector<std::string>& paths,
                                 const ChromHmmReadOptions& options = {},
                                 const CancelToken& cancel = {}, const ProgressFn& progress = {});

} // namespace cx
