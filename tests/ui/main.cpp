// Entry point of cx_ui_tests: a QApplication (offscreen platform, set by ctest) around
// GoogleTest. Settings go to a throw-away location so tests never see or change the user's.
#include "ui/shell/app_style.h"
#include "ui/shell/project_session.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QStandardPaths>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QStandardPaths::setTestModeEnabled(true);
    QApplication application(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("ContrastExplorerTests"));
    QCoreApplication::setApplicationName(QStringLiteral("cx_ui_tests"));
    cx::ui::applyApplicationStyle(application);
    // No test may block on a modal question: unsaved changes are discarded and moved data is
    // not located unless a test installs its own answers.
    cx::ui::ProjectSession::setPromptHandler(
        [](const QString&) { return cx::ui::ProjectSession::Choice::Discard; });
    cx::ui::ProjectSession::setLocateHandler(
        [](const QString&, const QString&) { return QString(); });
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
