#include "ui/charts/chart_style.h"

#include <QAbstractSeries>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QValueAxis>

#include <cmath>

namespace cx::ui {

namespace {

const QColor kGridColour(0xe3, 0xe6, 0xea);
const QColor kAxisLineColour(0xb8, 0xbe, 0xc5);
const QColor kMessageColour(0x6b, 0x72, 0x7a);
const QColor kFigureTitleColour(0x22, 0x27, 0x2e);

} // namespace

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

void paintChartFigure(QPainter& painter, const QRectF& target, const QString& title,
                      const std::function<void(QChart* chart)>& build) {
    QGraphicsScene scene;
    auto* chart = new QChart;
    scene.addItem(chart);
    build(chart);
    chart->setTitle(title);
    QFont titleFont = chart->font();
    titleFont.setPointSizeF(10);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setTitleBrush(kFigureTitleColour);
    chart->setGeometry(QRectF(QPointF(0, 0), target.size()));
    chart->layout()->activate();
    scene.setSceneRect(QRectF(QPointF(0, 0), target.size()));
    scene.render(&painter, target, scene.sceneRect());
}

} // namespace cx::ui
