#pragma once

#include "ui/charts/chart_style.h"
#include "ui/charts/sweep_point.h"
#include "ui/widgets/exportable_figure.h"

#include <QChartView>
#include <QStringList>
#include <QVector>

#include <utility>

class QGraphicsSimpleTextItem;
class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QChart;

namespace cx::ui {

/// AUC-vs-γ chart of the specificity sweep: relative AUC (AUC / AUC at γ = 0) per grid point,
/// a dashed reference at 1, and a vertical marker with a dot at the current γ. Points stream in
/// while the sweep runs; each update rebuilds the point list and calls replace() once.
/// Clicking the plot asks for that γ (gammaClicked).
class AucChartView : public QChartView, public ExportableFigure {
    Q_OBJECT
public:
    QString figureKind() const override { return QStringLiteral("auc-chart"); }
    int figureKindOrder() const override { return 1; }
    explicit AucChartView(QWidget* parent = nullptr);

    /// A new sweep over `gammas` started (empty: no sweep; shows `idleMessage`).
    void startSweep(const QVector<double>& gammas);
    void addPoint(const SweepPoint& point);
    void finishSweep();
    void failSweep(const QString& message);
    void setIdleMessage(const QString& message);
    void setCurrentGamma(double gamma);
    /// Bootstrap bands of the relative AUC, per γ (drawn as a shaded band; NaN = none there).
    void setBands(const QVector<double>& gammas, const QVector<double>& lower,
                  const QVector<double>& upper);

    /// Inadmissible-component counts per γ (e.g. recomputed with the bootstrap's bands), shown
    /// in the point tooltips and as hollow red rings; points of other γ keep theirs.
    void setInadmissibleCounts(const QVector<double>& gammas, const QVector<int>& counts);
    /// Why the app does not stand behind each γ ("" = it does; cx::judgeSweep), per γ: such γ
    /// ranges are shaded (halfway to the neighbours, as the weights chart's) and the point's
    /// tooltip gives the reason; points of other γ keep theirs. No point is hidden.
    void setNotTrusted(const QVector<double>& gammas, const QStringList& reasons);
    /// The shaded γ ranges (tests).
    QList<std::pair<double, double>> notTrustedRanges() const;
    /// Points drawn with the inadmissible ring (tests).
    int flaggedPointCount() const;
    const QVector<SweepPoint>& points() const { return m_points; }
    bool isComplete() const { return m_complete; }
    /// Relative AUC at γ by linear interpolation between grid points (NaN outside the grid).
    double interpolatedRelativeAuc(double gamma) const;

    /// Draws the chart as a stand-alone figure (title and axes) into `target`, for export.
    void paintFigure(QPainter& painter, const QRectF& target) const override;
    /// The plot area and every drawn point (view coordinates) with its marker radius (tests).
    QRectF plotAreaInView() const;
    QList<std::pair<QPointF, double>> drawnPoints() const;
    /// Print size of the figure (logical units, 1/96 in): a single column, 89 × 70 mm plus
    /// its legend.
    QSizeF figureSize() const override;
    /// One line per γ of the sweep: γ, AUC, relative AUC, its band (empty without one),
    /// foreground-specific and inadmissible components, why the AUC is missing ("" if not) and
    /// why the app does not stand behind the γ ("" if it does).
    QString figureData() const override;
    /// How paintFigure lays the figure out at `size` (tests).
    ChartFigureLayout figureLayout(const QSizeF& size) const;

signals:
    void gammaClicked(double gamma);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Parts {
        QChart* chart = nullptr;
        QLineSeries* curve = nullptr;
        QList<QLineSeries*> segments; ///< further runs of valid points after a gap
        QAreaSeries* band = nullptr;
        /// γ ranges the app does not stand behind: one area whose upper edge steps up over
        /// each range (drawn first, under everything).
        QAreaSeries* untrusted = nullptr;
        QScatterSeries* failed = nullptr; ///< γ values without an AUC, on the reference line
        QScatterSeries* dots = nullptr;
        /// Valid points with a component of inadmissible weight: a hollow red ring, as the
        /// flagged points of the topic-weights chart.
        QScatterSeries* flagged = nullptr;
        QLineSeries* reference = nullptr;
        QLineSeries* marker = nullptr;
        QScatterSeries* markerDot = nullptr;
        QValueAxis* x = nullptr;
        QValueAxis* y = nullptr;
    };
    static Parts createParts(QChart* chart, double fontScale);
    /// `plotSize`: the plot's size in px when known (0: not yet), for marker padding.
    void fillParts(Parts& parts, const QSizeF& plotSize) const;
    /// The figure's chart: the parts, named for a legend.
    void buildFigure(QChart* chart, double plotHeight) const;
    void refresh();
    void updateMessage();
    void updateMarkerLabel();
    void fitTitles();
    void showPointToolTip(const QPointF& point, bool state);

    Parts m_parts;
    QGraphicsSimpleTextItem* m_message = nullptr;
    QGraphicsSimpleTextItem* m_markerLabel = nullptr;
    QVector<SweepPoint> m_points; ///< sorted by γ
    QVector<double> m_gammas;     ///< the grid of the running sweep
    double m_gamma = 0;
    QSizeF m_paddedPlotSize;
    bool m_complete = false;
    QString m_idleMessage;
    QString m_error;
};

} // namespace cx::ui
