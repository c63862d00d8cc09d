#pragma once

#include "ui/charts/chart_style.h"

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

class QPainter;

namespace cx::ui {

/// Line chart of per-iteration quantities (log-likelihood, max CMI, set sizes …) with a left
/// and a right value axis, fed plain data. Used for stagewise EM's convergence (Zhao & Zucker 2015,
/// Fig. 3) and, with K on the x axis, for "how many states"; knows no workspace.
class IterationChartView : public QChartView {
    Q_OBJECT
public:
    struct Line {
        QString name;
        QColor colour;
        QList<QPointF> points; ///< (iteration, value)
        bool rightAxis = false;
        bool dashed = false;
    };

    explicit IterationChartView(QWidget* parent = nullptr);

    /// Replaces every line; the axes' titles are `leftTitle` and `rightTitle`.
    void setLines(const QList<Line>& lines, const QString& leftTitle, const QString& rightTitle);
    const QList<Line>& lines() const { return m_lines; }
    /// The centred message shown when no line has a point.
    void setPlaceholder(const QString& text);
    /// The x axis' title ("iteration" by default) and whether it starts at the smallest x of
    /// the lines (else at 0); integer ticks either way.
    void setXAxis(const QString& title, bool fromFirstPoint);
    /// The exported figure's title ("Stagewise EM" by default).
    void setFigureTitle(const QString& title);
    /// Draws the chart as a stand-alone figure (export).
    void paintFigure(QPainter& painter, const QRectF& target) const;
    /// Print size of the figure (logical units, 1/96 in): a single column (1.5 columns with a
    /// right axis), the chart 70 mm tall, the legend underneath.
    QSizeF figureSize() const;
    /// One line per point of every line: name, iteration, value, axis ("left"/"right").
    QString figureData() const;
    /// How paintFigure lays the figure out at `size` (tests).
    ChartFigureLayout figureLayout(const QSizeF& size) const;

private:
    void build(QChart* chart, bool figure) const;
    QString figureTitle() const;
    void rebuild();

    QList<Line> m_lines;
    QString m_leftTitle;
    QString m_rightTitle;
    QString m_placeholder;
    QString m_xTitle;
    bool m_xFromFirstPoint = false;
    QString m_figureTitle;
};

} // namespace cx::ui
