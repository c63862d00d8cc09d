#pragma once

// Shared steps of the main-window journeys: a real MainWindow, shown offscreen; the demo session
// (whole, or only some of its workspaces, to keep a journey short); waiting for work to settle;
// what a tab or a marker shows.

#include "gui_test_helpers.h"

#include "ui/framework/workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/resource_locator.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTemporaryDir>

namespace cx::ui::journeys {

using test::demoSubset;
using test::ErrorRecorder;
using test::waitUntil;

/// Bundled data other than the demo's, for "replace the data" steps.
inline QString testData(const QString& relative) {
    return QStringLiteral(CX_TEST_DATA_DIR "/") + relative;
}

/// A shown main window that writes no settings, at the size the journeys use.
struct JourneyWindow {
    ErrorRecorder errors;
    MainWindow window;

    JourneyWindow() {
        window.setSettingsPersistent(false);
        window.resize(1280, 800);
        window.show();
    }
    template <typename W> W* workspace() const { return window.workspace<W>(); }
    QString errorText() const { return errors.messages.join(QLatin1Char('\n')); }
};

/// Waits (processing events) until every workspace of the window that has data is settled.
inline bool settleAll(const MainWindow& window, int timeoutMs = 60000) {
    return waitUntil(
        [&] {
            for (const Workspace* workspace : window.workspaces()) {
                if (workspace->hasSessionData() && !workspace->isSettled()) {
                    return false;
                }
            }
            return true;
        },
        timeoutMs);
}

/// The text of the tab holding `page` in `tabs` (empty when it is not there).
inline QString tabText(const QTabWidget* tabs, const QWidget* page) {
    const int index = tabs->indexOf(const_cast<QWidget*>(page));
    return index < 0 ? QString() : tabs->tabText(index);
}

/// A saved session's JSON.
inline QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace cx::ui::journeys
