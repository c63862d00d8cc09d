// CrowdWorkspace: its section of a project session (.cxproj): labels and gold files, method, K,
// seed, the options without a control (restarts, iterations, smoothing, both significance
// levels) and the view state (worker search and sort, whether the method comparison was shown).
#include "ui/crowd/crowd_workspace.h"

#include "core/common/error.h"
#include "ui/crowd/crowd_controller.h"
#include "ui/crowd/crowd_results_panel.h"
#include "ui/framework/provenance.h"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

namespace cx::ui {

namespace {

std::filesystem::path absolutePath(const QString& path) {
    return path.isEmpty() ? std::filesystem::path()
                          : std::filesystem::path(QFileInfo(path).absoluteFilePath().toStdString());
}

} // namespace

void CrowdWorkspace::connectSessionSignals() {
    const auto changed = [this] { emit sessionStateChanged(); };
    connect(m_results, &CrowdResultsPanel::workerViewChanged, this, changed);
}

bool CrowdWorkspace::hasSessionData() const {
    return m_pendingSection.has_value() ||
           (m_controller->data() && !m_controller->labelsPath().isEmpty());
}

cx::CrowdSection CrowdWorkspace::currentSection() const {
    if (m_pendingSection) {
        return *m_pendingSection;
    }
    cx::CrowdSection section = m_sessionBase;
    section.labels = absolutePath(m_controller->labelsPath());
    section.gold = absolutePath(m_controller->goldPath());
    section.method = cx::crowdMethodName(method());
    section.numComponents = m_components->value();
    section.seed = static_cast<std::uint64_t>(m_seed->value());
    section.workerFilter = m_results->workerFilter().toStdString();
    section.workerSortColumn = m_results->workerSortColumn();
    section.workerSortDescending = m_results->workerSortDescending();
    section.compare = !m_results->compared().empty();
    section.savedBy.clear();
    return section;
}

void CrowdWorkspace::checkSection(const cx::Session& session,
                                  const cx::CrowdSection& section) const {
    if (section.seed > 1000000) {
        throw cx::InputError(session.file.string(), 0,
                             "/workspaces/crowd/model/seed: " + std::to_string(section.seed) +
                                 " is above 1000000, the largest seed the Crowd workspace shows");
    }
}

void CrowdWorkspace::clearSession() {
    m_pendingSection.reset();
    m_sessionBase = {};
    m_controller->clear();
    m_run.reset();
    m_fitEndedWithoutRun = false;
    m_results->clear();
    m_comparisonStale->clearResult();
    m_status->clear();
    m_summary->setText(tr("CSV or TSV with item, worker and label columns (any order, header "
                          "names such as question/worker/answer), and optionally a gold file "
                          "(item, truth)."));
    m_openGold->setEnabled(false);
    m_compare->setEnabled(false);
    for (QAction* action : {m_exportLabels, m_exportWorkers, m_exportConvergence, m_exportCmi}) {
        action->setEnabled(false);
    }
    emit documentTitleChanged(QString());
    emit sessionStateChanged();
    emit settledChanged();
}

void CrowdWorkspace::openSection(const cx::CrowdSection& section) {
    const QString labels = QString::fromStdString(section.labels.string());
    const QString gold = QString::fromStdString(section.gold.string());
    const bool sameFiles =
        m_controller->data() && !m_controller->isBusy() &&
        QFileInfo(m_controller->labelsPath()).absoluteFilePath() ==
            QFileInfo(labels).absoluteFilePath() &&
        (gold.isEmpty() ? m_controller->goldPath().isEmpty()
                        : QFileInfo(m_controller->goldPath()).absoluteFilePath() ==
                              QFileInfo(gold).absoluteFilePath());
    if (sameFiles) {
        applySection(section); // the labels open are the session's: keep them
        emit sessionStateChanged();
        return;
    }
    // Nothing changes until the labels are read: labels that fail to load leave the current
    // analysis as it was.
    m_pendingSection = section;
    m_controller->open(labels, gold);
    emit settledChanged();
    emit sessionStateChanged();
}

void CrowdWorkspace::applySection(const cx::CrowdSection& section) {
    m_sessionBase = section;
    m_sessionBase.savedBy.clear();
    {
        // One fit for the whole section, not one per control.
        const QSignalBlocker blockMethod(m_method);
        const QSignalBlocker blockK(m_components);
        const QSignalBlocker blockSeed(m_seed);
        setMethod(cx::parseCrowdMethod(section.method).value_or(cx::CrowdMethod::StagewiseRefine));
        m_components->setValue(section.numComponents);
        m_lastComponents = section.numComponents;
        m_seed->setValue(static_cast<int>(section.seed));
    }
    m_results->setWorkerFilter(QString::fromStdString(section.workerFilter));
    m_results->setWorkerSort(section.workerSortColumn, section.workerSortDescending);
    if (section.compare) {
        compareMethods(); // then the fit (comparisonDone)
    } else {
        // The section shows no comparison: one shown from earlier settings goes (its K and seed
        // were just replaced with their signals blocked: it would stand unmarked).
        if (!m_results->compared().empty()) {
            m_results->clearComparison();
            m_comparisonStale->clearResult();
        }
        if (!shownRunIsCurrent() || m_controller->isBusy()) {
            refit();
        }
    }
    m_comparisonStale->refresh();
    emit settledChanged();
}

} // namespace cx::ui
