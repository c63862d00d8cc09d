#pragma once

#include <QMainWindow>

#include <QHash>
#include <QList>
#include <QStringList>

class QLabel;
class QMenu;
class QMimeData;
class QTabWidget;

namespace cx::ui {

class ProjectSession;
class TaskProgressWidget;
class Workspace;

/// The application shell: hosts the workspaces of createWorkspaces (one tab each) and
/// provides what they share: menus (File/View/Help with standard shortcuts), recent files,
/// drag-and-drop, the status bar with one progress/Cancel widget, error dialogs (through
/// ErrorReporter), and window settings.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Adds a workspace tab; the window takes ownership.
    void addWorkspace(Workspace* workspace);
    Workspace* currentWorkspace() const;
    /// The hosted workspace of type `W` (e.g. workspace<TreeWorkspace>()), or nullptr.
    template <typename W> W* workspace() const {
        for (Workspace* hosted : m_workspaces) {
            if (auto* typed = qobject_cast<W*>(hosted)) {
                return typed;
            }
        }
        return nullptr;
    }
    const QList<Workspace*>& workspaces() const { return m_workspaces; }
    /// The workspaces' names for --tab, in tab order ("topics", "chromatin", …).
    QStringList workspaceNames() const;
    /// Makes the workspace titled `title` (case-insensitive, e.g. "chromatin") the current tab.
    /// Returns false when there is none.
    bool setCurrentWorkspace(const QString& title);
    TaskProgressWidget* progressWidget() const { return m_progress; }
    /// What is loaded, for a saved session's title: "Topics: reuters; Tree: tree; …", one entry
    /// per workspace with data, from the titles the workspaces report (empty: nothing loaded).
    QString sessionTitle() const;

    /// Opens the bundled demo session (resources/demo/demo.cxproj: a Topics and a Chromatin
    /// analysis), untitled so that Save asks where. Returns false (after reporting why) when it
    /// cannot be found or read.
    bool openDemo();
    /// Opens a session (.cxproj, or a pre-session analysis .json) as the project, or a data path
    /// in the workspace that reads it best (Workspace::openPreference; the current tab wins ties).
    void openPath(const QString& path);
    /// The open project session (File ▸ New/Open/Save/Save As, modified state).
    ProjectSession* project() const { return m_project; }
    /// Workspace whose session key is `key` ("topics"), or nullptr.
    Workspace* workspaceForKey(const QString& key) const;
    /// Several paths at once (e.g. two chromatin tracks dropped together): opened together by
    /// the Chromatin workspace when they are all its files, else the first one alone.
    void openPaths(const QStringList& paths);

    /// Restores geometry, splitters and last options from QSettings (skipped in screenshot
    /// mode so the image does not depend on the user's settings).
    void restoreSettings();
    /// When false, closing does not write QSettings (screenshot mode, tests).
    void setSettingsPersistent(bool persistent) { m_persistSettings = persistent; }

    /// Every keyboard shortcut of the window and of every workspace (Help ▸ Keyboard
    /// Shortcuts): {where, what, keys}, read from the actions themselves.
    struct ShortcutEntry {
        QString where;
        QString what;
        QString keys;
    };
    QList<ShortcutEntry> shortcuts() const;
    /// The About text (version, the four source papers), shown by Help ▸ About.
    static QString aboutText();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createMenus();
    void rebuildRecentMenu();
    void rebuildWorkspaceMenus();
    void connectWorkspace(Workspace* workspace);
    void updateTitle();
    void showAbout();
    void showShortcuts();
    QStringList droppedPaths(const QMimeData* mime) const;

    QTabWidget* m_tabs = nullptr;
    QList<Workspace*> m_workspaces;
    TaskProgressWidget* m_progress = nullptr;
    Workspace* m_taskOwner = nullptr;
    ProjectSession* m_project = nullptr;
    QMenu* m_fileMenu = nullptr;
    QAction* m_openDemoAction = nullptr; ///< the current workspace's openActions() go before it
    QMenu* m_recentMenu = nullptr;
    QMenu* m_exportMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QHash<const Workspace*, QString> m_documentTitles; ///< per workspace: the title follows the tab
    bool m_persistSettings = true;
};

} // namespace cx::ui
