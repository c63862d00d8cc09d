#pragma once

#include <QList>
#include <QStringList>

namespace cx::ui {

/// Most-recently-opened sessions, data files and folders, newest first, persisted in QSettings.
/// An entry is a list of paths: one path (a session, a corpus, a track), or several opened
/// together as one data set (two chromatin tracks), which File ▸ Open Recent reopens together.
class RecentFiles {
public:
    static QList<QStringList> entries();
    static void add(const QStringList& paths);
    static void add(const QString& path) { add(QStringList{path}); }
    static void clear();
    /// Menu text of an entry: "a.txt.gz" or "a.txt.gz + b.txt.gz" (+ "+ N more").
    static QString label(const QStringList& entry);
    /// The menu texts of `entries`, told apart: entries whose label() is the same (answer.csv
    /// opened from two folders) each get " — " and the shortest end of their first path's folder
    /// that differs between them ("answer.csv — gui/demo", "answer.csv — ci/demo"); the others
    /// keep label().
    static QStringList labels(const QList<QStringList>& entries);
    static constexpr int kMaximum = 10;
};

} // namespace cx::ui
