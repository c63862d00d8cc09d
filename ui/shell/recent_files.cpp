#include "ui/shell/recent_files.h"

#include <QFileInfo>
#include <QSettings>
#include <QVariant>

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
