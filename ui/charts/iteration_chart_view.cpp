#include "ui/charts/iteration_chart_view.h"

#include "ui/charts/chart_style.h"
#include "ui/widgets/export_helpers.h"

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cx::ui {

namespace {

/// [min, max] of the lines on one side, padded by 5 %.
std::pair<double, double> valueRange(const QList<IterationChartView::Line>& lines, bool right) {
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    for (const auto& line : lines) {
        if (line.rightAxis != right) {
            continue;
        }
        for (const QPointF& p : line.points) {
            if (std::isfinite(p.y())) {
                low = std::min(low, p.y());
                high = std::max(high, p.y());
            }
        }
    }
    if (!std::isfinite(low)) {
        return {0.0, 1.0};
    }
    const double pad = std::max(1e-9, (high - low) * 0.05);
    return {low - pad, high + pad};
}

/// Range and dynamic ticks (about five, anchored on a multiple of the interval); `integer`:
/// whole-number ticks only (iterations: a 0.2 step printed with %d read "0 0 0 0 0 1").
void setAxisRange(QValueAxis* axis, double low, double high, bool integer = false) {
    axis->setRange(low, high);
    double interval = niceTickInterval(high - low);
    if (integer) {
        interval = std::max(1.0, std::round(interval));
    }
    axis->setTickInterval(interval);
    axis->setTickAnchor(std::ceil(low / interval) * interval);
}

bool anyPoint(const QList<IterationChartView::Line>& lines) {
    return std::any_of(lines.begin(), lines.end(),
                       [](const IterationChartView::Line& line) { return !line.points.isEmpty(); });
}

} // namespace

IterationChartView::IterationChartView(QWidget* parent) : QChartView(parent) {
    setUpChartView(this, 140);
    setCursor(Qt::ArrowCursor);
    rebuild();
}

void IterationChartView::setLines(const QList<Line>& lines, const QString& leftTitle,
                                  const QString& rightTitle) {
    m_lines = lines;
    m_leftTitle = leftTitle;
    m_rightTitle = rightTitle;
    rebuild();
}

void IterationChartView::setPlaceholder(const QString& text) {
    m_placeholder = text;
    rebuild();
}

void IterationChartView::setXAxis(const QString& title, bool fromFirstPoint) {
    m_xTitle = title;
    m_xFromFirstPoint = fromFirstPoint;
    rebuild();
}

void IterationChartView::setFigureTitle(const QString& title) {
    m_figureTitle = title;
}

void IterationChartView::build(QChart* chart, bool figure) const {
    styleChart(chart, QMargins(2, 2, 6, 2));
    QFont labelFont = chart->font();
    labelFont.setPointSizeF(8);
    QFont titleFont = labelFont;
    titleFont.setPointSizeF(8.5);
    double lastIteration = 1;
    double firstIteration = std::numeric_limits<double>::infinity();
    for (const Line& line : m_lines) {
        auto* series = new QLineSeries(chart);
        series->setName(line.name);
        series->setPen(
            QPen(line.colour, figure ? 2.0 : 2.2, line.dashed ? Qt::DashLine : Qt::SolidLine));
        series->replace(line.points);
        series->setPointsVisible(line.points.size() == 1); // one point draws no line
        chart->addSeries(series);
        if (!line.points.isEmpty()) {
            lastIteration = std::max(lastIteration, line.points.back().x());
            firstIteration = std::min(firstIteration, line.points.front().x());
        }
    }
    QValueAxis* x = createValueAxis(chart, m_xTitle.isEmpty() ? tr("iteration") : m_xTitle,
                                    QStringLiteral("%d"), labelFont, titleFont);
    const double firstX = m_xFromFirstPoint && std::isfinite(firstIteration) ? firstIteration : 0.0;
    setAxisRange(x, firstX, std::max(lastIteration, firstX + 1), true);
    QValueAxis* left =
        createValueAxis(chart, m_leftTitle, QStringLiteral("%.4g"), labelFont, titleFont);
    const auto [leftLow, leftHigh] = valueRange(m_lines, false);
    setAxisRange(left, leftLow, leftHigh);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(left, Qt::AlignLeft);
    QValueAxis* right = nullptr;
    const bool anyRight = std::any_of(m_lines.begin(), m_lines.end(),
                                      [](const Line& line) { return line.rightAxis; });
    if (anyRight) {
        right = createValueAxis(chart, m_rightTitle, QStringLiteral("%.3g"), labelFont, titleFont);
        const auto [rightLow, rightHigh] = valueRange(m_lines, true);
        setAxisRange(right, std::min(0.0, rightLow), rightHigh);
        right->setGridLineVisible(false);
        chart->addAxis(right, Qt::AlignRight);
    }
    const auto series = chart->series();
    for (int i = 0; i < series.size(); ++i) {
        series[i]->attachAxis(x);
        series[i]->attachAxis(m_lines[i].rightAxis && right ? right : left);
    }
    chart->legend()->setVisible(anyPoint(m_lines));
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->legend()->setFont(labelFont);
    chart->legend()->setLabelColor(kChartTextColour);
}

void IterationChartView::rebuild() {
    auto* chart = new QChart;
    build(chart, false);
    QChart* old = this->chart();
    setChart(chart);
    delete old;
    if (!anyPoint(m_lines) && !m_placeholder.isEmpty()) {
        QGraphicsSimpleTextItem* message = createChartMessage(chart);
        message->setText(m_placeholder);
        centreChartMessage(message, QRectF(QPointF(0, 0), QSizeF(size())));
    }
}

QString IterationChartView::figureTitle() const {
    if (!m_figureTitle.isEmpty()) {
        return m_figureTitle;
    }
    return chart()->title().isEmpty() ? tr("Stagewise EM") : chart()->title();
}

void IterationChartView::paintFigure(QPainter& painter, const QRectF& target) const {
    paintChartFigure(painter, target, figureTitle(),
                     [this](QChart* chart, double) { build(chart, true); });
}

ChartFigureLayout IterationChartView::figureLayout(const QSizeF& size) const {
    return layOutChartFigure(size, figureTitle(),
                             [this](QChart* chart, double) { build(chart, true); });
}

QString IterationChartView::figureData() const {
    QString out;
    for (const Line& line : m_lines) {
        for (const QPointF& point : line.points) {
            out += delimitedField(line.name, QLatin1Char('\t')) + QLatin1Char('\t') +
                   dataNumber(point.x()) + QLatin1Char('\t') + dataNumber(point.y()) +
                   (line.rightAxis ? QStringLiteral("\tright\n") : QStringLiteral("\tleft\n"));
        }
    }
    return out.isEmpty() ? out : QStringLiteral("line\titeration\tvalue\taxis\n") + out;
}

QSizeF IterationChartView::figureSize() const {
    const bool rightAxis = std::any_of(m_lines.begin(), m_lines.end(),
                                       [](const Line& line) { return line.rightAxis; });
    return chartFigureSize((rightAxis ? kMidColumnMm : kSingleColumnMm) * kLogicalPerMm,
                           70 * kLogicalPerMm,
                           [this](QChart* chart, double) { build(chart, true); });
}

} // namespace cx::ui
