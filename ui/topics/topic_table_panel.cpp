#include "ui/topics/topic_table_panel.h"

#include "ui/dialogs/text_export.h"
#include "ui/topics/topic_word_delegate.h"
#include "ui/topics/topic_words_model.h"
#include "ui/widgets/export_helpers.h"
#include "ui/widgets/plural.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace cx::ui {

namespace {

constexpr int kMinimumColumnWidth = 130;

/// Keeps the column sizing right when the table is resized.
class ResizeWatcher : public QObject {
public:
    ResizeWatcher(QObject* parent, std::function<void()> onResize)
        : QObject(parent), m_onResize(std::move(onResize)) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize) {
            m_onResize();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_onResize;
};

} // namespace

TopicTablePanel::TopicTablePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 6, 14, 4);
    layout->setSpacing(4);

    auto* header = new QHBoxLayout;
    header->setSpacing(8);
    m_title = new QLabel(tr("Foreground-specific topics"), this);
    m_title->setObjectName(QStringLiteral("panelTitle"));
    header->addWidget(m_title);
    header->addStretch(1);
    auto* topLabel = new QLabel(tr("Top words"), this);
    topLabel->setObjectName(QStringLiteral("fieldLabel"));
    m_topWords = new QSpinBox(this);
    m_topWords->setRange(3, 50);
    m_topWords->setValue(15);
    m_topWords->setToolTip(tr("Words shown per topic"));
    topLabel->setBuddy(m_topWords);
    header->addWidget(topLabel);
    header->addWidget(m_topWords);
    header->addSpacing(6);
    m_showAll = new QCheckBox(tr("All components (signed)"), this);
    m_showAll->setToolTip(tr("Also show components with λ̂ < 0 (shared with or specific to the "
                             "background), with their negative weights (Ctrl+Shift+A)"));
    header->addWidget(m_showAll);
    header->addSpacing(6);

    m_showAllAction = new QAction(tr("Show &All Components"), this);
    m_showAllAction->setCheckable(true);
    m_showAllAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_copyAction = new QAction(tr("&Copy Topics"), this);
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_exportTableAction = new QAction(tr("Export Top-Words &Table (TSV/CSV)…"), this);
    m_exportTableAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportKeysAction = new QAction(tr("Export Topic &Keys (MALLET)…"), this);
    addAction(m_copyAction);

    auto* copyButton = new QToolButton(this);
    copyButton->setText(tr("Copy"));
    copyButton->setToolTip(tr("Copy the selected cells, or the whole table, as TSV (Ctrl+C)"));
    copyButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(copyButton, &QToolButton::clicked, this, &TopicTablePanel::copyToClipboard);
    header->addWidget(copyButton);
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exportButton);
    exportMenu->addAction(m_exportTableAction);
    exportMenu->addAction(m_exportKeysAction);
    exportButton->setMenu(exportMenu);
    header->addWidget(exportButton);
    layout->addLayout(header);

    m_model = new TopicWordsModel(this);
    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setItemDelegate(new TopicWordDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setCornerButtonEnabled(false);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 10);
    m_view->verticalHeader()->setMinimumWidth(28);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_view->horizontalHeader()->setMinimumSectionSize(kMinimumColumnWidth);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setObjectName(QStringLiteral("topicTable"));
    m_view->setProperty("exportName", QStringLiteral("top-words")); // Export All: top-words.tsv
    // The viewport's own resize: its new width is known then (the view's resize event comes
    // before the viewport is laid out, so a narrowing window kept the wider fit).
    m_view->viewport()->installEventFilter(
        new ResizeWatcher(this, [this] { updateColumnSizing(); }));

    m_placeholder = new QLabel(this);
    m_placeholder->setObjectName(QStringLiteral("placeholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_placeholder);
    layout->addWidget(m_stack, 1);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("statusLine"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true); // a long status never widens the window
    layout->addWidget(m_summary);

    connect(m_showAll, &QCheckBox::toggled, this, &TopicTablePanel::setShowAll);
    connect(m_showAllAction, &QAction::toggled, this, &TopicTablePanel::setShowAll);
    connect(m_topWords, &QSpinBox::valueChanged, this, &TopicTablePanel::setTopWordCount);
    connect(m_copyAction, &QAction::triggered, this, &TopicTablePanel::copyToClipboard);
    connect(m_exportTableAction, &QAction::triggered, this, &TopicTablePanel::exportTable);
    connect(m_exportKeysAction, &QAction::triggered, this, &TopicTablePanel::exportTopicKeys);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        updateColumnSizing();
        updatePlaceholder();
    });
    // Path identities rename the columns ("Topic T17"): the summary names them alike.
    connect(m_model, &QAbstractItemModel::headerDataChanged, this, [this] {
        updateSummary();
        updateColumnSizing(true); // a longer header ("⚠ …") widens its column
    });
    m_placeholderText = tr("Open a corpus, choose a foreground and a background, then compute.");
    updatePlaceholder();
    updateSummary();
}

void TopicTablePanel::setProblem(const QString& message) {
    m_problem = message;
    updateSummary();
}

void TopicTablePanel::setSolution(const TopicSolution& solution) {
    m_problem.clear();
    m_model->setSolution(solution);
    m_exportTableAction->setEnabled(solution.isValid());
    m_exportKeysAction->setEnabled(solution.isValid());
    updateSummary();
}

void TopicTablePanel::setWeightBands(const std::vector<double>& low,
                                     const std::vector<double>& high,
                                     const std::vector<double>& stability) {
    m_model->setWeightBands(low, high, stability);
    updateSummary();
}

QString TopicTablePanel::summaryText() const {
    return m_summary->text();
}

QString TopicTablePanel::placeholderText() const {
    return m_stack->currentWidget() == m_placeholder ? m_placeholder->text() : QString();
}

void TopicTablePanel::setUpdateLatency(double milliseconds) {
    m_latencyMs = milliseconds;
    updateSummary();
}

void TopicTablePanel::setPlaceholder(const QString& text) {
    m_placeholderText = text;
    updatePlaceholder();
}

void TopicTablePanel::setShowAll(bool showAll) {
    {
        const QSignalBlocker blockBox(m_showAll);
        const QSignalBlocker blockAction(m_showAllAction);
        m_showAll->setChecked(showAll);
        m_showAllAction->setChecked(showAll);
    }
    m_model->setShowAll(showAll);
    m_title->setText(showAll ? tr("All components") : tr("Foreground-specific topics"));
    updateSummary();
}

void TopicTablePanel::setTopWordCount(int count) {
    {
        const QSignalBlocker block(m_topWords);
        m_topWords->setValue(count);
    }
    m_model->setTopWordCount(count);
}

void TopicTablePanel::updateColumnSizing(bool onlyWiden) {
    QHeaderView* header = m_view->horizontalHeader();
    const int columns = m_model->columnCount();
    if (columns == 0) {
        return;
    }
    // Each column at least as wide as its header ("⚠ Topic T17", "ω = … · NPMI …") and a
    // readable word column.
    std::vector<int> widths(static_cast<size_t>(columns));
    int total = 0;
    for (int c = 0; c < columns; ++c) {
        widths[static_cast<size_t>(c)] =
            std::max(kMinimumColumnWidth + 20, header->sectionSizeHint(c));
        total += widths[static_cast<size_t>(c)];
    }
    // Fill the width when the topics fit; otherwise keep readable columns and scroll.
    if (total <= m_view->viewport()->width()) {
        header->setSectionResizeMode(QHeaderView::Stretch);
    } else {
        header->setSectionResizeMode(QHeaderView::Interactive);
        for (int c = 0; c < columns; ++c) {
            // A header that changed widens its column; a width the user chose is kept.
            if (!onlyWiden || header->sectionSize(c) < widths[static_cast<size_t>(c)]) {
                header->resizeSection(c, widths[static_cast<size_t>(c)]);
            }
        }
    }
}

void TopicTablePanel::updatePlaceholder() {
    const TopicSolution& solution = m_model->solution();
    QString text;
    if (!solution.isValid()) {
        text = m_placeholderText;
    } else if (m_model->columnCount() == 0) {
        text = tr("No foreground-specific topic at γ = %1.\nLower γ, raise K, or show all "
                  "components to see the shared and background ones.")
                   .arg(solution.gamma, 0, 'f', 2);
    } else if (!m_model->showAll() && m_model->admissibility().noAdmissibleForeground()) {
        // Say so instead of presenting a blend as a topic.
        const cx::TopicModelResult& result = *solution.result;
        QStringList weights;
        for (int t = 0; t < result.numComponents(); ++t) {
            if (result.foregroundSpecific[static_cast<size_t>(t)]) {
                weights
                    << tr("Topic %1: ω = %2").arg(t + 1).arg(formatWeight(result.signedWeights[t]));
            }
        }
        text = tr("⚠ No admissible foreground-specific topic at γ = %1.\nEvery component with "
                  "λ̂ > 0 has a weight outside [−γ, 1] (%2): a blend of topics, not a topic of "
                  "the model.\nLower γ or K, or show all components to inspect them.")
                   .arg(solution.gamma, 0, 'f', 2)
                   .arg(weights.join(QStringLiteral(", ")));
    }
    m_placeholder->setText(text);
    m_stack->setCurrentWidget(text.isEmpty() ? static_cast<QWidget*>(m_view) : m_placeholder);
}

void TopicTablePanel::updateSummary() {
    const TopicSolution& solution = m_model->solution();
    const QString problem = m_problem.isEmpty()
                                ? QString()
                                : QStringLiteral("<span style='color:#b3261e'>%1</span>")
                                      .arg(m_problem.toHtmlEscaped());
    if (!solution.isValid()) {
        m_summary->setText(problem);
        return;
    }
    const cx::TopicModelResult& result = *solution.result;
    QStringList parts;
    parts << tr("γ = %1").arg(solution.gamma, 0, 'f', 2);
    parts << tr("%1 of %2 components foreground-specific")
                 .arg(result.numForegroundSpecific())
                 .arg(result.numComponents());
    const cx::ComponentAdmissibility& admissibility = m_model->admissibility();
    if (admissibility.inadmissible > 0) {
        QStringList names;
        for (int t = 0; t < result.numComponents(); ++t) {
            if (!admissibility.admissible(t)) {
                names << m_model->nameOfComponent(t); // the column's name ("Topic T17")
            }
        }
        QString text = tr("⚠ %1 inadmissible (%2)")
                           .arg(admissibility.inadmissible)
                           .arg(names.join(QStringLiteral(", ")));
        if (admissibility.noAdmissibleForeground()) {
            text += tr(": no admissible foreground-specific topic");
        }
        parts
            << QStringLiteral("<span style='color:#b3261e' title='%2'>%1</span>")
                   .arg(text.toHtmlEscaped(),
                        tr("The weight of a topic is ω = w_f − γ·w_b ∈ [−γ, 1]: a foreground topic "
                           "cannot weigh more than 1, a background topic not less than −γ. "
                           "Components outside are no topic of the model (typically a blend "
                           "of several); after a bootstrap a component is flagged only when "
                           "its whole 95 % weight band lies outside. They stay in the "
                           "decomposition and the AUC.")
                            .toHtmlEscaped());
    }
    parts << tr("solved in %1 ms").arg(solution.solveMs, 0, 'f', 1);
    if (m_latencyMs >= 0) {
        // Short: one line at 1024 px, so the table keeps its rows above a sideways scroll bar.
        parts << tr("shown in %1 ms").arg(m_latencyMs, 0, 'f', 0);
    }
    if (result.numRejected > 0) {
        // What rejects a component depends on the decomposition (core: minAbsLambda, the
        // pencil's unsplit clusters); the bound has the engine's slack of 2.
        const QString why =
            solution.parameters.decomposition == cx::Decomposition::Power
                ? tr("No power-method trial gave a weight within twice the bound of the model "
                     "(|ω| ≤ 2·max(1, γ)): K is larger than the data support at this γ.")
                : tr("The decomposition found no component here whose weight lies within twice "
                     "the bound of the model (|ω| ≤ 2·max(1, γ)), or could not separate it from "
                     "another: K is larger than the data support at this γ.");
        parts << QStringLiteral("<span style='color:#b35c00' title='%2'>%1</span>")
                     .arg(tr("%1 rejected")
                              .arg(countOf(result.numRejected, tr("component"), tr("components"))),
                          why.toHtmlEscaped());
    } else if (result.status == cx::Status::NotConverged) {
        const int limit = solution.parameters.iterations;
        const auto unsettled = std::count(result.converged.begin(), result.converged.end(), false);
        parts << QStringLiteral("<span style='color:#b35c00' title='%2'>%1</span>")
                     .arg(tr("%1 unsettled after %2 iterations")
                              .arg(countOf(unsettled, tr("component"), tr("components")))
                              .arg(limit),
                          tr("The power iteration of these components had not reached its "
                             "tolerance when the iteration limit was hit. On real data the "
                             "third moment is not exactly low rank and an iterate can cycle "
                             "between nearby directions; the component shown is the last "
                             "iterate, chosen by the median-|λ| rule like any other."));
    } else if (result.status != cx::Status::Successful) {
        parts << QStringLiteral("<span style='color:#b35c00'>%1</span>")
                     .arg(QString::fromUtf8(cx::toString(result.status)));
    }
    if (result.effectiveRank < result.numComponents() + result.numRejected) {
        parts << QStringLiteral("<span style='color:#b35c00' title='%2'>%1</span>")
                     .arg(tr("effective rank %1").arg(result.effectiveRank),
                          tr("Only %1 eigenvalues of M2f − γ·M2b exceed its split-half noise "
                             "level (%2): the other components fit sampling noise.")
                              .arg(result.effectiveRank)
                              .arg(result.noiseLevel, 0, 'g', 3));
    }
    if (!problem.isEmpty()) {
        parts << problem;
    }
    m_summary->setText(parts.join(QStringLiteral("  ·  ")));
}

void TopicTablePanel::copyToClipboard() {
    const QItemSelectionModel* selection = m_view->selectionModel();
    QString text;
    if (selection && selection->selectedIndexes().size() > 1) {
        text = selectionAsTsv(*selection);
    } else {
        text = delimitedText(*m_model, QLatin1Char('\t'));
    }
    QApplication::clipboard()->setText(text);
}

void TopicTablePanel::exportTable() {
    if (!m_model->solution().isValid()) {
        return;
    }
    exportTextInteractively(
        this, tr("Top-Words Table"), QStringLiteral("top_words"),
        {tr("Tab-separated values (*.tsv)"), tr("Comma-separated values (*.csv)")},
        [this](const QString& suffix) {
            return m_model->longTable(suffix == QLatin1String("csv") ? QLatin1Char(',')
                                                                     : QLatin1Char('\t'));
        });
}

void TopicTablePanel::exportTopicKeys() {
    if (!m_model->solution().isValid()) {
        return;
    }
    exportTextInteractively(this, tr("Topic Keys"), QStringLiteral("topic_keys"),
                            {tr("Topic keys (*.txt)")},
                            [this](const QString&) { return m_model->topicKeysText(); });
}

} // namespace cx::ui
