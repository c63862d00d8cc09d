// Seeded random user actions over the four workspaces of one real MainWindow:
// open bundled data, move sliders and spin boxes, pick combo entries, tick boxes, press buttons,
// switch tabs, cancel, save and reopen the session in a temporary folder, open the demo. No action
// may crash or trip a sanitizer (the `asan` preset runs this), and once work settles the window
// must show what its loaded inputs compute: every table of every workspace equals the table a
// fresh window shows after reopening the same session.
//
// CX_RANDOM_ACTIONS (default 40 in CI) sets the number of actions, CX_RANDOM_SEED (default 1) the
// seed, CX_RANDOM_VERBOSE=1 prints each action as it runs; the ctest `RandomActions.Long` (label
// `long`) runs 5,000.
#include "gui_test_helpers.h"

#include "ui/framework/provenance.h"
#include "ui/framework/workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"
#include "ui/shell/resource_locator.h"

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QMenu>
#include <QPushButton>
#include <QSet>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>

#include <cstdio>
#include <random>

using cx::ui::MainWindow;
using cx::ui::Workspace;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

namespace {

int environmentInt(const char* name, int fallback) {
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok ? value : fallback;
}

QString sourcePath(const QString& relative) {
    return QDir(QStringLiteral(CX_SOURCE_DIR)).filePath(relative);
}

/// Bundled data sets a user might open, one entry per data set (several files open together).
QList<QStringList> bundledDataSets() {
    return {
        {sourcePath(QStringLiteral("tests/data/hmm/GM12878_chr11_slice.txt.gz")),
         sourcePath(QStringLiteral("tests/data/hmm/K562_chr11_slice.txt.gz"))},
        {sourcePath(QStringLiteral("tests/data/tree"))},
        {sourcePath(QStringLiteral("tests/data/crowd/labels_strings.csv")),
         sourcePath(QStringLiteral("tests/data/crowd/gold_strings.csv"))},
        {sourcePath(QStringLiteral("resources/demo/crowd/answer.csv")),
         sourcePath(QStringLiteral("resources/demo/crowd/truth.csv"))},
        {sourcePath(QStringLiteral("tests/data/corpus/labelled.csv"))},
    };
}

/// Closes any modal dialog or popup menu a pressed button opened (file pickers, confirmations),
/// as a user pressing Escape would: the test drives the window, never a dialog.
class DialogCloser {
public:
    DialogCloser() {
        m_timer.setInterval(30);
        QObject::connect(&m_timer, &QTimer::timeout, [] {
            if (QWidget* popup = QApplication::activePopupWidget()) {
                popup->close();
            }
            if (QWidget* modal = QApplication::activeModalWidget()) {
                if (auto* dialog = qobject_cast<QDialog*>(modal)) {
                    dialog->reject();
                } else {
                    modal->close();
                }
            }
        });
        m_timer.start();
    }

private:
    QTimer m_timer;
};

template <typename W> QList<W*> usable(QWidget* root) {
    QList<W*> found;
    for (W* widget : root->findChildren<W*>()) {
        if (widget->isEnabled() && widget->isVisibleTo(root->window())) {
            found << widget;
        }
    }
    return found;
}

/// A button a user may press without leaving the window: not one that opens a file dialog
/// ("Open…"), not a menu button.
bool pressable(QAbstractButton* button) {
    const QString text = button->text();
    if (text.isEmpty() || text.contains(QChar(0x2026)) || text.contains(QStringLiteral("..."))) {
        return false;
    }
    if (auto* tool = qobject_cast<QToolButton*>(button); tool && tool->menu()) {
        return false;
    }
    return qobject_cast<QCheckBox*>(button) == nullptr;
}

/// Watches the workspaces' task signals: work has settled when every workspace with data is
/// settled (it computed and shows a result) or, for one that has nothing to compute yet (a corpus
/// with no foreground chosen), when no task of it runs and none has reported for a while.
class WorkWatcher {
public:
    explicit WorkWatcher(const MainWindow& window) : m_window(window) {
        for (Workspace* workspace : window.workspaces()) {
            auto touch = [this, workspace] { m_lastSignal[workspace].restart(); };
            m_lastSignal[workspace].start();
            QObject::connect(workspace, &Workspace::taskStarted, workspace,
                             [this, workspace, touch] {
                                 ++m_running[workspace];
                                 touch();
                             });
            QObject::connect(workspace, &Workspace::taskFinished, workspace,
                             [this, workspace, touch] {
                                 m_running[workspace] = std::max(0, m_running[workspace] - 1);
                                 touch();
                             });
            QObject::connect(workspace, &Workspace::taskProgress, workspace, touch);
            QObject::connect(workspace, &Workspace::settledChanged, workspace, touch);
        }
    }

    bool settled() const {
        for (Workspace* workspace : m_window.workspaces()) {
            if (!workspace->hasSessionData() || workspace->isSettled()) {
                continue;
            }
            if (m_running.value(workspace) > 0 || m_lastSignal.value(workspace).elapsed() < 5000) {
                return false;
            }
        }
        return true;
    }

private:
    const MainWindow& m_window;
    QHash<const Workspace*, int> m_running;
    QHash<const Workspace*, QElapsedTimer> m_lastSignal;
};

/// `tsv` without the columns whose header is in `dropped` (wall-clock times differ between runs).
QString withoutColumns(const QString& tsv, const QStringList& dropped) {
    QStringList lines = tsv.split(QLatin1Char('\n'));
    if (lines.isEmpty()) {
        return tsv;
    }
    const QStringList header = lines.front().split(QLatin1Char('\t'));
    QList<int> keep;
    for (int column = 0; column < header.size(); ++column) {
        if (!dropped.contains(header[column])) {
            keep << column;
        }
    }
    for (QString& line : lines) {
        const QStringList cells = line.split(QLatin1Char('\t'));
        QStringList kept;
        for (int column : keep) {
            kept << cells.value(column);
        }
        line = kept.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

/// Whether a workspace marks its shown results as no longer from the loaded inputs (a
/// StaleMarker up: "Results below: not from the inputs loaded now. Changed: …").
bool marksStale(const Workspace* workspace) {
    for (const cx::ui::StaleMarker* marker : workspace->findChildren<cx::ui::StaleMarker*>()) {
        if (marker->isStale()) {
            return true;
        }
    }
    return false;
}

/// Every table of every workspace that has data and does not mark its results stale, keyed
/// "workspace/table".
QMap<QString, QString> visibleTables(const MainWindow& window) {
    QMap<QString, QString> tables;
    for (Workspace* workspace : window.workspaces()) {
        if (!workspace->hasSessionData() || marksStale(workspace)) {
            continue;
        }
        for (const cx::ui::WorkspaceTable& table : workspace->tables()) {
            tables.insert(workspace->sessionKey() + QLatin1Char('/') + table.name,
                          withoutColumns(table.tsv(), {QStringLiteral("Time (ms)")}));
        }
    }
    return tables;
}

/// Whether every line of `part` is a line of `whole`: a method comparison the user stopped
/// (marked "Stopped after N methods") shows some of the rows a complete one shows.
bool rowsContained(const QString& part, const QString& whole) {
    const QStringList lines = whole.split(QLatin1Char('\n'));
    for (const QString& line : part.split(QLatin1Char('\n'))) {
        if (!lines.contains(line)) {
            return false;
        }
    }
    return true;
}

/// What each workspace of `window` shows, for a failure's log: data, settled, stale markers.
std::string describeWorkspaces(const MainWindow& window) {
    QStringList out;
    for (Workspace* workspace : window.workspaces()) {
        QString line = QStringLiteral("%1: data %2, settled %3, %4 tables")
                           .arg(workspace->sessionKey())
                           .arg(workspace->hasSessionData())
                           .arg(workspace->isSettled())
                           .arg(workspace->tables().size());
        for (const cx::ui::StaleMarker* marker : workspace->findChildren<cx::ui::StaleMarker*>()) {
            if (marker->isStale()) {
                line += QStringLiteral("; ") + marker->text();
            }
        }
        out << line;
    }
    return out.join(QLatin1Char('\n')).toStdString();
}

class RandomUser {
public:
    RandomUser(MainWindow& window, const WorkWatcher& watcher, std::uint64_t seed,
               const QString& folder)
        : m_window(window), m_watcher(watcher), m_random(seed), m_folder(folder),
          m_dataSets(bundledDataSets()) {}

    /// Performs one action and returns what it was (for the failure log).
    QString act() {
        const int kind = pick(100);
        if (kind < 10) {
            const QStringList names = m_window.workspaceNames();
            const QString name = names[pick(int(names.size()))];
            m_window.setCurrentWorkspace(name);
            return QStringLiteral("tab ") + name;
        }
        if (kind < 18) {
            const QStringList& set = m_dataSets[pick(int(m_dataSets.size()))];
            if (set.size() == 1) {
                m_window.openPath(set.front());
            } else {
                m_window.openPaths(set);
            }
            return QStringLiteral("open ") + set.join(QStringLiteral(", "));
        }
        if (kind < 20) {
            m_window.openDemo();
            return QStringLiteral("open demo");
        }
        if (kind < 24) {
            m_window.currentWorkspace()->cancelTask();
            return QStringLiteral("cancel");
        }
        if (kind < 27) {
            return saveAndReopen();
        }
        if (kind < 30) {
            return QStringLiteral("wait: ") + (waitUntil([&] { return m_watcher.settled(); }, 60000)
                                                   ? QStringLiteral("settled")
                                                   : QStringLiteral("busy"));
        }
        QWidget* root = m_window.currentWorkspace();
        if (kind < 40) {
            return flipInnerTab(root);
        }
        if (kind < 60) {
            return moveSliderOrSpin(root);
        }
        if (kind < 70) {
            return chooseCombo(root);
        }
        if (kind < 78) {
            auto boxes = usable<QCheckBox>(root);
            if (boxes.isEmpty()) {
                return QStringLiteral("no check box");
            }
            QCheckBox* box = boxes[pick(int(boxes.size()))];
            box->click();
            return QStringLiteral("tick ") + box->text();
        }
        QList<QAbstractButton*> buttons;
        for (QAbstractButton* button : usable<QAbstractButton>(root)) {
            if (pressable(button)) {
                buttons << button;
            }
        }
        if (buttons.isEmpty()) {
            return QStringLiteral("no button");
        }
        QAbstractButton* button = buttons[pick(int(buttons.size()))];
        const QString text = button->text();
        button->click();
        return QStringLiteral("press ") + text;
    }

    /// Lets the event loop turn for a random short while, as between two clicks.
    void pause() {
        const int milliseconds = pick(4) == 0 ? 200 : pick(40);
        QElapsedTimer timer;
        timer.start();
        do {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        } while (timer.elapsed() < milliseconds);
    }

private:
    int pick(int count) { return std::uniform_int_distribution<int>(0, count - 1)(m_random); }

    QString flipInnerTab(QWidget* root) {
        auto tabs = usable<QTabWidget>(root);
        if (tabs.isEmpty()) {
            return QStringLiteral("no inner tab");
        }
        QTabWidget* widget = tabs[pick(int(tabs.size()))];
        const int index = pick(widget->count());
        if (widget->isTabEnabled(index)) {
            widget->setCurrentIndex(index);
        }
        return QStringLiteral("inner tab ") + widget->tabText(index);
    }

    QString moveSliderOrSpin(QWidget* root) {
        auto sliders = usable<QSlider>(root);
        auto spins = usable<QSpinBox>(root);
        auto doubles = usable<QDoubleSpinBox>(root);
        const int total = int(sliders.size() + spins.size() + doubles.size());
        if (total == 0) {
            return QStringLiteral("no slider");
        }
        int index = pick(total);
        if (index < sliders.size()) {
            QSlider* slider = sliders[index];
            slider->setValue(slider->minimum() + pick(slider->maximum() - slider->minimum() + 1));
            return QStringLiteral("slider %1 = %2").arg(slider->objectName()).arg(slider->value());
        }
        index -= int(sliders.size());
        if (index < spins.size()) {
            QSpinBox* spin = spins[index];
            // Mostly small steps, as a user clicking the arrows; sometimes any value in range.
            const int value =
                pick(3) == 0
                    ? spin->minimum() + pick(std::min(spin->maximum() - spin->minimum(), 1000) + 1)
                    : spin->value() + (pick(2) == 0 ? -1 : 1) * spin->singleStep();
            spin->setValue(value);
            spin->editingFinished();
            return QStringLiteral("spin %1 = %2").arg(spin->objectName()).arg(spin->value());
        }
        index -= int(spins.size());
        QDoubleSpinBox* spin = doubles[index];
        const double step = spin->singleStep() * (1 + pick(5));
        spin->setValue(spin->value() + (pick(2) == 0 ? -step : step));
        spin->editingFinished();
        return QStringLiteral("spin %1 = %2").arg(spin->objectName()).arg(spin->value());
    }

    QString chooseCombo(QWidget* root) {
        auto combos = usable<QComboBox>(root);
        if (combos.isEmpty()) {
            return QStringLiteral("no combo");
        }
        QComboBox* combo = combos[pick(int(combos.size()))];
        if (combo->count() == 0) {
            return QStringLiteral("empty combo");
        }
        combo->setCurrentIndex(pick(combo->count()));
        return QStringLiteral("combo %1 = %2").arg(combo->objectName(), combo->currentText());
    }

    QString saveAndReopen() {
        bool anything = false;
        for (Workspace* workspace : m_window.workspaces()) {
            anything = anything || workspace->hasSessionData();
        }
        if (!anything) {
            return QStringLiteral("nothing to save");
        }
        const QString path =
            QDir(m_folder).filePath(QStringLiteral("session-%1.cxproj").arg(++m_saves));
        const bool saved = m_window.project()->saveTo(path);
        const bool opened = saved && m_window.project()->open(path);
        return QStringLiteral("save %1 (%2), reopen (%3)")
            .arg(path, saved ? QStringLiteral("ok") : QStringLiteral("refused"),
                 opened ? QStringLiteral("ok") : QStringLiteral("refused"));
    }

    MainWindow& m_window;
    const WorkWatcher& m_watcher;
    std::mt19937_64 m_random;
    QString m_folder;
    QList<QStringList> m_dataSets;
    int m_saves = 0;
};

} // namespace

TEST(RandomActions, SeededUserActionsNeverCrashAndSettleOnWhatIsLoaded) {
    const int actions = environmentInt("CX_RANDOM_ACTIONS", 40);
    const auto seed = std::uint64_t(environmentInt("CX_RANDOM_SEED", 1));
    const bool verbose = environmentInt("CX_RANDOM_VERBOSE", 0) != 0; // each action as it runs
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    ErrorRecorder errors; // bad parameter values may be refused with a message; never a crash
    DialogCloser closer;

    MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1280, 800);
    window.show();
    const WorkWatcher watcher(window);
    RandomUser user(window, watcher, seed, folder.path());
    QStringList log;
    for (int step = 0; step < actions; ++step) {
        const qsizetype reported = errors.messages.size();
        log << QStringLiteral("%1: %2").arg(step).arg(user.act());
        if (verbose) {
            std::fprintf(stderr, "%s\n", qPrintable(log.back()));
            for (qsizetype e = reported; e < errors.messages.size(); ++e) { // what it was told
                std::fprintf(stderr, "    %s: %s\n", qPrintable(errors.titles[e]),
                             qPrintable(errors.messages[e]));
            }
        }
        user.pause();
    }
    const QString trail = log.mid(std::max<qsizetype>(0, log.size() - 30)).join(QLatin1Char('\n'));
    ASSERT_TRUE(waitUntil([&] { return watcher.settled(); }, 180000))
        << "work did not settle after the actions:\n"
        << describeWorkspaces(window) << "\nlast actions:\n"
        << trail.toStdString();

    // What the window shows equals what a fresh window computes from the same inputs.
    bool anything = false;
    for (Workspace* workspace : window.workspaces()) {
        anything = anything || workspace->hasSessionData();
    }
    if (!anything) {
        GTEST_SKIP() << "the seed left no data open";
    }
    const QString path = folder.filePath(QStringLiteral("final.cxproj"));
    ASSERT_TRUE(window.project()->saveTo(path))
        << errors.messages.join(QLatin1Char('\n')).toStdString();
    const QMap<QString, QString> shown = visibleTables(window);

    MainWindow fresh;
    fresh.setSettingsPersistent(false);
    fresh.resize(1280, 800);
    fresh.show();
    const WorkWatcher freshWatcher(fresh);
    ASSERT_TRUE(fresh.project()->open(path))
        << errors.messages.join(QLatin1Char('\n')).toStdString() << "\nlast actions:\n"
        << trail.toStdString();
    ASSERT_TRUE(waitUntil([&] { return freshWatcher.settled(); }, 180000))
        << "the reopened session did not settle:\n"
        << describeWorkspaces(fresh);
    const QMap<QString, QString> recomputed = visibleTables(fresh);
    // A workspace whose results are marked stale is not compared: the marker says they are not
    // from what is loaded (the fresh window computes from what is loaded). Any other workspace
    // shows what the fresh window shows, no table more or less.
    QSet<QString> marked;
    for (const Workspace* workspace : window.workspaces()) {
        if (workspace->hasSessionData() && marksStale(workspace)) {
            marked.insert(workspace->sessionKey());
        }
    }
    QMap<QString, QString> comparable;
    for (auto it = recomputed.cbegin(); it != recomputed.cend(); ++it) {
        if (!marked.contains(it.key().section(QLatin1Char('/'), 0, 0))) {
            comparable.insert(it.key(), it.value());
        }
    }
    EXPECT_EQ(QStringList(shown.keys()).join(QLatin1Char(' ')).toStdString(),
              QStringList(comparable.keys()).join(QLatin1Char(' ')).toStdString())
        << "window:\n"
        << describeWorkspaces(window) << "\nreopened:\n"
        << describeWorkspaces(fresh) << "\nlast actions:\n"
        << trail.toStdString();
    for (auto it = shown.cbegin(); it != shown.cend(); ++it) {
        // A stopped comparison (and the disagreements between the methods it ran) is marked as
        // such; reopening runs the comparison to the end.
        if (it.key() == QStringLiteral("crowd/comparison") &&
            rowsContained(it.value(), recomputed.value(it.key()))) {
            continue;
        }
        if (it.key() == QStringLiteral("crowd/disagreements") &&
            it.value().section(QLatin1Char('\n'), 0, 0) !=
                recomputed.value(it.key()).section(QLatin1Char('\n'), 0, 0)) {
            continue;
        }
        EXPECT_EQ(it.value().toStdString(), recomputed.value(it.key()).toStdString())
            << "table " << it.key().toStdString()
            << " differs from a fresh computation; last actions:\n"
            << trail.toStdString();
    }
}
