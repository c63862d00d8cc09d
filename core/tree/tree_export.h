#pragma once

// A learnt tree's states and segmentation as files: what `contrast-cli tree` writes and the Tree
// workspace exports, from one code path so both front ends give the same files.

#include "core/hmm/state_catalog.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_decoding.h"
#include "core/tree/tree_hmm.h"

#include <string>
#include <vector>

namespace cx {

/// The states of a learnt tree named and coloured as the Tree workspace shows them: nameStates
/// on the root's emissions, weighted by the root's decoded occupancy (bins per state).
/// \pre segmentation.states has the root's states.
StateNaming treeStateNaming(const MultiCellTracks& tracks, const TreeHmmParameters& model,
                            const TreeSegmentation& segmentation);

/// A tree's states.tsv: header `state name colour root_occupancy`, one line per state — its
/// label, name, colour ("R,G,B") and share of the root's decoded bins (treeStateNaming's
/// weights, normalised).
std::string treeStatesTsv(const StateNaming& naming, const std::vector<std::string>& labels);

/// Writes into `outDir` (which must exist), each file atomically: segments_CELL.bed for every
/// cell of `tracks` (one browser track per file, named by the cell and described by
/// `description`; states labelled `labels` and coloured `colours`, "R,G,B") and igv_batch.txt,
/// which loads them and then `extraFiles` (e.g. the TSS file scored against) and goes to the
/// first 100 kb of the first chromosome. Returns the absolute paths of the segment files, in
/// cell order. \throws InputError naming a file that cannot be written.
std::vector<std::string>
writeTreeSegmentFiles(const std::string& outDir, const MultiCellTracks& tracks,
                      const TreeSegmentation& segmentation, const std::vector<std::string>& labels,
                      const std::vector<std::string>& colours, const std::string& description,
                      const std::vector<std::string>& extraFiles);

} // namespace cx
