#include "ui/crowd/crowd_controller.h"

#include <QFileInfo>

namespace cx::ui {

CrowdController::CrowdController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<CrowdData>();
    qRegisterMetaType<CrowdRun>();
    CrowdWorker* worker = m_thread.worker();
    connect(worker, &CrowdWorker::progress, this,
            [this](quint64 generation, double fraction, const QString& phase) {
                if (m_task.isCurrent(generation)) {
                    emit taskProgress(fraction, phase);
                }
            });
    connect(worker, &CrowdWorker::loaded, this, [this](quint64 generation, const CrowdData& data) {
        if (!m_task.isCurrent(generation)) {
            return;
        }
        m_data = data;
        m_labelsPath = m_pendingLabels;
        m_goldPath = m_pendingGold;
        endTask(tr("Read %1 labels").arg(data->observations.size()));
        emit dataLoaded();
    });
    connect(worker, &CrowdWorker::runFinished, this,
            [this](quint64 generation, const CrowdRun& run) {
                if (!m_task.isCurrent(generation)) {
                    return;
                }
                endTask(tr("%1 done").arg(QString::fromLatin1(cx::crowdMethodName(run.method))));
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
            endTask(tr("Comparison done"));
            emit comparisonDone(true);
        }
    });
    connect(worker, &CrowdWorker::taskCancelled, this, [this](quint64 generation) {
        if (!m_task.isCurrent(generation)) {
            return;
        }
        const Task task = m_task.kind();
        endTask(tr("Cancelled"));
        if (task == Task::Compare) {
            emit comparisonDone(false);
        }
    });
    connect(worker, &CrowdWorker::taskFailed, this,
            [this](quint64 generation, const QString& message) {
                if (!m_task.isCurrent(generation)) {
                    return;
                }
                const Task task = m_task.kind();
                endTask(tr("Failed"));
                if (task == Task::Compare) {
                    emit comparisonDone(false);
                }
                emit errorOccurred(task == Task::Load ? tr("Cannot read the labels")
                                                      : tr("Cannot fit the model"),
                                   message);
            });
    m_thread.start();
}

CrowdController::~CrowdController() {
    // Cancel first so that the worker's running call returns quickly, then stop the thread.
    m_task.cancel();
    m_thread.stop();
}

quint64 CrowdController::startTask(Task task, const QString& description) {
    m_task.start(task, ++m_generation);
    emit taskStarted(description, true);
    return m_generation;
}

void CrowdController::endTask(const QString& outcome) {
    m_task.finish();
    emit taskFinished(outcome);
}

void CrowdController::open(const QString& labelsPath, const QString& goldPath) {
    const quint64 generation =
        startTask(Task::Load, tr("Reading %1…").arg(QFileInfo(labelsPath).fileName()));
    m_pendingLabels = labelsPath;
    m_pendingGold = goldPath;
    m_thread.post([generation, labelsPath, goldPath](CrowdWorker& worker) {
        worker.load(generation, labelsPath, goldPath);
    });
}

void CrowdController::run(cx::CrowdMethod method, const cx::CrowdOptions& options) {
    if (!m_data) {
        return;
    }
    const quint64 generation = startTask(
        Task::Run, tr("Running %1…").arg(QString::fromLatin1(cx::crowdMethodName(method))));
    m_thread.post([generation, data = m_data, method, options,
                   cancel = m_task.cancelToken()](CrowdWorker& worker) {
        worker.run(generation, data, method, options, cancel);
    });
}

void CrowdController::compare(const cx::CrowdOptions& options) {
    if (!m_data) {
        return;
    }
    const quint64 generation = startTask(Task::Compare, tr("Comparing methods…"));
    m_thread.post([generation, data = m_data, options,
                   cancel = m_task.cancelToken()](CrowdWorker& worker) {
        worker.compare(generation, data, options, cancel);
    });
}

void CrowdController::cancel() {
    m_task.cancel();
}

} // namespace cx::ui
