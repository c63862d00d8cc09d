#include "ui/crowd/crowd_workspace.h"

#include "core/crowd/crowd_tables.h"
#include "core/io/crowd_labels.h"
#include "ui/charts/iteration_chart_view.h"
#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_results_panel.h"
#include "ui/dialogs/image_export_dialog.h"
#include "ui/dialogs/text_export.h"
#include "ui/framework/error_reporter.h"
#include "ui/framework/workspace_support.h"
#include "ui/chromatin/state_matrix_model.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/form_widgets.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace cx::ui {

namespace {

const char* const kDirectoryKey = "crowd.directory";

QString methodLabel(cx::CrowdMethod method) {
    switch (method) {
    case cx::CrowdMethod::MajorityVote:
        return QObject::tr("Majority vote");
    case cx::CrowdMethod::Em:
        return QObject::tr("EM (random restarts)");
    case cx::CrowdMethod::MvEm:
        return QObject::tr("Dawid–Skene EM from majority vote");
    case cx::CrowdMethod::SpectralEm:
        return QObject::tr("Spectral-initialised EM");
    case cx::CrowdMethod::Stagewise:
        return QObject::tr("Stagewise EM");
    case cx::CrowdMethod::StagewiseRefine:
        return QObject::tr("Stagewise EM + refine");
    }
    return {};
}

} // namespace

CrowdWorkspace::CrowdWorkspace(QWidget* parent) : Workspace(parent) {
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
    auto* controlLayout = new QHBoxLayout(controls);
    m_method = new QComboBox(controls);
    for (cx::CrowdMethod method : cx::allCrowdMethods()) {
        m_method->addItem(methodLabel(method), static_cast<int>(method));
    }
    setMethod(cx::CrowdMethod::StagewiseRefine);
    m_components = numberSpin(0, 64, 0, 70, controls);
    m_components->setSpecialValueText(tr("classes"));
    m_components->setToolTip(tr("Number of mixture components (0 = the number of classes)"));
    m_method->setToolTip(tr("<p>How the true labels and each worker's confusion matrix are "
                            "estimated from the workers' labels.</p><p><b>Stagewise EM</b> is "
                            "paper 004's method; majority vote, EM from random restarts or from "
                            "majority vote, and spectral-initialised EM are its baselines.</p>"));
    m_seed = numberSpin(0, 1000000, 1, 70, controls);
    m_seed->setToolTip(tr("Seed of the random draws (initial splits and restarts)"));
    m_compare = new QPushButton(tr("Compare methods"), controls);
    m_compare->setEnabled(false);
    controlLayout->addWidget(fieldLabel(tr("Method"), m_method, controls));
    controlLayout->addWidget(m_method);
    controlLayout->addWidget(fieldLabel(tr("K"), m_components, controls));
    controlLayout->addWidget(m_components);
    controlLayout->addWidget(fieldLabel(tr("Seed"), m_seed, controls));
    controlLayout->addWidget(m_seed);
    controlLayout->addWidget(m_compare);
    m_status = new QLabel(controls);
    m_status->setWordWrap(true);
    controlLayout->addWidget(m_status, 1);

    m_results = new CrowdResultsPanel;
    layOutWorkspace(this, dataPanel, 240, controls, m_results, {280, 1160});

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

    forwardControllerReports(m_controller, this);
    connect(m_controller, &CrowdController::taskStarted, this, &Workspace::taskStarted);
    connect(m_controller, &CrowdController::taskFinished, this, [this](const QString& outcome) {
        emit taskFinished(outcome);
        emit settledChanged();
    });
    connect(m_controller, &CrowdController::dataLoaded, this, [this] {
        m_run.reset();
        m_results->clear();
        updateSummary();
        emit pathOpened(m_controller->labelsPath());
        emit documentTitleChanged(QFileInfo(m_controller->labelsPath()).fileName());
        refit(); // the load task has finished: the controller is free
    });
    connect(m_controller, &CrowdController::runReady, this, [this](const CrowdRun& run) {
        m_run = run;
        const cx::CrowdLabels& data = *m_controller->data();
        m_results->showRun(data, run);
        const cx::CrowdResult& result = *run.result;
        QString text = tr("<b>%1</b>: ").arg(QString::fromLatin1(cx::crowdMethodName(run.method)));
        if (std::isfinite(result.errorRate)) {
            text += tr("error <b>%1 %</b> on %2 gold items · ")
                        .arg(100 * result.errorRate, 0, 'f', 2)
                        .arg(data.numGold());
        }
        text += tr("%1 of %2 workers informative · %3 iterations · %4 ms")
                    .arg(result.informativeSetSize())
                    .arg(data.numWorkers)
                    .arg(result.iterations)
                    .arg(result.elapsedMs, 0, 'f', 1);
        for (const std::string& note : result.notes) {
            text += QStringLiteral("<br>") + QString::fromStdString(note).toHtmlEscaped();
        }
        m_status->setText(text);
        for (QAction* action : {m_exportLabels, m_exportWorkers, m_exportConvergence, m_exportCmi}) {
            action->setEnabled(true);
        }
    });
    connect(m_controller, &CrowdController::comparisonStep, this, [this](const CrowdRun& run) {
        m_results->addComparisonRow(*m_controller->data(), run);
    });
    connect(m_controller, &CrowdController::comparisonDone, this, [this](bool complete) {
        m_results->finishComparison(*m_controller->data(), complete);
        // A comparison started before the first fit finished cancelled it: fit now.
        if (!m_run) {
            refit();
        }
    });
}

CrowdWorkspace::~CrowdWorkspace() = default;

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
    return m_run.has_value() && !m_controller->isBusy();
}

void CrowdWorkspace::setMethod(cx::CrowdMethod method) {
    m_method->setCurrentIndex(m_method->findData(static_cast<int>(method)));
}

cx::CrowdMethod CrowdWorkspace::method() const {
    return static_cast<cx::CrowdMethod>(m_method->currentData().toInt());
}

cx::CrowdOptions CrowdWorkspace::options() const {
    cx::CrowdOptions options;
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
}

void CrowdWorkspace::compareMethods() {
    if (!m_controller->data()) {
        return;
    }
    m_results->startComparison(*m_controller->data());
    m_results->setCurrentIndex(m_results->indexOf(m_results->comparisonTable()->parentWidget()));
    m_controller->compare(options());
}

void CrowdWorkspace::updateSummary() {
    const cx::CrowdLabels& data = *m_controller->data();
    QStringList classes;
    for (const std::string& name : data.classNames) {
        classes << QString::fromStdString(name);
    }
    QString text = tr("<b>%1</b><br>%2 items · %3 workers · %4 labels<br>classes: %5")
                       .arg(QFileInfo(m_controller->labelsPath()).fileName().toHtmlEscaped())
                       .arg(data.numItems)
                       .arg(data.numWorkers)
                       .arg(data.observations.size())
                       .arg(classes.join(QStringLiteral(", ")).toHtmlEscaped());
    const double density = static_cast<double>(data.observations.size()) /
                           (static_cast<double>(data.numItems) * data.numWorkers);
    text += tr("<br>%1 % of the item × worker matrix labelled").arg(100 * density, 0, 'f', 1);
    if (data.hasGold()) {
        text += tr("<br>gold: %1 items%2")
                    .arg(data.numGold())
                    .arg(m_controller->goldPath().isEmpty()
                             ? tr(" (gold column)")
                             : tr(" from %1").arg(QFileInfo(m_controller->goldPath()).fileName()));
    } else {
        text += tr("<br>no gold labels");
    }
    for (const std::string& warning : data.warnings) {
        text += QStringLiteral("<br><i>") + QString::fromStdString(warning).toHtmlEscaped() +
                QStringLiteral("</i>");
    }
    m_summary->setText(text);
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
