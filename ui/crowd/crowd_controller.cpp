#include "ui/crowd/crowd_controller.h"

#include <QFileInfo>

namespace cx::ui {

CrowdController::CrowdController(QObject* parent)
    : WorkspaceControllerBase(QStringLiteral("crowd worker"), CrowdTaskKind::Load, parent) {
    qRegisterMetaType<CrowdData>();
    qRegisterMetaType<CrowdRun>();
    qRegisterMetaType<CrowdTaskKind>();
    const CrowdWorker* worker = m_worker.worker();
    connect(worker, &CrowdWorker::loaded, this, [this](quint64 generation, const CrowdData& data) {
        if (!m_task.isCurrent(generation)) {
            return;
        }
        m_data = data;
        m_labelsPath = m_pendingLabels;
        m_goldPath = m_pendingGold;
        finishTask(TaskOutcome::Finished);
        emit dataLoaded();
    });
    connect(worker, &CrowdWorker::runFinished, this,
            [this](quint64 generation, const CrowdRun& run) {
                if (!m_task.isCurrent(generation)) {
                    return;
                }
                m_shownMethod = m_pendingMethod;
                m_shownOptions = m_pendingOptions;
                finishTask(TaskOutcome::Finished);
                emit runReady(run);
            });
    connect(worker, &CrowdWorker::comparisonStep, this,
            [this](quint64 generation, const CrowdRun& run) {
                if (m_task.isCurrent(generation)) {
                    emit comparisonStep(run);
                }
            });
    connect(worker, &CrowdWorker::comparisonFinished, this, [this](quint64 generation) {
        if (m_task.isCurrent(generation)) {
            finishTask(TaskOutcome::Finished);
            emit comparisonDone(true);
        }
    });
    m_worker.start();
}

CrowdController::~CrowdController() {
    shutDown();
}

QString CrowdController::taskFailureTitle(CrowdTaskKind kind) const {
    return kind == CrowdTaskKind::Load ? tr("Cannot read the labels") : tr("Cannot fit the model");
}

void CrowdController::taskAborted() {
    if (m_task.kind() == CrowdTaskKind::Compare) {
        emit comparisonDone(false);
    }
}

void CrowdController::open(const QString& labelsPath, const QString& goldPath) {
    const bool comparing = m_task.isRunning(CrowdTaskKind::Compare);
    startTask(CrowdTaskKind::Load, tr("Reading %1…").arg(QFileInfo(labelsPath).fileName()));
    m_pendingLabels = labelsPath;
    m_pendingGold = goldPath;
    m_worker.post([generation = m_task.generation(), labelsPath, goldPath](CrowdWorker& worker) {
        worker.load(generation, labelsPath, goldPath);
    });
    endSupersededComparison(comparing);
}

void CrowdController::run(cx::CrowdMethod method, const cx::CrowdOptions& options) {
    if (!m_data || isLoading()) {
        return;
    }
    const bool comparing = m_task.isRunning(CrowdTaskKind::Compare);
    startTask(CrowdTaskKind::Run,
              tr("Running %1…").arg(QString::fromLatin1(cx::crowdMethodName(method))));
    m_pendingMethod = method;
    m_pendingOptions = options;
    m_worker.post([generation = m_task.generation(), data = m_data, method, options,
                   cancel = m_task.cancelToken()](CrowdWorker& worker) {
        worker.run(generation, data, method, options, cancel);
    });
    endSupersededComparison(comparing);
}

void CrowdController::compare(const cx::CrowdOptions& options) {
    if (!m_data || isLoading()) {
        return;
    }
    const bool comparing = m_task.isRunning(CrowdTaskKind::Compare);
    startTask(CrowdTaskKind::Compare, tr("Comparing methods…"));
    m_worker.post([generation = m_task.generation(), data = m_data, options,
                   cancel = m_task.cancelToken()](CrowdWorker& worker) {
        worker.compare(generation, data, options, cancel);
    });
    endSupersededComparison(comparing);
}

void CrowdController::endSupersededComparison(bool wasComparing) {
    // The superseded comparison's late signals are ignored (older generation): it ends here.
    if (wasComparing) {
        emit comparisonDone(false);
    }
}

void CrowdController::clear() {
    if (isTaskRunning()) {
        cancelTask();
        // The late signals of the cancelled task are ignored: it is over for the shell now.
        finishTask(TaskOutcome::Cancelled);
        taskAborted();
    }
    m_data.reset();
    m_labelsPath.clear();
    m_goldPath.clear();
}

} // namespace cx::ui
