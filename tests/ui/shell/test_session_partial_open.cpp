// A session with an unreadable section: the other workspaces open when the user asks, the
// unreadable section survives a save, and a save that would not reopen says so at once.
#include "crowd/crowd_test_data.h"
#include "gui_test_helpers.h"

#include "core/session/session.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/crowd/crowd_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace {

using cx::ui::ChromatinWorkspace;
using cx::ui::CrowdWorkspace;
using cx::ui::MainWindow;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

/// A small seeded crowd: `dir`/labels.csv (the gold file beside it is not opened).
QString writeLabels(const QTemporaryDir& dir) {
    cx::ui::test::writeCrowd(dir, 60, 8, 5);
    return dir.filePath(QStringLiteral("labels.csv"));
}

bool crowdSettled(MainWindow& window) {
    const bool settled =
        waitUntil([&] { return window.workspace<CrowdWorkspace>()->isSettled(); }, 60000);
    QTest::qWait(120); // the modified check is coalesced
    return settled;
}

/// Saves a session of the Crowd workspace with `labels` as `file`.
void saveCrowdSession(const QString& labels, const QString& file) {
    MainWindow window;
    window.setSettingsPersistent(false);
    window.workspace<CrowdWorkspace>()->openFiles(labels, QString());
    ASSERT_TRUE(crowdSettled(window));
    ASSERT_TRUE(window.project()->saveTo(file));
}

/// `file`'s sections with `key` set to `section`.
void setSection(const QString& file, const std::string& key, const cx::SessionJson& section) {
    cx::Session session = cx::readSession(file.toStdString());
    session.setSection(key, section);
    cx::writeSession(session, file.toStdString());
}

const cx::SessionJson kUnreadableChromatin = {
    {"tracks", cx::SessionJson::array({{{"path", "gone_binary.txt.gz"}}})}};

} // namespace

TEST(SessionPartialOpen, TheOtherWorkspacesOpenWhenAskedAndTheUnreadableSectionIsKept) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("partial.cxproj"));
    saveCrowdSession(writeLabels(dir), file);
    setSection(file, "chromatin", kUnreadableChromatin);

    ErrorRecorder errors;
    MainWindow window;
    window.setSettingsPersistent(false);
    CrowdWorkspace* crowd = window.workspace<CrowdWorkspace>();
    ChromatinWorkspace* chromatin = window.workspace<ChromatinWorkspace>();
    // Cancel: nothing changes; the question names the section, the entry and the file.
    window.openPath(file);
    ASSERT_EQ(errors.messages.size(), 1);
    EXPECT_TRUE(errors.messages[0].contains(QStringLiteral("partial.cxproj")));
    EXPECT_TRUE(errors.messages[0].contains(QStringLiteral("Chromatin: ")));
    EXPECT_TRUE(errors.messages[0].contains(QStringLiteral("/workspaces/chromatin/tracks/0/path")));
    EXPECT_TRUE(errors.messages[0].contains(QStringLiteral("gone_binary.txt.gz")));
    QTest::qWait(100);
    EXPECT_FALSE(crowd->hasSessionData());
    EXPECT_TRUE(window.project()->filePath().isEmpty());

    // Open the others: the crowd opens, chromatin stays empty, nothing is modified.
    errors.openPartialSessions = true;
    window.openPath(file);
    ASSERT_EQ(errors.messages.size(), 2);
    ASSERT_TRUE(crowdSettled(window));
    EXPECT_TRUE(crowd->hasSessionData());
    EXPECT_FALSE(chromatin->hasSessionData());
    EXPECT_EQ(window.project()->filePath(), QFileInfo(file).absoluteFilePath());
    EXPECT_FALSE(window.project()->isModified());

    // A save writes the unreadable section back as the file had it, and says nothing more.
    crowd->setSeed(11);
    ASSERT_TRUE(crowdSettled(window));
    ASSERT_TRUE(window.project()->saveTo(file));
    EXPECT_EQ(errors.messages.size(), 2) << errors.messages.last().toStdString();
    const cx::Session saved = cx::readSession(file.toStdString());
    ASSERT_TRUE(saved.hasSection("chromatin"));
    EXPECT_EQ(saved.section("chromatin"), kUnreadableChromatin);
    EXPECT_EQ(saved.section("crowd").at("model").at("seed").get<int>(), 11);

    // Every section unreadable: an error, and nothing changes.
    const QString broken = dir.filePath(QStringLiteral("broken.cxproj"));
    cx::Session only;
    only.setSection("chromatin", kUnreadableChromatin);
    cx::writeSession(only, broken.toStdString());
    window.openPath(broken);
    ASSERT_EQ(errors.messages.size(), 3);
    EXPECT_EQ(errors.titles.last(), QStringLiteral("Could not open the session"));
    EXPECT_TRUE(errors.messages.last().contains(QStringLiteral("gone_binary.txt.gz")));
    EXPECT_TRUE(crowd->hasSessionData());
    EXPECT_EQ(window.project()->filePath(), QFileInfo(file).absoluteFilePath());
}

TEST(SessionPartialOpen, ASaveThatWouldNotReopenSaysSoAtOnce) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString labels = writeLabels(dir);
    ErrorRecorder errors;
    MainWindow window;
    window.setSettingsPersistent(false);
    window.workspace<CrowdWorkspace>()->openFiles(labels, QString());
    ASSERT_TRUE(crowdSettled(window));
    const QString file = dir.filePath(QStringLiteral("after.cxproj"));
    ASSERT_TRUE(window.project()->saveTo(file));
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();

    // The labels were deleted after loading: the file is written (nothing is lost) and the
    // save says at once that the session would not reopen as it is, and why.
    ASSERT_TRUE(QFile::remove(labels));
    ASSERT_TRUE(window.project()->saveTo(file));
    ASSERT_EQ(errors.messages.size(), 1);
    EXPECT_EQ(errors.titles[0],
              QStringLiteral("The session was saved, but reading it back failed"));
    EXPECT_TRUE(errors.messages[0].contains(QStringLiteral("Crowd: ")));
    EXPECT_TRUE(errors.messages[0].contains(QStringLiteral("labels.csv")));
    EXPECT_TRUE(cx::readSession(file.toStdString()).hasSection("crowd"));
}
