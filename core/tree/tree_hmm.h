#pragma once

#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_spec.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// An HMM whose hidden state at each bin is a tree over cell types (Zhang et al. 2015): node v has
/// a state h_v,t ∈ {0 … K−1} and emits its own marks x_v,t (marks independent given h_v,t). The
/// root is an ordinary Markov chain; a child's next state depends on its own current state and on
/// its parent's next state: P(h_u,t+1 = j | h_u,t = i, h_parent,t+1 = k) =
/// childTransitions[u][k](i, j).
struct TreeHmmParameters {
    TreeSpec tree;
    int numStates = 0;
    std::vector<std::string> markNames;
    std::vector<Eigen::MatrixXd> emissions; ///< per node: K × M, P(mark present | state)
    Eigen::VectorXd rootStart;              ///< K, distribution of the root's first state
    Eigen::MatrixXd rootTransitions;        ///< K × K, rows on the simplex
    /// Per node (empty for the root): K matrices, [k](i, j) as above; rows on the simplex.
    std::vector<std::vector<Eigen::MatrixXd>> childTransitions;
    /// Per node: marginal (stationary) occupancy of each state, K.
    std::vector<Eigen::VectorXd> occupancy;

    int numNodes() const { return tree.numNodes(); }
    int numMarks() const { return static_cast<int>(markNames.size()); }
    /// \throws std::invalid_argument (naming `where`) on inconsistent shapes or entries that are
    /// not probabilities.
    void validate(const char* where) const;
};

/// Options of a synthetic tree HMM (randomTreeHmm).
struct SyntheticTreeOptions {
    int numStates = 4;
    int numMarks = 6;
    double stay = 0.85;  ///< root: P(keep the state); the rest uniform over the others
    double follow = 0.5; ///< child: P(take the parent's new state)
    double keep = 0.4;   ///< child: P(keep its own state); rest uniform over all states
    /// Child emissions = parent's ± uniform noise of this size (clipped to [0.02, 0.98]).
    double emissionNoise = 0.1;
    /// Contrast of the children's marks: their emissions become 0.5 + s·(e − 0.5) (1 = as
    /// drawn; small = weak marks, whose states only the tree can decode well).
    double childSignal = 1.0;
};

/// A random tree HMM on `tree`: root emissions with one state per "profile" (entries in
/// [0.02, 0.98], well separated), child emissions perturbed from their parent's, transitions as
/// in SyntheticTreeOptions. Deterministic in `seed`.
TreeHmmParameters randomTreeHmm(const TreeSpec& tree, const SyntheticTreeOptions& options,
                                std::uint64_t seed);

/// Samples every cell type's marks from `model` on chromosomes of the given lengths (bins),
/// each chromosome one sequence started from rootStart (children's first states from their
/// parent's). Cells are named after the tree nodes, chromosomes chr1, chr2, …; `states`
/// (optional) receives the hidden states [cell][chrom][bin]. Deterministic in `seed`.
MultiCellTracks
sampleTreeTracks(const TreeHmmParameters& model, const std::vector<std::int64_t>& chromBins,
                 std::uint64_t seed,
                 std::vector<std::vector<std::vector<std::uint16_t>>>* states = nullptr);

/// Per-node Bernoulli likelihood table: table[code·K + k] = Π_m e_km^x (1 − e_km)^(1−x) over
/// the 2^M codes (clamped to [kProbabilityFloor, 1 − kProbabilityFloor]); the missing code is
/// not in the table (callers use 1).
std::vector<double> codeLikelihoods(const Eigen::MatrixXd& emissions);

} // namespace cx
