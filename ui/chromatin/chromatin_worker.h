#pragma once

#include "ui/chromatin/chromatin_types.h"
#include "ui/chromatin/kept_start.h"
#include "ui/framework/worker_base.h"

#include "core/common/cancel.h"

namespace cx::ui {

/// Read ChromHMM binarized tracks from disk.
struct LoadTracksRequest {
    quint64 generation = 0;
    QStringList paths;
    int binSize = 200;
    /// The reads the tracks come from: with `binarize`, binarized first (cx::binarize) and
    /// what that writes is loaded (paths unused); without, only recorded in the handle.
    std::shared_ptr<const ReadsBinarization> reads;
    bool binarize = false;
    cx::CancelToken cancel;
};

/// Classify the bins by the chosen annotations and compute the foreground/background moments
/// (the once-per-choice passes over the data).
struct MomentsRequest {
    quint64 generation = 0;
    std::shared_ptr<const cx::ChromatinData> data;
    RegionChoice choice;
    std::vector<AnnotationSource> foreground; ///< the annotations named by choice.foreground
    std::vector<AnnotationSource> background;
    cx::ObservationEncoding encoding = cx::ObservationEncoding::MarkVector;
    cx::CancelToken cancel;
};

/// One contrastive HMM at one γ on existing moments (milliseconds), optionally with the γ = 0
/// reference of the same epoch.
struct HmmSolveRequest {
    quint64 generation = 0;
    quint64 epoch = 0;
    std::shared_ptr<const MomentsState> moments;
    double gamma = 0;
    ChromatinModelParameters parameters;
    bool withReference = false;
    /// The start of this epoch (the seed every solve uses); null: the parameters' seed.
    std::shared_ptr<const KeptStart> start;
    /// The γ path of this epoch, when the sweep has finished: the solve continues from it.
    std::shared_ptr<const cx::HmmPath> path;
    cx::CancelToken cancel;
    qint64 requestedAtMs = 0;
};

/// Runs the Chromatin workspace's loads, moment passes and solves on the controller's worker
/// thread, in order. Stateless (see WorkerBase): every request carries what it needs (shared,
/// immutable data), so the controller can drop or replace requests without synchronising.
/// Never touches widgets.
class ChromatinWorker : public WorkerBase {
    Q_OBJECT
public:
    using WorkerBase::WorkerBase;

    void load(const LoadTracksRequest& request);
    void computeMoments(const MomentsRequest& request);
    void solve(const HmmSolveRequest& request);

    /// The moment pass behind computeMoments (tests call it directly). \throws cx::InputError
    /// for an empty foreground, std::exception otherwise.
    static MomentsState buildMoments(const MomentsRequest& request, const cx::ProgressFn& progress);

signals:
    void loaded(quint64 generation, const cx::ui::ChromatinDataHandle& data);
    void momentsReady(quint64 generation, const cx::ui::MomentsState& moments);
    void solved(const cx::ui::HmmSolution& solution);
};

} // namespace cx::ui
