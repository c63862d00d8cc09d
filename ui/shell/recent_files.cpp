#include "ui/shell/recent_files.h"

#include <QFileInfo>
#include <QSet>
#include <QSettings>
#include <QVariant>

#include <algorithm>

namespace cx::ui {

namespace {
/// One QStringList per entry. (recentFiles.paths, one path per entry, is read once for
/// entries recorded before multi-file entries existed.)
const QString kEntriesKey = QStringLiteral("recentFiles.entries");
const QString kOldPathsKey = QStringLiteral("recentFiles.paths");
} // namespace

QList<QStringList> RecentFiles::entries() {
    QSettings settings;
    QList<QStringList> out;
    if (!settings.contains(kEntriesKey)) {
        for (const QString& path : settings.value(kOldPathsKey).toStringList()) {
            out << QStringList{path};
        }
        return out;
    }
    for (const QVariant& entry : settings.value(kEntriesKey).toList()) {
        const QStringList paths = entry.toStringList();
        if (!paths.isEmpty()) {
            out << paths;
        }
    }
    return out;
}

void RecentFiles::add(const QStringList& paths) {
    QStringList absolute;
    for (const QString& path : paths) {
        absolute << QFileInfo(path).absoluteFilePath();
    }
    if (absolute.isEmpty()) {
        return;
    }
    QList<QStringList> list = entries();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaximum) {
        list.removeLast();
    }
    QVariantList stored;
    for (const QStringList& entry : list) {
        stored << QVariant(entry);
    }
    QSettings settings;
    settings.setValue(kEntriesKey, stored);
    settings.remove(kOldPathsKey);
}

void RecentFiles::clear() {
    QSettings settings;
    settings.setValue(kEntriesKey, QVariantList());
    settings.remove(kOldPathsKey);
}

QStringList RecentFiles::labels(const QList<QStringList>& entries) {
    QStringList out;
    for (const QStringList& entry : entries) {
        out << label(entry);
    }
    const auto folderParts = [](const QStringList& entry) {
        return entry.isEmpty() ? QStringList()
                               : QFileInfo(entry.front())
                                     .absolutePath()
                                     .split(QLatin1Char('/'), Qt::SkipEmptyParts);
    };
    QList<bool> done(out.size(), false);
    for (qsizetype i = 0; i < out.size(); ++i) {
        if (done[i]) {
            continue;
        }
        QList<qsizetype> group = {i};
        for (qsizetype j = i + 1; j < out.size(); ++j) {
            if (!done[j] && out[j] == out[i]) {
                group << j;
            }
        }
        if (group.size() < 2) {
            continue;
        }
        QList<QStringList> parts;
        qsizetype deepest = 1;
        for (const qsizetype j : group) {
            parts << folderParts(entries[j]);
            deepest = std::max(deepest, parts.back().size());
        }
        // The fewest trailing folders that tell every entry of the group apart (all of them
        // when none do: the same folder twice, which add() does not store).
        qsizetype depth = 1;
        const auto tail = [&](const QStringList& folders, qsizetype n) {
            return folders.mid(std::max<qsizetype>(0, folders.size() - n)).join(QLatin1Char('/'));
        };
        for (; depth < deepest; ++depth) {
            QSet<QString> seen;
            for (const QStringList& folders : parts) {
                seen.insert(tail(folders, depth));
            }
            if (seen.size() == group.size()) {
                break;
            }
        }
        for (qsizetype k = 0; k < group.size(); ++k) {
            const QString where = tail(parts[k], depth);
            out[group[k]] +=
                QStringLiteral(" — ") + (where.isEmpty() ? QStringLiteral("/") : where);
            done[group[k]] = true;
        }
    }
    return out;
}

QString RecentFiles::label(const QStringList& entry) {
    if (entry.isEmpty()) {
        return {};
    }
    QString text = QFileInfo(entry.front()).fileName();
    if (entry.size() >= 2) {
        text += QStringLiteral(" + ") + QFileInfo(entry[1]).fileName();
    }
    if (entry.size() > 2) {
        text += QObject::tr(" + %1 more").arg(entry.size() - 2);
    }
    return text;
}

} // namespace cx::ui
