#include "ui/topics/topics_workspace.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/dialogs/image_export_dialog.h"
#include "ui/dialogs/open_corpus_dialog.h"
#include "ui/framework/error_reporter.h"
#include "ui/framework/provenance.h"
#include "ui/framework/workspace_support.h"
#include "ui/topics/document_browser.h"
#include "ui/topics/selection_picker.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_data_panel.h"

#include "core/io/corpus_loader.h"
#include "core/io/selection.h"
#include "core/topics/topic_admissibility.h"

#include <QAction>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonArray>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTableView>

namespace cx::ui {

namespace {

/// The inputs the topics and charts come from that need Compute moments (the stale marker).
Provenance topicsProvenance(const QString& corpus, const SelectionSpec& selection) {
    Provenance provenance;
    provenance.add(QObject::tr("corpus"), corpus)
        .add(QObject::tr("foreground"), selection.foregroundRule)
        .add(QObject::tr("background"), selection.backgroundDescription());
    return provenance;
}

const QString kMainSplitterKey = QStringLiteral("topics.splitter.main");
const QString kResultSplitterKey = QStringLiteral("topics.splitter.results");
const QString kShowAllKey = QStringLiteral("topics.table.showAll");
const QString kTopWordsKey = QStringLiteral("topics.table.topWords");
const QString kComponentsKey = QStringLiteral("topics.model.k");
const QString kSeedKey = QStringLiteral("topics.model.seed");
const QString kRestartsKey = QStringLiteral("topics.model.restarts");
const QString kIterationsKey = QStringLiteral("topics.model.iterations");
const QString kGridKey = QStringLiteral("topics.sweep.grid");

} // namespace

TopicsWorkspace::TopicsWorkspace(QWidget* parent) : SectionedWorkspace(parent) {
    setObjectName(QStringLiteral("topicsWorkspace"));
    m_controller = new TopicsController(this);
    m_dataPanel = new TopicsDataPanel(this);
    m_dataPanel->setObjectName(QStringLiteral("dataPanel"));
    m_analysisPanel = new TopicsAnalysisPanel(this);
    m_tablePanel = new TopicTablePanel(this);
    m_specificityPanel = new SpecificityPanel(this);

    m_resultSplitter = new QSplitter(Qt::Vertical, this);
    m_resultSplitter->addWidget(m_tablePanel);
    m_resultSplitter->addWidget(m_specificityPanel);
    m_resultSplitter->setObjectName(QStringLiteral("topicsResultSplitter"));
    // The charts get a little more than the table: at 1024 × 700 the table still shows about
    // six words per topic and the charts (in tabs) a plot about 150 px tall; taller windows
    // give both more, wider ones put the charts side by side.
    m_resultSplitter->setStretchFactor(0, 4);
    m_resultSplitter->setStretchFactor(1, 5);
    m_resultSplitter->setChildrenCollapsible(false);
    m_resultSplitter->setSizes({440, 520});
    auto* stale =
        new StaleMarker(tr("Topics and charts"), tr("Compute moments to update them."), [this] {
            return topicsProvenance(m_controller->corpus().source, m_dataPanel->pendingSelection());
        });
    m_mainSplitter = layOutWorkspace(this, m_dataPanel, 290, m_analysisPanel,
                                     withStaleMarker(stale, m_resultSplitter), {350, 1100});
    connect(m_controller, &TopicsController::corpusChanged, stale, &StaleMarker::clearResult);
    connect(m_controller, &TopicsController::engineChanged, stale,
            [this, stale](const EngineState& engine) {
                stale->setResult(topicsProvenance(m_controller->corpus().source, engine.selection));
            });
    connect(m_dataPanel, &TopicsDataPanel::selectionEdited, stale, &StaleMarker::refresh);

    m_exportChartAction = new QAction(tr("Export AUC &Chart (PNG/SVG/PDF)…"), this);
    m_exportChartAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_exportChartAction, &QAction::triggered, this, &TopicsWorkspace::exportChart);

    m_documentBrowser = new DocumentBrowser(m_tablePanel->model(), this);
    m_documentBrowser->setWindowFlag(Qt::Window);
    m_documentsAction = new QAction(tr("&Documents Behind a Topic…"), this);
    m_documentsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_documentsAction->setToolTip(tr("The documents ranked by a topic's posterior, with "
                                     "snippets, labels and their words (click a topic's column)"));
    connect(m_documentsAction, &QAction::triggered, this, [this] { showDocuments(); });
    setUpTopicHeader();

    connectController();
    connectViews();

    m_controller->setParameters(m_analysisPanel->parameters());
    m_controller->setGamma(m_analysisPanel->gamma());
    m_controller->setSweep(m_specificityPanel->sweep());
}

TopicsWorkspace::~TopicsWorkspace() = default;

/// Controller → views: task reports, corpus, engine, solution, sweep, path and bootstrap.
void TopicsWorkspace::connectController() {
    connect(m_controller, &TopicsController::taskStarted, this,
            [this](TaskKind kind, const QString& description) {
                m_dataPanel->setBusy(true, kind == TaskKind::Load);
                emit taskStarted(description, true);
            });
    forwardControllerReports(m_controller, this);
    connect(m_controller, &TopicsController::taskFinished, this,
            [this](TaskKind kind, TaskOutcome outcome) {
                m_dataPanel->setBusy(false, false);
                emit taskFinished(outcome);
                if (outcome == TaskOutcome::Cancelled) {
                    m_pendingSection.reset();
                    emit statusMessage(kind == TaskKind::Load
                                           ? tr("Loading cancelled; the previous corpus is kept")
                                           : tr("Cancelled; the previous results are kept"));
                } else if (outcome == TaskOutcome::Failed) {
                    m_pendingSection.reset();
                }
            });
    connect(m_controller, &TopicsController::corpusChanged, this,
            &TopicsWorkspace::onCorpusChanged);
    connect(m_controller, &TopicsController::engineChanged, this,
            [this](const EngineState& engine) {
                m_dataPanel->setAppliedSelection(engine.selection, true);
                m_lastApplied = engine.selection;
                m_analysisPanel->setEngineInfo(
                    tr("basis r = %1 · moments %2 s")
                        .arg(engine.engine->rank())
                        .arg((engine.selectMs + engine.buildMs) / 1000.0, 0, 'f', 1),
                    tr("Moments of %1 foreground and %2 background documents, projected on a "
                       "joint basis of rank %3 (built for K ≤ %4) in %5 s. γ and K changes "
                       "reuse it.")
                        .arg(QLocale().toString(static_cast<qint64>(engine.foreground.size())),
                             QLocale().toString(static_cast<qint64>(engine.background.size())))
                        .arg(engine.engine->rank())
                        .arg(engine.engine->maxComponents())
                        .arg((engine.selectMs + engine.buildMs) / 1000.0, 0, 'f', 2));
                for (const QString& warning : engine.warnings) {
                    emit statusMessage(warning, 8000);
                }
                m_documentBrowser->setPools(engine.foreground, engine.background,
                                            m_controller->sweep().smoothing);
            });
    connect(m_controller, &TopicsController::stateReverted, this, [this] {
        m_dataPanel->setAppliedSelection(m_controller->selection(), m_controller->hasSelection());
        m_analysisPanel->setParameters(m_controller->parameters());
    });
    connect(m_controller, &TopicsController::solutionChanged, this,
            &TopicsWorkspace::onSolutionChanged);
    connect(m_controller, &TopicsController::solveFailed, m_tablePanel,
            &TopicTablePanel::setProblem);
    connect(m_controller, &TopicsController::selectionPreviewReady, m_dataPanel,
            &TopicsDataPanel::setPreview);
    connect(m_controller, &TopicsController::sweepStarted, m_specificityPanel,
            &SpecificityPanel::onSweepStarted);
    connect(m_controller, &TopicsController::sweepPointReady, m_specificityPanel,
            &SpecificityPanel::onSweepPoint);
    connect(m_controller, &TopicsController::sweepFinished, m_specificityPanel,
            &SpecificityPanel::onSweepFinished);
    connect(m_controller, &TopicsController::sweepFailed, m_specificityPanel,
            &SpecificityPanel::onSweepFailed);
    connect(m_controller, &TopicsController::sweepPathReady, m_specificityPanel,
            &SpecificityPanel::onSweepPath);
    connect(m_controller, &TopicsController::sweepPathReady, this,
            &TopicsWorkspace::startPendingBootstrap);
    connect(m_controller, &TopicsController::sweepPathReady, this,
            &TopicsWorkspace::updateIdentities);
    connect(m_controller, &TopicsController::sweepPathReady, this,
            &TopicsWorkspace::dropNamesOfVanishedTopics);
    connect(m_controller, &TopicsController::sweepFailed, this,
            [this] { m_pendingBootstrap = 0; }); // no path to resample
    connect(m_controller, &TopicsController::bootstrapStarted, m_specificityPanel,
            &SpecificityPanel::onBootstrapStarted);
    connect(m_controller, &TopicsController::bootstrapProgress, m_specificityPanel,
            &SpecificityPanel::onBootstrapProgress);
    connect(m_controller, &TopicsController::bootstrapFinished, m_specificityPanel,
            &SpecificityPanel::onBootstrapFinished);
    connect(m_controller, &TopicsController::bootstrapFailed, m_specificityPanel,
            &SpecificityPanel::onBootstrapFailed);
    // The table flags inadmissible weights with the bands once a bootstrap exists.
    connect(m_controller, &TopicsController::bootstrapFinished, this,
            &TopicsWorkspace::updateWeightBands);
    connect(m_controller, &TopicsController::sweepStarted, this,
            &TopicsWorkspace::updateWeightBands);
    connect(m_controller, &TopicsController::activityChanged, this, &Workspace::settledChanged);
}

/// Views → controller, and what a session records (the shell compares it with the saved one).
void TopicsWorkspace::connectViews() {
    connect(m_dataPanel, &TopicsDataPanel::openRequested, this, &TopicsWorkspace::openInteractive);
    connect(m_dataPanel, &TopicsDataPanel::selectionEdited, this, [this] {
        if (m_dataPanel->isPendingValid()) {
            m_controller->previewSelection(m_dataPanel->pendingSelection());
        }
    });
    connect(m_dataPanel, &TopicsDataPanel::applyRequested, this,
            &TopicsWorkspace::applyPendingSelection);
    connect(m_analysisPanel, &TopicsAnalysisPanel::gammaChanged, this, [this](double gamma) {
        m_specificityPanel->setCurrentGamma(gamma);
        m_controller->setGamma(gamma);
    });
    connect(m_analysisPanel, &TopicsAnalysisPanel::parametersChanged, m_controller,
            &TopicsController::setParameters);
    connect(m_specificityPanel, &SpecificityPanel::sweepChanged, this,
            [this] { m_controller->setSweep(m_specificityPanel->sweep()); });
    connect(m_specificityPanel->chart(), &AucChartView::gammaClicked, this,
            &TopicsWorkspace::setGammaEverywhere);
    connect(m_specificityPanel, &SpecificityPanel::exportRequested, this,
            &TopicsWorkspace::exportChart);
    connect(m_specificityPanel, &SpecificityPanel::gammaClicked, this,
            &TopicsWorkspace::setGammaEverywhere);
    connect(m_specificityPanel, &SpecificityPanel::bootstrapRequested, m_controller,
            &TopicsController::startBootstrap);
    connect(m_specificityPanel, &SpecificityPanel::bootstrapCancelRequested, m_controller,
            &TopicsController::cancelBootstrap);

    // What a session records changed: the shell compares the session with the saved one.
    const auto sessionChanged = [this] { emit sessionStateChanged(); };
    connect(m_analysisPanel, &TopicsAnalysisPanel::gammaChanged, this, sessionChanged);
    connect(m_analysisPanel, &TopicsAnalysisPanel::parametersChanged, this, sessionChanged);
    connect(m_specificityPanel, &SpecificityPanel::sweepChanged, this, sessionChanged);
    connect(m_tablePanel->showAllAction(), &QAction::toggled, this, sessionChanged);
    connect(m_tablePanel->model(), &QAbstractItemModel::modelReset, this, sessionChanged);
    connect(m_controller, &TopicsController::corpusChanged, this, sessionChanged);
    connect(m_controller, &TopicsController::engineChanged, this, sessionChanged);
    connect(m_controller, &TopicsController::stateReverted, this, sessionChanged);
    // The bands' resample count is part of the session.
    connect(m_controller, &TopicsController::bootstrapStarted, this, sessionChanged);
    connect(m_controller, &TopicsController::bootstrapFinished, this, sessionChanged);
    connect(m_controller, &TopicsController::bootstrapFailed, this, sessionChanged);
    // Topic names: in the weights chart (and its export) and in the session.
    connect(m_tablePanel->model(), &TopicWordsModel::namesChanged, this, [this] {
        m_specificityPanel->setTopicNames(m_tablePanel->model()->identityNames());
        emit sessionStateChanged();
    });
}

QIcon TopicsWorkspace::icon() const {
    return style()->standardIcon(QStyle::SP_FileDialogDetailedView);
}

bool TopicsWorkspace::canOpen(const QString& path) const {
    const QFileInfo info(path);
    if (info.isDir()) {
        return true;
    }
    const QString name = info.fileName().toLower();
    for (const char* suffix :
         {".sgm", ".sgm.gz", ".tsv", ".tsv.gz", ".csv", ".csv.gz", ".txt", ".txt.gz"}) {
        if (name.endsWith(QLatin1String(suffix))) {
            return true;
        }
    }
    return false;
}

void TopicsWorkspace::openPath(const QString& path) {
    m_pendingSection.reset();
    m_pendingBootstrap = 0;
    m_loadingPath = path;
    m_controller->loadCorpus(path, OpenCorpusDialog::savedOptions(false));
}

void TopicsWorkspace::openInteractive() {
    OpenCorpusDialog dialog(this);
    if (m_controller->corpus().corpus) {
        dialog.setPath(m_controller->corpus().source);
    }
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    OpenCorpusDialog::saveOptions(dialog.options());
    m_pendingSection.reset();
    m_pendingBootstrap = 0;
    m_loadingPath = dialog.path();
    m_controller->loadCorpus(dialog.path(), dialog.options());
}

void TopicsWorkspace::setGammaEverywhere(double gamma) {
    m_analysisPanel->setGamma(gamma);
    m_specificityPanel->setCurrentGamma(gamma);
    m_controller->setGamma(gamma);
}

void TopicsWorkspace::updateWeightBands() {
    const TopicSolution& solution = m_tablePanel->model()->solution();
    const auto sweep = m_controller->lastSweep();
    const auto bootstrap = m_controller->lastBootstrap();
    std::vector<double> low, high, stability;
    if (solution.isValid() && sweep && bootstrap &&
        solution.parameters == m_controller->parameters()) {
        cx::bandsOnPath(sweep->path, *bootstrap, *solution.result, low, high, &stability);
    }
    m_tablePanel->setWeightBands(low, high, stability);
}

void TopicsWorkspace::updateIdentities() {
    const TopicSolution& solution = m_tablePanel->model()->solution();
    const auto sweep = m_controller->lastSweep();
    std::vector<int> ids;
    std::vector<QColor> colours;
    if (solution.isValid() && sweep && solution.parameters == m_controller->parameters()) {
        ids = cx::identitiesOnPath(sweep->path, *solution.result);
        for (int id : ids) {
            colours.push_back(id >= 0 ? weightLineColour(SpecificityPanel::identityColour(id))
                                      : QColor());
        }
    }
    m_tablePanel->model()->setIdentities(ids, colours);
}

void TopicsWorkspace::onSolutionChanged(const TopicSolution& solution) {
    m_tablePanel->setSolution(solution);
    if (m_controller->lastBootstrap()) {
        updateWeightBands();
    }
    updateIdentities();
    if (solution.isValid()) {
        // Request → table model reset done; painting follows in this event-loop turn.
        m_tablePanel->setUpdateLatency(
            static_cast<double>(m_controller->clockMs() - solution.requestedAtMs));
    }
    emit settledChanged();
}

QList<QAction*> TopicsWorkspace::exportActions() const {
    return {m_exportChartAction, m_tablePanel->exportTableAction(),
            m_tablePanel->exportKeysAction()};
}

QList<QAction*> TopicsWorkspace::viewActions() const {
    return {m_tablePanel->showAllAction(), m_documentsAction};
}

void TopicsWorkspace::setUpTopicHeader() {
    QHeaderView* header = m_tablePanel->view()->horizontalHeader();
    // Click: the browser follows the topic; double-click: rename; context menu: both.
    connect(header, &QHeaderView::sectionClicked, this, [this](int column) {
        if (m_documentBrowser->isVisible()) {
            m_documentBrowser->setComponent(m_tablePanel->model()->componentOf(column));
        }
    });
    connect(header, &QHeaderView::sectionDoubleClicked, this,
            &TopicsWorkspace::renameTopicInteractively);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, [this, header](QPoint at) {
        const int column = header->logicalIndexAt(at);
        const int component = m_tablePanel->model()->componentOf(column);
        if (component < 0) {
            return;
        }
        QMenu menu(this);
        menu.addAction(tr("Rename %1…").arg(m_tablePanel->model()->componentName(column)), this,
                       [this, column] { renameTopicInteractively(column); });
        menu.addAction(tr("Documents Behind %1").arg(m_tablePanel->model()->componentName(column)),
                       this, [this, component] { showDocuments(component); });
        menu.exec(header->mapToGlobal(at));
    });
}

void TopicsWorkspace::renameTopicInteractively(int column) {
    TopicWordsModel* model = m_tablePanel->model();
    const int component = model->componentOf(column);
    if (component < 0) {
        return;
    }
    bool accepted = false;
    const QString name = QInputDialog::getText(
        this, tr("Rename Topic"),
        tr("Name of %1 (empty: the default name). It follows the topic along γ and is saved "
           "with the session:")
            .arg(model->defaultName(component)),
        QLineEdit::Normal, model->nameOfComponent(component), &accepted);
    if (accepted) {
        model->setTopicName(component, name);
    }
}

void TopicsWorkspace::showDocuments(int component) {
    if (component < 0) {
        const QModelIndex current = m_tablePanel->view()->currentIndex();
        component = m_tablePanel->model()->componentOf(current.isValid() ? current.column() : 0);
    }
    m_documentBrowser->show();
    m_documentBrowser->raise();
    if (component >= 0) {
        m_documentBrowser->setComponent(component);
    }
}

void TopicsWorkspace::cancelTask() {
    m_controller->cancelTask();
}

bool TopicsWorkspace::isSettled() const {
    if (m_pendingSection || !m_controller->isIdle()) {
        return false;
    }
    return m_controller->solution().isValid() || !m_controller->hasSelection();
}

void TopicsWorkspace::exportChart() {
    ImageExportDialog::exportViewInteractively(
        this, tr("AUC Chart"), QStringLiteral("specificity_auc"), m_specificityPanel->chart());
}

void TopicsWorkspace::saveSettings() const {
    QSettings settings;
    settings.setValue(kMainSplitterKey, m_mainSplitter->saveState());
    settings.setValue(kResultSplitterKey, m_resultSplitter->saveState());
    settings.setValue(kShowAllKey, m_tablePanel->showAllAction()->isChecked());
    settings.setValue(kTopWordsKey, m_tablePanel->model()->topWordCount());
    const ModelParameters p = m_analysisPanel->parameters();
    settings.setValue(kComponentsKey, p.numComponents);
    settings.setValue(kSeedKey, static_cast<qulonglong>(p.seed));
    settings.setValue(kRestartsKey, p.restarts);
    settings.setValue(kIterationsKey, p.iterations);
    settings.setValue(kGridKey, m_specificityPanel->gammaGridText());
}

void TopicsWorkspace::restoreSettings() {
    QSettings settings;
    m_mainSplitter->restoreState(settings.value(kMainSplitterKey).toByteArray());
    m_resultSplitter->restoreState(settings.value(kResultSplitterKey).toByteArray());
    m_tablePanel->setShowAll(settings.value(kShowAllKey, false).toBool());
    m_tablePanel->setTopWordCount(settings.value(kTopWordsKey, 15).toInt());
    ModelParameters p = m_analysisPanel->parameters();
    p.numComponents = std::clamp(settings.value(kComponentsKey, p.numComponents).toInt(), 1,
                                 TopicsAnalysisPanel::kMaxComponents);
    p.seed = settings.value(kSeedKey, static_cast<qulonglong>(p.seed)).toULongLong();
    p.restarts = std::clamp(settings.value(kRestartsKey, p.restarts).toInt(), 1, 100);
    p.iterations = std::clamp(settings.value(kIterationsKey, p.iterations).toInt(), 1, 10000);
    m_analysisPanel->setParameters(p);
    m_controller->setParameters(p);
    m_specificityPanel->setGammaGrid(
        settings.value(kGridKey, QStringLiteral("0:10:0.25")).toString());
}

QJsonObject TopicsWorkspace::figureProvenance() const {
    const TopicsController& c = *m_controller;
    return {{QStringLiteral("data"), c.corpus().source},
            {QStringLiteral("foreground_rule"), c.selection().foregroundRule},
            {QStringLiteral("background"), c.selection().backgroundDescription()},
            {QStringLiteral("gamma"), c.gamma()},
            {QStringLiteral("K"), c.parameters().numComponents},
            {QStringLiteral("seed"), QString::number(c.parameters().seed)},
            {QStringLiteral("iterations"), c.parameters().iterations},
            {QStringLiteral("restarts"), c.parameters().restarts},
            {QStringLiteral("positive_rule"), c.sweep().positiveRule}};
}

} // namespace cx::ui
