#include "ui/chromatin/chromatin_results_view.h"

#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/views/colour_scale.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/panel_row.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/state_matrix_model.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStyle>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>

namespace cx::ui {

namespace {

QToolButton* toolButton(QStyle::StandardPixmap icon, const QString& text, const QString& tip,
                        QWidget* parent) {
    auto* button = new QToolButton(parent);
    if (icon != QStyle::SP_CustomBase) {
        button->setIcon(parent->style()->standardIcon(icon));
    }
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    button->setToolButtonStyle(icon == QStyle::SP_CustomBase ? Qt::ToolButtonTextOnly
                                                             : Qt::ToolButtonIconOnly);
    return button;
}

} // namespace

ChromatinResultsView::ChromatinResultsView(StateMatrixModel* referenceModel,
                                           StateMatrixModel* emissionModel,
                                           StateMatrixModel* transitionModel,
                                           StateMatrixModel* enrichmentModel, QWidget* parent)
    : QSplitter(Qt::Vertical, parent) {
    // Top: the Fig. 2b pair.
    auto* pair = new QWidget(this);
    pair->setObjectName(QStringLiteral("resultsArea"));
    auto* pairLayout = new QHBoxLayout(pair);
    pairLayout->setContentsMargins(4, 4, 4, 0);
    pairLayout->setSpacing(6);
    m_referenceView = new HeatmapView(pair);
    m_referenceView->setObjectName(QStringLiteral("referenceHeatmap"));
    m_referenceView->setModel(referenceModel);
    m_referenceView->setScale(ColourScale::probability(tr("P(mark present)")));
    m_referenceView->setTitle(tr("Foreground only (γ = 0)"));
    m_referenceView->setPlaceholder(tr("Open chromatin tracks to fit a spectral HMM."));
    m_emissionView = new HeatmapView(pair);
    m_emissionView->setObjectName(QStringLiteral("emissionHeatmap"));
    m_emissionView->setModel(emissionModel);
    m_emissionView->setScale(ColourScale::probability(tr("P(mark present)")));
    m_emissionView->setRowLabelsEditable(true);
    m_emissionView->setTitle(tr("Contrastive"));
    m_emissionView->setPlaceholder(
        tr("Tick foreground regions (e.g. RefSeqGene + RefSeqTSS2kb) and move γ to see which "
           "states are specific to them."));
    pairLayout->addWidget(m_referenceView, 1);
    auto* divider = new QFrame(pair);
    divider->setObjectName(QStringLiteral("divider"));
    divider->setFrameShape(QFrame::VLine);
    divider->setFixedWidth(1);
    pairLayout->addWidget(divider);
    pairLayout->addWidget(m_emissionView, 1);

    // Middle: weights vs γ, enrichment, transitions.
    auto* weightsBox = new QWidget(this);
    weightsBox->setObjectName(QStringLiteral("resultsArea"));
    auto* weightsLayout = new QVBoxLayout(weightsBox);
    weightsLayout->setContentsMargins(12, 6, 4, 2);
    weightsLayout->setSpacing(0);
    m_weightsTitle = new QLabel(tr("State weights vs γ"), weightsBox);
    m_weightsTitle->setObjectName(QStringLiteral("panelTitle"));
    m_weightsTitle->setStyleSheet(QStringLiteral("font-size: 9.5pt;"));
    weightsLayout->addWidget(m_weightsTitle);
    m_weightsChart = new StateWeightsChartView(weightsBox);
    m_weightsChart->setMessage(tr("Needs a background (tick foreground regions)"));
    m_weightsChart->setMinimumHeight(150);
    weightsLayout->addWidget(m_weightsChart, 1);
    m_enrichmentView = new HeatmapView(this);
    m_enrichmentView->setObjectName(QStringLiteral("enrichmentHeatmap"));
    m_enrichmentView->setModel(enrichmentModel);
    m_enrichmentView->setScale(ColourScale::foldEnrichment(tr("fold enrichment")));
    m_enrichmentView->setTitle(tr("Overlap enrichment"));
    m_enrichmentView->setWeightTitle(tr("% of bins"));
    m_enrichmentView->setRowLabelsEditable(true);
    m_enrichmentView->setMaximumCellSize(QSizeF(44, 26));
    m_enrichmentView->setPlaceholder(tr("Fold enrichment of the segmentation's states in the "
                                        "annotations ticked Enr."));
    m_transitionView = new HeatmapView(this);
    m_transitionView->setObjectName(QStringLiteral("transitionHeatmap"));
    m_transitionView->setModel(transitionModel);
    m_transitionView->setScale(ColourScale::probability(tr("P(next state)")));
    m_transitionView->setTitle(tr("Transitions"));
    m_transitionView->setMaximumCellSize(QSizeF(36, 26));
    m_transitionView->setRowLabelsEditable(true);
    m_transitionView->setPlaceholder(tr("Transitions between the foreground-specific states."));
    // Side by side when there is room for each (the weights plot ≥ 200 px beside its legend,
    // the heatmaps' state names whole), else one tab each (a 1024 px window).
    m_neighborhoodTabs = new QTabWidget(this);
    m_neighborhoodTabs->setObjectName(QStringLiteral("neighborhoodTabs"));
    m_neighborhoodTabs->setDocumentMode(true);
    m_neighborhoodTabs->hide(); // shown with the first anchor file's table
    m_middle = new PanelRow(this);
    m_middle->setObjectName(QStringLiteral("middleRow"));
    m_middle->addPanel(weightsBox, tr("State weights vs γ"), 420, 4);
    m_middle->addPanel(m_enrichmentView, tr("Overlap enrichment"), 360, 4);
    m_middle->addPanel(m_neighborhoodTabs, tr("Neighbourhood enrichment"), 360, 4);
    m_middle->addPanel(m_transitionView, tr("Transitions"), 300, 3);
    m_middleSplitter = m_middle->splitter();
    m_middleSplitter->setSizes({380, 420, 420, 320});

    QWidget* segmentation = createSegmentationPanel(); // bottom
    addWidget(pair);
    addWidget(m_middle);
    addWidget(segmentation);
    setChildrenCollapsible(false);
    setStretchFactor(0, 5);
    setStretchFactor(1, 4);
    setStretchFactor(2, 3);
    setSizes({330, 255, 215});

    updateRangeControls();
}

/// The segmentation panel: title, chromosome, range, zoom and BED export above the track view
/// and its scroll bar, wired together.
QWidget* ChromatinResultsView::createSegmentationPanel() {
    auto* segmentation = new QWidget(this);
    segmentation->setObjectName(QStringLiteral("resultsArea"));
    auto* segmentationLayout = new QVBoxLayout(segmentation);
    segmentationLayout->setContentsMargins(12, 6, 10, 4);
    segmentationLayout->setSpacing(2);
    auto* toolbar = new QHBoxLayout;
    toolbar->setSpacing(6);
    auto* segmentationTitle = new QLabel(tr("Segmentation"), segmentation);
    segmentationTitle->setObjectName(QStringLiteral("panelTitle"));
    segmentationTitle->setStyleSheet(QStringLiteral("font-size: 9.5pt;"));
    toolbar->addWidget(segmentationTitle);
    toolbar->addSpacing(8);
    m_chromosome = new QComboBox(segmentation);
    m_chromosome->setToolTip(tr("Chromosome"));
    m_chromosome->setMinimumContentsLength(6);
    m_chromosome->hide(); // shown when the tracks cover several chromosomes
    toolbar->addWidget(m_chromosome);
    m_rangeLabel = new QLabel(segmentation);
    m_rangeLabel->setObjectName(QStringLiteral("hint"));
    m_rangeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The range text yields its width to the buttons at 1024 px (the tooltip keeps it whole).
    m_rangeLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    toolbar->addWidget(m_rangeLabel, 1);
    auto* zoomOut =
        toolButton(QStyle::SP_CustomBase, QStringLiteral("−"), tr("Zoom out (−)"), segmentation);
    auto* zoomIn =
        toolButton(QStyle::SP_CustomBase, QStringLiteral("+"), tr("Zoom in (+)"), segmentation);
    auto* fit = toolButton(QStyle::SP_CustomBase, tr("Whole"),
                           tr("Show the whole chromosome (Home)"), segmentation);
    auto* bed = toolButton(QStyle::SP_CustomBase, tr("Export BED…"),
                           tr("Save the segmentation as BED9 with itemRgb colours (loads in a "
                              "genome browser)"),
                           segmentation);
    for (QToolButton* button : {zoomOut, zoomIn, fit, bed}) {
        toolbar->addWidget(button);
    }
    segmentationLayout->addLayout(toolbar);
    m_trackView = new SegmentationTrackView(segmentation);
    m_trackView->setObjectName(QStringLiteral("segmentationView"));
    m_trackView->setPlaceholder(tr("The segmentation appears here once a model is fitted."));
    segmentationLayout->addWidget(m_trackView, 1);
    m_scroll = new QScrollBar(Qt::Horizontal, segmentation);
    segmentationLayout->addWidget(m_scroll);

    connect(m_chromosome, &QComboBox::currentTextChanged, this, [this](const QString& chrom) {
        if (!chrom.isEmpty() && chrom != m_trackView->chromosome()) {
            m_trackView->setChromosome(chrom);
        }
    });
    connect(zoomIn, &QToolButton::clicked, m_trackView, &SegmentationTrackView::zoomIn);
    connect(zoomOut, &QToolButton::clicked, m_trackView, &SegmentationTrackView::zoomOut);
    connect(fit, &QToolButton::clicked, m_trackView, &SegmentationTrackView::zoomToFit);
    connect(bed, &QToolButton::clicked, this, &ChromatinResultsView::exportBedRequested);
    connect(m_trackView, &SegmentationTrackView::rangeChanged, this,
            &ChromatinResultsView::updateRangeControls);
    connect(m_scroll, &QScrollBar::valueChanged, this, [this](int value) {
        // The scroll bar counts kb (an int holds any chromosome that way).
        const qint64 width = m_trackView->rangeEnd() - m_trackView->rangeStart();
        const qint64 start = static_cast<qint64>(value) * 1000;
        if (std::llabs(start - m_trackView->rangeStart()) >= 1000) {
            m_trackView->setRange(start, start + width);
        }
    });

    return segmentation;
}

void ChromatinResultsView::setChromosomes(const QStringList& chromosomes) {
    const QSignalBlocker block(m_chromosome);
    m_chromosome->clear();
    m_chromosome->addItems(chromosomes);
    m_chromosome->setVisible(m_chromosome->count() > 1);
}

void ChromatinResultsView::showRegion(const QString& chrom, qint64 start, qint64 end) {
    const int index = m_chromosome->findText(chrom);
    if (index >= 0) {
        m_chromosome->setCurrentIndex(index);
        m_trackView->setChromosome(chrom);
    }
    m_trackView->setRange(start, end);
}

void ChromatinResultsView::updateRangeControls() {
    const qint64 start = m_trackView->rangeStart();
    const qint64 end = m_trackView->rangeEnd();
    const qint64 length = m_trackView->chromosomeLength();
    m_rangeLabel->setText(genomicRangeText(m_trackView->chromosome(), start, end, length));
    m_rangeLabel->setToolTip(m_rangeLabel->text());
    if (length <= 0) {
        m_scroll->setRange(0, 0);
        return;
    }
    const QSignalBlocker block(m_scroll);
    const auto pageKb = static_cast<int>((end - start) / 1000);
    m_scroll->setRange(0, static_cast<int>(std::max<qint64>(0, (length - (end - start)) / 1000)));
    m_scroll->setPageStep(std::max(1, pageKb));
    m_scroll->setSingleStep(std::max(1, pageKb / 10));
    m_scroll->setValue(static_cast<int>(start / 1000));
}

} // namespace cx::ui
