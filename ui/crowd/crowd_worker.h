#pragma once

#include "ui/crowd/crowd_types.h"
#include "ui/framework/worker_base.h"

namespace cx::ui {

/// The Crowd workspace's worker (on CrowdController's thread, stateless). Loads label files and
/// runs aggregation methods; every slot reports through WorkerBase's task signals on failure or
/// cancellation.
class CrowdWorker : public WorkerBase {
    Q_OBJECT
public:
    using WorkerBase::WorkerBase;

    void load(quint64 generation, const QString& labelsPath, const QString& goldPath);
    void run(quint64 generation, const CrowdData& data, cx::CrowdMethod method,
             const cx::CrowdOptions& options, const cx::CancelToken& cancel);
    /// Runs every method in turn (allCrowdMethods order), reporting each as it finishes.
    void compare(quint64 generation, const CrowdData& data, const cx::CrowdOptions& options,
                 const cx::CancelToken& cancel);

    /// The CMI matrix of a result: conditional on its class posterior.
    static Eigen::MatrixXd cmiMatrix(const cx::CrowdLabels& data, const cx::CrowdResult& result);

signals:
    void loaded(quint64 generation, const cx::ui::CrowdData& data);
    void runFinished(quint64 generation, const cx::ui::CrowdRun& run);
    void comparisonStep(quint64 generation, const cx::ui::CrowdRun& run);
    void comparisonFinished(quint64 generation);
};

} // namespace cx::ui
