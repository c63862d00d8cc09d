// contrast-explorer: the desktop application. Thin: options, application identity, style, and
// the main window (plus the headless screenshot / figure export); everything else lives in cx_ui.
#include "ui/dialogs/figure_set_export.h"
#include "ui/framework/error_reporter.h"
#include "ui/shell/app_style.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPixmap>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

namespace {

/// Reports the first paint of the main window (launch-time measurement with --timing).
class FirstPaintProbe : public QObject {
public:
    FirstPaintProbe(QWidget* window, const QElapsedTimer& clock)
        : QObject(window), m_window(window), m_clock(clock) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (!m_reported && event->type() == QEvent::Paint && watched->isWidgetType() &&
            static_cast<QWidget*>(watched)->window() == m_window) {
            m_reported = true;
            std::fprintf(stderr, "timing: first paint %lld ms after start\n",
                         static_cast<long long>(m_clock.elapsed()));
            qApp->removeEventFilter(this);
        }
        return false;
    }

private:
    QWidget* m_window;
    const QElapsedTimer& m_clock;
    bool m_reported = false;
};

/// What the command line asked for.
struct LaunchOptions {
    bool demo = false;
    QString tab;
    QStringList paths;
    bool screenshot = false; // render to screenshotPath (or export figures) and exit
    QString screenshotPath;
    QString size;
    bool exportFigures = false;
    QString exportDirectory;
    int exportDpi = 300;
    int timeoutSeconds = 120;
    bool timing = false;
};

/// Parses the command line (help and version exit inside). Returns an exit code when a value is
/// wrong; a headless machine turns a plain start into a screenshot named after what it opens.
std::optional<int> parseOptions(const QApplication& application, bool headless,
                                LaunchOptions& out) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Contrast Explorer: what makes a foreground data set different from its "
                       "background."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demoOption(QStringLiteral("demo"),
                                        QStringLiteral("Open the bundled demo session."));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the main window to FILE (PNG) once the first result and the AUC "
                       "chart are shown, print the path and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
                                        QStringLiteral("Window size for --screenshot (default "
                                                       "1440x900)."),
                                        QStringLiteral("WxH"), QStringLiteral("1440x900"));
    const QCommandLineOption timeoutOption(
        QStringLiteral("screenshot-timeout"),
        QStringLiteral("Seconds to wait for results before rendering anyway (default 120)."),
        QStringLiteral("SECONDS"), QStringLiteral("120"));
    const QCommandLineOption tabOption(
        QStringLiteral("tab"),
        QStringLiteral("Show this workspace first: topics, chromatin, crowd or tree (with "
                       "--screenshot, the image waits for its results)."),
        QStringLiteral("NAME"));
    const QCommandLineOption timingOption(
        QStringLiteral("timing"), QStringLiteral("Print launch and first-result times to stderr."));
    const QCommandLineOption exportOption(
        QStringLiteral("export-figures"),
        QStringLiteral("Without a display: write every figure of the shown workspace (PNG, SVG, "
                       "PDF), its tables (TSV) and figures.json to DIR once its results are "
                       "shown, print the folder and exit."),
        QStringLiteral("DIR"));
    const QCommandLineOption dpiOption(
        QStringLiteral("dpi"), QStringLiteral("PNG resolution for --export-figures (default 300)."),
        QStringLiteral("N"), QStringLiteral("300"));
    parser.addOptions({exportOption, dpiOption, demoOption, screenshotOption, sizeOption,
                       timeoutOption, timingOption, tabOption});
    parser.addPositionalArgument(
        QStringLiteral("files"),
        QStringLiteral("A session (.cxproj) to open, or data: a corpus file or folder, or "
                       "chromatin tracks (ChromHMM binarized files, BED annotations)."),
        QStringLiteral("[files...]"));
    parser.process(application);

    out.demo = parser.isSet(demoOption);
    out.tab = parser.value(tabOption);
    out.paths = parser.positionalArguments();
    out.size = parser.value(sizeOption);
    out.screenshotPath = parser.value(screenshotOption);
    out.exportDirectory = parser.value(exportOption);
    out.exportFigures = parser.isSet(exportOption);
    if (out.exportFigures) {
        bool okDpi = false;
        out.exportDpi = parser.value(dpiOption).toInt(&okDpi);
        if (!okDpi || out.exportDpi < 36 || out.exportDpi > 2400 || out.exportDirectory.isEmpty()) {
            std::fprintf(stderr, "contrast-explorer: --export-figures DIR [--dpi N]: N must be "
                                 "an integer between 36 and 2400\n");
            return 2;
        }
    }
    // --export-figures runs like --screenshot: headless handler, waits for the results.
    out.screenshot = parser.isSet(screenshotOption) || out.exportFigures;
    if (headless && !out.screenshot) {
        out.screenshot = true;
        out.screenshotPath =
            QDir::current().absoluteFilePath(out.demo ? QStringLiteral("contrast-explorer-demo.png")
                                                      : QStringLiteral("contrast-explorer.png"));
        std::fprintf(stderr,
                     "contrast-explorer: no display found (DISPLAY and WAYLAND_DISPLAY are not "
                     "set); rendering the window to %s instead\n",
                     qPrintable(out.screenshotPath));
    }
    out.timing = parser.isSet(timingOption) || out.screenshot;
    if (out.screenshot && !out.exportFigures && out.screenshotPath.isEmpty()) {
        std::fprintf(stderr, "contrast-explorer: --screenshot needs a file name\n");
        return 2;
    }
    bool okTimeout = false;
    const int timeoutSeconds = parser.value(timeoutOption).toInt(&okTimeout);
    out.timeoutSeconds = okTimeout ? std::max(1, timeoutSeconds) : 120;
    return std::nullopt;
}

/// Headless: no dialog can be answered, so problems go to stderr and end the run; the window
/// takes the asked size. Returns false when --size is malformed.
bool prepareHeadlessWindow(cx::ui::MainWindow& window, const QString& size) {
    cx::ui::ErrorReporter::setHandler([](const QString& title, const QString& message) {
        std::fprintf(stderr, "contrast-explorer: %s: %s\n", qPrintable(title), qPrintable(message));
        QTimer::singleShot(0, qApp, [] { QCoreApplication::exit(1); });
    });
    // Nobody can say where moved data went: a session naming missing files is reported.
    cx::ui::ProjectSession::setLocateHandler(
        [](const QString&, const QString&) { return QString(); });
    window.setSettingsPersistent(false);
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)$")).match(size);
    if (!match.hasMatch()) {
        std::fprintf(stderr, "contrast-explorer: --size: expected WxH, e.g. 1440x900\n");
        return false;
    }
    window.resize(std::clamp(match.captured(1).toInt(), 480, 8000),
                  std::clamp(match.captured(2).toInt(), 360, 8000));
    return true;
}

/// --timing: reports when the topics workspace first shows a result and its AUC chart.
void reportFirstResult(cx::ui::MainWindow& window, const QElapsedTimer& clock) {
    cx::ui::TopicsWorkspace* topics = window.workspace<cx::ui::TopicsWorkspace>();
    QObject::connect(topics, &cx::ui::Workspace::settledChanged, &window, [&clock, topics] {
        static bool reported = false;
        if (!reported && topics->isSettled() && topics->controller()->solution().isValid()) {
            reported = true;
            std::fprintf(stderr, "timing: first result and AUC chart %lld ms after start\n",
                         static_cast<long long>(clock.elapsed()));
        }
    });
}

/// Writes the screenshot (or every figure) once the shown workspace has settled, or when the
/// timeout passes, prints where it went and ends the event loop.
void captureWhenSettled(cx::ui::MainWindow& window, const LaunchOptions& options) {
    // Shared, not a local: the lambdas run from the event loop, after this function returns.
    auto taken = std::make_shared<bool>(false);
    const auto capture = [&window, taken, options](bool timedOut) {
        if (*taken) {
            return;
        }
        *taken = true;
        if (timedOut) {
            std::fprintf(stderr, "contrast-explorer: results not ready before the timeout; "
                                 "rendering the window as it is\n");
        }
        if (options.exportFigures) {
            QString error;
            if (!cx::ui::exportAllFigures(*window.currentWorkspace(), options.exportDirectory,
                                          options.exportDpi, nullptr, &error)) {
                std::fprintf(stderr, "contrast-explorer: %s\n", qPrintable(error));
                QCoreApplication::exit(1);
                return;
            }
            std::printf("%s\n", qPrintable(QDir(options.exportDirectory).absolutePath()));
            std::fflush(stdout);
            QCoreApplication::exit(0);
            return;
        }
        const QPixmap image = window.grab();
        if (image.isNull() || !image.save(options.screenshotPath, "PNG")) {
            std::fprintf(stderr, "contrast-explorer: %s: could not write the screenshot\n",
                         qPrintable(options.screenshotPath));
            QCoreApplication::exit(1);
            return;
        }
        std::printf("%s\n", qPrintable(QFileInfo(options.screenshotPath).absoluteFilePath()));
        std::fflush(stdout);
        QCoreApplication::exit(0);
    };
    // Settled = the shown workspace's results are all there (Topics: first result and the
    // AUC sweep; Chromatin: model, segmentation, enrichment and weight sweep). Checked one
    // event-loop turn later so that a chain of synchronous state changes (load done →
    // build started) has completed, then once more after the views had a chance to lay out
    // and paint.
    cx::ui::Workspace* shown = window.currentWorkspace();
    const auto check = [shown, capture] {
        QTimer::singleShot(0, shown, [shown, capture] {
            if (shown->isSettled()) {
                QTimer::singleShot(150, shown, [shown, capture] {
                    if (shown->isSettled()) {
                        capture(false);
                    }
                });
            }
        });
    };
    QObject::connect(shown, &cx::ui::Workspace::settledChanged, &window, check);
    check();
    QTimer::singleShot(options.timeoutSeconds * 1000, &window, [capture] { capture(true); });
}

} // namespace

int main(int argc, char** argv) {
    QElapsedTimer clock;
    clock.start();
    // No display (a server, CI, a container): run on the offscreen platform and render the
    // window to a PNG instead of failing to start (README's first set-up command relies on it).
    const bool headless = qEnvironmentVariableIsEmpty("DISPLAY") &&
                          qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
                          qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    if (headless) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication application(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("ContrastExplorer"));
    QCoreApplication::setApplicationName(QStringLiteral("Contrast Explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QGuiApplication::setDesktopFileName(QStringLiteral("contrast-explorer"));

    LaunchOptions options;
    if (const std::optional<int> exitCode = parseOptions(application, headless, options)) {
        return *exitCode;
    }

    cx::ui::applyApplicationStyle(application);
    cx::ui::MainWindow window;
    if (options.screenshot) {
        if (!prepareHeadlessWindow(window, options.size)) {
            return 2;
        }
    } else {
        window.restoreSettings();
    }
    if (options.timing) {
        application.installEventFilter(new FirstPaintProbe(&window, clock));
    }
    if (!options.tab.isEmpty() && !window.setCurrentWorkspace(options.tab)) {
        std::fprintf(stderr, "contrast-explorer: --tab: no workspace '%s' (%s)\n",
                     qPrintable(options.tab),
                     qPrintable(window.workspaceNames().join(QStringLiteral(", "))));
        return 2;
    }
    window.show();

    if (options.demo) {
        if (!window.openDemo() && options.screenshot) {
            return 1;
        }
    } else if (!options.paths.isEmpty()) {
        window.openPaths(options.paths);
    }
    if (!options.tab.isEmpty()) {
        window.setCurrentWorkspace(options.tab); // over the session's active tab
    }
    if (options.timing) {
        reportFirstResult(window, clock);
    }
    if (options.screenshot) {
        captureWhenSettled(window, options);
    }
    return application.exec();
}
