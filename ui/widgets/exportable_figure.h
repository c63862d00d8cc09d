#pragma once

#include <QRectF>
#include <QSizeF>
#include <QString>

class QPainter;

namespace cx::ui {

/// A view that exports itself as a figure (File ▸ Export All Figures, `--export-figures`, the
/// image export dialog): charts and views implement it beside their QWidget base, so the
/// framework finds a workspace's figures among its children without knowing their types.
class ExportableFigure {
public:
    virtual ~ExportableFigure() = default;

    /// The kind of figure, also the fallback file name ("heatmap", "auc-chart", …).
    virtual QString figureKind() const = 0;
    /// Where the kind comes among a workspace's figures (lower first; figures of one kind keep
    /// their order in the widget tree).
    virtual int figureKindOrder() const = 0;
    /// What the figure shows, e.g. "Emission heatmap"; empty: the kind is used.
    virtual QString figureTitle() const { return {}; }
    /// Print size in logical units (1/96 in): chosen from the content, never from the size on
    /// screen.
    virtual QSizeF figureSize() const = 0;
    /// Draws the figure (title, axes, legend) into `target`, white background already painted.
    virtual void paintFigure(QPainter& painter, const QRectF& target) const = 0;
    /// The values the figure plots, as tab-separated text with a header line (heatmap cells,
    /// chart series points, segment intervals), full precision: Export All writes it beside
    /// the figure's images as NAME.tsv. Empty when the figure shows no data.
    virtual QString figureData() const = 0;

protected:
    ExportableFigure() = default;
    ExportableFigure(const ExportableFigure&) = default;
    ExportableFigure& operator=(const ExportableFigure&) = default;
};

} // namespace cx::ui
