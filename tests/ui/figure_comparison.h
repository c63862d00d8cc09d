#pragma once

// Comparing exported figures: one picture at two resolutions (downsample and compare), SVG and
// PDF rendered back to pixels, and the text boxes a figure draws (recorded by a paint engine
// that keeps every text item with its transform).

#include "ui/widgets/export_helpers.h"

#include <QDir>
#include <QImage>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QProcess>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTextItem>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace cx::ui::test {

/// How far `other`, resampled to `reference`'s size, is from `reference`.
///
/// `blockPixels` > 1 compares the two pictures at the scale of blocks of that many reference
/// pixels (both area-averaged to reference size / blockPixels) — what "the same picture" means
/// for one figure drawn at two resolutions: where each lane, cell, line and label is and what
/// colour it has. At the reference's own pixel scale the comparison also counts where each
/// anti-aliased edge falls inside its pixel, which depends on how many edges the data puts in
/// the picture (a segmentation with more short segments has more edges) and on the font's
/// hinting at each size: numbers that move between machines without anything being wrong.
/// The ink ratio is always measured at full resolution.
struct FigureDifference {
    double meanAbsolute = 0;      ///< mean |difference| over pixels (or blocks) and RGB (0–255)
    double differentFraction = 0; ///< pixels (or blocks) whose grey level differs by more than 96
    double darkRatio = 0;         ///< ink (sum of 255 − grey) of `other` / ink of `reference`
    int blockPixels = 1;

    std::string describe() const {
        return "mean |Δ| = " + std::to_string(meanAbsolute) +
               ", pixels differing = " + std::to_string(100 * differentFraction) +
               " %, ink ratio = " + std::to_string(darkRatio) +
               (blockPixels > 1 ? " (Δ over " + std::to_string(blockPixels) + " px blocks)"
                                : std::string());
    }
};

inline double inkOf(const QImage& image) {
    double ink = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            ink += 255 - qGray(row[x]);
        }
    }
    return ink;
}

inline FigureDifference compareFigures(const QImage& reference, const QImage& other,
                                       int blockPixels = 1) {
    const QImage full = reference.convertToFormat(QImage::Format_RGB32);
    const QImage resampled =
        other.size() == reference.size()
            ? other.convertToFormat(QImage::Format_RGB32)
            : other.convertToFormat(QImage::Format_RGB32)
                  .scaled(reference.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    FigureDifference difference;
    difference.blockPixels = std::max(1, blockPixels);
    const double inkA = inkOf(full);
    const double inkB = inkOf(resampled);
    difference.darkRatio = inkA > 0 ? inkB / inkA : 0;
    QImage a = full;
    QImage b = resampled;
    if (difference.blockPixels > 1) {
        const QSize blocks(std::max(1, reference.width() / difference.blockPixels),
                           std::max(1, reference.height() / difference.blockPixels));
        // Both from their own full-resolution pixels: area averaging, no interpolation.
        a = full.scaled(blocks, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        b = other.convertToFormat(QImage::Format_RGB32)
                .scaled(blocks, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    }
    double sum = 0;
    qint64 different = 0;
    for (int y = 0; y < a.height(); ++y) {
        const auto* rowA = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* rowB = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            sum += std::abs(qRed(rowA[x]) - qRed(rowB[x])) +
                   std::abs(qGreen(rowA[x]) - qGreen(rowB[x])) +
                   std::abs(qBlue(rowA[x]) - qBlue(rowB[x]));
            different += std::abs(qGray(rowA[x]) - qGray(rowB[x])) > 96 ? 1 : 0;
        }
    }
    const double pixels = static_cast<double>(a.width()) * a.height();
    difference.meanAbsolute = sum / (3 * pixels);
    difference.differentFraction = static_cast<double>(different) / pixels;
    return difference;
}

/// "The same picture at two resolutions", measured over blocks of kFigureBlockPixels ×
/// kFigureBlockPixels pixels of the lower resolution: at most kSameFigureDifferingBlocks of the
/// blocks differ in grey level by more than 96 (a lane, a cell or a label that is missing,
/// moved or recoloured), and the mean |Δ| stays under kSameFigureMeanBound (no colour shift
/// over the whole picture). Measured on the demo and the unit-test figures: 0 % of the blocks
/// differ (mean |Δ| 0.2–3.6); with a tenth × a fifth of a figure blanked, 0.16–1.1 % do.
constexpr int kFigureBlockPixels = 4;
constexpr double kSameFigureDifferingBlocks = 0.001;
constexpr double kSameFigureMeanBound = 6.0;

/// `image` with the part at `fraction` of its size (x, y, width, height in 0–1) painted white:
/// the negative control of a comparison (what a figure that lost an element looks like).
inline QImage figureWithBlankedPart(const QImage& image, const QRectF& fraction) {
    QImage copy = image.convertToFormat(QImage::Format_RGB32);
    QPainter painter(&copy);
    painter.fillRect(QRectF(fraction.x() * copy.width(), fraction.y() * copy.height(),
                            fraction.width() * copy.width(), fraction.height() * copy.height()),
                     Qt::white);
    return copy;
}

/// An SVG file rendered at `size` on white.
inline QImage renderSvg(const QString& path, const QSize& size) {
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QSvgRenderer renderer(path);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    return image;
}

/// A PDF's first page rendered by pdftoppm at `dpi` (null image when that fails).
inline QImage renderPdf(const QString& pdftoppm, const QString& path, int dpi) {
    QTemporaryDir directory;
    const QString stem = directory.filePath(QStringLiteral("page"));
    QProcess process;
    process.start(pdftoppm, {QStringLiteral("-png"), QStringLiteral("-r"), QString::number(dpi),
                             QStringLiteral("-singlefile"), path, stem});
    if (!process.waitForFinished(60000) || process.exitCode() != 0) {
        return {};
    }
    return QImage(stem + QStringLiteral(".png"));
}

/// One text item a figure drew: its string and its box (ascent to descent) in device pixels.
struct TextBox {
    QString text;
    QPolygonF box; ///< the item's rectangle through the painter's transform (rotated labels)
    QRectF bounds() const { return box.boundingRect(); }
};

/// A paint device that draws nothing and records the text items painted on it.
class TextRecordingDevice : public QPaintDevice {
public:
    TextRecordingDevice(const QSize& pixels, int dpi) : m_pixels(pixels), m_dpi(dpi) {}
    QPaintEngine* paintEngine() const override { return &m_engine; }
    const std::vector<TextBox>& boxes() const { return m_engine.boxes; }

protected:
    int metric(PaintDeviceMetric metric) const override {
        switch (metric) {
        case PdmWidth:
            return m_pixels.width();
        case PdmHeight:
            return m_pixels.height();
        case PdmWidthMM:
            return static_cast<int>(m_pixels.width() * 25.4 / m_dpi);
        case PdmHeightMM:
            return static_cast<int>(m_pixels.height() * 25.4 / m_dpi);
        case PdmNumColors:
            return INT_MAX;
        case PdmDepth:
            return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return m_dpi;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return static_cast<int>(devicePixelRatioFScale());
        default:
            return 0;
        }
    }

private:
    class Engine : public QPaintEngine {
    public:
        Engine() : QPaintEngine(QPaintEngine::AllFeatures) {}
        bool begin(QPaintDevice*) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState& state) override {
            if (state.state() & QPaintEngine::DirtyTransform) {
                m_transform = state.transform();
            }
        }
        void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
        void drawPath(const QPainterPath&) override {}
        void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
        void drawPolygon(const QPoint*, int, PolygonDrawMode) override {}
        void drawRects(const QRectF*, int) override {}
        void drawRects(const QRect*, int) override {}
        void drawLines(const QLineF*, int) override {}
        void drawLines(const QLine*, int) override {}
        void drawEllipse(const QRectF&) override {}
        void drawPoints(const QPointF*, int) override {}
        void drawImage(const QRectF&, const QImage&, const QRectF&,
                       Qt::ImageConversionFlags) override {}
        void drawTextItem(const QPointF& p, const QTextItem& item) override {
            if (item.text().trimmed().isEmpty()) {
                return;
            }
            const QRectF rect(p.x(), p.y() - item.ascent(), item.width(),
                              item.ascent() + item.descent());
            boxes.push_back({item.text(), m_transform.map(QPolygonF(rect))});
        }
        Type type() const override { return QPaintEngine::User; }

        std::vector<TextBox> boxes;

    private:
        QTransform m_transform;
    };
    QSize m_pixels;
    int m_dpi;
    mutable Engine m_engine;
};

/// The text boxes `paint` draws when exported with `settings` (exportFigure's painter set-up).
inline std::vector<TextBox> recordTextBoxes(const ImageExportSettings& settings,
                                            const FigurePainter& paint) {
    TextRecordingDevice device(settings.pixels, kFigureDeviceDpi);
    {
        QPainter painter(&device);
        paintFigureScaled(painter, settings, paint);
    }
    return device.boxes();
}

/// Pairs of text boxes that overlap (each box shrunk by 12 % of its height first, so that
/// glyph boxes of neighbouring lines may touch), as "A ∩ B" strings.
inline QStringList overlappingTextBoxes(const std::vector<TextBox>& boxes) {
    QStringList overlaps;
    std::vector<QPolygonF> shrunk;
    for (const TextBox& box : boxes) {
        const QPolygonF& polygon = box.box;
        if (polygon.size() < 4) {
            shrunk.push_back(polygon);
            continue;
        }
        // Corners 0..3 of the mapped rectangle: shrink towards the centre along both edges.
        const QPointF centre = (polygon[0] + polygon[2]) / 2;
        const double height = QLineF(polygon[0], polygon[3]).length();
        const double width = QLineF(polygon[0], polygon[1]).length();
        const double margin = 0.12 * height;
        QPolygonF inner;
        for (int i = 0; i < 4; ++i) {
            const QPointF offset = polygon[i] - centre;
            const double fx = width > 2 * margin ? 1 - 2 * margin / width : 0.5;
            const double fy = height > 0 ? 1 - 2 * margin / height : 0.5;
            // Decompose along the rectangle's axes.
            const QPointF ux = (polygon[1] - polygon[0]) / std::max(width, 1e-9);
            const QPointF uy = (polygon[3] - polygon[0]) / std::max(height, 1e-9);
            const double ax = QPointF::dotProduct(offset, ux);
            const double ay = QPointF::dotProduct(offset, uy);
            inner << centre + ux * (ax * fx) + uy * (ay * fy);
        }
        shrunk.push_back(inner);
    }
    for (size_t i = 0; i < boxes.size(); ++i) {
        for (size_t j = i + 1; j < boxes.size(); ++j) {
            if (shrunk[i].intersects(shrunk[j])) {
                overlaps << boxes[i].text + QStringLiteral(" ∩ ") + boxes[j].text;
            }
        }
    }
    return overlaps;
}

} // namespace cx::ui::test
