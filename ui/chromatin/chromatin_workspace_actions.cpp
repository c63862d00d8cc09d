// The Chromatin workspace's menus and exports: File ▸ Export and View actions, the views'
// context menus, figures, tables and the BED9 segmentation. (Wiring and state handling are in
// chromatin_workspace.cpp, the results views in chromatin_results_view.cpp.)
#include "ui/chromatin/chromatin_workspace.h"

#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_analysis.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/state_count_dialog.h"
#include "ui/dialogs/aligned_reads_dialog.h"
#include "ui/dialogs/image_export_dialog.h"
#include "ui/dialogs/text_export.h"
#include "ui/framework/error_reporter.h"
#include "ui/views/heatmap_pair.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/export_helpers.h"
#include "ui/widgets/state_matrix_model.h"

#include "core/hmm/decoding.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QPainter>

#include <algorithm>

namespace cx::ui {

void ChromatinWorkspace::buildActions() {
    const auto action = [this](const QString& text, auto slot) {
        auto* a = new QAction(text, this);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_openReadsAction =
        action(tr("Open Aligned &Reads…"), &ChromatinWorkspace::openAlignedReadsInteractive);
    m_openReadsAction->setToolTip(tr("Binarize BAM/BED reads or peaks (ChromHMM's rules) and "
                                     "open the tracks"));
    m_exportPairAction = action(tr("Export Emission &Heatmaps, γ = 0 and current (PNG/SVG/PDF)…"),
                                &ChromatinWorkspace::exportEmissionPair);
    m_exportPairAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    // Each view's figure, as drawn by its paintFigure().
    const auto exportView = [this, &action](const QString& text, const QString& what,
                                            const QString& baseName, const auto* view) {
        return action(text, [this, what, baseName, view] {
            ImageExportDialog::exportViewInteractively(this, what, baseName, view);
        });
    };
    m_exportEmissionAction =
        exportView(tr("Export Emission Heatmap (current γ)…"), tr("Emission Heatmap"),
                   QStringLiteral("emissions"), m_emissionView);
    m_exportTransitionAction =
        exportView(tr("Export Transition Heatmap…"), tr("Transition Heatmap"),
                   QStringLiteral("transitions"), m_transitionView);
    m_exportEnrichmentAction =
        exportView(tr("Export Enrichment Heatmap…"), tr("Enrichment Heatmap"),
                   QStringLiteral("enrichment"), m_enrichmentView);
    m_exportWeightsAction = exportView(tr("Export Weights-vs-γ Chart…"), tr("Weights Chart"),
                                       QStringLiteral("state_weights"), m_weightsChart);
    m_exportTrackAction = exportView(tr("Export Segmentation View…"), tr("Segmentation View"),
                                     QStringLiteral("segmentation"), m_trackView);
    m_exportSeparator = new QAction(this);
    m_exportSeparator->setSeparator(true);
    m_exportBedAction =
        action(tr("Export Segmentation as &BED9…"), &ChromatinWorkspace::exportSegmentationBed);
    m_exportEmissionTableAction = action(tr("Export Emission Table (TSV/CSV)…"), [this] {
        exportTable(m_emissionModel, tr("Emission Table"), QStringLiteral("emissions"));
    });
    m_exportTransitionTableAction = action(tr("Export Transition Table (TSV/CSV)…"), [this] {
        exportTable(m_transitionModel, tr("Transition Table"), QStringLiteral("transitions"));
    });
    m_exportEnrichmentTableAction = action(tr("Export Enrichment Table (TSV/CSV)…"), [this] {
        exportTable(m_enrichmentModel, tr("Enrichment Table"), QStringLiteral("enrichment"));
    });
    m_sortStatesAction = action(tr("Sort States by &Weight"), [this] {
        m_catalog.sortByWeight();
        if (m_controller->solution().isValid()) {
            onSolutionChanged(m_controller->solution());
        }
    });
    m_showValuesAction = new QAction(tr("Show &Values in Heatmap Cells"), this);
    m_showValuesAction->setCheckable(true);
    m_showValuesAction->setChecked(true);
    connect(m_showValuesAction, &QAction::toggled, this, [this](bool show) {
        for (HeatmapView* view :
             {m_emissionView, m_referenceView, m_transitionView, m_enrichmentView}) {
            view->setShowValues(show);
        }
    });
    m_fitTrackAction =
        action(tr("Show the &Whole Chromosome"), [this] { m_trackView->zoomToFit(); });
    m_stateCountAction = action(tr("How &Many States…"), [this] { openStateCount(); });
    m_stateCountAction->setToolTip(tr("Fit K over a range at γ = 0 and suggest K (contrast-cli "
                                      "hmm --k-range)"));
    m_labelBackgroundAction =
        new QAction(tr("&Label Background-like Runs in the Segmentation"), this);
    m_labelBackgroundAction->setCheckable(true);
    m_labelBackgroundAction->setChecked(true);
    m_labelBackgroundAction->setToolTip(
        tr("Runs of the foreground-specific HMM that a background-like component (ω ≤ 0) "
           "explains better are labelled with that component"));
    connect(m_labelBackgroundAction, &QAction::toggled, m_controller,
            &ChromatinController::setLabelBackgroundRuns);

    // The views' own context menus offer their exports.
    const auto addContextActions = [](QWidget* widget, QList<QAction*> actions) {
        widget->setContextMenuPolicy(Qt::ActionsContextMenu);
        widget->addActions(actions);
    };
    addContextActions(m_emissionView,
                      {m_exportEmissionAction, m_exportEmissionTableAction, m_exportPairAction});
    addContextActions(m_referenceView, {m_exportPairAction});
    addContextActions(m_transitionView, {m_exportTransitionAction, m_exportTransitionTableAction});
    addContextActions(m_enrichmentView, {m_exportEnrichmentAction, m_exportEnrichmentTableAction});
    addContextActions(m_weightsChart, {m_exportWeightsAction});
    addContextActions(m_trackView, {m_exportTrackAction, m_exportBedAction});
}

QString ChromatinWorkspace::segmentationBed() const {
    const SegmentationHandle& segmentation = m_controller->segmentation();
    if (!segmentation) {
        return {};
    }
    QStringList names;
    QVector<QColor> colours;
    for (int slot : m_segmentationSlots) {
        names << m_catalog.name(slot);
        colours << m_catalog.colour(slot);
    }
    // As contrast-cli hmm describes its segments.
    const ChromatinModelParameters& parameters = m_controller->parameters();
    const double gamma = m_controller->gamma();
    QString model = QStringLiteral("contrastive spectral HMM, K=%1, gamma=%2")
                        .arg(parameters.numComponents)
                        .arg(gamma);
    if (gamma == 0 && parameters.refineEm > 0) {
        model += QStringLiteral(", refined");
    }
    model += QStringLiteral(", %1 decoding (Contrast Explorer)")
                 .arg(QString::fromLatin1(cx::toString(segmentation->method)));
    return segmentationBed9(*segmentation, names, colours, model);
}

QString ChromatinWorkspace::igvBatchScript(const QString& bedPath) const {
    std::vector<std::string> files = {QFileInfo(bedPath).absoluteFilePath().toStdString()};
    for (const QString& path : m_annotationModel->lanePaths()) {
        files.push_back(QFileInfo(path).absoluteFilePath().toStdString());
    }
    return QString::fromStdString(
        cx::igvBatchScript(files, m_trackView->regionText().toStdString()));
}

void ChromatinWorkspace::exportSegmentationBed() {
    if (!m_controller->segmentation()) {
        ErrorReporter::report(this, tr("Nothing to export"),
                              tr("No segmentation yet: open tracks and fit a model first."));
        return;
    }
    const QString text = segmentationBed();
    const QString path =
        exportTextInteractively(this, tr("Segmentation"), QStringLiteral("segmentation"),
                                {tr("BED files (*.bed)")}, [text](const QString&) { return text; });
    if (path.isEmpty()) {
        return;
    }
    // Next to it, as contrast-cli hmm writes igv_batch.txt beside segments.bed.
    const QFileInfo bed(path);
    const QString script =
        bed.absoluteDir().filePath(bed.completeBaseName() + QStringLiteral(".igv_batch.txt"));
    QString error;
    if (!writeTextFileAtomically(script, igvBatchScript(path), &error)) {
        ErrorReporter::report(this, tr("Could not write the IGV batch script"), error);
    }
}

void ChromatinWorkspace::exportEmissionPair() {
    HeatmapView* left = m_referenceView;
    HeatmapView* right = m_emissionView;
    ImageExportDialog::exportInteractively(
        this, tr("Emission Heatmaps"), QStringLiteral("emissions_fig2b"),
        [left, right](QPainter& painter, const QRectF& target) {
            paintHeatmapPair(*left, *right, painter, target);
        },
        heatmapPairFigureSize(*left, *right),
        [left, right] { return heatmapPairFigureData(*left, *right); });
}

void ChromatinWorkspace::exportTable(StateMatrixModel* model, const QString& what,
                                     const QString& baseName) {
    if (model->rowCount() == 0) {
        ErrorReporter::report(this, tr("Nothing to export"),
                              tr("The %1 is empty: fit a model first.").arg(what.toLower()));
        return;
    }
    exportTextInteractively(
        this, what, baseName,
        {tr("Tab-separated values (*.tsv)"), tr("Comma-separated values (*.csv)")},
        [model](const QString& suffix) {
            return model->delimited(suffix == QLatin1String("csv") ? QLatin1Char(',')
                                                                   : QLatin1Char('\t'));
        });
}

QList<QAction*> ChromatinWorkspace::exportActions() const {
    return {m_exportPairAction,
            m_exportEmissionAction,
            m_exportTransitionAction,
            m_exportEnrichmentAction,
            m_exportWeightsAction,
            m_exportTrackAction,
            m_exportSeparator,
            m_exportBedAction,
            m_exportEmissionTableAction,
            m_exportTransitionTableAction,
            m_exportEnrichmentTableAction};
}

StateCountDialog* ChromatinWorkspace::openStateCount() {
    const auto& data = m_controller->data().data;
    if (!data) {
        ErrorReporter::report(this, tr("Nothing to fit"), tr("Open chromatin tracks first."));
        return nullptr;
    }
    // The workspace's γ = 0 model: its solve options and Baum–Welch refinement.
    const ChromatinModelParameters& parameters = m_controller->parameters();
    cx::StateCountOptions options;
    options.solve = parameters.toOptions();
    options.moments.seed = parameters.seed;
    options.refineRounds = parameters.refineEm;
    options.refineTolerance = parameters.refineTolerance;
    options.minStates = 2;
    options.maxStates = std::min(data->numMarks() + 1, std::max(parameters.numComponents + 3, 8));
    auto* dialog = new StateCountDialog(data, options, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

QList<QAction*> ChromatinWorkspace::openActions() const {
    return {m_openReadsAction};
}

void ChromatinWorkspace::openAlignedReadsInteractive() {
    AlignedReadsDialog dialog(this);
    if (const auto& reads = m_controller->data().reads) {
        dialog.setRequest(*reads);
    }
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    openAlignedReads(dialog.request());
}

void ChromatinWorkspace::openAlignedReads(const ReadsBinarization& reads) {
    if (!reads.isValid()) {
        return;
    }
    beginOpen({});
    m_loadingReads = true;
    m_controller->binarizeReads(reads);
    emit settledChanged();
}

QList<QAction*> ChromatinWorkspace::viewActions() const {
    return {m_sortStatesAction, m_showValuesAction, m_fitTrackAction, m_labelBackgroundAction,
            m_stateCountAction};
}

int ChromatinWorkspace::openPathsPreference(const QStringList& paths) const {
    const bool all = !paths.isEmpty() &&
                     std::all_of(paths.begin(), paths.end(),
                                 [this](const QString& path) { return openPreference(path) > 0; });
    return all ? 2 : 0;
}

void ChromatinWorkspace::openPaths(const QStringList& paths) {
    QStringList tracks;
    for (const QString& path : paths) {
        if (openPreference(path) == 2 &&
            (path.endsWith(QLatin1String(".bed"), Qt::CaseInsensitive) ||
             path.endsWith(QLatin1String(".bed.gz"), Qt::CaseInsensitive) ||
             path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) || isAnchorPath(path))) {
            openPath(path);
        } else {
            tracks << path;
        }
    }
    openTracks(tracks);
}

} // namespace cx::ui
