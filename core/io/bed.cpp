#include "core/io/bed.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/io/text_input.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string_view>

namespace cx {

std::vector<std::string_view> splitBedFields(std::string_view line) {
    // BED is tab-separated; fall back to runs of spaces when a line has no tab.
    const bool tabs = line.find('\t') != std::string_view::npos;
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i <= line.size()) {
        if (tabs) {
            const size_t next = line.find('\t', i);
            const size_t end = next == std::string_view::npos ? line.size() : next;
            out.push_back(line.substr(i, end - i));
            i = end + 1;
        } else {
            while (i < line.size() && line[i] == ' ') {
                ++i;
            }
            if (i >= line.size()) {
                break;
            }
            const size_t begin = i;
            while (i < line.size() && line[i] != ' ') {
                ++i;
            }
            out.push_back(line.substr(begin, i - begin));
        }
    }
    return out;
}

bool parseBedCoordinate(std::string_view token, std::int64_t& value) {
    while (!token.empty() && (token.back() == ' ' || token.back() == '\r')) {
        token.remove_suffix(1);
    }
    while (!token.empty() && token.front() == ' ') {
        token.remove_prefix(1);
    }
    if (token.empty() || token.size() > 18) {
        return false;
    }
    std::int64_t v = 0;
    for (char c : token) {
        if (c < '0' || c > '9') {
            return false;
        }
        v = v * 10 + (c - '0');
    }
    value = v;
    return true;
}

bool isBedHeaderLine(std::string_view line) {
    size_t first = 0;
    while (first < line.size() &&
           (line[first] == ' ' || line[first] == '\t' || line[first] == '\r')) {
        ++first;
    }
    const std::string_view content = line.substr(first);
    return content.empty() || content[0] == '#' || content.starts_with("track") ||
           content.starts_with("browser");
}

namespace {

/// Marks the bins of `track` overlapped by `intervals` with `flag`. Uses a difference array so
/// heavily overlapping intervals (gene spans) cost O(intervals + bins).
void markOverlaps(const std::vector<BedInterval>& intervals, std::int64_t numBins, int binSize,
                  std::uint8_t flag, std::vector<std::uint8_t>& flags) {
    std::vector<std::int32_t> delta(static_cast<size_t>(numBins) + 1, 0);
    for (const auto& interval : intervals) {
        if (interval.end <= interval.start) {
            continue; // empty interval: overlaps no base
        }
        const std::int64_t first = interval.start / binSize;
        const std::int64_t last = std::min(numBins - 1, (interval.end - 1) / binSize);
        if (first > last) {
            continue;
        }
        ++delta[static_cast<size_t>(first)];
        --delta[static_cast<size_t>(last + 1)];
    }
    std::int32_t depth = 0;
    for (std::int64_t i = 0; i < numBins; ++i) {
        depth += delta[static_cast<size_t>(i)];
        if (depth > 0) {
            flags[static_cast<size_t>(i)] |= flag;
        }
    }
}

void warnUnknownContigs(const ChromatinData& data, const BedRegions& regions, const char* what,
                        std::vector<std::string>& warnings) {
    std::set<std::string> known;
    for (const auto& track : data.tracks) {
        known.insert(track.chrom);
    }
    for (const auto& [chrom, intervals] : regions.byChrom) {
        if (!known.count(chrom)) {
            std::string files;
            for (const auto& source : regions.sources) {
                files += (files.empty() ? "" : ",") + source;
            }
            warnings.push_back(files + ": " + what + " contig '" + chrom +
                               "' is not in the tracks; its " + std::to_string(intervals.size()) +
                               " interval(s) are ignored");
        }
    }
}

} // namespace

void appendBedFile(BedRegions& regions, const std::string& path, const CancelToken& cancel) {
    LineReader reader(path);
    std::string_view line;
    std::map<std::string, std::vector<BedInterval>> staged;
    std::int64_t count = 0;
    while (reader.next(line)) {
        const std::int64_t lineNumber = reader.lineNumber();
        if ((lineNumber & 0xFFFF) == 0) {
            throwIfCancelled(cancel);
        }
        size_t firstNonSpace = 0;
        while (firstNonSpace < line.size() &&
               (line[firstNonSpace] == ' ' || line[firstNonSpace] == '\t')) {
            ++firstNonSpace;
        }
        const std::string_view content = line.substr(firstNonSpace);
        if (content.empty() || content[0] == '#' || content.starts_with("track") ||
            content.starts_with("browser")) {
            continue;
        }
        const auto parts = splitBedFields(line);
        if (parts.size() < 3) {
            throw InputError(path, lineNumber,
                             "BED line has " + std::to_string(parts.size()) +
                                 " column(s), expected at least 3 (chrom, start, end)");
        }
        if (parts[0].empty()) {
            throw InputError(path, lineNumber, "column 1 (chrom) is empty");
        }
        BedInterval interval;
        if (!parseBedCoordinate(parts[1], interval.start)) {
            throw InputError(path, lineNumber,
                             "column 2 (start): " + quoteForMessage(parts[1]) +
                                 " is not a non-negative integer");
        }
        if (!parseBedCoordinate(parts[2], interval.end)) {
            throw InputError(path, lineNumber,
                             "column 3 (end): " + quoteForMessage(parts[2]) +
                                 " is not a non-negative integer");
        }
        if (interval.start > interval.end) {
            throw InputError(path, lineNumber,
                             "start " + std::to_string(interval.start) + " is after end " +
                                 std::to_string(interval.end));
        }
        staged[std::string(parts[0])].push_back(interval);
        ++count;
    }
    if (count == 0) {
        throw InputError(path, reader.lineNumber(), "no intervals (empty BED file)");
    }
    for (auto& [chrom, intervals] : staged) {
        auto& target = regions.byChrom[chrom];
        target.insert(target.end(), intervals.begin(), intervals.end());
    }
    regions.numIntervals += count;
    regions.sources.push_back(path);
}

BedRegions readBedFiles(const std::vector<std::string>& paths, const CancelToken& cancel) {
    BedRegions regions;
    for (const auto& path : paths) {
        appendBedFile(regions, path, cancel);
    }
    return regions;
}

BinClasses classifyBins(const ChromatinData& data, const BedRegions* foreground,
                        const BedRegions* background) {
    const bool hasForeground = foreground != nullptr && !foreground->empty();
    const bool hasBackground = background != nullptr && !background->empty();
    BinClasses out;
    out.flags.resize(data.tracks.size());
    for (size_t t = 0; t < data.tracks.size(); ++t) {
        const auto& track = data.tracks[t];
        auto& flags = out.flags[t];
        flags.assign(static_cast<size_t>(track.numBins()), 0);
        if (hasForeground) {
            auto it = foreground->byChrom.find(track.chrom);
            if (it != foreground->byChrom.end()) {
                markOverlaps(it->second, track.numBins(), data.binSize, kForegroundBin, flags);
            }
        }
        if (hasBackground) {
            auto it = background->byChrom.find(track.chrom);
            if (it != background->byChrom.end()) {
                markOverlaps(it->second, track.numBins(), data.binSize, kBackgroundBin, flags);
            }
        }
        for (auto& f : flags) {
            if (hasForeground && !hasBackground) {
                if (!(f & kForegroundBin)) {
                    f |= kBackgroundBin;
                }
            } else if (!hasForeground && hasBackground) {
                if (!(f & kBackgroundBin)) {
                    f |= kForegroundBin;
                }
            } else if (!hasForeground && !hasBackground) {
                f = kForegroundBin;
            }
            out.foregroundBins += (f & kForegroundBin) ? 1 : 0;
            out.backgroundBins += (f & kBackgroundBin) ? 1 : 0;
        }
    }
    if (hasForeground) {
        warnUnknownContigs(data, *foreground, "foreground", out.warnings);
    }
    if (hasBackground) {
        warnUnknownContigs(data, *background, "background", out.warnings);
    }
    return out;
}

std::vector<BinRun> runsWithFlag(const ChromatinData& data, const BinClasses& classes,
                                 std::uint8_t flag, bool breakAtMissing) {
    std::vector<char> missing(static_cast<size_t>(data.numPatterns()), 0);
    if (breakAtMissing) {
        for (int p = 0; p < data.numPatterns(); ++p) {
            missing[static_cast<size_t>(p)] = data.patternHasMissing(p) ? 1 : 0;
        }
    }
    std::vector<BinRun> runs;
    for (size_t t = 0; t < data.tracks.size(); ++t) {
        const auto& bins = data.tracks[t].bins;
        const auto& flags = classes.flags.at(t);
        std::int64_t begin = -1;
        const auto n = static_cast<std::int64_t>(bins.size());
        for (std::int64_t i = 0; i <= n; ++i) {
            const bool in = i < n && (flags[static_cast<size_t>(i)] & flag) != 0 &&
                            !missing[bins[static_cast<size_t>(i)]];
            if (in && begin < 0) {
                begin = i;
            } else if (!in && begin >= 0) {
                runs.push_back({static_cast<int>(t), begin, i});
                begin = -1;
            }
        }
    }
    return runs;
}

std::vector<BinRun> wholeTrackRuns(const ChromatinData& data) {
    std::vector<BinRun> runs;
    for (size_t t = 0; t < data.tracks.size(); ++t) {
        if (data.tracks[t].numBins() > 0) {
            runs.push_back({static_cast<int>(t), 0, data.tracks[t].numBins()});
        }
    }
    return runs;
}

void appendMerged(std::vector<BedInterval>& merged, const BedInterval& interval) {
    if (!merged.empty() && interval.start <= merged.back().end) {
        merged.back().end = std::max(merged.back().end, interval.end);
    } else {
        merged.push_back(interval);
    }
}

std::vector<BedInterval> mergeIntervals(std::vector<BedInterval> intervals) {
    std::sort(intervals.begin(), intervals.end(), [](const BedInterval& a, const BedInterval& b) {
        return a.start < b.start || (a.start == b.start && a.end < b.end);
    });
    std::vector<BedInterval> merged;
    merged.reserve(intervals.size());
    for (const BedInterval& interval : intervals) {
        appendMerged(merged, interval);
    }
    return merged;
}

} // namespace cx
