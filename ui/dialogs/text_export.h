#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace cx::ui {

/// The folder the last single figure or table export went to (Export All keeps its own); the
/// Documents folder before the first.
QString lastExportDirectory();
/// Remembers the folder of `exportedFile` for the next export's file dialog.
void rememberExportDirectory(const QString& exportedFile);

/// Asks for a file name (filters like "Tab-separated values (*.tsv)"), produces the text for
/// the chosen suffix and writes it atomically; errors go to ErrorReporter. Returns the written
/// path or an empty string. Shared by every workspace's table/text exports.
QString exportTextInteractively(QWidget* parent, const QString& what, const QString& baseName,
                                const QStringList& filters,
                                const std::function<QString(const QString& suffix)>& content);

} // namespace cx::ui
