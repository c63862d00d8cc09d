#include "ui/tree/tree_worker.h"

#include "core/common/timer.h"
#include "core/tree/promoter_evaluation.h"
#include "core/tree/tree_baselines.h"
#include "ui/tree/tree_presenter.h"

namespace cx::ui {

TreeAnalysis TreeWorker::analyse(const TreeLearnRequest& request, const cx::CancelToken& cancel,
                                 const cx::ProgressFn& progress) {
    TreeAnalysis analysis;
    analysis.request = request;
    analysis.tree = cx::parseTreeSpec(request.treeText.toStdString());
    std::vector<std::string> items;
    for (const QString& path : request.trackPaths) {
        items.push_back(path.toStdString());
    }
    cx::MultiCellReadOptions readOptions;
    readOptions.binSize = request.binSize;
    readOptions.strictMarks = request.strictMarks;
    readOptions.cells = analysis.tree.names;
    if (progress) {
        progress(0.0, "Reading tracks");
    }
    auto tracks = std::make_shared<const cx::MultiCellTracks>(
        cx::readMultiCellTracks(cx::expandTrackPaths(items), readOptions, cancel,
                                [&](double fraction, const char* what) {
                                    if (progress) {
                                        progress(0.2 * fraction, what);
                                    }
                                }));
    cx::throwIfCancelled(cancel);
    if (progress) {
        progress(0.2, "Learning Spectral-Tree");
    }
    cx::Stopwatch phase;
    analysis.learned = std::make_shared<const cx::SpectralTreeResult>(
        cx::learnSpectralTree(*tracks, analysis.tree, request.options, cancel,
                              [&](double fraction, const char* what) {
                                  if (progress) {
                                      progress(0.2 + 0.4 * fraction, what);
                                  }
                              }));
    analysis.learnMs = phase.elapsedMs();
    cx::throwIfCancelled(cancel);
    if (progress) {
        progress(0.6, "Decoding every cell type");
    }
    phase = cx::Stopwatch();
    cx::TreeDecodingOptions decodeOptions;
    decodeOptions.mode = request.decode;
    analysis.segmentation = std::make_shared<const cx::TreeSegmentation>(
        cx::decodeTree(*tracks, analysis.learned->model, decodeOptions, cancel));
    analysis.decodeMs = phase.elapsedMs();
    cx::throwIfCancelled(cancel);
    analysis.trackData = combinedTrackData(*tracks);
    analysis.runs =
        combinedRuns(*analysis.segmentation, request.options.numStates, analysis.trackData);
    if (!request.tssPath.isEmpty()) {
        if (progress) {
            progress(0.85, "Scoring promoters");
        }
        const cx::TssTruth truth =
            cx::readTssTruth(request.tssPath.toStdString(), tracks->chroms, tracks->chromBins,
                             tracks->binSize, request.flank);
        const int k = request.options.numStates;
        analysis.promoterF1 =
            cx::scorePromoterCells(tracks->cells, analysis.segmentation->states, truth, k,
                                   request.promoterState - 1, "spectral-tree");
        if (request.comparePerCell) {
            const cx::PerCellHmmResult perCell = cx::perCellSpectralHmms(
                *tracks, k, request.options.decomposition, request.options.seed, cancel);
            for (cx::PromoterF1Row& row :
                 cx::scorePromoterCells(tracks->cells, perCell.states, truth, k, -1, "per-cell")) {
                analysis.promoterF1.push_back(std::move(row));
            }
        }
    }
    analysis.tracks = std::move(tracks);
    if (progress) {
        progress(1.0, "Done");
    }
    return analysis;
}

void TreeWorker::learn(quint64 generation, const TreeLearnRequest& request,
                       const cx::CancelToken& cancel) {
    runTask(generation, tr("Out of memory while learning the tree."), [&] {
        emit learned(generation, analyse(request, cancel, progressReporter(generation)));
    });
}

} // namespace cx::ui
