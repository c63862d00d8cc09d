#pragma once

#include "ui/charts/chart_style.h"
#include "ui/widgets/exportable_figure.h"

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QSet>
#include <QVector>

#include <utility>
#include <vector>

class QAbstractSeries;
class QAreaSeries;
class QChart;
class QListWidget;
class QListWidgetItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QValueAxis;

namespace cx::ui {

/// State weights ω against the contrast weight γ: one line per state (in the state's colour,
/// tracked across γ), a dashed zero line (states below it are background-like) and a vertical
/// marker at the current γ. Each update rebuilds the point lists and calls replace() once per
/// series. Clicking the plot asks for that γ (gammaClicked).
///
/// On screen the legend is a scrollable list beside the plot (every entry reachable however
/// many lines there are; full names in tooltips); clicking an entry hides or shows its lines.
/// Exported figures draw the whole legend under the chart instead. The x range is padded so
/// that markers on the first and last γ are drawn whole.
class StateWeightsChartView : public QChartView, public ExportableFigure {
    Q_OBJECT
public:
    QString figureKind() const override { return QStringLiteral("weights-chart"); }
    int figureKindOrder() const override { return 2; }
    struct Line {
        QString name;
        QColor colour;
        /// The second channel when colours run out (cx::IdentityStyle): the line's pen style.
        /// A line that is not solid draws its flagged pieces in its own pattern (thinner).
        Qt::PenStyle pattern = Qt::SolidLine;
        QList<QPointF> points; ///< (γ, ω); a NaN ω leaves a gap (the component is absent there)
        /// Optional uncertainty band (γ, low) / (γ, high), drawn translucent in the line colour;
        /// a NaN in either leaves a gap.
        QList<QPointF> lower, upper;
        /// Listed in the legend even when it draws nothing; a line with a finite point is
        /// always listed (no drawn line without its legend entry).
        bool inLegend = true;
        /// Per point (parallel to `points`, may be empty): the component is flagged there (e.g.
        /// a topic weight outside [−γ, 1]). Pieces of the line touching a flagged point are
        /// drawn dashed and flagged points get a hollow warning marker (one legend entry,
        /// setFlagName).
        QList<bool> flagged;
    };

    explicit StateWeightsChartView(QWidget* parent = nullptr);

    /// [from, to] of γ.
    using GammaRange = std::pair<double, double>;

    /// `unreliable`: γ ranges where the solver found no valid model (drawn as shaded bands
    /// with one legend entry, "no valid model").
    void setLines(const QList<Line>& lines, double gammaMinimum, double gammaMaximum,
                  const QList<GammaRange>& unreliable = {});
    const QList<Line>& lines() const { return m_lines; }
    const QList<GammaRange>& unreliableRanges() const { return m_unreliable; }
    /// Legend name of the shaded γ ranges of setLines (default "no valid model").
    void setUnreliableName(const QString& name);
    /// Legend name of the flagged-point markers (default "flagged").
    void setFlagName(const QString& name);
    /// Draws the admissible region of a contrastive weight, the lines ω = 1 and ω = −γ (thin,
    /// dotted; one legend entry `name`; "" = off).
    void setAdmissibleBounds(const QString& name);
    /// Flagged points over all lines (tests).
    int flaggedPointCount() const;
    /// Vertical dotted lines at these γ (e.g. where the foreground-specific set changes), with
    /// one legend entry `name`.
    void setMarkers(const QList<double>& gammas, const QString& name);
    const QList<double>& markers() const { return m_markers; }
    /// Axis title of ω and the exported figure's title (defaults: state weights).
    void setTexts(const QString& weightTitle, const QString& figureTitle);
    /// The y-axis fits every finite weight and band value, clipped to ±limit (default 1: state
    /// occupancies; topics use the model bound max(1, γ)).
    void setWeightLimit(double limit);
    /// Current y-axis range (tests).
    std::pair<double, double> weightRange() const;
    void setCurrentGamma(double gamma);
    /// Shown over an empty chart (e.g. "No background: γ has no effect").
    void setMessage(const QString& message);

    /// Draws the chart as a stand-alone figure (title, axes, legend) into `target`.
    void paintFigure(QPainter& painter, const QRectF& target) const override;
    /// Print size of the figure (logical units, 1/96 in): a double column wide, the plot about
    /// 85 mm tall and the whole legend underneath.
    QSizeF figureSize() const override;
    /// One line per point of every line: name, γ, ω, the band (low, high; empty without one)
    /// and whether the point is flagged (1/0).
    QString figureData() const override;
    /// How paintFigure lays the figure out at `size` (tests).
    ChartFigureLayout figureLayout(const QSizeF& size) const;

    /// The on-screen legend list (one row per legend entry; tests).
    QListWidget* legendList() const { return m_legendList; }
    /// Legend labels of the on-screen chart, in order.
    QStringList legendLabels() const;
    /// Hides (or shows again) the lines of legend entry `label` on screen; figures show all.
    void setEntryHidden(const QString& label, bool hidden);
    bool isEntryHidden(const QString& label) const { return m_hidden.contains(label); }
    /// Every drawn point of the on-screen chart (view coordinates) with its marker radius (0
    /// for line vertices), and the plot area in view coordinates (tests).
    QList<std::pair<QPointF, double>> drawnPoints() const;
    QRectF plotAreaInView() const;

signals:
    void gammaClicked(double gamma);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Parts {
        QChart* chart = nullptr;
        QList<QLineSeries*> lines;
        QList<QAreaSeries*> bands;
        QLineSeries* zero = nullptr;
        QLineSeries* marker = nullptr;
        QValueAxis* x = nullptr;
        QValueAxis* y = nullptr;
        /// Per legend label (in legend order), the series drawn for it.
        QList<std::pair<QString, QList<QAbstractSeries*>>> groups;
    };
    /// `plotSize`: the plot's size in px when known (0: not yet), for marker padding.
    Parts build(QChart* chart, bool figure, const QSizeF& plotSize) const;
    void updateLegendList();
    void placeLegendList();
    QString weightTitle() const;
    void fitTitles();
    void rebuild();
    void updateMessage();

    Parts m_parts;
    QGraphicsSimpleTextItem* m_message = nullptr;
    QList<Line> m_lines;
    QList<GammaRange> m_unreliable;
    QList<double> m_markers;
    QString m_markerName;
    QString m_unreliableName;
    QString m_flagName;
    QString m_boundsName;
    QString m_weightTitle;
    QString m_figureTitle;
    double m_weightLimit = 1.0;
    double m_gammaMinimum = 0;
    double m_gammaMaximum = 3;
    double m_gamma = 0;
    QString m_messageText;
    QListWidget* m_legendList = nullptr;
    QSet<QString> m_hidden; ///< legend labels whose lines are hidden on screen
    QSizeF m_builtPlotSize; ///< plot size the current chart's padding was made for
    bool m_rebuildPending = false;
};

/// The colour a line of `colour` is drawn in: very light colours (a quiescent state, a yellow of
/// the palette) would vanish on white and are darkened. Other views that show a line's identity
/// (a table header's swatch) use it to match the chart.
QColor weightLineColour(const QColor& colour);

/// Grid points flagged by a positive value (e.g. a chromatin path's specificInvalidMass, or 1
/// where a topic path has no admissible foreground topic), as γ ranges reaching halfway to the
/// neighbours; adjacent ranges merge. The shaded ranges of StateWeightsChartView::setLines.
QList<StateWeightsChartView::GammaRange> unreliableRanges(const QVector<double>& gammas,
                                                          const std::vector<double>& invalidMass);

} // namespace cx::ui
