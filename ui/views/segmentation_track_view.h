#pragma once

#include "ui/views/segmentation_types.h"
#include "ui/widgets/exportable_figure.h"

#include <QColor>
#include <QWidget>

#include <memory>

namespace cx::ui {

/// An annotation lane drawn under the state tracks (genes, TSS, …).
struct TrackLane {
    QString name;
    std::shared_ptr<const LaneIntervals> intervals;
    QColor colour{0x2b, 0x3a, 0x55};
};

/// A genome-browser-like view of a segmentation over one chromosome: a coordinate ruler
/// (bp/kb/Mb), one row per cell type with its states as coloured blocks, and annotation lanes
/// underneath. Zoom with the wheel (around the pointer), +/− keys or double-click; scroll by
/// dragging, with Shift+wheel or the arrow keys. When a pixel covers many bins the row shows
/// the states' shares of that pixel as stacked colours (so rare states such as promoters stay
/// visible at chromosome scale instead of being hidden by the majority state). Painting
/// touches only the runs and intervals in view (binary search), never every bin.
class SegmentationTrackView : public QWidget, public ExportableFigure {
    Q_OBJECT
public:
    QString figureKind() const override { return QStringLiteral("segmentation"); }
    int figureKindOrder() const override { return 3; }
    explicit SegmentationTrackView(QWidget* parent = nullptr);

    /// New tracks: chooses the first chromosome and shows all of it.
    void setData(std::shared_ptr<const cx::ChromatinData> data);
    /// The states to draw (null: none). `colours`/`names` are indexed by segmentation state.
    void setSegmentation(SegmentationHandle segmentation, const QVector<QColor>& colours,
                         const QStringList& names);
    void setStateAppearance(const QVector<QColor>& colours, const QStringList& names);
    SegmentationHandle segmentation() const { return m_segmentation; }
    void setLanes(const QVector<TrackLane>& lanes);
    int laneCount() const { return static_cast<int>(m_lanes.size()); }
    /// A note drawn over the ruler (e.g. "updating…"); empty hides it.
    void setStatusNote(const QString& note);
    void setPlaceholder(const QString& text);

    QStringList chromosomes() const;
    QString chromosome() const { return m_chrom; }
    void setChromosome(const QString& chrom);
    /// Length of the shown chromosome in bp (largest track on it).
    qint64 chromosomeLength() const { return m_length; }
    /// Shown range [start, end) in bp, clamped to the chromosome and a minimum width.
    void setRange(qint64 start, qint64 end);
    qint64 rangeStart() const { return m_start; }
    qint64 rangeEnd() const { return m_end; }
    /// The shown range as "CHROM:START-END" (a session's view region); empty before any data.
    QString regionText() const;
    void zoomBy(double factor, double anchorFraction = 0.5);
    void zoomIn() { zoomBy(0.5); }
    void zoomOut() { zoomBy(2.0); }
    void zoomToFit();
    /// Moves the range by `fraction` of its width (negative: left).
    void scrollByFraction(double fraction);

    /// The state (segmentation index) of the track row `row` at bp `position`, −1 if none.
    int stateAt(int row, qint64 position) const;
    /// Track indices (into the data) drawn as rows, in order.
    const std::vector<int>& rowTracks() const { return m_rowTracks; }

    void paintFigure(QPainter& painter, const QRectF& target) const override;
    /// Print size of the figure (logical units, 1/96 in): 1.5 journal columns (a double column
    /// from four rows and lanes on), every row and lane at full height.
    QSizeF figureSize() const override;
    /// The shown range as intervals, one line each: every state run of every row (cell, chrom,
    /// start, end in bp, state name) clipped to the range, then every annotation interval of
    /// every lane.
    QString figureData() const override;
    /// The states the shown range draws (segmentation indices, ascending): the exported
    /// figure's legend lists them with their colours and names.
    QList<int> shownStates() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void rangeChanged(qint64 start, qint64 end);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Geometry {
        QRectF ruler;
        QRectF plot; ///< x range of the data (all rows)
        std::vector<QRectF> rows;
        std::vector<QRectF> lanes;
        double labelWidth = 0;
    };
    Geometry geometry(const QRectF& area) const;
    void paintInto(QPainter& painter, const QRectF& area, bool figure) const;
    void paintRuler(QPainter& painter, const Geometry& g) const;
    void paintTrack(QPainter& painter, const QRectF& row, int track) const;
    void paintLane(QPainter& painter, const QRectF& row, const TrackLane& lane) const;
    /// The figure's state legend (swatch and name per shown state, in rows) at the top of
    /// `area`; returns its height. `paint` false only measures.
    double paintLegend(QPainter* painter, const QRectF& area) const;
    /// Runs of `track` overlapping the shown range (first and one past the last).
    std::pair<const StateRun*, const StateRun*> runsInRange(int track) const;
    double xOf(const QRectF& plot, double bp) const;
    double bpAt(const QRectF& plot, double x) const;
    void updateRows();
    QString toolTipAt(const QPointF& position) const;

    std::shared_ptr<const cx::ChromatinData> m_data;
    SegmentationHandle m_segmentation;
    QVector<QColor> m_colours;
    QStringList m_names;
    QVector<TrackLane> m_lanes;
    QString m_chrom;
    qint64 m_length = 0;
    qint64 m_start = 0;
    qint64 m_end = 0;
    std::vector<int> m_rowTracks;
    QString m_statusNote;
    QString m_placeholder;
    bool m_dragging = false;
    double m_dragX = 0;
    qint64 m_dragStart = 0;
};

} // namespace cx::ui
