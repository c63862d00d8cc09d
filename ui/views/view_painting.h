#pragma once

// Painting pieces shared by the custom views (HeatmapView, SegmentationTrackView).

#include <QFont>

#include <functional>

class QPainter;
class QRectF;

namespace cx::ui {

/// `base` at `points` pt, bold or not: the views' label, value and title fonts.
QFont scaledFont(const QFont& base, double points, bool bold = false);

/// What a view's paintFigure() does around its drawing: fills `target` white, lets `paint`
/// draw the figure into it, and leaves the painter's state as it was.
void paintFigureOnWhite(QPainter& painter, const QRectF& target,
                        const std::function<void(QPainter& painter, const QRectF& target)>& paint);

} // namespace cx::ui
