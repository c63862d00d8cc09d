// A desktop program: About names the version and the papers, Help ▸ Keyboard
// Shortcuts lists every shortcut, the window fits 1024×700 on every tab, every parameter has a
// tooltip, and window geometry and splitters come back after a restart.
#include "gui_test_helpers.h"

#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/framework/workspace.h"
#include "ui/shell/main_window.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"

#include <gtest/gtest.h>

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QMap>
#include <QMenuBar>
#include <QRadioButton>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>

#include <algorithm>

using cx::ui::MainWindow;
using cx::ui::Workspace;

namespace {

QList<Workspace*> workspacesOf(const MainWindow& window) {
    QList<Workspace*> out;
    const auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("workspaceTabs"));
    for (int i = 0; tabs && i < tabs->count(); ++i) {
        if (auto* workspace = qobject_cast<Workspace*>(tabs->widget(i))) {
            out << workspace;
        }
    }
    return out;
}

/// A widget's own tooltip, or that of the widget it is part of (a spin box's line edit).
bool hasTooltip(const QWidget* widget) {
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        if (!w->toolTip().trimmed().isEmpty()) {
            return true;
        }
        if (!qobject_cast<const QAbstractSpinBox*>(w->parentWidget()) &&
            !qobject_cast<const QComboBox*>(w->parentWidget())) {
            return false;
        }
    }
    return false;
}

/// What names a widget in a failure message: its object name, class and nearby text.
QString describe(const QWidget* widget) {
    QString text = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty()) {
        text += QStringLiteral(" '") + widget->objectName() + QLatin1Char('\'');
    }
    if (const auto* box = qobject_cast<const QCheckBox*>(widget)) {
        text += QStringLiteral(" \"") + box->text() + QLatin1Char('"');
    } else if (const auto* radio = qobject_cast<const QRadioButton*>(widget)) {
        text += QStringLiteral(" \"") + radio->text() + QLatin1Char('"');
    } else if (const auto* edit = qobject_cast<const QLineEdit*>(widget)) {
        text += QStringLiteral(" placeholder \"") + edit->placeholderText() + QLatin1Char('"');
    }
    return text;
}

} // namespace

TEST(DesktopProgram, AboutNamesTheVersionAndTheFourPapers) {
    const QString about = MainWindow::aboutText();
    EXPECT_TRUE(about.contains(QApplication::applicationVersion()));
    for (const char* title :
         {"Contrastive Learning Using Spectral Methods", "Comparative Epigenomics", "Jennrich",
          "Stagewise Learning for Sparse Clustering"}) {
        EXPECT_TRUE(about.contains(QString::fromUtf8(title))) << title;
    }
}

TEST(DesktopProgram, KeyboardShortcutsListEveryShortcutOfTheMenusAndWorkspaces) {
    MainWindow window;
    window.setSettingsPersistent(false);
    const QList<MainWindow::ShortcutEntry> entries = window.shortcuts();
    auto listed = [&](const QKeySequence& keys) {
        const QString text = keys.toString(QKeySequence::NativeText);
        return std::any_of(entries.begin(), entries.end(),
                           [&](const MainWindow::ShortcutEntry& e) { return e.keys == text; });
    };
    for (const QKeySequence& keys :
         {QKeySequence(QKeySequence::New), QKeySequence(QKeySequence::Open),
          QKeySequence(QKeySequence::Save), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
          QKeySequence(Qt::CTRL | Qt::Key_Q), QKeySequence(Qt::Key_F1),
          QKeySequence(Qt::Key_Escape)}) {
        EXPECT_TRUE(listed(keys)) << keys.toString().toStdString();
    }
    // Every action reachable from the window with a shortcut is listed, whichever tab is shown.
    for (const Workspace* workspace : workspacesOf(window)) {
        for (const QAction* action : workspace->exportActions() + workspace->viewActions()) {
            if (!action->shortcut().isEmpty()) {
                EXPECT_TRUE(listed(action->shortcut()))
                    << workspace->title().toStdString() << ": " << action->text().toStdString();
            }
        }
    }
    for (const QAction* menu : window.menuBar()->actions()) {
        for (const QAction* action : menu->menu()->actions()) {
            if (!action->shortcut().isEmpty()) {
                EXPECT_TRUE(listed(action->shortcut())) << action->text().toStdString();
            }
        }
    }
}

/// Every tab of `window` fits 1024×700; on failure, names the widgets that ask for the space.
static void expectEveryTabFits1024x700(MainWindow& window) {
    for (Workspace* workspace : workspacesOf(window)) {
        ASSERT_TRUE(window.setCurrentWorkspace(workspace->title()));
        window.resize(1024, 700);
        QApplication::processEvents();
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        EXPECT_LE(minimum.width(), 1024) << workspace->title().toStdString();
        EXPECT_LE(minimum.height(), 700) << workspace->title().toStdString();
        EXPECT_EQ(window.width(), 1024) << workspace->title().toStdString();
        EXPECT_EQ(window.height(), 700) << workspace->title().toStdString();
        // What asks for the space, when it does not fit.
        if (minimum.height() > 700 || minimum.width() > 1024) {
            for (const QWidget* child : workspace->findChildren<QWidget*>()) {
                const QSize hint = child->minimumSizeHint().expandedTo(child->minimumSize());
                if (hint.height() > 250 || hint.width() > 500) {
                    ADD_FAILURE() << describe(child).toStdString() << " needs " << hint.width()
                                  << "×" << hint.height();
                }
            }
        }
    }
}

TEST(DesktopProgram, EveryTabFits1024x700) {
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    expectEveryTabFits1024x700(window);
}

// With the demo's data and results shown (names, legends and tables filled in).
TEST(DesktopProgram, EveryTabFits1024x700WithTheDemoOpen) {
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    ASSERT_TRUE(window.openDemo());
    ASSERT_TRUE(cx::ui::test::waitUntil(
        [&] {
            return window.workspace<cx::ui::TopicsWorkspace>()->isSettled() &&
                   window.workspace<cx::ui::TopicsWorkspace>()
                       ->controller()
                       ->solution()
                       .isValid() &&
                   window.workspace<cx::ui::ChromatinWorkspace>()->isSettled() &&
                   window.workspace<cx::ui::ChromatinWorkspace>()->controller()->segmentation();
        },
        90000));
    expectEveryTabFits1024x700(window);
}

TEST(DesktopProgram, EveryParameterHasATooltip) {
    MainWindow window;
    window.setSettingsPersistent(false);
    for (Workspace* workspace : workspacesOf(window)) {
        QStringList missing;
        for (QWidget* widget : workspace->findChildren<QWidget*>()) {
            const bool parameter =
                qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QComboBox*>(widget) ||
                qobject_cast<QCheckBox*>(widget) || qobject_cast<QRadioButton*>(widget) ||
                qobject_cast<QAbstractSlider*>(widget) ||
                (qobject_cast<QLineEdit*>(widget) && !widget->property("readOnly").toBool());
            // Scroll bars are sliders of their scroll area, not parameters; a spin box's or
            // combo box's own line edit is checked as part of its box.
            if (!parameter || widget->inherits("QScrollBar") ||
                qobject_cast<QAbstractSpinBox*>(widget->parentWidget()) ||
                qobject_cast<QComboBox*>(widget->parentWidget())) {
                continue;
            }
            if (!hasTooltip(widget)) {
                missing << describe(widget);
            }
        }
        EXPECT_TRUE(missing.isEmpty()) << workspace->title().toStdString() << ": "
                                       << missing.join(QStringLiteral("; ")).toStdString();
    }
}

TEST(DesktopProgram, GeometryAndSplittersComeBackAfterARestart) {
    QSettings().clear();
    // Per tab: the index of its first visible two-pane splitter and the sizes it was given.
    QMap<QString, QPair<int, QList<int>>> expected;
    {
        MainWindow window;
        window.show();
        window.resize(1100, 760);
        for (Workspace* workspace : workspacesOf(window)) {
            ASSERT_TRUE(window.setCurrentWorkspace(workspace->title()));
            QApplication::processEvents();
            const QList<QSplitter*> splitters = workspace->findChildren<QSplitter*>();
            for (int i = 0; i < splitters.size(); ++i) {
                QSplitter* splitter = splitters[i];
                if (splitter->count() < 2 || !splitter->isVisible() || splitter->sizes()[1] < 80) {
                    continue;
                }
                QList<int> changed = splitter->sizes();
                changed[0] += 37;
                changed[1] -= 37;
                splitter->setSizes(changed);
                expected[workspace->title()] = {i, splitter->sizes()};
                break;
            }
        }
        window.close();
    }
    EXPECT_FALSE(expected.isEmpty());
    MainWindow again;
    again.restoreSettings();
    again.show();
    QApplication::processEvents();
    EXPECT_EQ(again.size(), QSize(1100, 760));
    for (Workspace* workspace : workspacesOf(again)) {
        if (!expected.contains(workspace->title())) {
            continue;
        }
        ASSERT_TRUE(again.setCurrentWorkspace(workspace->title()));
        QApplication::processEvents();
        const auto [index, sizes] = expected.value(workspace->title());
        const QList<QSplitter*> splitters = workspace->findChildren<QSplitter*>();
        ASSERT_LT(index, splitters.size());
        EXPECT_EQ(splitters[index]->sizes(), sizes) << workspace->title().toStdString();
    }
    again.setSettingsPersistent(false);
    again.close();
    QSettings().clear();
}
