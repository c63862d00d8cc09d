#include "ui/tree/tree_diagram_view.h"

#include "ui/widgets/export_helpers.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <functional>

namespace cx::ui {

TreeDiagramView::TreeDiagramView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("tree"));
    setMouseTracking(false);
    setToolTip(tr("The cell-type tree, root on top. Click a cell type to select it in the "
                  "heatmaps and tracks."));
}

namespace {

constexpr double kBoxPadding = 14; // box width beyond its name
constexpr double kBoxGap = 4;      // least room between two boxes
constexpr double kIndent = 16;     // per level, in the outline

/// Depth-first (preorder) row of every node, children in index order.
std::vector<int> outlineRows(const std::vector<TreeNodePlace>& places) {
    std::vector<int> rows(places.size(), 0);
    int next = 0;
    std::function<void(int)> visit = [&](int v) {
        rows[static_cast<size_t>(v)] = next++;
        for (size_t child = 0; child < places.size(); ++child) {
            if (places[child].parent == v) {
                visit(static_cast<int>(child));
            }
        }
    };
    for (size_t v = 0; v < places.size(); ++v) {
        if (places[v].parent < 0) {
            visit(static_cast<int>(v));
        }
    }
    return rows;
}

} // namespace

void TreeDiagramView::setTree(const cx::TreeSpec& tree) {
    m_places = layOutTree(tree);
    m_outlineRows = outlineRows(m_places);
    m_problem.clear();
    updateGeometry();
    update();
}

QSize TreeDiagramView::minimumSizeHint() const {
    const QFontMetricsF metrics(font());
    const auto rows = static_cast<double>(m_places.size());
    return {160, std::max(90, static_cast<int>(std::ceil(rows * (metrics.height() + 8) + 12)))};
}

QRectF TreeDiagramView::drawingArea() const {
    return QRectF(rect()).adjusted(6, 6, -6, -6);
}

void TreeDiagramView::setProblem(const QString& problem) {
    m_places.clear();
    m_problem = problem;
    update();
}

void TreeDiagramView::setSelectedCell(const QString& cell) {
    m_selected = cell;
    update();
}

QRectF TreeDiagramView::nodeRect(int node, const QRectF& area) const {
    return outline(area) ? outlineRect(node, area) : levelRect(node, area);
}

bool TreeDiagramView::outline(const QRectF& area) const {
    for (size_t v = 0; v < m_places.size(); ++v) {
        const QRectF box = levelRect(static_cast<int>(v), area);
        if (box.left() < area.left() - 0.5 || box.right() > area.right() + 0.5) {
            return true;
        }
        for (size_t w = v + 1; w < m_places.size(); ++w) {
            if (box.adjusted(-kBoxGap, 0, kBoxGap, 0)
                    .intersects(levelRect(static_cast<int>(w), area))) {
                return true;
            }
        }
    }
    return false;
}

QRectF TreeDiagramView::outlineRect(int node, const QRectF& area) const {
    const auto& place = m_places[static_cast<size_t>(node)];
    const QFontMetricsF metrics(font());
    const double rowStep = std::min(30.0, area.height() / std::max<size_t>(1, m_places.size()));
    const double boxHeight = std::min(24.0, rowStep - 4);
    const double width = metrics.horizontalAdvance(place.name) + kBoxPadding;
    const double y = area.top() + m_outlineRows[static_cast<size_t>(node)] * rowStep;
    return {area.left() + place.depth * kIndent, y + (rowStep - boxHeight) / 2, width, boxHeight};
}

QRectF TreeDiagramView::levelRect(int node, const QRectF& area) const {
    const auto& place = m_places[static_cast<size_t>(node)];
    const int depth = treeDepth(m_places);
    const double boxHeight = std::min(26.0, area.height() / (depth + 1) * 0.6);
    const double rowStep = depth == 0 ? 0 : (area.height() - boxHeight) / depth;
    const QFontMetricsF metrics(font());
    const double width = metrics.horizontalAdvance(place.name) + kBoxPadding;
    const double x = area.left() + place.x * area.width();
    const double y =
        area.top() + place.depth * rowStep + (depth == 0 ? (area.height() - boxHeight) / 2 : 0);
    return {x - width / 2, y, width, boxHeight};
}

QPointF TreeDiagramView::nodeCentre(const QString& cell) const {
    const QRectF box = nodeBox(cell);
    return box.isNull() ? QPointF() : box.center();
}

QRectF TreeDiagramView::nodeBox(const QString& cell) const {
    for (size_t v = 0; v < m_places.size(); ++v) {
        if (m_places[v].name == cell) {
            return nodeRect(static_cast<int>(v), drawingArea());
        }
    }
    return {};
}

void TreeDiagramView::paintInto(QPainter& painter, const QRectF& area) const {
    painter.setRenderHint(QPainter::Antialiasing);
    if (m_places.empty()) {
        painter.setPen(m_problem.isEmpty() ? palette().color(QPalette::PlaceholderText)
                                           : QColor(0xb0, 0x20, 0x20));
        painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
                         m_problem.isEmpty() ? tr("Open a folder of cell types") : m_problem);
        return;
    }
    painter.setPen(QPen(QColor(0x70, 0x78, 0x88), 1.5));
    const bool indented = outline(area);
    for (size_t v = 0; v < m_places.size(); ++v) {
        const int parent = m_places[v].parent;
        if (parent < 0) {
            continue;
        }
        const QRectF child = nodeRect(static_cast<int>(v), area);
        const QRectF up = nodeRect(parent, area);
        QPainterPath path;
        if (indented) { // down from the parent's left, then right into the child
            const double x = up.left() + kIndent / 2;
            path.moveTo(x, up.bottom());
            path.lineTo(x, child.center().y());
            path.lineTo(child.left(), child.center().y());
        } else {
            path.moveTo(up.center().x(), up.bottom());
            const double middle = (up.bottom() + child.top()) / 2;
            path.lineTo(up.center().x(), middle);
            path.lineTo(child.center().x(), middle);
            path.lineTo(child.center().x(), child.top());
        }
        painter.drawPath(path);
    }
    for (size_t v = 0; v < m_places.size(); ++v) {
        const QRectF box = nodeRect(static_cast<int>(v), area);
        const bool selected = m_places[v].name == m_selected;
        painter.setPen(QPen(selected ? QColor(0x1f, 0x5f, 0xbf) : QColor(0x70, 0x78, 0x88),
                            selected ? 2.0 : 1.0));
        painter.setBrush(selected ? QColor(0xdd, 0xe8, 0xfa) : QColor(0xf4, 0xf5, 0xf7));
        painter.drawRoundedRect(box, 4, 4);
        painter.setPen(QColor(0x20, 0x20, 0x20));
        painter.drawText(box, Qt::AlignCenter, m_places[v].name);
    }
}

void TreeDiagramView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintInto(painter, drawingArea());
}

void TreeDiagramView::paintFigure(QPainter& painter, const QRectF& target) const {
    painter.save();
    painter.fillRect(target, Qt::white);
    painter.setFont(font());
    paintInto(painter, target.adjusted(6, 6, -6, -6));
    painter.restore();
}

QString TreeDiagramView::figureData() const {
    if (m_places.empty()) {
        return {};
    }
    QString out = QStringLiteral("cell\tparent\tdepth\n");
    for (const TreeNodePlace& place : m_places) {
        out += delimitedField(place.name, QLatin1Char('\t')) + QLatin1Char('\t') +
               (place.parent >= 0 ? delimitedField(m_places[static_cast<size_t>(place.parent)].name,
                                                   QLatin1Char('\t'))
                                  : QString()) +
               QLatin1Char('\t') + QString::number(place.depth) + QLatin1Char('\n');
    }
    return out;
}

QSizeF TreeDiagramView::figureSize() const {
    // Leaves are spread evenly across the width: each needs room for the widest box.
    const QFontMetricsF metrics(font());
    const int depth = m_places.empty() ? 0 : treeDepth(m_places);
    double widestBox = 0;
    int leaves = 0;
    for (size_t v = 0; v < m_places.size(); ++v) {
        widestBox = std::max(widestBox, metrics.horizontalAdvance(m_places[v].name) + kBoxPadding);
        const bool parent = std::any_of(m_places.begin(), m_places.end(), [v](const auto& place) {
            return place.parent == static_cast<int>(v);
        });
        leaves += parent ? 0 : 1;
    }
    const double width = journalWidthFor(std::max(1, leaves) * (widestBox + 12) + 12);
    return QSizeF(width, std::max(12 + (depth + 1) * 14 * kLogicalPerMm, 30 * kLogicalPerMm));
}

void TreeDiagramView::mousePressEvent(QMouseEvent* event) {
    const QRectF area = drawingArea();
    for (size_t v = 0; v < m_places.size(); ++v) {
        if (nodeRect(static_cast<int>(v), area).contains(event->position())) {
            setSelectedCell(m_places[v].name);
            emit cellClicked(m_places[v].name);
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

} // namespace cx::ui
