#pragma once

// Segmentation and annotation-lane types that SegmentationTrackView draws and every workspace
// with a genome track (chromatin, tree) fills: by value, large payloads as shared_ptr<const T>.

#include "core/hmm/decoding.h"
#include "core/hmm/segmentation_analysis.h"
#include "core/io/bed.h"
#include "core/io/chromhmm_reader.h"

#include <QMetaType>
#include <QtGlobal>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cx::ui {

/// Sorted, merged intervals of one annotation per contig: what an annotation lane draws.
struct LaneIntervals {
    std::map<std::string, std::vector<cx::BedInterval>> byChrom;
};

using StateRun = cx::StateRun;

/// The decoded segmentation of every track (cx::DecodedSegmentation: runs, state bins) and
/// what it was decoded from.
struct SegmentationState : cx::DecodedSegmentation {
    quint64 generation = 0; ///< generation of the solution that was decoded
    std::shared_ptr<const cx::ChromatinData> data;
    /// What the segmentation says of each state's contrast (cx::decodedContrast); empty
    /// vectors when the bin classes are not known.
    cx::DecodedContrast contrast;
};
using SegmentationHandle = std::shared_ptr<const SegmentationState>;

} // namespace cx::ui

Q_DECLARE_METATYPE(cx::ui::SegmentationHandle)
