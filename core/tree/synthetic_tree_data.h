#pragma once

#include "core/common/cancel.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_hmm.h"
#include "core/tree/tree_spec.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// A chromosome and its length in base pairs.
struct ChromSize {
    const char* name;
    std::int64_t bases;
};

/// hg19 (GRCh37) primary chromosomes chr1 … chr22, chrX, chrY, in base pairs: UCSC's
/// hg19.chrom.sizes (https://hgdownload.soe.ucsc.edu/goldenPath/hg19/bigZips/hg19.chrom.sizes,
/// the same as ChromHMM's CHROMSIZES/hg19.txt). Sum 3,095,677,412 bp: 15,478,375 bins of 200 bp.
extern const std::array<ChromSize, 24> kHg19ChromSizes;

/// The chromosome sizes of a named assembly ("hg19"; case-sensitive).
/// \throws InputError naming the assembly and the known ones.
std::vector<ChromSize> assemblyChromSizes(const std::string& assembly);

/// What writeSyntheticTreeData generates.
struct SyntheticTreeDataSpec {
    TreeSpec tree;                       ///< cell types (node names) and their tree
    SyntheticTreeOptions model;          ///< K, marks, transitions, child emissions (randomTreeHmm)
    std::vector<std::string> chroms;     ///< chromosome names
    std::vector<std::int64_t> chromBins; ///< bins per chromosome (≥ 1 each)
    int binSize = 200;
    /// TSS per megabase (Poisson-like: each bin is a TSS bin with a fixed probability).
    double tssPerMb = 10;
    /// Fraction of the TSS drawn in bins where the root's true state is the promoter state
    /// (state 0); the rest anywhere.
    double tssInPromoter = 0.8;
    std::uint64_t seed = 1;
};

struct SyntheticTreeDataSummary {
    TreeHmmParameters model;   ///< the true parameters (randomTreeHmm(tree, model, seed))
    int promoterState = 0;     ///< 0-based state the TSS were drawn in (root)
    std::int64_t tssSites = 0; ///< rows of tss.txt
    std::int64_t binsPerCell = 0;
    std::vector<std::string> trackFiles; ///< CELL_CHROM_binary.txt, cell-major
};

/// Samples one chromosome of every cell type from `model` (root started from rootStart, each
/// child's first state its parent's, as sampleTreeTracks) with its own random stream:
/// codes[cell][bin] (bit m = mark m present) and the true states[cell][bin].
/// Deterministic in `seed`.
void sampleTreeChromosome(const TreeHmmParameters& model, std::int64_t bins, std::uint64_t seed,
                          std::vector<std::vector<std::uint16_t>>& codes,
                          std::vector<std::vector<std::uint16_t>>& states);

/// Writes a seeded synthetic multi-cell data set into `outDir` (created if missing):
///  - CELL_CHROM_binary.txt per cell type and chromosome (ChromHMM binarized: `CELL<TAB>CHROM`,
///    the mark names M1 … MM, one 0/1 row per bin), what readMultiCellTracks reads;
///  - tss.txt: TSS as `chrom pos strand` (ChromHMM ANCHORFILES), for promoter evaluation;
///  - truth/emissions_CELL.tsv (state × marks, the layout `contrast-cli tree` writes) and
///    truth/states_CELL_CHROM.bed (BED4 runs of each true state, labelled E1 … EK).
/// Chromosome c is sampled from its own stream (deriveSeed(seed, c + 1)), one chromosome at a
/// time per thread, so memory is O(cells × longest chromosome) and the files do not depend on
/// the thread count. \throws InputError for an empty tree, K or M out of range (1 ≤ K ≤ 16,
/// 1 ≤ M ≤ kMaxTreeMarks), no chromosome, a chromosome without bins, names and bins of
/// different lengths, a non-positive bin size, tssPerMb or tssInPromoter out of range, or an
/// output file that cannot be written (naming it). Polls `cancel`.
SyntheticTreeDataSummary writeSyntheticTreeData(const SyntheticTreeDataSpec& spec,
                                                const std::string& outDir,
                                                const CancelToken& cancel = {});

} // namespace cx
