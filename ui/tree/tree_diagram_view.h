#pragma once

#include "ui/tree/tree_presenter.h"

#include <QWidget>

namespace cx::ui {

/// The cell-type tree drawn with the root on top (layOutTree): one box per cell type joined to
/// its parent; clicking a box selects that cell (cellClicked), the selected one is highlighted.
/// An invalid tree shows its problem instead.
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
    void paintFigure(QPainter& painter, const QRectF& target) const;
    /// Print size of the figure (logical units, 1/96 in): a single column (wider when a level's
    /// boxes need it), about 14 mm per level of the tree.
    QSizeF figureSize() const;
    /// One line per cell type: name, parent (empty for the root) and depth.
    QString figureData() const;
    QSize sizeHint() const override { return {260, 150}; }
    QSize minimumSizeHint() const override { return {160, 90}; }

signals:
    void cellClicked(const QString& cell);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRectF nodeRect(int node, const QRectF& area) const;
    void paintInto(QPainter& painter, const QRectF& area) const;

    std::vector<TreeNodePlace> m_places;
    QString m_problem;
    QString m_selected;
};

} // namespace cx::ui
