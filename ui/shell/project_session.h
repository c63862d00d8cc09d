#pragma once

#include "core/session/session.h"
#include "core/session/session_paths.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

class QTimer;
class QWidget;

namespace cx::ui {

class Workspace;

/// The open project session (.cxproj) of the main window: File ▸ New, Open, Save, Save As, the
/// unsaved-changes guard, and whether the session is modified. Every workspace writes and reads
/// its own section (Workspace::saveSession/readSession); sections of workspaces this build does
/// not know are carried over from the file that was opened.
///
/// Modified = the session the workspaces describe now differs from the one last opened or
/// saved (compared as the JSON that would be written), so moving γ away and back is no change.
/// After an open, the reference is taken once the workspaces have settled (their restored
/// state may be normalised by the widgets, e.g. K capped), so opening never marks it modified.
class ProjectSession : public QObject {
    Q_OBJECT
public:
    /// Answer of the unsaved-changes question.
    enum class Choice { Save, Discard, Cancel };
    /// Replaces the Save/Discard/Cancel dialog (tests). Receives the session's display name.
    using PromptHandler = std::function<Choice(const QString& name)>;
    /// Replaces the "data moved" dialogs (tests, headless): receives the expected path and the
    /// JSON pointer, returns the new location or an empty string to give up.
    using LocateHandler = std::function<QString(const QString& expected, const QString& pointer)>;
    /// Replaces the "open the other workspaces?" question asked when some sections of a session
    /// cannot be read and others can (tests): receives the problems, returns whether to open.
    using PartialOpenHandler = std::function<bool(const QString& problems)>;

    /// `currentWorkspace` names the tab shown (saved as the session's "active" workspace).
    ProjectSession(QWidget* window, QList<Workspace*> workspaces,
                   std::function<Workspace*()> currentWorkspace);
    ~ProjectSession() override;

    /// The session file (absolute); empty while untitled.
    QString filePath() const { return m_file; }
    /// "analysis.cxproj", "Demo" (the untitled demo while some workspace still shows the demo's
    /// data) or "Untitled".
    QString displayName() const;
    bool isModified() const { return m_modified; }
    /// Whether there is anything to save (some workspace has data).
    bool hasData() const;

    /// File ▸ New: asks about unsaved changes, then empties every workspace.
    bool newSession();
    /// File ▸ Open… with a session chosen in a dialog.
    bool openInteractive();
    /// Opens a session file (asks about unsaved changes first). A corrupt file, a newer version
    /// or data that cannot be located is reported in a dialog naming the file and the problem,
    /// and nothing changes. When only some workspaces' sections cannot be read, the dialog
    /// names them and offers to open the others; those then open, the unreadable workspaces
    /// are emptied, and their sections are written back unchanged by a later save until the
    /// workspace is given data of its own — nothing of the file is lost. `asDemo`: the bundled
    /// demo, opened untitled (Save asks where).
    bool open(const QString& path, bool asDemo = false);
    /// Ctrl+S: to the session file, or Save As when untitled.
    bool save();
    /// Ctrl+Shift+S.
    bool saveAs();
    /// Writes the session to `path` atomically; on failure reports it (the old file stays
    /// intact) and returns false. The file written is then read back through every
    /// workspace's session reader (nothing applied): a section that would not reopen is
    /// reported at once, naming the workspace and the problem, instead of at the next open.
    bool saveTo(const QString& path);
    /// Asks Save / Discard / Cancel when modified; true when the caller may go on.
    bool maybeSave();

    /// The session the workspaces describe now, as it would be written to `target`.
    cx::Session currentSession(const std::filesystem::path& target) const;

    /// A .cxproj file, or a pre-session analysis descriptor (.json naming "tracks" or "corpus").
    static bool isSessionFile(const QString& path);

    /// What a saved session's "title" says: derived from what is loaded (MainWindow gives the
    /// workspaces' document titles), never carried over from the file that was opened.
    void setTitleProvider(std::function<QString()> provider) {
        m_titleProvider = std::move(provider);
    }

    static void setPromptHandler(PromptHandler handler);
    static void setLocateHandler(LocateHandler handler);
    static void setPartialOpenHandler(PartialOpenHandler handler);

signals:
    /// File name or modified state changed (the window title follows).
    void changed();
    /// A session was opened; `active` is the workspace key to show ("" = keep the tab).
    void opened(const QString& active);

private:
    void scheduleCheck();
    void checkModified();
    /// The session as it would be saved, one text per workspace section (key → JSON).
    std::map<std::string, std::string> currentSections() const;
    /// Whether `current` (the session as it would be saved) still holds the demo's data in
    /// some workspace: a section whose first data file (its main data) is one of the files the
    /// demo's section named.
    bool showsDemoData(const cx::Session& current) const;
    std::filesystem::path referenceDirectory() const;
    std::optional<std::filesystem::path> locate(const std::filesystem::path& expected,
                                                const std::string& pointer) const;
    /// Every workspace section of `session` read and checked through the workspace's reader
    /// (nothing applied), except the keys in `skip`: the steps that apply the readable ones,
    /// and the keys and problems ("Workspace: message") of the others.
    struct SectionReads {
        std::vector<std::pair<Workspace*, std::function<void()>>> steps;
        std::set<std::string> unreadable;
        QStringList problems;
    };
    SectionReads readSections(const cx::Session& session, cx::PathResolver& resolver,
                              const std::set<std::string>& skip = {}) const;
    /// Whether to open the readable sections when `problems` (one line per unreadable section).
    bool askPartialOpen(const QString& path, const QStringList& problems) const;
    /// The problems of reading `file` back through every workspace's reader ("" when none).
    QStringList reopenProblems(const std::filesystem::path& file) const;

    QWidget* m_window;
    QList<Workspace*> m_workspaces;
    std::function<Workspace*()> m_currentWorkspace;
    std::function<QString()> m_titleProvider;
    QString m_file;
    bool m_demo = false;
    /// While the demo is open: per workspace key, the data files its section named
    /// (absolute), and whether some workspace still shows them (the title says "Demo" only then).
    std::map<std::string, std::vector<std::filesystem::path>> m_demoData;
    bool m_demoShown = false;
    /// The file last opened (its unknown sections and keys are written back).
    cx::Session m_loaded;
    /// Per workspace section: its JSON in the last opened/saved state. After an open, a
    /// workspace's entry is taken when that workspace has settled (what it restores is filled
    /// in asynchronously), so an edit made in one tab while another still computes counts.
    std::map<std::string, std::string> m_reference;
    bool m_modified = false;
    bool m_settling = false;         ///< waiting for the workspaces to settle after an open
    std::set<std::string> m_pending; ///< while settling: keys whose reference is not taken yet
    /// Keys of sections of the open file that could not be read: written back as they were
    /// while their workspace has no data of its own.
    std::set<std::string> m_unreadable;
    QTimer* m_checkTimer = nullptr;
};

} // namespace cx::ui
