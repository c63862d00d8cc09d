#include "core/io/enrichment_inputs.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/io/bed.h"
#include "core/io/text_input.h"

#include <string_view>

namespace cx {

namespace {

/// Whitespace (tabs and spaces, any mix) separated fields, as ChromHMM's split("\\s+").
std::vector<std::string_view> splitWhitespace(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (i < line.size()) {
        while (i < line.size() && isSpace(line[i])) {
            ++i;
        }
        const size_t begin = i;
        while (i < line.size() && !isSpace(line[i])) {
            ++i;
        }
        if (i > begin) {
            out.push_back(line.substr(begin, i - begin));
        }
    }
    return out;
}

/// A segmentation line's fields: at tabs when the line has one (BED; a state label may then hold
/// spaces, "Active promoter", as the GUI's export and `hmm --state-labels names` write them),
/// each field without surrounding blanks; else as splitWhitespace.
std::vector<std::string_view> splitSegmentFields(std::string_view line) {
    if (line.find('\t') == std::string_view::npos) {
        return splitWhitespace(line);
    }
    const auto isBlank = [](char c) { return c == ' ' || c == '\r'; };
    std::vector<std::string_view> out;
    for (std::string_view field : splitBedFields(line)) {
        while (!field.empty() && isBlank(field.front())) {
            field.remove_prefix(1);
        }
        while (!field.empty() && isBlank(field.back())) {
            field.remove_suffix(1);
        }
        out.push_back(field);
    }
    while (!out.empty() && out.back().empty()) { // trailing tabs
        out.pop_back();
    }
    return out;
}

} // namespace

std::vector<SegmentRecord> readSegmentsBed(const std::string& path, const CancelToken& cancel) {
    LineReader reader(path);
    std::string_view line;
    std::vector<SegmentRecord> out;
    while (reader.next(line)) {
        const std::int64_t lineNumber = reader.lineNumber();
        if ((lineNumber & 0xFFFF) == 0) {
            throwIfCancelled(cancel);
        }
        if (isBedHeaderLine(line)) {
            continue;
        }
        const auto parts = splitSegmentFields(line);
        if (parts.size() < 4) {
            throw InputError(path, lineNumber,
                             "segment line has " + std::to_string(parts.size()) +
                                 " column(s), expected at least 4 (chrom, start, end, state)");
        }
        SegmentRecord record;
        record.chrom = std::string(parts[0]);
        if (parts[0].empty() || parts[3].empty()) {
            throw InputError(
                path, lineNumber,
                std::string(parts[0].empty() ? "column 1 (chrom)" : "column 4 (state)") +
                    " is empty");
        }
        record.label = std::string(parts[3]);
        record.line = lineNumber;
        if (!parseBedCoordinate(parts[1], record.start)) {
            throw InputError(path, lineNumber,
                             "column 2 (start): " + quoteForMessage(parts[1]) +
                                 " is not a non-negative integer");
        }
        if (!parseBedCoordinate(parts[2], record.end)) {
            throw InputError(path, lineNumber,
                             "column 3 (end): " + quoteForMessage(parts[2]) +
                                 " is not a non-negative integer");
        }
        if (record.start >= record.end) {
            throw InputError(path, lineNumber,
                             "start " + std::to_string(record.start) + " is not before end " +
                                 std::to_string(record.end));
        }
        out.push_back(std::move(record));
    }
    if (out.empty()) {
        throw InputError(path, reader.lineNumber(), "no segments (empty segmentation file)");
    }
    return out;
}

std::vector<AnchorRecord> readAnchorFile(const std::string& path, bool useStrand,
                                         const CancelToken& cancel) {
    LineReader reader(path);
    std::string_view line;
    std::vector<AnchorRecord> out;
    const size_t minColumns = useStrand ? 3 : 2;
    while (reader.next(line)) {
        const std::int64_t lineNumber = reader.lineNumber();
        if ((lineNumber & 0xFFFF) == 0) {
            throwIfCancelled(cancel);
        }
        const auto parts = splitWhitespace(line);
        if (parts.empty()) {
            continue;
        }
        if (parts.size() < minColumns) {
            throw InputError(
                path, lineNumber,
                "anchor line has " + std::to_string(parts.size()) + " column(s), expected " +
                    (useStrand ? "3 (chrom, position, strand)" : "2 (chrom, position)"));
        }
        AnchorRecord record;
        record.chrom = std::string(parts[0]);
        record.line = lineNumber;
        if (!parseBedCoordinate(parts[1], record.position)) {
            throw InputError(path, lineNumber,
                             "column 2 (position): " + quoteForMessage(parts[1]) +
                                 " is not a non-negative integer");
        }
        if (useStrand) {
            if (parts[2] == "+") {
                record.forward = true;
            } else if (parts[2] == "-") {
                record.forward = false;
            } else {
                throw InputError(path, lineNumber,
                                 "column 3 (strand): " + quoteForMessage(parts[2]) +
                                     " is not '+' or '-'");
            }
        }
        out.push_back(std::move(record));
    }
    if (out.empty()) {
        throw InputError(path, reader.lineNumber(), "no anchors (empty anchor file)");
    }
    return out;
}

bool isAnchorFile(const std::string& path) {
    LineReader reader(path);
    std::string_view line;
    while (reader.next(line)) {
        const auto parts = splitWhitespace(line);
        if (parts.empty() || parts[0].front() == '#' || parts[0] == "track" ||
            parts[0] == "browser") {
            continue;
        }
        std::int64_t position = 0;
        return parts.size() >= 2 && parseBedCoordinate(parts[1], position) &&
               (parts.size() == 2 || parts[2] == "+" || parts[2] == "-");
    }
    return false;
}

} // namespace cx
