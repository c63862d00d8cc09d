#pragma once

#include <QLocale>
#include <QString>

namespace cx::ui {

/// "1 track", "3 tracks", "12,400 bins": a count with its noun in English singular or plural.
/// (tr("%n track(s)") shows "(s)" literally unless a translation catalogue is installed.)
inline QString countOf(qint64 n, const QString& singular, const QString& plural) {
    return QStringLiteral("%1 %2").arg(QLocale().toString(n), n == 1 ? singular : plural);
}

} // namespace cx::ui
