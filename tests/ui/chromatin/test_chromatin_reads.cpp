// File ▸ Open Aligned Reads… of the Chromatin workspace: the dialog guesses
// cell, mark and controls from the names of tests/data/binarize's BAMs, the workspace binarizes
// them on the worker and opens the tracks — the same files ChromHMM 1.24 writes — and the
// session records the reads and options; bad reads name the file and leave nothing behind.
#include "chromatin_test_helpers.h"

#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/dialogs/aligned_reads_dialog.h"

#include "core/session/chromatin_section.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTableWidget>
#include <QTemporaryDir>

using cx::ui::AlignedReadsDialog;
using cx::ui::ChromatinWorkspace;
using cx::ui::ReadsBinarization;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

namespace {

const QString kReadsDir = QStringLiteral(CX_TEST_DATA_DIR "/binarize/");

QByteArray slurp(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

int rowOf(const QTableWidget* table, const QString& name) {
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, AlignedReadsDialog::FileColumn)->text() == name) {
            return r;
        }
    }
    return -1;
}

QComboBox* combo(const QTableWidget* table, int row, int column) {
    return static_cast<QComboBox*>(table->cellWidget(row, column));
}

/// The dialog filled as a user would for table_bam_control.txt: the eight BAMs of the two cells
/// (guessed), C2's H3K27ac against input B and its H3K36me3 without control.
ReadsBinarization bamControlRequest(AlignedReadsDialog& dialog, const QString& outDir) {
    QStringList files;
    for (const char* name :
         {"C1_H3K4me3.bam", "C1_H3K27ac.bam", "C1_H3K36me3.bam", "C1_input.bam", "C2_H3K4me3.bam",
          "C2_H3K27ac.bam", "C2_H3K36me3.bam", "C2_inputA.bam", "C2_inputB.bam"}) {
        files << kReadsDir + QLatin1String(name);
    }
    dialog.addPaths(files);
    dialog.setChromSizes(kReadsDir + QStringLiteral("chrom.sizes"));
    dialog.setOutDir(outDir);
    QTableWidget* table = dialog.table();
    const int c2ac = rowOf(table, QStringLiteral("C2_H3K27ac.bam"));
    const int c2me36 = rowOf(table, QStringLiteral("C2_H3K36me3.bam"));
    QComboBox* ac = combo(table, c2ac, AlignedReadsDialog::ControlColumn);
    ac->setCurrentIndex(ac->findData(kReadsDir + QStringLiteral("C2_inputB.bam")));
    combo(table, c2me36, AlignedReadsDialog::ControlColumn)->setCurrentIndex(0); // (none)
    return dialog.request();
}

} // namespace

TEST(ChromatinReads, DialogGuessesCellMarkAndControlsFromNames) {
    AlignedReadsDialog dialog;
    QTemporaryDir out;
    const ReadsBinarization reads = bamControlRequest(dialog, out.path());
    EXPECT_TRUE(dialog.problem().isEmpty()) << dialog.problem().toStdString();
    ASSERT_EQ(reads.entries.size(), 6); // the three inputs are controls, not marks
    QStringList controls;
    for (const auto& entry : reads.entries) {
        controls << entry.cell + QLatin1Char('/') + entry.mark + QLatin1Char('/') +
                        QFileInfo(entry.control).fileName();
    }
    EXPECT_EQ(controls, (QStringList{"C1/H3K4me3/C1_input.bam", "C1/H3K27ac/C1_input.bam",
                                     "C1/H3K36me3/C1_input.bam", "C2/H3K4me3/C2_inputA.bam",
                                     "C2/H3K27ac/C2_inputB.bam", "C2/H3K36me3/"}));
    EXPECT_EQ(reads.options.binSize, 200); // ChromHMM's defaults
    EXPECT_EQ(reads.options.shift, 100);
    EXPECT_DOUBLE_EQ(reads.options.poissonThreshold, 1e-4);
    EXPECT_EQ(reads.options.flankWidth, 5);
    EXPECT_EQ(reads.options.pseudocount, 1);

    // Bad input in the dialog: a row without a mark, no sizes file, a bad threshold.
    AlignedReadsDialog empty;
    EXPECT_FALSE(empty.problem().isEmpty());
    empty.addPaths({kReadsDir + QStringLiteral("C1_H3K4me3.bam")});
    EXPECT_TRUE(empty.problem().contains(QStringLiteral("sizes"))) << empty.problem().toStdString();
    empty.setChromSizes(kReadsDir + QStringLiteral("chrom.sizes"));
    EXPECT_TRUE(empty.problem().isEmpty()) << empty.problem().toStdString();
    EXPECT_EQ(empty.request().outDir, kReadsDir + QStringLiteral("binarized")); // beside the reads
    empty.table()->item(0, AlignedReadsDialog::MarkColumn)->setText(QString());
    EXPECT_TRUE(empty.problem().contains(QStringLiteral("C1_H3K4me3.bam")));
    // A folder adds its read files.
    EXPECT_GE(AlignedReadsDialog::readFilesIn(kReadsDir).size(), 30);
}

TEST(ChromatinReads, OpenAlignedReadsBinarizesAsChromHmmAndOpensTheTracks) {
    ErrorRecorder errors;
    QTemporaryDir out;
    ASSERT_TRUE(out.isValid());
    AlignedReadsDialog dialog;
    const ReadsBinarization reads = bamControlRequest(dialog, out.filePath(QStringLiteral("bin")));
    ChromatinWorkspace chromatin;
    chromatin.controller()->setDecodeDelay(0);
    // Three marks: the moments have rank 4, so the default K = 7 would be refused by the solve
    // (reported, at a time that depends on the machine's load).
    chromatin.analysisPanel()->componentsSpin()->setValue(3);
    chromatin.openAlignedReads(reads);
    ASSERT_TRUE(waitUntil([&] { return chromatin.controller()->data().isValid(); }, 60000));
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join(QLatin1Char('\n')).toStdString();
    const auto& data = chromatin.controller()->data();
    ASSERT_TRUE(data.reads);
    EXPECT_EQ(data.reads->entries, reads.entries);
    EXPECT_EQ(data.paths.size(), 5); // C1 on chrA, chrB, chrC; C2 on chrA, chrB
    EXPECT_EQ(data.data->markNames, (std::vector<std::string>{"H3K27ac", "H3K36me3", "H3K4me3"}));
    // The very files ChromHMM writes for table_bam_control.txt.
    const QDir expected(kReadsDir + QStringLiteral("expected/bam_control"));
    for (const QString& name : expected.entryList(QDir::Files)) {
        EXPECT_EQ(slurp(out.filePath(QStringLiteral("bin/") + name)),
                  slurp(expected.absoluteFilePath(name)))
            << name.toStdString();
    }
    EXPECT_TRUE(QFileInfo::exists(out.filePath(QStringLiteral("bin/cellmarkfiletable.txt"))));

    // The session records the reads and options; reopening reuses the binarized files.
    const cx::ChromatinSection section = chromatin.currentSection();
    ASSERT_TRUE(section.reads);
    EXPECT_EQ(section.reads->entries.size(), 6u);
    EXPECT_EQ(section.reads->entries[4].control.filename(), "C2_inputB.bam");
    EXPECT_EQ(section.reads->options.flankWidth, 5);
    EXPECT_EQ(section.tracks.size(), 5u);
    ChromatinWorkspace again;
    again.openSection(section);
    ASSERT_TRUE(waitUntil([&] { return again.controller()->data().isValid(); }, 60000));
    ASSERT_TRUE(again.controller()->data().reads);
    EXPECT_EQ(again.controller()->data().binarizeMs, 0.0) << "up-to-date files are reused";
    EXPECT_EQ(again.currentSection().reads->entries.size(), 6u);
}

TEST(ChromatinReads, BadReadsNameTheFileAndLeaveNothingBehind) {
    ErrorRecorder errors;
    QTemporaryDir out;
    ASSERT_TRUE(out.isValid());
    ReadsBinarization reads;
    reads.entries = {{QStringLiteral("C1"), QStringLiteral("H3K4me3"),
                      kReadsDir + QStringLiteral("C1_H3K4me3.bam"), QString()},
                     {QStringLiteral("C1"), QStringLiteral("H3K27ac"),
                      kReadsDir + QStringLiteral("truncated.bam"), QString()}};
    reads.chromSizes = kReadsDir + QStringLiteral("chrom.sizes");
    reads.outDir = out.filePath(QStringLiteral("bin"));
    ChromatinWorkspace chromatin;
    chromatin.openAlignedReads(reads);
    ASSERT_TRUE(waitUntil([&] { return !errors.messages.isEmpty(); }, 60000));
    EXPECT_TRUE(errors.messages.front().contains(QStringLiteral("truncated.bam")))
        << errors.messages.front().toStdString();
    EXPECT_FALSE(chromatin.controller()->data().isValid());
    EXPECT_TRUE(QDir(reads.outDir).entryList(QDir::Files).isEmpty())
        << QDir(reads.outDir).entryList(QDir::Files).join(QLatin1Char(' ')).toStdString();
}
