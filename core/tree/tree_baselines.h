#pragma once

#include "core/common/cancel.h"
#include "core/common/multi_start.h"
#include "core/hmm/hmm_model.h"
#include "core/tensor/jennrich.h"
#include "core/tree/multi_cell_tracks.h"
#include "core/tree/tree_hmm.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// One spectral HMM per cell type, ignoring the tree (the "Spectral-HMM" of Zhang et al. 2015, here
/// the project's chromatin engine: solveContrastiveHmm at γ = 0 on the cell's own marks, then
/// posterior decoding of its chromosomes). Each cell's HMM is the best of several seeded starts
/// by likelihood (solveContrastiveHmmStarts over the cell's whole tracks).
struct PerCellHmmResult {
    std::vector<HmmParameters> hmms;                             ///< per cell
    std::vector<StartSpread> starts;                             ///< per cell
    std::vector<std::vector<std::vector<std::uint16_t>>> states; ///< [cell][chrom][bin]
    double learnMs = 0;
    double decodeMs = 0;
};

/// \pre 1 ≤ K ≤ shared marks + 1, starts ≥ 1. Decomposition::Jennrich selects simultaneous
/// diagonalisation in the engine. Deterministic in `seed` (start i of every cell:
/// startSeed(seed, i)). Polls `cancel`.
PerCellHmmResult perCellSpectralHmms(const MultiCellTracks& tracks, int numStates,
                                     Decomposition decomposition, std::uint64_t seed,
                                     const CancelToken& cancel = {}, int starts = kDefaultStarts);

/// Baum–Welch EM on the flattened model: one ordinary HMM over the K^n product states, whose
/// observation is the concatenation of the n cell types' marks (n·M marks), started from the
/// flattened `initial` tree model (so its product labels give every cell's state) and updated
/// without the tree's constraints. Memory O(K^{2n} + bins·K^n): it fits only for small trees.
struct FlattenedEmResult {
    bool fits = false;
    std::string reason;          ///< why it was not run (does not fit)
    std::int64_t metaStates = 0; ///< K^n
    double estimatedBytes = 0;   ///< transitions + forward–backward memory
    std::vector<std::vector<std::vector<std::uint16_t>>> states; ///< [cell][chrom][bin]
    int iterations = 0;
    double logLikelihood = 0;
    double learnMs = 0;
    double decodeMs = 0;
};

struct FlattenedEmOptions {
    int maxIterations = 50;
    double tolerance = 1e-5;
    std::int64_t maxMetaStates = 1024;
    double maxBytes = 2e9; ///< refuse above this estimate
};

/// \pre initial valid and tracks.cells == initial.tree.names.
FlattenedEmResult flattenedEm(const MultiCellTracks& tracks, const TreeHmmParameters& initial,
                              const FlattenedEmOptions& options = {},
                              const CancelToken& cancel = {});

} // namespace cx
