#pragma once

#include "ui/framework/task_outcome.h"

#include "core/session/session.h"
#include "core/session/session_paths.h"

#include <QIcon>
#include <QJsonObject>
#include <QList>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <filesystem>
#include <functional>

class QAction;
class QMenu;
class QPainter;
class QRectF;

namespace cx::ui {

/// One figure of a workspace for File ▸ Export All Figures and `--export-figures`.
struct WorkspaceFigure {
    QString name;  ///< file base name, e.g. "emissions"
    QString title; ///< what it shows, e.g. "Emission heatmap"
    /// Print size in logical units (1/96 in) it is drawn at: its view's figureSize(), chosen
    /// from its content (journal column widths), not its size on screen.
    QSizeF size;
    std::function<void(QPainter& painter, const QRectF& target)> paint;
    /// The values it plots as TSV (ExportableFigure::figureData), written as NAME.tsv.
    std::function<QString()> data;
};

/// One table of a workspace, written as TSV next to the figures.
struct WorkspaceTable {
    QString name; ///< file base name
    std::function<QString()> tsv;
};

/// One analysis mode hosted by the main window shell (Topics, Chromatin, Crowd, Tree). The
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
    /// How strongly this workspace wants several paths opened together as one data set (a
    /// crowd's labels and gold file, chromatin tracks with annotations): 0 = not as a set. The
    /// shell gives the set to the highest (ties: the first tab), else opens the first path.
    virtual int openPathsPreference(const QStringList& /*paths*/) const { return 0; }
    /// Opens `paths` together; called only when openPathsPreference(paths) > 0.
    virtual void openPaths(const QStringList& /*paths*/) {}
    /// File ▸ Open… for this workspace (its own dialog with format options).
    virtual void openInteractive() = 0;
    /// Further File menu entries of this workspace, after Open Data… (e.g. Chromatin's
    /// Open Aligned Reads…); shown while it is the current one.
    virtual QList<QAction*> openActions() const { return {}; }
    /// Actions for File ▸ Export (the first is the default, bound to Ctrl+E).
    virtual QList<QAction*> exportActions() const { return {}; }
    /// Every chart, heatmap and track this workspace shows, for Export All Figures. Default:
    /// the figure views found among its children (HeatmapView, SegmentationTrackView and the
    /// γ charts; see workspace_figures.cpp), named by their objectName. Override to choose.
    virtual QList<WorkspaceFigure> figures() const;
    /// Its tables as TSV. Default: the model of every table or tree view among its children.
    virtual QList<WorkspaceTable> tables() const;
    /// What figures.json states about the analysis behind the figures (γ, K, seed, the rules
    /// and the data they came from). Default: nothing beyond the workspace's title.
    virtual QJsonObject figureProvenance() const { return {}; }
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

    // Sessions (.cxproj, core/session). Each workspace serialises its own section; the shell
    // (ui/shell/project_session) assembles the file, keeps the sections of workspaces it does
    // not know, and tracks whether anything changed since the last save.

    /// Key of this workspace's section ("topics"); empty: the workspace is not saved.
    virtual QString sessionKey() const { return {}; }
    /// Whether there is anything to save (data open, or being opened).
    virtual bool hasSessionData() const { return false; }
    /// This workspace's section, data paths relative to `sessionDirectory`. What it describes
    /// is what a restore reproduces: data, reader options, rules/regions, parameters, γ and
    /// view state. Called only when hasSessionData().
    virtual cx::SessionJson saveSession(const std::filesystem::path& /*sessionDirectory*/) const {
        return cx::SessionJson::object();
    }
    /// Reads and validates this workspace's section of `session` (data that moved is located
    /// through `resolver`) and returns the step that applies it. Throws cx::InputError naming
    /// the file and the entry; nothing changes until the returned step runs, so a session with
    /// a bad section leaves every workspace as it was.
    virtual std::function<void()> readSession(const cx::Session& /*session*/,
                                              cx::PathResolver& /*resolver*/) {
        return {};
    }
    /// File ▸ New and opening a session without this workspace: drop data and results.
    virtual void clearSession() {}

signals:
    /// A long task started: the shell shows progress with a Cancel button.
    void taskStarted(const QString& description, bool cancellable);
    void taskProgress(double fraction, const QString& phase);
    void taskFinished(cx::ui::TaskOutcome outcome);
    /// Transient status-bar message.
    void statusMessage(const QString& message, int timeoutMs = 4000);
    /// A data path was opened successfully (the shell records it in recent files).
    void pathOpened(const QString& path);
    /// Several paths opened together as one data set (e.g. two chromatin tracks): one entry of
    /// the recent files that reopens them together.
    void pathsOpened(const QStringList& paths);
    /// Something a session records changed (data, rules, parameters, γ, view state): the shell
    /// re-checks whether the session is modified.
    void sessionStateChanged();
    /// isSettled() may have changed.
    void settledChanged();
    /// The window title's document part changed (e.g. the corpus name).
    void documentTitleChanged(const QString& title);
};

} // namespace cx::ui
