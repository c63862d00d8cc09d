#pragma once

// What the Tree workspace shows, computed from its results: pure functions, unit-tested in
// tests/ui/tree/test_tree_presenter.cpp.

#include "ui/framework/provenance.h"
#include "ui/tree/tree_types.h"
#include "ui/widgets/state_matrix_model.h"

#include <QColor>
#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

namespace cx::ui {

/// Why `text` is not a usable tree over `cells` (the cell types of the opened tracks; empty:
/// not checked), or an empty string when it is: the parser's problem, or the nodes that have
/// no track ("no tracks for: X, Y (have: A, B, C)").
QString treeSpecProblem(const QString& text, const QStringList& cells);

/// The cell type a ChromHMM binarized file name suggests (`GM12878_chr20_binary.txt.gz` →
/// "GM12878": the name without `_binary.txt[.gz]` and from its last `_chr` on). Only a guess
/// for the tree editor; learning reads the names from the files' headers.
QString cellOfTrackFile(const QString& fileName);
/// The distinct cell types of `files` (cellOfTrackFile), in order of first appearance.
QStringList cellsOfTrackFiles(const QStringList& files);

/// A default tree over the opened cell types: the star with the first cell (alphabetically
/// H1-hESC when present, as in the paper) as root.
QString defaultTreeText(const QStringList& cells);

/// Where a node of the tree diagram goes: depth (root 0, drawn on top) and x in [0, 1]
/// (leaves spread evenly in depth-first order, a parent centred over its children).
struct TreeNodePlace {
    QString name;
    int parent = -1;
    int depth = 0;
    double x = 0.5;
};
std::vector<TreeNodePlace> layOutTree(const cx::TreeSpec& tree);
/// Deepest depth of `places` (0 for a single node).
int treeDepth(const std::vector<TreeNodePlace>& places);

/// The heatmap of one cell's emissions (K × marks, states in the model's order) with its rows
/// reordered into display slots: row r shows state slotStates[r], named names[r] coloured
/// colours[r]. Every cell uses the same slotStates, names and colours: one state order.
StateMatrixModel::Content emissionContent(const Eigen::MatrixXd& emissions,
                                          const std::vector<std::string>& marks,
                                          const std::vector<int>& slotStates,
                                          const QStringList& names, const QVector<QColor>& colours);

/// All cells' tracks as one ChromatinData (tracks cell by cell, one per chromosome, pattern
/// tables concatenated) and their decoded states as runs, for SegmentationTrackView.
std::shared_ptr<const cx::ChromatinData> combinedTrackData(const cx::MultiCellTracks& tracks);
SegmentationHandle combinedRuns(const cx::TreeSegmentation& segmentation, int numStates,
                                std::shared_ptr<const cx::ChromatinData> data);

/// Where `cell` differs from the root, merged into intervals per chromosome, as a lane.
std::shared_ptr<const LaneIntervals> differingLane(const cx::MultiCellTracks& tracks,
                                                   const cx::TreeSegmentation& segmentation,
                                                   int cell);
/// The same regions as BED9 (writeStateChangesBed: chrom, start, end, ROOTSTATE>STATE, …),
/// `labels` indexed by model state.
QString differingRegionsBed(const cx::MultiCellTracks& tracks,
                            const cx::TreeSegmentation& segmentation, int cell,
                            const std::vector<std::string>& labels);

/// One sentence on the starts of a learnt tree (SpectralTreeOptions::starts): how many each
/// cell type's decomposition tried, the criterion, and how far the starts' states lay from
/// the kept ones at most (mean |Δp|, naming that cell type); empty without nodes.
QString startsSummary(const cx::SpectralTreeResult& learned);

/// The inputs a tree analysis comes from (for the stale marker): the tracks, the tree, every
/// option of `request`, and the TSS file, flank and promoter state the promoter F1 table uses.
Provenance treeProvenance(const TreeLearnRequest& request);
/// The inputs of treeProvenance that only the promoter F1 table depends on (it is scored again
/// from the existing segmentation when nothing else changed).
QStringList promoterInputNames();

} // namespace cx::ui
