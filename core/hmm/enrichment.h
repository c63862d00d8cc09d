#pragma once

// ChromHMM-compatible enrichments of a hard segmentation (ChromHMM's OverlapEnrichment and
// NeighborhoodEnrichment, default "max" mode, i.e. without posteriors): the same counting rules,
// the same table and the same numbers, so that `contrast-cli enrichment` and the GUI can be
// checked against ChromHMM on the same segmentation. The rules are restated here from
// ChromHMM's manual and its public StateAnalysis source; tests/data/enrichment holds ChromHMM's
// own tables on a small fixture.

#include "core/common/cancel.h"
#include "core/hmm/segmentation_analysis.h"
#include "core/io/bed.h"
#include "core/io/enrichment_inputs.h"

#include <Eigen/Dense>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace cx {

/// A segmentation on a grid of `binSize` bases: per chromosome, the state index of every bin
/// (−1 where no segment lies). A segment [start, end) covers bins start/binSize …
/// (end − 1)/binSize; when segments overlap, the later one wins (ChromHMM warns, so do we).
///
/// State indices follow ChromHMM: a label that is an integer, or one character then an integer
/// ("E3", "U12"), has that integer as index; otherwise (names such as "TssA") every label gets
/// 1, 2, … in order of first appearance (ChromHMM's `-labels`). Rows of every table are the
/// states that occur, by index, named by their label as written in the segmentation.
struct StateSegmentation {
    int binSize = 200;
    std::vector<std::string> chroms;      ///< in order of first appearance
    std::vector<std::vector<int>> bins;   ///< per chrom, per bin: state index or −1
    std::vector<std::string> stateLabels; ///< per index (empty where no state has it)
    std::vector<double> stateBins;        ///< per index: bins in that state (ChromHMM's tally)
    double totalBins = 0;                 ///< Σ stateBins
    /// ChromHMM's corner cell, "State (Emission order)" etc., from the first character of the
    /// file's last label (E: Emission, T: Transition, F: Fixed, otherwise User).
    std::string orderName = "User";
    std::vector<std::string> warnings;

    int numIndices() const { return static_cast<int>(stateLabels.size()); }
    /// Index of `chrom` in `chroms`, or −1.
    int chromIndex(const std::string& chrom) const;
};

/// Builds the binned segmentation from segment records (readSegmentsBed).
/// \throws InputError(file, line, …) when a segment start is not a multiple of `binSize`
///   (ChromHMM's check: the bin size must be the one the segmentation was made with; use 1 for
///   lifted-over segmentations) or a label set mixes numbered and named states.
/// \throws std::invalid_argument when binSize < 1. Cost O(bases / binSize).
StateSegmentation binSegments(const std::vector<SegmentRecord>& segments, int binSize,
                              const std::string& path);

/// readSegmentsBed + binSegments.
StateSegmentation readStateSegmentation(const std::string& path, int binSize,
                                        const CancelToken& cancel = {});

/// The decoded segmentation of one sample as a StateSegmentation: exactly what reading back
/// the BED that writeRunsBed9 writes for `cell` gives (state s labelled `labels[s]`), so the GUI's
/// tables equal `contrast-cli enrichment` on the exported file. An empty `cell` takes every track.
/// \throws std::invalid_argument when a state has no label or the cell has no track.
StateSegmentation stateSegmentation(const ChromatinData& data,
                                    const DecodedSegmentation& segmentation,
                                    const std::vector<std::string>& labels,
                                    const std::string& cell = {});

/// One annotation set: a column of the overlap table.
struct EnrichmentAnnotation {
    std::string name; ///< column header (the file name)
    std::string path; ///< for messages
    BedRegions regions;
};

/// Options of overlapEnrichment, with ChromHMM OverlapEnrichment's flag for each.
struct OverlapEnrichmentOptions {
    /// Count base pairs (default). False counts whole bins touched (`-binres`).
    bool baseResolution = true;
    /// Only the centre (start + end)/2 of each interval (`-center`).
    bool center = false;
    /// Count overlapping intervals once per interval instead of their union (`-multicount`;
    /// counts follow ChromHMM ≥ 1.26, whose Base row is in base-pair fractions of bins).
    bool multiCount = false;
    /// Subtracted from start / end to make them 0-based inclusive (`-s`, `-e`; BED: 0 and 1).
    std::int64_t offsetStart = 0;
    std::int64_t offsetEnd = 1;
    /// The "Genome %" column and the per-column heatmap scale; false is `-uniformscale`.
    bool genomeColumn = true;
    /// −log10 p-values of each cell: hypergeometric (binomial with multiCount) over base
    /// pairs, as ChromHMM ≥ 1.26 writes with `-center` (we compute them in every mode).
    bool pValues = false;
};

/// A states × columns table in ChromHMM's layout.
struct EnrichmentTable {
    std::string corner;                   ///< "State (Emission order)"
    std::vector<std::string> rowLabels;   ///< states that occur, by index
    std::vector<int> rowStates;           ///< their indices
    std::vector<std::string> columnNames; ///< annotation files, or positions "-2000" … "2000"
    Eigen::MatrixXd fold;                 ///< rows × columns fold enrichments
    Eigen::VectorXd genomePercent;        ///< per row; empty without the Genome % column
    Eigen::VectorXd basePercent;          ///< per column (overlap's Base row); empty otherwise
    Eigen::MatrixXd log10PValues;         ///< rows × columns −log10 p (capped at 300); or empty
    Eigen::MatrixXd overlap;              ///< rows × columns: the tallies (bins, fractional)
    std::vector<std::string> warnings;
};

/// Overlap enrichment (ChromHMM OverlapEnrichment). For annotation a and state s, with
/// overlap(s, a) the bases of a's intervals (their union, unless multiCount) in bins of state s,
/// counted in bins (a bin's share of an interval is the fraction of its bases inside it), and
/// bins(s) the bins of state s:
///   fold(s, a) = (overlap(s, a) / Σ_s' overlap(s', a)) / (bins(s) / Σ_s' bins(s'))
///   Genome %(s) = 100 · bins(s) / Σ bins,   Base(a) = 100 · Σ_s overlap(s, a) / Σ bins.
/// Intervals on chromosomes the segmentation lacks are ignored (with a warning); parts past a
/// chromosome's last segment are clipped.
/// An annotation with intervals on segmented chromosomes that all miss the segmented bins (a
/// segmentation of a small region) gets an empty column (fold 0, Base 0, −log10 p 0) and a
/// warning. \throws InputError(file, 0, …) when an annotation has no interval on any segmented
///   chromosome (ChromHMM's check: its chromosome names probably differ from the segmentation's).
/// Cost O(intervals · log intervals + covered bins). Polls `cancel` between annotations.
EnrichmentTable overlapEnrichment(const StateSegmentation& segmentation,
                                  const std::vector<EnrichmentAnnotation>& annotations,
                                  const OverlapEnrichmentOptions& options = {},
                                  const CancelToken& cancel = {});

/// The annotation files of `pathOrFolder` as ChromHMM takes them: every regular, non-hidden
/// file of a folder in byte order of name, or the one file given. Column names are file names.
/// \throws InputError for a missing path, an empty folder, or a bad BED line (file and line).
std::vector<EnrichmentAnnotation> readEnrichmentAnnotations(const std::vector<std::string>& paths,
                                                            const CancelToken& cancel = {});

/// Options of neighborhoodEnrichment, with NeighborhoodEnrichment's flag for each.
struct NeighborhoodEnrichmentOptions {
    int numLeft = 10;              ///< positions before the anchor (`-l`)
    int numRight = 10;             ///< positions after the anchor (`-r`)
    int spacing = 0;               ///< bases between positions (`-s`); 0: the bin size
    bool useStrand = true;         ///< false: `-nostrand` (every anchor read as '+')
    std::int64_t anchorOffset = 0; ///< subtracted from each position (`-o`)
};

/// Neighbourhood enrichment (ChromHMM NeighborhoodEnrichment). For offset i ∈ [−numLeft,
/// numRight] and anchor at p, the state of bin (p + i·spacing)/binSize (integer division toward
/// zero, as in ChromHMM; on '−' strand anchors i runs mirrored, so columns read 5'→3') is
/// tallied; fold(s, i) = (tally(s, i) / Σ_s' tally(s', i)) / (bins(s) / Σ bins). Anchors on
/// chromosomes the segmentation lacks are skipped; positions outside a chromosome or in a gap
/// count nowhere. Columns are named by base offset i·spacing.
/// \throws InputError(file, 0, …) when no anchor's chromosome is in the segmentation.
/// Cost O(anchors · (numLeft + numRight)).
EnrichmentTable neighborhoodEnrichment(const StateSegmentation& segmentation,
                                       const std::vector<AnchorRecord>& anchors,
                                       const std::string& anchorPath,
                                       const NeighborhoodEnrichmentOptions& options = {});

/// Writes `table` as ChromHMM does: a header line (corner, [Genome %,] column names), one line
/// per state (label, [Genome %,] folds with 5 decimals), and for overlap the Base row
/// ("Base", [100,] Base % with 10 decimals). Tab-separated. NaN (no anchor at a position) is
/// written "NaN".
void writeEnrichmentTable(std::ostream& out, const EnrichmentTable& table);

/// The −log10 p-value table in the same layout (ChromHMM's `_log10pvals.txt`).
/// \pre table.log10PValues is not empty.
void writeEnrichmentPValues(std::ostream& out, const EnrichmentTable& table);

/// P(X > x) for X hypergeometric: `drawn` draws without replacement from `typeA` + `typeB`
/// objects (ChromHMM's hypergeometrictail). Summed in log space from x + 1 up, stopping once
/// the terms are below 1e−17 of the sum. Cost O(terms summed).
double hypergeometricTail(std::int64_t x, std::int64_t typeA, std::int64_t typeB,
                          std::int64_t drawn);

/// P(X > x) for X ~ Binomial(trials, p) (ChromHMM's binomialtail), summed the same way.
double binomialTail(std::int64_t x, std::int64_t trials, double p);

} // namespace cx
