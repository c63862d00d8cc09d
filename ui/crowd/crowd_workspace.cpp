#include "ui/crowd/crowd_workspace.h"

#include "core/crowd/crowd_tables.h"
#include "core/io/crowd_labels.h"
#include "ui/charts/iteration_chart_view.h"
#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_presenter.h"
#include "ui/crowd/crowd_results_panel.h"
#include "ui/dialogs/image_export_dialog.h"
#include "ui/dialogs/text_export.h"
#include "ui/framework/error_reporter.h"
#include "ui/framework/provenance.h"
#include "ui/framework/workspace_support.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/form_widgets.h"
#include "ui/widgets/state_matrix_model.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace cx::ui {

namespace {

const char* const kDirectoryKey = "crowd.directory";

} // namespace

CrowdWorkspace::CrowdWorkspace(QWidget* parent) : SectionedWorkspace(parent) {
    m_controller = new CrowdController(this);

    auto* dataPanel = new QWidget;
    auto* dataLayout = new QVBoxLayout(dataPanel);
    dataLayout->addWidget(sectionTitle(tr("Crowd labels"), dataPanel));
    auto* openLabels = new QPushButton(tr("Open labels…"), dataPanel);
    m_openGold = new QPushButton(tr("Open gold…"), dataPanel);
    m_openGold->setEnabled(false);
    dataLayout->addWidget(openLabels);
    dataLayout->addWidget(m_openGold);
    m_summary = hintLabel(tr("CSV or TSV with item, worker and label columns (any order, header "
                             "names such as question/worker/answer), and optionally a gold file "
                             "(item, truth)."),
                          dataPanel);
    m_summary->setWordWrap(true);
    dataLayout->addWidget(m_summary);
    dataLayout->addStretch(1);

    auto* controls = new QWidget;
    auto* controlRows = new QVBoxLayout(controls);
    auto* controlLayout = new QHBoxLayout;
    controlRows->addLayout(controlLayout);
    m_method = new QComboBox(controls);
    for (cx::CrowdMethod method : cx::allCrowdMethods()) {
        m_method->addItem(crowdMethodLabel(method), static_cast<int>(method));
    }
    m_method->setToolTip(
        tr("How the labels are aggregated: majority vote (a tie goes to the "
           "label seen first in the file), Dawid–Skene EM (random "
           "restarts, or started from majority vote or a spectral estimate), "
           "or stagewise EM (Zhao & Zucker 2015), which grows a set of informative "
           "workers"));
    setMethod(cx::CrowdMethod::StagewiseRefine);
    m_components = numberSpin(0, 64, 0, 70, controls);
    m_components->setSpecialValueText(tr("classes"));
    m_components->setToolTip(tr("Number of mixture components (0 = the number of classes)"));
    // K = 1 aggregates nothing (the methods refuse it, and so does a session holding it): the
    // box steps from "classes" (0) straight to 2 and back, and a typed 1 becomes 2. Connected
    // first, so every other receiver sees the corrected value.
    connect(m_components, &QSpinBox::valueChanged, this, [this](int k) {
        if (k == 1) {
            m_components->setValue(m_lastComponents == 2 ? 0 : 2);
        } else {
            m_lastComponents = k;
        }
    });
    m_seed = numberSpin(0, 1000000, 1, 70, controls);
    m_seed->setToolTip(tr("Random seed of the EM restarts and initialisations (the same seed "
                          "gives the same result)"));
    m_compare = new QPushButton(tr("Compare methods"), controls);
    m_compare->setToolTip(tr("Run every method in the background and list their error rates "
                             "and the items on which they disagree"));
    m_compare->setEnabled(false);
    controlLayout->addWidget(fieldLabel(tr("Method"), m_method, controls));
    controlLayout->addWidget(m_method);
    controlLayout->addWidget(fieldLabel(tr("K"), m_components, controls));
    controlLayout->addWidget(m_components);
    controlLayout->addWidget(fieldLabel(tr("Seed"), m_seed, controls));
    controlLayout->addWidget(m_seed);
    controlLayout->addWidget(m_compare);
    controlLayout->addStretch(1);
    // The run summary under the parameters, as wide as the results (a column beside them
    // wraps into many short lines at 1024 px).
    m_status = new QLabel(controls);
    m_status->setObjectName(QStringLiteral("runSummary"));
    m_status->setWordWrap(true);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    controlRows->addWidget(m_status);

    m_results = new CrowdResultsPanel;
    m_comparisonStale = new StaleMarker(
        tr("Comparison and Disagreements"), tr("Compare methods again to update them."), [this] {
            return crowdProvenance(m_controller->labelsPath(), m_controller->goldPath(), options());
        });
    layOutWorkspace(this, dataPanel, 240, controls, withStaleMarker(m_comparisonStale, m_results),
                    {280, 1160});

    createExportActions();
    connect(openLabels, &QPushButton::clicked, this, &CrowdWorkspace::openInteractive);
    connect(m_openGold, &QPushButton::clicked, this, [this] {
        QSettings settings;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Gold Labels"), settings.value(kDirectoryKey).toString(),
            tr("Label files (*.csv *.tsv *.txt *.gz);;All files (*)"));
        if (!path.isEmpty()) {
            openFiles(m_controller->labelsPath(), path);
        }
    });
    connect(m_method, &QComboBox::currentIndexChanged, this, &CrowdWorkspace::refit);
    connect(m_components, &QSpinBox::valueChanged, this, &CrowdWorkspace::refit);
    connect(m_seed, &QSpinBox::valueChanged, this, &CrowdWorkspace::refit);
    connect(m_compare, &QPushButton::clicked, this, &CrowdWorkspace::compareMethods);
    m_comparisonStale->watch(m_components);
    m_comparisonStale->watch(m_seed);

    connectController();
    connectSessionSignals();
}

CrowdWorkspace::~CrowdWorkspace() = default;

void CrowdWorkspace::createExportActions() {
    m_exportLabels = new QAction(tr("Aggregated Labels…"), this);
    m_exportWorkers = new QAction(tr("Worker Reliability…"), this);
    m_exportConvergence = new QAction(tr("Convergence Chart…"), this);
    m_exportCmi = new QAction(tr("CMI Heatmap…"), this);
    for (QAction* action : {m_exportLabels, m_exportWorkers, m_exportConvergence, m_exportCmi}) {
        action->setEnabled(false);
    }
    connect(m_exportLabels, &QAction::triggered, this, &CrowdWorkspace::exportLabels);
    connect(m_exportWorkers, &QAction::triggered, this, [this] {
        if (!m_run || !m_controller->data()) {
            return;
        }
        const std::string text = cx::crowdWorkersTable(*m_controller->data(), *m_run->result);
        exportTextInteractively(this, tr("Worker Reliability"), QStringLiteral("workers"),
                                {tr("Tab-separated values (*.tsv)")},
                                [text](const QString&) { return QString::fromStdString(text); });
    });
    connect(m_exportConvergence, &QAction::triggered, this, [this] {
        ImageExportDialog::exportViewInteractively(this, tr("Convergence Chart"),
                                                   QStringLiteral("convergence"),
                                                   m_results->informativeChart());
    });
    connect(m_exportCmi, &QAction::triggered, this, [this] {
        ImageExportDialog::exportViewInteractively(this, tr("CMI Heatmap"), QStringLiteral("cmi"),
                                                   m_results->cmiView());
    });
}

void CrowdWorkspace::connectController() {
    forwardControllerReports(m_controller, this);
    connect(m_controller, &CrowdController::taskStarted, this,
            [this](CrowdTaskKind, const QString& description) {
                emit taskStarted(description, true);
                emit settledChanged();
            });
    connect(m_controller, &CrowdController::taskFinished, this,
            [this](CrowdTaskKind kind, TaskOutcome outcome) {
                if (kind == CrowdTaskKind::Load && outcome != TaskOutcome::Finished) {
                    m_compareAfterLoad = false; // asked for the labels that did not come
                }
                if (kind == CrowdTaskKind::Run) {
                    m_fitEndedWithoutRun = outcome != TaskOutcome::Finished;
                }
                if (kind == CrowdTaskKind::Load && outcome != TaskOutcome::Finished &&
                    m_pendingSection) {
                    // The session's labels could not be read: what was shown stays.
                    m_pendingSection.reset();
                    emit sessionStateChanged();
                }
                emit taskFinished(outcome);
                emit settledChanged();
            });
    connect(m_controller, &CrowdController::dataLoaded, this, [this] {
        m_run.reset();
        m_fitEndedWithoutRun = false;
        m_results->clear();
        m_comparisonStale->clearResult(); // the comparison went with the earlier data
        updateSummary();
        emit pathOpened(m_controller->labelsPath());
        emit documentTitleChanged(QFileInfo(m_controller->labelsPath()).fileName());
        if (m_pendingSection) {
            const cx::CrowdSection section = *m_pendingSection;
            m_pendingSection.reset();
            applySection(section); // fits
        } else {
            refit(); // the load task has finished: the controller is free
        }
        if (std::exchange(m_compareAfterLoad, false)) {
            compareMethods(); // asked for while the labels were read; then the fit
        }
        emit sessionStateChanged();
    });
    connect(m_controller, &CrowdController::runReady, this, [this](const CrowdRun& run) {
        m_run = run;
        const cx::CrowdLabels& data = *m_controller->data();
        m_results->showRun(data, run);
        m_status->setText(crowdRunSummary(data, *run.result));
        for (QAction* action :
             {m_exportLabels, m_exportWorkers, m_exportConvergence, m_exportCmi}) {
            action->setEnabled(true);
        }
        emit sessionStateChanged();
    });
    connect(m_controller, &CrowdController::comparisonStep, this, [this](const CrowdRun& run) {
        m_results->addComparisonRow(*m_controller->data(), run);
    });
    connect(m_controller, &CrowdController::comparisonDone, this, [this](bool complete) {
        m_results->finishComparison(*m_controller->data(), complete);
        // A comparison started after a parameter change (or before the first fit) cancelled
        // that fit: fit now, unless another task already runs.
        if (!m_controller->isBusy() && !shownRunIsCurrent()) {
            refit();
        }
        emit sessionStateChanged();
    });
}

int CrowdWorkspace::openPreference(const QString& path) const {
    if (QFileInfo(path).isDir()) {
        return 0;
    }
    const cx::CrowdFileKind kind = cx::sniffCrowdFile(path.toStdString());
    if (kind == cx::CrowdFileKind::Labels ||
        (kind == cx::CrowdFileKind::Gold && m_controller->data())) {
        return 2;
    }
    return 0;
}

namespace {

/// The labels and the gold file among `paths` (empty when absent).
std::pair<QString, QString> labelsAndGold(const QStringList& paths) {
    QString labels;
    QString gold;
    for (const QString& path : paths) {
        const cx::CrowdFileKind kind = cx::sniffCrowdFile(path.toStdString());
        if (kind == cx::CrowdFileKind::Labels && labels.isEmpty()) {
            labels = path;
        } else if (kind == cx::CrowdFileKind::Gold) {
            gold = path;
        }
    }
    return {labels, gold};
}

} // namespace

int CrowdWorkspace::openPathsPreference(const QStringList& paths) const {
    if (paths.size() != 2) {
        return 0;
    }
    const auto [labels, gold] = labelsAndGold(paths);
    return !labels.isEmpty() && !gold.isEmpty() ? 3 : 0;
}

void CrowdWorkspace::openPaths(const QStringList& paths) {
    const auto [labels, gold] = labelsAndGold(paths);
    openFiles(labels, gold);
}

bool CrowdWorkspace::canOpen(const QString& path) const {
    return openPreference(path) > 0;
}

void CrowdWorkspace::openPath(const QString& path) {
    if (cx::sniffCrowdFile(path.toStdString()) == cx::CrowdFileKind::Gold && m_controller->data()) {
        openFiles(m_controller->labelsPath(), path);
    } else {
        openFiles(path, QString());
    }
}

void CrowdWorkspace::openInteractive() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Crowd Labels"), settings.value(kDirectoryKey).toString(),
        tr("Label files (*.csv *.tsv *.txt *.gz);;All files (*)"));
    if (!path.isEmpty()) {
        settings.setValue(kDirectoryKey, QFileInfo(path).absolutePath());
        openFiles(path, QString());
    }
}

void CrowdWorkspace::openFiles(const QString& labelsPath, const QString& goldPath) {
    m_controller->open(labelsPath, goldPath);
}

QList<QAction*> CrowdWorkspace::exportActions() const {
    return {m_exportLabels, m_exportWorkers, m_exportConvergence, m_exportCmi};
}

void CrowdWorkspace::cancelTask() {
    m_controller->cancel();
}

bool CrowdWorkspace::isSettled() const {
    return (m_run.has_value() || m_fitEndedWithoutRun) && !m_controller->isBusy() &&
           !m_pendingSection;
}

bool CrowdWorkspace::shownRunIsCurrent() const {
    if (!m_run) {
        return false;
    }
    const cx::CrowdOptions& shown = m_controller->shownOptions();
    const cx::CrowdOptions wanted = options();
    return m_controller->shownMethod() == method() && shown.numComponents == wanted.numComponents &&
           shown.seed == wanted.seed && shown.restarts == wanted.restarts &&
           shown.em.maxIterations == wanted.em.maxIterations &&
           shown.em.smoothing == wanted.em.smoothing && shown.significance == wanted.significance &&
           shown.extensionSignificance == wanted.extensionSignificance &&
           shown.extensionProcedure == wanted.extensionProcedure;
}

QList<WorkspaceFigure> CrowdWorkspace::figures() const {
    QList<WorkspaceFigure> out = Workspace::figures();
    const auto chart = [](IterationChartView* view, const QString& title) {
        WorkspaceFigure figure;
        figure.name = view->objectName();
        figure.title = title;
        figure.size = view->figureSize();
        figure.paint = [view](QPainter& painter, const QRectF& target) {
            view->paintFigure(painter, target);
        };
        figure.data = [view] { return view->figureData(); };
        return figure;
    };
    // A chart with nothing to draw (majority vote does not iterate) is no figure.
    if (m_run && !m_results->likelihoodChart()->figureData().isEmpty()) {
        out << chart(m_results->likelihoodChart(), tr("Log-likelihood per iteration"));
        if (!m_results->informativeChart()->lines().isEmpty()) {
            out << chart(m_results->informativeChart(),
                         tr("Informative set size and largest CMI per iteration"));
        }
    }
    return out;
}

QList<WorkspaceTable> CrowdWorkspace::tables() const {
    QList<WorkspaceTable> out = Workspace::tables();
    if (m_run && m_controller->data()) {
        const std::shared_ptr<const cx::CrowdResult> result = m_run->result;
        const auto data = m_controller->data();
        out.prepend({QStringLiteral("labels"), [data, result] {
                         return QString::fromStdString(cx::crowdLabelsTable(*data, *result));
                     }});
    }
    return out;
}

QJsonObject CrowdWorkspace::figureProvenance() const {
    const cx::CrowdOptions fitted = m_controller->shownOptions();
    QJsonObject out{{QStringLiteral("labels"), m_controller->labelsPath()},
                    {QStringLiteral("method"),
                     QString::fromLatin1(cx::crowdMethodName(m_controller->shownMethod()))},
                    {QStringLiteral("K"), fitted.numComponents},
                    {QStringLiteral("seed"), QString::number(fitted.seed)},
                    {QStringLiteral("restarts"), fitted.restarts},
                    {QStringLiteral("max_iter"), fitted.em.maxIterations},
                    {QStringLiteral("smoothing"), fitted.em.smoothing},
                    {QStringLiteral("significance"), fitted.significance},
                    {QStringLiteral("extension_significance"), fitted.extensionSignificance},
                    {QStringLiteral("extension_procedure"),
                     QString::fromLatin1(cx::multipleTestingName(fitted.extensionProcedure))}};
    if (!m_controller->goldPath().isEmpty()) {
        out.insert(QStringLiteral("gold"), m_controller->goldPath());
    }
    if (m_run && std::isfinite(m_run->result->errorRate)) {
        out.insert(QStringLiteral("error_rate"), m_run->result->errorRate);
    }
    return out;
}

void CrowdWorkspace::setMethod(cx::CrowdMethod method) {
    m_method->setCurrentIndex(m_method->findData(static_cast<int>(method)));
}

cx::CrowdMethod CrowdWorkspace::method() const {
    return static_cast<cx::CrowdMethod>(m_method->currentData().toInt());
}

void CrowdWorkspace::setNumComponents(int k) {
    m_components->setValue(k);
}

void CrowdWorkspace::setSeed(int seed) {
    m_seed->setValue(seed);
}

cx::CrowdOptions CrowdWorkspace::options() const {
    cx::CrowdOptions options = m_sessionBase.options();
    options.numComponents = m_components->value();
    options.seed = static_cast<std::uint64_t>(m_seed->value());
    return options;
}

void CrowdWorkspace::refit() {
    if (!m_controller->data()) {
        return;
    }
    m_controller->run(method(), options());
    emit settledChanged();
    emit sessionStateChanged();
}

void CrowdWorkspace::compareMethods() {
    if (m_controller->isLoading()) {
        // Compared once the labels being read are there (dataLoaded): comparing the old
        // labels now would drop the new ones.
        m_compareAfterLoad = true;
        return;
    }
    if (!m_controller->data()) {
        return;
    }
    m_results->startComparison(*m_controller->data());
    m_comparisonStale->setResult(
        crowdProvenance(m_controller->labelsPath(), m_controller->goldPath(), options()));
    m_results->setCurrentIndex(m_results->indexOf(m_results->comparisonTable()->parentWidget()));
    m_controller->compare(options());
}

void CrowdWorkspace::updateSummary() {
    m_summary->setText(crowdDataSummary(*m_controller->data(), m_controller->labelsPath(),
                                        m_controller->goldPath()));
    m_openGold->setEnabled(true);
    m_compare->setEnabled(true);
}

void CrowdWorkspace::exportLabels() {
    if (!m_run || !m_controller->data()) {
        return;
    }
    const std::string text = cx::crowdLabelsTable(*m_controller->data(), *m_run->result);
    exportTextInteractively(this, tr("Aggregated Labels"), QStringLiteral("labels"),
                            {tr("Tab-separated values (*.tsv)")},
                            [text](const QString&) { return QString::fromStdString(text); });
}

} // namespace cx::ui
