#pragma once

#include <QStringList>

namespace cx::ui {

/// Most-recently-opened data files and folders, newest first, persisted in QSettings.
class RecentFiles {
public:
    static QStringList list();
    static void add(const QString& path);
    static void clear();
    static constexpr int kMaximum = 10;
};

} // namespace cx::ui
