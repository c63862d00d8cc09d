#pragma once

#include "ui/tree/tree_presenter.h"

#include <QWidget>

namespace cx::ui {

/// The cell-type tree drawn with the root on top (layOutTree): one box per cell type joined to
/// its parent; clicking a box selects that cell (cellClicked), the selected one is highlighted.
/// When a level's boxes do not fit side by side (e.g. nine children in the data panel), the
/// tree is drawn as an indented outline instead, one cell type per row. An invalid tree shows
/// its problem instead.
class TreeDiagramView : public QWidget {
    Q_OBJECT
public:
    explicit TreeDiagramView(QWidget* parent = nullptr);

    void setTree(const cx::TreeSpec& tree);
    /// Shows `problem` (e.g. the parser's message) instead of a tree.
    void setProblem(const QString& problem);
    void setSelectedCell(const QString& cell);
    QString selectedCell() const { return m_selected; }
    /// Centre of `cell`'s box in widget coordinates (tests click it); null point if absent.
    QPointF nodeCentre(const QString& cell) const;
    /// The box of `cell` in widget coordinates (its name is drawn centred in it); null if absent.
    QRectF nodeBox(const QString& cell) const;
    /// Whether the tree is drawn as an indented outline (its levels do not fit side by side).
    bool isOutline() const { return outline(drawingArea()); }
    void paintFigure(QPainter& painter, const QRectF& target) const;
    /// Print size of the figure (logical units, 1/96 in): a single column (wider when a level's
    /// boxes need it), about 14 mm per level of the tree.
    QSizeF figureSize() const;
    /// One line per cell type: name, parent (empty for the root) and depth.
    QString figureData() const;
    QSize sizeHint() const override { return {260, 150}; }
    /// High enough for the outline when the tree has many cell types.
    QSize minimumSizeHint() const override;

signals:
    void cellClicked(const QString& cell);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRectF drawingArea() const;
    QRectF nodeRect(int node, const QRectF& area) const;
    /// The root-on-top layout's box of `node`.
    QRectF levelRect(int node, const QRectF& area) const;
    /// The outline's box of `node`: row m_outlineRows[node], indented by depth.
    QRectF outlineRect(int node, const QRectF& area) const;
    /// True when two boxes of the root-on-top layout overlap or one leaves `area`.
    bool outline(const QRectF& area) const;
    void paintInto(QPainter& painter, const QRectF& area) const;

    std::vector<TreeNodePlace> m_places;
    std::vector<int> m_outlineRows; ///< per node: its row in the outline (depth-first order)
    QString m_problem;
    QString m_selected;
};

} // namespace cx::ui
