#pragma once

// Pass 1 of binarization: reads one input file (BAM/SAM/CRAM through htslib, or BED reads or
// peaks as text) into per-chromosome bin counts, ChromHMM's binning rules. Internal to
// binarize.cpp; a header of its own so the readers stay testable and binarize.cpp stays short.

#include "core/common/cancel.h"
#include "core/io/binarize.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

namespace cx::binarize_detail {

/// A temporary folder for count spills, removed (with its files) by the destructor.
class SpillFolder {
public:
    explicit SpillFolder(const std::string& parent);
    ~SpillFolder();
    SpillFolder(const SpillFolder&) = delete;
    SpillFolder& operator=(const SpillFolder&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

/// The genome as the sizes file gives it.
struct Genome {
    std::vector<ChromosomeSize> chromosomes;
    std::vector<std::int64_t> numBins; ///< floor(length / binSize)
    std::unordered_map<std::string, int> index;
    int find(const std::string& name) const {
        const auto at = index.find(name);
        return at == index.end() ? -1 : at->second;
    }
};

/// Counts of one input file: per chromosome, the total of counted reads and (spilled to disk,
/// zlib-compressed) the count in every bin.
struct FileCounts {
    BinarizeInputSummary summary;
    std::vector<std::int64_t> totals;        ///< per chromosome
    std::vector<char> present;               ///< a read fell into a bin of this chromosome
    std::vector<std::string> unknownContigs; ///< names of skipped contigs (first few)
    std::filesystem::path spillStem;         ///< spill of chromosome c: spillStem + "." + c
};

/// Reads `path` and fills `counts` (totals, present, summary, spills under `spill`).
/// \throws InputError naming the file (unreadable, empty, truncated, malformed line, an unpaired
/// read with --paired); Cancelled.
void countFile(const std::string& path, BinarizeFormat format, const BinarizeOptions& options,
               const Genome& genome, const std::filesystem::path& spillStem, FileCounts& counts,
               const CancelToken& cancel);

/// Adds the spilled counts of chromosome `chrom` of `counts` to `bins` (size numBins[chrom]).
void addSpilledCounts(const FileCounts& counts, int chrom, std::vector<std::int32_t>& bins);

} // namespace cx::binarize_detail
