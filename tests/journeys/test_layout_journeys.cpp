// Layout with data at 1024×700. The real MainWindow at
// the smallest size the app supports, each tab in its data-heavy state (foreground chosen and
// enrichment ticked; 39 workers; nine children in the tree; every component shown), every
// inner tab visited: each plot keeps a usable size, no name is shortened where its column has
// room, the tree's boxes do not overlap, the CMI heatmap names its columns by worker.
#include "gui_test_helpers.h"

#include "core/io/text_input.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_results_panel.h"
#include "ui/crowd/crowd_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/topics/selection_picker.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_data_panel.h"
#include "ui/topics/topics_workspace.h"
#include "ui/tree/tree_diagram_view.h"
#include "ui/tree/tree_workspace.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/state_matrix_model.h"

#include <gtest/gtest.h>

#include <QChartView>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <string>

using namespace cx::ui;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

namespace {

const QSize kWindow(1024, 700);
/// The least size of a chart or heatmap widget on screen.
const QSize kMinimumPlot(200, 150);

QString layoutHmmData(const char* name) {
    return QStringLiteral(CX_TEST_DATA_DIR "/hmm/") + QString::fromLatin1(name);
}

/// The window at 1024×700 on `tab`, not writing the user's settings.
void showSmall(MainWindow& window, const QString& tab) {
    window.setSettingsPersistent(false);
    window.resize(kWindow);
    window.show();
    window.setCurrentWorkspace(tab);
    QCoreApplication::processEvents();
}

void settle() {
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
    }
}

/// Calls `check` once for every combination of the visible tab widgets' pages under `root`
/// (each tab page of each visible QTabWidget in turn, nested ones included), so that every
/// plot a user can reach is checked at its on-screen size.
void forEveryVisiblePage(QWidget* root, const std::function<void(const QString&)>& check,
                         QSet<QTabWidget*> visited = {}) {
    settle();
    for (QTabWidget* tabs : root->findChildren<QTabWidget*>()) {
        if (!tabs->isVisible() || visited.contains(tabs)) {
            continue;
        }
        visited.insert(tabs);
        const int shown = tabs->currentIndex();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            forEveryVisiblePage(
                root,
                [&](const QString& where) {
                    check(tabs->tabText(i) + QStringLiteral(" › ") + where);
                },
                visited);
        }
        tabs->setCurrentIndex(shown);
        settle();
        return;
    }
    check(QStringLiteral("page"));
}

/// Every visible chart and heatmap under `root` is at least kMinimumPlot; every visible
/// heatmap shows its row names whole.
void expectUsablePlots(QWidget* root, const QString& where) {
    for (QChartView* chart : root->findChildren<QChartView*>()) {
        if (!chart->isVisible()) {
            continue;
        }
        EXPECT_GE(chart->width(), kMinimumPlot.width())
            << where.toStdString() << ": chart " << chart->objectName().toStdString();
        EXPECT_GE(chart->height(), kMinimumPlot.height())
            << where.toStdString() << ": chart " << chart->objectName().toStdString();
    }
    for (HeatmapView* heatmap : root->findChildren<HeatmapView*>()) {
        if (!heatmap->isVisible() || !heatmap->model() || heatmap->model()->rowCount() == 0) {
            continue;
        }
        const std::string name = heatmap->objectName().toStdString();
        EXPECT_GE(heatmap->width(), kMinimumPlot.width()) << where.toStdString() << ": " << name;
        EXPECT_GE(heatmap->height(), kMinimumPlot.height()) << where.toStdString() << ": " << name;
        // Names are written whole unless that would squeeze the cells below their narrowest
        // (10 px, where the colour still reads): then the name is shortened, its tooltip whole.
        const bool cellsAtNarrowest = heatmap->cellRect(0, 0).width() <= 10.5;
        for (int r = 0; r < heatmap->model()->rowCount() && !cellsAtNarrowest; ++r) {
            EXPECT_FALSE(heatmap->rowLabelElided(r))
                << where.toStdString() << ": " << name << " shortens \""
                << heatmap->model()->headerData(r, Qt::Vertical).toString().toStdString()
                << "\" in " << heatmap->rowLabelRect(r).width() << " px of " << heatmap->width()
                << " px";
        }
    }
}

/// Every column of `table` but the stretched last one is as wide as its widest cell and its
/// header (what resizeColumnsToContents gives): names are not shortened.
void expectColumnsFitTheirText(const QTableView* table) {
    const int columns = table->model()->columnCount();
    for (int c = 0; c + 1 < columns; ++c) {
        const auto* view = static_cast<const QAbstractItemView*>(table); // public there
        const int needed =
            std::max(view->sizeHintForColumn(c), table->horizontalHeader()->sectionSizeHint(c));
        EXPECT_GE(table->columnWidth(c), needed)
            << table->objectName().toStdString() << " column "
            << table->model()->headerData(c, Qt::Horizontal).toString().toStdString();
    }
}

bool layoutChromatinReady(ChromatinWorkspace* chromatin) {
    ChromatinController* controller = chromatin->controller();
    return chromatin->isSettled() && controller->solution().isValid() &&
           controller->segmentation() && controller->enrichment().has_value() &&
           controller->moments()->choice.foreground.size() == 2;
}

} // namespace

TEST(LayoutJourney, ChromatinAt1024x700KeepsPlotsUsableAndNamesWhole) {
    ErrorRecorder errors;
    MainWindow window;
    showSmall(window, QStringLiteral("chromatin"));
    ChromatinWorkspace* chromatin = window.workspace<ChromatinWorkspace>();
    chromatin->controller()->setDecodeDelay(0);
    const QString genes = layoutHmmData("RefSeqGene.chr11_slice.bed");
    const QString tss = layoutHmmData("RefSeqTSS2kb.chr11_slice.bed");
    chromatin->openTracks(
        {layoutHmmData("GM12878_chr11_slice.txt.gz"), layoutHmmData("K562_chr11_slice.txt.gz")});
    chromatin->addAnnotations({genes, tss});
    AnnotationListModel* annotations = chromatin->annotationModel();
    for (const QString& path : {genes, tss}) {
        annotations->setChecked(path, AnnotationListModel::ForegroundColumn, true);
        annotations->setChecked(path, AnnotationListModel::EnrichmentColumn, true);
    }
    ASSERT_TRUE(waitUntil([&] { return layoutChromatinReady(chromatin); }, 60000))
        << errors.messages.join('\n').toStdString();
    ASSERT_EQ(window.size(), kWindow) << "the window does not fit 1024×700";
    settle();

    ASSERT_GT(chromatin->weightsChart()->lines().size(), 0);
    ASSERT_GT(chromatin->enrichmentView()->model()->rowCount(), 0);
    forEveryVisiblePage(chromatin, [&](const QString& where) {
        expectUsablePlots(chromatin, where);
        if (chromatin->weightsChart()->isVisible()) {
            // The plot itself, beside its legend (finding 8: ~30 px).
            const QRectF plot = chromatin->weightsChart()->plotAreaInView();
            EXPECT_GE(plot.width(), 200) << where.toStdString();
            EXPECT_GE(plot.height(), 80) << where.toStdString();
        }
    });
    // Each result was reachable: the weights chart, enrichment and transitions were shown.
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(LayoutJourney, CrowdAt1024x700ShowsAWideSummaryAndWorkerIds) {
    ErrorRecorder errors;
    MainWindow window;
    showSmall(window, QStringLiteral("crowd"));
    CrowdWorkspace* crowd = window.workspace<CrowdWorkspace>();
    crowd->openFiles(QStringLiteral(CX_SOURCE_DIR "/resources/demo/crowd/answer.csv"),
                     QStringLiteral(CX_SOURCE_DIR "/resources/demo/crowd/truth.csv"));
    CrowdResultsPanel* results = crowd->results();
    ASSERT_TRUE(
        waitUntil([&] { return crowd->isSettled() && results->cmiModel()->rowCount() > 0; }, 60000))
        << errors.messages.join('\n').toStdString();
    ASSERT_EQ(window.size(), kWindow);
    settle();

    // The run summary reads as a line or two across the results, not a 9-line column.
    auto* summary = crowd->findChild<QLabel*>(QStringLiteral("runSummary"));
    ASSERT_NE(summary, nullptr);
    ASSERT_FALSE(summary->text().isEmpty());
    EXPECT_GE(summary->width(), 400);
    EXPECT_LE(summary->height(), 3 * summary->fontMetrics().lineSpacing() + 4)
        << summary->text().toStdString();

    // The CMI heatmap: 39 workers, columns named by worker like the rows (not 1…39).
    StateMatrixModel* cmi = results->cmiModel();
    ASSERT_EQ(cmi->rowCount(), 39);
    ASSERT_EQ(cmi->columnCount(), 39);
    for (int c = 0; c < cmi->columnCount(); ++c) {
        EXPECT_EQ(cmi->headerData(c, Qt::Horizontal).toString(),
                  cmi->headerData(c, Qt::Vertical).toString())
            << "column " << c;
    }
    // Bad input for the comparison: no worker is named by its rank.
    EXPECT_NE(cmi->headerData(0, Qt::Horizontal).toString(), QStringLiteral("1"));

    forEveryVisiblePage(crowd, [&](const QString& where) { expectUsablePlots(crowd, where); });
    results->setCurrentWidget(results->workerTable()->parentWidget());
    settle();
    expectColumnsFitTheirText(results->workerTable());
}

namespace {

/// Ten cell types (the ENCODE names of ../shared/data/encode_hg19_10cells_chr18_chr20) made
/// from the first `bins` bins of the four real chr20 slices of tests/data/tree, each file
/// renamed, in `folder`: opening it proposes a star tree with nine children.
QStringList writeTenCellTypes(const QString& folder, int bins) {
    const QStringList sources = {QStringLiteral("H1-hESC"), QStringLiteral("GM12878"),
                                 QStringLiteral("HeLa-S3"), QStringLiteral("K562")};
    const QStringList cells = {"H1-hESC", "GM12878", "HepG2", "HMEC", "HSMM",
                               "HUVEC",   "K562",    "NHEK",  "NHLF", "HeLa-S3"};
    for (int i = 0; i < cells.size(); ++i) {
        const std::string source = (QStringLiteral(CX_TEST_DATA_DIR "/tree/") +
                                    sources[i % sources.size()] + "_chr20_binary.txt.gz")
                                       .toStdString();
        const QStringList lines =
            QString::fromStdString(cx::readWholeFile(source)).split(QLatin1Char('\n'));
        QStringList out = {cells[i] + QStringLiteral("\tchr20")};
        out += lines.mid(1, bins + 1); // marks, then the bins
        QFile file(folder + QLatin1Char('/') + cells[i] + QStringLiteral("_chr20_binary.txt"));
        if (file.open(QIODevice::WriteOnly)) {
            file.write((out.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
        }
    }
    return cells;
}

} // namespace

TEST(LayoutJourney, TreeWithNineChildrenAt1024x700DrawsBoxesApartAndNamesWhole) {
    ErrorRecorder errors;
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QStringList cells = writeTenCellTypes(folder.path(), 4000);
    MainWindow window;
    showSmall(window, QStringLiteral("tree"));
    TreeWorkspace* tree = window.workspace<TreeWorkspace>();
    tree->openTracks({folder.path()});
    ASSERT_TRUE(tree->treeProblem().isEmpty()) << tree->treeProblem().toStdString();
    ASSERT_EQ(tree->treeText().count(QLatin1Char(',')), 8) << tree->treeText().toStdString();
    tree->statesSpin()->setValue(6);
    tree->setTssFile(QStringLiteral(CX_TEST_DATA_DIR "/tree/RefSeqTSS.chr20_3Mb.txt.gz"));
    ASSERT_TRUE(tree->learn());
    ASSERT_TRUE(waitUntil([&] { return tree->isSettled(); }, 60000));
    ASSERT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
    ASSERT_EQ(window.size(), kWindow);
    settle();

    // The diagram: ten boxes, each inside the view, none overlapping another (finding 8).
    TreeDiagramView* diagram = tree->diagram();
    const QRectF inside = QRectF(diagram->rect());
    QList<QRectF> boxes;
    for (const QString& cell : cells) {
        const QRectF box = diagram->nodeBox(cell);
        ASSERT_FALSE(box.isNull()) << cell.toStdString();
        EXPECT_TRUE(inside.contains(box)) << cell.toStdString() << " leaves the view";
        EXPECT_GE(box.height(), diagram->fontMetrics().height()) << cell.toStdString();
        EXPECT_GE(box.width(), diagram->fontMetrics().horizontalAdvance(cell))
            << cell.toStdString();
        for (int other = 0; other < boxes.size(); ++other) {
            EXPECT_FALSE(box.intersects(boxes[other]))
                << cell.toStdString() << " overlaps " << cells[other].toStdString();
        }
        boxes << box;
    }
    // Clicking a box still selects its cell.
    const QPointF centre = diagram->nodeCentre(QStringLiteral("NHLF"));
    QTest::mouseClick(diagram, Qt::LeftButton, {}, centre.toPoint());
    EXPECT_EQ(tree->selectedCell(), QStringLiteral("NHLF"));

    ASSERT_EQ(tree->heatmapViews().size(), 10);
    forEveryVisiblePage(tree, [&](const QString& where) { expectUsablePlots(tree, where); });
    // Promoter F1: method, cell and state names whole beside the F1 column (finding 10).
    QTableWidget* f1 = tree->promoterTable();
    ASSERT_GT(f1->rowCount(), 0);
    expectColumnsFitTheirText(f1);
}

TEST(LayoutJourney, TopicsAt1024x700KeepsTheTableAndChartsUsable) {
    ErrorRecorder errors;
    MainWindow window;
    showSmall(window, QStringLiteral("topics"));
    TopicsWorkspace* topics = window.workspace<TopicsWorkspace>();
    topics->openCorpus(cx::ui::test::syntheticCorpus(600, 200));
    topics->controller()->setParameters(topics->analysisPanel()->parameters());
    topics->dataPanel()->foregroundPicker()->setRule(QStringLiteral("group=foreground"));
    topics->dataPanel()->backgroundPicker()->setRule(QStringLiteral("group=background"));
    QMetaObject::invokeMethod(topics->dataPanel(), "applyRequested");
    ASSERT_TRUE(waitUntil(
        [&] { return topics->isSettled() && topics->controller()->solution().isValid(); }));
    topics->tablePanel()->setShowAll(true); // every component a column: the widest table
    ASSERT_EQ(window.size(), kWindow);
    settle();
    forEveryVisiblePage(topics, [&](const QString& where) { expectUsablePlots(topics, where); });
    // The topic table shows several words per topic, not one or two.
    QTableView* table = topics->tablePanel()->view();
    EXPECT_GE(table->viewport()->height(), 3 * table->verticalHeader()->defaultSectionSize());
    // Every topic's header ("Topic T3", "ω = 0.587 · NPMI 0.12") is whole: the table scrolls
    // sideways rather than cut it — also after the window was wide enough for the columns to
    // fill it and then narrowed again (the real-window finding).
    const QHeaderView* header = table->horizontalHeader();
    const auto expectWholeHeaders = [&](const char* when) {
        ASSERT_GT(header->count(), 0) << when;
        for (int c = 0; c < header->count(); ++c) {
            EXPECT_GE(header->sectionSize(c), header->sectionSizeHint(c))
                << when << ": "
                << table->model()->headerData(c, Qt::Horizontal).toString().toStdString();
        }
    };
    expectWholeHeaders("at 1024 px");
    // Widen the window until the columns fill the table (stretched), then narrow it again.
    int needed = 0;
    for (int c = 0; c < header->count(); ++c) {
        needed += header->sectionSizeHint(c);
    }
    const int missing = needed - table->viewport()->width();
    ASSERT_GT(missing, 0) << "the columns must not fit at 1024 px for this check";
    window.resize(kWindow.width() + missing + 80, kWindow.height());
    settle();
    EXPECT_EQ(header->sectionResizeMode(0), QHeaderView::Stretch) << "they fit the wider window";
    window.resize(kWindow);
    settle();
    ASSERT_EQ(window.size(), kWindow);
    expectWholeHeaders("after a wider window");
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}
