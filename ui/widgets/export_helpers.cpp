#include "ui/widgets/export_helpers.h"

#include <QAbstractItemModel>
#include <QBuffer>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QItemSelectionModel>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>
#include <map>

namespace cx::ui {

double journalWidthFor(double logicalWidth) {
    for (double millimetres : {kSingleColumnMm, kMidColumnMm}) {
        if (logicalWidth <= millimetres * kLogicalPerMm) {
            return millimetres * kLogicalPerMm;
        }
    }
    return kDoubleColumnMm * kLogicalPerMm;
}

QSize figurePixels(const QSizeF& logicalSize, int dpi) {
    return QSize(static_cast<int>(std::lround(logicalSize.width() * dpi / kFigureDeviceDpi)),
                 static_cast<int>(std::lround(logicalSize.height() * dpi / kFigureDeviceDpi)));
}

QSizeF ImageExportSettings::logicalSize() const {
    const double scale = 96.0 / std::max(dpi, 1);
    return QSizeF(pixels.width() * scale, pixels.height() * scale);
}

QString ImageExportSettings::suffix(Format format) {
    switch (format) {
    case Format::Png:
        return QStringLiteral("png");
    case Format::Svg:
        return QStringLiteral("svg");
    case Format::Pdf:
        return QStringLiteral("pdf");
    }
    return QStringLiteral("png");
}

ImageExportSettings::Format ImageExportSettings::formatFromPath(const QString& path,
                                                                Format fallback) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        return Format::Png;
    }
    if (suffix == QLatin1String("svg")) {
        return Format::Svg;
    }
    if (suffix == QLatin1String("pdf")) {
        return Format::Pdf;
    }
    return fallback;
}

void paintFigureScaled(QPainter& painter, const ImageExportSettings& settings,
                       const FigurePainter& paint) {
    const double scale = settings.dpi / double(kFigureDeviceDpi);
    const QRectF target(QPointF(0, 0), settings.logicalSize());
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(scale, scale);
    painter.fillRect(target, Qt::white);
    paint(painter, target);
}

QByteArray mergeSvgTextRuns(const QByteArray& svg) {
    // <text ATTRS x="X" y="Y" STYLE>A</text> directly followed by the same element (same
    // attributes and baseline) at another x: Qt's writer splits a line at every change of
    // script. Merged when the second piece starts where the first ends in the font named.
    static const QRegularExpression pair(QStringLiteral(
        "<text ([^>]*?) x=\"([-0-9.e]+)\" y=\"([-0-9.e]+)\"([^>]*)>([^<]*)</text>\\s*"
        "<text \\1 x=\"([-0-9.e]+)\" y=\"\\3\"\\4>([^<]*)</text>"));
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    static const QRegularExpression size(QStringLiteral("font-size=\"([0-9.]+)\""));
    static const QRegularExpression weight(QStringLiteral("font-weight=\"([0-9]+)\""));
    static const QRegularExpression italic(QStringLiteral("font-style=\"italic\""));
    const auto unescape = [](QString text) {
        text.replace(QLatin1String("&lt;"), QLatin1String("<"));
        text.replace(QLatin1String("&gt;"), QLatin1String(">"));
        text.replace(QLatin1String("&quot;"), QLatin1String("\""));
        text.replace(QLatin1String("&apos;"), QLatin1String("'"));
        text.replace(QLatin1String("&amp;"), QLatin1String("&"));
        return text;
    };
    // Measured as the figure was painted: on a 96-DPI device.
    QImage device(1, 1, QImage::Format_ARGB32_Premultiplied);
    device.setDotsPerMeterX(static_cast<int>(kFigureDeviceDpi / 0.0254 + 0.5));
    device.setDotsPerMeterY(static_cast<int>(kFigureDeviceDpi / 0.0254 + 0.5));
    QString text = QString::fromUtf8(svg);
    qsizetype from = 0;
    for (;;) {
        const QRegularExpressionMatch match = pair.match(text, from);
        if (!match.hasMatch()) {
            break;
        }
        const QString attributes = match.captured(1) + match.captured(4);
        QFont font(family.match(attributes).captured(1));
        const double pixels = size.match(attributes).captured(1).toDouble();
        font.setPointSizeF(std::max(1.0, pixels * 72.0 / kFigureDeviceDpi));
        font.setWeight(static_cast<QFont::Weight>(
            std::clamp(weight.match(attributes).captured(1).toInt(), 100, 900)));
        font.setItalic(italic.match(attributes).hasMatch());
        const double end =
            match.captured(2).toDouble() +
            QFontMetricsF(font, &device).horizontalAdvance(unescape(match.captured(5)));
        if (std::abs(end - match.captured(6).toDouble()) > std::max(1.0, 0.15 * pixels)) {
            from = match.capturedStart(6); // not one line: try the second piece with the next
            from = text.lastIndexOf(QLatin1String("<text "), from);
            continue;
        }
        const QString merged = QStringLiteral("<text %1 x=\"%2\" y=\"%3\"%4>%5%6</text>")
                                   .arg(match.captured(1), match.captured(2), match.captured(3),
                                        match.captured(4), match.captured(5), match.captured(7));
        text.replace(match.capturedStart(), match.capturedLength(), merged);
        from = match.capturedStart(); // the merged element may join the next piece too
    }
    return text.toUtf8();
}

bool exportFigure(const QString& path, const ImageExportSettings& settings,
                  const FigurePainter& paint, QString* error) {
    const auto fail = [&](const QString& problem) {
        if (error) {
            *error = path + QStringLiteral(": ") + problem;
        }
        return false;
    };
    if (settings.pixels.width() < 16 || settings.pixels.height() < 16 ||
        settings.pixels.width() > 20000 || settings.pixels.height() > 20000) {
        return fail(QStringLiteral("image size must lie between 16 and 20000 pixels"));
    }
    if (settings.dpi < 36 || settings.dpi > 2400) {
        return fail(QStringLiteral("resolution must lie between 36 and 2400 DPI"));
    }
    // Every device reports kFigureDeviceDpi while the figure is painted (see there); only the
    // PNG's metadata and the SVG/PDF page sizes state the output DPI.
    const QSizeF logical = settings.logicalSize();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return fail(file.errorString());
    }
    const auto dotsPerMeter = [](int dpi) { return static_cast<int>(dpi / 0.0254 + 0.5); };
    // SVG and PDF: the page is the logical size in device units (96 DPI), so the figure is
    // painted unscaled. False when the writer cannot start (the file is then discarded).
    const auto paintVector = [&](QPaintDevice& device) {
        QPainter painter;
        if (!painter.begin(&device)) {
            file.cancelWriting();
            return false;
        }
        ImageExportSettings logicalSettings = settings;
        logicalSettings.dpi = kFigureDeviceDpi;
        logicalSettings.pixels = logical.toSize();
        paintFigureScaled(painter, logicalSettings, [&](QPainter& p, const QRectF&) {
            paint(p, QRectF(QPointF(0, 0), logical));
        });
        painter.end();
        return true;
    };
    switch (settings.format) {
    case ImageExportSettings::Format::Png: {
        QImage image(settings.pixels, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        image.setDotsPerMeterX(dotsPerMeter(kFigureDeviceDpi));
        image.setDotsPerMeterY(dotsPerMeter(kFigureDeviceDpi));
        {
            QPainter painter(&image);
            paintFigureScaled(painter, settings, paint);
        }
        image.setDotsPerMeterX(dotsPerMeter(settings.dpi));
        image.setDotsPerMeterY(dotsPerMeter(settings.dpi));
        if (!image.save(&file, "PNG")) {
            file.cancelWriting();
            return fail(QStringLiteral("could not encode the PNG image"));
        }
        break;
    }
    case ImageExportSettings::Format::Svg: {
        // Logical units with a 96-DPI resolution: the stated size (mm) is the print size.
        // Written to memory first: mergeSvgTextRuns joins the pieces of each text line.
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(logical.toSize());
        generator.setViewBox(QRectF(QPointF(0, 0), logical));
        generator.setResolution(kFigureDeviceDpi);
        generator.setTitle(QFileInfo(path).completeBaseName());
        generator.setDescription(QStringLiteral("Exported from Contrast Explorer"));
        if (!paintVector(generator)) {
            return fail(QStringLiteral("could not start the SVG writer"));
        }
        if (file.write(mergeSvgTextRuns(buffer.data())) < 0) {
            file.cancelWriting();
            return fail(file.errorString());
        }
        break;
    }
    case ImageExportSettings::Format::Pdf: {
        QPdfWriter writer(&file);
        writer.setResolution(kFigureDeviceDpi);
        writer.setPageSize(QPageSize(QSizeF(settings.pixels.width() / double(settings.dpi),
                                            settings.pixels.height() / double(settings.dpi)),
                                     QPageSize::Inch, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setCreator(QStringLiteral("Contrast Explorer"));
        writer.setTitle(QFileInfo(path).completeBaseName());
        if (!paintVector(writer)) {
            return fail(QStringLiteral("could not start the PDF writer"));
        }
        break;
    }
    }
    if (!file.commit()) {
        return fail(file.errorString());
    }
    return true;
}

namespace {

QString field(QString text, QChar separator) {
    if (separator == QLatin1Char('\t')) {
        text.replace(QLatin1Char('\t'), QLatin1Char(' '));
        text.replace(QLatin1Char('\n'), QLatin1Char(' '));
        text.remove(QLatin1Char('\r'));
        return text;
    }
    if (text.contains(separator) || text.contains(QLatin1Char('"')) ||
        text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r'))) {
        text.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + text + QLatin1Char('"');
    }
    return text;
}

} // namespace

QString dataNumber(double value) {
    return std::isfinite(value) ? QString::number(value, 'g', 10) : QString();
}

QString delimitedField(const QString& text, QChar separator) {
    return field(text, separator);
}

QString delimitedText(const QAbstractItemModel& model, QChar separator, bool header, int role) {
    QString out;
    const int rows = model.rowCount();
    const int columns = model.columnCount();
    if (header) {
        for (int column = 0; column < columns; ++column) {
            if (column > 0) {
                out += separator;
            }
            QString title = model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
            title.replace(QLatin1Char('\n'), QLatin1Char(' '));
            out += field(title, separator);
        }
        out += QLatin1Char('\n');
    }
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < columns; ++column) {
            if (column > 0) {
                out += separator;
            }
            out += field(model.data(model.index(row, column), role).toString(), separator);
        }
        out += QLatin1Char('\n');
    }
    return out;
}

QString selectionAsTsv(const QItemSelectionModel& selection) {
    const QModelIndexList indexes = selection.selectedIndexes();
    if (indexes.isEmpty()) {
        return {};
    }
    int top = indexes.first().row();
    int bottom = top;
    int left = indexes.first().column();
    int right = left;
    std::map<std::pair<int, int>, QString> cells;
    for (const QModelIndex& index : indexes) {
        top = std::min(top, index.row());
        bottom = std::max(bottom, index.row());
        left = std::min(left, index.column());
        right = std::max(right, index.column());
        cells[{index.row(), index.column()}] = index.data(Qt::DisplayRole).toString();
    }
    QString out;
    for (int row = top; row <= bottom; ++row) {
        for (int column = left; column <= right; ++column) {
            if (column > left) {
                out += QLatin1Char('\t');
            }
            const auto it = cells.find({row, column});
            if (it != cells.end()) {
                out += field(it->second, QLatin1Char('\t'));
            }
        }
        out += QLatin1Char('\n');
    }
    return out;
}

bool writeTextFileAtomically(const QString& path, const QString& text, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) {
            *error = path + QStringLiteral(": ") + file.errorString();
        }
        return false;
    }
    file.write(text.toUtf8());
    if (!file.commit()) {
        if (error) {
            *error = path + QStringLiteral(": ") + file.errorString();
        }
        return false;
    }
    return true;
}

} // namespace cx::ui
