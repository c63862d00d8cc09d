#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace cx::ui {

class Workspace;

/// File ▸ Export All Figures and `contrast-explorer --export-figures DIR`: every figure of
/// `workspace` (Workspace::figures()) as NAME.png at `dpi`, NAME.svg and NAME.pdf, each at
/// its print size (WorkspaceFigure::size, from its content, whatever its size on screen;
/// text, lines and cells keep their print size at any DPI), with the values it plots
/// (WorkspaceFigure::data) beside them as NAME.tsv; its result tables (Workspace::tables())
/// as NAME.tsv; and figures.json listing the files with the
/// workspace's figureProvenance() (γ, K, seed, rules, data sources). Creates `directory`.
/// Returns false and sets `error` ("PATH: problem") on the first failure; `written` gets the
/// files written so far.
bool exportAllFigures(const Workspace& workspace, const QString& directory, int dpi,
                      QStringList* written, QString* error);

/// Writes the values a figure plots (ExportableFigure::figureData) beside its image: NAME.tsv
/// for NAME.png/svg/pdf, as Export All and the single-figure Export… (ImageExportDialog) both
/// do. Nothing is written when `data` is empty or gives no text (`written` is then empty).
/// Returns false and sets `error` ("PATH: problem") when the file cannot be written.
bool writeFigureData(const QString& imagePath, const std::function<QString()>& data,
                     QString* written, QString* error);

/// The interactive form: asks for a folder and the PNG resolution, exports, reports failures
/// through ErrorReporter. Returns the folder written, or an empty string.
QString exportAllFiguresInteractively(QWidget* parent, const Workspace& workspace);

} // namespace cx::ui
