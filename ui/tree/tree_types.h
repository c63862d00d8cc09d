#pragma once

// Value types that cross the GUI ↔ worker thread boundary of the Tree workspace (as in
// chromatin_types.h: by value, large payloads as shared_ptr<const T>).

#include "core/common/cancel.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/promoter_evaluation.h"
#include "core/tree/spectral_tree.h"
#include "core/tree/tree_decoding.h"
#include "core/tree/tree_spec.h"
#include "ui/views/segmentation_types.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace cx::ui {

/// Learn: Spectral-Tree; Binarize: aligned reads to tracks (File ▸ Open Aligned Reads…).
enum class TreeTaskKind { Learn, Binarize };

/// Everything one Spectral-Tree analysis needs (what `contrast-cli tree` takes).
struct TreeLearnRequest {
    QStringList trackPaths; ///< files or folders
    int binSize = 200;
    bool strictMarks = false;
    QString treeText;
    cx::SpectralTreeOptions options;
    cx::TreeDecodingMode decode = cx::TreeDecodingMode::Auto;
    QString tssPath; ///< empty: no promoter F1
    qint64 flank = 1000;
    int promoterState = 0; ///< 1-based; 0: by marks and TSS enrichment (choosePromoterState)
    bool comparePerCell = false;
};

/// A learnt and decoded tree: the tracks, the model, every cell's states (also as a combined
/// ChromatinData + runs for SegmentationTrackView, tracks ordered cell by cell) and the F1 rows.
struct TreeAnalysis {
    TreeLearnRequest request;
    cx::TreeSpec tree;
    std::shared_ptr<const cx::MultiCellTracks> tracks;
    std::shared_ptr<const cx::SpectralTreeResult> learned;
    std::shared_ptr<const cx::TreeSegmentation> segmentation;
    std::shared_ptr<const cx::ChromatinData> trackData;
    SegmentationHandle runs;
    std::vector<cx::PromoterF1Row> promoterF1;
    /// The per-cell baseline's states [cell][chrom][bin] when it was asked for (null otherwise),
    /// kept so a new TSS file, flank or promoter state rescores without learning again.
    std::shared_ptr<const std::vector<std::vector<std::vector<std::uint16_t>>>> perCellStates;
    /// The per-cell HMMs' emissions (states × marks, per cell) for the promoter rule.
    std::shared_ptr<const std::vector<Eigen::MatrixXd>> perCellProfiles;
    double learnMs = 0;
    double decodeMs = 0;

    bool isValid() const { return learned != nullptr; }
};

} // namespace cx::ui

Q_DECLARE_METATYPE(cx::ui::TreeAnalysis)
