#pragma once

// Shared steps of the main-window journeys: a real MainWindow, shown offscreen; the demo session
// (whole, or only some of its workspaces, to keep a journey short); waiting for work to settle;
// what a tab or a marker shows.

#include "gui_test_helpers.h"

#include "ui/framework/workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/resource_locator.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_workspace.h"

#include <gtest/gtest.h>

#include <QDoubleSpinBox>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cmath>
#include <limits>

namespace cx::ui::journeys {

using test::demoSubset;
using test::ErrorRecorder;
using test::everyWorkspaceSettled;
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
    return waitUntil([&] { return everyWorkspaceSettled(window); }, timeoutMs);
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

/// Moves the Topics tab of the open demo through its γ grid (0.25, 0.5, …, 10) the way a user
/// types into the γ box, until the shown solution has an inadmissible foreground-specific topic
/// (ω > 1: K is larger than the data support there); returns that γ, or NaN when no γ has one.
/// Where such a topic appears moves with the decomposition's rounding (a noise component at
/// high γ; the range finder's summation order alone moved it from γ = 6.5 to 4.75), so tests of
/// what the views do with one search for it rather than fix a γ.
inline double showInadmissibleForegroundTopic(TopicsWorkspace* topics) {
    const TopicWordsModel* model = topics->tablePanel()->model();
    for (int step = 1; step <= 40; ++step) {
        const double gamma = 0.25 * step;
        topics->analysisPanel()->gammaSpin()->setValue(gamma);
        const bool settled = waitUntil(
            [&] {
                return topics->isSettled() && model->solution().isValid() &&
                       std::abs(model->solution().gamma - gamma) < 1e-12;
            },
            60000);
        if (!settled) {
            break;
        }
        if (model->admissibility().inadmissibleForeground > 0) {
            return gamma;
        }
    }
    return std::numeric_limits<double>::quiet_NaN();
}

} // namespace cx::ui::journeys
