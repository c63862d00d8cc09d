#pragma once

#include <QMainWindow>

#include <QList>

class QLabel;
class QMenu;
class QMimeData;
class QTabWidget;

namespace cx::ui {

class TaskProgressWidget;
class TopicsWorkspace;
class Workspace;

/// The application shell: hosts workspaces (one tab each: "Topics" now, "Chromatin" later) and
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
    TopicsWorkspace* topicsWorkspace() const { return m_topics; }
    TaskProgressWidget* progressWidget() const { return m_progress; }

    /// Opens the bundled demo session (resources/demo/demo.json). Returns false (after
    /// reporting why) when it cannot be found or read.
    bool openDemo();
    /// Opens a data path in the workspace that reads it.
    void openPath(const QString& path);

    /// Restores geometry, splitters and last options from QSettings (skipped in screenshot
    /// mode so the image does not depend on the user's settings).
    void restoreSettings();
    /// When false, closing does not write QSettings (screenshot mode, tests).
    void setSettingsPersistent(bool persistent) { m_persistSettings = persistent; }

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
    QStringList droppedPaths(const QMimeData* mime) const;

    QTabWidget* m_tabs = nullptr;
    QList<Workspace*> m_workspaces;
    TopicsWorkspace* m_topics = nullptr;
    TaskProgressWidget* m_progress = nullptr;
    Workspace* m_taskOwner = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_exportMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QString m_documentTitle;
    bool m_persistSettings = true;
};

} // namespace cx::ui
