#pragma once

#include <QIcon>
#include <QList>
#include <QString>
#include <QWidget>

class QAction;
class QMenu;

namespace cx::ui {

/// One analysis mode hosted by the main window shell (Topics, Chromatin). The
/// shell owns the menus, status bar, progress/cancel UI, recent files, drag-and-drop and window
/// settings; a workspace owns its panels, views and background controller and tells the shell
/// about its work through the signals below.
class Workspace : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    /// Tab title, e.g. "Topics".
    virtual QString title() const = 0;
    virtual QIcon icon() const { return {}; }
    /// Whether a dropped or recent path is data this workspace reads (used to route drops).
    virtual bool canOpen(const QString& path) const = 0;
    /// How strongly this workspace wants `path` when several can open it: 0 = cannot, 1 = a
    /// generic reader (e.g. any .txt), 2 = the file's own format (e.g. a ChromHMM binarized
    /// track). The shell routes drops and recent files to the highest (ties: the current tab).
    virtual int openPreference(const QString& path) const { return canOpen(path) ? 1 : 0; }
    /// Opens a data file or folder (asynchronously; errors go through ErrorReporter).
    virtual void openPath(const QString& path) = 0;
    /// File ▸ Open… for this workspace (its own dialog with format options).
    virtual void openInteractive() = 0;
    /// Opens this workspace's part of the bundled demo. Returns false (after reporting why)
    /// when it cannot; workspaces without a demo return false silently.
    virtual bool openDemo() { return false; }
    /// Actions for File ▸ Export (the first is the default, bound to Ctrl+E).
    virtual QList<QAction*> exportActions() const { return {}; }
    /// Actions for the View menu.
    virtual QList<QAction*> viewActions() const { return {}; }
    /// Cancels the running long task, if any.
    virtual void cancelTask() {}
    /// True once something has been computed and shown, and no background work is pending:
    /// the state --screenshot waits for.
    virtual bool isSettled() const = 0;
    /// Persist/restore view state (splitters, toggles) under the workspace's own keys.
    virtual void saveSettings() const {}
    virtual void restoreSettings() {}

signals:
    /// A long task started: the shell shows progress with a Cancel button.
    void taskStarted(const QString& description, bool cancellable);
    void taskProgress(double fraction, const QString& phase);
    void taskFinished(const QString& outcome);
    /// Transient status-bar message.
    void statusMessage(const QString& message, int timeoutMs = 4000);
    /// A data path was opened successfully (the shell records it in recent files).
    void pathOpened(const QString& path);
    /// isSettled() may have changed.
    void settledChanged();
    /// The window title's document part changed (e.g. the corpus name).
    void documentTitleChanged(const QString& title);
};

} // namespace cx::ui
