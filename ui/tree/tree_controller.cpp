#include "ui/tree/tree_controller.h"

#include "ui/tree/tree_presenter.h"

namespace cx::ui {

TreeController::TreeController(QObject* parent)
    : WorkspaceControllerBase(QStringLiteral("tree worker"), TreeTaskKind::Learn, parent) {
    qRegisterMetaType<TreeAnalysis>();
    connect(m_worker.worker(), &TreeWorker::learned, this,
            [this](quint64 generation, const TreeAnalysis& analysis) {
                if (!m_task.isCurrent(generation)) {
                    return;
                }
                m_analysis = analysis;
                finishTask(TaskOutcome::Finished);
                emit analysisReady(m_analysis);
            });
    m_worker.start();
}

TreeController::~TreeController() { shutDown(); }

bool TreeController::learn(const TreeLearnRequest& request) {
    const QString problem = treeSpecProblem(request.treeText, {});
    if (!problem.isEmpty()) {
        emit errorOccurred(tr("Cannot learn the tree"), tr("Tree: %1").arg(problem));
        return false;
    }
    startTask(TreeTaskKind::Learn,
              tr("Learning Spectral-Tree (K = %1) on %2…")
                  .arg(request.options.numStates)
                  .arg(request.treeText));
    m_worker.post([generation = m_task.generation(), request,
                   cancel = m_task.cancelToken()](TreeWorker& worker) {
        worker.learn(generation, request, cancel);
    });
    return true;
}

void TreeController::clear() {
    cancelTask();
    m_analysis = TreeAnalysis();
}

QString TreeController::taskFailureTitle(TreeTaskKind) const { return tr("Cannot learn the tree"); }

} // namespace cx::ui
