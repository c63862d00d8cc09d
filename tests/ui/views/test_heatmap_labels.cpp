// A heatmap's column labels never overprint each other: when the cells get too narrow for
// labels at 50° to clear their neighbours (the Tree and Chromatin heatmaps at 1024×700), they
// rise steeper, and where even upright labels would touch they are set smaller.
#include "ui/views/heatmap_view.h"
#include "ui/widgets/state_matrix_model.h"

#include <gtest/gtest.h>

#include <QPainterPath>

namespace {

cx::ui::StateMatrixModel::Content marks(int states) {
    cx::ui::StateMatrixModel::Content c;
    c.columnLabels = {QStringLiteral("H3K4me3"),  QStringLiteral("H3K27me3"),
                      QStringLiteral("H3K36me3"), QStringLiteral("H3K4me1"),
                      QStringLiteral("H3K27ac"),  QStringLiteral("H4K20me1"),
                      QStringLiteral("H3K9ac"),   QStringLiteral("H3K4me2"),
                      QStringLiteral("CTCF"),     QStringLiteral("H2A.Z (gapped)")};
    c.values.resize(states, c.columnLabels.size());
    for (int r = 0; r < states; ++r) {
        c.rowLabels << QStringLiteral("State %1").arg(r + 1);
        c.rowColours << QColor(30 * r, 120, 200);
        for (int m = 0; m < c.columnLabels.size(); ++m) {
            c.values(r, m) = 0.1 * ((r + m) % 10);
        }
    }
    return c;
}

double overlapArea(const QPolygonF& a, const QPolygonF& b) {
    QPainterPath pa;
    pa.addPolygon(a);
    QPainterPath pb;
    pb.addPolygon(b);
    const QPolygonF common = pa.intersected(pb).toFillPolygon();
    double area = 0; // shoelace
    for (int i = 0; i + 1 < common.size(); ++i) {
        area += common[i].x() * common[i + 1].y() - common[i + 1].x() * common[i].y();
    }
    return std::abs(area) / 2;
}

/// Largest overlap (px²) of two neighbouring column labels at this size.
double worstNeighbourOverlap(cx::ui::HeatmapView& view, int width, int height) {
    view.resize(width, height);
    double worst = 0;
    const int columns = view.model()->columnCount();
    for (int c = 0; c + 1 < columns; ++c) {
        const QPolygonF left = view.columnLabelBox(c);
        const QPolygonF right = view.columnLabelBox(c + 1);
        EXPECT_FALSE(left.isEmpty());
        worst = std::max(worst, overlapArea(left, right));
    }
    return worst;
}

} // namespace

TEST(HeatmapLabels, NeighbouringColumnLabelsNeverOverlapAtAnyWidth) {
    cx::ui::StateMatrixModel model;
    model.setContent(marks(7));
    cx::ui::HeatmapView view;
    view.setModel(&model);
    view.setTitle(QStringLiteral("Emissions"));
    for (const int width : {900, 420, 300, 240, 200}) {
        EXPECT_LT(worstNeighbourOverlap(view, width, 420), 1.0) << "width " << width;
        // Every label stays inside the view (none pushed off its top).
        for (int c = 0; c < model.columnCount(); ++c) {
            EXPECT_GE(view.columnLabelBox(c).boundingRect().top(), -0.5)
                << "width " << width << ", column " << c;
        }
    }
    // Room enough: the labels keep the usual slant (the box's first edge rises at 50°).
    view.resize(900, 420);
    const QPolygonF box = view.columnLabelBox(0);
    const QPointF along = box[1] - box[0];
    EXPECT_NEAR(std::atan2(-along.y(), along.x()) * 180 / M_PI, 50.0, 0.5);
}
