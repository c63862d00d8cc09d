// Bootstrap bands in project sessions: a session records the resample count of the
// bands shown in both workspaces; reopening it runs the bootstraps again in the background
// (seeded: the very same band numbers), with progress and a working Cancel; a bad count is
// refused naming the file and the entry.
#include "gui_test_helpers.h"

#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"

#include "core/session/session.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QProgressBar>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>
#include <vector>

namespace {

using cx::ui::ChromatinWorkspace;
using cx::ui::MainWindow;
using cx::ui::TopicsWorkspace;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

bool settled(MainWindow& window) {
    TopicsWorkspace* topics = window.workspace<cx::ui::TopicsWorkspace>();
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    return topics->isSettled() && topics->controller()->solution().isValid() &&
           chromatin->isSettled() && chromatin->controller()->solution().isValid();
}

bool bandsShown(MainWindow& window) {
    return window.workspace<cx::ui::TopicsWorkspace>()->controller()->lastBootstrap() != nullptr &&
           window.workspace<cx::ui::ChromatinWorkspace>()->controller()->sweep().bootstrap !=
               nullptr &&
           settled(window);
}

void showWindow(MainWindow& window) {
    window.setSettingsPersistent(false);
    window.resize(1440, 900);
    window.show();
}

/// Every band number both workspaces show, flattened (NaN kept: compared NaN-aware).
std::vector<double> bandNumbers(MainWindow& window) {
    std::vector<double> out;
    const auto topics = window.workspace<cx::ui::TopicsWorkspace>()->controller()->lastBootstrap();
    out.insert(out.end(), topics->aucLo.begin(), topics->aucLo.end());
    out.insert(out.end(), topics->aucHi.begin(), topics->aucHi.end());
    out.insert(out.end(), topics->identityStability.begin(), topics->identityStability.end());
    const auto chromatin =
        window.workspace<cx::ui::ChromatinWorkspace>()->controller()->sweep().bootstrap;
    for (const auto& row : chromatin->weightLo) {
        out.insert(out.end(), row.begin(), row.end());
    }
    for (const auto& row : chromatin->weightHi) {
        out.insert(out.end(), row.begin(), row.end());
    }
    out.insert(out.end(), chromatin->identityStability.begin(), chromatin->identityStability.end());
    // What the weights chart draws.
    for (const auto& line :
         window.workspace<cx::ui::ChromatinWorkspace>()->weightsChart()->lines()) {
        for (const QPointF& p : line.lower) {
            out.push_back(p.y());
        }
        for (const QPointF& p : line.upper) {
            out.push_back(p.y());
        }
    }
    return out;
}

void expectSameNumbers(const std::vector<double>& a, const std::vector<double>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_TRUE(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))
            << "band number " << i << ": " << a[i] << " vs " << b[i];
    }
}

QByteArray readWhole(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

TEST(SessionBootstrap, ReopenedSessionShowsTheSameBandsAndCancelWorks) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString file = directory.filePath(QStringLiteral("bands.cxproj"));
    std::vector<double> saved;
    {
        MainWindow window;
        showWindow(window);
        // The demo's topics and chromatin (the bands live there; tree and crowd would only cost).
        const QString demo = cx::ui::test::demoSubset(
            directory, {QStringLiteral("chromatin"), QStringLiteral("topics")});
        ASSERT_FALSE(demo.isEmpty());
        window.openPath(demo);
        ASSERT_TRUE(waitUntil([&] { return settled(window); }, 90000));
        ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
        ASSERT_TRUE(waitUntil([&] { return chromatin->controller()->hasCurrentPath(); }, 60000));
        chromatin->analysisPanel()->replicatesSpin()->setValue(3);
        chromatin->analysisPanel()->bootstrapButton()->click();
        TopicsWorkspace* topics = window.workspace<cx::ui::TopicsWorkspace>();
        ASSERT_TRUE(waitUntil([&] { return topics->controller()->lastSweep() != nullptr; }, 90000));
        emit topics->specificityPanel()->bootstrapRequested(3);
        ASSERT_TRUE(waitUntil([&] { return bandsShown(window); }, 120000));
        saved = bandNumbers(window);
        ASSERT_TRUE(window.project()->saveTo(file));
    }
    // The session names the resample counts (and the path they are drawn on).
    const cx::Session session = cx::readSession(file.toStdString());
    EXPECT_EQ(session.section("topics").at("auc").at("bootstrap"), 3);
    EXPECT_EQ(session.section("chromatin").at("path").at("bootstrap"), 3);
    EXPECT_EQ(session.section("chromatin").at("path").at("gammas"), "0:2:0.05");
    EXPECT_EQ(session.section("chromatin").at("path").at("block_length"), 0);

    {
        MainWindow reopened;
        showWindow(reopened);
        reopened.openPath(file);
        // The bootstraps run again by themselves, seeded by the model seed: the same numbers.
        ASSERT_TRUE(waitUntil([&] { return bandsShown(reopened); }, 120000));
        expectSameNumbers(saved, bandNumbers(reopened));
        EXPECT_EQ(reopened.workspace<cx::ui::ChromatinWorkspace>()
                      ->analysisPanel()
                      ->replicatesSpin()
                      ->value(),
                  3);
        EXPECT_EQ(reopened.workspace<cx::ui::TopicsWorkspace>()
                      ->specificityPanel()
                      ->bootstrapReplicates(),
                  3);
        QTest::qWait(120); // the modified check is coalesced
        EXPECT_FALSE(reopened.project()->isModified()) << "reopening is not a change";
    }
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();

    // A long bootstrap shows its progress while it runs after reopening, and Cancel stops it.
    const auto withChromatinResamples = [&](int resamples) {
        cx::SessionJson json = cx::SessionJson::parse(readWhole(file).toStdString());
        json["workspaces"]["chromatin"]["path"]["bootstrap"] = resamples;
        return QByteArray::fromStdString(json.dump(2));
    };
    const QString longFile = directory.filePath(QStringLiteral("long.cxproj"));
    ASSERT_TRUE(writeAll(longFile, withChromatinResamples(5000)));
    {
        MainWindow window;
        showWindow(window);
        window.openPath(longFile);
        ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
        ASSERT_TRUE(
            waitUntil([&] { return chromatin->controller()->isBootstrapRunning(); }, 90000));
        cx::ui::ChromatinAnalysisPanel* panel = chromatin->analysisPanel();
        EXPECT_FALSE(panel->bootstrapProgress()->isHidden());
        EXPECT_EQ(panel->bootstrapProgress()->maximum(), 5000);
        EXPECT_FALSE(panel->cancelBootstrapButton()->isHidden());
        EXPECT_FALSE(chromatin->isSettled());
        panel->cancelBootstrapButton()->click();
        EXPECT_FALSE(chromatin->controller()->isBootstrapRunning());
        ASSERT_TRUE(waitUntil([&] { return chromatin->isSettled(); }, 30000));
        EXPECT_EQ(chromatin->controller()->sweep().bootstrap, nullptr);
        EXPECT_TRUE(panel->bootstrapProgress()->isHidden());
        EXPECT_TRUE(panel->bootstrapButton()->isEnabled());
        // The bands are gone, so the session no longer records them.
        const QString resaved = directory.filePath(QStringLiteral("resaved.cxproj"));
        ASSERT_TRUE(window.project()->saveTo(resaved));
        const cx::Session again = cx::readSession(resaved.toStdString());
        EXPECT_FALSE(again.section("chromatin").contains("path") &&
                     again.section("chromatin").at("path").contains("bootstrap"));
        EXPECT_EQ(again.section("topics").at("auc").at("bootstrap"), 3);
    }

    // A bad resample count: refused naming the file and the entry; nothing opens.
    const QString badFile = directory.filePath(QStringLiteral("bad.cxproj"));
    ASSERT_TRUE(writeAll(badFile, withChromatinResamples(1)));
    {
        ErrorRecorder badErrors;
        MainWindow window;
        showWindow(window);
        window.openPath(badFile);
        ASSERT_TRUE(waitUntil([&] { return !badErrors.messages.isEmpty(); }, 30000));
        const QString message = badErrors.messages.join('\n');
        EXPECT_TRUE(message.contains(QStringLiteral("bad.cxproj")) &&
                    message.contains(QStringLiteral("/workspaces/chromatin/path/bootstrap")) &&
                    message.contains(QStringLiteral("got 1")))
            << message.toStdString();
        EXPECT_FALSE(
            window.workspace<cx::ui::ChromatinWorkspace>()->controller()->data().isValid());
    }
}

} // namespace
