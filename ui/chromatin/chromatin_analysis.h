#pragma once

// Thin Qt adapters of core/hmm/segmentation_analysis.h for the Chromatin workspace
// (segmentation, enrichment, γ sweep, BED9 text) and the workspace's own pure helpers
// (annotation names, merged lanes, warning summaries). No widgets, no threads.

#include "ui/chromatin/chromatin_types.h"

#include "core/common/cancel.h"

#include <QColor>

namespace cx::ui {

/// cx::decodeSegmentation (see there: decoding and background-like run labelling) as the
/// workspace's SegmentationState. \pre result.numSpecific > 0. Polls `cancel`.
SegmentationState decodeSegmentation(const cx::ChromatinData& data,
                                     const cx::ContrastiveHmmResult& result,
                                     cx::DecodingMethod method, bool labelBackgroundRuns,
                                     const cx::CancelToken& cancel);

/// cx::overlapEnrichment of the segmentation's states with each annotation, with their names. Cost
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

/// Whether `path` is a ChromHMM ANCHORFILE (`chrom pos strand`; cx::isAnchorFile), not a BED
/// or binarized file. False for a file that cannot be read.
bool isAnchorPath(const QString& path);

/// Reads one annotation: a BED file (plain or .gz), or an ANCHORFILE (anchors for the
/// neighbourhood enrichment, one base each as lanes), and prepares its lanes.
/// \throws cx::InputError.
AnnotationSource loadAnnotation(const QString& path, const cx::CancelToken& cancel = {});

/// Core's per-contig warnings ("F: foreground contig 'chr1' is not in the tracks; its 3
/// interval(s) are ignored"), folded into one line per file and role; other warnings pass
/// through unchanged.
QStringList summarizeWarnings(const std::vector<std::string>& warnings);

/// cx::sweepStateWeights as the workspace's WeightSweep (row t of every result is the same
/// state followed along γ). Polls `cancel`.
WeightSweep sweepStateWeights(const cx::SequenceMoments& moments, const QVector<double>& gammas,
                              const cx::ContrastiveHmmOptions& options,
                              const cx::CancelToken& cancel = {});

/// The segmentation as BED9 (cx::writeRunsBed9): one line per run, names (tabs and line
/// breaks become spaces) and colours per state, and one UCSC track line per sample (cell type),
/// `track name="CELL" description="CELL MODEL" itemRgb="On"`, before all of its tracks — as
/// `contrast-cli hmm` writes segments.bed. `model` describes what made it. Cost O(runs).
QString segmentationBed9(const SegmentationState& segmentation, const QStringList& stateNames,
                         const QVector<QColor>& stateColours, const QString& model = {});

} // namespace cx::ui
