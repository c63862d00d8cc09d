#include "core/io/binarize.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/io/text_input.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <string_view>

namespace cx {

namespace {

std::string trim(std::string_view text) {
    size_t begin = 0;
    size_t end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) {
        ++begin;
    }
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) {
        --end;
    }
    return std::string(text.substr(begin, end - begin));
}

} // namespace

CellMarkGuess guessCellMark(const std::string& fileName) {
    std::string stem = std::filesystem::path(fileName).filename().string();
    const auto lower = [](std::string text) {
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return text;
    };
    for (const char* suffix : {".gz", ".bam", ".sam", ".cram", ".bed", ".tagalign", ".narrowpeak",
                               ".broadpeak", ".txt"}) {
        const std::string tail(suffix);
        if (stem.size() > tail.size() && lower(stem.substr(stem.size() - tail.size())) == tail) {
            stem.resize(stem.size() - tail.size());
        }
    }
    const auto isControl = [&](const std::string& mark) {
        const std::string m = lower(mark);
        return m.rfind("input", 0) == 0 || m.rfind("control", 0) == 0 || m == "wce" ||
               m.rfind("igg", 0) == 0;
    };
    CellMarkGuess guess;
    const size_t histone = stem.find("Histone");
    if (stem.rfind("wgEncode", 0) == 0 && histone != std::string::npos) {
        static const std::regex mark("(H2A|H2B|H3|H4)[A-Za-z]?[Kk]\\d+(me[123]|ac|ub\\d?|F)?|Ctcf|"
                                     "CTCF|Control|Input",
                                     std::regex::ECMAScript);
        const std::string rest = stem.substr(histone + 7);
        std::smatch match;
        if (std::regex_search(rest, match, mark) && match.position(0) > 0) {
            guess.cell = rest.substr(0, static_cast<size_t>(match.position(0)));
            guess.mark = match.str(0);
        }
    } else {
        const size_t first = stem.find('_');
        if (first != std::string::npos && first > 0 && first + 1 < stem.size()) {
            const size_t second = stem.find('_', first + 1);
            guess.cell = stem.substr(0, first);
            guess.mark = stem.substr(first + 1, second == std::string::npos ? std::string::npos
                                                                            : second - first - 1);
        }
    }
    if (guess.mark.empty()) {
        guess.cell.clear();
    }
    guess.control = !guess.mark.empty() && isControl(guess.mark);
    return guess;
}

BinarizeFormat formatFromFileName(const std::string& name) {
    std::string base = name; // compared case-insensitively: X.BAM, Y.narrowPeak
    std::transform(base.begin(), base.end(), base.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (base.ends_with(".gz")) {
        base.resize(base.size() - 3);
    }
    if (base.ends_with(".bam") || base.ends_with(".sam") || base.ends_with(".cram")) {
        return BinarizeFormat::Bam;
    }
    if (base.ends_with("peak") || base.ends_with(".peaks.bed")) {
        return BinarizeFormat::Peaks;
    }
    if (base.ends_with(".bed") || base.ends_with(".tagalign")) {
        return BinarizeFormat::Bed;
    }
    return BinarizeFormat::Auto;
}

std::vector<ChromosomeSize> readChromosomeSizes(const std::string& path) {
    LineReader reader(path);
    std::string_view line;
    std::vector<ChromosomeSize> sizes;
    std::set<std::string> seen;
    while (reader.next(line)) {
        const std::string text = trim(line);
        if (text.empty()) {
            continue;
        }
        const size_t split = text.find_first_of("\t ");
        if (split == std::string::npos) {
            throw InputError(path, reader.lineNumber(),
                             "missing chromosome length (expected NAME<TAB>LENGTH)");
        }
        ChromosomeSize size;
        size.name = text.substr(0, split);
        const std::string rest = trim(std::string_view(text).substr(split));
        const std::string lengthText = rest.substr(0, rest.find_first_of("\t "));
        char* end = nullptr;
        const long long length = std::strtoll(lengthText.c_str(), &end, 10);
        if (lengthText.empty() || *end != '\0' || length < 0 || length > INT_MAX) {
            throw InputError(path, reader.lineNumber(),
                             "chromosome length " + quoteForMessage(lengthText) +
                                 " is not an integer in [0, 2^31)");
        }
        size.length = length;
        if (!seen.insert(size.name).second) {
            throw InputError(path, reader.lineNumber(),
                             "chromosome " + quoteForMessage(size.name) + " is listed twice");
        }
        sizes.push_back(std::move(size));
    }
    if (sizes.empty()) {
        throw InputError(path, 0, "no chromosomes (expected NAME<TAB>LENGTH lines)");
    }
    return sizes;
}

std::vector<CellMarkEntry> readCellMarkFileTable(const std::string& path) {
    LineReader reader(path);
    std::string_view line;
    std::vector<CellMarkEntry> entries;
    while (reader.next(line)) {
        if (trim(line).empty()) {
            continue;
        }
        std::vector<std::string> fields;
        size_t begin = 0;
        while (begin <= line.size()) {
            const size_t tab = line.find('\t', begin);
            const size_t end = tab == std::string_view::npos ? line.size() : tab;
            if (end > begin) { // runs of tabs count as one, as Java's StringTokenizer
                fields.push_back(trim(line.substr(begin, end - begin)));
            }
            begin = end + 1;
        }
        if (fields.size() < 3) {
            throw InputError(path, reader.lineNumber(),
                             "expected CELL<TAB>MARK<TAB>FILE[<TAB>CONTROL], found " +
                                 std::to_string(fields.size()) + " tab-separated field(s)");
        }
        CellMarkEntry entry{fields[0], fields[1], fields[2], fields.size() > 3 ? fields[3] : "",
                            reader.lineNumber()};
        entries.push_back(std::move(entry));
    }
    if (entries.empty()) {
        throw InputError(path, 0, "no lines (expected CELL<TAB>MARK<TAB>FILE[<TAB>CONTROL])");
    }
    return entries;
}

} // namespace cx
