#include "ui/views/heatmap_pair.h"

#include "ui/views/heatmap_view.h"

#include <QStringList>

#include <algorithm>

namespace cx::ui {

QSizeF heatmapPairFigureSize(const HeatmapView& left, const HeatmapView& right) {
    const QSizeF a = left.figureSize();
    const QSizeF b = right.figureSize();
    return {a.width() + b.width(), std::max(a.height(), b.height())};
}

void paintHeatmapPair(const HeatmapView& left, const HeatmapView& right, QPainter& painter,
                      const QRectF& target) {
    const double a = left.figureSize().width();
    const double b = right.figureSize().width();
    const double split = a + b > 0 ? target.width() * a / (a + b) : target.width() / 2;
    left.paintFigure(painter, QRectF(target.left(), target.top(), split, target.height()));
    right.paintFigure(painter, QRectF(target.left() + split, target.top(), target.width() - split,
                                      target.height()));
}

QString heatmapPairFigureData(const HeatmapView& left, const HeatmapView& right) {
    QString out;
    QString lastHeader;
    for (const HeatmapView* view : {&left, &right}) {
        const QStringList lines = view->figureData().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (lines.size() < 2) {
            continue; // nothing plotted
        }
        const QString panel = view->title().isEmpty() ? QStringLiteral("panel") : view->title();
        if (lines.front() != lastHeader) {
            out += QStringLiteral("panel\t") + lines.front() + QLatin1Char('\n');
            lastHeader = lines.front();
        }
        for (qsizetype i = 1; i < lines.size(); ++i) {
            out += QString(panel).replace(QLatin1Char('\t'), QLatin1Char(' ')) + QLatin1Char('\t') +
                   lines[i] + QLatin1Char('\n');
        }
    }
    return out;
}

} // namespace cx::ui
