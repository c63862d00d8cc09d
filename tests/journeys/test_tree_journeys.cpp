// Tree journeys: the demo's tree learnt again draws every cell
// type's segmentation; other cell types drop the demo's TSS file and mark the old result; a new
// TSS file rescores the promoter F1 table from the shown segmentation; the starts box marks the
// result, is what Learn uses and what the session keeps.
#include "journey_support.h"

#include "ui/framework/provenance.h"
#include "ui/tree/tree_controller.h"
#include "ui/tree/tree_worker.h"
#include "ui/tree/tree_workspace.h"
#include "ui/views/segmentation_track_view.h"

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>

namespace cx::ui::journeys {
namespace {

const QString kOtherTracks = testData(QStringLiteral("tree"));
const QString kOtherTss = testData(QStringLiteral("tree/RefSeqTSS.chr20_3Mb.txt.gz"));

QPushButton* learnButton(const TreeWorkspace* tree) {
    for (QPushButton* button : tree->findChildren<QPushButton*>()) {
        if (button->text() == QLatin1String("Learn")) {
            return button;
        }
    }
    return nullptr;
}

/// Every cell row of the segmentation has a state at the middle of the shown range, and the
/// drawn image holds the states' colours (not only the placeholder and the "≠ root" lanes).
void expectSegmentationDrawn(TreeWorkspace* tree) {
    SegmentationTrackView* view = tree->trackView();
    ASSERT_EQ(view->rowTracks().size(), static_cast<size_t>(tree->analysis().tracks->numCells()));
    const qint64 middle = (view->rangeStart() + view->rangeEnd()) / 2;
    for (int row = 0; row < static_cast<int>(view->rowTracks().size()); ++row) {
        EXPECT_GE(view->stateAt(row, middle), 0) << "cell row " << row << " draws no states";
    }
    // Shown as the user would look: the Segmentation tab of the Tree tab.
    if (auto* tabs = qobject_cast<QTabWidget*>(view->parentWidget()->parentWidget())) {
        tabs->setCurrentWidget(view);
    }
    QSet<QRgb> stateColours;
    for (int slot = 0; slot < tree->catalog().numSlots(); ++slot) {
        stateColours.insert(tree->catalog().colour(slot).rgb());
    }
    const QImage image = view->grab().toImage().convertToFormat(QImage::Format_RGB32);
    qsizetype statePixels = 0;
    for (const QRgb pixel : test::samplePixels(image, 2)) {
        statePixels += stateColours.contains(pixel | 0xff000000u) ? 1 : 0;
    }
    EXPECT_GT(statePixels, image.width() * image.height() / 100)
        << "the cell lanes show no state colours";
}

/// The promoter F1 table shows exactly what scoring the shown segmentation against the
/// workspace's loaded TSS file, flank and promoter state gives now.
void expectF1IsFresh(TreeWorkspace* tree, const QString& tss) {
    TreeLearnRequest request = tree->analysis().request;
    request.tssPath = tss;
    const std::vector<cx::PromoterF1Row> fresh =
        TreeWorker::scorePromoters(tree->analysis(), request);
    QTableWidget* table = tree->promoterTable();
    ASSERT_EQ(table->rowCount(), static_cast<int>(fresh.size()));
    for (int row = 0; row < table->rowCount(); ++row) {
        EXPECT_EQ(table->item(row, 5)->text(),
                  QString::number(fresh[static_cast<size_t>(row)].score.f1, 'f', 3))
            << "row " << row;
    }
}

} // namespace

TEST(TreeJourneys, DemoLearnAgainDrawsEveryCellLane) {
    QTemporaryDir folder;
    JourneyWindow journey;
    const QString session = demoSubset(folder, {QStringLiteral("tree")});
    ASSERT_FALSE(session.isEmpty());
    journey.window.openPath(session);
    auto* tree = journey.workspace<TreeWorkspace>();
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    expectSegmentationDrawn(tree);

    // Learn again, as the button does: the cell lanes must still draw (not only "≠ root").
    QPushButton* learn = learnButton(tree);
    ASSERT_NE(learn, nullptr);
    ASSERT_TRUE(learn->isEnabled());
    learn->click();
    ASSERT_TRUE(waitUntil([&] { return tree->controller()->isTaskRunning(); }, 5000) ||
                tree->isSettled());
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    EXPECT_EQ(tree->trackView()->laneCount(), tree->analysis().tracks->numCells() - 1);
    expectSegmentationDrawn(tree);
    EXPECT_TRUE(journey.errors.messages.isEmpty()) << journey.errorText().toStdString();
}

TEST(TreeJourneys, OtherCellTypesDropTheDemoTssAndMarkTheOldResult) {
    QTemporaryDir folder;
    JourneyWindow journey;
    journey.window.openPath(demoSubset(folder, {QStringLiteral("tree")}));
    auto* tree = journey.workspace<TreeWorkspace>();
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    ASSERT_TRUE(tree->tssLabel()->text().contains(QLatin1String("RefSeqTSS.chr20_10Mb")));
    ASSERT_GT(tree->promoterTable()->rowCount(), 0);
    EXPECT_FALSE(tree->staleMarker()->isVisibleTo(tree));
    auto exportAction = [&](const QString& text) -> QAction* {
        for (QAction* action : tree->exportActions()) {
            if (action->text().startsWith(text)) {
                return action;
            }
        }
        return nullptr;
    };
    QAction* exportF1 = exportAction(QStringLiteral("Promoter F1"));
    ASSERT_NE(exportF1, nullptr);
    EXPECT_TRUE(exportF1->isEnabled());
    EXPECT_FALSE(tree->tables().isEmpty());

    // Open other cell types (what Open folder… / Open files… do).
    tree->openTracks({kOtherTracks});
    // The demo's TSS file went with the demo's cell types.
    EXPECT_FALSE(tree->tssLabel()->text().contains(QLatin1String("RefSeqTSS")))
        << tree->tssLabel()->text().toStdString();
    // The old result is still there, marked: the marker names what changed.
    EXPECT_TRUE(tree->staleMarker()->isVisibleTo(tree));
    EXPECT_TRUE(tree->staleMarker()->changedNames().contains(QStringLiteral("cell-type tracks")));
    EXPECT_TRUE(tree->staleMarker()->changedNames().contains(QStringLiteral("TSS file")));
    EXPECT_TRUE(tree->staleMarker()->text().contains(QLatin1String("Learn again")));
    // Its tables are not exported under the new labels: the actions say why, Export All skips
    // them and the result figures (only the tree as typed is left).
    EXPECT_FALSE(exportF1->isEnabled());
    EXPECT_TRUE(exportF1->toolTip().contains(QLatin1String("Learn again")))
        << exportF1->toolTip().toStdString();
    EXPECT_FALSE(exportAction(QStringLiteral("Regions Differing"))->isEnabled());
    EXPECT_TRUE(tree->tables().isEmpty());
    ASSERT_EQ(tree->figures().size(), 1);
    EXPECT_EQ(tree->figures().front().name, QStringLiteral("tree"));

    // Learn on the new data with its own TSS file: fresh numbers, no marker.
    tree->setTssFile(kOtherTss);
    learnButton(tree)->click();
    ASSERT_TRUE(
        waitUntil([&] { return tree->isSettled() && !tree->staleMarker()->isStale(); }, 60000))
        << journey.errorText().toStdString();
    EXPECT_EQ(tree->analysis().request.tssPath, QFileInfo(kOtherTss).absoluteFilePath());
    expectF1IsFresh(tree, kOtherTss);
    EXPECT_TRUE(exportF1->isEnabled());
    EXPECT_FALSE(tree->tables().isEmpty());
    expectSegmentationDrawn(tree);
    EXPECT_TRUE(journey.errors.messages.isEmpty()) << journey.errorText().toStdString();
}

TEST(TreeJourneys, ChangingTheTssFileRescoresThePromoterTable) {
    QTemporaryDir folder;
    JourneyWindow journey;
    journey.window.openPath(demoSubset(folder, {QStringLiteral("tree")}));
    auto* tree = journey.workspace<TreeWorkspace>();
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    const QString demoTss = tree->analysis().request.tssPath;
    expectF1IsFresh(tree, demoTss);
    QStringList before;
    for (int row = 0; row < tree->promoterTable()->rowCount(); ++row) {
        before << tree->promoterTable()->item(row, 5)->text();
    }

    // Open TSS file… with another file: the label and the numbers belong to it.
    tree->setTssFile(kOtherTss);
    EXPECT_EQ(tree->tssLabel()->text(), QFileInfo(kOtherTss).fileName());
    ASSERT_TRUE(
        waitUntil([&] { return tree->isSettled() && !tree->staleMarker()->isStale(); }, 20000))
        << tree->staleMarker()->text().toStdString();
    expectF1IsFresh(tree, kOtherTss);
    QStringList after;
    for (int row = 0; row < tree->promoterTable()->rowCount(); ++row) {
        after << tree->promoterTable()->item(row, 5)->text();
    }
    EXPECT_NE(before, after) << "the 3 Mb TSS file scores other F1 values than the 10 Mb one";

    // The flank too is rescored, without Learn.
    // (the flank spin box is the one with the " bp" suffix)
    for (QSpinBox* spin : tree->findChildren<QSpinBox*>()) {
        if (spin->suffix() == QLatin1String(" bp")) {
            spin->setValue(5000);
        }
    }
    ASSERT_TRUE(
        waitUntil([&] { return tree->isSettled() && !tree->staleMarker()->isStale(); }, 20000));
    EXPECT_EQ(tree->analysis().request.flank, 5000);
    expectF1IsFresh(tree, kOtherTss);

    // A model parameter needs Learn: the marker says which one, the numbers stay marked.
    tree->statesSpin()->setValue(tree->statesSpin()->value() + 1);
    EXPECT_TRUE(tree->staleMarker()->isVisibleTo(tree));
    EXPECT_EQ(tree->staleMarker()->changedNames(), QStringList{QStringLiteral("K")});

    // A TSS file that cannot be read: reported, and the table is emptied (not left stale).
    QTemporaryDir scratch;
    const QString bad = scratch.filePath(QStringLiteral("bad_tss.txt"));
    QFile file(bad);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("chr20\tnot-a-number\t+\n");
    file.close();
    tree->statesSpin()->setValue(tree->statesSpin()->value() - 1);
    tree->setTssFile(bad);
    ASSERT_TRUE(waitUntil([&] { return !journey.errors.messages.isEmpty(); }, 20000));
    EXPECT_TRUE(journey.errors.messages.front().contains(QLatin1String("bad_tss.txt")))
        << journey.errorText().toStdString();
    ASSERT_TRUE(waitUntil([&] { return tree->isSettled(); }, 20000));
    EXPECT_EQ(tree->promoterTable()->rowCount(), 0);
    EXPECT_FALSE(tree->staleMarker()->isStale());
}

TEST(TreeJourneys, StartsMarkTheResultAndLearnAndTheSessionUseThem) {
    QTemporaryDir folder;
    JourneyWindow journey;
    journey.window.openPath(demoSubset(folder, {QStringLiteral("tree")}));
    auto* tree = journey.workspace<TreeWorkspace>();
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    // The demo names no starts: the tree's default, shown, used and said.
    EXPECT_EQ(tree->startsSpin()->value(), cx::kDefaultTreeStarts);
    EXPECT_EQ(tree->analysis().request.options.starts, cx::kDefaultTreeStarts);
    for (const cx::SpectralTreeNodeReport& node : tree->analysis().learned->nodes) {
        EXPECT_EQ(node.starts.starts(), cx::kDefaultTreeStarts) << node.cell;
    }
    EXPECT_TRUE(tree->statusLabel()->text().contains(
        QStringLiteral("%1 starts per cell type").arg(cx::kDefaultTreeStarts)))
        << tree->statusLabel()->text().toStdString();

    // Fewer starts: the result is marked, naming them, until Learn runs with them.
    tree->startsSpin()->setValue(2);
    EXPECT_TRUE(tree->staleMarker()->isVisibleTo(tree));
    EXPECT_EQ(tree->staleMarker()->changedNames(), QStringList{QStringLiteral("starts")});
    learnButton(tree)->click();
    ASSERT_TRUE(
        waitUntil([&] { return tree->isSettled() && !tree->staleMarker()->isStale(); }, 60000))
        << journey.errorText().toStdString();
    EXPECT_EQ(tree->analysis().request.options.starts, 2);
    for (const cx::SpectralTreeNodeReport& node : tree->analysis().learned->nodes) {
        EXPECT_EQ(node.starts.starts(), 2) << node.cell;
    }
    EXPECT_TRUE(tree->statusLabel()->text().contains(QLatin1String("2 starts per cell type")))
        << tree->statusLabel()->text().toStdString();
    expectSegmentationDrawn(tree);

    // Saved and reopened in a fresh window: the same starts, the same emissions.
    const QString path = folder.filePath(QStringLiteral("starts.cxproj"));
    ASSERT_TRUE(journey.window.project()->saveTo(path)) << journey.errorText().toStdString();
    EXPECT_EQ(readJson(path)["workspaces"]
                  .toObject()["tree"]
                  .toObject()["model"]
                  .toObject()["starts"]
                  .toInt(),
              2);
    JourneyWindow fresh;
    auto* again = fresh.workspace<TreeWorkspace>();
    ASSERT_TRUE(fresh.window.project()->open(path)) << fresh.errorText().toStdString();
    ASSERT_TRUE(settleAll(fresh.window)) << fresh.errorText().toStdString();
    EXPECT_EQ(again->startsSpin()->value(), 2);
    EXPECT_FALSE(again->staleMarker()->isStale());
    ASSERT_EQ(again->analysis().learned->model.emissions.size(),
              tree->analysis().learned->model.emissions.size());
    for (size_t u = 0; u < tree->analysis().learned->model.emissions.size(); ++u) {
        EXPECT_EQ(again->analysis().learned->model.emissions[u],
                  tree->analysis().learned->model.emissions[u])
            << "cell " << u;
    }
    EXPECT_TRUE(journey.errors.messages.isEmpty()) << journey.errorText().toStdString();
    EXPECT_TRUE(fresh.errors.messages.isEmpty()) << fresh.errorText().toStdString();
}

} // namespace cx::ui::journeys
