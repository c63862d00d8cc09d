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
                m_rescoreJob.stop(); // it scored the previous analysis
                m_analysis = analysis;
                finishTask(TaskOutcome::Finished);
                emit analysisReady(m_analysis);
            });
    connect(m_worker.worker(), &TreeWorker::readsBinarized, this,
            [this](quint64 generation, const QStringList& files) {
                if (!m_task.isCurrent(generation)) {
                    return;
                }
                finishTask(TaskOutcome::Finished);
                emit readsBinarized(files, m_binarizing);
            });
    m_worker.start();
}

TreeController::~TreeController() {
    m_rescoreJob.stop();
    shutDown();
}

bool TreeController::learn(const TreeLearnRequest& request) {
    const QString problem = treeSpecProblem(request.treeText, {});
    if (!problem.isEmpty()) {
        emit errorOccurred(tr("Cannot learn the tree"), tr("Tree: %1").arg(problem));
        return false;
    }
    startTask(TreeTaskKind::Learn, tr("Learning Spectral-Tree (K = %1) on %2…")
                                       .arg(request.options.numStates)
                                       .arg(request.treeText));
    m_worker.post([generation = m_task.generation(), request, cancel = m_task.cancelToken()](
                      TreeWorker& worker) { worker.learn(generation, request, cancel); });
    return true;
}

void TreeController::binarizeReads(const ReadsBinarization& reads) {
    m_binarizing = reads;
    startTask(TreeTaskKind::Binarize, tr("Binarizing %n read file(s)…", nullptr,
                                         static_cast<int>(reads.inputFiles().size())));
    m_worker.post([generation = m_task.generation(), reads, cancel = m_task.cancelToken()](
                      TreeWorker& worker) { worker.binarize(generation, reads, cancel); });
}

void TreeController::rescorePromoters(const TreeLearnRequest& request) {
    if (!m_analysis.isValid()) {
        return;
    }
    const quint64 generation = m_rescoreJob.restart();
    startJob(
        m_rescorePool, m_rescoreJob, generation,
        [analysis = m_analysis, request](const cx::CancelToken&) {
            return TreeWorker::scorePromoters(analysis, request);
        },
        [this, request](std::vector<cx::PromoterF1Row> rows, const QString& error) {
            if (!error.isEmpty()) {
                emit errorOccurred(tr("Cannot score the promoters"), error);
                rows.clear();
            }
            m_analysis.promoterF1 = std::move(rows);
            m_analysis.request.tssPath = request.tssPath;
            m_analysis.request.flank = request.flank;
            m_analysis.request.promoterState = request.promoterState;
            m_analysis.request.comparePerCell = request.comparePerCell;
            emit promotersRescored();
        });
}

void TreeController::clear() {
    m_rescoreJob.stop();
    cancelTask();
    m_analysis = TreeAnalysis();
}

QString TreeController::taskFailureTitle(TreeTaskKind kind) const {
    return kind == TreeTaskKind::Binarize ? tr("Cannot binarize the reads")
                                          : tr("Cannot learn the tree");
}

} // namespace cx::ui
