#include "core/tree/multi_cell_tracks.h"

#include "core/common/error.h"
#include "core/io/text_input.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <unordered_map>

namespace cx {

namespace {

/// One file as read: its marks and one code per bin over those marks.
struct RawTrack {
    std::string path;
    std::string cell;
    std::string chrom;
    std::vector<std::string> marks;
    ChromatinData data;
};

bool isBinarizedName(const std::string& name) {
    auto endsWith = [&](const std::string& tail) {
        return name.size() >= tail.size() &&
               name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    return endsWith("_binary.txt") || endsWith("_binary.txt.gz");
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) {
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

} // namespace

std::int64_t MultiCellTracks::totalBins() const {
    std::int64_t total = 0;
    for (auto n : chromBins) {
        total += n;
    }
    return total;
}

int MultiCellTracks::findCell(const std::string& cell) const {
    const auto it = std::find(cells.begin(), cells.end(), cell);
    return it == cells.end() ? -1 : static_cast<int>(it - cells.begin());
}

ChromatinData MultiCellTracks::cellData(int cell) const {
    ChromatinData data;
    data.markNames = markNames;
    data.binSize = binSize;
    const int m = numMarks();
    std::unordered_map<std::uint16_t, std::uint32_t> patternOf;
    for (int k = 0; k < numChroms(); ++k) {
        ChromatinTrack track;
        track.path = files[static_cast<size_t>(cell)][static_cast<size_t>(k)];
        track.cell = cells[static_cast<size_t>(cell)];
        track.chrom = chroms[static_cast<size_t>(k)];
        const auto& source = codes[static_cast<size_t>(cell)][static_cast<size_t>(k)];
        track.bins.resize(source.size());
        for (size_t i = 0; i < source.size(); ++i) {
            const std::uint16_t code = source[i];
            auto it = patternOf.find(code);
            if (it == patternOf.end()) {
                const auto id = static_cast<std::uint32_t>(data.patternCounts.size());
                it = patternOf.emplace(code, id).first;
                data.patternCounts.push_back(0);
                for (int j = 0; j < m; ++j) {
                    data.patternValues.push_back(code == kMissingObservation
                                                     ? 2
                                                     : static_cast<std::uint8_t>((code >> j) & 1));
                }
            }
            track.bins[i] = it->second;
            ++data.patternCounts[it->second];
        }
        data.tracks.push_back(std::move(track));
    }
    return data;
}

std::vector<std::string> expandTrackPaths(const std::vector<std::string>& items) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (const std::string& item : items) {
        std::error_code error;
        if (fs::is_directory(item, error)) {
            std::vector<std::string> found;
            for (const auto& entry : fs::directory_iterator(item)) {
                if (entry.is_regular_file() && isBinarizedName(entry.path().filename().string())) {
                    found.push_back(entry.path().string());
                }
            }
            if (found.empty()) {
                throw InputError(item, 0,
                                 "folder has no ChromHMM binarized files (*_binary.txt[.gz])");
            }
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        } else if (fs::exists(item, error)) {
            out.push_back(item);
        } else {
            throw InputError(item, 0, "no such file or folder");
        }
    }
    return out;
}

MultiCellTracks readMultiCellTracks(const std::vector<std::string>& paths,
                                    const MultiCellReadOptions& options, const CancelToken& cancel,
                                    const ProgressFn& progress) {
    if (paths.empty()) {
        throw InputError("tracks: no files given");
    }
    std::vector<RawTrack> raw;
    std::vector<std::string> cellsRead;
    for (size_t f = 0; f < paths.size(); ++f) {
        throwIfCancelled(cancel);
        if (!options.cells.empty()) {
            // Skip files of cell types that are not wanted (the header names the cell).
            LineReader header(paths[f]);
            std::string_view line;
            if (header.next(line)) {
                const std::string cell(line.substr(0, line.find_first_of("\t ")));
                if (std::find(options.cells.begin(), options.cells.end(), cell) ==
                    options.cells.end()) {
                    if (std::find(cellsRead.begin(), cellsRead.end(), cell) == cellsRead.end()) {
                        cellsRead.push_back(cell);
                    }
                    continue;
                }
            }
        }
        RawTrack track;
        track.path = paths[f];
        track.data.binSize = options.binSize;
        appendChromHmmFile(track.data, paths[f], cancel);
        track.cell = track.data.tracks[0].cell;
        track.chrom = track.data.tracks[0].chrom;
        track.marks = track.data.markNames;
        for (const RawTrack& other : raw) {
            if (other.cell == track.cell && other.chrom == track.chrom) {
                throw InputError(paths[f], 1,
                                 "cell " + track.cell + " on " + track.chrom +
                                     " was already read from " + other.path);
            }
        }
        if (std::find(cellsRead.begin(), cellsRead.end(), track.cell) == cellsRead.end()) {
            cellsRead.push_back(track.cell);
        }
        raw.push_back(std::move(track));
        if (progress) {
            progress(static_cast<double>(f + 1) / static_cast<double>(paths.size()),
                     "reading tracks");
        }
    }
    MultiCellTracks out;
    out.binSize = options.binSize;
    out.cells = options.cells.empty() ? cellsRead : options.cells;
    for (const std::string& cell : out.cells) {
        if (std::find(cellsRead.begin(), cellsRead.end(), cell) == cellsRead.end()) {
            throw InputError("tracks: no file provides cell type '" + cell +
                             "' (read: " + joined(cellsRead) + ")");
        }
    }
    for (const std::string& cell : cellsRead) {
        if (std::find(out.cells.begin(), out.cells.end(), cell) == out.cells.end()) {
            out.notes.push_back("cell type " + cell + " is not used (not in the tree)");
        }
    }
    auto kept = [&](const RawTrack& t) {
        return std::find(out.cells.begin(), out.cells.end(), t.cell) != out.cells.end();
    };
    // Shared marks: those of the first kept file, in its order, that every kept file has.
    const RawTrack* first = nullptr;
    for (const RawTrack& t : raw) {
        if (kept(t)) {
            first = &t;
            break;
        }
    }
    for (const std::string& mark : first->marks) {
        std::vector<std::string> lacking;
        const RawTrack* lackingFile = nullptr;
        for (const RawTrack& t : raw) {
            if (kept(t) && std::find(t.marks.begin(), t.marks.end(), mark) == t.marks.end()) {
                if (std::find(lacking.begin(), lacking.end(), t.cell) == lacking.end()) {
                    lacking.push_back(t.cell);
                }
                lackingFile = lackingFile ? lackingFile : &t;
            }
        }
        if (lacking.empty()) {
            out.markNames.push_back(mark);
            continue;
        }
        if (options.strictMarks) {
            throw InputError(lackingFile->path, 2,
                             "cell " + lackingFile->cell + " lacks mark " + mark + " (which " +
                                 first->path + " has)");
        }
        out.droppedMarks.push_back(mark);
        out.notes.push_back("mark " + mark + " dropped: " + joined(lacking) + " lack" +
                            (lacking.size() == 1 ? "s" : "") + " it");
    }
    for (const RawTrack& t : raw) {
        if (!kept(t)) {
            continue;
        }
        for (const std::string& mark : t.marks) {
            if (std::find(first->marks.begin(), first->marks.end(), mark) == first->marks.end()) {
                if (options.strictMarks) {
                    throw InputError(first->path, 2,
                                     "cell " + first->cell + " lacks mark " + mark + " (which " +
                                         t.path + " has)");
                }
                if (std::find(out.droppedMarks.begin(), out.droppedMarks.end(), mark) ==
                    out.droppedMarks.end()) {
                    out.droppedMarks.push_back(mark);
                    out.notes.push_back("mark " + mark + " dropped: " + first->cell + " lacks it");
                }
            }
        }
    }
    if (out.markNames.empty()) {
        throw InputError(first->path, 2, "the cell types share no mark");
    }
    if (out.numMarks() > kMaxTreeMarks) {
        throw InputError(first->path, 2,
                         std::to_string(out.numMarks()) + " shared marks; at most " +
                             std::to_string(kMaxTreeMarks) + " are supported");
    }
    // Chromosomes: in reading order; every kept cell type must have each one.
    std::map<std::string, const RawTrack*> firstOfChrom;
    for (const RawTrack& t : raw) {
        if (kept(t) && !firstOfChrom.count(t.chrom)) {
            firstOfChrom[t.chrom] = &t;
            out.chroms.push_back(t.chrom);
            out.chromBins.push_back(t.data.tracks[0].numBins());
        }
    }
    out.codes.assign(out.cells.size(), std::vector<std::vector<std::uint16_t>>(out.chroms.size()));
    out.files.assign(out.cells.size(), std::vector<std::string>(out.chroms.size()));
    for (const RawTrack& t : raw) {
        if (!kept(t)) {
            continue;
        }
        const size_t c = static_cast<size_t>(out.findCell(t.cell));
        const size_t k = static_cast<size_t>(
            std::find(out.chroms.begin(), out.chroms.end(), t.chrom) - out.chroms.begin());
        const ChromatinTrack& track = t.data.tracks[0];
        if (track.numBins() != out.chromBins[k]) {
            throw InputError(t.path, 0,
                             "has " + std::to_string(track.numBins()) + " bins on " + t.chrom +
                                 " but " + firstOfChrom[t.chrom]->path + " has " +
                                 std::to_string(out.chromBins[k]) +
                                 ": the cell types' bins do not align");
        }
        // Per pattern of this file: its code over the shared marks.
        std::vector<int> column(out.markNames.size());
        for (size_t m = 0; m < out.markNames.size(); ++m) {
            column[m] = static_cast<int>(
                std::find(t.marks.begin(), t.marks.end(), out.markNames[m]) - t.marks.begin());
        }
        std::vector<std::uint16_t> codeOf(static_cast<size_t>(t.data.numPatterns()));
        for (int p = 0; p < t.data.numPatterns(); ++p) {
            std::uint16_t code = 0;
            for (size_t m = 0; m < column.size() && code != kMissingObservation; ++m) {
                const std::uint8_t value = t.data.value(p, column[m]);
                if (value == 2) {
                    code = kMissingObservation;
                } else if (value == 1) {
                    code = static_cast<std::uint16_t>(code | (1u << m));
                }
            }
            codeOf[static_cast<size_t>(p)] = code;
        }
        auto& target = out.codes[c][k];
        target.resize(track.bins.size());
        for (size_t i = 0; i < track.bins.size(); ++i) {
            target[i] = codeOf[track.bins[i]];
        }
        out.files[c][k] = t.path;
    }
    for (size_t c = 0; c < out.cells.size(); ++c) {
        for (size_t k = 0; k < out.chroms.size(); ++k) {
            if (out.files[c][k].empty()) {
                throw InputError(firstOfChrom[out.chroms[k]]->path, 0,
                                 "cell " + out.cells[c] + " has no track on " + out.chroms[k] +
                                     " (other cell types have one)");
            }
        }
    }
    return out;
}

} // namespace cx
