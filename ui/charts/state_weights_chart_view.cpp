#include "ui/charts/state_weights_chart_view.h"

#include "ui/charts/chart_style.h"
#include "ui/widgets/export_helpers.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QListWidget>
#include <QMouseEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QScrollBar>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <vector>

namespace cx::ui {

namespace {

/// The legend sample of `series` (line, hollow marker or swatch) as an icon.
QIcon legendIcon(const QAbstractSeries* series, const QSize& size, qreal devicePixelRatio) {
    QPixmap pixmap(size * devicePixelRatio);
    pixmap.setDevicePixelRatio(devicePixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPointF centre(size.width() / 2.0, size.height() / 2.0);
    if (const auto* scatter = qobject_cast<const QScatterSeries*>(series)) {
        const double d = std::min(scatter->markerSize(), size.height() - 2.0);
        QPen pen = scatter->pen();
        pen.setColor(scatter->borderColor());
        painter.setPen(pen);
        painter.setBrush(scatter->brush());
        painter.drawEllipse(centre, d / 2, d / 2);
    } else if (const auto* area = qobject_cast<const QAreaSeries*>(series)) {
        QColor colour = area->brush().color();
        colour.setAlpha(std::max(colour.alpha(), 110));
        painter.fillRect(QRectF(1, centre.y() - 4, size.width() - 2, 8), colour);
    } else if (const auto* line = qobject_cast<const QLineSeries*>(series)) {
        QPen pen = line->pen();
        pen.setWidthF(std::min(pen.widthF(), 2.5));
        pen.setCapStyle(Qt::FlatCap);
        painter.setPen(pen);
        painter.drawLine(QPointF(1, centre.y()), QPointF(size.width() - 1, centre.y()));
    }
    return QIcon(pixmap);
}

} // namespace

StateWeightsChartView::StateWeightsChartView(QWidget* parent) : QChartView(parent) {
    setUpChartView(this, 120);
    m_message = nullptr;
    m_legendList = new QListWidget(this);
    m_legendList->setObjectName(QStringLiteral("weightsLegend"));
    m_legendList->setFrameShape(QFrame::NoFrame);
    m_legendList->setSelectionMode(QAbstractItemView::NoSelection);
    m_legendList->setFocusPolicy(Qt::NoFocus);
    m_legendList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_legendList->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_legendList->setTextElideMode(Qt::ElideRight);
    m_legendList->setIconSize(QSize(22, 12));
    m_legendList->setUniformItemSizes(true);
    m_legendList->setCursor(Qt::ArrowCursor);
    m_legendList->setStyleSheet(QStringLiteral("QListWidget { background: white; color: #444b53; }"
                                               "QListWidget::item { padding: 0px 2px; }"));
    m_legendList->setToolTip(tr("Legend: click an entry to hide or show its lines; scroll for "
                                "more"));
    QFont legendFont = m_legendList->font();
    legendFont.setPointSizeF(8);
    m_legendList->setFont(legendFont);
    m_legendList->hide();
    connect(m_legendList, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        setEntryHidden(item->data(Qt::UserRole).toString(), item->checkState() != Qt::Checked);
    });
    connect(m_legendList, &QListWidget::itemClicked, this, [](QListWidgetItem* item) {
        // A click anywhere on the row toggles, not only on the check box.
        item->setCheckState(item->checkState() == Qt::Checked ? Qt::Unchecked : Qt::Checked);
    });
    rebuild();
}

QString StateWeightsChartView::weightTitle() const {
    return m_weightTitle.isEmpty() ? QStringLiteral("state weight ω") : m_weightTitle;
}

void StateWeightsChartView::rebuild() {
    // A fresh chart per update: a handful of series, rebuilt a few times per sweep, cheaper
    // and simpler than diffing series against a changing set of states.
    m_rebuildPending = false;
    auto* chart = new QChart;
    // The plot keeps its size from one chart to the next (same widget).
    m_builtPlotSize = this->chart() ? this->chart()->plotArea().size() : QSizeF();
    m_parts = build(chart, false, m_builtPlotSize);
    for (const auto& [label, members] : m_parts.groups) {
        if (m_hidden.contains(label)) {
            for (QAbstractSeries* series : members) {
                series->setVisible(false);
            }
        }
    }
    QChart* old = this->chart();
    setChart(chart);
    delete old;
    m_message = createChartMessage(chart);
    connect(chart, &QChart::plotAreaChanged, this, [this](const QRectF& plotArea) {
        updateMessage();
        fitTitles();
        // A plot much taller, shorter, wider or narrower than the padding was made for: pad
        // again, so that markers on the outermost values stay inside.
        const auto changed = [](double now, double built) {
            return std::abs(now - built) > 0.2 * std::max(now, 1.0);
        };
        if (!m_rebuildPending && !m_lines.isEmpty() &&
            (changed(plotArea.height(), m_builtPlotSize.height()) ||
             changed(plotArea.width(), m_builtPlotSize.width()))) {
            m_rebuildPending = true;
            QMetaObject::invokeMethod(
                this,
                [this] {
                    if (m_rebuildPending) {
                        rebuild();
                    }
                },
                Qt::QueuedConnection);
        }
    });
    updateLegendList();
    updateMessage();
    fitTitles();
}

void StateWeightsChartView::updateLegendList() {
    const QSignalBlocker blocker(m_legendList);
    const int scroll = m_legendList->verticalScrollBar()->value();
    m_legendList->clear();
    if (m_lines.isEmpty()) {
        m_legendList->hide();
        placeLegendList();
        return;
    }
    const QSize iconSize = m_legendList->iconSize();
    for (const auto& [label, members] : m_parts.groups) {
        auto* item = new QListWidgetItem(m_legendList);
        item->setText(label);
        item->setData(Qt::UserRole, label);
        item->setIcon(legendIcon(members.front(), iconSize, devicePixelRatioF()));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        const bool hidden = m_hidden.contains(label);
        item->setCheckState(hidden ? Qt::Unchecked : Qt::Checked);
        item->setToolTip(hidden ? tr("%1\n(hidden: click to show)").arg(label)
                                : tr("%1\n(click to hide)").arg(label));
        if (hidden) {
            item->setForeground(QColor(0xa0, 0xa6, 0xad));
        }
    }
    m_legendList->show();
    m_legendList->verticalScrollBar()->setValue(scroll);
    placeLegendList();
}

void StateWeightsChartView::placeLegendList() {
    QChart* chart = this->chart();
    if (!chart) {
        return;
    }
    if (m_legendList->count() == 0) {
        chart->setMargins(QMargins(2, 2, 6, 2));
        return;
    }
    // As wide as the longest entry (check box, sample, text), at most 45 % of the view and at
    // least enough for "T10 word word"; longer names are elided with their tooltip.
    const QFontMetrics metrics(m_legendList->font());
    int widest = 0;
    for (int i = 0; i < m_legendList->count(); ++i) {
        widest = std::max(widest, metrics.horizontalAdvance(m_legendList->item(i)->text()));
    }
    const QRect area = viewport()->geometry();
    // A scroll bar only when the entries are taller than the view.
    const int rows = m_legendList->count() * std::max(1, m_legendList->sizeHintForRow(0));
    const int scrollBar =
        rows > area.height() - 4 ? m_legendList->verticalScrollBar()->sizeHint().width() : 0;
    const int chrome = 22 + m_legendList->iconSize().width() + 12 + scrollBar;
    const int width = std::clamp(widest + chrome, std::min(130, this->width() / 2),
                                 std::max(130, static_cast<int>(0.45 * this->width())));
    m_legendList->setGeometry(area.right() - width + 1, area.top() + 2, width,
                              std::max(0, area.height() - 4));
    chart->setMargins(QMargins(2, 2, width + 6, 2));
}

QStringList StateWeightsChartView::legendLabels() const {
    QStringList labels;
    for (const auto& [label, members] : m_parts.groups) {
        labels << label;
    }
    return labels;
}

void StateWeightsChartView::setEntryHidden(const QString& label, bool hidden) {
    if (hidden == m_hidden.contains(label)) {
        return;
    }
    if (hidden) {
        m_hidden.insert(label);
    } else {
        m_hidden.remove(label);
    }
    rebuild();
}

QRectF StateWeightsChartView::plotAreaInView() const {
    QChart* chart = this->chart();
    return mapFromScene(chart->mapRectToScene(chart->plotArea())).boundingRect();
}

QList<std::pair<QPointF, double>> StateWeightsChartView::drawnPoints() const {
    QList<std::pair<QPointF, double>> out = drawnPointsInScene(chart());
    for (auto& [point, radius] : out) {
        point = QPointF(mapFromScene(point));
    }
    return out;
}

void StateWeightsChartView::fitTitles() {
    // A short plot shows the axis title's last two words ("weight ω") rather than an elided
    // title (a lone rotated "ω" reads as a 3).
    if (m_parts.y && m_parts.chart) {
        const QString full = weightTitle();
        fitAxisTitle(m_parts.y, full, full.section(QLatin1Char(' '), -2),
                     m_parts.chart->plotArea().height());
    }
}

void StateWeightsChartView::setLines(const QList<Line>& lines, double gammaMinimum,
                                     double gammaMaximum, const QList<GammaRange>& unreliable) {
    m_lines = lines;
    m_unreliable = unreliable;
    m_gammaMinimum = gammaMinimum;
    m_gammaMaximum = gammaMaximum > gammaMinimum ? gammaMaximum : gammaMinimum + 1;
    rebuild();
}

void StateWeightsChartView::setUnreliableName(const QString& name) {
    m_unreliableName = name;
    rebuild();
}

void StateWeightsChartView::setFlagName(const QString& name) {
    m_flagName = name;
    rebuild();
}

void StateWeightsChartView::setAdmissibleBounds(const QString& name) {
    m_boundsName = name;
    rebuild();
}

int StateWeightsChartView::flaggedPointCount() const {
    int count = 0;
    for (const Line& line : m_lines) {
        for (int j = 0; j < line.points.size() && j < line.flagged.size(); ++j) {
            count += line.flagged[j] && std::isfinite(line.points[j].y()) ? 1 : 0;
        }
    }
    return count;
}

void StateWeightsChartView::setMarkers(const QList<double>& gammas, const QString& name) {
    m_markers = gammas;
    m_markerName = name;
    rebuild();
}

void StateWeightsChartView::setTexts(const QString& weightTitle, const QString& figureTitle) {
    m_weightTitle = weightTitle;
    m_figureTitle = figureTitle;
    rebuild();
}

void StateWeightsChartView::setWeightLimit(double limit) {
    m_weightLimit = limit > 0 ? limit : 1.0;
    rebuild();
}

std::pair<double, double> StateWeightsChartView::weightRange() const {
    return m_parts.y ? std::make_pair(m_parts.y->min(), m_parts.y->max())
                     : std::make_pair(0.0, 0.0);
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
        if (nearest && std::isfinite(nearest->y()) && std::abs(nearest->y()) <= m_weightLimit &&
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
    centreChartMessage(m_message, chart()->plotArea());
}

void StateWeightsChartView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && !m_lines.isEmpty() && m_parts.zero) {
        if (const auto value = plotValueAt(*this, event->position().toPoint(), m_parts.zero)) {
            emit gammaClicked(std::clamp(value->x(), m_gammaMinimum, m_gammaMaximum));
            event->accept();
            return;
        }
    }
    QChartView::mousePressEvent(event);
}

void StateWeightsChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    placeLegendList();
    updateMessage();
}

void StateWeightsChartView::paintFigure(QPainter& painter, const QRectF& target) const {
    paintChartFigure(
        painter, target,
        m_figureTitle.isEmpty() ? tr("State weights ω vs contrast γ") : m_figureTitle,
        [this](QChart* chart, double plotHeight) { build(chart, true, QSizeF(0, plotHeight)); });
}

ChartFigureLayout StateWeightsChartView::figureLayout(const QSizeF& size) const {
    return layOutChartFigure(
        size, m_figureTitle.isEmpty() ? tr("State weights ω vs contrast γ") : m_figureTitle,
        [this](QChart* chart, double plotHeight) { build(chart, true, QSizeF(0, plotHeight)); });
}

QString StateWeightsChartView::figureData() const {
    if (m_lines.isEmpty()) {
        return {};
    }
    QString out = QStringLiteral("line\tgamma\tweight\tlow\thigh\tflagged\n");
    for (const Line& line : m_lines) {
        const QString name = delimitedField(line.name, QLatin1Char('\t'));
        for (int i = 0; i < line.points.size(); ++i) {
            const bool band = i < line.lower.size() && i < line.upper.size();
            out += name + QLatin1Char('\t') + dataNumber(line.points[i].x()) + QLatin1Char('\t') +
                   dataNumber(line.points[i].y()) + QLatin1Char('\t') +
                   (band ? dataNumber(line.lower[i].y()) : QString()) + QLatin1Char('\t') +
                   (band ? dataNumber(line.upper[i].y()) : QString()) + QLatin1Char('\t') +
                   QLatin1Char(i < line.flagged.size() && line.flagged[i] ? '1' : '0') +
                   QLatin1Char('\n');
        }
    }
    return out;
}

QSizeF StateWeightsChartView::figureSize() const {
    return chartFigureSize(
        kDoubleColumnMm * kLogicalPerMm, 85 * kLogicalPerMm,
        [this](QChart* chart, double plotHeight) { build(chart, true, QSizeF(0, plotHeight)); });
}

QColor weightLineColour(const QColor& colour) {
    const double luminance =
        0.2126 * colour.redF() + 0.7152 * colour.greenF() + 0.0722 * colour.blueF();
    return luminance > 0.75 ? colour.darker(170) : colour;
}

QList<StateWeightsChartView::GammaRange> unreliableRanges(const QVector<double>& gammas,
                                                          const std::vector<double>& invalidMass) {
    QList<StateWeightsChartView::GammaRange> unreliable;
    const int n = gammas.size();
    for (int i = 0; i < n && static_cast<size_t>(i) < invalidMass.size(); ++i) {
        if (!(invalidMass[static_cast<size_t>(i)] > 0)) {
            continue;
        }
        const double from = i > 0 ? (gammas[i - 1] + gammas[i]) / 2 : gammas[i];
        const double to = i + 1 < n ? (gammas[i] + gammas[i + 1]) / 2 : gammas[i];
        if (!unreliable.isEmpty() && unreliable.back().second >= from) {
            unreliable.back().second = to;
        } else {
            unreliable.append({from, to});
        }
    }
    return unreliable;
}

} // namespace cx::ui
