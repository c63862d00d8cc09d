#include "ui/charts/auc_chart_view.h"

#include "ui/charts/chart_style.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/widgets/export_helpers.h"
#include "ui/widgets/plural.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cx::ui {

namespace {

const QColor kCurveColor(0x1f, 0x5f, 0xa8);
const QColor kReferenceColor(0x9a, 0xa0, 0xa6);
/// The weights chart's shading of γ the app does not stand behind (its kUnreliableColour).
const QColor kUntrustedColour(0xf2, 0xa6, 0x5a, 70);

} // namespace

AucChartView::Parts AucChartView::createParts(QChart* chart, double fontScale) {
    Parts parts;
    parts.chart = chart;
    styleChart(chart, QMargins(4, 4, 14, 4));
    chart->legend()->hide();

    QFont labelFont = chart->font();
    labelFont.setPointSizeF(8.5 * fontScale);
    QFont titleFont = labelFont;
    titleFont.setPointSizeF(9 * fontScale);

    parts.reference = new QLineSeries(chart);
    QPen referencePen(kReferenceColor, 1.2 * fontScale, Qt::DashLine);
    parts.reference->setPen(referencePen);
    parts.curve = new QLineSeries(chart);
    parts.curve->setPen(QPen(kCurveColor, 2.2 * fontScale));
    parts.dots = new QScatterSeries(chart);
    parts.dots->setMarkerSize(7 * fontScale);
    parts.dots->setColor(Qt::white);
    parts.dots->setBorderColor(kCurveColor);
    parts.dots->setPen(QPen(kCurveColor, 1.6 * fontScale));
    parts.flagged = new QScatterSeries(chart);
    parts.flagged->setMarkerSize(9 * fontScale);
    parts.flagged->setColor(Qt::transparent);
    parts.flagged->setBorderColor(QColor(0xb3, 0x26, 0x1e));
    parts.flagged->setPen(QPen(QColor(0xb3, 0x26, 0x1e), 1.8 * fontScale));
    parts.failed = new QScatterSeries(chart);
    parts.failed->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    parts.failed->setMarkerSize(7 * fontScale);
    parts.failed->setColor(QColor(0xc6, 0x28, 0x28));
    parts.failed->setBorderColor(Qt::white);
    parts.untrusted = new QAreaSeries(new QLineSeries(chart), new QLineSeries(chart));
    parts.untrusted->setPen(Qt::NoPen);
    parts.untrusted->setBrush(kUntrustedColour);
    chart->addSeries(parts.untrusted);
    auto* bandUpper = new QLineSeries(chart);
    auto* bandLower = new QLineSeries(chart);
    parts.band = new QAreaSeries(bandUpper, bandLower);
    parts.band->setPen(Qt::NoPen);
    QColor bandColour = kCurveColor;
    bandColour.setAlpha(45);
    parts.band->setBrush(bandColour);
    chart->addSeries(parts.band);
    parts.marker = new QLineSeries(chart);
    parts.marker->setPen(QPen(kGammaMarkerColour, 1.5 * fontScale, Qt::DashLine));
    parts.markerDot = new QScatterSeries(chart);
    parts.markerDot->setMarkerSize(11 * fontScale);
    parts.markerDot->setColor(kGammaMarkerColour);
    parts.markerDot->setBorderColor(Qt::white);
    parts.markerDot->setPen(QPen(Qt::white, 1.5 * fontScale));
    for (QAbstractSeries* series :
         {static_cast<QAbstractSeries*>(parts.reference),
          static_cast<QAbstractSeries*>(parts.curve), static_cast<QAbstractSeries*>(parts.dots),
          static_cast<QAbstractSeries*>(parts.flagged), static_cast<QAbstractSeries*>(parts.failed),
          static_cast<QAbstractSeries*>(parts.marker),
          static_cast<QAbstractSeries*>(parts.markerDot)}) {
        chart->addSeries(series);
    }

    parts.x = createValueAxis(chart, QStringLiteral("contrast weight γ"), QStringLiteral("%g"),
                              labelFont, titleFont);
    parts.y = createValueAxis(chart, tr("AUC relative to γ = 0"), QStringLiteral("%.2f"), labelFont,
                              titleFont);
    attachValueAxes(chart, parts.x, parts.y);
    return parts;
}

AucChartView::AucChartView(QWidget* parent) : QChartView(parent) {
    setUpChartView(this, 140);
    m_parts = createParts(new QChart, 1.0);
    setChart(m_parts.chart);
    m_message = createChartMessage(m_parts.chart);
    connect(m_parts.dots, &QScatterSeries::hovered, this, &AucChartView::showPointToolTip);
    connect(m_parts.curve, &QLineSeries::hovered, this, &AucChartView::showPointToolTip);
    connect(m_parts.failed, &QScatterSeries::hovered, this, &AucChartView::showPointToolTip);
    connect(m_parts.flagged, &QScatterSeries::hovered, this, &AucChartView::showPointToolTip);
    m_markerLabel = new QGraphicsSimpleTextItem(m_parts.chart);
    m_markerLabel->setBrush(kGammaMarkerColour);
    QFont markerFont = font();
    markerFont.setPointSizeF(8.5);
    markerFont.setBold(true);
    m_markerLabel->setFont(markerFont);
    m_markerLabel->setZValue(11);
    connect(m_parts.chart, &QChart::plotAreaChanged, this, [this](const QRectF& plot) {
        updateMessage();
        updateMarkerLabel();
        fitTitles();
        // Padding for the markers depends on the plot's size.
        const auto changed = [](double now, double padded) {
            return std::abs(now - padded) > 0.2 * std::max(now, 1.0);
        };
        if (changed(plot.height(), m_paddedPlotSize.height()) ||
            changed(plot.width(), m_paddedPlotSize.width())) {
            m_paddedPlotSize = plot.size();
            QMetaObject::invokeMethod(this, &AucChartView::refresh, Qt::QueuedConnection);
        }
    });
    m_idleMessage = tr("Choose a specificity rule to compute the AUC over a γ grid");
    refresh();
}

void AucChartView::startSweep(const QVector<double>& gammas) {
    m_gammas = gammas;
    m_points.clear();
    m_complete = false;
    m_error.clear();
    refresh();
}

void AucChartView::addPoint(const SweepPoint& point) {
    const auto at =
        std::lower_bound(m_points.begin(), m_points.end(), point.gamma,
                         [](const SweepPoint& p, double gamma) { return p.gamma < gamma; });
    m_points.insert(at, point);
    refresh();
}

void AucChartView::finishSweep() {
    m_complete = true;
    refresh();
}

void AucChartView::failSweep(const QString& message) {
    m_error = message;
    m_complete = false;
    refresh();
}

void AucChartView::setIdleMessage(const QString& message) {
    m_idleMessage = message;
    updateMessage();
}

void AucChartView::setCurrentGamma(double gamma) {
    if (gamma == m_gamma) {
        return;
    }
    m_gamma = gamma;
    refresh();
}

double AucChartView::interpolatedRelativeAuc(double gamma) const {
    if (m_points.isEmpty() || gamma < m_points.front().gamma || gamma > m_points.back().gamma) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    for (int i = 0; i + 1 < m_points.size(); ++i) {
        const SweepPoint& a = m_points[i];
        const SweepPoint& b = m_points[i + 1];
        if (gamma >= a.gamma && gamma <= b.gamma) {
            const double t = b.gamma > a.gamma ? (gamma - a.gamma) / (b.gamma - a.gamma) : 0;
            return a.relativeAuc + t * (b.relativeAuc - a.relativeAuc);
        }
    }
    return m_points.back().relativeAuc;
}

void AucChartView::setBands(const QVector<double>& gammas, const QVector<double>& lower,
                            const QVector<double>& upper) {
    for (SweepPoint& point : m_points) {
        point.relativeLo = point.relativeHi = std::numeric_limits<double>::quiet_NaN();
        for (int i = 0; i < gammas.size() && i < lower.size() && i < upper.size(); ++i) {
            if (std::abs(gammas[i] - point.gamma) < 1e-9) {
                point.relativeLo = lower[i];
                point.relativeHi = upper[i];
            }
        }
    }
    refresh();
}

void AucChartView::setInadmissibleCounts(const QVector<double>& gammas,
                                         const QVector<int>& counts) {
    for (SweepPoint& point : m_points) {
        for (int i = 0; i < gammas.size() && i < counts.size(); ++i) {
            if (std::abs(gammas[i] - point.gamma) < 1e-9) {
                point.numInadmissible = counts[i];
            }
        }
    }
    refresh();
}

void AucChartView::setNotTrusted(const QVector<double>& gammas, const QStringList& reasons) {
    for (SweepPoint& point : m_points) {
        for (int i = 0; i < gammas.size() && i < reasons.size(); ++i) {
            if (std::abs(gammas[i] - point.gamma) < 1e-9) {
                point.notTrusted = reasons[i];
            }
        }
    }
    refresh();
}

QList<std::pair<double, double>> AucChartView::notTrustedRanges() const {
    QVector<double> gammas;
    std::vector<double> flags;
    for (const SweepPoint& point : m_points) {
        gammas << point.gamma;
        flags.push_back(point.notTrusted.isEmpty() ? 0.0 : 1.0);
    }
    return unreliableRanges(gammas, flags);
}

int AucChartView::flaggedPointCount() const {
    return m_parts.flagged ? static_cast<int>(m_parts.flagged->count()) : 0;
}

void AucChartView::fillParts(Parts& parts, const QSizeF& plotSize) const {
    // Runs of valid points; a point without an AUC (failure) ends a run and is drawn as a red
    // square on the reference line, its reason on hover. No point is dropped silently.
    QList<QList<QPointF>> runs(1);
    QList<QPointF> curve;   // all valid points (dots)
    QList<QPointF> flagged; // of them, with a component of inadmissible weight
    QList<QPointF> failed;
    QList<QPointF> bandUpper, bandLower;
    double low = 1.0;
    double high = 1.0;
    for (const SweepPoint& point : m_points) {
        if (std::isfinite(point.relativeAuc)) {
            runs.back().append(QPointF(point.gamma, point.relativeAuc));
            curve.append(QPointF(point.gamma, point.relativeAuc));
            if (point.numInadmissible > 0) {
                flagged.append(QPointF(point.gamma, point.relativeAuc));
            }
            low = std::min(low, point.relativeAuc);
            high = std::max(high, point.relativeAuc);
        } else {
            failed.append(QPointF(point.gamma, 1.0));
            if (!runs.back().isEmpty()) {
                runs.append(QList<QPointF>());
            }
        }
        if (std::isfinite(point.relativeLo) && std::isfinite(point.relativeHi)) {
            bandLower.append(QPointF(point.gamma, point.relativeLo));
            bandUpper.append(QPointF(point.gamma, point.relativeHi));
            low = std::min(low, point.relativeLo);
            high = std::max(high, point.relativeHi);
        }
    }
    double xMin = 0;
    double xMax = 10;
    if (!m_gammas.isEmpty()) {
        xMin = *std::min_element(m_gammas.begin(), m_gammas.end());
        xMax = *std::max_element(m_gammas.begin(), m_gammas.end());
    } else if (!m_points.isEmpty()) {
        xMin = m_points.front().gamma;
        xMax = m_points.back().gamma;
    }
    if (xMax <= xMin) {
        xMax = xMin + 1;
    }
    // Rings and the current-γ dot on the outermost values stay inside the plot.
    const double pad = plotPadding(high - low, 0.12, 0.02, plotSize.height(), 8);
    // Rings and dots on the first and last γ are drawn whole too.
    const double xPad = plotPadding(xMax - xMin, 0.02, 0.0, plotSize.width(), 8);
    const double yMin = std::floor((low - pad) * 50) / 50;
    const double yMax = std::ceil((high + pad) * 50) / 50;

    // Each series gets its whole point list at once (one replace, one repaint).
    parts.curve->replace(runs.front());
    while (parts.segments.size() < runs.size() - 1) {
        auto* segment = new QLineSeries(parts.chart);
        segment->setPen(parts.curve->pen());
        parts.chart->addSeries(segment);
        for (QAbstractAxis* axis : parts.curve->attachedAxes()) {
            segment->attachAxis(axis);
        }
        parts.segments << segment;
    }
    for (int i = 0; i < parts.segments.size(); ++i) {
        parts.segments[i]->replace(i + 1 < runs.size() ? runs[i + 1] : QList<QPointF>{});
    }
    parts.dots->replace(curve);
    parts.flagged->replace(flagged);
    parts.failed->replace(failed);
    // The shaded γ ranges: the upper edge steps from yMin up to yMax over each range.
    QList<QPointF> shadeUpper;
    for (const auto& [from, to] : notTrustedRanges()) {
        shadeUpper << QPointF(from, yMin) << QPointF(from, yMax) << QPointF(to, yMax)
                   << QPointF(to, yMin);
    }
    parts.untrusted->upperSeries()->replace(shadeUpper);
    parts.untrusted->lowerSeries()->replace(
        shadeUpper.isEmpty()
            ? QList<QPointF>{}
            : QList<QPointF>{{shadeUpper.front().x(), yMin}, {shadeUpper.back().x(), yMin}});
    parts.band->upperSeries()->replace(bandUpper);
    parts.band->lowerSeries()->replace(bandLower);
    // Without data the plot stays empty behind the message (no reference, no marker).
    parts.reference->replace(curve.isEmpty() ? QList<QPointF>{}
                                             : QList<QPointF>{{xMin, 1.0}, {xMax, 1.0}});
    const bool markerVisible = !curve.isEmpty() && m_gamma >= xMin && m_gamma <= xMax;
    if (markerVisible) {
        parts.marker->replace(QList<QPointF>{{m_gamma, yMin}, {m_gamma, yMax}});
        const double value = interpolatedRelativeAuc(m_gamma);
        parts.markerDot->replace(std::isfinite(value) ? QList<QPointF>{{m_gamma, value}}
                                                      : QList<QPointF>{});
    } else {
        parts.marker->clear();
        parts.markerDot->clear();
    }
    // An empty chart (no sweep configured) shows only its message, not empty axes.
    const bool axesVisible = !curve.isEmpty() || !m_gammas.isEmpty();
    parts.x->setVisible(axesVisible);
    parts.y->setVisible(axesVisible);
    parts.x->setRange(xMin - xPad, xMax + xPad);
    parts.x->setTickAnchor(0);
    parts.x->setTickInterval(niceTickInterval(xMax - xMin));
    parts.y->setRange(yMin, yMax);
    parts.y->setTickAnchor(1.0);
    parts.y->setTickInterval(niceTickInterval(yMax - yMin));
}

void AucChartView::refresh() {
    fillParts(m_parts, m_parts.chart->plotArea().size());
    updateMessage();
    updateMarkerLabel();
    fitTitles();
}

void AucChartView::fitTitles() {
    const QRectF plot = m_parts.chart->plotArea();
    fitAxisTitle(m_parts.y, tr("AUC relative to γ = 0"), tr("rel. AUC"), plot.height());
}

void AucChartView::updateMarkerLabel() {
    const QRectF area = m_parts.chart->plotArea();
    const bool visible = m_parts.marker->count() == 2 && area.isValid();
    m_markerLabel->setVisible(visible);
    if (!visible) {
        return;
    }
    const double value = interpolatedRelativeAuc(m_gamma);
    m_markerLabel->setText(std::isfinite(value)
                               ? tr("γ = %1 · %2").arg(m_gamma, 0, 'f', 2).arg(value, 0, 'f', 3)
                               : tr("γ = %1").arg(m_gamma, 0, 'f', 2));
    const double x = m_parts.chart->mapToPosition(QPointF(m_gamma, 0), m_parts.marker).x();
    const QRectF box = m_markerLabel->boundingRect();
    // Right of the line, or left of it near the right edge.
    const double left = x + 6 + box.width() <= area.right() ? x + 6 : x - 6 - box.width();
    m_markerLabel->setPos(left, area.top() + 4);
}

void AucChartView::updateMessage() {
    QString text;
    if (!m_error.isEmpty()) {
        text = m_error;
    } else if (m_gammas.isEmpty() && m_points.isEmpty()) {
        text = m_idleMessage;
    } else if (m_points.isEmpty()) {
        text = tr("Computing the specificity sweep…");
    }
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    centreChartMessage(m_message, m_parts.chart->plotArea());
}

void AucChartView::showPointToolTip(const QPointF& point, bool state) {
    if (!state) {
        QToolTip::hideText();
        return;
    }
    const SweepPoint* nearest = nullptr;
    for (const SweepPoint& p : m_points) {
        if (!nearest || std::abs(p.gamma - point.x()) < std::abs(nearest->gamma - point.x())) {
            nearest = &p;
        }
    }
    if (!nearest) {
        return;
    }
    if (!nearest->failure.isEmpty()) {
        QToolTip::showText(
            QCursor::pos(),
            tr("γ = %1\nno AUC: %2").arg(nearest->gamma, 0, 'g', 4).arg(nearest->failure), this);
        return;
    }
    const QString band = std::isfinite(nearest->relativeLo)
                             ? tr("\nbootstrap band %1 – %2")
                                   .arg(nearest->relativeLo, 0, 'f', 3)
                                   .arg(nearest->relativeHi, 0, 'f', 3)
                             : QString();
    const QString inadmissible =
        nearest->numInadmissible > 0
            ? tr("\n⚠ %1 with a weight outside [−γ, 1] (no topic of the model)")
                  .arg(countOf(nearest->numInadmissible, tr("component"), tr("components")))
            : QString();
    const QString notTrusted = nearest->notTrusted.isEmpty()
                                   ? QString()
                                   : tr("\nnot stood behind: %1").arg(nearest->notTrusted);
    QToolTip::showText(
        QCursor::pos(),
        (tr("γ = %1\nAUC %2 (relative to γ = 0: %3)\n%4") + inadmissible + notTrusted + band)
            .arg(nearest->gamma, 0, 'g', 4)
            .arg(nearest->auc, 0, 'f', 3)
            .arg(nearest->relativeAuc, 0, 'f', 3)
            .arg(countOf(nearest->numForegroundSpecific, tr("foreground-specific topic"),
                         tr("foreground-specific topics"))),
        this);
}

void AucChartView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        if (const auto value = plotValueAt(*this, event->position().toPoint(), m_parts.curve)) {
            emit gammaClicked(std::max(0.0, value->x()));
            event->accept();
            return;
        }
    }
    QChartView::mousePressEvent(event);
}

void AucChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    updateMessage();
}

void AucChartView::buildFigure(QChart* chart, double plotHeight) const {
    Parts parts = createParts(chart, 1.0);
    fillParts(parts, QSizeF(0, plotHeight));
    // The figure explains its marks in a legend (the screen has tooltips).
    parts.curve->setName(tr("AUC relative to γ = 0"));
    parts.flagged->setName(tr("⚠ component of inadmissible weight"));
    parts.failed->setName(tr("no AUC (solver failed)"));
    parts.band->setName(tr("bootstrap band"));
    parts.untrusted->setName(tr("γ not stood behind"));
    parts.markerDot->setName(tr("current γ"));
    QLegend* legend = chart->legend();
    legend->setFont(parts.x->labelsFont());
    legend->setVisible(parts.curve->count() > 0);
    const auto hide = [legend](QAbstractSeries* series) {
        for (QLegendMarker* marker : legend->markers(series)) {
            marker->setVisible(false);
        }
    };
    for (QAbstractSeries* series : chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        auto* area = qobject_cast<QAreaSeries*>(series);
        const bool empty = (xy && xy->count() == 0) || (area && area->upperSeries()->count() == 0);
        if (empty || series->name().isEmpty()) {
            hide(series);
        }
    }
    hide(parts.dots);
}

QRectF AucChartView::plotAreaInView() const {
    return mapFromScene(m_parts.chart->mapRectToScene(m_parts.chart->plotArea())).boundingRect();
}

QList<std::pair<QPointF, double>> AucChartView::drawnPoints() const {
    QList<std::pair<QPointF, double>> out = drawnPointsInScene(m_parts.chart);
    for (auto& [point, radius] : out) {
        point = QPointF(mapFromScene(point));
    }
    return out;
}

void AucChartView::paintFigure(QPainter& painter, const QRectF& target) const {
    paintChartFigure(painter, target, tr("Specificity AUC relative to γ = 0"),
                     [this](QChart* chart, double plotHeight) { buildFigure(chart, plotHeight); });
}

ChartFigureLayout AucChartView::figureLayout(const QSizeF& size) const {
    return layOutChartFigure(
        size, tr("Specificity AUC relative to γ = 0"),
        [this](QChart* chart, double plotHeight) { buildFigure(chart, plotHeight); });
}

QString AucChartView::figureData() const {
    if (m_points.isEmpty()) {
        return {};
    }
    QString out = QStringLiteral("gamma\tauc\trelative_auc\trelative_low\trelative_high\t"
                                 "foreground_specific\tinadmissible\tmissing\t"
                                 "not_trusted_because\n");
    for (const SweepPoint& point : m_points) {
        const bool valid = point.failure.isEmpty();
        out += dataNumber(point.gamma) + QLatin1Char('\t') +
               (valid ? dataNumber(point.auc) : QString()) + QLatin1Char('\t') +
               (valid ? dataNumber(point.relativeAuc) : QString()) + QLatin1Char('\t') +
               dataNumber(point.relativeLo) + QLatin1Char('\t') + dataNumber(point.relativeHi) +
               QLatin1Char('\t') + QString::number(point.numForegroundSpecific) +
               QLatin1Char('\t') + QString::number(point.numInadmissible) + QLatin1Char('\t') +
               delimitedField(point.failure, QLatin1Char('\t')) + QLatin1Char('\t') +
               delimitedField(point.notTrusted, QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return out;
}

QSizeF AucChartView::figureSize() const {
    return chartFigureSize(
        kSingleColumnMm * kLogicalPerMm, 70 * kLogicalPerMm,
        [this](QChart* chart, double plotHeight) { buildFigure(chart, plotHeight); });
}

} // namespace cx::ui
