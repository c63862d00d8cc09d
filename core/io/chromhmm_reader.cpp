#include "core/io/chromhmm_reader.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/string_hash.h"
#include "core/io/text_input.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace cx {

namespace {

using PatternIndex = std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>>;

/// Most marks a binarized file may list (ChromHMM data sets have a few dozen; the moments are
/// cubic in the number of marks) and most tracks one ChromatinData holds.
constexpr size_t kMaxMarks = 128;
constexpr size_t kMaxTracks = 4096;

/// Text of the file made safe for a message: printable ASCII (others '?'), at most `maxLength`.
std::string printable(std::string_view text, size_t maxLength) {
    const std::string quoted = quoteForMessage(text, maxLength);
    return quoted.substr(1, quoted.size() - 2);
}

bool isSeparator(char c) {
    return c == '\t' || c == ' ';
}

/// Splits at tabs/spaces (runs count as one separator), dropping empty pieces.
std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isSeparator(line[i])) {
            ++i;
        }
        const size_t begin = i;
        while (i < line.size() && !isSeparator(line[i])) {
            ++i;
        }
        if (i > begin) {
            out.push_back(line.substr(begin, i - begin));
        }
    }
    return out;
}

bool isMarkValue(std::string_view token) {
    return token.size() == 1 && token[0] >= '0' && token[0] <= '2';
}

bool looksLikeData(const std::vector<std::string_view>& parts) {
    if (parts.empty()) {
        return false;
    }
    for (auto part : parts) {
        if (!isMarkValue(part)) {
            return false;
        }
    }
    return true;
}

bool isBlank(std::string_view line) {
    for (char c : line) {
        if (!isSeparator(c) && c != '\r') {
            return false;
        }
    }
    return true;
}

} // namespace

bool ChromatinData::patternHasMissing(int pattern) const {
    const size_t m = markNames.size();
    for (size_t j = 0; j < m; ++j) {
        if (patternValues[static_cast<size_t>(pattern) * m + j] ==
            static_cast<std::uint8_t>(MarkValue::Missing)) {
            return true;
        }
    }
    return false;
}

std::int64_t ChromatinData::totalBins() const {
    std::int64_t total = 0;
    for (const auto& track : tracks) {
        total += track.numBins();
    }
    return total;
}

int ChromatinData::findTrack(const std::string& cell, const std::string& chrom) const {
    for (size_t i = 0; i < tracks.size(); ++i) {
        if (tracks[i].cell == cell && tracks[i].chrom == chrom) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

void appendChromHmmFile(ChromatinData& data, const std::string& path, const CancelToken& cancel) {
    LineReader reader(path);
    std::string_view line;

    // Line 1: CELL<TAB>CHROM.
    if (!reader.next(line)) {
        throw InputError(path, 0, "empty file (expected a 'CELL<TAB>CHROM' header line)");
    }
    const auto header = fields(line);
    if (header.size() != 2) {
        if (looksLikeData(header)) {
            throw InputError(path, 1,
                             "missing header line 'CELL<TAB>CHROM' (this line looks like a bin)");
        }
        throw InputError(path, 1,
                         "header must be 'CELL<TAB>CHROM' (2 fields), found " +
                             std::to_string(header.size()) + " fields");
    }
    if (data.tracks.size() >= kMaxTracks) {
        throw InputError(path, 0,
                         "too many tracks: at most " + std::to_string(kMaxTracks) +
                             " cell types × chromosomes can be loaded together");
    }
    ChromatinTrack track;
    track.path = path;
    track.cell = std::string(header[0]);
    track.chrom = std::string(header[1]);
    const int existing = data.findTrack(track.cell, track.chrom);
    if (existing >= 0) {
        throw InputError(path, 1,
                         "cell " + printable(track.cell, 60) + " on " + printable(track.chrom, 60) +
                             " is already loaded from " +
                             data.tracks[static_cast<size_t>(existing)].path);
    }

    // Line 2: mark names.
    if (!reader.next(line)) {
        throw InputError(path, 2, "missing mark-name line (file ends after the header)");
    }
    const auto markParts = fields(line);
    if (markParts.empty()) {
        throw InputError(path, 2, "missing mark-name line (line is empty)");
    }
    if (looksLikeData(markParts)) {
        throw InputError(path, 2, "missing mark-name line (this line looks like a bin)");
    }
    if (markParts.size() > kMaxMarks) {
        throw InputError(path, 2,
                         std::to_string(markParts.size()) + " mark names; at most " +
                             std::to_string(kMaxMarks) + " marks are supported");
    }
    std::vector<std::string> marks;
    std::unordered_set<std::string> seen;
    for (auto part : markParts) {
        std::string name(part);
        if (!seen.insert(name).second) {
            throw InputError(path, 2, "mark name " + quoteForMessage(part) + " appears twice");
        }
        marks.push_back(std::move(name));
    }
    // Where each column goes: the first file fixes the mark order; a later file may list the
    // same marks in another order (its columns are permuted into the first file's order).
    std::vector<size_t> slot(marks.size());
    std::iota(slot.begin(), slot.end(), size_t{0});
    if (!data.markNames.empty() && marks != data.markNames &&
        marks.size() == data.markNames.size()) {
        bool sameSet = true;
        for (size_t j = 0; j < marks.size() && sameSet; ++j) {
            const auto at = std::find(data.markNames.begin(), data.markNames.end(), marks[j]);
            sameSet = at != data.markNames.end();
            if (sameSet) {
                slot[j] = static_cast<size_t>(at - data.markNames.begin());
            }
        }
        if (sameSet) {
            marks = data.markNames; // names by slot from here on
        }
    }
    if (!data.markNames.empty() && marks != data.markNames) {
        std::string detail;
        if (marks.size() != data.markNames.size()) {
            detail = std::to_string(marks.size()) + " marks, expected " +
                     std::to_string(data.markNames.size());
        } else {
            for (size_t j = 0; j < marks.size(); ++j) {
                if (marks[j] != data.markNames[j]) {
                    detail = "column " + std::to_string(j + 1) + " is " +
                             quoteForMessage(marks[j]) + ", expected " +
                             quoteForMessage(data.markNames[j]);
                    break;
                }
            }
        }
        throw InputError(
            path, 2, "mark names differ from " + data.tracks.front().path + " (" + detail + ")");
    }
    const size_t numMarks = marks.size();

    // Existing pattern dictionary; new patterns are staged so `data` is untouched on error.
    PatternIndex index;
    const size_t oldPatterns = data.markNames.empty() ? 0 : data.patternCounts.size();
    index.reserve(oldPatterns * 2 + 64);
    for (size_t p = 0; p < oldPatterns; ++p) {
        index.emplace(
            std::string(reinterpret_cast<const char*>(&data.patternValues[p * numMarks]), numMarks),
            static_cast<std::uint32_t>(p));
    }
    std::vector<std::uint8_t> newValues;
    std::vector<std::int64_t> counts(oldPatterns, 0);

    std::string key(numMarks, '\0');
    std::int64_t blankLine = 0; // first blank line not yet followed by data (0 = none)
    while (reader.next(line)) {
        const std::int64_t lineNumber = reader.lineNumber();
        if ((lineNumber & 0xFFFF) == 0) {
            throwIfCancelled(cancel);
        }
        if (isBlank(line)) {
            if (blankLine == 0) {
                blankLine = lineNumber;
            }
            continue;
        }
        if (blankLine != 0) {
            throw InputError(path, blankLine, "empty row among the bins");
        }
        // Tokenise: each value must be a single 0/1/2 character.
        size_t column = 0;
        size_t i = 0;
        const size_t n = line.size();
        while (i < n) {
            while (i < n && (isSeparator(line[i]) || line[i] == '\r')) {
                ++i;
            }
            if (i >= n) {
                break;
            }
            const size_t begin = i;
            while (i < n && !isSeparator(line[i]) && line[i] != '\r') {
                ++i;
            }
            const std::string_view token = line.substr(begin, i - begin);
            if (column >= numMarks) {
                throw InputError(path, lineNumber,
                                 "row has more than " + std::to_string(numMarks) +
                                     " values (one per mark expected)");
            }
            if (!isMarkValue(token)) {
                throw InputError(path, lineNumber,
                                 "column " + std::to_string(column + 1) + " (" +
                                     printable(marks[slot[column]], 40) +
                                     "): " + quoteForMessage(token) + " is not 0, 1 or 2");
            }
            key[slot[column]] = static_cast<char>(token[0] - '0');
            ++column;
        }
        if (column != numMarks) {
            throw InputError(path, lineNumber,
                             "row has " + std::to_string(column) + " values, expected " +
                                 std::to_string(numMarks) + " (one per mark)");
        }
        auto found = index.find(std::string_view(key));
        std::uint32_t id = 0;
        if (found == index.end()) {
            id = static_cast<std::uint32_t>(counts.size());
            index.emplace(key, id);
            counts.push_back(0);
            newValues.insert(newValues.end(), key.begin(), key.end());
        } else {
            id = found->second;
        }
        ++counts[id];
        track.bins.push_back(id);
    }
    if (track.bins.empty()) {
        throw InputError(path, reader.lineNumber(), "no data rows (bins) after the mark names");
    }

    // Commit.
    if (data.markNames.empty()) {
        data.markNames = std::move(marks);
        data.patternValues.clear();
        data.patternCounts.clear();
    }
    data.patternValues.insert(data.patternValues.end(), newValues.begin(), newValues.end());
    data.patternCounts.resize(counts.size(), 0);
    for (size_t p = 0; p < counts.size(); ++p) {
        data.patternCounts[p] += counts[p];
    }
    track.bins.shrink_to_fit();
    data.tracks.push_back(std::move(track));
}

ChromatinData readChromHmmTracks(const std::vector<std::string>& paths,
                                 const ChromHmmReadOptions& options, const CancelToken& cancel,
                                 const ProgressFn& progress) {
    if (paths.empty()) {
        throw InputError("no chromatin track files given");
    }
    if (options.binSize < 1) {
        throw InputError("bin size must be >= 1 bp (got " + std::to_string(options.binSize) + ")");
    }
    ChromatinData data;
    data.binSize = options.binSize;
    for (size_t i = 0; i < paths.size(); ++i) {
        if (progress) {
            progress(static_cast<double>(i) / static_cast<double>(paths.size()),
                     "reading chromatin tracks");
        }
        appendChromHmmFile(data, paths[i], cancel);
    }
    if (progress) {
        progress(1.0, "reading chromatin tracks");
    }
    return data;
}

} // namespace cx
