#include "ui/crowd/crowd_worker.h"

#include "core/crowd/conditional_mutual_information.h"
#include "core/io/crowd_labels.h"

namespace cx::ui {

Eigen::MatrixXd CrowdWorker::cmiMatrix(const cx::CrowdLabels& data, const cx::CrowdResult& result) {
    return cx::conditionalMutualInformation(data, result.posterior).summed();
}

void CrowdWorker::load(quint64 generation, const QString& labelsPath, const QString& goldPath) {
    runTask(generation, tr("Out of memory while reading the labels."), [&] {
        auto data = std::make_shared<const cx::CrowdLabels>(
            cx::readCrowdLabels(labelsPath.toStdString(), goldPath.toStdString()));
        emit loaded(generation, data);
    });
}

void CrowdWorker::run(quint64 generation, const CrowdData& data, cx::CrowdMethod method,
                      const cx::CrowdOptions& options, const cx::CancelToken& cancel) {
    runTask(generation, tr("Out of memory while fitting the model."), [&] {
        CrowdRun run;
        run.method = method;
        auto result = std::make_shared<const cx::CrowdResult>(
            cx::runCrowdMethod(*data, method, options, cancel));
        run.cmi = cmiMatrix(*data, *result);
        run.result = std::move(result);
        emit runFinished(generation, run);
    });
}

void CrowdWorker::compare(quint64 generation, const CrowdData& data,
                          const cx::CrowdOptions& options, const cx::CancelToken& cancel) {
    runTask(generation, tr("Out of memory while comparing methods."), [&] {
        const auto& methods = cx::allCrowdMethods();
        const cx::ProgressFn progress = progressReporter(generation);
        for (size_t i = 0; i < methods.size(); ++i) {
            cx::throwIfCancelled(cancel);
            if (progress) {
                progress(static_cast<double>(i) / static_cast<double>(methods.size()),
                         cx::crowdMethodName(methods[i]));
            }
            CrowdRun run;
            run.method = methods[i];
            run.result = std::make_shared<const cx::CrowdResult>(
                cx::runCrowdMethod(*data, methods[i], options, cancel));
            emit comparisonStep(generation, run);
        }
        emit comparisonFinished(generation);
    });
}

} // namespace cx::ui
