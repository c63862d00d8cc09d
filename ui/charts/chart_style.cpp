#include "ui/charts/chart_style.h"

#include <QAbstractSeries>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QGraphicsEllipseItem>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace cx::ui {

namespace {

const QColor kGridColour(0xe3, 0xe6, 0xea);
const QColor kAxisLineColour(0xb8, 0xbe, 0xc5);
const QColor kMessageColour(0x6b, 0x72, 0x7a);

} // namespace

Qt::PenStyle penStyle(cx::LinePattern pattern) {
    switch (pattern) {
    case cx::LinePattern::Dotted:
        return Qt::DotLine;
    case cx::LinePattern::DashDot:
        return Qt::DashDotLine;
    case cx::LinePattern::DashDotDot:
        return Qt::DashDotDotLine;
    case cx::LinePattern::Solid:
        break;
    }
    return Qt::SolidLine;
}

std::pair<QColor, Qt::PenStyle> categoricalLineStyle(int id) {
    const cx::IdentityStyle style = cx::categoricalStyle(id);
    return {qColour(style.colour), penStyle(style.pattern)};
}

double niceTickInterval(double range) {
    if (!(range > 0)) {
        return 1;
    }
    const double raw = range / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (factor * magnitude >= raw) {
            return factor * magnitude;
        }
    }
    return 10 * magnitude;
}

void setUpChartView(QChartView* view, int minimumHeight) {
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(minimumHeight);
    view->setRubberBand(QChartView::NoRubberBand);
    view->setCursor(Qt::CrossCursor);
}

void styleChart(QChart* chart, const QMargins& margins) {
    chart->setBackgroundRoundness(0);
    chart->setBackgroundBrush(Qt::white);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setMargins(margins);
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setAnimationOptions(QChart::NoAnimation);
    // A line's legend entry is a short stretch of the line itself, so a dashed series (Crowd's
    // refinement after the stagewise fit, in the same colour) reads apart from a solid one.
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
}

QList<std::pair<QPointF, double>> drawnPointsInScene(QChart* chart, const QAbstractAxis* axis) {
    QList<std::pair<QPointF, double>> out;
    for (QAbstractSeries* series : chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (!xy || !xy->isVisible() ||
            (axis && !series->attachedAxes().contains(const_cast<QAbstractAxis*>(axis)))) {
            continue;
        }
        double radius = 0;
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            radius = scatter->markerSize() / 2 + scatter->pen().widthF() / 2;
        }
        for (const QPointF& point : xy->points()) {
            if (std::isfinite(point.x()) && std::isfinite(point.y())) {
                out.append({chart->mapToScene(chart->mapToPosition(point, series)), radius});
            }
        }
    }
    return out;
}

QValueAxis* createValueAxis(QChart* chart, const QString& title, const QString& labelFormat,
                            const QFont& labelFont, const QFont& titleFont) {
    auto* axis = new QValueAxis(chart);
    axis->setTitleText(title);
    axis->setLabelsFont(labelFont);
    axis->setTitleFont(titleFont);
    axis->setLabelsColor(kChartTextColour);
    axis->setTitleBrush(kChartTextColour);
    axis->setGridLineColor(kGridColour);
    axis->setLinePenColor(kAxisLineColour);
    axis->setMinorGridLineVisible(false);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setLabelFormat(labelFormat);
    return axis;
}

void attachValueAxes(QChart* chart, QValueAxis* x, QValueAxis* y) {
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
}

QGraphicsSimpleTextItem* createChartMessage(QChart* chart) {
    auto* message = new QGraphicsSimpleTextItem(chart);
    message->setBrush(kMessageColour);
    message->setZValue(10);
    return message;
}

void centreChartMessage(QGraphicsSimpleTextItem* message, const QRectF& plotArea) {
    const QRectF box = message->boundingRect();
    message->setPos(plotArea.center().x() - box.width() / 2,
                    plotArea.center().y() - box.height() / 2);
}

std::optional<QPointF> plotValueAt(const QChartView& view, const QPoint& position,
                                   QAbstractSeries* series) {
    QChart* chart = view.chart();
    const QPointF inChart = chart->mapFromScene(view.mapToScene(position));
    if (!chart->plotArea().contains(inChart)) {
        return std::nullopt;
    }
    return chart->mapToValue(inChart, series);
}

double plotPadding(double range, double fraction, double minimum, double plotHeight,
                   double markerMargin) {
    const double span = std::isfinite(range) && range > 0 ? range : 0;
    double pad = std::max(minimum, span * fraction);
    // pad / (span + 2 pad) · plotHeight ≥ markerMargin, solved for pad.
    if (plotHeight > 4 * markerMargin && markerMargin > 0) {
        pad = std::max(pad, markerMargin * span / (plotHeight - 2 * markerMargin));
    }
    return pad;
}

void fitAxisTitle(QValueAxis* axis, const QString& full, const QString& shortTitle, double extent) {
    const double needed = QFontMetricsF(axis->titleFont()).horizontalAdvance(full);
    const QString wanted = needed + 2 <= extent || shortTitle.isEmpty() ? full : shortTitle;
    if (axis->titleText() != wanted) {
        axis->setTitleText(wanted);
    }
}

namespace {

// Figure legend geometry (logical px).
constexpr double kLegendMargin = 8;
constexpr double kLegendTopGap = 4;
constexpr double kSampleWidth = 20;
constexpr double kSampleGap = 5;
constexpr double kColumnGap = 14;
constexpr double kSmallestFontPoints = 5;

struct LegendItem {
    QString label;
    QAbstractSeries* series = nullptr;
};

/// The entries the chart's own legend shows (markers not hidden, with a label). A marker
/// reports itself visible only once laid out, and the legend hides those it has no room for:
/// the chart (in `scene`) is laid out far larger than any figure first.
QList<LegendItem> legendItems(QChart* chart, QGraphicsScene& scene) {
    QList<LegendItem> out;
    if (chart->scene() != &scene) {
        scene.addItem(chart); // the scene owns it
    }
    if (!chart->legend()->isVisible()) { // the chart has no legend (e.g. one curve)
        return out;
    }
    chart->setGeometry(QRectF(0, 0, 20000, 20000));
    chart->layout()->activate();
    for (QLegendMarker* marker : chart->legend()->markers()) {
        if (marker->isVisible() && !marker->label().trimmed().isEmpty()) {
            out.append({marker->label(), marker->series()});
        }
    }
    return out;
}

/// Rows and columns of the legend: as many equal columns as `width` holds.
struct LegendGrid {
    int columns = 1;
    int rows = 0;
    double columnWidth = 0;
    double rowHeight = 0;
    double height = 0; ///< with the gap above and the margin below; 0 without entries
};

LegendGrid legendGrid(const QList<LegendItem>& items, const QFont& font, double width) {
    LegendGrid grid;
    if (items.isEmpty()) {
        return grid;
    }
    const QFontMetricsF metrics(font);
    double widest = 0;
    for (const LegendItem& item : items) {
        widest = std::max(widest, metrics.horizontalAdvance(item.label));
    }
    const double available = std::max(40.0, width - 2 * kLegendMargin);
    grid.columnWidth = std::min(available, kSampleWidth + kSampleGap + widest + kColumnGap);
    grid.columns = std::clamp(static_cast<int>((available + kColumnGap) / grid.columnWidth), 1,
                              static_cast<int>(items.size()));
    grid.rows = (static_cast<int>(items.size()) + grid.columns - 1) / grid.columns;
    grid.rowHeight = std::max(metrics.height(), 10.0) + 3;
    grid.height = kLegendTopGap + grid.rows * grid.rowHeight + kLegendMargin;
    return grid;
}

/// The legend sample of `series` (line, marker or filled box) centred on `centre`.
void addLegendSample(QGraphicsScene& scene, QAbstractSeries* series, const QPointF& centre) {
    if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
        const double size = std::min(scatter->markerSize(), 10.0);
        const QRectF box(centre.x() - size / 2, centre.y() - size / 2, size, size);
        QPen pen = scatter->pen();
        pen.setColor(scatter->borderColor());
        if (scatter->markerShape() == QScatterSeries::MarkerShapeRectangle) {
            scene.addRect(box, pen, scatter->brush());
        } else {
            scene.addEllipse(box, pen, scatter->brush());
        }
    } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
        const QRectF box(centre.x() - kSampleWidth / 2, centre.y() - 4.5, kSampleWidth, 9);
        QBrush brush = area->brush();
        QColor colour = brush.color();
        colour.setAlpha(std::max(colour.alpha(), 110)); // a faint band still reads as a swatch
        brush.setColor(colour);
        scene.addRect(box, area->pen(), brush);
    } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
        QPen pen = line->pen();
        pen.setWidthF(std::min(pen.widthF(), 2.5));
        pen.setCapStyle(Qt::FlatCap);
        scene.addLine(QLineF(centre.x() - kSampleWidth / 2, centre.y(),
                             centre.x() + kSampleWidth / 2, centre.y()),
                      pen);
    }
}

/// Every text the scene draws shortened by Qt Charts ("...") or by us ("…").
QStringList elidedTexts(const QGraphicsScene& scene) {
    QStringList out;
    for (const QGraphicsItem* item : scene.items()) {
        QString text;
        if (const auto* rich = dynamic_cast<const QGraphicsTextItem*>(item)) {
            text = rich->toPlainText();
        } else if (const auto* simple = dynamic_cast<const QGraphicsSimpleTextItem*>(item)) {
            text = simple->text();
        }
        if (item->isVisible() &&
            (text.endsWith(QLatin1String("...")) || text.endsWith(QChar(0x2026)))) {
            out << text;
        }
    }
    return out;
}

/// Shrinks the title font of every axis whose title is longer than its side of the plot (the
/// chart would elide it); returns whether any changed.
bool shrinkAxisTitles(QChart* chart) {
    bool changed = false;
    const QRectF plot = chart->plotArea();
    for (QAbstractAxis* axis : chart->axes()) {
        if (!axis->isVisible() || !axis->isTitleVisible() || axis->titleText().isEmpty()) {
            continue;
        }
        const double extent =
            (axis->orientation() == Qt::Vertical ? plot.height() : plot.width()) - 4;
        QFont font = axis->titleFont();
        const double needed = QFontMetricsF(font).horizontalAdvance(axis->titleText());
        if (needed > extent && extent > 0 && font.pointSizeF() > kSmallestFontPoints) {
            font.setPointSizeF(
                std::max(kSmallestFontPoints, font.pointSizeF() * extent / needed * 0.97));
            axis->setTitleFont(font);
            changed = true;
        }
    }
    return changed;
}

QChart* buildFigureChart(const QString& title, const QSizeF& size,
                         const ChartFigureBuilder& build) {
    auto* chart = new QChart;
    // The plot takes roughly what the title and the x axis leave of the chart.
    build(chart, std::max(0.0, size.height() - 80));
    chart->setTitle(title);
    QFont titleFont = chart->font();
    titleFont.setPointSizeF(10);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setTitleBrush(QColor(0x22, 0x27, 0x2e));
    return chart;
}

} // namespace

ChartFigureLayout layOutChartFigure(
    const QSizeF& size, const QString& title, const ChartFigureBuilder& build,
    const std::function<void(QGraphicsScene& scene, const ChartFigureLayout& layout)>& paint) {
    ChartFigureLayout layout;
    QGraphicsScene scene;
    // A first chart only to learn the legend's height at this width.
    QList<LegendItem> items;
    QFont legendFont;
    LegendGrid grid;
    {
        QGraphicsScene probeScene;
        QChart* probe = buildFigureChart(title, size, build);
        items = legendItems(probe, probeScene); // the scene owns the probe
        legendFont = probe->legend()->font();
        grid = legendGrid(items, legendFont, size.width());
    }
    // A legend taller than half the figure (a custom export size far too small for it) gets a
    // smaller font rather than losing entries.
    while (grid.height > size.height() / 2 && legendFont.pointSizeF() > kSmallestFontPoints) {
        legendFont.setPointSizeF(std::max(kSmallestFontPoints, legendFont.pointSizeF() * 0.9));
        grid = legendGrid(items, legendFont, size.width());
    }
    layout.chart = QRectF(0, 0, size.width(), std::max(40.0, size.height() - grid.height));
    auto* chart = buildFigureChart(title, layout.chart.size(), build);
    items = legendItems(chart, scene); // this chart's series (the probe's are gone)
    chart->legend()->setVisible(false);
    chart->setGeometry(layout.chart);
    chart->layout()->activate();
    for (int pass = 0; pass < 3 && shrinkAxisTitles(chart); ++pass) {
        chart->layout()->activate();
    }
    layout.plotArea = chart->mapRectToScene(chart->plotArea());

    // The legend, row by row under the chart, aligned with the plot's left edge when it fits.
    if (!items.isEmpty()) {
        const QFontMetricsF metrics(legendFont);
        double left = kLegendMargin;
        const double used = grid.columns * grid.columnWidth - kColumnGap;
        if (layout.plotArea.left() + used <= size.width() - kLegendMargin) {
            left = layout.plotArea.left();
        }
        layout.legend =
            QRectF(left, layout.chart.bottom() + kLegendTopGap, used, grid.rows * grid.rowHeight);
        const double textWidth = grid.columnWidth - kSampleWidth - kSampleGap - kColumnGap;
        for (int i = 0; i < items.size(); ++i) {
            const int row = i / grid.columns;
            const int column = i % grid.columns;
            const QPointF origin(left + column * grid.columnWidth,
                                 layout.legend.top() + row * grid.rowHeight);
            const double centreY = origin.y() + grid.rowHeight / 2;
            addLegendSample(scene, items[i].series,
                            QPointF(origin.x() + kSampleWidth / 2, centreY));
            FigureLegendEntry entry;
            entry.label = items[i].label;
            QString shown = items[i].label;
            if (metrics.horizontalAdvance(shown) > textWidth + 0.5) {
                shown = metrics.elidedText(shown, Qt::ElideRight, textWidth);
                entry.elided = true;
            }
            auto* text = scene.addSimpleText(shown, legendFont);
            text->setBrush(kChartTextColour);
            const double textLeft = origin.x() + kSampleWidth + kSampleGap;
            text->setPos(textLeft, centreY - metrics.height() / 2);
            entry.box = QRectF(origin.x(), origin.y(),
                               kSampleWidth + kSampleGap + metrics.horizontalAdvance(shown),
                               grid.rowHeight);
            layout.entries << entry;
        }
    }

    // Where the data of the left axis is drawn.
    QValueAxis* left = nullptr;
    for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
        if (axis->alignment() == Qt::AlignLeft) {
            left = qobject_cast<QValueAxis*>(axis);
        }
    }
    if (left) {
        layout.yMinimum = left->min();
        layout.yMaximum = left->max();
        layout.drawnPoints = drawnPointsInScene(chart, left);
    }
    scene.setSceneRect(QRectF(QPointF(0, 0), size));
    layout.elidedTexts = elidedTexts(scene);
    if (paint) {
        paint(scene, layout);
    }
    return layout;
}

void paintChartFigure(QPainter& painter, const QRectF& target, const QString& title,
                      const ChartFigureBuilder& build) {
    layOutChartFigure(target.size(), title, build,
                      [&](QGraphicsScene& scene, const ChartFigureLayout&) {
                          scene.render(&painter, target, scene.sceneRect());
                      });
}

QSizeF chartFigureSize(double width, double chartHeight, const ChartFigureBuilder& build) {
    QGraphicsScene scene; // owns the chart
    QChart* chart = buildFigureChart(QStringLiteral("title"), QSizeF(width, chartHeight), build);
    const LegendGrid grid = legendGrid(legendItems(chart, scene), chart->legend()->font(), width);
    return QSizeF(width, chartHeight + grid.height);
}

} // namespace cx::ui
