// contrast-explorer: the desktop application. Thin: options, application identity, style, and
// the main window; everything else lives in cx_ui.
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

#include <cstdio>
#include <memory>

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
    parser.addOption(exportOption);
    parser.addOption(dpiOption);
    parser.addOption(demoOption);
    parser.addOption(screenshotOption);
    parser.addOption(sizeOption);
    parser.addOption(timeoutOption);
    parser.addOption(timingOption);
    parser.addOption(tabOption);
    parser.addPositionalArgument(
        QStringLiteral("files"),
        QStringLiteral("A session (.cxproj) to open, or data: a corpus file or folder, or "
                       "chromatin tracks (ChromHMM binarized files, BED annotations)."),
        QStringLiteral("[files...]"));
    parser.process(application);

    QString screenshotPath = parser.value(screenshotOption);
    const QString exportDirectory = parser.value(exportOption);
    const bool exportFigures = parser.isSet(exportOption);
    int exportDpi = 300;
    if (exportFigures) {
        bool okDpi = false;
        exportDpi = parser.value(dpiOption).toInt(&okDpi);
        if (!okDpi || exportDpi < 36 || exportDpi > 2400 || exportDirectory.isEmpty()) {
            std::fprintf(stderr, "contrast-explorer: --export-figures DIR [--dpi N]: N must be "
                                 "an integer between 36 and 2400\n");
            return 2;
        }
    }
    // --export-figures runs like --screenshot: headless handler, waits for the results.
    bool screenshot = parser.isSet(screenshotOption) || exportFigures;
    if (headless && !screenshot) {
        screenshot = true;
        screenshotPath = QDir::current().absoluteFilePath(
            parser.isSet(demoOption) ? QStringLiteral("contrast-explorer-demo.png")
                                     : QStringLiteral("contrast-explorer.png"));
        std::fprintf(stderr,
                     "contrast-explorer: no display found (DISPLAY and WAYLAND_DISPLAY are not "
                     "set); rendering the window to %s instead\n",
                     qPrintable(screenshotPath));
    }
    const bool timing = parser.isSet(timingOption) || screenshot;
    if (screenshot && !exportFigures && screenshotPath.isEmpty()) {
        std::fprintf(stderr, "contrast-explorer: --screenshot needs a file name\n");
        return 2;
    }

    cx::ui::applyApplicationStyle(application);
    cx::ui::MainWindow window;
    if (screenshot) {
        // Headless: no dialog can be answered, so problems go to stderr and end the run.
        cx::ui::ErrorReporter::setHandler([](const QString& title, const QString& message) {
            std::fprintf(stderr, "contrast-explorer: %s: %s\n", qPrintable(title),
                         qPrintable(message));
            QTimer::singleShot(0, qApp, [] { QCoreApplication::exit(1); });
        });
        // Nobody can say where moved data went: a session naming missing files is reported.
        cx::ui::ProjectSession::setLocateHandler(
            [](const QString&, const QString&) { return QString(); });
        window.setSettingsPersistent(false);
        const QRegularExpressionMatch size =
            QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)$")).match(parser.value(sizeOption));
        if (!size.hasMatch()) {
            std::fprintf(stderr, "contrast-explorer: --size: expected WxH, e.g. 1440x900\n");
            return 2;
        }
        window.resize(std::clamp(size.captured(1).toInt(), 480, 8000),
                      std::clamp(size.captured(2).toInt(), 360, 8000));
    } else {
        window.restoreSettings();
    }
    if (timing) {
        application.installEventFilter(new FirstPaintProbe(&window, clock));
    }
    if (parser.isSet(tabOption) && !window.setCurrentWorkspace(parser.value(tabOption))) {
        std::fprintf(stderr, "contrast-explorer: --tab: no workspace '%s' (%s)\n",
                     qPrintable(parser.value(tabOption)),
                     qPrintable(window.workspaceNames().join(QStringLiteral(", "))));
        return 2;
    }
    window.show();

    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(demoOption)) {
        if (!window.openDemo() && screenshot) {
            return 1;
        }
    } else if (!positional.isEmpty()) {
        window.openPaths(positional);
    }
    if (parser.isSet(tabOption)) {
        window.setCurrentWorkspace(parser.value(tabOption)); // over the session's active tab
    }

    cx::ui::TopicsWorkspace* topics = window.workspace<cx::ui::TopicsWorkspace>();
    if (timing) {
        QObject::connect(topics, &cx::ui::Workspace::settledChanged, &window, [&clock, topics] {
            static bool reported = false;
            if (!reported && topics->isSettled() && topics->controller()->solution().isValid()) {
                reported = true;
                std::fprintf(stderr, "timing: first result and AUC chart %lld ms after start\n",
                             static_cast<long long>(clock.elapsed()));
            }
        });
    }
    if (screenshot) {
        // Shared, not a local: the lambdas run from the event loop, after this block ends.
        auto taken = std::make_shared<bool>(false);
        const auto capture = [&window, taken, screenshotPath, exportFigures, exportDirectory,
                              exportDpi](bool timedOut) {
            if (*taken) {
                return;
            }
            *taken = true;
            if (timedOut) {
                std::fprintf(stderr, "contrast-explorer: results not ready before the timeout; "
                                     "rendering the window as it is\n");
            }
            if (exportFigures) {
                QString error;
                if (!cx::ui::exportAllFigures(*window.currentWorkspace(), exportDirectory,
                                              exportDpi, nullptr, &error)) {
                    std::fprintf(stderr, "contrast-explorer: %s\n", qPrintable(error));
                    QCoreApplication::exit(1);
                    return;
                }
                std::printf("%s\n", qPrintable(QDir(exportDirectory).absolutePath()));
                std::fflush(stdout);
                QCoreApplication::exit(0);
                return;
            }
            const QPixmap image = window.grab();
            if (image.isNull() || !image.save(screenshotPath, "PNG")) {
                std::fprintf(stderr, "contrast-explorer: %s: could not write the screenshot\n",
                             qPrintable(screenshotPath));
                QCoreApplication::exit(1);
                return;
            }
            std::printf("%s\n", qPrintable(QFileInfo(screenshotPath).absoluteFilePath()));
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
        bool okTimeout = false;
        const int timeoutSeconds = parser.value(timeoutOption).toInt(&okTimeout);
        QTimer::singleShot((okTimeout ? std::max(1, timeoutSeconds) : 120) * 1000, &window,
                           [capture] { capture(true); });
    }
    return application.exec();
}
