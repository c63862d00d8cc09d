#pragma once

#include "core/common/cancel.h"
#include "core/io/chromhmm_reader.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cx {

/// A 0-based half-open genomic interval [start, end).
struct BedInterval {
    std::int64_t start = 0;
    std::int64_t end = 0;
};

/// Intervals from one or more BED files, grouped by contig (unsorted, possibly overlapping).
struct BedRegions {
    std::map<std::string, std::vector<BedInterval>> byChrom;
    std::vector<std::string> sources; ///< files read, in order
    std::int64_t numIntervals = 0;

    bool empty() const { return numIntervals == 0; }
};

/// Splits a BED line into its columns: at tabs when the line has one, else at runs of spaces.
/// The views point into `line`.
std::vector<std::string_view> splitBedFields(std::string_view line);

/// Parses a non-negative decimal coordinate (surrounding spaces and a trailing '\r' allowed).
/// Returns false for anything else, or more than 18 digits.
bool parseBedCoordinate(std::string_view token, std::int64_t& value);

/// Whether a BED line carries no interval: blank, `#` comment, `track` or `browser` line.
bool isBedHeaderLine(std::string_view line);

/// Reads a BED file (plain or .gz; 3 or more columns, tab- or space-separated, any order) and
/// appends its intervals to `regions`. Blank lines and `#`, `track`, `browser` lines are skipped;
/// columns after the third are ignored.
/// \throws InputError(file, line, problem) for fewer than 3 columns, a start or end that is not
///   a non-negative integer, start > end, or a file with no intervals at all. On error `regions`
///   is unchanged. Cost O(lines).
void appendBedFile(BedRegions& regions, const std::string& path, const CancelToken& cancel = {});

/// Reads several BED files into one BedRegions (their union). \throws InputError.
BedRegions readBedFiles(const std::vector<std::string>& paths, const CancelToken& cancel = {});

/// Appends `interval` to `merged` (sorted by start, disjoint), merging it into the last
/// interval when the two overlap or touch (next.start <= last.end). \pre interval.start is not
/// below the last interval's start. Cost O(1).
void appendMerged(std::vector<BedInterval>& merged, const BedInterval& interval);

/// The union of `intervals` as sorted, disjoint intervals: sorted by (start, end), then
/// overlapping or touching intervals merged (appendMerged). Cost O(n log n).
std::vector<BedInterval> mergeIntervals(std::vector<BedInterval> intervals);

/// Bit flags of a bin's class.
constexpr std::uint8_t kForegroundBin = 1;
constexpr std::uint8_t kBackgroundBin = 2;

/// Foreground/background assignment of every bin of every track.
///
/// Rules (a bin overlaps an interval if they share at least one base):
///  * foreground = bins overlapping any foreground interval; without foreground regions, every
///    bin not in the background (so with no region file at all, the whole genome);
///  * background = bins overlapping any background interval; without background regions, every
///    bin not in the foreground (and no bin when there are no region files at all).
/// The two classes are independent flags: with both region sets given, a bin may be in both or
/// neither. Intervals on contigs that no track covers are ignored with one warning per contig
/// and region set; intervals reaching past a track's last bin are clipped.
struct BinClasses {
    std::vector<std::vector<std::uint8_t>> flags; ///< per track, per bin: kForegroundBin | …
    std::int64_t foregroundBins = 0;
    std::int64_t backgroundBins = 0;
    std::vector<std::string> warnings;

    bool isForeground(size_t track, std::int64_t bin) const {
        return (flags[track][static_cast<size_t>(bin)] & kForegroundBin) != 0;
    }
    bool isBackground(size_t track, std::int64_t bin) const {
        return (flags[track][static_cast<size_t>(bin)] & kBackgroundBin) != 0;
    }
};

/// Classifies bins (see BinClasses). Either region set may be null or empty. Cost
/// O(bins + intervals); memory one byte per bin.
BinClasses classifyBins(const ChromatinData& data, const BedRegions* foreground,
                        const BedRegions* background);

/// A maximal run of consecutive bins [begin, end) of one track.
struct BinRun {
    int track = 0;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    std::int64_t length() const { return end - begin; }
};

/// Maximal runs of bins carrying `flag` (kForegroundBin or kBackgroundBin). With
/// `breakAtMissing`, bins whose pattern has a missing mark are excluded and split runs.
std::vector<BinRun> runsWithFlag(const ChromatinData& data, const BinClasses& classes,
                                 std::uint8_t flag, bool breakAtMissing);

/// One run per track covering all of its bins (whole-genome sequences for EM and decoding).
std::vector<BinRun> wholeTrackRuns(const ChromatinData& data);

} // namespace cx
