#include "ui/tree/tree_worker.h"

#include "core/common/timer.h"
#include "core/tree/promoter_evaluation.h"
#include "core/tree/tree_baselines.h"
#include "ui/tree/tree_presenter.h"

namespace cx::ui {

namespace {
void scoreCells(const cx::MultiCellTracks& tracks,
                const std::vector<std::vector<std::vector<std::uint16_t>>>& states,
                const cx::TssTruth& truth, int numStates, int fixedState, const QString& method,
                std::vector<PromoterF1Row>& rows) {
    for (int c = 0; c < tracks.numCells(); ++c) {
        const auto& cellStates = states[static_cast<size_t>(c)];
        const int state = fixedState >= 0
                              ? fixedState
                              : cx::promoterStateByEnrichment(cellStates, truth, numStates);
        const cx::PromoterScore score = cx::scorePromoterState(cellStates, truth, state);
        rows.push_back({method, QString::fromStdString(tracks.cells[static_cast<size_t>(c)]),
                        state, score.precision, score.recall, score.f1});
    }
}
} // namespace

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
        scoreCells(*tracks, analysis.segmentation->states, truth, k, request.promoterState - 1,
                   QStringLiteral("spectral-tree"), analysis.promoterF1);
        if (request.comparePerCell) {
            const cx::PerCellHmmResult perCell = cx::perCellSpectralHmms(
                *tracks, k, request.options.decomposition, request.options.seed, cancel);
            scoreCells(*tracks, perCell.states, truth, k, -1, QStringLiteral("per-cell"),
                       analysis.promoterF1);
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
