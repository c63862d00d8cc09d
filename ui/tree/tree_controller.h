#pragma once

#include "ui/framework/workspace_controller.h"
#include "ui/tree/tree_types.h"
#include "ui/tree/tree_worker.h"

namespace cx::ui {

/// The Tree workspace's controller (GUI thread): one long task, learning Spectral-Tree on the
/// worker thread (read, learn, decode, promoter F1); a new run cancels the running one, and a
/// cancelled or failed run keeps the analysis shown. There are no slider-driven solves.
class TreeController : public WorkspaceControllerBase<TreeController, TreeTaskKind, TreeWorker> {
    Q_OBJECT
public:
    explicit TreeController(QObject* parent = nullptr);
    ~TreeController() override;

    /// Starts learning (cancelling a running run). Returns false, with errorOccurred, when the
    /// tree text does not parse.
    bool learn(const TreeLearnRequest& request);
    /// Binarizes aligned reads in the background (cancelling a running run): readsBinarized
    /// with the files written, or errorOccurred naming the file.
    void binarizeReads(const ReadsBinarization& reads);
    const TreeAnalysis& analysis() const { return m_analysis; }
    /// Scores the shown analysis' promoters again with `request`'s TSS file, flank and promoter
    /// state (TreeWorker::scorePromoters on a pool; the newest call wins), without learning:
    /// promotersRescored on success, errorOccurred and an empty table for an unreadable file.
    void rescorePromoters(const TreeLearnRequest& request);
    bool isRescoring() const { return m_rescoreJob.running; }
    /// Cancels a running run and forgets the analysis (File ▸ New).
    void clear();
    bool isIdle() const { return !isTaskRunning(); }

signals:
    void taskStarted(cx::ui::TreeTaskKind kind, const QString& description);
    void taskFinished(cx::ui::TreeTaskKind kind, cx::ui::TaskOutcome outcome);
    void analysisReady(const cx::ui::TreeAnalysis& analysis);
    /// The binarized tracks of `reads` (what binarizeReads wrote).
    void readsBinarized(const QStringList& files, const cx::ui::ReadsBinarization& reads);
    /// The analysis' promoter F1 rows and its request's TSS file, flank and promoter state changed.
    void promotersRescored();

protected:
    QString taskFailureTitle(TreeTaskKind kind) const override;

private:
    TreeAnalysis m_analysis;
    ReadsBinarization m_binarizing; ///< the reads of the running Binarize task
    QThreadPool* m_rescorePool = createJobPool();
    JobSlot m_rescoreJob;
};

} // namespace cx::ui
