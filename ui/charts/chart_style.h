#pragma once

// What the γ charts (AucChartView, StateWeightsChartView) share, so that both look and behave
// alike on screen and in exported figures: chart and axis styling, the centred message over an
// empty plot, click-to-value mapping and the stand-alone figure rendering.

#include "core/common/identity_style.h"

#include <QColor>
#include <QList>
#include <QMargins>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QChartView;
class QFont;
class QGraphicsScene;
class QGraphicsSimpleTextItem;
class QPainter;
class QPoint;
class QValueAxis;

namespace cx::ui {

/// The current-γ marker (dashed line, dot, label).
inline const QColor kGammaMarkerColour{0xd9, 0x48, 0x1c};
/// Axis labels and titles, legend labels.
inline const QColor kChartTextColour{0x44, 0x4b, 0x53};

/// The pen style of a line pattern (an identity's second channel after its colour).
Qt::PenStyle penStyle(cx::LinePattern pattern);
/// A core colour as a QColor.
inline QColor qColour(const cx::Rgb& colour) {
    return QColor(colour.red, colour.green, colour.blue);
}
/// Colour and pen style of identity `id` of a categorical chart (topics; cx::categoricalStyle):
/// twelve colour-blind-aware colours, then the same colours dotted, dash-dotted, …
std::pair<QColor, Qt::PenStyle> categoricalLineStyle(int id);

/// A tick interval giving about five ticks over `range`: 1, 2, 2.5 or 5 × 10^k (1 when the
/// range is empty or not finite).
double niceTickInterval(double range);

/// Antialiased, no rubber band, a cross cursor (clicks pick γ).
void setUpChartView(QChartView* view, int minimumHeight);

/// White, square, no plot-area background, no animation; `margins` around the plot.
void styleChart(QChart* chart, const QMargins& margins);

/// Every finite point of the chart's visible XY series in scene coordinates, with the radius of
/// its marker (half the marker plus half its pen; 0 for line vertices); with `axis` only the
/// series attached to it. What the layout tests check against the plot area.
QList<std::pair<QPointF, double>> drawnPointsInScene(QChart* chart,
                                                     const QAbstractAxis* axis = nullptr);

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

/// Padding above and below the data of a value axis: `fraction` of the data's range (at least
/// `minimum`), and enough that a marker of radius `markerMargin` px drawn on the outermost
/// value stays inside a plot `plotHeight` px tall (0: unknown, fraction only).
double plotPadding(double range, double fraction, double minimum, double plotHeight,
                   double markerMargin);

/// The axis title that fits: `full` when it is no longer than the plot side it runs along
/// (`extent` px; the chart elides longer titles), else `shortTitle`.
void fitAxisTitle(QValueAxis* axis, const QString& full, const QString& shortTitle, double extent);

/// An exported chart's legend entry: its label and where it is drawn.
struct FigureLegendEntry {
    QString label;
    QRectF box; ///< sample and text, in figure coordinates
    bool elided = false;
};

/// How an exported chart is laid out (paintChartFigure), for tests: where the chart and its
/// legend go, every legend entry, the texts the chart elided and where the data is drawn.
struct ChartFigureLayout {
    QRectF chart;    ///< title, axes and plot
    QRectF plotArea; ///< in figure coordinates
    QRectF legend;   ///< under the chart; empty without entries
    QList<FigureLegendEntry> entries;
    /// Texts of the chart drawn shortened ("…"): cut axis titles, labels or title.
    QStringList elidedTexts;
    /// Every drawn point of the left-axis series (figure coordinates) with the radius of its
    /// marker (0 for line vertices).
    QList<std::pair<QPointF, double>> drawnPoints;
    double yMinimum = 0; ///< left axis range
    double yMaximum = 0;
};

/// Builds a chart for a stand-alone figure: `build` fills a chart given the plot height it
/// will get (px, for marker padding), which gets the bold `title`.
using ChartFigureBuilder = std::function<void(QChart* chart, double plotHeight)>;

/// Lays out the chart of `build` as a figure of `size`: the chart on top, its legend
/// (every visible entry, in as many columns as the width holds, never cut) underneath, axis
/// titles shrunk when the plot is shorter than they are. `paint` (may be empty) then draws it.
ChartFigureLayout layOutChartFigure(
    const QSizeF& size, const QString& title, const ChartFigureBuilder& build,
    const std::function<void(QGraphicsScene& scene, const ChartFigureLayout& layout)>& paint = {});

/// Draws a chart as a stand-alone figure into `target` (layOutChartFigure at target's size):
/// the on-screen chart keeps its size and state.
void paintChartFigure(QPainter& painter, const QRectF& target, const QString& title,
                      const ChartFigureBuilder& build);

/// The print size (logical units, 1/96 in) of a chart figure `width` wide whose chart part
/// (title, axes, plot) is `chartHeight` tall: that plus the height its legend needs at that
/// width.
QSizeF chartFigureSize(double width, double chartHeight, const ChartFigureBuilder& build);

} // namespace cx::ui
