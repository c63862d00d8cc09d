#pragma once

// What the γ charts (AucChartView, StateWeightsChartView) share, so that both look and behave
// alike on screen and in exported figures: chart and axis styling, the centred message over an
// empty plot, click-to-value mapping and the stand-alone figure rendering.

#include <QColor>
#include <QMargins>
#include <QPointF>

#include <functional>
#include <optional>

class QAbstractSeries;
class QChart;
class QChartView;
class QFont;
class QGraphicsSimpleTextItem;
class QPainter;
class QPoint;
class QRectF;
class QString;
class QValueAxis;

namespace cx::ui {

/// The current-γ marker (dashed line, dot, label).
inline const QColor kGammaMarkerColour{0xd9, 0x48, 0x1c};
/// Axis labels and titles, legend labels.
inline const QColor kChartTextColour{0x44, 0x4b, 0x53};

/// A tick interval giving about five ticks over `range`: 1, 2, 2.5 or 5 × 10^k (1 when the
/// range is empty or not finite).
double niceTickInterval(double range);

/// Antialiased, no rubber band, a cross cursor (clicks pick γ).
void setUpChartView(QChartView* view, int minimumHeight);

/// White, square, no plot-area background, no animation; `margins` around the plot.
void styleChart(QChart* chart, const QMargins& margins);

/// A value axis of `chart` (not yet added) with the shared fonts, colours, grid and dynamic
/// ticks.
QValueAxis* createValueAxis(QChart* chart, const QString& title, const QString& labelFormat,
                            const QFont& labelFont, const QFont& titleFont);

/// Adds `x` (bottom) and `y` (left) to `chart` and attaches every series to both.
void attachValueAxes(QChart* chart, QValueAxis* x, QValueAxis* y);

/// The grey message shown over an empty plot ("Computing the sweep…").
QGraphicsSimpleTextItem* createChartMessage(QChart* chart);
/// Centres `message` on `plotArea`.
void centreChartMessage(QGraphicsSimpleTextItem* message, const QRectF& plotArea);

/// The value (in `series`' axes) under `position` (view coordinates), or nothing when the
/// position is outside the plot area.
std::optional<QPointF> plotValueAt(const QChartView& view, const QPoint& position,
                                   QAbstractSeries* series);

/// Draws a chart as a stand-alone figure into `target`: `build` fills a separate chart in its
/// own scene (the on-screen chart keeps its size and state), which gets the bold `title` and
/// is laid out for the export size (fonts then scale with the DPI).
void paintChartFigure(QPainter& painter, const QRectF& target, const QString& title,
                      const std::function<void(QChart* chart)>& build);

} // namespace cx::ui
