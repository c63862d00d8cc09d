#include "ui/views/heatmap_view.h"

#include "ui/views/view_painting.h"
#include "ui/widgets/export_helpers.h"
#include "ui/widgets/state_matrix_model.h"

#include <QLineEdit>
#include <QPainter>
#include <QPainterPath>
#include <QTransform>

#include <algorithm>
#include <cmath>

namespace cx::ui {

namespace {

constexpr double kMargin = 8;
constexpr double kLabelAngle = 50;   // degrees: column labels rise to the right
constexpr double kSmallestCell = 10; // narrowest cell: the colour still reads
const QColor kTextColour(0x22, 0x27, 0x2e);
const QColor kMutedColour(0x7a, 0x83, 0x8c);
const QColor kPositiveColour(0x1f, 0x5f, 0xa8);
const QColor kNegativeColour(0xd9, 0x6a, 0x1c);
const QColor kFlaggedColour(0xb3, 0x26, 0x1e);

QColor faded(const QColor& colour, double keep) {
    return QColor::fromRgbF(static_cast<float>(1 - keep + keep * colour.redF()),
                            static_cast<float>(1 - keep + keep * colour.greenF()),
                            static_cast<float>(1 - keep + keep * colour.blueF()));
}

/// The widest row and column header of a model, in the labels' font: the row labels' column
/// and the height of the slanted column labels follow from them (layout and figure size).
struct HeaderExtents {
    double rowLabelWidth = 0;
    double columnLabelWidth = 0;
};
HeaderExtents headerExtents(const QAbstractItemModel& model, const QFont& labelFont) {
    const QFontMetricsF labels(labelFont);
    QFont italic = labelFont; // dimmed rows' names are drawn in italics (paintInto)
    italic.setItalic(true);
    const QFontMetricsF dimmed(italic);
    HeaderExtents out;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString name = model.headerData(r, Qt::Vertical).toString();
        const bool isDimmed =
            model.headerData(r, Qt::Vertical, StateMatrixModel::DimmedRole).toBool();
        out.rowLabelWidth =
            std::max(out.rowLabelWidth, (isDimmed ? dimmed : labels).horizontalAdvance(name) + 1);
    }
    for (int c = 0; c < model.columnCount(); ++c) {
        out.columnLabelWidth =
            std::max(out.columnLabelWidth,
                     labels.horizontalAdvance(model.headerData(c, Qt::Horizontal).toString()));
    }
    return out;
}

/// Width of the row labels' column (swatch and name; `wanted` shows every name whole) in a
/// view `viewWidth` wide with `available` for labels and cells: names whole unless that
/// squeezes the cells below their smallest width (kSmallestCell), or below the width that shows a
/// value when the cells would show values with the labels at 34 % of the view; at least 34 %
/// of the view (and 90 px) when the names need it.
double rowLabelColumnWidth(double wanted, double viewWidth, double available, int columns) {
    constexpr double kValueCell = 32;
    const double cap = std::max(90.0, viewWidth * 0.34);
    if (wanted <= cap) {
        return wanted;
    }
    const bool valuesFitAtCap = (available - cap) / columns >= kValueCell;
    const double room = available - columns * (valuesFitAtCap ? kValueCell : kSmallestCell);
    return std::clamp(room, cap, wanted);
}

} // namespace

QString HeatmapView::weightText(double weight) {
    if (!std::isfinite(weight)) {
        return QString();
    }
    QString text = std::abs(weight) >= 0.095   ? QString::number(weight, 'f', 2)
                   : std::abs(weight) >= 0.001 ? QString::number(weight, 'f', 3)
                                               : QString::number(weight, 'g', 1);
    text.replace(QLatin1Char('-'), QChar(0x2212));
    return text;
}

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    m_scale = ColourScale::probability(tr("probability"));
}

void HeatmapView::setModel(StateMatrixModel* model) {
    if (m_model) {
        disconnect(m_model, nullptr, this, nullptr);
    }
    m_model = model;
    if (m_model) {
        connect(m_model, &QAbstractItemModel::modelReset, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::dataChanged, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::headerDataChanged, this,
                &HeatmapView::onModelChanged);
    }
    onModelChanged();
}

void HeatmapView::onModelChanged() {
    if (m_editor && m_model && m_editingRow >= m_model->rowCount()) {
        m_editor->hide();
        m_editingRow = -1;
    }
    m_hover = {-1, -1};
    updateGeometry();
    update();
}

void HeatmapView::setScale(const ColourScale& scale) {
    m_scale = scale;
    update();
}

void HeatmapView::setTitle(const QString& title, const QString& subtitle) {
    m_title = title;
    m_subtitle = subtitle;
    update();
}

void HeatmapView::setPlaceholder(const QString& text) {
    m_placeholder = text;
    update();
}

void HeatmapView::setShowValues(bool show) {
    m_showValues = show;
    update();
}

void HeatmapView::setMaximumCellSize(const QSizeF& size) {
    m_maxCell = size;
    updateGeometry();
    update();
}

HeatmapView::Layout HeatmapView::computeLayout(const QRectF& area, bool figure) const {
    Layout layout;
    const int rows = m_model ? m_model->rowCount() : 0;
    const int columns = m_model ? m_model->columnCount() : 0;
    const QFont labelFont = scaledFont(font(), 8.5);
    const QFont titleFont = scaledFont(font(), 9.5, true);
    const QFontMetricsF labels(labelFont);
    const QFontMetricsF titles(titleFont);
    double top = area.top() + (figure ? kMargin : 4);
    if (!m_title.isEmpty()) {
        layout.title =
            QRectF(area.left() + kMargin, top, area.width() - 2 * kMargin, titles.height() + 2);
        top += titles.height() + 6;
    }
    if (rows == 0 || columns == 0) {
        return layout;
    }
    const HeaderExtents header = headerExtents(*m_model, labelFont);
    const bool weights = m_model->hasWeights();
    const double weightWidth = weights ? 92 : 0;
    const double legendHeight = labels.height() * 2 + 16;
    double labelWidth = 0;
    double columnLabelHeight = 0;
    // Cells and label room for column labels at `degrees` and `points`.
    const auto place = [&](double degrees, double points) {
        const double scale = points / 8.5;
        const double columnLabelWidth = header.columnLabelWidth * scale;
        const double angle = qDegreesToRadians(degrees);
        columnLabelHeight =
            columnLabelWidth * std::sin(angle) + labels.height() * scale * std::cos(angle) + 6;
        // The last column label leans right, past the matrix: keep room for it.
        const double overhang =
            std::max(0.0, columnLabelWidth * std::cos(angle) - weightWidth - 6) + kMargin;
        labelWidth = rowLabelColumnWidth(header.rowLabelWidth + kSwatch + 12, area.width(),
                                         area.width() - kMargin - weightWidth - overhang, columns);
        const double availableWidth = area.width() - kMargin - labelWidth - weightWidth - overhang;
        const double availableHeight = area.bottom() - top - columnLabelHeight - legendHeight - 6;
        layout.cellWidth = std::clamp(availableWidth / columns, kSmallestCell, m_maxCell.width());
        layout.cellHeight = std::clamp(availableHeight / rows, 11.0, m_maxCell.height());
        layout.labelAngle = degrees;
        layout.labelPoints = points;
    };
    place(kLabelAngle, 8.5);
    // Neighbouring labels are cellWidth · sin(angle) apart across their baselines: rise
    // steeper until a letter's height fits, and where even upright labels would touch, set
    // them smaller.
    const double letter = labels.height(); // ascent + descent
    if (layout.cellWidth * std::sin(qDegreesToRadians(kLabelAngle)) < letter) {
        const double steeper =
            qRadiansToDegrees(std::asin(std::min(1.0, letter / layout.cellWidth)));
        place(std::max(kLabelAngle, steeper), 8.5);
        if (layout.cellWidth < letter) {
            // Font heights do not scale exactly with the point size: step down to the largest
            // size whose line fits the cell (not below 5 pt).
            double points = 8.5;
            while (points > 5 &&
                   QFontMetricsF(scaledFont(font(), points)).height() > layout.cellWidth) {
                points -= 0.25;
            }
            place(90, points);
        }
    }
    const double left = area.left() + kMargin;
    const double matrixTop = top + columnLabelHeight;
    layout.labels = QRectF(left, matrixTop, labelWidth, layout.cellHeight * rows);
    layout.matrix =
        QRectF(left + labelWidth, matrixTop, layout.cellWidth * columns, layout.cellHeight * rows);
    if (weights) {
        layout.weights =
            QRectF(layout.matrix.right() + 10, matrixTop, weightWidth - 10, layout.matrix.height());
    }
    layout.legend = QRectF(left, layout.matrix.bottom() + 10,
                           std::max(layout.matrix.right() - left, 260.0), labels.height() * 2 + 6);
    layout.valid = true;
    return layout;
}

QString HeatmapView::figureData() const {
    return m_model && m_model->rowCount() > 0 ? m_model->delimited(QLatin1Char('\t')) : QString();
}

QSizeF HeatmapView::figureSize() const {
    // The quantities of computeLayout (figure = true), solved for the size.
    const int rows = m_model ? m_model->rowCount() : 0;
    const int columns = m_model ? m_model->columnCount() : 0;
    const QFont labelFont = scaledFont(font(), 8.5);
    const QFont titleFont = scaledFont(font(), 9.5, true);
    const QFontMetricsF labels(labelFont);
    const QFontMetricsF titles(titleFont);
    const double top = kMargin + (m_title.isEmpty() ? 0 : titles.height() + 6);
    double needed = 260 + 2 * kMargin; // the colour legend
    if (!m_title.isEmpty()) {
        needed = std::max(needed, 2 * kMargin + titles.horizontalAdvance(m_title) + 10 +
                                      labels.horizontalAdvance(m_subtitle));
    }
    if (rows == 0 || columns == 0) {
        return QSizeF(journalWidthFor(needed), top + 80);
    }
    const HeaderExtents header = headerExtents(*m_model, labelFont);
    double labelWidth = header.rowLabelWidth;
    const double columnLabelWidth = header.columnLabelWidth;
    labelWidth += kSwatch + 12;
    const double angle = qDegreesToRadians(kLabelAngle);
    const double columnLabelHeight =
        columnLabelWidth * std::sin(angle) + labels.height() * std::cos(angle) + 6;
    const double weightWidth = m_model->hasWeights() ? 92 : 0;
    const double legendHeight = labels.height() * 2 + 16;
    const double overhang =
        std::max(0.0, columnLabelWidth * std::cos(angle) - weightWidth - 6) + kMargin;
    // Cells wide enough for a value ("0.00"), up to the view's largest cell; row labels in
    // full (the layout gives them at most 34 % of the width).
    const double valueCell =
        QFontMetricsF(scaledFont(font(), 7.5)).horizontalAdvance(QStringLiteral("0.00")) + 8;
    const double preferredCell = std::min(m_maxCell.width(), std::max(valueCell, 16.0));
    needed =
        std::max({needed, kMargin + labelWidth + columns * preferredCell + weightWidth + overhang,
                  labelWidth / 0.34});
    const double width = journalWidthFor(needed);
    const double shownLabelWidth =
        rowLabelColumnWidth(labelWidth, width, width - kMargin - weightWidth - overhang, columns);
    const double cellWidth =
        std::clamp((width - kMargin - shownLabelWidth - weightWidth - overhang) / columns,
                   kSmallestCell, m_maxCell.width());
    // Rows a little flatter than the cells are wide, within the view's largest cell, and all
    // rows on one page.
    const double fixed = top + columnLabelHeight + legendHeight + 6 + kMargin;
    const double pageRows = (kMaximumFigureHeightMm * kLogicalPerMm - fixed) / rows;
    const double cellHeight =
        std::max(11.0, std::min({std::clamp(cellWidth * 0.7, 16.0, m_maxCell.height()), pageRows}));
    return QSizeF(width, std::ceil(fixed + rows * cellHeight));
}

QSize HeatmapView::sizeHint() const {
    const int rows = m_model ? std::max(1, m_model->rowCount()) : 7;
    const int columns = m_model ? std::max(1, m_model->columnCount()) : 10;
    return QSize(static_cast<int>(170 + columns * 40 + (m_model && m_model->hasWeights() ? 92 : 0)),
                 static_cast<int>(150 + rows * 26));
}

QSize HeatmapView::minimumSizeHint() const {
    // High enough for every row at 14 px under the slanted column labels, with the title and
    // the colour legend (the layout's quantities; computeLayout).
    const int rows = m_model ? m_model->rowCount() : 0;
    const int columns = m_model ? m_model->columnCount() : 0;
    if (rows == 0 || columns == 0) {
        return QSize(260, 180);
    }
    const QFont labelFont = scaledFont(font(), 8.5);
    const QFontMetricsF labels(labelFont);
    const QFontMetricsF titles(scaledFont(font(), 9.5, true));
    const double angle = qDegreesToRadians(kLabelAngle);
    const double columnLabelHeight =
        headerExtents(*m_model, labelFont).columnLabelWidth * std::sin(angle) +
        labels.height() * std::cos(angle) + 6;
    const double height = 4 + (m_title.isEmpty() ? 0 : titles.height() + 6) + columnLabelHeight +
                          rows * 14.0 + labels.height() * 2 + 16 + 6;
    return QSize(260, std::max(180, static_cast<int>(std::ceil(height))));
}

QRectF HeatmapView::cellRect(int row, int column) const {
    const Layout layout = computeLayout(rect(), false);
    if (!layout.valid) {
        return {};
    }
    return QRectF(layout.matrix.left() + column * layout.cellWidth,
                  layout.matrix.top() + row * layout.cellHeight, layout.cellWidth,
                  layout.cellHeight);
}

QPolygonF HeatmapView::columnLabelBox(int column) const {
    const Layout layout = computeLayout(rect(), false);
    if (!layout.valid || !m_model || column < 0 || column >= m_model->columnCount()) {
        return {};
    }
    // paintInto's transform and text origin.
    const QFontMetricsF metrics(scaledFont(font(), layout.labelPoints));
    const QString text = m_model->headerData(column, Qt::Horizontal).toString();
    QTransform transform;
    transform.translate(layout.matrix.left() + (column + 0.5) * layout.cellWidth,
                        layout.matrix.top() - 5);
    transform.rotate(-layout.labelAngle);
    const double baseline = metrics.ascent() * 0.35;
    return transform.map(QPolygonF(
        QRectF(0, baseline - metrics.ascent(), metrics.horizontalAdvance(text), metrics.height())));
}

QRectF HeatmapView::rowLabelRect(int row) const {
    const Layout layout = computeLayout(rect(), false);
    if (!layout.valid) {
        return {};
    }
    return QRectF(layout.labels.left(), layout.labels.top() + row * layout.cellHeight,
                  layout.labels.width(), layout.cellHeight);
}

bool HeatmapView::rowLabelElided(int row) const {
    const QRectF label = rowLabelRect(row);
    if (label.isNull()) {
        return false;
    }
    // The name's rectangle of paintInto; dimmed rows are drawn in italics.
    QFont nameFont = scaledFont(font(), 8.5);
    nameFont.setItalic(
        m_model->headerData(row, Qt::Vertical, StateMatrixModel::DimmedRole).toBool());
    const QString name = m_model->headerData(row, Qt::Vertical).toString();
    const double width = label.adjusted(kSwatch + 6, 0, -6, 0).width();
    return QFontMetricsF(nameFont).elidedText(name, Qt::ElideRight, width) != name;
}

QPoint HeatmapView::cellAt(const QPointF& position) const {
    const Layout layout = computeLayout(rect(), false);
    if (!layout.valid) {
        return {-1, -1};
    }
    const int row =
        static_cast<int>(std::floor((position.y() - layout.matrix.top()) / layout.cellHeight));
    if (row < 0 || row >= m_model->rowCount() || position.y() < layout.matrix.top()) {
        return {-1, -1};
    }
    if (layout.labels.contains(position)) {
        return {-1, row}; // QPoint(x = column, y = row)
    }
    if (layout.matrix.contains(position)) {
        const int column =
            static_cast<int>(std::floor((position.x() - layout.matrix.left()) / layout.cellWidth));
        return {std::clamp(column, 0, m_model->columnCount() - 1), row};
    }
    if (layout.weights.contains(position)) {
        return {m_model->columnCount(), row}; // the weight column
    }
    return {-1, -1};
}

void HeatmapView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(rect(), palette().base());
    paintInto(painter, rect(), false);
}

void HeatmapView::paintFigure(QPainter& painter, const QRectF& target) const {
    paintFigureOnWhite(painter, target, [this](QPainter& figurePainter, const QRectF& area) {
        paintInto(figurePainter, area, true);
    });
}

void HeatmapView::paintInto(QPainter& painter, const QRectF& area, bool figure) const {
    const Layout layout = computeLayout(area, figure);
    const QFont labelFont = scaledFont(font(), 8.5);
    const QFont valueFont = scaledFont(font(), 7.5);
    const QFont titleFont = scaledFont(font(), 9.5, true);
    const QFontMetricsF labels(labelFont);
    if (!m_title.isEmpty()) {
        painter.setFont(titleFont);
        painter.setPen(kTextColour);
        const QFontMetricsF titles(titleFont);
        painter.drawText(layout.title, Qt::AlignLeft | Qt::AlignVCenter, m_title);
        if (!m_subtitle.isEmpty()) {
            painter.setFont(labelFont);
            painter.setPen(kMutedColour);
            const double x = layout.title.left() + titles.horizontalAdvance(m_title) + 10;
            painter.drawText(
                QRectF(x, layout.title.top(), layout.title.right() - x, layout.title.height()),
                Qt::AlignLeft | Qt::AlignVCenter,
                labels.elidedText(m_subtitle, Qt::ElideRight,
                                  std::max(0.0, layout.title.right() - x)));
        }
    }
    if (!layout.valid) {
        painter.setFont(scaledFont(font(), 9.5));
        painter.setPen(kMutedColour);
        QRectF box =
            area.adjusted(16, layout.title.isValid() ? layout.title.bottom() : 16, -16, -16);
        painter.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
        return;
    }
    const int rows = m_model->rowCount();
    const int columns = m_model->columnCount();

    // Column labels, rising to the right from each column's centre.
    const QFont columnFont = scaledFont(font(), layout.labelPoints);
    painter.setFont(columnFont);
    painter.setPen(kTextColour);
    for (int c = 0; c < columns; ++c) {
        const double x = layout.matrix.left() + (c + 0.5) * layout.cellWidth;
        painter.save();
        painter.translate(x, layout.matrix.top() - 5);
        painter.rotate(-layout.labelAngle);
        painter.drawText(QPointF(0, QFontMetricsF(columnFont).ascent() * 0.35),
                         m_model->headerData(c, Qt::Horizontal).toString());
        painter.restore();
    }

    // Cells.
    for (int r = 0; r < rows; ++r) {
        const bool dimmed =
            m_model->headerData(r, Qt::Vertical, StateMatrixModel::DimmedRole).toBool();
        for (int c = 0; c < columns; ++c) {
            const QRectF cell(layout.matrix.left() + c * layout.cellWidth,
                              layout.matrix.top() + r * layout.cellHeight, layout.cellWidth,
                              layout.cellHeight);
            const double v = m_model->value(r, c);
            QColor colour = m_scale.colourAt(v);
            if (dimmed) {
                colour = faded(colour, 0.45);
            }
            painter.fillRect(cell, colour);
            if (m_showValues && std::isfinite(v)) {
                painter.setFont(valueFont);
                const QString text = m_model->data(m_model->index(r, c)).toString();
                if (QFontMetricsF(valueFont).horizontalAdvance(text) + 4 <= layout.cellWidth &&
                    QFontMetricsF(valueFont).height() <= layout.cellHeight) {
                    painter.setPen(ColourScale::needsLightText(colour)
                                       ? QColor(Qt::white)
                                       : (dimmed ? kMutedColour : kTextColour));
                    painter.drawText(cell, Qt::AlignCenter, text);
                }
            }
        }
    }
    // White grid lines between cells (ChromHMM style), then a frame.
    painter.setPen(QPen(Qt::white, 1));
    for (int c = 1; c < columns; ++c) {
        const double x = layout.matrix.left() + c * layout.cellWidth;
        painter.drawLine(QPointF(x, layout.matrix.top()), QPointF(x, layout.matrix.bottom()));
    }
    for (int r = 1; r < rows; ++r) {
        const double y = layout.matrix.top() + r * layout.cellHeight;
        painter.drawLine(QPointF(layout.matrix.left(), y), QPointF(layout.matrix.right(), y));
    }
    painter.setPen(QPen(QColor(0xc9, 0xcf, 0xd6), 1));
    painter.drawRect(layout.matrix);
    if (!figure && m_hover.y() >= 0 && m_hover.x() >= 0 && m_hover.x() < columns) {
        painter.setPen(QPen(QColor(0x10, 0x24, 0x3d), 2));
        painter.drawRect(QRectF(layout.matrix.left() + m_hover.x() * layout.cellWidth,
                                layout.matrix.top() + m_hover.y() * layout.cellHeight,
                                layout.cellWidth, layout.cellHeight)
                             .adjusted(1, 1, -1, -1));
    }

    paintRowLabels(painter, layout, labelFont, figure);
    if (layout.weights.isValid()) {
        paintWeights(painter, layout, labelFont);
    }
    paintLegend(painter, layout.legend, labelFont);
}

/// Row labels: colour swatch and name (italic when dimmed; none under the row being renamed).
void HeatmapView::paintRowLabels(QPainter& painter, const Layout& layout, const QFont& labelFont,
                                 bool figure) const {
    const int rows = m_model->rowCount();
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (int r = 0; r < rows; ++r) {
        const QRectF row(layout.labels.left(), layout.labels.top() + r * layout.cellHeight,
                         layout.labels.width(), layout.cellHeight);
        const bool dimmed =
            m_model->headerData(r, Qt::Vertical, StateMatrixModel::DimmedRole).toBool();
        const QColor swatch =
            m_model->headerData(r, Qt::Vertical, StateMatrixModel::ColourRole).value<QColor>();
        if (swatch.isValid()) {
            const double h = std::min(layout.cellHeight - 6, 14.0);
            const QRectF box(row.left(), row.center().y() - h / 2, kSwatch, h);
            painter.setPen(QPen(swatch.darker(130), 0.8));
            painter.setBrush(dimmed ? faded(swatch, 0.5) : swatch);
            painter.drawRoundedRect(box, 2, 2);
        }
        QFont nameFont = labelFont;
        nameFont.setItalic(dimmed);
        painter.setFont(nameFont);
        painter.setPen(dimmed ? kMutedColour : kTextColour);
        const QRectF text = row.adjusted(kSwatch + 6, 0, -6, 0);
        if (r != m_editingRow || figure) {
            painter.drawText(
                text, Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetricsF(nameFont).elidedText(m_model->headerData(r, Qt::Vertical).toString(),
                                                   Qt::ElideRight, text.width()));
        }
    }
}

/// Weights: signed bars from a zero line, the value beside (⚠ and hatching when flagged).
void HeatmapView::paintWeights(QPainter& painter, const Layout& layout,
                               const QFont& labelFont) const {
    const int rows = m_model->rowCount();
    const QFontMetricsF labels(labelFont);
    double maxPositive = 0;
    double maxNegative = 0;
    for (int r = 0; r < rows; ++r) {
        const double w =
            m_model->headerData(r, Qt::Vertical, StateMatrixModel::WeightRole).toDouble();
        if (std::isfinite(w)) {
            maxPositive = std::max(maxPositive, w);
            maxNegative = std::max(maxNegative, -w);
        }
    }
    const double textWidth = labels.horizontalAdvance(QStringLiteral("⚠ −0.000")) + 4;
    const double barArea = std::max(10.0, layout.weights.width() - textWidth);
    const double total = std::max(1e-12, maxPositive + maxNegative);
    const double zero = layout.weights.left() + barArea * (maxNegative / total);
    painter.setFont(labelFont);
    painter.setPen(kMutedColour);
    painter.drawText(QRectF(layout.weights.left(), layout.weights.top() - labels.height() - 4,
                            layout.weights.width() + 20, labels.height()),
                     Qt::AlignLeft | Qt::AlignBottom, m_weightTitle);
    for (int r = 0; r < rows; ++r) {
        const double w =
            m_model->headerData(r, Qt::Vertical, StateMatrixModel::WeightRole).toDouble();
        if (!std::isfinite(w)) {
            continue;
        }
        const double y = layout.weights.top() + r * layout.cellHeight;
        const double length = barArea * std::abs(w) / total;
        const double h = std::min(layout.cellHeight * 0.56, 12.0);
        const QRectF bar(w >= 0 ? zero : zero - length, y + (layout.cellHeight - h) / 2, length, h);
        const bool flagged =
            m_model->headerData(r, Qt::Vertical, StateMatrixModel::FlaggedRole).toBool();
        painter.setPen(Qt::NoPen);
        painter.setBrush(w >= 0 ? kPositiveColour : kNegativeColour);
        painter.drawRect(bar);
        if (flagged) { // hatched: not a valid state
            painter.setBrush(QBrush(kFlaggedColour, Qt::BDiagPattern));
            painter.drawRect(bar);
        }
        painter.setPen(flagged ? kFlaggedColour
                               : (w >= 0 ? kTextColour : kNegativeColour.darker(120)));
        const double textLeft = std::max(bar.right(), zero) + 4;
        painter.drawText(QRectF(textLeft, y, textWidth + 20, layout.cellHeight),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         flagged ? QStringLiteral("⚠ ") + weightText(w) : weightText(w));
    }
    painter.setPen(QPen(QColor(0x8a, 0x92, 0x9a), 1));
    painter.drawLine(QPointF(zero, layout.weights.top() - 2),
                     QPointF(zero, layout.weights.bottom() + 2));
}

void HeatmapView::paintLegend(QPainter& painter, const QRectF& rect, const QFont& font) const {
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    painter.setPen(kMutedColour);
    const double titleWidth =
        std::min(metrics.horizontalAdvance(m_scale.title) + 10, rect.width() * 0.45);
    painter.drawText(QRectF(rect.left(), rect.top(), titleWidth, 12),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(m_scale.title, Qt::ElideRight, titleWidth - 6));
    const double barLeft = rect.left() + titleWidth;
    const double barWidth = std::min(220.0, rect.right() - barLeft - 12);
    if (barWidth < 40) {
        return;
    }
    const QRectF bar(barLeft, rect.top() + 1, barWidth, 10);
    const int segments = 64;
    painter.setPen(Qt::NoPen);
    for (int i = 0; i < segments; ++i) {
        const double t = (i + 0.5) / segments;
        double value = 0;
        if (m_scale.kind == ColourScale::Kind::Sequential) {
            value = m_scale.minimum + t * (m_scale.maximum - m_scale.minimum);
        } else {
            value = std::pow(2.0, (t * 2 - 1) * m_scale.log2Limit);
        }
        painter.setBrush(m_scale.colourAt(value));
        painter.drawRect(QRectF(bar.left() + bar.width() * i / segments, bar.top(),
                                bar.width() / segments + 0.6, bar.height()));
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(0xb8, 0xbe, 0xc5), 0.8));
    painter.drawRect(bar);
    painter.setPen(kMutedColour);
    for (double tick : m_scale.ticks()) {
        const double x = bar.left() + bar.width() * m_scale.position(tick);
        painter.drawLine(QPointF(x, bar.bottom()), QPointF(x, bar.bottom() + 3));
        const QString label = m_scale.tickLabel(tick);
        const double w = metrics.horizontalAdvance(label);
        painter.drawText(QRectF(x - w / 2 - 2, bar.bottom() + 3, w + 4, metrics.height()),
                         Qt::AlignCenter, label);
    }
}

} // namespace cx::ui
