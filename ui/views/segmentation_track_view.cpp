#include "ui/views/segmentation_track_view.h"

#include "ui/views/view_painting.h"
#include "ui/widgets/export_helpers.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QSet>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace cx::ui {

namespace {

constexpr double kRulerHeight = 26;
constexpr double kRowHeight = 24;
constexpr double kRowGap = 5;
constexpr double kLaneHeight = 15;
constexpr double kLaneGap = 4;
constexpr double kTrackMargin = 8;
constexpr qint64 kMinimumBins = 20;
const QColor kTrackTextColour(0x22, 0x27, 0x2e);
const QColor kTrackMutedColour(0x6b, 0x74, 0x7d);
const QColor kGridColour(0xe6, 0xe9, 0xed);
const QColor kEmptyRowColour(0xf4, 0xf5, 0xf7);

/// A 1-2-5 step in bp so that labels are at least `minimumPixels` apart.
double niceStep(double bpPerPixel, double minimumPixels) {
    const double raw = bpPerPixel * minimumPixels;
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    for (double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (factor * magnitude >= raw) {
            return factor * magnitude;
        }
    }
    return 10 * magnitude;
}

QString positionLabel(double bp, double step) {
    if (step >= 100000) {
        const int decimals = step >= 1000000 ? 0 : 1;
        return QStringLiteral("%1 Mb").arg(QLocale().toString(bp / 1e6, 'f', decimals));
    }
    if (step >= 1000) {
        return QStringLiteral("%1 kb").arg(QLocale().toString(bp / 1e3, 'f', 0));
    }
    return QStringLiteral("%1 bp").arg(QLocale().toString(static_cast<qint64>(bp)));
}

} // namespace

SegmentationTrackView::SegmentationTrackView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setCursor(Qt::OpenHandCursor);
}

void SegmentationTrackView::setData(std::shared_ptr<const cx::ChromatinData> data) {
    m_data = std::move(data);
    m_segmentation.reset();
    const QStringList names = chromosomes();
    m_chrom.clear();
    setChromosome(names.value(0));
}

QStringList SegmentationTrackView::chromosomes() const {
    QStringList out;
    if (!m_data) {
        return out;
    }
    for (const auto& track : m_data->tracks) {
        const QString chrom = QString::fromStdString(track.chrom);
        if (!out.contains(chrom)) {
            out << chrom;
        }
    }
    return out;
}

void SegmentationTrackView::setChromosome(const QString& chrom) {
    m_chrom = chrom;
    updateRows();
    zoomToFit();
}

void SegmentationTrackView::updateRows() {
    m_rowTracks.clear();
    m_length = 0;
    if (m_data) {
        for (size_t t = 0; t < m_data->tracks.size(); ++t) {
            if (QString::fromStdString(m_data->tracks[t].chrom) == m_chrom) {
                m_rowTracks.push_back(static_cast<int>(t));
                m_length =
                    std::max<qint64>(m_length, m_data->tracks[t].numBins() * m_data->binSize);
            }
        }
    }
    updateGeometry();
}

void SegmentationTrackView::setSegmentation(SegmentationHandle segmentation,
                                            const QVector<QColor>& colours,
                                            const QStringList& names) {
    m_segmentation = std::move(segmentation);
    m_colours = colours;
    m_names = names;
    update();
}

void SegmentationTrackView::setStateAppearance(const QVector<QColor>& colours,
                                               const QStringList& names) {
    m_colours = colours;
    m_names = names;
    update();
}

void SegmentationTrackView::setLanes(const QVector<TrackLane>& lanes) {
    m_lanes = lanes;
    updateGeometry();
    update();
}

void SegmentationTrackView::setStatusNote(const QString& note) {
    if (note != m_statusNote) {
        m_statusNote = note;
        update();
    }
}

void SegmentationTrackView::setPlaceholder(const QString& text) {
    m_placeholder = text;
    update();
}

void SegmentationTrackView::setRange(qint64 start, qint64 end) {
    if (m_length <= 0) {
        m_start = m_end = 0;
        update();
        return;
    }
    const qint64 minimum =
        std::min<qint64>(m_length, kMinimumBins * (m_data ? m_data->binSize : 200));
    qint64 width = std::clamp<qint64>(end - start, minimum, m_length);
    start = std::clamp<qint64>(start, 0, m_length - width);
    if (start == m_start && start + width == m_end) {
        return;
    }
    m_start = start;
    m_end = start + width;
    update();
    emit rangeChanged(m_start, m_end);
}

void SegmentationTrackView::zoomBy(double factor, double anchorFraction) {
    const double width = static_cast<double>(m_end - m_start);
    const double anchor = m_start + anchorFraction * width;
    const double newWidth = width * factor;
    const auto start = static_cast<qint64>(std::llround(anchor - anchorFraction * newWidth));
    setRange(start, start + static_cast<qint64>(std::llround(newWidth)));
}

void SegmentationTrackView::zoomToFit() {
    m_start = -1; // force rangeChanged
    setRange(0, m_length);
}

void SegmentationTrackView::scrollByFraction(double fraction) {
    const auto shift = static_cast<qint64>(std::llround(fraction * (m_end - m_start)));
    setRange(m_start + shift, m_end + shift);
}

SegmentationTrackView::Geometry SegmentationTrackView::geometry(const QRectF& area) const {
    Geometry g;
    const QFontMetricsF metrics(scaledFont(font(), 8.5));
    double labelWidth = 60;
    if (m_data) {
        for (int t : m_rowTracks) {
            labelWidth = std::max(labelWidth, metrics.horizontalAdvance(QString::fromStdString(
                                                  m_data->tracks[static_cast<size_t>(t)].cell)));
        }
    }
    for (const TrackLane& lane : m_lanes) {
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(lane.name));
    }
    g.labelWidth = std::min(labelWidth + 14, area.width() * 0.3);
    const double left = area.left() + kTrackMargin + g.labelWidth;
    const double right = area.right() - kTrackMargin;
    g.ruler = QRectF(left, area.top() + 4, right - left, kRulerHeight);
    // Rows and lanes shrink together when the view is shorter than they need (every lane stays
    // visible), down to a legible minimum.
    const double rows = static_cast<double>(m_rowTracks.size());
    const double lanes = static_cast<double>(m_lanes.size());
    const double needed =
        rows * (kRowHeight + kRowGap) + lanes * (kLaneHeight + kLaneGap) + (lanes > 0 ? 4 : 0);
    const double available = area.bottom() - (g.ruler.bottom() + 6) - 2;
    const double scale = needed > 0 ? std::clamp(available / needed, 0.5, 1.0) : 1.0;
    double y = g.ruler.bottom() + 6;
    for (size_t i = 0; i < m_rowTracks.size(); ++i) {
        g.rows.emplace_back(left, y, right - left, kRowHeight * scale);
        y += (kRowHeight + kRowGap) * scale;
    }
    y += m_lanes.isEmpty() ? 0 : 4 * scale;
    for (int i = 0; i < m_lanes.size(); ++i) {
        g.lanes.emplace_back(left, y, right - left, kLaneHeight * scale);
        y += (kLaneHeight + kLaneGap) * scale;
    }
    g.plot = QRectF(left, g.ruler.top(), right - left, y - g.ruler.top());
    return g;
}

QSize SegmentationTrackView::sizeHint() const {
    const auto rows = static_cast<double>(std::max<size_t>(2, m_rowTracks.size()));
    return QSize(900, static_cast<int>(kRulerHeight + 16 + rows * (kRowHeight + kRowGap) +
                                       m_lanes.size() * (kLaneHeight + kLaneGap) + 12));
}

QSizeF SegmentationTrackView::figureSize() const {
    const size_t rows = m_rowTracks.size() + static_cast<size_t>(m_lanes.size());
    const double width = (rows >= 4 ? kDoubleColumnMm : kMidColumnMm) * kLogicalPerMm;
    const double legend = paintLegend(nullptr, QRectF(0, 0, width, 0));
    return QSizeF(width, std::max<double>(sizeHint().height(), 30 * kLogicalPerMm) + legend);
}

std::pair<const StateRun*, const StateRun*> SegmentationTrackView::runsInRange(int track) const {
    if (!m_segmentation || !m_data || m_segmentation->data != m_data || track < 0 ||
        track >= static_cast<int>(m_segmentation->runs.size())) {
        return {nullptr, nullptr};
    }
    const auto& runs = m_segmentation->runs[static_cast<size_t>(track)];
    const double binSize = m_data->binSize;
    const auto first = std::upper_bound(
        runs.begin(), runs.end(), static_cast<std::int64_t>(static_cast<double>(m_start) / binSize),
        [](std::int64_t bin, const StateRun& run) { return bin < run.end; });
    auto last = first;
    while (last != runs.end() && static_cast<double>(last->begin) * binSize < m_end) {
        ++last;
    }
    return {runs.data() + (first - runs.begin()), runs.data() + (last - runs.begin())};
}

QList<int> SegmentationTrackView::shownStates() const {
    QSet<int> states;
    for (int track : m_rowTracks) {
        const auto [first, last] = runsInRange(track);
        for (const StateRun* run = first; run != last; ++run) {
            states.insert(run->state);
        }
    }
    QList<int> out(states.begin(), states.end());
    std::sort(out.begin(), out.end());
    return out;
}

QString SegmentationTrackView::figureData() const {
    if (!m_data || m_rowTracks.empty()) {
        return {};
    }
    QString out = QStringLiteral("lane\tchrom\tstart\tend\tstate\n");
    const qint64 binSize = m_data->binSize;
    for (int track : m_rowTracks) {
        const auto& info = m_data->tracks[static_cast<size_t>(track)];
        const QString prefix =
            delimitedField(QString::fromStdString(info.cell), QLatin1Char('\t')) +
            QLatin1Char('\t') + QString::fromStdString(info.chrom) + QLatin1Char('\t');
        const auto [first, last] = runsInRange(track);
        for (const StateRun* run = first; run != last; ++run) {
            const qint64 start = std::max<qint64>(m_start, run->begin * binSize);
            const qint64 end = std::min<qint64>(m_end, run->end * binSize);
            const QString name =
                run->state < m_names.size() ? m_names[run->state] : QString::number(run->state + 1);
            out += prefix + QString::number(start) + QLatin1Char('\t') + QString::number(end) +
                   QLatin1Char('\t') + delimitedField(name, QLatin1Char('\t')) + QLatin1Char('\n');
        }
    }
    for (const TrackLane& lane : m_lanes) {
        if (!lane.intervals) {
            continue;
        }
        const auto found = lane.intervals->byChrom.find(m_chrom.toStdString());
        if (found == lane.intervals->byChrom.end()) {
            continue;
        }
        for (const cx::BedInterval& interval : found->second) {
            if (interval.end <= m_start || interval.start >= m_end) {
                continue;
            }
            out += delimitedField(lane.name, QLatin1Char('\t')) + QLatin1Char('\t') + m_chrom +
                   QLatin1Char('\t') + QString::number(std::max<qint64>(m_start, interval.start)) +
                   QLatin1Char('\t') + QString::number(std::min<qint64>(m_end, interval.end)) +
                   QStringLiteral("\t\n");
        }
    }
    return out;
}

double SegmentationTrackView::paintLegend(QPainter* painter, const QRectF& area) const {
    const QList<int> states = shownStates();
    if (states.isEmpty()) {
        return 0;
    }
    const QFont font = scaledFont(this->font(), 8.5);
    const QFontMetricsF metrics(font);
    const double swatch = 10;
    const double lineHeight = std::max(swatch, metrics.height()) + 4;
    const double left = area.left() + kTrackMargin;
    const double right = area.right() - kTrackMargin;
    double x = left;
    double y = area.top() + 6;
    if (painter) {
        painter->setFont(font);
    }
    for (int state : states) {
        const QString name = state < m_names.size() ? m_names[state] : QString::number(state + 1);
        const double width = swatch + 4 + metrics.horizontalAdvance(name) + 14;
        if (x > left && x + width > right) {
            x = left;
            y += lineHeight;
        }
        if (painter) {
            const QColor colour =
                state < m_colours.size() ? m_colours[state] : QColor(127, 127, 127);
            painter->fillRect(QRectF(x, y + (lineHeight - swatch) / 2, swatch, swatch), colour);
            painter->setPen(kTrackTextColour);
            painter->drawText(QRectF(x + swatch + 4, y, width - swatch - 4, lineHeight),
                              Qt::AlignLeft | Qt::AlignVCenter, name);
        }
        x += width;
    }
    return y + lineHeight - area.top() + 4;
}

QSize SegmentationTrackView::minimumSizeHint() const {
    return QSize(300, 110);
}

double SegmentationTrackView::xOf(const QRectF& plot, double bp) const {
    const double width = std::max<double>(1, static_cast<double>(m_end - m_start));
    return plot.left() + (bp - static_cast<double>(m_start)) / width * plot.width();
}

double SegmentationTrackView::bpAt(const QRectF& plot, double x) const {
    return static_cast<double>(m_start) +
           (x - plot.left()) / std::max(1.0, plot.width()) * static_cast<double>(m_end - m_start);
}

void SegmentationTrackView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    paintInto(painter, rect(), false);
}

void SegmentationTrackView::paintFigure(QPainter& painter, const QRectF& target) const {
    paintFigureOnWhite(painter, target, [this](QPainter& figurePainter, const QRectF& area) {
        // The state legend under the tracks: its height is taken from the bottom.
        const double legend = paintLegend(nullptr, area);
        const QRectF tracks = area.adjusted(0, 0, 0, -legend);
        paintInto(figurePainter, tracks, true);
        if (legend > 0 && m_data && !m_rowTracks.empty()) {
            const double top = geometry(tracks).plot.bottom();
            paintLegend(&figurePainter, QRectF(area.left(), top, area.width(), legend));
        }
    });
}

void SegmentationTrackView::paintInto(QPainter& painter, const QRectF& area, bool figure) const {
    const QFont labelFont = scaledFont(font(), 8.5);
    if (!m_data || m_rowTracks.empty() || m_length <= 0) {
        painter.setFont(scaledFont(font(), 9.5));
        painter.setPen(kTrackMutedColour);
        painter.drawText(area.adjusted(16, 8, -16, -8), Qt::AlignCenter | Qt::TextWordWrap,
                         m_placeholder);
        return;
    }
    const Geometry g = geometry(area);
    paintRuler(painter, g);
    painter.setFont(labelFont);
    for (size_t i = 0; i < g.rows.size(); ++i) {
        const int track = m_rowTracks[i];
        const QRectF& row = g.rows[i];
        painter.setPen(kTrackTextColour);
        painter.drawText(
            QRectF(area.left() + kTrackMargin, row.top(), g.labelWidth - 8, row.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            QString::fromStdString(m_data->tracks[static_cast<size_t>(track)].cell));
        painter.fillRect(row, kEmptyRowColour);
        paintTrack(painter, row, track);
    }
    for (int i = 0; i < m_lanes.size(); ++i) {
        const QRectF& lane = g.lanes[static_cast<size_t>(i)];
        painter.setPen(kTrackMutedColour);
        painter.setFont(labelFont);
        painter.drawText(
            QRectF(area.left() + kTrackMargin, lane.top() - 2, g.labelWidth - 8, lane.height() + 4),
            Qt::AlignLeft | Qt::AlignVCenter, m_lanes[i].name);
        paintLane(painter, lane, m_lanes[i]);
    }
    if (!m_segmentation && !m_placeholder.isEmpty() && !g.rows.empty()) {
        painter.setPen(kTrackMutedColour);
        painter.setFont(labelFont);
        painter.drawText(QRectF(g.rows.front().topLeft(), g.rows.back().bottomRight()),
                         Qt::AlignCenter, m_placeholder);
    }
    if (!figure && !m_statusNote.isEmpty()) {
        painter.setFont(labelFont);
        const QFontMetricsF metrics(labelFont);
        const double w = metrics.horizontalAdvance(m_statusNote) + 12;
        const QRectF note(g.ruler.right() - w, g.ruler.top(), w, metrics.height() + 4);
        painter.fillRect(note, QColor(255, 255, 255, 230));
        painter.setPen(QColor(0x1f, 0x5f, 0xa8));
        painter.drawText(note, Qt::AlignCenter, m_statusNote);
    }
}

void SegmentationTrackView::paintRuler(QPainter& painter, const Geometry& g) const {
    const QFont font = scaledFont(this->font(), 8);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    const double bpPerPixel = static_cast<double>(m_end - m_start) / std::max(1.0, g.ruler.width());
    const double step =
        niceStep(bpPerPixel, metrics.horizontalAdvance(QStringLiteral("000.0 Mb")) + 24);
    const double baseline = g.ruler.bottom() - 2;
    painter.setPen(QPen(QColor(0x9a, 0xa1, 0xa8), 1));
    painter.drawLine(QPointF(g.ruler.left(), baseline), QPointF(g.ruler.right(), baseline));
    const double first = std::ceil(static_cast<double>(m_start) / step) * step;
    for (double bp = first; bp <= static_cast<double>(m_end); bp += step) {
        const double x = xOf(g.plot, bp);
        painter.setPen(kGridColour);
        painter.drawLine(QPointF(x, baseline + 1), QPointF(x, g.plot.bottom()));
        painter.setPen(QPen(QColor(0x9a, 0xa1, 0xa8), 1));
        painter.drawLine(QPointF(x, baseline - 5), QPointF(x, baseline));
        const QString label = positionLabel(bp, step);
        const double w = metrics.horizontalAdvance(label);
        if (x - w / 2 >= g.ruler.left() - 2 && x + w / 2 <= g.ruler.right() + 2) {
            painter.setPen(kTrackMutedColour);
            painter.drawText(
                QRectF(x - w / 2 - 2, g.ruler.top(), w + 4, baseline - 6 - g.ruler.top()),
                Qt::AlignCenter, label);
        }
    }
    // Minor ticks.
    painter.setPen(QPen(QColor(0xc4, 0xc9, 0xcf), 1));
    for (double bp = std::ceil(static_cast<double>(m_start) / (step / 5)) * (step / 5);
         bp <= static_cast<double>(m_end); bp += step / 5) {
        const double x = xOf(g.plot, bp);
        painter.drawLine(QPointF(x, baseline - 2), QPointF(x, baseline));
    }
}

void SegmentationTrackView::paintTrack(QPainter& painter, const QRectF& row, int track) const {
    if (!m_segmentation || track >= static_cast<int>(m_segmentation->runs.size()) ||
        m_segmentation->data != m_data) {
        return;
    }
    const auto& runs = m_segmentation->runs[static_cast<size_t>(track)];
    if (runs.empty()) {
        return;
    }
    const double binSize = m_data->binSize;
    const double firstBin = static_cast<double>(m_start) / binSize;
    const double lastBin = static_cast<double>(m_end) / binSize;
    const auto width = static_cast<int>(std::ceil(row.width()));
    const double binsPerPixel = (lastBin - firstBin) / std::max(1, width);
    auto it = std::upper_bound(runs.begin(), runs.end(), static_cast<std::int64_t>(firstBin),
                               [](std::int64_t bin, const StateRun& run) { return bin < run.end; });
    const auto colourOf = [&](int state) {
        return state < m_colours.size() ? m_colours[state] : QColor(127, 127, 127);
    };
    if (binsPerPixel <= 2.0) {
        // Zoomed in: every run is at least one pixel.
        for (; it != runs.end() && static_cast<double>(it->begin) < lastBin; ++it) {
            const double x0 = std::max(row.left(), xOf(row, it->begin * binSize));
            const double x1 = std::min(row.right(), xOf(row, it->end * binSize));
            painter.fillRect(QRectF(x0, row.top(), std::max(1.0, x1 - x0), row.height()),
                             colourOf(it->state));
        }
        return;
    }
    // Zoomed out: per pixel, the share of each state among the pixel's bins, stacked.
    const int states = std::max(1, m_segmentation->numStates);
    std::vector<double> shares(static_cast<size_t>(width) * static_cast<size_t>(states), 0.0);
    for (; it != runs.end() && static_cast<double>(it->begin) < lastBin; ++it) {
        const double b0 = std::max(static_cast<double>(it->begin), firstBin);
        const double b1 = std::min(static_cast<double>(it->end), lastBin);
        double p0 = (b0 - firstBin) / binsPerPixel;
        const double p1 = (b1 - firstBin) / binsPerPixel;
        while (p0 < p1) {
            const auto pixel = static_cast<int>(std::floor(p0));
            if (pixel >= width) {
                break;
            }
            const double next = std::min(p1, static_cast<double>(pixel + 1));
            shares[static_cast<size_t>(pixel) * static_cast<size_t>(states) +
                   static_cast<size_t>(it->state)] += next - p0;
            p0 = next;
        }
    }
    for (int px = 0; px < width; ++px) {
        const double* share = &shares[static_cast<size_t>(px) * static_cast<size_t>(states)];
        double total = 0;
        for (int s = 0; s < states; ++s) {
            total += share[s];
        }
        if (total <= 0) {
            continue;
        }
        double y = row.top();
        for (int s = 0; s < states; ++s) {
            if (share[s] <= 0) {
                continue;
            }
            const double h = row.height() * share[s] / total;
            painter.fillRect(QRectF(row.left() + px, y, 1.0, h), colourOf(s));
            y += h;
        }
    }
}

void SegmentationTrackView::paintLane(QPainter& painter, const QRectF& row,
                                      const TrackLane& lane) const {
    painter.fillRect(QRectF(row.left(), row.center().y() - 0.5, row.width(), 1),
                     QColor(0xd5, 0xda, 0xe0));
    if (!lane.intervals) {
        return;
    }
    const auto found = lane.intervals->byChrom.find(m_chrom.toStdString());
    if (found == lane.intervals->byChrom.end()) {
        return;
    }
    const auto& intervals = found->second;
    auto it = std::upper_bound(
        intervals.begin(), intervals.end(), m_start,
        [](qint64 position, const cx::BedInterval& interval) { return position < interval.end; });
    double lastPixel = -1;
    const QRectF box(row.left(), row.top() + 2, row.width(), row.height() - 4);
    for (; it != intervals.end() && it->start < m_end; ++it) {
        const double x0 = std::max(row.left(), xOf(row, static_cast<double>(it->start)));
        const double x1 = std::min(row.right(), xOf(row, static_cast<double>(it->end)));
        if (x1 < lastPixel + 0.5 && x1 - x0 < 1) {
            continue; // same pixel as the previous one
        }
        lastPixel = x1;
        painter.fillRect(QRectF(x0, box.top(), std::max(1.2, x1 - x0), box.height()), lane.colour);
    }
}

int SegmentationTrackView::stateAt(int row, qint64 position) const {
    if (!m_segmentation || row < 0 || row >= static_cast<int>(m_rowTracks.size()) || !m_data) {
        return -1;
    }
    const int track = m_rowTracks[static_cast<size_t>(row)];
    if (track >= static_cast<int>(m_segmentation->runs.size())) {
        return -1;
    }
    const auto& runs = m_segmentation->runs[static_cast<size_t>(track)];
    const std::int64_t bin = position / m_data->binSize;
    const auto it =
        std::upper_bound(runs.begin(), runs.end(), bin,
                         [](std::int64_t b, const StateRun& run) { return b < run.end; });
    return it != runs.end() && it->begin <= bin ? it->state : -1;
}

QString SegmentationTrackView::toolTipAt(const QPointF& position) const {
    if (!m_data || m_rowTracks.empty()) {
        return {};
    }
    const Geometry g = geometry(rect());
    if (position.x() < g.plot.left() || position.x() > g.plot.right()) {
        return {};
    }
    const auto bp = static_cast<qint64>(bpAt(g.plot, position.x()));
    QString text = QStringLiteral("<b>%1:%2</b>").arg(m_chrom, QLocale().toString(bp));
    for (size_t i = 0; i < m_rowTracks.size(); ++i) {
        const int state = stateAt(static_cast<int>(i), bp);
        const QString cell =
            QString::fromStdString(m_data->tracks[static_cast<size_t>(m_rowTracks[i])].cell);
        const QColor colour = state >= 0 && state < m_colours.size() ? m_colours[state] : QColor();
        text += QStringLiteral("<br><span style='color:%1'>■</span> %2: %3")
                    .arg(colour.isValid() ? colour.name() : QStringLiteral("#ffffff"),
                         cell.toHtmlEscaped(),
                         state >= 0 ? m_names.value(state).toHtmlEscaped() : QStringLiteral("—"));
    }
    const double bpPerPixel = static_cast<double>(m_end - m_start) / std::max(1.0, g.plot.width());
    if (bpPerPixel > 2.0 * m_data->binSize) {
        text += tr("<br><span style='color:#6b747d'>%1 kb per pixel: rows show the share of "
                   "each state</span>")
                    .arg(bpPerPixel / 1000.0, 0, 'f', 1);
    }
    return text;
}

void SegmentationTrackView::wheelEvent(QWheelEvent* event) {
    const Geometry g = geometry(rect());
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier || std::abs(delta.x()) > std::abs(delta.y())) {
        const int d = std::abs(delta.x()) > std::abs(delta.y()) ? delta.x() : delta.y();
        scrollByFraction(-d / 120.0 * 0.15);
    } else if (delta.y() != 0) {
        const double anchor = std::clamp(
            (event->position().x() - g.plot.left()) / std::max(1.0, g.plot.width()), 0.0, 1.0);
        zoomBy(std::pow(0.8, delta.y() / 120.0), anchor);
    }
    event->accept();
}

void SegmentationTrackView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        m_dragging = true;
        m_dragX = event->position().x();
        m_dragStart = m_start;
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

void SegmentationTrackView::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragging) {
        const Geometry g = geometry(rect());
        const double bpPerPixel =
            static_cast<double>(m_end - m_start) / std::max(1.0, g.plot.width());
        const auto shift =
            static_cast<qint64>(std::llround((m_dragX - event->position().x()) * bpPerPixel));
        const qint64 width = m_end - m_start;
        setRange(m_dragStart + shift, m_dragStart + shift + width);
    }
    QWidget::mouseMoveEvent(event);
}

void SegmentationTrackView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && m_dragging) {
        m_dragging = false;
        setCursor(Qt::OpenHandCursor);
    }
    QWidget::mouseReleaseEvent(event);
}

void SegmentationTrackView::mouseDoubleClickEvent(QMouseEvent* event) {
    const Geometry g = geometry(rect());
    const double anchor = std::clamp(
        (event->position().x() - g.plot.left()) / std::max(1.0, g.plot.width()), 0.0, 1.0);
    zoomBy(event->modifiers() & Qt::ShiftModifier ? 2.0 : 0.5, anchor);
    event->accept();
}

void SegmentationTrackView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_Left:
        scrollByFraction(-0.2);
        break;
    case Qt::Key_Right:
        scrollByFraction(0.2);
        break;
    case Qt::Key_Home:
        zoomToFit();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool SegmentationTrackView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

QString SegmentationTrackView::regionText() const {
    if (chromosome().isEmpty() || rangeEnd() <= rangeStart()) {
        return {};
    }
    return QStringLiteral("%1:%2-%3").arg(chromosome()).arg(rangeStart()).arg(rangeEnd());
}

} // namespace cx::ui
