// TreeWorkspace: File ▸ Open Aligned Reads… — the Chromatin workspace's
// dialog and binarization (ui/dialogs/aligned_reads_dialog.h, ui/framework/reads_binarization.h)
// run on the tree's worker; every cell type of the reads becomes a tree track.
#include "ui/tree/tree_workspace.h"

#include "ui/dialogs/aligned_reads_dialog.h"
#include "ui/framework/error_reporter.h"
#include "ui/tree/tree_controller.h"

#include <QAction>

namespace cx::ui {

QList<QAction*> TreeWorkspace::openActions() const {
    return {m_openReadsAction};
}

void TreeWorkspace::openAlignedReadsInteractive() {
    AlignedReadsDialog dialog(this);
    if (m_reads) {
        dialog.setRequest(*m_reads);
    }
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    openAlignedReads(dialog.request());
}

void TreeWorkspace::openAlignedReads(const ReadsBinarization& reads) {
    if (!reads.isValid()) {
        return;
    }
    if (reads.cells().size() < 2) {
        ErrorReporter::report(this, tr("Cannot open the reads as a tree"),
                              tr("%1: the reads are of one cell type (%2); a tree needs two or "
                                 "more (open them in the Chromatin tab)")
                                  .arg(reads.entries.front().file, reads.cells().value(0)));
        return;
    }
    m_pendingSection.reset();
    m_controller->binarizeReads(reads);
    emit settledChanged();
}

void TreeWorkspace::readsBinarized(const QStringList& files, const ReadsBinarization& reads) {
    auto shared = std::make_shared<const ReadsBinarization>(reads);
    if (m_pendingSection && m_pendingSection->reads) {
        const cx::TreeSection section = *m_pendingSection;
        m_pendingSection.reset();
        openSectionTracks(section, files, std::move(shared));
        return;
    }
    openTracks(files);
    m_reads = std::move(shared);
    emit sessionStateChanged();
}

} // namespace cx::ui
