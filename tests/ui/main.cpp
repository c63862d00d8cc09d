// Entry point of cx_ui_tests: a QApplication (offscreen platform, set by ctest) around
// GoogleTest. Settings go to a throw-away folder of this process, so tests never see or change the
// user's, nor each other's when ctest runs them in parallel (a recent-files list shared between
// processes once failed a test that another test's save had written to).
#include "ui/shell/app_style.h"
#include "ui/shell/project_session.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QStandardPaths::setTestModeEnabled(true);
    const QTemporaryDir settings;
    if (!settings.isValid()) {
        return 2;
    }
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
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
