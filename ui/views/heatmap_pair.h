#pragma once

// Two heatmaps drawn side by side as one figure (Chromatin's Export ▸ Emission Heatmaps: the
// γ = 0 panel beside the contrastive one): its print size and the values it plots.

#include <QRectF>
#include <QSizeF>
#include <QString>

class QPainter;

namespace cx::ui {

class HeatmapView;

/// Print layout of the pair: both figures' widths side by side, the taller height (each
/// panel is drawn into its half of the target).
QSizeF heatmapPairFigureSize(const HeatmapView& left, const HeatmapView& right);

/// Draws the pair into `target`, each panel in the share of the width its own print layout
/// asks for (as heatmapPairFigureSize adds them).
void paintHeatmapPair(const HeatmapView& left, const HeatmapView& right, QPainter& painter,
                      const QRectF& target);

/// The values both panels plot, one TSV: a first column `panel` (the view's title) before each
/// view's figureData() columns; one header line when both share their columns, else each
/// panel's rows follow its own header line. A panel with nothing plotted adds nothing; empty
/// when neither plots anything (then no data file is written).
QString heatmapPairFigureData(const HeatmapView& left, const HeatmapView& right);

} // namespace cx::ui
