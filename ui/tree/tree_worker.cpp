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
    auto tracks = std::make_shared<const cx::MultiCellTracks>(cx::readMultiCellTracks(
        cx::expandTrackPaths(items), readOptions, cancel, [&](double fraction, const char* what) {
            if (progress) {
                progress(0.2 * fraction, what);
            }
        }));
    cx::throwIfCancelled(cancel);
    if (progress) {
        progress(0.2, "Learning Spectral-Tree");
    }
    cx::Stopwatch phase;
    analysis.learned = std::make_shared<const cx::SpectralTreeResult>(cx::learnSpectralTree(
        *tracks, analysis.tree, request.options, cancel, [&](double fraction, const char* what) {
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
    analysis.tracks = std::move(tracks);
    if (request.comparePerCell && !request.tssPath.isEmpty()) {
        if (progress) {
            progress(0.85, "Learning the per-cell baseline");
        }
        auto perCell = cx::perCellSpectralHmms(*analysis.tracks, request.options.numStates,
                                               request.options.decomposition, request.options.seed,
                                               cancel, request.options.starts);
        auto profiles = std::make_shared<std::vector<Eigen::MatrixXd>>();
        for (const cx::HmmParameters& hmm : perCell.hmms) {
            profiles->push_back(hmm.emissions);
        }
        analysis.perCellProfiles = std::move(profiles);
        analysis.perCellStates =
            std::make_shared<const std::vector<std::vector<std::vector<std::uint16_t>>>>(
                std::move(perCell.states));
    }
    if (progress && !request.tssPath.isEmpty()) {
        progress(0.95, "Scoring promoters");
    }
    analysis.promoterF1 = scorePromoters(analysis, request);
    if (progress) {
        progress(1.0, "Done");
    }
    return analysis;
}

std::vector<cx::PromoterF1Row> TreeWorker::scorePromoters(const TreeAnalysis& analysis,
                                                          const TreeLearnRequest& request) {
    std::vector<cx::PromoterF1Row> rows;
    if (request.tssPath.isEmpty() || !analysis.tracks || !analysis.segmentation) {
        return rows;
    }
    const cx::MultiCellTracks& tracks = *analysis.tracks;
    const cx::TssTruth truth = cx::readTssTruth(request.tssPath.toStdString(), tracks.chroms,
                                                tracks.chromBins, tracks.binSize, request.flank);
    const int k = analysis.request.options.numStates;
    rows = cx::scorePromoterCells(tracks.cells, analysis.segmentation->states, truth, k,
                                  request.promoterState - 1, "spectral-tree",
                                  analysis.learned->model.emissions, tracks.markNames);
    if (request.comparePerCell && analysis.perCellStates) {
        const std::vector<Eigen::MatrixXd> none;
        const auto& profiles = analysis.perCellProfiles ? *analysis.perCellProfiles : none;
        for (cx::PromoterF1Row& row :
             cx::scorePromoterCells(tracks.cells, *analysis.perCellStates, truth, k, -1, "per-cell",
                                    profiles, tracks.markNames)) {
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

void TreeWorker::learn(quint64 generation, const TreeLearnRequest& request,
                       const cx::CancelToken& cancel) {
    runTask(generation, tr("Out of memory while learning the tree."), [&] {
        emit learned(generation, analyse(request, cancel, progressReporter(generation)));
    });
}

void TreeWorker::binarize(quint64 generation, const ReadsBinarization& reads,
                          const cx::CancelToken& cancel) {
    const QString outOfMemory =
        tr("%1: not enough memory to binarize these reads").arg(reads.inputFiles().value(0));
    runTask(generation, outOfMemory, [&] {
        emit readsBinarized(generation, binarizeReads(reads, cancel, progressReporter(generation)));
    });
}

} // namespace cx::ui
