// The Chromatin workspace's enrichment heatmaps: the overlap table (chromatin_workspace.cpp
// fills it) and one neighbourhood table per anchor file, in tabs beside it. Both come from
// core's ChromHMM-compatible enrichments (computeEnrichment), so they equal what
// `contrast-cli enrichment` writes for the exported segmentation.
#include "ui/chromatin/chromatin_workspace.h"

#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/chromatin/chromatin_results_view.h"
#include "ui/views/colour_scale.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/state_matrix_model.h"

#include <QTabWidget>

namespace cx::ui {

QString ChromatinWorkspace::enrichmentSubtitle(const EnrichmentTable& table) const {
    const SegmentationHandle& segmentation = m_controller->segmentation();
    const QString method =
        segmentation ? QString::fromLatin1(cx::toString(segmentation->method)) : QString();
    const auto& data = m_controller->data().data;
    bool severalCells = false;
    if (data) {
        for (const cx::ChromatinTrack& track : data->tracks) {
            severalCells = severalCells || track.cell != data->tracks.front().cell;
        }
    }
    return severalCells ? tr("%1 segmentation of %2").arg(method, table.cell)
                        : tr("%1 segmentation").arg(method);
}

void ChromatinWorkspace::clearEnrichmentModels() {
    m_enrichmentModel->clear();
    refreshNeighborhoodViews(nullptr);
}

void ChromatinWorkspace::refreshNeighborhoodViews(const EnrichmentTable* table) {
    QTabWidget* tabs = m_results->neighborhoodTabs();
    const size_t wanted = table != nullptr ? table->neighborhoods.size() : 0;
    while (m_neighborhoodModels.size() > wanted) {
        QWidget* page = tabs->widget(tabs->count() - 1);
        tabs->removeTab(tabs->count() - 1);
        delete page;
        m_neighborhoodModels.back()->deleteLater();
        m_neighborhoodModels.pop_back();
    }
    while (m_neighborhoodModels.size() < wanted) {
        auto* model = new StateMatrixModel(this);
        connect(model, &StateMatrixModel::rowRenamed, this,
                [this](int, int slot, const QString& name) { onStateRenamed(slot, name); });
        auto* view = new HeatmapView(tabs);
        view->setObjectName(
            QStringLiteral("neighborhoodHeatmap%1").arg(m_neighborhoodModels.size()));
        view->setModel(model);
        view->setScale(ColourScale::foldEnrichment(tr("fold enrichment")));
        view->setWeightTitle(tr("% of bins"));
        view->setRowLabelsEditable(true);
        view->setMaximumCellSize(QSizeF(30, 26));
        view->setShowValues(false); // 21 offsets: the colours carry it
        tabs->addTab(view, QString());
        m_neighborhoodModels.push_back(model);
    }
    tabs->setVisible(wanted > 0);
    const SegmentationHandle& segmentation = m_controller->segmentation();
    for (size_t i = 0; i < wanted; ++i) {
        const EnrichmentTable& around = table->neighborhoods[i];
        auto* view = static_cast<HeatmapView*>(tabs->widget(static_cast<int>(i)));
        tabs->setTabText(static_cast<int>(i), around.title);
        tabs->setTabToolTip(static_cast<int>(i), around.annotationPaths.value(0));
        view->setTitle(around.title, enrichmentSubtitle(around));
        auto content =
            segmentation ? enrichmentContent(around, *segmentation, m_segmentationSlots, m_catalog)
                         : std::nullopt;
        if (content) {
            content->columnLabels = around.annotations;
            m_neighborhoodModels[i]->setContent(std::move(*content));
        } else {
            m_neighborhoodModels[i]->clear();
        }
    }
}

} // namespace cx::ui
