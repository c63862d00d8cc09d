// Entry point of cx_ui_tests: a QApplication (offscreen platform, set by ctest) around
// GoogleTest. Settings go to a throw-away location so tests never see or change the user's.
#include "ui/shell/app_style.h"

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
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
