// Stale-state journeys: after the demo's data sets are all
// replaced, a saved session's title names what is loaded, not the demo; the provenance marker
// follows the inputs it compares.
#include "journey_support.h"

#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_workspace.h"
#include "ui/framework/provenance.h"
#include "ui/shell/project_session.h"
#include "ui/topics/selection_picker.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_data_panel.h"
#include "ui/topics/topics_workspace.h"
#include "ui/tree/tree_workspace.h"

#include <QPushButton>
#include <QSpinBox>
#include <QTest>

namespace cx::ui::journeys {

TEST(StaleJourneys, ReplacingEveryDataSetRetitlesTheSavedSession) {
    QTemporaryDir folder;
    JourneyWindow journey;
    // The demo's own title comes with the copy (the tree and crowd parts keep the journey short;
    // topics and chromatin data are opened below like the other two).
    journey.window.openPath(demoSubset(folder, {QStringLiteral("tree"), QStringLiteral("crowd")}));
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();

    auto* topics = journey.workspace<TopicsWorkspace>();
    auto* chromatin = journey.workspace<ChromatinWorkspace>();
    auto* tree = journey.workspace<TreeWorkspace>();
    auto* crowd = journey.workspace<CrowdWorkspace>();
    topics->openPath(testData(QStringLiteral("corpus/labelled.tsv")));
    chromatin->openTracks({testData(QStringLiteral("hmm/GM12878_chr11_slice.txt.gz"))});
    tree->openTracks({testData(QStringLiteral("tree"))});
    crowd->openFiles(testData(QStringLiteral("crowd/labels_strings.csv")),
                     testData(QStringLiteral("crowd/gold_strings.csv")));
    ASSERT_TRUE(waitUntil([&] {
        return topics->controller()->corpus().corpus != nullptr &&
               chromatin->controller()->data().isValid() &&
               crowd->controller()->labelsPath().endsWith(QLatin1String("labels_strings.csv")) &&
               !crowd->controller()->isBusy();
    })) << journey.errorText().toStdString();

    const QString saved = folder.filePath(QStringLiteral("replaced.cxproj"));
    ASSERT_TRUE(journey.window.project()->saveTo(saved)) << journey.errorText().toStdString();
    const QString title = readJson(saved).value(QStringLiteral("title")).toString();
    EXPECT_FALSE(title.contains(QLatin1String("Demo"))) << title.toStdString();
    EXPECT_FALSE(title.contains(QLatin1String("bluebird"))) << title.toStdString();
    for (const QString& part :
         {QStringLiteral("Topics: labelled.tsv"), QStringLiteral("Chromatin: GM12878_chr11_slice"),
          QStringLiteral("Tree: tree"), QStringLiteral("Crowd: labels_strings.csv")}) {
        EXPECT_TRUE(title.contains(part)) << title.toStdString() << " lacks " << part.toStdString();
    }
    // The window names the saved file and what the current tab shows.
    journey.window.setCurrentWorkspace(QStringLiteral("crowd"));
    EXPECT_TRUE(journey.window.windowTitle().startsWith(QLatin1String("replaced.cxproj")));
    EXPECT_TRUE(journey.window.windowTitle().contains(QLatin1String("Crowd: labels_strings.csv")))
        << journey.window.windowTitle().toStdString();

    // File ▸ New: nothing loaded, nothing in the title.
    ProjectSession::setPromptHandler(
        [](const QString&) { return ProjectSession::Choice::Discard; });
    ASSERT_TRUE(journey.window.project()->newSession());
    ProjectSession::setPromptHandler({});
    EXPECT_TRUE(journey.window.sessionTitle().isEmpty())
        << journey.window.sessionTitle().toStdString();
}

// The window title of the untitled demo: "Demo" while it shows the demo's data; once every data
// set of it is replaced, "Untitled" (what is loaded is no longer the demo). A file that cannot
// be read replaces nothing.
TEST(StaleJourneys, TheUntitledDemoIsCalledDemoOnlyWhileItShowsTheDemosData) {
    QTemporaryDir folder;
    JourneyWindow journey;
    // Opened as File ▸ Open Demo opens the demo (untitled), with only its crowd to keep it short.
    ASSERT_TRUE(
        journey.window.project()->open(demoSubset(folder, {QStringLiteral("crowd")}), true));
    ASSERT_TRUE(settleAll(journey.window)) << journey.errorText().toStdString();
    journey.window.setCurrentWorkspace(QStringLiteral("crowd"));
    const auto title = [&] { return journey.window.windowTitle().toStdString(); };
    EXPECT_TRUE(journey.window.windowTitle().startsWith(QLatin1String("Demo"))) << title();

    auto* crowd = journey.workspace<CrowdWorkspace>();
    crowd->openFiles(testData(QStringLiteral("crowd/ragged.csv")), QString());
    ASSERT_TRUE(waitUntil([&] { return !journey.errors.messages.isEmpty(); }));
    ASSERT_TRUE(waitUntil([&] { return !crowd->controller()->isBusy() && crowd->isSettled(); }));
    QTest::qWait(200); // the session's check runs on a short timer
    EXPECT_TRUE(journey.window.windowTitle().startsWith(QLatin1String("Demo"))) << title();

    journey.errors.messages.clear();
    crowd->openFiles(testData(QStringLiteral("crowd/labels_strings.csv")),
                     testData(QStringLiteral("crowd/gold_strings.csv")));
    EXPECT_TRUE(waitUntil([&] {
        return journey.window.windowTitle().startsWith(QLatin1String("Untitled")) &&
               journey.window.windowTitle().contains(QLatin1String("Crowd: labels_strings.csv"));
    })) << title();
    EXPECT_FALSE(journey.window.windowTitle().contains(QLatin1String("Demo"))) << title();
    EXPECT_TRUE(journey.errors.messages.isEmpty()) << journey.errorText().toStdString();

    // Saved, it is named by its file.
    ASSERT_TRUE(journey.window.project()->saveTo(folder.filePath(QStringLiteral("mine.cxproj"))));
    EXPECT_TRUE(journey.window.windowTitle().startsWith(QLatin1String("mine.cxproj"))) << title();
}

TEST(StaleJourneys, ProvenanceNamesEveryChangedInputAndFileRewrites) {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("tss.txt"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("chr1\t100\t+\n");
    file.close();
    QString tss = path;
    int k = 4;
    const auto inputs = [&] {
        Provenance provenance;
        provenance.add(QStringLiteral("K"), k).addFiles(QStringLiteral("TSS file"), {tss});
        return provenance;
    };
    StaleMarker marker(QStringLiteral("Results"), QStringLiteral("Learn again."), inputs);
    QStringList seen;
    QObject::connect(&marker, &StaleMarker::staleChanged,
                     [&](const QStringList& names) { seen << names.join(QLatin1Char('+')); });
    EXPECT_FALSE(marker.isStale()); // nothing shown: nothing stale
    marker.setResult(inputs());
    EXPECT_FALSE(marker.isStale());
    k = 5;
    marker.refresh();
    EXPECT_EQ(marker.changedNames(), QStringList{QStringLiteral("K")});
    EXPECT_TRUE(marker.text().contains(QStringLiteral("K (4 → 5)"))) << marker.text().toStdString();
    tss.clear();
    marker.refresh();
    EXPECT_EQ(marker.changedNames(),
              (QStringList{QStringLiteral("K"), QStringLiteral("TSS file")}));
    EXPECT_TRUE(marker.text().contains(QStringLiteral("TSS file (tss.txt → none)")));
    k = 4;
    tss = path;
    marker.refresh();
    EXPECT_FALSE(marker.isStale());
    // Same name, new content: still a change.
    ASSERT_TRUE(file.open(QIODevice::Append));
    file.write("chr1\t900\t-\n");
    file.close();
    marker.refresh();
    EXPECT_EQ(marker.changedNames(), QStringList{QStringLiteral("TSS file")});
    EXPECT_TRUE(marker.text().contains(QLatin1String("changed on disk")));
    // The same file name in another folder: the marker says which folders.
    QTemporaryDir other;
    const QString otherPath = other.filePath(QStringLiteral("tss.txt"));
    ASSERT_TRUE(QFile::copy(path, otherPath));
    marker.setResult(inputs());
    tss = otherPath;
    marker.refresh();
    EXPECT_TRUE(marker.text().contains(QFileInfo(path).absoluteFilePath() + QStringLiteral(" → ") +
                                       QFileInfo(otherPath).absoluteFilePath()))
        << marker.text().toStdString();
    marker.clearResult();
    EXPECT_FALSE(marker.isStale());
    EXPECT_EQ(seen, (QStringList{QStringLiteral("K"), QStringLiteral("K+TSS file"), QString(),
                                 QStringLiteral("TSS file"), QString(), QStringLiteral("TSS file"),
                                 QString()}));
}

TEST(StaleJourneys, TopicsMarkAnEditedChoiceUntilItIsComputed) {
    JourneyWindow journey;
    auto* topics = journey.workspace<TopicsWorkspace>();
    topics->openCorpus(test::syntheticCorpus(300, 200));
    SelectionPicker* foreground = topics->dataPanel()->foregroundPicker();
    foreground->setRule(QStringLiteral("group=foreground"));
    topics->dataPanel()->backgroundPicker()->setRule(QStringLiteral("group=background"));
    QPushButton* compute = nullptr;
    for (QPushButton* button : topics->findChildren<QPushButton*>()) {
        if (button->text() == QLatin1String("Compute moments")) {
            compute = button;
        }
    }
    ASSERT_NE(compute, nullptr);
    ASSERT_TRUE(compute->isEnabled());
    compute->click();
    ASSERT_TRUE(waitUntil([&] {
        return topics->isSettled() && topics->controller()->solution().isValid();
    })) << journey.errorText().toStdString();
    auto* marker = topics->findChild<StaleMarker*>(QStringLiteral("staleMarker"));
    ASSERT_NE(marker, nullptr);
    EXPECT_FALSE(marker->isVisibleTo(topics));

    // A new foreground in the picker: the table still shows the old one's topics, marked.
    foreground->setRule(QStringLiteral("!group=background"));
    EXPECT_TRUE(marker->isVisibleTo(topics));
    EXPECT_EQ(marker->changedNames(), QStringList{QStringLiteral("foreground")});
    EXPECT_TRUE(marker->text().contains(QStringLiteral("group=foreground → !group=background")))
        << marker->text().toStdString();
    compute->click();
    ASSERT_TRUE(waitUntil([&] { return topics->isSettled() && !marker->isStale(); }))
        << marker->text().toStdString();
    EXPECT_EQ(topics->controller()->selection().foregroundRule,
              QStringLiteral("!group=background"));

    // Another corpus: nothing computed from it yet, nothing to mark.
    topics->openCorpus(test::syntheticCorpus(200, 100, 3));
    EXPECT_FALSE(marker->isStale());
}

} // namespace cx::ui::journeys
