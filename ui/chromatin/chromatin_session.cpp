#include "ui/chromatin/chromatin_session.h"

#include "ui/shell/resource_locator.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace cx::ui {

std::optional<ChromatinSession> ChromatinSession::load(const QString& path, QString* error) {
    const auto fail = [&](const QString& problem) -> std::optional<ChromatinSession> {
        if (error) {
            *error = path + QStringLiteral(": ") + problem;
        }
        return std::nullopt;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(file.errorString());
    }
    const QByteArray bytes = file.read(16 * 1024 * 1024);
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const auto line = bytes.left(parseError.offset).count('\n') + 1;
        if (error) {
            *error = QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(parseError.errorString());
        }
        return std::nullopt;
    }
    if (!document.isObject()) {
        return fail(QStringLiteral("expected a JSON object"));
    }
    const QJsonObject object = document.object();
    const int version = object.value(QStringLiteral("version")).toInt(kVersion);
    if (version > kVersion) {
        return fail(QStringLiteral("written by a newer version (version %1; this one reads %2)")
                        .arg(version)
                        .arg(kVersion));
    }
    const QDir base = QFileInfo(path).absoluteDir();
    ChromatinSession session;
    session.title = object.value(QStringLiteral("title")).toString();
    for (const QJsonValue& track : object.value(QStringLiteral("tracks")).toArray()) {
        if (!track.isString() || track.toString().isEmpty()) {
            return fail(QStringLiteral("\"tracks\" must be a list of file names"));
        }
        session.trackPaths << base.absoluteFilePath(track.toString());
    }
    if (session.trackPaths.isEmpty()) {
        return fail(QStringLiteral("missing \"tracks\""));
    }
    for (const QJsonValue& value : object.value(QStringLiteral("annotations")).toArray()) {
        const QJsonObject entry = value.toObject();
        Annotation annotation;
        const QString file = entry.value(QStringLiteral("path")).toString();
        if (file.isEmpty()) {
            return fail(QStringLiteral("every annotation needs a \"path\""));
        }
        annotation.path = base.absoluteFilePath(file);
        annotation.foreground = entry.value(QStringLiteral("foreground")).toBool(false);
        annotation.background = entry.value(QStringLiteral("background")).toBool(false);
        annotation.lane = entry.value(QStringLiteral("lane")).toBool(false);
        annotation.enrichment = entry.value(QStringLiteral("enrichment")).toBool(true);
        if (annotation.foreground && annotation.background) {
            return fail(QStringLiteral("%1: an annotation cannot be both foreground and "
                                       "background")
                            .arg(file));
        }
        session.annotations << annotation;
    }
    session.parameters.numComponents = object.value(QStringLiteral("k")).toInt(7);
    session.parameters.seed =
        static_cast<std::uint64_t>(object.value(QStringLiteral("seed")).toInteger(1));
    const QString encoding =
        object.value(QStringLiteral("encoding")).toString(QStringLiteral("marks"));
    if (encoding == QLatin1String("marks")) {
        session.parameters.encoding = cx::ObservationEncoding::MarkVector;
    } else if (encoding == QLatin1String("combinations")) {
        session.parameters.encoding = cx::ObservationEncoding::MarkCombination;
    } else {
        return fail(QStringLiteral("\"encoding\" must be \"marks\" or \"combinations\""));
    }
    const QString decode =
        object.value(QStringLiteral("decode")).toString(QStringLiteral("posterior"));
    if (decode == QLatin1String("posterior")) {
        session.decoding = cx::DecodingMethod::Posterior;
    } else if (decode == QLatin1String("viterbi")) {
        session.decoding = cx::DecodingMethod::Viterbi;
    } else {
        return fail(QStringLiteral("\"decode\" must be \"posterior\" or \"viterbi\""));
    }
    session.gamma = object.value(QStringLiteral("gamma")).toDouble(0.0);
    if (!(session.gamma >= 0) || !std::isfinite(session.gamma)) {
        return fail(QStringLiteral("\"gamma\" must be a finite number ≥ 0"));
    }
    if (session.parameters.numComponents < 2 || session.parameters.numComponents > 100) {
        return fail(QStringLiteral("\"k\" must lie in [2, 100]"));
    }
    session.region = object.value(QStringLiteral("region")).toString();
    if (!session.region.isEmpty() &&
        !parseGenomicRegion(session.region, nullptr, nullptr, nullptr)) {
        return fail(
            QStringLiteral("\"region\": expected chr:start-end, got \"%1\"").arg(session.region));
    }
    return session;
}

bool ChromatinSession::looksLikeSession(const QString& path) {
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return false;
    }
    return file.read(64 * 1024).contains("\"tracks\"");
}

bool parseGenomicRegion(const QString& text, QString* chrom, qint64* start, qint64* end) {
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*([^:\\s]+)\\s*:\\s*([\\d,]+)\\s*[-–]\\s*([\\d,]+)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch()) {
        return false;
    }
    bool okStart = false;
    bool okEnd = false;
    const qint64 s = match.captured(2).remove(QLatin1Char(',')).toLongLong(&okStart);
    const qint64 e = match.captured(3).remove(QLatin1Char(',')).toLongLong(&okEnd);
    if (!okStart || !okEnd || e <= s) {
        return false;
    }
    if (chrom) {
        *chrom = match.captured(1);
    }
    if (start) {
        *start = s;
    }
    if (end) {
        *end = e;
    }
    return true;
}

QString chromatinDemoPath() {
    const QString directory = resourceDirectory();
    if (directory.isEmpty()) {
        return {};
    }
    const QString path =
        QDir(directory).absoluteFilePath(QStringLiteral("demo/chromatin/demo.json"));
    return QFileInfo::exists(path) ? path : QString();
}

} // namespace cx::ui
