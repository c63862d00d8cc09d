#pragma once

#include <QByteArray>
#include <QChar>
#include <QRectF>
#include <QSize>
#include <QString>

#include <functional>

class QAbstractItemModel;
class QItemSelectionModel;
class QPainter;

namespace cx::ui {

/// Figure export: PNG (raster with DPI metadata), SVG (QSvgGenerator) or PDF (QPdfWriter).
struct ImageExportSettings {
    enum class Format { Png, Svg, Pdf };
    Format format = Format::Png;
    QSize pixels{1800, 1200}; ///< output size in device pixels
    int dpi = 300;

    /// Size in logical (96-DPI) units the painter function draws into; fonts scale with DPI,
    /// so a 300-DPI figure looks like the screen at print size.
    QSizeF logicalSize() const;
    static QString suffix(Format format);
    static Format formatFromPath(const QString& path, Format fallback);
};

/// Print layout of exported figures, in logical units (1/96 in, what a figure paints in): a
/// figure's print size is chosen from its content (journal column widths, rows and legend
/// decide the height), never from its size on screen; exports render it at that size at any
/// DPI, so text, lines and cells keep their size on paper.
inline constexpr double kLogicalPerMm = 96.0 / 25.4;
inline constexpr double kSingleColumnMm = 89;         ///< journal single column
inline constexpr double kMidColumnMm = 120;           ///< one and a half columns
inline constexpr double kDoubleColumnMm = 183;        ///< journal double column (full width)
inline constexpr double kMaximumFigureHeightMm = 230; ///< a page's text height
/// The narrowest journal width (single, 1.5, double column) holding `logicalWidth`, in
/// logical units; the double column when none does.
double journalWidthFor(double logicalWidth);
/// Pixels of a figure of `logicalSize` (print size, 1/96 in) at `dpi`.
QSize figurePixels(const QSizeF& logicalSize, int dpi);

/// Draws a figure into `target` (logical units, white background already painted).
using FigurePainter = std::function<void(QPainter& painter, const QRectF& target)>;

/// The logical resolution figures are painted at, whatever the output DPI: the device a figure
/// paints on reports 96 DPI, so a font of P points is P·96/72 logical pixels, as on a 96-DPI
/// screen; the painter's scale (DPI / 96) then enlarges text, cells and lines together. (A
/// device reporting the output DPI would enlarge point-sized text a second time: the text of
/// a 300-DPI figure came out 3× too large, overlapping and clipped.)
inline constexpr int kFigureDeviceDpi = 96;

/// What exportFigure does on its painter (whose device reports kFigureDeviceDpi and is
/// `settings.pixels` large): scales by DPI / 96, fills the logical target white and lets
/// `paint` draw into it.
void paintFigureScaled(QPainter& painter, const ImageExportSettings& settings,
                       const FigurePainter& paint);

/// SVG text as Qt's writer produced it, with each line's pieces joined into one <text>
/// element: the writer splits a line at every change of script ("relative to " | "γ = 0"),
/// each piece at an x measured with Qt's font, and a viewer whose font is wider then runs the
/// pieces together ("toγ"). Pieces are joined only where the second starts where the first
/// ends (tick labels on one baseline stay apart).
QByteArray mergeSvgTextRuns(const QByteArray& svg);

/// Renders `paint` to `path` in the chosen format. Writes atomically (temporary + rename), so
/// an existing file is never left half-written. Returns false and sets `error` on failure.
bool exportFigure(const QString& path, const ImageExportSettings& settings,
                  const FigurePainter& paint, QString* error);

/// The model's rows as delimited text. Comma-separated output quotes fields per RFC 4180;
/// tab-separated output replaces tabs/newlines inside fields with spaces.
/// `role` is the data role exported (Qt::DisplayRole by default); the header uses
/// Qt::DisplayRole of the horizontal header with newlines turned into spaces.
QString delimitedText(const QAbstractItemModel& model, QChar separator, bool header = true,
                      int role = Qt::DisplayRole);

/// A number of a figure's data table (ExportableFigure::figureData): 10 significant digits,
/// empty for NaN or an infinity (no value there).
QString dataNumber(double value);

/// One field of delimited text: quoted per RFC 4180 for CSV; tabs/newlines flattened for TSV.
QString delimitedField(const QString& text, QChar separator);

/// The selected cells as TSV (rectangular bounding box of the selection), for the clipboard.
QString selectionAsTsv(const QItemSelectionModel& selection);

/// Writes text as UTF-8, atomically. Returns false and sets `error` ("PATH: problem").
bool writeTextFileAtomically(const QString& path, const QString& text, QString* error);

} // namespace cx::ui
