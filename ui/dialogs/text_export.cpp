#include "ui/dialogs/text_export.h"

#include "ui/framework/error_reporter.h"
#include "ui/widgets/export_helpers.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

namespace cx::ui {

namespace {
const QString kExportDirectoryKey = QStringLiteral("export.directory");

QString suffixOfFilter(const QString& filter) {
    static const QRegularExpression pattern(QStringLiteral("\\*\\.([A-Za-z0-9]+)"));
    const QRegularExpressionMatch match = pattern.match(filter);
    return match.hasMatch() ? match.captured(1) : QString();
}
} // namespace

QString lastExportDirectory() {
    return QSettings()
        .value(kExportDirectoryKey,
               QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
        .toString();
}

void rememberExportDirectory(const QString& exportedFile) {
    QSettings().setValue(kExportDirectoryKey, QFileInfo(exportedFile).absolutePath());
}

QString exportTextInteractively(QWidget* parent, const QString& what, const QString& baseName,
                                const QStringList& filters,
                                const std::function<QString(const QString& suffix)>& content) {
    const QString directory = lastExportDirectory();
    QString selectedFilter = filters.value(0);
    const QString firstSuffix = suffixOfFilter(selectedFilter);
    QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export %1").arg(what),
        QDir(directory).absoluteFilePath(baseName + QLatin1Char('.') + firstSuffix),
        filters.join(QStringLiteral(";;")), &selectedFilter);
    if (path.isEmpty()) {
        return {};
    }
    QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix.isEmpty()) {
        suffix = suffixOfFilter(selectedFilter);
        path += QLatin1Char('.') + suffix;
    }
    rememberExportDirectory(path);
    QString error;
    if (!writeTextFileAtomically(path, content(suffix), &error)) {
        ErrorReporter::report(parent, QObject::tr("Could not export the %1").arg(what.toLower()),
                              error);
        return {};
    }
    return path;
}

} // namespace cx::ui
