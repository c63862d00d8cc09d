#include "ui/shell/project_session.h"

#include "ui/framework/error_reporter.h"
#include "ui/framework/workspace.h"
#include "ui/shell/recent_files.h"

#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/session/session_paths.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QWidget>

#include <algorithm>

namespace cx::ui {

namespace {

ProjectSession::PromptHandler& promptHandler() {
    static ProjectSession::PromptHandler handler;
    return handler;
}

ProjectSession::LocateHandler& locateHandler() {
    static ProjectSession::LocateHandler handler;
    return handler;
}

ProjectSession::PartialOpenHandler& partialOpenHandler() {
    static ProjectSession::PartialOpenHandler handler;
    return handler;
}

const QString kFilter = QObject::tr("Contrast Explorer sessions (*.cxproj)");

std::filesystem::path toPath(const QString& path) {
    return std::filesystem::path(path.toStdString());
}

} // namespace

bool ProjectSession::isSessionFile(const QString& path) {
    if (path.endsWith(QLatin1String(".cxproj"), Qt::CaseInsensitive)) {
        return true;
    }
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return false;
    }
    const QByteArray head = file.read(64 * 1024);
    return head.contains("\"contrast-explorer-session\"") || head.contains("\"tracks\"") ||
           head.contains("\"corpus\"");
}

void ProjectSession::setPromptHandler(PromptHandler handler) {
    promptHandler() = std::move(handler);
}

void ProjectSession::setLocateHandler(LocateHandler handler) {
    locateHandler() = std::move(handler);
}

void ProjectSession::setPartialOpenHandler(PartialOpenHandler handler) {
    partialOpenHandler() = std::move(handler);
}

ProjectSession::ProjectSession(QWidget* window, QList<Workspace*> workspaces,
                               std::function<Workspace*()> currentWorkspace)
    : QObject(window), m_window(window), m_workspaces(std::move(workspaces)),
      m_currentWorkspace(std::move(currentWorkspace)) {
    // Comparing the whole session is cheap (a few kB of JSON) but not free: coalesce the
    // bursts of changes a slider drag produces.
    m_checkTimer = new QTimer(this);
    m_checkTimer->setSingleShot(true);
    m_checkTimer->setInterval(50);
    connect(m_checkTimer, &QTimer::timeout, this, &ProjectSession::checkModified);
    for (Workspace* workspace : m_workspaces) {
        connect(workspace, &Workspace::sessionStateChanged, this, &ProjectSession::scheduleCheck);
        connect(workspace, &Workspace::settledChanged, this, &ProjectSession::scheduleCheck);
    }
    m_reference = currentSections();
}

ProjectSession::~ProjectSession() = default;

QString ProjectSession::displayName() const {
    if (m_demo && m_demoShown) {
        return tr("Demo");
    }
    return m_file.isEmpty() ? tr("Untitled") : QFileInfo(m_file).fileName();
}

bool ProjectSession::hasData() const {
    return std::any_of(m_workspaces.begin(), m_workspaces.end(), [](const Workspace* workspace) {
        return !workspace->sessionKey().isEmpty() && workspace->hasSessionData();
    });
}

std::filesystem::path ProjectSession::referenceDirectory() const {
    return toPath(m_file.isEmpty() ? QDir::currentPath() : QFileInfo(m_file).absolutePath());
}

cx::Session ProjectSession::currentSession(const std::filesystem::path& target) const {
    cx::Session session = m_loaded;
    const std::filesystem::path directory =
        std::filesystem::absolute(target).lexically_normal().parent_path();
    if (!session.file.empty() && session.directory() != directory) {
        // Sections of workspaces this build does not know keep pointing at their data.
        cx::rebaseDataPaths(session.workspaces, session.directory(), directory);
    }
    session.file.clear(); // sections below are written relative to the target's folder
    session.active.clear();
    session.title = m_titleProvider ? m_titleProvider().toStdString() : std::string();
    const Workspace* current = m_currentWorkspace ? m_currentWorkspace() : nullptr;
    for (Workspace* workspace : m_workspaces) {
        const std::string key = workspace->sessionKey().toStdString();
        if (key.empty()) {
            continue;
        }
        if (workspace->hasSessionData()) {
            session.setSection(key, workspace->saveSession(directory));
            if (workspace == current) {
                session.active = key;
            }
        } else if (!m_unreadable.count(key)) {
            session.removeSection(key);
        } // else: the section that could not be read, kept as it was in the file
    }
    if (session.active.empty() && !session.workspaces.empty()) {
        session.active = session.workspaces.begin().key();
    }
    return session;
}

namespace {

std::map<std::string, std::string> sectionTexts(const cx::Session& session) {
    std::map<std::string, std::string> out;
    for (const auto& [key, section] : session.workspaces.items()) {
        out[key] = section.dump();
    }
    return out;
}

/// A data file entry's absolute path: its "absolute", else its "path" from `directory`.
std::filesystem::path dataFileOf(const cx::SessionJson& entry,
                                 const std::filesystem::path& directory) {
    const auto absolute = entry.find("absolute");
    const std::filesystem::path file = absolute != entry.end() && absolute->is_string()
                                           ? std::filesystem::path(absolute->get<std::string>())
                                           : directory / entry["path"].get<std::string>();
    std::error_code error; // a missing file compares by its absolute name
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(file, error);
    return error ? std::filesystem::absolute(file).lexically_normal() : canonical;
}

/// Every data file a section names ({"path": …} entries, depth first in the section's order:
/// a workspace writes its main data first — the corpus, the tracks, the labels), absolute.
void dataFiles(const cx::SessionJson& value, const std::filesystem::path& directory,
               std::vector<std::filesystem::path>& out) {
    if (value.is_object() && value.contains("path") && value["path"].is_string()) {
        out.push_back(dataFileOf(value, directory));
        return;
    }
    if (value.is_object() || value.is_array()) {
        for (const auto& item : value) {
            dataFiles(item, directory, out);
        }
    }
}

} // namespace

std::map<std::string, std::string> ProjectSession::currentSections() const {
    return sectionTexts(currentSession(referenceDirectory() / "session.cxproj"));
}

bool ProjectSession::showsDemoData(const cx::Session& current) const {
    for (const auto& [key, files] : m_demoData) {
        if (m_pending.count(key) != 0) {
            return true; // still restoring the demo's section
        }
        if (!current.hasSection(key)) {
            continue;
        }
        // The workspace's main data (the first file its section names) is one of the demo's.
        std::vector<std::filesystem::path> shown;
        dataFiles(current.section(key), referenceDirectory(), shown);
        if (!shown.empty() && std::find(files.begin(), files.end(), shown.front()) != files.end()) {
            return true;
        }
    }
    return false;
}

void ProjectSession::scheduleCheck() {
    m_checkTimer->start();
}

void ProjectSession::checkModified() {
    const cx::Session session = currentSession(referenceDirectory() / "session.cxproj");
    std::map<std::string, std::string> current = sectionTexts(session);
    if (m_settling) {
        // Only what the session restores has to settle; each workspace's reference is taken
        // when it has.
        for (const Workspace* workspace : m_workspaces) {
            const std::string key = workspace->sessionKey().toStdString();
            if (m_pending.count(key) != 0 &&
                (!workspace->hasSessionData() || workspace->isSettled())) {
                const auto it = current.find(key);
                if (it == current.end()) {
                    m_reference.erase(key);
                } else {
                    m_reference[key] = it->second;
                }
                m_pending.erase(key);
            }
        }
        m_settling = !m_pending.empty();
    }
    // A section still settling is compared once its reference is taken.
    for (const std::string& key : m_pending) {
        current.erase(key);
    }
    std::map<std::string, std::string> reference = m_reference;
    for (const std::string& key : m_pending) {
        reference.erase(key);
    }
    const bool modified = current != reference;
    // The untitled demo is "Demo" while it shows some of the demo's data, then "Untitled".
    const bool demoShown = m_demo && showsDemoData(session);
    if (modified != m_modified || demoShown != m_demoShown) {
        m_modified = modified;
        m_demoShown = demoShown;
        emit changed();
    }
}

bool ProjectSession::maybeSave() {
    checkModified();
    if (!m_modified) {
        return true;
    }
    Choice choice = Choice::Cancel;
    if (promptHandler()) {
        choice = promptHandler()(displayName());
    } else {
        const auto button = QMessageBox::warning(
            m_window, tr("Unsaved changes"),
            tr("The session “%1” has unsaved changes.\nSave them before going on?")
                .arg(displayName()),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        choice = button == QMessageBox::Save      ? Choice::Save
                 : button == QMessageBox::Discard ? Choice::Discard
                                                  : Choice::Cancel;
    }
    switch (choice) {
    case Choice::Save:
        return save();
    case Choice::Discard:
        return true;
    case Choice::Cancel:
        break;
    }
    return false;
}

bool ProjectSession::newSession() {
    if (!maybeSave()) {
        return false;
    }
    for (Workspace* workspace : m_workspaces) {
        workspace->clearSession();
    }
    m_file.clear();
    m_demo = false;
    m_loaded = cx::Session{};
    m_unreadable.clear();
    m_settling = false;
    m_pending.clear();
    m_reference = currentSections();
    m_modified = false;
    emit changed();
    return true;
}

bool ProjectSession::openInteractive() {
    if (!maybeSave()) {
        return false;
    }
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open Session"),
        m_file.isEmpty() ? QDir::homePath() : QFileInfo(m_file).absolutePath(), kFilter);
    if (path.isEmpty()) {
        return false;
    }
    // Already asked: open without asking again.
    m_modified = false;
    m_reference = currentSections();
    return open(path);
}

std::optional<std::filesystem::path> ProjectSession::locate(const std::filesystem::path& expected,
                                                            const std::string& pointer) const {
    const QString expectedText = QString::fromStdString(expected.string());
    if (locateHandler()) {
        const QString answer = locateHandler()(expectedText, QString::fromStdString(pointer));
        return answer.isEmpty() ? std::nullopt : std::optional(toPath(answer));
    }
    // One dialog, the file chooser itself: its title names the file, it opens in the nearest
    // folder that still exists with the name filled in; Cancel gives up. The session's other
    // files under the same folder then follow without asking (PathResolver learns the move).
    std::filesystem::path start = expected.parent_path();
    std::error_code error;
    while (!start.empty() && start != start.root_path() &&
           !std::filesystem::is_directory(start, error)) {
        start = start.parent_path();
    }
    const QString name = QString::fromStdString(expected.filename().string());
    const QString title = tr("Locate %1 (moved)").arg(name);
    const QString folder = QString::fromStdString(start.string());
    // A name with a suffix is a file (a track, a BED, docword.txt); without, a corpus folder.
    const QString answer =
        expected.has_extension()
            ? QFileDialog::getOpenFileName(m_window, title, QDir(folder).filePath(name))
            : QFileDialog::getExistingDirectory(m_window, title, folder);
    return answer.isEmpty() ? std::nullopt : std::optional(toPath(answer));
}

bool ProjectSession::open(const QString& path, bool asDemo) {
    if (!maybeSave()) {
        return false;
    }
    cx::Session session;
    SectionReads reads;
    try {
        session = cx::readSession(toPath(path));
        cx::PathResolver resolver(
            session.file, [this](const std::filesystem::path& expected,
                                 const std::string& pointer) { return locate(expected, pointer); });
        // Read every section before applying any: a bad one changes nothing unless the user
        // chooses to open the others.
        reads = readSections(session, resolver);
    } catch (const cx::InputError& error) {
        ErrorReporter::report(m_window, tr("Could not open the session"),
                              QString::fromStdString(error.what()));
        return false;
    } catch (const std::exception& error) {
        ErrorReporter::report(m_window, tr("Could not open the session"),
                              path + QStringLiteral(": ") + QString::fromStdString(error.what()));
        return false;
    }
    if (!reads.problems.isEmpty()) {
        if (reads.steps.empty()) {
            ErrorReporter::report(m_window, tr("Could not open the session"),
                                  reads.problems.join(QLatin1Char('\n')));
            return false;
        }
        if (!askPartialOpen(path, reads.problems)) {
            return false;
        }
    }
    for (Workspace* workspace : m_workspaces) {
        const auto step = std::find_if(reads.steps.begin(), reads.steps.end(),
                                       [workspace](const auto& s) { return s.first == workspace; });
        if (step != reads.steps.end() && step->second) {
            step->second();
        } else {
            workspace->clearSession();
        }
    }
    m_unreadable = asDemo ? std::set<std::string>() : reads.unreadable;
    m_loaded = session;
    m_demo = asDemo;
    m_demoShown = asDemo;
    m_demoData.clear();
    m_file = asDemo ? QString() : QFileInfo(path).absoluteFilePath();
    if (asDemo) {
        for (const auto& [key, section] : session.workspaces.items()) {
            dataFiles(section, session.directory(), m_demoData[key]);
        }
        m_loaded.file.clear(); // paths of unknown sections: nothing to carry for the demo
        m_loaded.workspaces = cx::SessionJson::object();
    } else {
        RecentFiles::add(m_file);
        cx::removeStaleTemporaries(toPath(m_file)); // what a killed save of it left
    }
    m_settling = true;
    m_pending.clear();
    for (const Workspace* workspace : m_workspaces) {
        if (!workspace->sessionKey().isEmpty()) {
            m_pending.insert(workspace->sessionKey().toStdString());
        }
    }
    // Sections this build does not know are compared from now; the others once they settle.
    m_reference = currentSections();
    m_modified = false;
    emit opened(QString::fromStdString(session.active));
    emit changed();
    scheduleCheck();
    return true;
}

bool ProjectSession::save() {
    if (m_file.isEmpty()) {
        return saveAs();
    }
    return saveTo(m_file);
}

bool ProjectSession::saveAs() {
    QString start = m_file;
    if (start.isEmpty()) {
        start = QDir::home().absoluteFilePath(QStringLiteral("analysis.cxproj"));
    }
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save Session As"), start, kFilter);
    if (path.isEmpty()) {
        return false;
    }
    if (!path.endsWith(QLatin1String(".cxproj"), Qt::CaseInsensitive)) {
        path += QLatin1String(".cxproj");
    }
    return saveTo(path);
}

bool ProjectSession::saveTo(const QString& path) {
    const std::filesystem::path target = std::filesystem::absolute(toPath(path)).lexically_normal();
    cx::Session session = currentSession(target);
    try {
        cx::writeSession(session, target);
    } catch (const cx::InputError& error) {
        ErrorReporter::report(m_window, tr("Could not save the session"),
                              QString::fromStdString(error.what()) +
                                  tr("\nThe previous file, if any, is unchanged."));
        return false;
    }
    m_loaded = session;
    m_file = QString::fromStdString(target.string());
    m_demo = false;
    for (const Workspace* workspace : m_workspaces) {
        if (workspace->hasSessionData()) { // its own section replaced the unreadable one
            m_unreadable.erase(workspace->sessionKey().toStdString());
        }
    }
    m_settling = false;
    m_pending.clear();
    m_reference = currentSections();
    m_modified = false;
    RecentFiles::add(m_file);
    emit changed();
    const QStringList problems = reopenProblems(target);
    if (!problems.isEmpty()) {
        ErrorReporter::report(
            m_window, tr("The session was saved, but reading it back failed"),
            problems.join(QLatin1Char('\n')) +
                tr("\nOpening it will ask for what is missing, or offer to open the other "
                   "workspaces."));
    }
    return true;
}

bool ProjectSession::askPartialOpen(const QString& path, const QStringList& problems) const {
    const QString text = tr("These parts of “%1” could not be read:\n%2")
                             .arg(QFileInfo(path).fileName(), problems.join(QLatin1Char('\n')));
    if (partialOpenHandler()) {
        return partialOpenHandler()(text);
    }
    QMessageBox box(QMessageBox::Warning, tr("Part of the session could not be opened"), text,
                    QMessageBox::Cancel, m_window);
    box.setInformativeText(
        tr("Open the other workspaces? The unreadable parts stay in the file when you save, "
           "until you open data in their workspaces."));
    QPushButton* openOthers = box.addButton(tr("Open the Others"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == openOthers;
}

ProjectSession::SectionReads ProjectSession::readSections(const cx::Session& session,
                                                          cx::PathResolver& resolver,
                                                          const std::set<std::string>& skip) const {
    SectionReads reads;
    for (Workspace* workspace : m_workspaces) {
        const std::string key = workspace->sessionKey().toStdString();
        if (key.empty() || !session.hasSection(key) || skip.count(key)) {
            continue;
        }
        try {
            reads.steps.emplace_back(workspace, workspace->readSession(session, resolver));
        } catch (const std::exception& error) { // InputError, or a reader's fault
            reads.unreadable.insert(key);
            reads.problems << tr("%1: %2").arg(workspace->title(),
                                               QString::fromStdString(error.what()));
        }
    }
    return reads;
}

QStringList ProjectSession::reopenProblems(const std::filesystem::path& file) const {
    try {
        const cx::Session written = cx::readSession(file);
        cx::PathResolver resolver(written.file); // no questions: a missing file is a problem
        // A section kept as the file had it (its workspace has no data) was reported when
        // opened.
        std::set<std::string> kept;
        for (const Workspace* workspace : m_workspaces) {
            const std::string key = workspace->sessionKey().toStdString();
            if (m_unreadable.count(key) && !workspace->hasSessionData()) {
                kept.insert(key);
            }
        }
        return readSections(written, resolver, kept).problems;
    } catch (const std::exception& error) {
        return {QString::fromStdString(error.what())};
    }
}

} // namespace cx::ui
