#pragma once

#include "ui/framework/reads_binarization.h"
#include "ui/framework/worker_base.h"
#include "ui/tree/tree_types.h"

namespace cx::ui {

/// The Tree workspace's worker (on TreeController's thread, stateless): reads the cell types'
/// tracks, learns Spectral-Tree, decodes every cell and scores promoters, reporting progress;
/// a cancelled or failed run leaves the previous analysis as it was.
class TreeWorker : public WorkerBase {
    Q_OBJECT
public:
    using WorkerBase::WorkerBase;

    void learn(quint64 generation, const cx::ui::TreeLearnRequest& request,
               const cx::CancelToken& cancel);
    /// The whole analysis, synchronously (also what learn() runs).
    static TreeAnalysis analyse(const TreeLearnRequest& request, const cx::CancelToken& cancel,
                                const cx::ProgressFn& progress);

    /// The promoter F1 rows of `analysis` (its tracks and states, and the per-cell baseline's when
    /// kept) against `request`'s TSS file, flank and promoter state; empty without a TSS file.
    /// \throws cx::InputError for an unreadable TSS file.
    static std::vector<cx::PromoterF1Row> scorePromoters(const TreeAnalysis& analysis,
                                                         const TreeLearnRequest& request);

    /// Binarizes aligned reads (cx::ui::binarizeReads) and reports the files written.
    void binarize(quint64 generation, const cx::ui::ReadsBinarization& reads,
                  const cx::CancelToken& cancel);

signals:
    void learned(quint64 generation, const cx::ui::TreeAnalysis& analysis);
    void readsBinarized(quint64 generation, const QStringList& files);
};

} // namespace cx::ui
