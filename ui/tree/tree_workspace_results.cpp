// TreeWorkspace: showing a learnt tree — the shared state catalogue, per-cell heatmaps, the
// stacked segmentation tracks with the lanes of regions differing from the root, the F1 table.
#include "ui/framework/provenance.h"
#include "ui/tree/tree_workspace.h"

#include "ui/tree/tree_controller.h"
#include "ui/tree/tree_diagram_view.h"
#include "ui/tree/tree_presenter.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/state_matrix_model.h"

#include "core/hmm/decoding.h"
#include "core/tree/tree_export.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QTableWidget>

namespace cx::ui {

void TreeWorkspace::showAnalysis(const TreeAnalysis& result) {
    const int k = result.request.options.numStates;
    // One state order for every cell: the root's emissions, slots by root occupancy.
    Eigen::VectorXd occupancy = Eigen::VectorXd::Zero(k);
    for (const auto& chrom : result.segmentation->states.front()) {
        for (const std::uint16_t state : chrom) {
            occupancy[state] += 1;
        }
    }
    if (m_catalog.numSlots() != k) {
        m_catalog.reset();
    }
    m_catalog.update(result.learned->model.emissions.front(), occupancy, result.tracks->markNames);

    for (HeatmapView* view : m_heatmaps) {
        delete view;
    }
    m_heatmaps.clear();
    m_emissionModels.clear();
    for (size_t v = 0; v < result.tree.names.size(); ++v) {
        const QString cell = QString::fromStdString(result.tree.names[v]);
        auto* view = new HeatmapView(m_heatmapRow);
        auto* model = new StateMatrixModel(view);
        model->setObjectName(QStringLiteral("emissions_") + cell);
        view->setObjectName(QStringLiteral("emissions_") + cell);
        view->setModel(model);
        view->setRowLabelsEditable(true);
        view->setTitle(
            cell, v == 0 ? tr("root")
                         : tr("child of %1")
                               .arg(QString::fromStdString(
                                   result.tree.names[static_cast<size_t>(result.tree.parent[v])])));
        view->setToolTip(tr("Emissions of %1: P(mark present | state). Rows are the same states "
                            "in every cell type; double-click a name to rename it everywhere.")
                             .arg(cell));
        connect(model, &StateMatrixModel::rowRenamed, this,
                [this](int, int slot, const QString& name) {
                    m_catalog.rename(slot, name);
                    refreshStateViews();
                    emit sessionStateChanged();
                });
        m_heatmapLayout->addWidget(view, 1);
        m_heatmaps << view;
        m_emissionModels << model;
    }
    // The data first: setData forgets the segmentation, which refreshStateViews then sets.
    m_trackView->setData(result.trackData);
    refreshStateViews();
    QVector<TrackLane> lanes;
    for (size_t v = 1; v < result.tree.names.size(); ++v) {
        TrackLane lane;
        lane.name = tr("%1 ≠ %2").arg(QString::fromStdString(result.tree.names[v]),
                                      QString::fromStdString(result.tree.names.front()));
        lane.intervals = differingLane(*result.tracks, *result.segmentation, static_cast<int>(v));
        lane.colour = QColor(0xc0, 0x30, 0x30);
        lanes << lane;
    }
    m_trackView->setLanes(lanes);

    showPromoterF1();
    if (m_pendingSection) {
        const cx::TreeSection section = *m_pendingSection;
        m_pendingSection.reset();
        applyViewState(section);
    } else if (selectedCell().isEmpty() || result.tree.find(selectedCell().toStdString()) < 0) {
        selectCell(QString::fromStdString(result.tree.names.size() > 1 ? result.tree.names[1]
                                                                       : result.tree.names[0]));
    } else {
        selectCell(selectedCell());
    }
    updateSummary();
    emit sessionStateChanged();
    emit settledChanged();
}

void TreeWorkspace::showPromoterF1() {
    const TreeAnalysis& result = analysis();
    m_f1Table->setRowCount(0);
    const QStringList labels = stateLabels();
    for (const cx::PromoterF1Row& row : result.promoterF1) {
        const int r = m_f1Table->rowCount();
        m_f1Table->insertRow(r);
        const int state = row.score.state;
        const QStringList cells = {QString::fromStdString(row.method),
                                   QString::fromStdString(row.cell),
                                   state >= 0 && state < labels.size() ? labels[state] : QString(),
                                   QString::number(row.score.precision, 'f', 3),
                                   QString::number(row.score.recall, 'f', 3),
                                   QString::number(row.score.f1, 'f', 3)};
        for (int c = 0; c < cells.size(); ++c) {
            m_f1Table->setItem(r, c, new QTableWidgetItem(cells[c]));
        }
    }
    m_f1Table->resizeColumnsToContents(); // names whole; F1, the last column, takes the rest
    m_stale->setResult(treeProvenance(result.request));
    updateExportActions();
}

void TreeWorkspace::refreshStateViews() {
    const TreeAnalysis& result = analysis();
    if (!result.isValid()) {
        return;
    }
    std::vector<int> slotStates;
    QStringList names;
    QVector<QColor> colours;
    for (int slot = 0; slot < m_catalog.numSlots(); ++slot) {
        slotStates.push_back(m_catalog.componentOfSlot(slot));
        names << m_catalog.name(slot);
        colours << m_catalog.colour(slot);
    }
    for (int v = 0; v < m_emissionModels.size(); ++v) {
        m_emissionModels[v]->setContent(
            emissionContent(result.learned->model.emissions[static_cast<size_t>(v)],
                            result.tracks->markNames, slotStates, names, colours));
    }
    // The tracks take colours and names by model state.
    QVector<QColor> byState(result.request.options.numStates);
    QStringList stateNames = stateLabels();
    for (int slot = 0; slot < m_catalog.numSlots(); ++slot) {
        byState[m_catalog.componentOfSlot(slot)] = m_catalog.colour(slot);
    }
    m_trackView->setSegmentation(result.runs, byState, stateNames);
}

void TreeWorkspace::updateSummary() {
    const TreeAnalysis& result = analysis();
    if (!result.isValid()) {
        m_status->clear();
        return;
    }
    QString text = tr("%1 cell types × %2 marks, %3 bins each; K = %4; learnt in %5 ms, decoded "
                      "(%6) in %7 ms.")
                       .arg(result.tracks->numCells())
                       .arg(result.tracks->numMarks())
                       .arg(result.tracks->totalBins())
                       .arg(result.request.options.numStates)
                       .arg(result.learnMs, 0, 'f', 0)
                       .arg(QString::fromLatin1(cx::toString(result.segmentation->mode)))
                       .arg(result.decodeMs, 0, 'f', 0);
    const QString starts = startsSummary(*result.learned);
    if (!starts.isEmpty()) {
        text += QLatin1Char(' ') + starts;
    }
    for (const auto& note : result.tracks->notes) {
        text += QLatin1Char(' ') + QString::fromStdString(note);
    }
    m_status->setText(text);
}

bool TreeWorkspace::exportSegmentations(const QString& folder, QString* error) const {
    const TreeAnalysis& result = analysis();
    if (!result.isValid() || !result.segmentation || m_stale->isStale()) {
        if (error) {
            *error = tr("No current tree to export: Learn first.");
        }
        return false;
    }
    const int k = result.request.options.numStates;
    std::vector<std::string> names;
    for (const QString& name : stateLabels()) {
        names.push_back(name.toStdString());
    }
    const std::vector<std::string> labels = cx::namedStateLabels(names, k);
    std::vector<std::string> colours;
    for (int state = 0; state < k; ++state) {
        const int slot = m_catalog.slotOfComponent(state);
        const QColor colour = slot >= 0 ? m_catalog.colour(slot) : QColor(127, 127, 127);
        colours.push_back(rgbText(colour));
    }
    const std::string description = "Spectral-Tree, K=" + std::to_string(k) + ", " +
                                    std::string(cx::toString(result.segmentation->mode)) +
                                    " decoding (Contrast Explorer, tree " +
                                    result.request.treeText.toStdString() + ")";
    std::vector<std::string> extra;
    if (!result.request.tssPath.isEmpty()) {
        extra.push_back(result.request.tssPath.toStdString());
    }
    try {
        cx::writeTreeSegmentFiles(folder.toStdString(), *result.tracks, *result.segmentation,
                                  labels, colours, description, extra);
    } catch (const std::exception& e) {
        if (error) {
            *error = QString::fromUtf8(e.what());
        }
        return false;
    }
    return true;
}

} // namespace cx::ui
