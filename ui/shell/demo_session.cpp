#include "ui/shell/demo_session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace cx::ui {

std::optional<DemoSession> DemoSession::load(const QString& path, QString* error) {
    const auto fail = [&](const QString& problem) -> std::optional<DemoSession> {
        if (error) {
            *error = path + QStringLiteral(": ") + problem;
        }
        return std::nullopt;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(file.errorString());
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // Report the line of the offending byte, like every other reader does.
        const QByteArray bytes = (file.seek(0), file.readAll());
        const int line = bytes.left(parseError.offset).count('\n') + 1;
        if (error) {
            *error = QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(parseError.errorString());
        }
        return std::nullopt;
    }
    if (!document.isObject()) {
        return fail(QStringLiteral("expected a JSON object"));
    }
    const QJsonObject object = document.object();
    DemoSession session;
    session.title = object.value(QStringLiteral("title")).toString();
    const QString corpus = object.value(QStringLiteral("corpus")).toString();
    if (corpus.isEmpty()) {
        return fail(QStringLiteral("missing \"corpus\""));
    }
    session.corpusPath = QFileInfo(path).absoluteDir().absoluteFilePath(corpus);
    session.format = object.value(QStringLiteral("format")).toString(QStringLiteral("auto"));
    session.foreground = object.value(QStringLiteral("foreground")).toString();
    session.background = object.value(QStringLiteral("background")).toString();
    session.positive = object.value(QStringLiteral("positive")).toString();
    session.numComponents = object.value(QStringLiteral("k")).toInt(10);
    session.gamma = object.value(QStringLiteral("gamma")).toDouble(0.0);
    session.seed = static_cast<std::uint64_t>(object.value(QStringLiteral("seed")).toInteger(1));
    session.minDocumentFrequency = object.value(QStringLiteral("min_df")).toInteger(2);
    session.maxDocumentFraction = object.value(QStringLiteral("max_df")).toDouble(1.0);
    session.dropNumbers = object.value(QStringLiteral("drop_numbers")).toBool(false);
    if (session.minDocumentFrequency < 1) {
        return fail(QStringLiteral("\"min_df\" must be ≥ 1"));
    }
    if (!(session.maxDocumentFraction > 0) || session.maxDocumentFraction > 1) {
        return fail(QStringLiteral("\"max_df\" must lie in (0, 1]"));
    }
    if (session.foreground.isEmpty()) {
        return fail(QStringLiteral("missing \"foreground\""));
    }
    if (session.numComponents < 1 || session.numComponents > 200) {
        return fail(QStringLiteral("\"k\" must lie in [1, 200]"));
    }
    if (!(session.gamma >= 0)) {
        return fail(QStringLiteral("\"gamma\" must be ≥ 0"));
    }
    return session;
}

} // namespace cx::ui
