#pragma once

// Pure functions behind the Chromatin workspace's background tasks and exports: runs from a
// per-bin segmentation, overlap fold enrichment, merged annotation lanes, γ sweeps with state
// tracking, BED9 text. No widgets, no threads: the controller calls them on its worker/pools,
// the tests call them directly.

#include "ui/chromatin/chromatin_types.h"

#include "core/common/cancel.h"

#include <QColor>

namespace cx::ui {

/// Maximal runs of equal states of every track (per-bin states → runs).
std::vector<std::vector<StateRun>> segmentationRuns(const cx::Segmentation& segmentation);

/// Decodes every track with the foreground-specific HMM of `result` (cx::segmentTracks, the
/// same model and decoding as `contrast-cli hmm`) and returns the runs.
///
/// That HMM has no state for what the contrast removed (e.g. quiescent chromatin at γ = 1 with
/// genes as foreground), so it forces such stretches into its nearest specific state. With
/// `labelBackgroundRuns`, every decoded run r of state a is then tested against the
/// background-like components b (ω_b ≤ 0) by their emission likelihoods over the run's bins,
///   Σ_{t∈r} log P(x_t | b)  >  Σ_{t∈r} log P(x_t | a)  (per-mark Bernoulli, missing marks
///   skipped, probabilities clamped to [1e−6, 1 − 1e−6]),
/// and relabelled with the best such b when one wins (adjacent equal labels merge). Run
/// boundaries stay those of the decoded HMM; no parameter is invented.
/// \pre result.numSpecific > 0. Cost O(bins · K²). Polls `cancel`.
SegmentationState decodeSegmentation(const cx::ChromatinData& data,
                                     const cx::ContrastiveHmmResult& result,
                                     cx::DecodingMethod method, bool labelBackgroundRuns,
                                     const cx::CancelToken& cancel);

/// The relabelling step of decodeSegmentation on existing runs (tests call it directly).
/// Returns the number of bins relabelled.
std::int64_t labelBackgroundRuns(const cx::ChromatinData& data,
                                 const cx::ContrastiveHmmResult& result,
                                 std::vector<std::vector<StateRun>>& runs,
                                 const cx::CancelToken& cancel = {});

/// Overlap fold enrichment of the segmentation's states with each annotation (see
/// EnrichmentTable). Bins overlap an annotation as in cx::classifyBins. Cost
/// O(annotations · (bins + intervals)). Polls `cancel` between annotations.
EnrichmentTable computeEnrichment(const cx::ChromatinData& data,
                                  const SegmentationState& segmentation,
                                  const std::vector<AnnotationSource>& annotations,
                                  const cx::CancelToken& cancel = {});

/// Sorted, merged intervals per contig (what an annotation lane draws). Cost O(n log n).
LaneIntervals mergedLanes(const cx::BedRegions& regions);

/// "RefSeqGene" for ".../RefSeqGene.hg18.bed.gz": the file name without .gz/.bed and without a
/// trailing assembly tag (hg18, hg19, hg38, mm9, mm10, …).
QString annotationDisplayName(const QString& path);

/// Reads one annotation BED (plain or .gz) and prepares its lanes. \throws cx::InputError.
AnnotationSource loadAnnotation(const QString& path, const cx::CancelToken& cancel = {});

/// Core's per-contig warnings ("F: foreground contig 'chr1' is not in the tracks; its 3
/// interval(s) are ignored"), folded into one line per file and role; other warnings pass
/// through unchanged.
QStringList summarizeWarnings(const std::vector<std::string>& warnings);

/// Solves at every γ of `gammas` (ascending) and tracks the components from one γ to the next
/// with cx::matchStates, so that row t of every result is the same state followed along γ.
/// Cost: one solve per γ (about a millisecond each for K ≤ 10). Polls `cancel`.
WeightSweep sweepStateWeights(const cx::SequenceMoments& moments, const QVector<double>& gammas,
                              const cx::ContrastiveHmmOptions& options,
                              const cx::CancelToken& cancel = {});

/// The segmentation as BED9 (chrom, start, end, name, 0, ., start, end, itemRgb): one line
/// per run, names and colours per state. With several tracks each is preceded by a UCSC
/// `track name="CELL" itemRgb="On"` line. Cost O(runs).
QString segmentationBed9(const SegmentationState& segmentation, const QStringList& stateNames,
                         const QVector<QColor>& stateColours);

} // namespace cx::ui
