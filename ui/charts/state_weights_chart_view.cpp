#include "ui/charts/state_weights_chart_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <vector>

namespace cx::ui {

namespace {

const QColor kMarkerColour(0xd9, 0x48, 0x1c);
const QColor kZeroColour(0x8a, 0x92, 0x9a);
const QColor kGridColour(0xe3, 0xe6, 0xea);
const QColor kAxisTextColour(0x44, 0x4b, 0x53);
const QColor kUnreliableColour(0xf2, 0xa6, 0x5a, 70);

/// Line colour for a state colour: very light state colours (quiescent) would vanish on white.
QColor lineColour(const QColor& colour) {
    const double luminance =
        0.2126 * colour.redF() + 0.7152 * colour.greenF() + 0.0722 * colour.blueF();
    return luminance > 0.75 ? colour.darker(170) : colour;
}

double niceStep(double range) {
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

} // namespace

StateWeightsChartView::StateWeightsChartView(QWidget* parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(160);
    setRubberBand(QChartView::NoRubberBand);
    setCursor(Qt::CrossCursor);
    m_message = nullptr;
    rebuild();
}

StateWeightsChartView::Parts StateWeightsChartView::build(QChart* chart, bool figure) const {
    Parts parts;
    parts.chart = chart;
    chart->setBackgroundRoundness(0);
    chart->setBackgroundBrush(Qt::white);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setMargins(QMargins(2, 2, 6, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setAnimationOptions(QChart::NoAnimation);
    QFont labelFont = chart->font();
    labelFont.setPointSizeF(8);
    QFont titleFont = labelFont;
    titleFont.setPointSizeF(8.5);

    std::vector<double> values;
    for (const Line& line : m_lines) {
        for (const QPointF& p : line.points) {
            if (std::isfinite(p.y())) {
                values.push_back(p.y());
            }
        }
    }
    // The axis covers the bulk of the weights (2nd–98th percentile, and 0). Near a γ where a
    // component's weight changes sign its |λ| → ∞ and the estimate can jump; such excursions
    // leave the plot instead of flattening every other line. Weights are occupancies, so the
    // axis never goes beyond [−1, 1] either.
    double low = 0;
    double high = 0;
    if (!values.empty()) {
        std::sort(values.begin(), values.end());
        const auto at = [&](double q) {
            return values[static_cast<size_t>(q * static_cast<double>(values.size() - 1))];
        };
        low = std::min(0.0, std::max(at(0.02), -1.0));
        high = std::max(0.0, std::min(at(0.98), 1.0));
    }
    // … and always the weights at the current γ, the ones the heatmaps show.
    for (const Line& line : m_lines) {
        const QPointF* nearest = nullptr;
        for (const QPointF& p : line.points) {
            if (!nearest || std::abs(p.x() - m_gamma) < std::abs(nearest->x() - m_gamma)) {
                nearest = &p;
            }
        }
        if (nearest && std::isfinite(nearest->y())) {
            low = std::min(low, std::max(nearest->y(), -1.0));
            high = std::max(high, std::min(nearest->y(), 1.0));
        }
    }
    const double pad = std::max(0.01, (high - low) * 0.08);
    const double yMin = low - pad;
    const double yMax = high + pad;
    const bool empty = m_lines.isEmpty();

    // Bands where no valid model exists, under the lines.
    for (const auto& [from, to] : m_unreliable) {
        if (empty) {
            break;
        }
        auto* upper = new QLineSeries(chart);
        auto* lower = new QLineSeries(chart);
        upper->replace(QList<QPointF>{{from, yMax}, {to, yMax}});
        lower->replace(QList<QPointF>{{from, yMin}, {to, yMin}});
        auto* band = new QAreaSeries(upper, lower);
        band->setName(parts.bands.isEmpty() ? tr("no valid model") : QString());
        band->setPen(Qt::NoPen);
        band->setBrush(kUnreliableColour);
        chart->addSeries(band);
        parts.bands << band;
    }
    for (const Line& line : m_lines) {
        auto* series = new QLineSeries(chart);
        series->setName(line.name);
        series->setPen(QPen(lineColour(line.colour), figure ? 2.0 : 2.2));
        series->replace(line.points);
        chart->addSeries(series);
        parts.lines << series;
    }
    parts.zero = new QLineSeries(chart);
    parts.zero->setPen(QPen(kZeroColour, 1.0, Qt::DashLine));
    parts.marker = new QLineSeries(chart);
    parts.marker->setPen(QPen(kMarkerColour, 1.4, Qt::DashLine));
    chart->addSeries(parts.zero);
    chart->addSeries(parts.marker);

    if (!empty) {
        parts.zero->replace(QList<QPointF>{{m_gammaMinimum, 0.0}, {m_gammaMaximum, 0.0}});
        if (m_gamma >= m_gammaMinimum && m_gamma <= m_gammaMaximum) {
            parts.marker->replace(QList<QPointF>{{m_gamma, yMin}, {m_gamma, yMax}});
        }
    }

    parts.x = new QValueAxis(chart);
    parts.y = new QValueAxis(chart);
    parts.x->setTitleText(QStringLiteral("contrast weight γ"));
    parts.y->setTitleText(QStringLiteral("state weight ω"));
    for (QValueAxis* axis : {parts.x, parts.y}) {
        axis->setLabelsFont(labelFont);
        axis->setTitleFont(titleFont);
        axis->setLabelsColor(kAxisTextColour);
        axis->setTitleBrush(kAxisTextColour);
        axis->setGridLineColor(kGridColour);
        axis->setLinePenColor(QColor(0xb8, 0xbe, 0xc5));
        axis->setMinorGridLineVisible(false);
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setVisible(!empty);
    }
    parts.x->setLabelFormat(QStringLiteral("%g"));
    parts.y->setLabelFormat(QStringLiteral("%.2f"));
    parts.x->setRange(m_gammaMinimum, m_gammaMaximum);
    parts.x->setTickAnchor(0);
    parts.x->setTickInterval(niceStep(m_gammaMaximum - m_gammaMinimum));
    parts.y->setRange(yMin, yMax);
    parts.y->setTickAnchor(0);
    parts.y->setTickInterval(niceStep(yMax - yMin));
    chart->addAxis(parts.x, Qt::AlignBottom);
    chart->addAxis(parts.y, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(parts.x);
        series->attachAxis(parts.y);
    }
    QLegend* legend = chart->legend();
    legend->setVisible(!empty);
    legend->setAlignment(Qt::AlignRight);
    legend->setFont(labelFont);
    legend->setLabelColor(kAxisTextColour);
    QList<QAbstractSeries*> hidden{parts.zero, parts.marker};
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

void StateWeightsChartView::rebuild() {
    // A fresh chart per update: a handful of series, rebuilt a few times per sweep, cheaper
    // and simpler than diffing series against a changing set of states.
    auto* chart = new QChart;
    m_parts = build(chart, false);
    QChart* old = this->chart();
    setChart(chart);
    delete old;
    m_message = new QGraphicsSimpleTextItem(chart);
    m_message->setBrush(QColor(0x6b, 0x72, 0x7a));
    m_message->setZValue(10);
    connect(chart, &QChart::plotAreaChanged, this, &StateWeightsChartView::updateMessage);
    updateMessage();
}

void StateWeightsChartView::setLines(const QList<Line>& lines, double gammaMinimum,
                                     double gammaMaximum, const QList<GammaRange>& unreliable) {
    m_lines = lines;
    m_unreliable = unreliable;
    m_gammaMinimum = gammaMinimum;
    m_gammaMaximum = gammaMaximum > gammaMinimum ? gammaMaximum : gammaMinimum + 1;
    rebuild();
}

void StateWeightsChartView::setCurrentGamma(double gamma) {
    if (gamma == m_gamma) {
        return;
    }
    m_gamma = gamma;
    if (!m_parts.marker || m_lines.isEmpty() || !m_parts.y) {
        return;
    }
    // The axis always shows the weights at the current γ: rebuild when one falls outside.
    for (const Line& line : m_lines) {
        const QPointF* nearest = nullptr;
        for (const QPointF& p : line.points) {
            if (!nearest || std::abs(p.x() - gamma) < std::abs(nearest->x() - gamma)) {
                nearest = &p;
            }
        }
        if (nearest && std::isfinite(nearest->y()) && std::abs(nearest->y()) <= 1.0 &&
            (nearest->y() < m_parts.y->min() || nearest->y() > m_parts.y->max())) {
            rebuild();
            return;
        }
    }
    if (gamma >= m_gammaMinimum && gamma <= m_gammaMaximum) {
        m_parts.marker->replace(
            QList<QPointF>{{gamma, m_parts.y->min()}, {gamma, m_parts.y->max()}});
    } else {
        m_parts.marker->clear();
    }
}

void StateWeightsChartView::setMessage(const QString& message) {
    m_messageText = message;
    updateMessage();
}

void StateWeightsChartView::updateMessage() {
    if (!m_message) {
        return;
    }
    const QString text = m_lines.isEmpty() ? m_messageText : QString();
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    const QRectF area = chart()->plotArea();
    const QRectF box = m_message->boundingRect();
    m_message->setPos(area.center().x() - box.width() / 2, area.center().y() - box.height() / 2);
}

void StateWeightsChartView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && !m_lines.isEmpty() && m_parts.zero) {
        const QPointF inChart = chart()->mapFromScene(mapToScene(event->position().toPoint()));
        if (chart()->plotArea().contains(inChart)) {
            const QPointF value = chart()->mapToValue(inChart, m_parts.zero);
            emit gammaClicked(std::clamp(value.x(), m_gammaMinimum, m_gammaMaximum));
            event->accept();
            return;
        }
    }
    QChartView::mousePressEvent(event);
}

void StateWeightsChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    updateMessage();
}

void StateWeightsChartView::paintFigure(QPainter& painter, const QRectF& target) const {
    // A separate chart in its own scene, laid out for the export size.
    QGraphicsScene scene;
    auto* chart = new QChart;
    scene.addItem(chart);
    build(chart, true);
    chart->setTitle(tr("State weights ω vs contrast γ"));
    QFont titleFont = chart->font();
    titleFont.setPointSizeF(10);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setTitleBrush(QColor(0x22, 0x27, 0x2e));
    chart->setGeometry(QRectF(QPointF(0, 0), target.size()));
    chart->layout()->activate();
    scene.setSceneRect(QRectF(QPointF(0, 0), target.size()));
    scene.render(&painter, target, scene.sceneRect());
}

} // namespace cx::ui
