// TopicsWorkspace: sessions (what a session records, opening one) and opening data. The
// workspace's panels and views are wired in topics_workspace.cpp.
#include "ui/topics/topics_workspace.h"

#include "ui/topics/selection_picker.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_data_panel.h"

#include "core/io/corpus_loader.h"
#include "core/io/selection.h"

#include <QAction>
#include <QFileInfo>
#include <QLocale>

#include <algorithm>
#include <map>

namespace cx::ui {

namespace {

bool fieldsExist(const cx::Corpus& corpus, const QString& rule) {
    try {
        for (const cx::RuleClause& clause : cx::SelectionRule::parse(rule.toStdString()).clauses) {
            if (corpus.labelFieldIndex(clause.field) < 0) {
                return false;
            }
        }
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace

bool TopicsWorkspace::hasSessionData() const {
    if (m_pendingSection) {
        return true;
    }
    // In-memory corpora (tests, synthetic data) have no file a session could name.
    const CorpusHandle& corpus = m_controller->corpus();
    return corpus.corpus && !corpus.source.isEmpty() &&
           QFileInfo::exists(corpus.source.split(QLatin1Char(',')).front());
}

cx::TopicsSection TopicsWorkspace::currentSection() const {
    if (m_pendingSection) {
        return *m_pendingSection;
    }
    cx::TopicsSection section;
    const CorpusHandle& corpus = m_controller->corpus();
    for (const QString& path : corpus.source.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        section.corpus.emplace_back(QFileInfo(path).absoluteFilePath().toStdString());
    }
    section.reader = corpus.options;
    if (m_controller->hasSelection()) {
        const SelectionSpec& selection = m_controller->selection();
        section.foreground = selection.foregroundRule.toStdString();
        section.backgroundMode = selection.backgroundMode == BackgroundMode::Rule ? "rule"
                                 : selection.backgroundMode == BackgroundMode::All
                                     ? "all"
                                     : "not_foreground";
        section.background = selection.backgroundRule.toStdString();
    }
    const ModelParameters& parameters = m_controller->parameters();
    section.numComponents = parameters.numComponents;
    section.iterations = parameters.iterations;
    section.restarts = parameters.restarts;
    section.decomposition = cx::toString(parameters.decomposition);
    section.seed = parameters.seed;
    section.gamma = m_controller->gamma();
    section.positive = m_controller->sweep().positiveRule.toStdString();
    section.smoothing = m_controller->sweep().smoothing.alpha;
    section.smoothingPrior = cx::smoothingPriorName(m_controller->sweep().smoothing.prior);
    section.aucGammas = m_specificityPanel->lastValidGammaGridText().toStdString();
    section.splitHalf = m_controller->sweep().splitHalf;
    section.topWords = m_tablePanel->model()->topWordCount();
    section.allComponents = m_tablePanel->showAllAction()->isChecked();
    // By the ids a fresh path gives (reopening solves afresh), not the carried ones shown.
    const auto sweep = m_controller->lastSweep();
    for (const auto& [identity, name] : m_tablePanel->model()->identityNames()) {
        const int canonical = sweep ? cx::canonicalIdentity(sweep->path, identity) : identity;
        if (canonical >= 0) {
            section.topicNames[canonical] = name.toStdString();
        }
    }
    // The bands shown (or being computed, or still to be recomputed after reopening).
    section.bootstrap =
        m_pendingBootstrap > 0 ? m_pendingBootstrap : m_controller->bandReplicates();
    if (section.positive.empty()) {
        section.bootstrap = 0;
    }
    return section;
}

void TopicsWorkspace::clearSession() {
    m_pendingSection.reset();
    m_pendingBootstrap = 0;
    m_lastApplied.reset();
    m_loadingPath.clear();
    m_controller->cancelTask();
    m_controller->setCorpus(CorpusHandle{});
    emit documentTitleChanged(QString());
    emit sessionStateChanged();
    emit settledChanged();
}

namespace {
bool sameReaderOptions(const cx::CorpusLoadOptions& a, const cx::CorpusLoadOptions& b) {
    return a.format == b.format && a.removeStopWords == b.removeStopWords &&
           a.minDocumentFrequency == b.minDocumentFrequency && a.maxVocabulary == b.maxVocabulary &&
           a.minTokens == b.minTokens && a.removeNumbers == b.removeNumbers &&
           a.maxDocumentFraction == b.maxDocumentFraction;
}
} // namespace

void TopicsWorkspace::openSection(const cx::TopicsSection& section) {
    const QString spec = QString::fromStdString(section.corpusSpec());
    const CorpusHandle& loaded = m_controller->corpus();
    m_loadingPath.clear(); // a session's corpus goes into the recent files as the session
    if (loaded.corpus && loaded.source == spec &&
        sameReaderOptions(loaded.options, section.reader)) {
        // Same data, same reader options: keep the corpus (and the controller's engine cache).
        applySection(section);
        emit sessionStateChanged();
        return;
    }
    m_pendingSection = section;
    m_controller->loadCorpus(spec, section.reader);
    emit settledChanged();
    emit sessionStateChanged();
}

void TopicsWorkspace::openCorpus(const CorpusHandle& corpus) {
    m_pendingSection.reset();
    m_pendingBootstrap = 0;
    m_loadingPath.clear();
    m_controller->setCorpus(corpus);
}

void TopicsWorkspace::onCorpusChanged(const CorpusHandle& corpus) {
    // Names belong to the topics of the data they were given on (a session restores its own).
    m_tablePanel->model()->setIdentityNames({});
    m_dataPanel->setCorpus(corpus);
    m_specificityPanel->setCorpus(corpus.corpus);
    m_tablePanel->setPlaceholder(
        corpus.corpus ? tr("Choose the foreground and the background on the left, then press "
                           "Compute moments.")
                      : tr("Open a corpus, choose a foreground and a background, then compute."));
    if (corpus.corpus) {
        const QFileInfo info(corpus.source);
        emit documentTitleChanged(info.exists() && !info.fileName().isEmpty() ? info.fileName()
                                                                              : corpus.source);
        if (!m_loadingPath.isEmpty() && corpus.source == m_loadingPath) {
            emit pathOpened(m_loadingPath);
        }
        emit statusMessage(
            tr("Loaded %1 documents")
                .arg(QLocale().toString(static_cast<qint64>(corpus.corpus->numDocuments()))));
    }
    if (m_pendingSection) {
        const cx::TopicsSection section = *m_pendingSection;
        m_pendingSection.reset();
        applySection(section);
        emit settledChanged();
        return;
    }
    // Reloading (e.g. with other tokenizer options): keep the previous choice when it fits.
    if (corpus.corpus && m_lastApplied &&
        fieldsExist(*corpus.corpus, m_lastApplied->foregroundRule) &&
        (m_lastApplied->backgroundMode != BackgroundMode::Rule ||
         fieldsExist(*corpus.corpus, m_lastApplied->backgroundRule))) {
        m_dataPanel->setSelection(*m_lastApplied);
        applyPendingSelection();
    } else {
        m_lastApplied.reset();
        if (corpus.corpus) {
            // Nothing picked yet: the background defaults to the rest of the corpus.
            m_dataPanel->backgroundPicker()->setBackgroundMode(BackgroundMode::NotForeground);
        }
    }
    emit settledChanged();
}

void TopicsWorkspace::applySection(const cx::TopicsSection& section) {
    m_controller->forgetIdentities(); // the session's names are keyed by fresh ids
    ModelParameters parameters = m_analysisPanel->parameters();
    parameters.numComponents = std::min(section.numComponents, TopicsAnalysisPanel::kMaxComponents);
    parameters.seed = section.seed;
    parameters.iterations = section.iterations;
    parameters.restarts = section.restarts;
    parameters.decomposition = cx::parseDecomposition(section.decomposition);
    m_analysisPanel->setParameters(parameters);
    m_controller->setParameters(parameters);
    setGammaEverywhere(section.gamma);
    m_specificityPanel->setSmoothing(
        cx::ScorerSmoothing(section.smoothing, cx::parseSmoothingPrior(section.smoothingPrior)));
    m_specificityPanel->setGammaGrid(QString::fromStdString(section.aucGammas));
    m_specificityPanel->setPositiveRule(QString::fromStdString(section.positive));
    m_specificityPanel->setSplitHalf(section.splitHalf);
    m_tablePanel->setTopWordCount(section.topWords);
    m_tablePanel->setShowAll(section.allComponents);
    std::map<int, QString> names;
    for (const auto& [identity, name] : section.topicNames) {
        names[identity] = QString::fromStdString(name);
    }
    m_tablePanel->model()->setIdentityNames(names);
    // A saved bootstrap is run again, seeded as before (the same bands), once the sweep's path
    // is there.
    m_pendingBootstrap = section.bootstrap;
    if (section.bootstrap > 0) {
        m_specificityPanel->setBootstrapReplicates(section.bootstrap);
    }
    if (section.foreground.empty()) {
        return; // saved before a foreground was chosen
    }
    SelectionSpec selection;
    selection.foregroundRule = QString::fromStdString(section.foreground);
    if (section.backgroundMode == "rule" && !section.background.empty()) {
        selection.backgroundRule = QString::fromStdString(section.background);
    } else {
        selection.backgroundMode =
            section.backgroundMode == "all" ? BackgroundMode::All : BackgroundMode::NotForeground;
    }
    m_dataPanel->setSelection(selection);
    applyPendingSelection();
    // Nothing to recompute (the same data, choice and sweep as shown): bootstrap the shown
    // sweep now; otherwise once the new sweep's path lands (sweepPathReady).
    if (!m_controller->isTaskRunning() && !m_controller->isSweepRunning()) {
        if (const auto sweep = m_controller->lastSweep()) {
            // The shown path stays (it may be a carried one): its ids for the saved names.
            std::map<int, QString> shown;
            for (const auto& [canonical, name] : names) {
                const int id = cx::identityOfCanonical(sweep->path, canonical);
                if (id >= 0) {
                    shown[id] = name;
                }
            }
            m_tablePanel->model()->setIdentityNames(shown);
        }
        startPendingBootstrap();
    }
}

void TopicsWorkspace::dropNamesOfVanishedTopics() {
    const auto sweep = m_controller->lastSweep();
    if (!sweep) {
        return;
    }
    std::map<int, QString> names = m_tablePanel->model()->identityNames();
    const auto before = names.size();
    std::erase_if(names, [&sweep](const auto& entry) {
        return std::none_of(sweep->path.ids.begin(), sweep->path.ids.end(),
                            [&entry](const std::vector<int>& row) {
                                return std::find(row.begin(), row.end(), entry.first) != row.end();
                            });
    });
    if (names.size() != before) {
        m_tablePanel->model()->setIdentityNames(names);
    }
}

void TopicsWorkspace::applyPendingSelection() {
    if (!m_dataPanel->isPendingValid()) {
        return;
    }
    const SelectionSpec selection = m_dataPanel->pendingSelection();
    m_controller->previewSelection(selection);
    m_controller->applySelection(selection);
    m_dataPanel->setAppliedSelection(selection, true);
    emit settledChanged();
}

void TopicsWorkspace::startPendingBootstrap() {
    if (m_pendingBootstrap <= 0 || !m_controller->lastSweep() || m_controller->isSweepRunning()) {
        return;
    }
    const int replicates = m_pendingBootstrap;
    m_pendingBootstrap = 0;
    m_controller->startBootstrap(replicates);
    emit statusMessage(tr("Recomputing the session's bootstrap (%1 resamples)").arg(replicates));
}

} // namespace cx::ui
