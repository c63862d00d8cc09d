// Reopening a session whose data moved, through the real dialog: one file
// chooser (titled with the missing file, opened where it was) is the only question, and every
// other path below the moved folder follows the answer.
#include "gui_test_helpers.h"

#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"

#include "core/session/crowd_section.h"
#include "core/session/session.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTimer>

namespace {

using cx::ui::ProjectSession;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

/// A crowd session in ROOT/project naming labels and gold in ROOT/data; the data folder then
/// moved to ROOT/archive.
QString movedCrowdSession(const QDir& root) {
    EXPECT_TRUE(root.mkpath(QStringLiteral("data")) && root.mkpath(QStringLiteral("project")));
    const QString labels = root.filePath(QStringLiteral("data/answer.csv"));
    const QString gold = root.filePath(QStringLiteral("data/truth.csv"));
    EXPECT_TRUE(
        QFile::copy(QStringLiteral(CX_SOURCE_DIR "/resources/demo/crowd/answer.csv"), labels));
    EXPECT_TRUE(QFile::copy(QStringLiteral(CX_SOURCE_DIR "/resources/demo/crowd/truth.csv"), gold));
    const std::filesystem::path file =
        root.filePath(QStringLiteral("project/moved.cxproj")).toStdString();
    cx::CrowdSection section;
    section.labels = labels.toStdString();
    section.gold = gold.toStdString();
    section.method = "mv"; // nothing to wait for once it is open
    cx::Session session;
    session.active = cx::CrowdSection::kKey;
    session.setSection(cx::CrowdSection::kKey, section.toJson(file.parent_path()));
    cx::writeSession(session, file);
    EXPECT_TRUE(QDir(root).rename(QStringLiteral("data"), QStringLiteral("archive")));
    return QString::fromStdString(file.string());
}

/// Puts back the tests' locate handler (tests/ui/main.cpp: moved data is not located) when a test
/// ends, also on a failed assertion, so a later test in the same process never meets a real
/// file dialog nobody answers.
struct NoLocateAfterwards {
    ~NoLocateAfterwards() {
        ProjectSession::setLocateHandler([](const QString&, const QString&) { return QString(); });
    }
};

TEST(SessionMoves, OneFileDialogLocatesEveryMovedFile) {
    const NoLocateAfterwards restore;
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QDir root(directory.path());
    const QString file = movedCrowdSession(root);
    ProjectSession::setLocateHandler({}); // the real dialogs

    // Answers whatever modal dialog comes up: a file chooser gets the moved labels file; any
    // other dialog (a question first) is counted and refused.
    QStringList dialogs;
    QTimer answer;
    answer.setInterval(20);
    QObject::connect(&answer, &QTimer::timeout, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal || !modal->isVisible()) {
            return;
        }
        dialogs << modal->windowTitle();
        if (auto* chooser = qobject_cast<QFileDialog*>(modal)) {
            // It opens in the nearest folder that still exists, the name filled in.
            EXPECT_EQ(QDir(chooser->directory()).absolutePath(), root.absolutePath());
            chooser->selectFile(root.filePath(QStringLiteral("archive/answer.csv")));
            static_cast<QDialog*>(chooser)->accept(); // QFileDialog::accept, public in QDialog
        } else if (auto* dialog = qobject_cast<QDialog*>(modal)) {
            dialog->reject();
        }
    });
    answer.start();
    cx::ui::MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    window.openPath(file);
    answer.stop();
    auto* crowd = window.workspace<cx::ui::CrowdWorkspace>();
    ASSERT_EQ(dialogs.size(), 1) << dialogs.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(dialogs.front().contains(QStringLiteral("answer.csv")));
    EXPECT_LE(dialogs.front().size(), 40); // short: a window manager would cut it
    // The gold file, in the same moved folder, followed without a second question.
    ASSERT_TRUE(waitUntil(
        [&] { return crowd->isSettled() && !crowd->controller()->labelsPath().isEmpty(); }, 30000))
        << errors.messages.join('\n').toStdString();
    EXPECT_EQ(crowd->controller()->labelsPath(),
              root.filePath(QStringLiteral("archive/answer.csv")));
    EXPECT_EQ(crowd->controller()->goldPath(), root.filePath(QStringLiteral("archive/truth.csv")));
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

TEST(SessionMoves, CancellingTheDialogOpensNothingAndSaysWhatIsMissing) {
    const NoLocateAfterwards restore;
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString file = movedCrowdSession(QDir(directory.path()));
    ProjectSession::setLocateHandler([](const QString&, const QString&) { return QString(); });
    cx::ui::MainWindow window;
    window.setSettingsPersistent(false);
    window.openPath(file);
    ASSERT_EQ(errors.messages.size(), 1);
    EXPECT_TRUE(errors.messages.front().contains(QStringLiteral("data/answer.csv")))
        << errors.messages.front().toStdString();
    EXPECT_TRUE(errors.messages.front().contains(QStringLiteral("/workspaces/crowd/labels")));
    EXPECT_TRUE(window.workspace<cx::ui::CrowdWorkspace>()->controller()->labelsPath().isEmpty());
}

} // namespace
