// TreeWorkspace: its section of a project session (.cxproj): tracks, tree, parameters, TSS
// file, the selected cell, the segmentation region and the state names.
#include "ui/framework/provenance.h"
#include "ui/tree/tree_workspace.h"

#include "ui/tree/tree_controller.h"
#include "ui/tree/tree_diagram_view.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/state_matrix_model.h"
#include <QLabel>
#include <QTableWidget>

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>

namespace cx::ui {

bool TreeWorkspace::hasSessionData() const {
    return m_pendingSection.has_value() || !m_trackPaths.isEmpty();
}

cx::TreeSection TreeWorkspace::currentSection() const {
    if (m_pendingSection) {
        return *m_pendingSection;
    }
    cx::TreeSection section = m_sessionBase;
    section.tracks.clear();
    for (const QString& path : m_trackPaths) {
        section.tracks.emplace_back(path.toStdString());
    }
    section.reads = toReadsSection(m_reads.get());
    section.strictMarks = m_strictMarks->isChecked();
    section.tree = m_lastParsableTree.toStdString(); // not a draft that does not parse
    section.numStates = m_states->value();
    section.decomposition = m_decomposition->currentData().toString().toStdString();
    section.seed = static_cast<std::uint64_t>(m_seed->value());
    section.starts = m_starts->value();
    section.decode = m_decode->currentData().toString().toStdString();
    section.momentFit = momentFitSweeps();
    section.compare.clear();
    if (m_perCell->isChecked()) {
        section.compare.emplace_back("per-cell");
    }
    section.tss = m_tssPath.toStdString();
    section.flank = m_flank->value();
    section.promoterState = m_promoterState->value();
    section.selectedCell = selectedCell().toStdString();
    section.region = m_trackView->regionText().toStdString();
    section.states.clear();
    if (analysis().isValid() && m_catalog.numSlots() == section.numStates) {
        for (int slot = 0; slot < m_catalog.numSlots(); ++slot) {
            section.states.push_back({m_catalog.name(slot).toStdString(),
                                      m_catalog.colour(slot).name().toStdString(),
                                      m_catalog.isRenamed(slot)});
        }
    }
    section.savedBy.clear();
    return section;
}

void TreeWorkspace::openSection(const cx::TreeSection& section) {
    m_sessionBase = section;
    QStringList paths;
    for (const auto& path : section.tracks) {
        paths << QString::fromStdString(path.string());
    }
    m_states->setValue(section.numStates);
    m_decomposition->setCurrentIndex(
        m_decomposition->findData(QString::fromStdString(section.decomposition)));
    m_seed->setValue(static_cast<int>(section.seed));
    m_starts->setValue(section.starts);
    m_decode->setCurrentIndex(m_decode->findData(QString::fromStdString(section.decode)));
    m_flank->setValue(static_cast<int>(section.flank));
    m_promoterState->setValue(section.promoterState);
    m_perCell->setChecked(std::find(section.compare.begin(), section.compare.end(), "per-cell") !=
                          section.compare.end());
    m_strictMarks->setChecked(section.strictMarks);
    m_momentFit->setChecked(section.momentFit >= 0);
    m_treeEdit->setText(QString::fromStdString(section.tree));
    std::shared_ptr<const ReadsBinarization> reads;
    if (section.reads) {
        reads = fromReadsSection(*section.reads);
        if (!binarizedUpToDate(paths, *reads)) {
            // The reads changed since they were binarized: again, then on (readsBinarized).
            m_pendingSection = section;
            m_controller->binarizeReads(*reads);
            emit settledChanged();
            return;
        }
    }
    openSectionTracks(section, paths, std::move(reads));
}

void TreeWorkspace::openSectionTracks(const cx::TreeSection& section, const QStringList& tracks,
                                      std::shared_ptr<const ReadsBinarization> reads) {
    openTracks(tracks);
    m_reads = std::move(reads);
    setTssFile(QString::fromStdString(section.tss.string())); // after the tracks it belongs to
    setTreeText(QString::fromStdString(section.tree));
    m_catalog.reset();
    m_pendingSection = section;
    if (!learn()) {
        m_pendingSection.reset();
    }
    emit settledChanged();
}

void TreeWorkspace::applyViewState(const cx::TreeSection& section) {
    for (int slot = 0;
         slot < static_cast<int>(section.states.size()) && slot < m_catalog.numSlots(); ++slot) {
        if (section.states[static_cast<size_t>(slot)].renamed) {
            m_catalog.rename(
                slot, QString::fromStdString(section.states[static_cast<size_t>(slot)].name));
        }
    }
    refreshStateViews();
    if (!section.selectedCell.empty()) {
        selectCell(QString::fromStdString(section.selectedCell));
    }
    static const QRegularExpression regionPattern(QStringLiteral("^(.+):(\\d+)-(\\d+)$"));
    const auto match = regionPattern.match(QString::fromStdString(section.region));
    if (match.hasMatch()) {
        m_trackView->setChromosome(match.captured(1));
        m_trackView->setRange(match.captured(2).toLongLong(), match.captured(3).toLongLong());
    }
}

void TreeWorkspace::clearSession() {
    m_controller->clear();
    m_pendingSection.reset();
    m_learnEndedWithoutAnalysis = false;
    for (HeatmapView* view : m_heatmaps) {
        delete view;
    }
    m_heatmaps.clear();
    m_emissionModels.clear();
    m_catalog.reset();
    m_trackView->setSegmentation(nullptr, {}, {});
    m_trackView->setLanes({});
    m_trackView->setData(nullptr);
    m_f1Table->setRowCount(0);
    m_stale->clearResult();
    updateExportActions();
    m_dataSummary->setText(tr("Open a folder of cell types (ChromHMM binarized tracks)."));
    setTssFile({});
    m_sessionBase = cx::TreeSection();
    m_trackPaths.clear();
    m_reads.reset();
    m_cells.clear();
    m_tssPath.clear();
    m_treeEdit->clear();
    treeTextEdited();
    emit documentTitleChanged(QString());
    emit sessionStateChanged();
}

} // namespace cx::ui
