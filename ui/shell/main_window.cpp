#include "ui/shell/main_window.h"

#include "ui/dialogs/figure_set_export.h"

#include "ui/framework/error_reporter.h"
#include "ui/framework/workspace.h"
#include "ui/shell/project_session.h"
#include "ui/shell/recent_files.h"
#include "ui/shell/resource_locator.h"
#include "ui/shell/workspace_registry.h"
#include "ui/widgets/task_progress_widget.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>

#include <Eigen/Core>

#include <algorithm>

namespace cx::ui {

namespace {
const QString kGeometryKey = QStringLiteral("mainWindow.geometry");
const QString kStateKey = QStringLiteral("mainWindow.state");
const QString kWorkspaceKey = QStringLiteral("mainWindow.workspace");

/// Settings key of a workspace's `index`-th splitter (construction order is stable).
QString splitterKey(const Workspace& workspace, int index) {
    const QString key =
        workspace.sessionKey().isEmpty() ? workspace.title().toLower() : workspace.sessionKey();
    return QStringLiteral("%1.splitter%2").arg(key).arg(index);
}
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setWindowIcon(QIcon(QStringLiteral(":/icons/contrast-explorer.svg")));
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->setObjectName(QStringLiteral("workspaceTabs"));
    setCentralWidget(m_tabs);

    m_progress = new TaskProgressWidget(this);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->setSizeGripEnabled(false);
    connect(m_progress, &TaskProgressWidget::cancelRequested, this, [this] {
        if (m_taskOwner) {
            m_taskOwner->cancelTask();
        }
    });
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setWhatsThis(tr("Cancel the running task"));
    connect(escape, &QShortcut::activated, this, [this] {
        if (m_progress->isRunning() && m_taskOwner) {
            m_taskOwner->cancelTask();
        }
    });

    createMenus();
    for (Workspace* workspace : createWorkspaces(this)) {
        addWorkspace(workspace);
    }
    m_project = new ProjectSession(this, m_workspaces, [this] { return currentWorkspace(); });
    m_project->setTitleProvider([this] { return sessionTitle(); });
    connect(m_project, &ProjectSession::changed, this, &MainWindow::updateTitle);
    connect(m_project, &ProjectSession::opened, this, [this](const QString& active) {
        if (Workspace* workspace = workspaceForKey(active)) {
            m_tabs->setCurrentWidget(workspace);
        }
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        rebuildWorkspaceMenus();
        updateTitle();
    });
    rebuildWorkspaceMenus();
    resize(1440, 900);
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::addWorkspace(Workspace* workspace) {
    m_workspaces << workspace;
    m_tabs->addTab(workspace, workspace->icon(), workspace->title());
    connectWorkspace(workspace);
}

Workspace* MainWindow::currentWorkspace() const {
    return qobject_cast<Workspace*>(m_tabs->currentWidget());
}

void MainWindow::connectWorkspace(Workspace* workspace) {
    connect(workspace, &Workspace::taskStarted, this,
            [this, workspace](const QString& description, bool cancellable) {
                m_taskOwner = workspace;
                m_progress->start(description, cancellable);
            });
    connect(workspace, &Workspace::taskProgress, this,
            [this, workspace](double fraction, const QString& phase) {
                if (m_taskOwner == workspace) {
                    m_progress->setProgress(fraction, phase);
                }
            });
    connect(workspace, &Workspace::taskFinished, this, [this, workspace](TaskOutcome) {
        if (m_taskOwner == workspace) {
            m_progress->finish();
            m_taskOwner = nullptr;
        }
    });
    connect(workspace, &Workspace::statusMessage, this,
            [this, workspace](const QString& message, int timeoutMs) {
                // A workspace working in the background (e.g. the other demo loading) does not
                // talk over the one the user looks at.
                if (workspace == currentWorkspace()) {
                    statusBar()->showMessage(message, timeoutMs);
                }
            });
    connect(workspace, &Workspace::pathOpened, this, [this](const QString& path) {
        RecentFiles::add(path);
        rebuildRecentMenu();
    });
    connect(workspace, &Workspace::pathsOpened, this, [this](const QStringList& paths) {
        RecentFiles::add(paths);
        rebuildRecentMenu();
    });
    connect(workspace, &Workspace::documentTitleChanged, this,
            [this, workspace](const QString& title) {
                m_documentTitles[workspace] = title;
                updateTitle();
            });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_fileMenu = file;
    QAction* newSession =
        file->addAction(tr("&New Session"), this, [this] { m_project->newSession(); });
    newSession->setShortcut(QKeySequence::New);
    newSession->setToolTip(tr("Close every workspace's data and start an untitled session"));
    QAction* openSession = file->addAction(tr("&Open Session…"), this, [this] {
        if (m_project->openInteractive()) {
            rebuildRecentMenu();
        }
    });
    openSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction* open = file->addAction(tr("Open &Data…"), this, [this] {
        if (Workspace* workspace = currentWorkspace()) {
            workspace->openInteractive();
        }
    });
    open->setShortcut(QKeySequence::Open);
    m_openDemoAction = file->addAction(tr("Open De&mo"), this, [this] { openDemo(); });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* save = file->addAction(tr("&Save Session"), this, [this] {
        if (m_project->save()) {
            rebuildRecentMenu();
            statusBar()->showMessage(tr("Saved %1").arg(m_project->filePath()), 4000);
        }
    });
    save->setShortcut(QKeySequence::Save);
    QAction* saveAs = file->addAction(tr("Save Session &As…"), this, [this] {
        if (m_project->saveAs()) {
            rebuildRecentMenu();
            statusBar()->showMessage(tr("Saved %1").arg(m_project->filePath()), 4000);
        }
    });
    saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    file->addSeparator();
    m_exportMenu = file->addMenu(tr("&Export"));
    file->addAction(tr("Export &All Figures…"), this, [this] {
        if (Workspace* workspace = currentWorkspace()) {
            const QString folder = exportAllFiguresInteractively(this, *workspace);
            if (!folder.isEmpty()) {
                statusBar()->showMessage(tr("Figures and tables written to %1").arg(folder), 10000);
            }
        }
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    if (quit->shortcut().isEmpty()) { // platforms without a standard Quit key (offscreen, xcb
                                      // without a desktop)
        quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    }
    quit->setMenuRole(QAction::QuitRole);

    m_viewMenu = menuBar()->addMenu(tr("&View"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence(Qt::Key_F1));
    help->addAction(tr("&About Contrast Explorer"), this, &MainWindow::showAbout);
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QList<QStringList> entries = RecentFiles::entries();
    const QStringList texts = RecentFiles::labels(entries);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QStringList paths = entries[i];
        QAction* action =
            m_recentMenu->addAction(texts[i], this, [this, paths] { openPaths(paths); });
        action->setToolTip(paths.join(QLatin1Char('\n')));
        action->setStatusTip(paths.join(QStringLiteral(", ")));
    }
    if (!entries.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear the List"), this, [this] {
            RecentFiles::clear();
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!entries.isEmpty());
}

void MainWindow::rebuildWorkspaceMenus() {
    // Workspace actions live in the workspace; the menus only reference them, so their
    // shortcuts work exactly while the workspace is the current one.
    for (Workspace* workspace : m_workspaces) {
        for (QAction* action : workspace->exportActions() + workspace->viewActions()) {
            removeAction(action);
        }
        for (QAction* action : workspace->openActions()) {
            m_fileMenu->removeAction(action);
        }
    }
    m_exportMenu->clear();
    m_viewMenu->clear();
    Workspace* workspace = currentWorkspace();
    if (!workspace) {
        return;
    }
    m_fileMenu->insertActions(m_openDemoAction, workspace->openActions());
    for (QAction* action : workspace->exportActions()) {
        m_exportMenu->addAction(action);
        addAction(action);
    }
    for (QAction* action : workspace->viewActions()) {
        m_viewMenu->addAction(action);
        addAction(action);
    }
    m_exportMenu->setEnabled(!workspace->exportActions().isEmpty());
    m_viewMenu->setEnabled(!workspace->viewActions().isEmpty());
}

QString MainWindow::sessionTitle() const {
    QStringList parts;
    for (const Workspace* workspace : m_workspaces) {
        const QString document = m_documentTitles.value(workspace);
        if (!document.isEmpty() && workspace->hasSessionData()) {
            parts << workspace->title() + QStringLiteral(": ") + document;
        }
    }
    return parts.join(QStringLiteral("; "));
}

void MainWindow::updateTitle() {
    // "analysis.cxproj* — Topics: reuters — Contrast Explorer": the session, then the active
    // tab and what it shows. Qt draws the '*' for [*] while the window is modified.
    QString title =
        m_project ? m_project->displayName() + QStringLiteral("[*]") : QStringLiteral("[*]");
    if (const Workspace* workspace = currentWorkspace()) {
        const QString document = m_documentTitles.value(workspace);
        title += QStringLiteral(" — ") + workspace->title();
        if (!document.isEmpty()) {
            title += QStringLiteral(": ") + document;
        }
    }
    setWindowTitle(title + QStringLiteral(" — Contrast Explorer"));
    setWindowModified(m_project && m_project->isModified());
}

Workspace* MainWindow::workspaceForKey(const QString& key) const {
    for (Workspace* workspace : m_workspaces) {
        if (!key.isEmpty() && workspace->sessionKey() == key) {
            return workspace;
        }
    }
    return nullptr;
}

bool MainWindow::openDemo() {
    const QString path = demoSessionPath();
    if (path.isEmpty()) {
        ErrorReporter::report(this, tr("Could not open the demo"),
                              tr("resources/demo/demo.cxproj: not found (set CX_RESOURCE_DIR to "
                                 "the folder that holds demo/)"));
        return false;
    }
    // The current tab stays: the demo holds both workspaces and --tab may have chosen one.
    Workspace* shown = currentWorkspace();
    if (!m_project->open(path, true)) {
        return false;
    }
    if (shown) {
        m_tabs->setCurrentWidget(shown);
    }
    return true;
}

QStringList MainWindow::workspaceNames() const {
    QStringList names;
    for (const Workspace* workspace : m_workspaces) {
        names << workspace->title().toLower();
    }
    return names;
}

bool MainWindow::setCurrentWorkspace(const QString& title) {
    for (Workspace* workspace : m_workspaces) {
        if (workspace->title().compare(title, Qt::CaseInsensitive) == 0) {
            m_tabs->setCurrentWidget(workspace);
            return true;
        }
    }
    return false;
}

void MainWindow::openPaths(const QStringList& paths) {
    if (paths.size() == 1) {
        openPath(paths.front());
        return;
    }
    if (paths.isEmpty()) {
        return;
    }
    for (const QString& path : paths) {
        if (!QFileInfo::exists(path)) {
            ErrorReporter::report(this, tr("Could not open"),
                                  tr("%1: no such file or folder").arg(path));
            return;
        }
    }
    // One data set in several files (a crowd's labels and gold, chromatin tracks): the
    // workspace that wants the set most; otherwise the first path alone.
    Workspace* target = nullptr;
    int best = 0;
    for (Workspace* workspace : m_workspaces) {
        const int preference = workspace->openPathsPreference(paths);
        if (preference > best) {
            target = workspace;
            best = preference;
        }
    }
    if (!target) {
        openPath(paths.front());
        return;
    }
    m_tabs->setCurrentWidget(target);
    target->openPaths(paths);
}

void MainWindow::openPath(const QString& path) {
    if (!QFileInfo::exists(path)) {
        ErrorReporter::report(this, tr("Could not open"),
                              tr("%1: no such file or folder").arg(path));
        return;
    }
    if (ProjectSession::isSessionFile(path)) {
        if (m_project->open(path)) {
            rebuildRecentMenu();
        }
        return;
    }
    Workspace* target = currentWorkspace();
    int best = target ? target->openPreference(path) : 0;
    for (Workspace* workspace : m_workspaces) {
        const int preference = workspace->openPreference(path);
        if (preference > best) {
            target = workspace;
            best = preference;
        }
    }
    if (best == 0) {
        target = nullptr;
    }
    if (!target) {
        target = m_workspaces.front(); // let its reader explain what is wrong with the file
    }
    m_tabs->setCurrentWidget(target);
    target->openPath(path);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    if (!geometry.isEmpty()) {
        restoreGeometry(geometry);
    }
    restoreState(settings.value(kStateKey).toByteArray());
    const int index = settings.value(kWorkspaceKey, 0).toInt();
    if (index >= 0 && index < m_tabs->count()) {
        m_tabs->setCurrentIndex(index);
    }
    for (Workspace* workspace : m_workspaces) {
        workspace->restoreSettings();
        const QList<QSplitter*> splitters = workspace->findChildren<QSplitter*>();
        for (int i = 0; i < splitters.size(); ++i) {
            const QByteArray state = settings.value(splitterKey(*workspace, i)).toByteArray();
            if (!state.isEmpty()) {
                splitters[i]->restoreState(state);
            }
        }
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!m_project->maybeSave()) {
        event->ignore();
        return;
    }
    if (m_persistSettings) {
        QSettings settings;
        settings.setValue(kGeometryKey, saveGeometry());
        settings.setValue(kStateKey, saveState());
        settings.setValue(kWorkspaceKey, m_tabs->currentIndex());
        for (Workspace* workspace : m_workspaces) {
            workspace->saveSettings();
            // Every splitter of every workspace, so that a new workspace gets this for free.
            const QList<QSplitter*> splitters = workspace->findChildren<QSplitter*>();
            for (int i = 0; i < splitters.size(); ++i) {
                settings.setValue(splitterKey(*workspace, i), splitters[i]->saveState());
            }
        }
    }
    // Stop background work promptly; controllers wait for their threads in their destructors.
    for (Workspace* workspace : m_workspaces) {
        workspace->cancelTask();
    }
    event->accept();
}

QStringList MainWindow::droppedPaths(const QMimeData* mime) const {
    QStringList paths;
    if (!mime || !mime->hasUrls()) {
        return paths;
    }
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile()) {
            paths << url.toLocalFile();
        }
    }
    return paths;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QStringList paths = droppedPaths(event->mimeData());
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList paths = droppedPaths(event->mimeData());
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        openPaths(paths);
    }
}

QString MainWindow::aboutText() {
    return tr("<h3>Contrast Explorer %1</h3>"
              "<p>What makes one data set different from another: contrastive spectral "
              "method-of-moments models of the structure specific to a foreground relative to a "
              "background, updated live as the contrast weight γ moves.</p>"
              "<p><b>Methods</b></p><ol>"
              "<li>J. Zou, D. Hsu, D. Parkes, R. Adams. <i>Contrastive Learning Using Spectral "
              "Methods.</i> NIPS 2013 (contrastive topics and chromatin HMMs).</li>"
              "<li>C. Zhang, J. Song, K. Chen, K. Chaudhuri. <i>Spectral Learning of Large "
              "Structured HMMs for Comparative Epigenomics.</i> NIPS 2015 (Spectral-Tree).</li>"
              "<li>A. Blum. <i>Tensor methods</i>, lecture notes, 2015 (Jennrich's "
              "algorithm).</li>"
              "<li>V. Zhao, S. Zucker. <i>Stagewise Learning for Sparse Clustering of "
              "Discretely-Valued Data.</i> 2015 (stagewise EM, crowdsourcing).</li></ol>"
              "<p>Qt %2 · Eigen %3.%4.%5</p>")
        .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion()))
        .arg(EIGEN_WORLD_VERSION)
        .arg(EIGEN_MAJOR_VERSION)
        .arg(EIGEN_MINOR_VERSION);
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Contrast Explorer"), aboutText());
}

namespace {

/// The actions of `menu` and its submenus that have a shortcut, as {menu path, text, keys}.
void collectMenuShortcuts(const QMenu* menu, const QString& where,
                          QList<MainWindow::ShortcutEntry>& out) {
    for (QAction* action : menu->actions()) {
        const QString text = action->text().remove(QLatin1Char('&'));
        if (action->menu()) {
            collectMenuShortcuts(action->menu(), where + QStringLiteral(" ▸ ") + text, out);
        } else if (!action->shortcut().isEmpty()) {
            out.push_back({where, text, action->shortcut().toString(QKeySequence::NativeText)});
        }
    }
}

} // namespace

QList<MainWindow::ShortcutEntry> MainWindow::shortcuts() const {
    QList<ShortcutEntry> entries;
    for (QAction* action : menuBar()->actions()) {
        if (action->menu() && action->menu() != m_exportMenu && action->menu() != m_viewMenu) {
            collectMenuShortcuts(action->menu(), action->text().remove(QLatin1Char('&')), entries);
        }
    }
    // Workspace actions (export, view) of every tab, not only the current one.
    for (const Workspace* workspace : m_workspaces) {
        for (QAction* action : workspace->exportActions() + workspace->viewActions()) {
            if (!action->shortcut().isEmpty()) {
                entries.push_back({workspace->title(), action->text().remove(QLatin1Char('&')),
                                   action->shortcut().toString(QKeySequence::NativeText)});
            }
        }
    }
    for (const QShortcut* shortcut : findChildren<QShortcut*>()) {
        if (!shortcut->key().isEmpty()) {
            entries.push_back({tr("Window"),
                               shortcut->whatsThis().isEmpty() ? tr("Cancel the running task")
                                                               : shortcut->whatsThis(),
                               shortcut->key().toString(QKeySequence::NativeText)});
        }
    }
    return entries;
}

void MainWindow::showShortcuts() {
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    QString lastWhere;
    for (const ShortcutEntry& entry : shortcuts()) {
        if (entry.where != lastWhere) {
            html += QStringLiteral("<tr><td colspan='2'><b>%1</b></td></tr>")
                        .arg(entry.where.toHtmlEscaped());
            lastWhere = entry.where;
        }
        html += QStringLiteral("<tr><td>%1</td><td><tt>%2</tt></td></tr>")
                    .arg(entry.what.toHtmlEscaped(), entry.keys.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    QMessageBox box(QMessageBox::NoIcon, tr("Keyboard Shortcuts"), html, QMessageBox::Close, this);
    box.setTextFormat(Qt::RichText);
    box.exec();
}

} // namespace cx::ui
