#pragma once

#include "core/common/cancel.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_hmm.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace cx {

/// How the tree is used when decoding.
enum class TreeDecodingMode {
    /// Exact posterior marginals of every node under the whole tree when K^nodes ≤
    /// maxJointStates, otherwise PathMarginal.
    Auto,
    /// Each cell type u is decoded under the path root … u (Lemma 1: its marginal is again a
    /// tree HMM, an ordinary HMM over K^|P| meta-states): P(h_u,t | x of the path's cell types,
    /// all bins). Exact for the path's marginal model; it ignores the siblings' evidence about
    /// the shared ancestors, which is what keeps the cost at O(bins·|P|·K^{|P|+1}) per cell
    /// instead of K^{nodes} (6^9 ≈ 10⁷ meta-states for the 9-cell star at K = 6).
    PathMarginal,
    /// Exact marginals under the whole tree (one forward–backward over K^nodes meta-states),
    /// refused (InputError naming --decode joint) when the forward messages of the longest
    /// chromosome, 4 bytes per meta-state and bin, exceed 2 GB: 3 cell types at K = 6 fit a
    /// whole hg19 chromosome 1 at 200 bp (1.1 GB); 9 cell types never do (6^9 ≈ 10^7 states).
    Joint,
};
const char* toString(TreeDecodingMode mode);

struct TreeDecodingOptions {
    TreeDecodingMode mode = TreeDecodingMode::Auto;
    std::int64_t maxJointStates = 4096; ///< Auto uses Joint up to this many meta-states
};

/// \throws InputError naming --decode joint when exact joint decoding of `numNodes` cell types
/// with K = `numStates` does not fit (TreeDecodingMode::Joint), with the numbers.
void checkJointDecodingFits(int numStates, int numNodes, std::int64_t longestChromBins);

/// Posterior-decoded states of every cell type.
struct TreeSegmentation {
    TreeDecodingMode mode = TreeDecodingMode::PathMarginal;      ///< the mode actually used
    std::vector<std::vector<std::vector<std::uint16_t>>> states; ///< [cell][chrom][bin]
    double logLikelihood = 0; ///< Joint: log P(all tracks); PathMarginal: of the root's chain
};

/// Posterior decoding with the tree: argmax_h P(h_u,t = h | evidence) per cell type and bin,
/// by a scaled forward–backward over meta-states whose transition is applied node by node
/// (root by its transition matrix, then each child by T_u(· | own state, parent's new state)),
/// so a step costs O(|S|·K^{|S|+1}) for a node set S, never K^{2|S|}. Missing bins are
/// uninformative. Each chromosome is one sequence; its first bin's meta-state is drawn from
/// rootStart × the children's occupancies (independent; one bin in 10⁵, so this matters not).
/// Jobs (a chromosome, or with PathMarginal a cell × chromosome) run on threadCount() threads,
/// largest first; the result does not depend on the thread count.
/// \pre model valid; tracks.cells == model.tree.names. Polls `cancel` every 4,096 bins of each
/// pass (\throws Cancelled).
/// \throws InputError for a Joint decoding that does not fit (see TreeDecodingMode::Joint).
TreeSegmentation decodeTree(const MultiCellTracks& tracks, const TreeHmmParameters& model,
                            const TreeDecodingOptions& options = {},
                            const CancelToken& cancel = {});

/// Fraction of bins (over every chromosome) where `states` equals `truth` for one cell.
double decodingAccuracy(const std::vector<std::vector<std::uint16_t>>& states,
                        const std::vector<std::vector<std::uint16_t>>& truth);

/// A maximal run of bins where a cell's state differs from its reference cell's (e.g. the root).
struct StateChange {
    int chrom = 0;
    std::int64_t begin = 0; ///< first bin
    std::int64_t end = 0;   ///< one past the last bin
    int referenceState = 0;
    int state = 0;
};

/// Runs where cell `cell` has another state than cell `reference` (consecutive bins with the
/// same pair of states form one run). Cost O(bins).
std::vector<StateChange> stateChanges(const TreeSegmentation& segmentation, int cell,
                                      int reference);

/// Writes `changes` as BED9: chrom, start, end, `REFLABEL>LABEL`, 0, ., start, end, the
/// cell's state colour (stateColor).
void writeStateChangesBed(std::ostream& out, const MultiCellTracks& tracks,
                          const std::vector<StateChange>& changes,
                          const std::vector<std::string>& labels);

} // namespace cx
