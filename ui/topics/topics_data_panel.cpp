#include "ui/topics/topics_data_panel.h"

#include "ui/topics/selection_picker.h"
#include "ui/widgets/form_widgets.h"
#include "ui/widgets/plural.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

namespace cx::ui {

namespace {

QString count(std::int64_t n) {
    return QLocale().toString(static_cast<qint64>(n));
}

} // namespace

TopicsDataPanel::TopicsDataPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 8, 10);
    layout->setSpacing(6);

    auto* corpusHeader = new QHBoxLayout;
    corpusHeader->addWidget(sectionTitle(tr("CORPUS"), this));
    corpusHeader->addStretch(1);
    m_open = new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open…"), this);
    m_open->setToolTip(tr("Open a corpus file or folder (Ctrl+O); you can also drop it on the "
                          "window"));
    corpusHeader->addWidget(m_open);
    layout->addLayout(corpusHeader);

    m_corpusName = new QLabel(tr("No corpus loaded"), this);
    m_corpusName->setObjectName(QStringLiteral("corpusName"));
    m_corpusName->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_corpusName->setWordWrap(true);
    layout->addWidget(m_corpusName);
    m_corpusDetails = new QLabel(tr("Open a Reuters SGML folder, a TSV/CSV file with label "
                                    "columns, a UCI docword file or a folder of .txt files."),
                                 this);
    m_corpusDetails->setObjectName(QStringLiteral("hint"));
    m_corpusDetails->setWordWrap(true);
    layout->addWidget(m_corpusDetails);

    layout->addSpacing(6);
    layout->addWidget(sectionTitle(tr("FOREGROUND AND BACKGROUND"), this));
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_foreground = new SelectionPicker(SelectionPicker::Role::Foreground, m_tabs);
    m_background = new SelectionPicker(SelectionPicker::Role::Background, m_tabs);
    m_tabs->addTab(m_foreground, tr("Foreground"));
    m_tabs->addTab(m_background, tr("Background"));
    layout->addWidget(m_tabs, 1);

    m_counts = new QLabel(this);
    m_counts->setObjectName(QStringLiteral("counts"));
    m_counts->setWordWrap(true);
    layout->addWidget(m_counts);

    m_applyState = new QLabel(this);
    m_applyState->setObjectName(QStringLiteral("hint"));
    m_applyState->setWordWrap(true);
    layout->addWidget(m_applyState);
    auto* applyRow = new QHBoxLayout;
    m_apply = new QPushButton(tr("Compute moments"), this);
    m_apply->setObjectName(QStringLiteral("primaryButton"));
    m_apply->setToolTip(tr("Select the documents and compute the foreground and background "
                           "moments (Ctrl+Return). γ and K then update live."));
    m_apply->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_apply->setMinimumWidth(170);
    applyRow->addStretch(1);
    applyRow->addWidget(m_apply);
    layout->addLayout(applyRow);

    connect(m_open, &QPushButton::clicked, this, &TopicsDataPanel::openRequested);
    connect(m_apply, &QPushButton::clicked, this, &TopicsDataPanel::applyRequested);
    for (SelectionPicker* picker : {m_foreground, m_background}) {
        connect(picker, &SelectionPicker::selectionChanged, this, [this] {
            updateApplyState();
            emit selectionEdited();
        });
        connect(picker, &SelectionPicker::applyRequested, this, [this] {
            if (m_apply->isEnabled()) {
                emit applyRequested();
            }
        });
    }
    setCorpus({});
}

void TopicsDataPanel::setCorpus(const CorpusHandle& corpus) {
    m_hasCorpus = corpus.corpus != nullptr;
    m_foreground->setCorpus(corpus.corpus);
    m_background->setCorpus(corpus.corpus);
    m_hasApplied = false;
    m_counts->clear();
    if (!corpus.corpus) {
        updateApplyState();
        return;
    }
    const cx::LoadReport& report = corpus.corpus->report;
    const QFileInfo info(corpus.source);
    m_corpusName->setText(info.exists() && !info.fileName().isEmpty() ? info.fileName()
                                                                      : corpus.source);
    m_corpusName->setToolTip(corpus.source);
    QStringList details;
    details << tr("%1 documents · %2 words in the vocabulary")
                   .arg(count(corpus.corpus->numDocuments()), count(report.vocabularySize));
    QStringList extra;
    if (report.wordsDroppedByCap > 0) {
        extra << tr("%1 words dropped by the vocabulary cap of %2")
                     .arg(count(report.wordsDroppedByCap), count(report.vocabularyCap));
    }
    if (report.documentsSkippedShort > 0) {
        extra << tr("%1 short documents skipped").arg(count(report.documentsSkippedShort));
    }
    if (report.files.size() > 1) {
        extra << tr("%1 files").arg(report.files.size());
    }
    if (corpus.loadMs > 0) {
        extra << tr("loaded in %1 s").arg(corpus.loadMs / 1000.0, 0, 'f', 1);
    }
    if (!extra.isEmpty()) {
        details << extra.join(QStringLiteral(" · "));
    }
    QString tooltip = tr("%1 documents read, %2 kept, %3 tokens")
                          .arg(count(report.documentsRead), count(report.documentsKept),
                               count(report.tokensKept));
    const std::string capNote = cx::vocabularyCapNote(report);
    if (!capNote.empty()) {
        tooltip += QStringLiteral("<br>") + QString::fromStdString(capNote).toHtmlEscaped();
    }
    if (report.invalidBytes > 0) {
        details << tr("%1 read as Latin-1")
                       .arg(countOf(report.invalidBytes, tr("invalid UTF-8 byte"),
                                    tr("invalid UTF-8 bytes")));
    }
    if (!report.warnings.empty()) {
        details << tr("⚠ %1 — hover for details")
                       .arg(countOf(static_cast<qint64>(report.warnings.size()), tr("warning"),
                                    tr("warnings")));
        tooltip += QStringLiteral("<br><br>");
        const size_t shown = std::min<size_t>(report.warnings.size(), 20);
        for (size_t i = 0; i < shown; ++i) {
            tooltip +=
                QString::fromStdString(report.warnings[i]).toHtmlEscaped() + QStringLiteral("<br>");
        }
        if (shown < report.warnings.size()) {
            tooltip += tr("… and %1 more").arg(report.warnings.size() - shown);
        }
    }
    if (corpus.corpus->labels.empty()) {
        details << tr("This corpus has no label fields: foreground and background can only be "
                      "chosen as all documents.");
    }
    m_corpusDetails->setText(details.join(QLatin1Char('\n')));
    m_corpusDetails->setToolTip(tooltip);
    updateApplyState();
}

SelectionSpec TopicsDataPanel::pendingSelection() const {
    SelectionSpec spec;
    spec.foregroundRule = m_foreground->rule();
    spec.backgroundMode = m_background->backgroundMode();
    spec.backgroundRule =
        spec.backgroundMode == BackgroundMode::Rule ? m_background->rule() : QString();
    return spec;
}

bool TopicsDataPanel::isPendingValid() const {
    // An empty foreground rule would mean "every document"; require an explicit choice ("*"
    // selects everything) so that a fresh corpus does not start in an error state.
    return m_hasCorpus && !m_foreground->rule().isEmpty() && m_foreground->isValid() &&
           (m_background->backgroundMode() != BackgroundMode::Rule || m_background->isValid());
}

void TopicsDataPanel::setSelection(const SelectionSpec& selection) {
    m_background->setBackgroundMode(selection.backgroundMode);
    m_foreground->setRule(selection.foregroundRule);
    if (selection.backgroundMode == BackgroundMode::Rule) {
        m_background->setRule(selection.backgroundRule);
    }
    updateApplyState();
}

void TopicsDataPanel::setAppliedSelection(const SelectionSpec& selection, bool applied) {
    m_applied = selection;
    m_hasApplied = applied;
    updateApplyState();
}

void TopicsDataPanel::setPreview(const SelectionPreview& preview) {
    const auto describe = [](std::int64_t n, const QString& error) {
        if (!error.isEmpty()) {
            return QString();
        }
        return n < 0 ? QStringLiteral("–") : count(n);
    };
    QString text = tr("<b>%1</b> foreground · <b>%2</b> background")
                       .arg(describe(preview.foreground, preview.foregroundError),
                            describe(preview.background, preview.backgroundError));
    bool warning = false;
    if (preview.overlap > 0) {
        text += tr(" · <span style='color:#b35c00'>%1 in both</span>").arg(count(preview.overlap));
    }
    QStringList problems;
    if (!preview.foregroundError.isEmpty()) {
        problems << tr("Foreground: %1").arg(preview.foregroundError.toHtmlEscaped());
    }
    if (!preview.backgroundError.isEmpty()) {
        problems << tr("Background: %1").arg(preview.backgroundError.toHtmlEscaped());
    }
    if (preview.foreground == 0) {
        problems << tr("The foreground is empty.");
    }
    if (preview.background == 0) {
        problems << tr("The background is empty.");
    } else if (preview.background > 0 && preview.background < 10) {
        problems << tr("The background has only %1 documents: its moments are very noisy.")
                        .arg(preview.background);
    }
    for (const QString& w : preview.warnings) {
        problems << w.toHtmlEscaped();
    }
    if (!problems.isEmpty()) {
        warning = true;
        text += QStringLiteral("<br><span style='color:#b3261e'>") +
                problems.join(QStringLiteral("<br>")) + QStringLiteral("</span>");
    }
    m_counts->setText(text);
    m_foreground->setSummary(
        preview.foreground >= 0 ? tr("%1 documents").arg(count(preview.foreground)) : QString());
    m_background->setSummary(
        preview.background >= 0 ? tr("%1 documents").arg(count(preview.background)) : QString(),
        warning && preview.background >= 0 && preview.background < 10);
}

void TopicsDataPanel::setBusy(bool busy, bool loading) {
    m_busy = busy;
    m_loading = loading;
    updateApplyState();
}

void TopicsDataPanel::updateApplyState() {
    const bool valid = isPendingValid();
    const bool changed = !m_hasApplied || !(pendingSelection() == m_applied);
    m_apply->setEnabled(valid && changed && !m_loading);
    if (m_loading) {
        m_applyState->setText(tr("Loading a corpus…"));
    } else if (!m_hasCorpus) {
        m_applyState->setText(tr("Open a corpus first"));
    } else if (!valid) {
        m_applyState->setText(m_foreground->rule().isEmpty()
                                  ? tr("Pick the foreground documents (values or a rule)")
                                  : tr("Fix the rule to continue"));
    } else if (!changed) {
        m_applyState->setText(m_busy ? tr("Computing…") : tr("✓ Results match this choice"));
    } else {
        m_applyState->setText(m_hasApplied ? tr("Choice changed — compute to update")
                                           : tr("Pick documents, then compute"));
    }
}

} // namespace cx::ui
