// StateWeightsChartView's chart: the series, axes and legend of the screen chart and of the
// exported figure (build). The view's interaction and legend list are in
// state_weights_chart_view.cpp.
#include "ui/charts/chart_style.h"
#include "ui/charts/state_weights_chart_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <functional>

namespace cx::ui {

namespace {

const QColor kZeroColour(0x8a, 0x92, 0x9a);
const QColor kUnreliableColour(0xf2, 0xa6, 0x5a, 70);
const QColor kFlagColour(0xb3, 0x26, 0x1e);
const QColor kBoundColour(0xb3, 0x5c, 0x00, 150);

/// Marker radius (px) of the flagged points, plus their pen: what the padding keeps inside.
constexpr double kScreenMarkerMargin = 5.0;
constexpr double kFigureMarkerMargin = 4.5;

/// Files a series under a legend label (empty: none).
using Group = std::function<void(const QString&, QAbstractSeries*)>;

/// Hollow warning markers on the flagged points (clamped to ±limit), one legend entry `name`.
void addFlaggedMarkers(QChart* chart, const QList<StateWeightsChartView::Line>& lines, double limit,
                       const QString& name, bool figure, const Group& group) {
    QList<QPointF> flaggedPoints;
    for (const StateWeightsChartView::Line& line : lines) {
        for (int j = 0; j < line.points.size() && j < line.flagged.size(); ++j) {
            if (line.flagged[j] && std::isfinite(line.points[j].y())) {
                flaggedPoints << QPointF(line.points[j].x(),
                                         std::clamp(line.points[j].y(), -limit, limit));
            }
        }
    }
    if (!flaggedPoints.isEmpty()) {
        auto* flags = new QScatterSeries(chart);
        flags->setName(name);
        flags->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        flags->setMarkerSize(figure ? 6.0 : 7.0);
        flags->setColor(Qt::white);
        flags->setBorderColor(kFlagColour);
        flags->setPen(QPen(kFlagColour, 1.4));
        flags->replace(flaggedPoints);
        chart->addSeries(flags);
        group(flags->name(), flags);
    }
}

/// The admissible region ω ∈ [−γ, 1]: the line ω = 1 and the line ω = −γ within the axes, one
/// legend entry `name` (the second segment is in `unnamed`).
void addAdmissibleBounds(QChart* chart, const QString& name, double gammaMinimum,
                         double gammaMaximum, double yMin, double yMax, const Group& group,
                         QList<QAbstractSeries*>& unnamed) {
    QList<QList<QPointF>> bounds;
    if (1.0 >= yMin && 1.0 <= yMax) {
        bounds << QList<QPointF>{{gammaMinimum, 1.0}, {gammaMaximum, 1.0}};
    }
    const double from = std::max(gammaMinimum, -yMax);
    const double to = std::min(gammaMaximum, -yMin);
    if (from < to) {
        bounds << QList<QPointF>{{from, -from}, {to, -to}};
    }
    for (int i = 0; i < bounds.size(); ++i) {
        auto* bound = new QLineSeries(chart);
        bound->setName(i == 0 ? name : QString());
        bound->setPen(QPen(kBoundColour, 1.0, Qt::DashDotLine));
        bound->replace(bounds[i]);
        chart->addSeries(bound);
        group(name, bound);
        if (i > 0) {
            unnamed << bound;
        }
    }
}

/// Draws one weight line: its band (one area per run of finite values), then its pieces of
/// consecutive finite points, dashed where they touch a flagged point. The first series of the
/// line goes to `lines`; extra pieces and bands, and lines without a legend entry, to `unnamed`.
void addWeightLine(QChart* chart, const StateWeightsChartView::Line& line, double limit,
                   bool figure, const Group& group, QList<QLineSeries*>& lines,
                   QList<QAbstractSeries*>& unnamed) {
    // Every line that draws has its legend entry (inLegend only adds lines that draw
    // nothing): no line of a colour the legend does not name.
    const bool listed =
        line.inLegend || std::any_of(line.points.begin(), line.points.end(),
                                     [](const QPointF& p) { return std::isfinite(p.y()); });
    if (!line.lower.isEmpty() && line.lower.size() == line.upper.size()) {
        // One area per run of finite values: a NaN leaves a gap.
        QList<QPointF> upperRun;
        QList<QPointF> lowerRun;
        auto addBand = [&] {
            if (!upperRun.isEmpty()) {
                auto* upper = new QLineSeries(chart);
                auto* lower = new QLineSeries(chart);
                upper->replace(upperRun);
                lower->replace(lowerRun);
                auto* band = new QAreaSeries(upper, lower);
                QColor fill = weightLineColour(line.colour);
                fill.setAlpha(45);
                band->setPen(Qt::NoPen);
                band->setBrush(fill);
                chart->addSeries(band);
                unnamed << band;
                if (listed) {
                    group(line.name, band);
                }
            }
            upperRun.clear();
            lowerRun.clear();
        };
        for (int i = 0; i < line.lower.size(); ++i) {
            if (std::isfinite(line.lower[i].y()) && std::isfinite(line.upper[i].y())) {
                lowerRun << QPointF(line.lower[i].x(),
                                    std::clamp(line.lower[i].y(), -limit, limit));
                upperRun << QPointF(line.upper[i].x(),
                                    std::clamp(line.upper[i].y(), -limit, limit));
            } else {
                addBand();
            }
        }
        addBand();
    }
    // Pieces of consecutive finite points (a NaN leaves a gap); a piece touching a flagged
    // point is dashed.
    struct Piece {
        QList<QPointF> points;
        bool dashed = false;
    };
    auto flaggedAt = [&line](int j) { return j < line.flagged.size() && line.flagged[j]; };
    // Values beyond the limit are drawn at it (the axis does not scale to them), as their
    // flagged markers: every drawn vertex lies within the y range.
    const auto clamped = [limit](const QPointF& p) {
        return QPointF(p.x(), std::clamp(p.y(), -limit, limit));
    };
    QList<Piece> pieces;
    int previous = -1;
    for (int j = 0; j < line.points.size(); ++j) {
        const QPointF p = clamped(line.points[j]);
        if (!std::isfinite(p.y())) {
            previous = -1;
            continue;
        }
        if (previous < 0) {
            pieces.append(Piece{{p}, flaggedAt(j)});
        } else {
            const bool dashed = flaggedAt(previous) || flaggedAt(j);
            Piece& last = pieces.back();
            if (last.points.size() == 1) {
                last.dashed = dashed;
                last.points << p;
            } else if (last.dashed == dashed) {
                last.points << p;
            } else {
                pieces.append(Piece{{clamped(line.points[previous]), p}, dashed});
            }
        }
        previous = j;
    }
    const QColor colour = weightLineColour(line.colour);
    const double width = figure ? 2.0 : 2.2;
    // The legend shows the line's solid pen: its first piece when solid, else an empty
    // series of its own.
    if (pieces.isEmpty() || pieces.front().dashed) {
        pieces.prepend(Piece{{}, false});
    }
    bool first = true;
    for (const Piece& piece : pieces) {
        auto* series = new QLineSeries(chart);
        series->setName(line.name);
        const Qt::PenStyle flaggedStyle =
            line.pattern == Qt::SolidLine ? Qt::DashLine : line.pattern;
        series->setPen(piece.dashed ? QPen(colour, width * 0.8, flaggedStyle)
                                    : QPen(colour, width, line.pattern));
        series->replace(piece.points);
        chart->addSeries(series);
        if (listed) {
            group(line.name, series);
        }
        if (first) {
            lines << series;
            if (!listed) {
                unnamed << series;
            }
        } else {
            unnamed << series;
        }
        first = false;
    }
}

} // namespace

StateWeightsChartView::Parts StateWeightsChartView::build(QChart* chart, bool figure,
                                                          const QSizeF& plotSize) const {
    Parts parts;
    parts.chart = chart;
    styleChart(chart, QMargins(2, 2, 6, 2));
    // The series drawn for each legend label, in legend order.
    const Group group = [&parts](const QString& label, QAbstractSeries* series) {
        if (label.isEmpty()) {
            return;
        }
        for (auto& [name, members] : parts.groups) {
            if (name == label) {
                members << series;
                return;
            }
        }
        parts.groups.append({label, {series}});
    };
    QFont labelFont = chart->font();
    labelFont.setPointSizeF(8);
    QFont titleFont = labelFont;
    titleFont.setPointSizeF(8.5);

    // The axis fits every finite weight and band value (and 0), clipped to ±m_weightLimit:
    // weights beyond what the model allows are estimation failures, not data to scale to.
    double low = 0;
    double high = 0;
    auto include = [&](const QList<QPointF>& points) {
        for (const QPointF& p : points) {
            if (std::isfinite(p.y())) {
                low = std::min(low, std::max(p.y(), -m_weightLimit));
                high = std::max(high, std::min(p.y(), m_weightLimit));
            }
        }
    };
    for (const Line& line : m_lines) {
        include(line.points);
        include(line.lower);
        include(line.upper);
    }
    // Flagged markers (clamped to ±m_weightLimit below) are among these values: the padding
    // keeps a whole marker inside the plot.
    const double markerMargin = figure ? kFigureMarkerMargin : kScreenMarkerMargin;
    const double pad = plotPadding(high - low, 0.08, 0.01, plotSize.height(), markerMargin);
    const double yMin = low - pad;
    const double yMax = high + pad;
    // Markers on the first and last γ are drawn whole: the x range reaches a marker's radius
    // beyond them (a figure's plot is at least a column wide: 1.5 % of it is more than that).
    const double xPad =
        plotPadding(m_gammaMaximum - m_gammaMinimum, 0.015, 0.0, plotSize.width(), markerMargin);
    const bool empty = m_lines.isEmpty();

    // Bands where no valid model exists, under the lines.
    if (!empty) {
        for (const auto& [from, to] : m_unreliable) {
            auto* upper = new QLineSeries(chart);
            auto* lower = new QLineSeries(chart);
            upper->replace(QList<QPointF>{{from, yMax}, {to, yMax}});
            lower->replace(QList<QPointF>{{from, yMin}, {to, yMin}});
            auto* band = new QAreaSeries(upper, lower);
            band->setName(parts.bands.isEmpty() ? (m_unreliableName.isEmpty() ? tr("no valid model")
                                                                              : m_unreliableName)
                                                : QString());
            band->setPen(Qt::NoPen);
            band->setBrush(kUnreliableColour);
            chart->addSeries(band);
            parts.bands << band;
            group(m_unreliableName.isEmpty() ? tr("no valid model") : m_unreliableName, band);
        }
    }
    QList<QAbstractSeries*> unnamed; // extra segments and bands: no legend entry
    // Before the lines, so that their legend entries come first (the legend is cut when the
    // chart is small) and the lines pass over them: hollow warning markers on the flagged
    // points, and the admissible region's bounds.
    addFlaggedMarkers(chart, m_lines, m_weightLimit,
                      m_flagName.isEmpty() ? tr("flagged") : m_flagName, figure, group);
    // The admissible region ω ∈ [−γ, 1]: the line ω = 1 and the line ω = −γ, within the axes.
    if (!m_boundsName.isEmpty() && !empty) {
        addAdmissibleBounds(chart, m_boundsName, m_gammaMinimum, m_gammaMaximum, yMin, yMax, group,
                            unnamed);
    }
    for (const Line& line : m_lines) {
        addWeightLine(chart, line, m_weightLimit, figure, group, parts.lines, unnamed);
    }
    for (int i = 0; i < m_markers.size(); ++i) {
        auto* marker = new QLineSeries(chart);
        marker->setName(i == 0 ? m_markerName : QString());
        marker->setPen(QPen(kZeroColour.darker(130), 1.0, Qt::DotLine));
        marker->replace(QList<QPointF>{{m_markers[i], yMin}, {m_markers[i], yMax}});
        chart->addSeries(marker);
        group(m_markerName, marker);
        if (i > 0) {
            unnamed << marker;
        }
    }
    parts.zero = new QLineSeries(chart);
    parts.zero->setPen(QPen(kZeroColour, 1.0, Qt::DashLine));
    parts.marker = new QLineSeries(chart);
    parts.marker->setPen(QPen(kGammaMarkerColour, 1.4, Qt::DashLine));
    chart->addSeries(parts.zero);
    chart->addSeries(parts.marker);

    if (!empty) {
        parts.zero->replace(QList<QPointF>{{m_gammaMinimum, 0.0}, {m_gammaMaximum, 0.0}});
        if (m_gamma >= m_gammaMinimum && m_gamma <= m_gammaMaximum) {
            parts.marker->replace(QList<QPointF>{{m_gamma, yMin}, {m_gamma, yMax}});
        }
    }

    parts.x = createValueAxis(chart, QStringLiteral("contrast weight γ"), QStringLiteral("%g"),
                              labelFont, titleFont);
    parts.y = createValueAxis(chart, weightTitle(), QStringLiteral("%.2f"), labelFont, titleFont);
    parts.x->setVisible(!empty);
    parts.y->setVisible(!empty);
    parts.x->setRange(m_gammaMinimum - xPad, m_gammaMaximum + xPad);
    parts.x->setTickAnchor(0);
    parts.x->setTickInterval(niceTickInterval(m_gammaMaximum - m_gammaMinimum));
    parts.y->setRange(yMin, yMax);
    parts.y->setTickAnchor(0);
    parts.y->setTickInterval(niceTickInterval(yMax - yMin));
    attachValueAxes(chart, parts.x, parts.y);
    QLegend* legend = chart->legend();
    // On screen the legend is the list beside the plot (updateLegendList).
    legend->setVisible(!empty && figure);
    legend->setAlignment(Qt::AlignRight);
    legend->setFont(labelFont);
    legend->setLabelColor(kChartTextColour);
    QList<QAbstractSeries*> hidden{parts.zero, parts.marker};
    hidden << unnamed;
    for (int i = 1; i < parts.bands.size(); ++i) {
        hidden << parts.bands[i]; // one legend entry for all bands
    }
    for (QAbstractSeries* series : hidden) {
        for (QLegendMarker* marker : legend->markers(series)) {
            marker->setVisible(false);
        }
    }
    return parts;
}

} // namespace cx::ui
