#pragma once

#include <QSplitter>
#include <QStringList>

class QComboBox;
class QLabel;
class QScrollBar;
class QTabWidget;

namespace cx::ui {

class HeatmapView;
class PanelRow;
class SegmentationTrackView;
class StateMatrixModel;
class StateWeightsChartView;

/// The results side of the Chromatin workspace, top to bottom: the emission heatmaps of the
/// foreground-only and the contrastive model side by side (Fig. 2b); state weights vs γ,
/// overlap enrichment and transitions; the segmentation with its toolbar (chromosome, range,
/// zoom, BED export) and scroll bar. Views only: the workspace fills the models and views.
class ChromatinResultsView : public QSplitter {
    Q_OBJECT
public:
    ChromatinResultsView(StateMatrixModel* referenceModel, StateMatrixModel* emissionModel,
                         StateMatrixModel* transitionModel, StateMatrixModel* enrichmentModel,
                         QWidget* parent = nullptr);

    HeatmapView* referenceView() const { return m_referenceView; }
    HeatmapView* emissionView() const { return m_emissionView; }
    HeatmapView* transitionView() const { return m_transitionView; }
    HeatmapView* enrichmentView() const { return m_enrichmentView; }
    /// Neighbourhood enrichment heatmaps, one tab per anchor file, beside the overlap one
    /// (hidden while there is none; the workspace adds and removes the tabs).
    QTabWidget* neighborhoodTabs() const { return m_neighborhoodTabs; }
    StateWeightsChartView* weightsChart() const { return m_weightsChart; }
    SegmentationTrackView* trackView() const { return m_trackView; }
    /// The middle row's side-by-side arrangement (empty while the row is tabbed).
    QSplitter* middleSplitter() const { return m_middleSplitter; }
    /// The middle row: weights vs γ, enrichment, transitions; tabbed when narrow.
    PanelRow* middleRow() const { return m_middle; }

    /// The chromosome choice (shown only for several chromosomes).
    void setChromosomes(const QStringList& chromosomes);
    /// Shows [start, end) of `chrom` in the segmentation.
    void showRegion(const QString& chrom, qint64 start, qint64 end);

signals:
    /// The toolbar's "Export BED…" was clicked.
    void exportBedRequested();

private:
    QWidget* createSegmentationPanel();
    void updateRangeControls();

    HeatmapView* m_referenceView = nullptr;
    HeatmapView* m_emissionView = nullptr;
    HeatmapView* m_transitionView = nullptr;
    HeatmapView* m_enrichmentView = nullptr;
    QTabWidget* m_neighborhoodTabs = nullptr;
    StateWeightsChartView* m_weightsChart = nullptr;
    SegmentationTrackView* m_trackView = nullptr;
    QLabel* m_weightsTitle = nullptr;
    QSplitter* m_middleSplitter = nullptr;
    PanelRow* m_middle = nullptr;
    QComboBox* m_chromosome = nullptr;
    QLabel* m_rangeLabel = nullptr;
    QScrollBar* m_scroll = nullptr;
};

} // namespace cx::ui
