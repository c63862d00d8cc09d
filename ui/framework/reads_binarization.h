#pragma once

// Aligned reads to binarize before opening the tracks (File ▸ Open Aligned Reads… of the
// Chromatin and Tree workspaces): the request the dialog
// (ui/dialogs/aligned_reads_dialog.h) makes, the binarization the workspaces' workers run, and
// the session's "reads" object (cx::ReadsSection).

#include "core/common/cancel.h"
#include "core/io/binarize.h"
#include "core/session/reads_section.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>
#include <optional>

namespace cx::ui {

/// Aligned reads (or peaks) to binarize before loading: the cellmarkfiletable as rows, the
/// chromosome sizes, where the binarized files go and ChromHMM's options — what
/// `contrast-cli binarize` takes.
struct ReadsBinarization {
    struct Entry {
        QString cell;
        QString mark;
        QString file;    ///< absolute path of the reads
        QString control; ///< absolute path of the control reads; empty: none

        bool operator==(const Entry&) const = default;
    };
    QVector<Entry> entries;
    QString chromSizes;
    QString outDir;
    cx::BinarizeOptions options;

    bool isValid() const { return !entries.isEmpty(); }
    /// The reads and controls, each once, in table order.
    QStringList inputFiles() const;
    /// The cell types of the rows, each once, in table order.
    QStringList cells() const;
};

/// Binarizes `reads` (cx::binarize; writes `reads.outDir`/cellmarkfiletable.txt, then the
/// CELL_CHROM_binary.txt files) and returns the files written. Runs on a worker thread.
/// \throws cx::InputError naming the file (the table is removed again), cx::Cancelled.
QStringList binarizeReads(const ReadsBinarization& reads, const cx::CancelToken& cancel,
                          const cx::ProgressFn& progress);

/// Whether the binarized `tracks` are still those of `reads`: every track exists and is no
/// older than any read file, control or the sizes file (else the reads are binarized again).
/// Reads that no longer exist count as up to date (nothing to binarize from: the saved tracks
/// are opened and their load reports).
bool binarizedUpToDate(const QStringList& tracks, const ReadsBinarization& reads);

/// The session's "reads" object of a request (absolute paths); none for null or empty reads.
std::optional<cx::ReadsSection> toReadsSection(const ReadsBinarization* reads);
/// The request of a session's "reads" object.
std::shared_ptr<const ReadsBinarization> fromReadsSection(const cx::ReadsSection& section);

} // namespace cx::ui
