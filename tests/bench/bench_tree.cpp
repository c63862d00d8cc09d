// Spectral-Tree on synthetic star trees of 3, 5 and 9 cell types (README "Cell-type trees"):
// emission error after matching (one permutation for all cells, matched on the root), decoding
// accuracy of the tree vs per-cell spectral HMMs, time and memory of Spectral-Tree vs the
// flattened product-state HMM (EM where it fits), and how the cost grows with the cells. Run:
//   ./build/tests/cx_bench --benchmark_filter=TreeSynthetic --benchmark_counters_tabular=true
#include "core/common/timer.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/tree/spectral_tree.h"
#include "core/tree/tree_baselines.h"
#include "core/tree/tree_decoding.h"
#include "core/tree/tree_hmm.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

using namespace cx;

/// Accuracy after mapping estimated states to true ones by a matching of `estimate` to
/// `reference` emissions.
double mappedAccuracy(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& estimate,
                      const std::vector<std::vector<std::uint16_t>>& states,
                      const std::vector<std::vector<std::uint16_t>>& truth) {
    const std::vector<int> perm = matchStates(reference, estimate);
    std::vector<std::uint16_t> toTrue(static_cast<size_t>(estimate.rows()), 0xFFFF);
    for (size_t h = 0; h < perm.size(); ++h) {
        toTrue[static_cast<size_t>(perm[h])] = static_cast<std::uint16_t>(h);
    }
    auto mapped = states;
    for (auto& chrom : mapped) {
        for (auto& s : chrom) {
            s = toTrue[s];
        }
    }
    return decodingAccuracy(mapped, truth);
}

void BM_TreeSynthetic(benchmark::State& state) {
    const int cells = static_cast<int>(state.range(0));
    const int k = 4;
    std::vector<std::string> leaves;
    for (int c = 1; c < cells; ++c) {
        leaves.push_back("C" + std::to_string(c));
    }
    const TreeSpec tree = starTree("R", leaves);
    SyntheticTreeOptions so;
    so.numStates = k;
    so.numMarks = 8;
    so.follow = 0.7;
    so.keep = 0.25;
    so.childSignal = 0.6;
    const TreeHmmParameters truth = randomTreeHmm(tree, so, 17);
    std::vector<std::vector<std::vector<std::uint16_t>>> hidden;
    const MultiCellTracks data = sampleTreeTracks(truth, {200000, 100000}, 23, &hidden);
    for (auto _ : state) {
        Stopwatch learnTimer;
        SpectralTreeOptions options;
        options.numStates = k;
        const SpectralTreeResult learned = learnSpectralTree(data, tree, options);
        const double learnMs = learnTimer.elapsedMs();
        Stopwatch decodeTimer;
        TreeDecodingOptions path;
        path.mode = TreeDecodingMode::PathMarginal;
        const TreeSegmentation seg = decodeTree(data, learned.model, path);
        const double decodeMs = decodeTimer.elapsedMs();
        const PerCellHmmResult perCell = perCellSpectralHmms(data, k, Decomposition::Power, 1);
        const std::vector<int> perm = matchStates(truth.emissions[0], learned.model.emissions[0]);
        double worstError = 0, treeAccuracy = 0, cellAccuracy = 0;
        for (int v = 0; v < cells; ++v) {
            const auto vs = static_cast<size_t>(v);
            double sum = 0;
            for (int h = 0; h < k; ++h) {
                sum += (truth.emissions[vs].row(h) -
                        learned.model.emissions[vs].row(perm[static_cast<size_t>(h)]))
                           .cwiseAbs()
                           .sum();
            }
            worstError =
                std::max(worstError, sum / static_cast<double>(truth.emissions[vs].size()));
            if (v > 0) {
                treeAccuracy += mappedAccuracy(truth.emissions[0], learned.model.emissions[0],
                                               seg.states[vs], hidden[vs]);
                cellAccuracy += mappedAccuracy(truth.emissions[vs], perCell.hmms[vs].emissions,
                                               perCell.states[vs], hidden[vs]);
            }
        }
        state.counters["bins"] = static_cast<double>(data.totalBins());
        state.counters["learn_ms"] = learnMs;
        state.counters["decode_ms"] = decodeMs;
        state.counters["max_emission_err"] = worstError;
        state.counters["tree_acc_children"] = treeAccuracy / (cells - 1);
        state.counters["percell_acc_children"] = cellAccuracy / (cells - 1);
        state.counters["flat_states"] = std::pow(static_cast<double>(k), cells);
        FlattenedEmOptions emOptions;
        emOptions.maxIterations = 5;
        emOptions.maxMetaStates = 256;
        const FlattenedEmResult em = flattenedEm(data, learned.model, emOptions);
        state.counters["flat_em_fits"] = em.fits ? 1 : 0;
        state.counters["flat_em_mb_est"] = em.estimatedBytes / 1e6;
        if (em.fits) {
            state.counters["flat_em_ms_per_iter"] = em.learnMs / std::max(1, em.iterations);
            double emAccuracy = 0;
            for (int v = 1; v < cells; ++v) {
                // EM starts from the tree's labels, so the tree's matching applies.
                emAccuracy += mappedAccuracy(truth.emissions[0], learned.model.emissions[0],
                                             em.states[static_cast<size_t>(v)],
                                             hidden[static_cast<size_t>(v)]);
            }
            state.counters["flat_em_acc_children"] = emAccuracy / (cells - 1);
        }
    }
}
BENCHMARK(BM_TreeSynthetic)->Arg(3)->Arg(5)->Arg(9)->Iterations(1)->Unit(benchmark::kMillisecond);

} // namespace
