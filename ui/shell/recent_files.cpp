#include "ui/shell/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace cx::ui {

namespace {
const QString kRecentFilesKey = QStringLiteral("recentFiles.paths");
}

QStringList RecentFiles::list() {
    return QSettings().value(kRecentFilesKey).toStringList();
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList paths = list();
    paths.removeAll(absolute);
    paths.prepend(absolute);
    while (paths.size() > kMaximum) {
        paths.removeLast();
    }
    QSettings().setValue(kRecentFilesKey, paths);
}

void RecentFiles::clear() {
    QSettings().remove(kRecentFilesKey);
}

} // namespace cx::ui
