#pragma once

#include "core/common/cancel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// What the input files of a binarization hold.
enum class BinarizeFormat {
    Auto, ///< from the file names (.bam/.sam/.cram → Bam; .bed/.tagAlign[.gz] → Bed; *Peak → Peaks)
    Bam,   ///< aligned reads: BAM, SAM or CRAM (read with htslib), like ChromHMM BinarizeBam
    Bed,   ///< one read per line: chrom, start, end, …, strand (plain or .gz), like BinarizeBed
    Peaks, ///< peak calls (BED, narrowPeak, broadPeak): a bin is 1 when a peak overlaps it
};

/// ChromHMM's BinarizeBam / BinarizeBed options with ChromHMM's defaults (flag in brackets).
struct BinarizeOptions {
    BinarizeFormat format = BinarizeFormat::Auto;
    int binSize = 200; ///< [-b] bp per bin; a chromosome has floor(length / binSize) bins
    int shift = 100;   ///< [-n] bp a read's 5′ end moves toward its 3′ end
    double poissonThreshold = 1e-4; ///< [-p] upper-tail probability of the Poisson background
    double foldThreshold = 0;       ///< [-f] a 1 also needs count ≥ fold × expected
    double signalThreshold = 0;     ///< [-g] a 1 also needs count ≥ this
    int flankWidth = 5;             ///< [-w] control window: bins on each side of the bin
    int pseudocount = 1;            ///< [-u] added to every control bin before the window sum
    bool strictThreshold = false;   ///< [-strictthresh] tail strictly below poissonThreshold
    bool paired = false;            ///< [-paired] one count per properly paired fragment (BAM)
    bool center = false;            ///< [-center] use the read's midpoint instead of the shift
    bool gzip = false;              ///< [-gzip] write CELL_CHR_binary.txt.gz
    /// A cell without a file for one of the table's marks gets a column of 2 (missing), as in
    /// ChromHMM, only when this is set; otherwise that is an error.
    bool allowMissingMarks = false;
    /// Folder for per-chromosome count spills (default: the system's temporary folder).
    std::string tempDir;
};

/// One line of the cellmarkfiletable: CELL<TAB>MARK<TAB>FILE[<TAB>CONTROL].
struct CellMarkEntry {
    std::string cell;
    std::string mark;
    std::string file;
    std::string control; ///< empty when the line has no control column
    std::int64_t line = 0;
};

/// One chromosome of the sizes file.
struct ChromosomeSize {
    std::string name;
    std::int64_t length = 0;
};

/// Reads a chromosome sizes file (NAME<whitespace>LENGTH per line; further columns ignored, blank
/// lines skipped). \throws InputError naming the file and line for a missing or bad length, a
/// duplicated name, or no chromosome at all.
std::vector<ChromosomeSize> readChromosomeSizes(const std::string& path);

/// Reads a cellmarkfiletable as ChromHMM does: tab-separated (runs of tabs count as one),
/// fields trimmed, blank lines skipped. \throws InputError for a line with fewer than 3 fields.
std::vector<CellMarkEntry> readCellMarkFileTable(const std::string& path);

/// Format guessed from a file name (BinarizeFormat::Auto when unknown).
BinarizeFormat formatFromFileName(const std::string& name);

/// Cell and mark of a read file, guessed from its name (for the GUI's table, which the user
/// can edit).
struct CellMarkGuess {
    std::string cell; ///< empty when the name fits no pattern
    std::string mark;
    bool control = false; ///< the mark reads as an input/control (input…, control…, wce, igg)
};

/// Guesses cell and mark from a file name (folders and the extensions .gz, .bam, .sam, .cram,
/// .bed, .tagAlign, .narrowPeak, .broadPeak, .txt removed):
/// - ENCODE's `wgEncode<Lab>Histone<Cell><Mark>…` ("wgEncodeBroadHistoneGm12878H3k4me3StdAln"
///   → Gm12878, H3k4me3; the mark is the first H2A/H2B/H3/H4 modification, CTCF, Control or
///   Input after "Histone");
/// - otherwise `CELL_MARK[_anything]` ("GM12878_H3K4me3.bam", "C1_H3K27ac_paired.bam").
CellMarkGuess guessCellMark(const std::string& fileName);

/// One written file.
struct BinarizedFile {
    std::string path;
    std::string cell;
    std::string chrom;
    std::int64_t numBins = 0;
};

/// One input file's reads as binarization saw them.
struct BinarizeInputSummary {
    std::string path;
    bool isControl = false;
    std::int64_t records = 0;     ///< records (lines) read
    std::int64_t counted = 0;     ///< reads (fragments, peaks) that fell into a bin
    std::int64_t unmapped = 0;    ///< unmapped reads skipped (BAM)
    std::int64_t otherContig = 0; ///< reads on a contig absent from the sizes file
    bool sorted = true;           ///< chromosomes came in contiguous blocks (memory stays bounded)
};

struct BinarizeResult {
    std::vector<std::string> marks; ///< sorted, as in the output header
    std::vector<BinarizedFile> files;
    std::vector<BinarizeInputSummary> inputs;
    std::vector<std::string> warnings;
    double seconds = 0;
};

/// ChromHMM-compatible binarization (BinarizeBam / BinarizeBed, ChromHMM 1.24–1.27).
///
/// For each cell of the table and each chromosome of the sizes file on which the cell has data
/// (and, when the cell has controls, control data), writes `outDir/CELL_CHROM_binary.txt[.gz]`:
/// `CELL<TAB>CHROM`, the marks (sorted), then one row per bin of 0/1/2. Calls (see
/// docs/binarize.md for every rule and ChromHMM's quirks, which are kept):
/// - a read counts in bin (start + shift)/binSize (+ strand) or (end − 1 − shift)/binSize
///   (− strand), C integer division; reads outside [0, numBins) are dropped;
/// - without control, mark m is 1 where count ≥ max(PoissonQuantile(λ_m), ⌈fold·λ_m⌉, 1, ⌈signal⌉)
///   with λ_m the cell's mean count per bin over the chromosomes it has data on;
/// - with control, the background of a bin is the sum over ±flankWidth bins of (control count +
///   pseudocount), λ = background × (total mark reads / total background);
/// - a mark without a file for the cell is 2 (only with allowMissingMarks).
///
/// Memory: inputs are streamed; a thread holds one chromosome's bins of one file while reading
/// (all chromosomes of that file when it is not sorted by chromosome), and one chromosome's bins
/// × marks while writing. Counts are spilled to `tempDir`, compressed, between the two passes.
/// Files are read in parallel (threadCount()).
///
/// \throws InputError naming the file for unreadable, empty, truncated or malformed inputs, a
///   missing mark (unless allowed), chromosome names that match none of the sizes file (with
///   the chr-prefix mapping when that would match), and bad options. Nothing is written to
///   `outDir` until every input has been read; each output file is written atomically.
/// \throws Cancelled when `cancel` is set. `progress` gets the fraction done.
BinarizeResult binarize(const std::string& chromSizesPath, const std::string& inputDir,
                        const std::string& cellMarkTablePath, const std::string& controlDir,
                        const std::string& outDir, const BinarizeOptions& options,
                        const CancelToken& cancel = {}, const ProgressFn& progress = {});

/// Smallest k with P(X < k) > 1 − p for X ~ Poisson(λ) (ChromHMM's summation, bit for bit), minus
/// one unless `strict`. Exposed for tests.
int poissonThreshold(double lambda, double p, bool strict);

} // namespace cx
