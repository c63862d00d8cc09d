// Aligned-reads journeys: in the Tree tab, File ▸ Open Aligned Reads… takes
// the small BAMs of tests/data/binarize through the Chromatin workspace's dialog, binarizes
// them on the tree's worker and opens every cell type as a tree track; the session records the
// reads, reopening reuses up-to-date binarized files and binarizes again when they are older
// than the reads.
#include "journey_support.h"

#include "ui/dialogs/aligned_reads_dialog.h"
#include "ui/shell/project_session.h"
#include "ui/tree/tree_controller.h"
#include "ui/tree/tree_workspace.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QMenuBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>

namespace cx::ui::journeys {
namespace {

const QStringList kReads = {"C1_H3K4me3.bam", "C1_H3K27ac.bam", "C1_input.bam",
                            "C2_H3K4me3.bam", "C2_H3K27ac.bam", "C2_inputA.bam"};

/// The File menu's action titled `text` (mnemonics removed), or nullptr.
QAction* fileAction(const MainWindow& window, const QString& text) {
    for (QAction* menu : window.menuBar()->actions()) {
        if (!menu->menu()) {
            continue;
        }
        for (QAction* action : menu->menu()->actions()) {
            if (action->text().remove(QLatin1Char('&')) == text) {
                return action;
            }
        }
    }
    return nullptr;
}

/// Fills the Open Aligned Reads dialog as a user would (the read files, the sizes file, the
/// output folder; cells, marks and controls guessed from the names) and presses its OK button.
void fillReadsDialog(const QDir& reads, const QString& outDir, bool* done) {
    auto* dialog = qobject_cast<AlignedReadsDialog*>(QApplication::activeModalWidget());
    if (!dialog) {
        QTimer::singleShot(20, [=] { fillReadsDialog(reads, outDir, done); });
        return;
    }
    QStringList files;
    for (const QString& name : kReads) {
        files << reads.absoluteFilePath(name);
    }
    dialog->addPaths(files);
    dialog->setChromSizes(reads.absoluteFilePath(QStringLiteral("chrom.sizes")));
    dialog->setOutDir(outDir);
    for (QPushButton* button : dialog->findChildren<QPushButton*>()) {
        if (button->text().remove(QLatin1Char('&')) == QLatin1String("Binarize and Open")) {
            *done = button->isEnabled();
            button->click();
        }
    }
    if (dialog->isVisible()) {
        dialog->reject();
    }
}

} // namespace

TEST(ReadsJourneys, TreeOpensAlignedReadsAsCellTypesAndItsSessionKeepsThem) {
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    // A copy of the reads, so the journey may age its files.
    const QDir reads(folder.filePath(QStringLiteral("reads")));
    ASSERT_TRUE(QDir().mkpath(reads.path()));
    for (const QString& name : kReads + QStringList{QStringLiteral("chrom.sizes")}) {
        ASSERT_TRUE(QFile::copy(testData(QStringLiteral("binarize/") + name),
                                reads.absoluteFilePath(name)));
    }
    // A tree learns on the chromosomes every cell type has, and C2 has no reads on chrC: the
    // sizes file names chrA and chrB only (reads on other contigs are skipped, as ChromHMM does).
    {
        QFile sizes(reads.absoluteFilePath(QStringLiteral("chrom.sizes")));
        ASSERT_TRUE(sizes.remove());
        ASSERT_TRUE(sizes.open(QIODevice::WriteOnly));
        sizes.write("chrA\t40000\nchrB\t25100\n");
    }
    const QString outDir = folder.filePath(QStringLiteral("binarized"));

    JourneyWindow journey;
    ASSERT_TRUE(journey.window.setCurrentWorkspace(QStringLiteral("tree")));
    auto* tree = journey.workspace<TreeWorkspace>();
    QAction* open = fileAction(journey.window, QStringLiteral("Open Aligned Reads…"));
    ASSERT_NE(open, nullptr) << "the Tree tab's File menu has Open Aligned Reads…";
    bool accepted = false;
    QTimer::singleShot(0, [&] { fillReadsDialog(reads, outDir, &accepted); });
    open->trigger();
    ASSERT_TRUE(accepted) << "the dialog accepted the reads";
    ASSERT_TRUE(waitUntil([&] { return tree->reads() != nullptr; }, 60000))
        << journey.errorText().toStdString();

    // Both cell types are the tree's, as tracks binarized as ChromHMM does.
    EXPECT_EQ(tree->treeText(), QStringLiteral("C1>C2"));
    EXPECT_TRUE(tree->treeProblem().isEmpty()) << tree->treeProblem().toStdString();
    const QStringList binarized = QDir(outDir).entryList({QStringLiteral("*_binary.txt")});
    EXPECT_EQ(binarized, (QStringList{"C1_chrA_binary.txt", "C1_chrB_binary.txt",
                                      "C2_chrA_binary.txt", "C2_chrB_binary.txt"}));
    QFile written(QDir(outDir).absoluteFilePath(QStringLiteral("C2_chrA_binary.txt")));
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    EXPECT_TRUE(written.readAll().startsWith("C2\tchrA\nH3K27ac\tH3K4me3\n"))
        << "ChromHMM's header: cell, chromosome, then the marks";
    EXPECT_TRUE(journey.errors.messages.isEmpty()) << journey.errorText().toStdString();

    // The session names the reads and options; K fits two marks.
    tree->statesSpin()->setValue(2);
    const QString session = folder.filePath(QStringLiteral("reads.cxproj"));
    ASSERT_TRUE(journey.window.project()->saveTo(session)) << journey.errorText().toStdString();
    const QJsonObject saved = readJson(session)
                                  .value(QStringLiteral("workspaces"))
                                  .toObject()
                                  .value(QStringLiteral("tree"))
                                  .toObject();
    const QJsonObject readsJson = saved.value(QStringLiteral("reads")).toObject();
    const QJsonArray files = readsJson.value(QStringLiteral("files")).toArray();
    ASSERT_EQ(files.size(), 4) << "two marks of two cells; the inputs are their controls";
    const QJsonObject first = files.at(0).toObject();
    EXPECT_EQ(first.value(QStringLiteral("cell")).toString(), QStringLiteral("C1"));
    EXPECT_TRUE(first.value(QStringLiteral("control"))
                    .toObject()
                    .value(QStringLiteral("path"))
                    .toString()
                    .endsWith(QLatin1String("C1_input.bam")));
    EXPECT_EQ(readsJson.value(QStringLiteral("options"))
                  .toObject()
                  .value(QStringLiteral("shift"))
                  .toInt(),
              100);

    // Reopened with up-to-date binarized files: they are opened, not written again.
    const QString track = QDir(outDir).absoluteFilePath(binarized.front());
    const QDateTime before = QFileInfo(track).lastModified();
    {
        JourneyWindow again;
        ASSERT_TRUE(again.window.project()->open(session)) << again.errorText().toStdString();
        auto* reopened = again.workspace<TreeWorkspace>();
        ASSERT_TRUE(waitUntil([&] { return reopened->isSettled(); }, 60000))
            << again.errorText().toStdString();
        ASSERT_NE(reopened->reads(), nullptr);
        EXPECT_EQ(reopened->treeText(), QStringLiteral("C1>C2"));
        EXPECT_EQ(QFileInfo(track).lastModified(), before);
        EXPECT_TRUE(again.errors.messages.isEmpty()) << again.errorText().toStdString();
    }

    // Binarized files older than the reads: reopening binarizes again, then learns.
    const QDateTime old = QDateTime::currentDateTime().addSecs(-3600);
    for (const QString& name : binarized) {
        QFile file(QDir(outDir).absoluteFilePath(name));
        ASSERT_TRUE(file.open(QIODevice::ReadWrite));
        ASSERT_TRUE(file.setFileTime(old, QFileDevice::FileModificationTime));
    }
    JourneyWindow third;
    ASSERT_TRUE(third.window.project()->open(session)) << third.errorText().toStdString();
    auto* rebinarized = third.workspace<TreeWorkspace>();
    ASSERT_TRUE(waitUntil([&] { return rebinarized->isSettled(); }, 60000))
        << third.errorText().toStdString();
    EXPECT_GT(QFileInfo(track).lastModified(), old.addSecs(60));
    ASSERT_NE(rebinarized->reads(), nullptr);
    EXPECT_EQ(rebinarized->analysis().tracks->numCells(), 2);
    EXPECT_TRUE(third.errors.messages.isEmpty()) << third.errorText().toStdString();
}

TEST(ReadsJourneys, TreeRefusesReadsOfOneCellType) {
    JourneyWindow journey;
    auto* tree = journey.workspace<TreeWorkspace>();
    ReadsBinarization reads;
    reads.entries = {{QStringLiteral("C1"), QStringLiteral("H3K4me3"),
                      testData(QStringLiteral("binarize/C1_H3K4me3.bam")), QString()}};
    reads.chromSizes = testData(QStringLiteral("binarize/chrom.sizes"));
    QTemporaryDir out;
    reads.outDir = out.path();
    tree->openAlignedReads(reads);
    ASSERT_EQ(journey.errors.messages.size(), 1);
    EXPECT_TRUE(journey.errors.messages.front().contains(QLatin1String("C1_H3K4me3.bam")))
        << journey.errorText().toStdString();
    EXPECT_TRUE(journey.errors.messages.front().contains(QLatin1String("two or more")));
    EXPECT_FALSE(tree->controller()->isTaskRunning());
    EXPECT_TRUE(QDir(out.path()).entryList(QDir::Files).isEmpty());
}

} // namespace cx::ui::journeys
