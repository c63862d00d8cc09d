#pragma once

#include "ui/framework/error_reporter.h"
#include "ui/framework/workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"
#include "ui/shell/resource_locator.h"
#include "ui/topics/topic_types.h"

#include "core/topics/synthetic_topics.h"

#include <gtest/gtest.h>

#include <QChartView>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QSignalSpy>
#include <QSlider>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace cx::ui::test {

/// A small seeded A/B/C corpus (foreground = group foreground, background = group background)
/// that builds an engine in well under a second.
inline CorpusHandle syntheticCorpus(std::int64_t documentsPerSide = 1500, int vocabulary = 300,
                                    std::uint64_t seed = 7) {
    cx::SyntheticTopicSpec spec;
    spec.vocabularySize = vocabulary;
    spec.numA = 3;
    spec.numB = 3;
    spec.numC = 3;
    spec.foregroundDocuments = documentsPerSide;
    spec.backgroundDocuments = documentsPerSide;
    spec.documentLength = 40;
    spec.seed = seed;
    auto generated = cx::generateSyntheticTopics(spec);
    CorpusHandle handle;
    handle.corpus = std::make_shared<const cx::Corpus>(std::move(generated.corpus));
    handle.source = QStringLiteral("synthetic A/B/C corpus");
    return handle;
}

inline SelectionSpec syntheticSelection() {
    SelectionSpec spec;
    spec.foregroundRule = QStringLiteral("group=foreground");
    spec.backgroundRule = QStringLiteral("group=background");
    return spec;
}

/// The visible text items drawn over a chart (its placeholder message).
inline QStringList chartMessages(const QChartView& view) {
    QStringList out;
    for (QGraphicsItem* item : view.scene()->items()) {
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item); text && text->isVisible()) {
            out << text->text();
        }
    }
    return out;
}

/// Processes events until `condition` holds or `timeoutMs` passes. Returns the condition.
/// Between checks the thread sleeps in the event loop until an event arrives (a worker's
/// result, a timer) or a 5 ms tick passes: no spinning, which on a 2-core machine would take a
/// core from the workers being waited for.
inline bool waitUntil(const std::function<bool()>& condition, int timeoutMs = 20000) {
    QElapsedTimer timer;
    timer.start();
    QTimer tick;
    tick.start(5);
    while (!condition()) {
        if (timer.elapsed() > timeoutMs) {
            return false;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

/// Every workspace of the window that has data is settled (no task running or queued).
inline bool everyWorkspaceSettled(const MainWindow& window) {
    for (const Workspace* workspace : window.workspaces()) {
        if (workspace->hasSessionData() && !workspace->isSettled()) {
            return false;
        }
    }
    return true;
}

/// The threads a signal was emitted on, recorded by a direct connection (it runs in the
/// emitting thread). The record is shared with the connection, so an emission after the test
/// has moved on is harmless; the connection ends with this object.
class EmittingThreads {
public:
    template <typename Sender, typename Signal>
    EmittingThreads(const Sender* sender, Signal signal) : m_record(std::make_shared<Record>()) {
        m_connection = QObject::connect(sender, signal, [record = m_record] {
            const std::lock_guard<std::mutex> lock(record->mutex);
            record->threads.push_back(QThread::currentThread());
        });
    }
    ~EmittingThreads() { QObject::disconnect(m_connection); }
    EmittingThreads(const EmittingThreads&) = delete;
    EmittingThreads& operator=(const EmittingThreads&) = delete;

    /// Waits (in the event loop) until an emission was recorded; the threads so far (empty
    /// when none came within the timeout). A receiver's queued connection can see the signal
    /// before the emitting thread has run the direct connection: wait for the record itself.
    std::vector<QThread*> waitForAny(int timeoutMs = 20000) const {
        waitUntil(
            [&] {
                const std::lock_guard<std::mutex> lock(m_record->mutex);
                return !m_record->threads.empty();
            },
            timeoutMs);
        const std::lock_guard<std::mutex> lock(m_record->mutex);
        return m_record->threads;
    }

private:
    struct Record {
        std::mutex mutex;
        std::vector<QThread*> threads;
    };
    std::shared_ptr<Record> m_record;
    QMetaObject::Connection m_connection;
};

/// Records ErrorReporter messages instead of showing dialogs, for the recorder's lifetime.
class ErrorRecorder {
public:
    /// Also answers the "open the other workspaces?" question of a session with unreadable
    /// sections: recorded like an error, answered `openPartialSessions` (default: Cancel).
    ErrorRecorder() {
        ErrorReporter::setHandler([this](const QString& title, const QString& message) {
            titles << title;
            messages << message;
        });
        ProjectSession::setPartialOpenHandler([this](const QString& problems) {
            titles << QStringLiteral("Part of the session could not be opened");
            messages << problems;
            return openPartialSessions;
        });
    }
    ~ErrorRecorder() {
        ErrorReporter::setHandler({});
        ProjectSession::setPartialOpenHandler({});
    }
    ErrorRecorder(const ErrorRecorder&) = delete;
    ErrorRecorder& operator=(const ErrorRecorder&) = delete;
    QStringList titles;
    QStringList messages;
    bool openPartialSessions = false;
};

/// Measures the longest gap between event-loop turns (a 2 ms heartbeat) from construction
/// until stop(), e.g. while a slider is dragged.
class EventLoopGapMeter {
public:
    EventLoopGapMeter() {
        m_clock.start();
        m_heartbeat.setInterval(2);
        QObject::connect(&m_heartbeat, &QTimer::timeout, [this] {
            const qint64 now = m_clock.elapsed();
            m_longestGap = std::max(m_longestGap, now - m_lastTick);
            m_lastTick = now;
        });
        m_heartbeat.start();
    }
    void stop() { m_heartbeat.stop(); }
    qint64 longestGapMs() const { return m_longestGap; }
    /// Milliseconds since construction.
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    QElapsedTimer m_clock;
    QTimer m_heartbeat;
    qint64 m_lastTick = 0;
    qint64 m_longestGap = 0;
};

/// Drags `slider` the way a hand does: to `step`, 2·`step`, … every `intervalMs` until it
/// reaches its maximum. Returns false when that takes longer than `timeoutMs`.
inline bool dragSliderToMaximum(QSlider* slider, int step, int intervalMs, int timeoutMs = 30000) {
    QTimer drag;
    drag.setInterval(intervalMs);
    int value = 0;
    QObject::connect(&drag, &QTimer::timeout, [&] {
        value += step;
        slider->setValue(std::min(value, slider->maximum()));
        if (value >= slider->maximum()) {
            drag.stop();
        }
    });
    drag.start();
    return waitUntil([&] { return !drag.isActive(); }, timeoutMs);
}

/// What a run of the built contrast-explorer (CX_GUI_PATH) left behind.
struct GuiRun {
    bool exited = false; ///< started, and finished within 90 s
    QProcess::ExitStatus exitStatus = QProcess::CrashExit;
    int exitCode = -1;
    QString output; ///< stdout
    QString errors; ///< stderr
};

/// The system environment with a private settings location in `directory` (what the app
/// renders must not depend on the user's settings), on the offscreen platform.
inline QProcessEnvironment privateGuiEnvironment(const QTemporaryDir& directory) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"),
                       directory.filePath(QStringLiteral("config")));
    return environment;
}

/// Runs contrast-explorer with `arguments` in `environment` (in `workingDirectory` unless
/// empty) and waits for it to exit.
inline GuiRun runGui(const QStringList& arguments, const QProcessEnvironment& environment,
                     const QString& workingDirectory = {}) {
    QProcess process;
    process.setProcessEnvironment(environment);
    if (!workingDirectory.isEmpty()) {
        process.setWorkingDirectory(workingDirectory);
    }
    process.start(QStringLiteral(CX_GUI_PATH), arguments);
    GuiRun run;
    run.exited = process.waitForStarted(10000) && process.waitForFinished(90000);
    run.exitStatus = process.exitStatus();
    run.exitCode = process.exitCode();
    run.output = QString::fromLocal8Bit(process.readAllStandardOutput());
    run.errors = QString::fromLocal8Bit(process.readAllStandardError());
    return run;
}

/// Success when the run exited normally with status 0; otherwise says how, with its stderr.
inline ::testing::AssertionResult exitedCleanly(const GuiRun& run) {
    if (!run.exited) {
        return ::testing::AssertionFailure() << "contrast-explorer did not exit";
    }
    if (run.exitStatus != QProcess::NormalExit || run.exitCode != 0) {
        return ::testing::AssertionFailure()
               << "contrast-explorer "
               << (run.exitStatus == QProcess::NormalExit ? "exited with " : "crashed, status ")
               << run.exitCode << ": " << run.errors.toStdString();
    }
    return ::testing::AssertionSuccess();
}

/// The pixels of every `stride`-th row and column of `image`, for coarse checks of what was
/// rendered (colours, dark text pixels).
inline QList<QRgb> samplePixels(const QImage& image, int stride) {
    QList<QRgb> pixels;
    for (int y = 0; y < image.height(); y += stride) {
        for (int x = 0; x < image.width(); x += stride) {
            pixels.append(image.pixel(x, y));
        }
    }
    return pixels;
}

/// The distinct colours among samplePixels(image, stride).
inline QSet<QRgb> distinctColours(const QImage& image, int stride) {
    const QList<QRgb> pixels = samplePixels(image, stride);
    return QSet<QRgb>(pixels.begin(), pixels.end());
}

/// How many of `pixels` are dark (text, lines): grey level below 110.
inline qsizetype countDark(const QList<QRgb>& pixels) {
    return std::count_if(pixels.begin(), pixels.end(),
                         [](QRgb pixel) { return qGray(pixel) < 110; });
}

namespace detail {

/// Every {"path": relative} below `value`, made absolute against `base`.
inline QJsonValue absolutePaths(const QJsonValue& value, const QDir& base) {
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue& item : value.toArray()) {
            out.append(absolutePaths(item, base));
        }
        return out;
    }
    if (!value.isObject()) {
        return value;
    }
    QJsonObject out;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        out.insert(it.key(), it.key() == QLatin1String("path") && it.value().isString()
                                 ? QJsonValue(base.absoluteFilePath(it.value().toString()))
                                 : absolutePaths(it.value(), base));
    }
    return out;
}

} // namespace detail

/// Writes into `folder` a copy of the bundled demo session holding only the workspaces in `keys`
/// (its title included, as a user's copy of the demo would), with absolute data paths, and
/// returns its path (empty when the demo is not found).
inline QString demoSubset(const QTemporaryDir& folder, const QStringList& keys) {
    const QString demo = demoSessionPath();
    QFile file(demo);
    if (demo.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        return {};
    }
    QJsonObject session = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject all = session.value(QStringLiteral("workspaces")).toObject();
    QJsonObject kept;
    for (const QString& key : keys) {
        kept.insert(key, detail::absolutePaths(all.value(key), QFileInfo(demo).absoluteDir()));
    }
    session.insert(QStringLiteral("workspaces"), kept);
    session.insert(QStringLiteral("active"), keys.value(0));
    const QString path = folder.filePath(QStringLiteral("demo-part.cxproj"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly)) {
        return {};
    }
    out.write(QJsonDocument(session).toJson());
    return path;
}

} // namespace cx::ui::test
