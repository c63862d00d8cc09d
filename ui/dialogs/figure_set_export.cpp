#include "ui/dialogs/figure_set_export.h"

#include "ui/framework/error_reporter.h"
#include "ui/framework/workspace.h"
#include "ui/widgets/export_helpers.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>

#include <cmath>

namespace cx::ui {

bool writeFigureData(const QString& imagePath, const std::function<QString()>& data,
                     QString* written, QString* error) {
    if (written) {
        written->clear();
    }
    const QString values = data ? data() : QString();
    if (values.isEmpty()) {
        return true;
    }
    const QFileInfo image(imagePath);
    const QString path = image.dir().filePath(image.completeBaseName() + QStringLiteral(".tsv"));
    if (!writeTextFileAtomically(path, values, error)) {
        return false;
    }
    if (written) {
        *written = path;
    }
    return true;
}

bool exportAllFigures(const Workspace& workspace, const QString& directory, int dpi,
                      QStringList* written, QString* error) {
    const auto fail = [&](const QString& message) {
        if (error) {
            *error = message;
        }
        return false;
    };
    QDir dir(directory);
    if (!dir.mkpath(QStringLiteral("."))) {
        return fail(directory + QStringLiteral(": could not create the folder"));
    }
    if (dpi < 36 || dpi > 2400) {
        return fail(
            QStringLiteral("--dpi %1: resolution must lie between 36 and 2400 DPI").arg(dpi));
    }
    const auto note = [&](const QString& path) {
        if (written) {
            written->append(path);
        }
    };
    QJsonArray figureList;
    QSet<QString> tsvNames; // a table never overwrites a figure's data
    for (const WorkspaceFigure& figure : workspace.figures()) {
        QJsonArray files;
        // The print size the files have (the PNG's pixels at `dpi`, the PDF's page).
        const QSize pixels = figurePixels(figure.size, dpi);
        for (auto format : {ImageExportSettings::Format::Png, ImageExportSettings::Format::Svg,
                            ImageExportSettings::Format::Pdf}) {
            ImageExportSettings settings;
            settings.format = format;
            settings.dpi = dpi;
            settings.pixels = figurePixels(figure.size, dpi);
            const QString name =
                figure.name + QLatin1Char('.') + ImageExportSettings::suffix(format);
            const QString path = dir.filePath(name);
            if (!exportFigure(path, settings, figure.paint, error)) {
                return false;
            }
            note(path);
            files.append(name);
        }
        QJsonObject entry{{QStringLiteral("name"), figure.name},
                          {QStringLiteral("title"), figure.title},
                          {QStringLiteral("width_in"), pixels.width() / double(dpi)},
                          {QStringLiteral("height_in"), pixels.height() / double(dpi)},
                          {QStringLiteral("width_px"), pixels.width()},
                          {QStringLiteral("height_px"), pixels.height()},
                          {QStringLiteral("files"), files}};
        // The values it plots, beside its images (as the single-figure Export… writes them).
        QString dataPath;
        if (!writeFigureData(dir.filePath(figure.name + QStringLiteral(".png")), figure.data,
                             &dataPath, error)) {
            return false;
        }
        if (!dataPath.isEmpty()) {
            const QString name = QFileInfo(dataPath).fileName();
            note(dataPath);
            tsvNames.insert(name);
            entry.insert(QStringLiteral("data"), name);
        }
        figureList.append(entry);
    }
    QJsonArray tableList;
    for (const WorkspaceTable& table : workspace.tables()) {
        QString name = table.name + QStringLiteral(".tsv");
        for (int i = 2; tsvNames.contains(name); ++i) {
            name = table.name + QStringLiteral("-table-%1.tsv").arg(i);
        }
        tsvNames.insert(name);
        const QString path = dir.filePath(name);
        if (!writeTextFileAtomically(path, table.tsv(), error)) {
            return false;
        }
        note(path);
        tableList.append(name);
    }
    const QJsonObject manifest{
        {QStringLiteral("format"), QStringLiteral("contrast-explorer-figures")},
        {QStringLiteral("workspace"), workspace.title()},
        {QStringLiteral("dpi"), dpi},
        {QStringLiteral("analysis"), workspace.figureProvenance()},
        {QStringLiteral("figures"), figureList},
        {QStringLiteral("tables"), tableList}};
    const QString manifestPath = dir.filePath(QStringLiteral("figures.json"));
    if (!writeTextFileAtomically(
            manifestPath,
            QString::fromUtf8(QJsonDocument(manifest).toJson(QJsonDocument::Indented)), error)) {
        return false;
    }
    note(manifestPath);
    return true;
}

QString exportAllFiguresInteractively(QWidget* parent, const Workspace& workspace) {
    // Settings keys of this dialog.
    const QString directoryKey = QStringLiteral("export.all.directory");
    const QString dpiKey = QStringLiteral("export.all.dpi");
    QSettings store;
    const QString directory = QFileDialog::getExistingDirectory(
        parent, QObject::tr("Export All Figures to Folder"),
        store
            .value(directoryKey,
                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
            .toString());
    if (directory.isEmpty()) {
        return {};
    }
    bool ok = false;
    const int dpi = QInputDialog::getInt(parent, QObject::tr("Export All Figures"),
                                         QObject::tr("PNG resolution (DPI; SVG and PDF are "
                                                     "vector graphics at the same print size):"),
                                         store.value(dpiKey, 300).toInt(), 36, 2400, 1, &ok);
    if (!ok) {
        return {};
    }
    store.setValue(directoryKey, directory);
    store.setValue(dpiKey, dpi);
    QString error;
    if (!exportAllFigures(workspace, directory, dpi, nullptr, &error)) {
        ErrorReporter::report(parent, QObject::tr("Could not export the figures"), error);
        return {};
    }
    return directory;
}

} // namespace cx::ui
