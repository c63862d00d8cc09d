#include "ui/views/view_painting.h"

#include <QPainter>

namespace cx::ui {

QFont scaledFont(const QFont& base, double points, bool bold) {
    QFont font = base;
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

void paintFigureOnWhite(QPainter& painter, const QRectF& target,
                        const std::function<void(QPainter& painter, const QRectF& target)>& paint) {
    painter.save();
    painter.fillRect(target, Qt::white);
    paint(painter, target);
    painter.restore();
}

} // namespace cx::ui
