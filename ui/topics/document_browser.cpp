#include "ui/topics/document_browser.h"

#include "ui/dialogs/text_export.h"
#include "ui/topics/topic_words_model.h"

#include "core/topics/topic_admissibility.h"

#include <QAbstractTextDocumentLayout>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace cx::ui {

namespace {

/// Paints the snippet column's HTML (top words in bold on a highlight) on one line.
class SnippetDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        opt.text.clear();
        opt.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        QTextDocument document;
        document.setDefaultFont(opt.font);
        document.setDocumentMargin(2);
        document.setHtml(index.data(DocumentRankModel::SnippetHtmlRole).toString());
        painter->save();
        painter->translate(opt.rect.topLeft());
        const QRect clip(0, 0, opt.rect.width(), opt.rect.height());
        painter->setClipRect(clip);
        QAbstractTextDocumentLayout::PaintContext context;
        context.clip = clip;
        context.palette = opt.palette;
        if (opt.state & QStyle::State_Selected) {
            context.palette.setColor(QPalette::Text, opt.palette.color(QPalette::HighlightedText));
        }
        document.documentLayout()->draw(painter, context);
        painter->restore();
    }
};

const char* poolName(DocumentBrowser::Pool pool) {
    switch (pool) {
    case DocumentBrowser::Pool::Background:
        return QT_TRANSLATE_NOOP("cx::ui::DocumentBrowser", "Background");
    case DocumentBrowser::Pool::Both:
        return QT_TRANSLATE_NOOP("cx::ui::DocumentBrowser", "Foreground and background");
    case DocumentBrowser::Pool::Foreground:
        break;
    }
    return QT_TRANSLATE_NOOP("cx::ui::DocumentBrowser", "Foreground");
}

} // namespace

DocumentBrowser::DocumentBrowser(TopicWordsModel* topics, QWidget* parent)
    : QWidget(parent), m_topics(topics) {
    setObjectName(QStringLiteral("documentBrowser"));
    setWindowTitle(tr("Documents behind a topic"));
    m_model = new DocumentRankModel(this);

    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    auto* topicLabel = new QLabel(tr("&Topic:"), this);
    m_topic = new QComboBox(this);
    m_topic->setAccessibleName(tr("Topic"));
    m_topic->setToolTip(tr("The topic whose documents are ranked (it follows the topic along γ)"));
    m_topic->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    topicLabel->setBuddy(m_topic);
    auto* poolLabel = new QLabel(tr("&Documents:"), this);
    m_poolCombo = new QComboBox(this);
    m_poolCombo->setAccessibleName(tr("Documents ranked"));
    m_poolCombo->setToolTip(
        tr("Rank the foreground's documents, the background's, or both, by the topic's posterior"));
    for (Pool pool : {Pool::Foreground, Pool::Background, Pool::Both}) {
        m_poolCombo->addItem(tr(poolName(pool)), static_cast<int>(pool));
    }
    poolLabel->setBuddy(m_poolCombo);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search snippets, labels, sources"));
    m_search->setAccessibleName(tr("Search documents"));
    m_search->setToolTip(tr("Show only the documents whose snippet, labels or source contain "
                            "this text"));
    m_search->setClearButtonEnabled(true);
    m_export = new QPushButton(tr("Export TSV…"), this);
    m_export->setToolTip(tr("The rows shown, with the columns of contrast-cli's topic_docs.tsv"));
    controls->addWidget(topicLabel);
    controls->addWidget(m_topic);
    controls->addSpacing(8);
    controls->addWidget(poolLabel);
    controls->addWidget(m_poolCombo);
    controls->addSpacing(8);
    controls->addWidget(m_search, 1);
    controls->addWidget(m_export);
    layout->addLayout(controls);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);

    m_view = new QTableView(this);
    m_view->setModel(m_model);
    m_view->setAccessibleName(tr("Ranked documents"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->setItemDelegateForColumn(DocumentRankModel::SnippetColumn, new SnippetDelegate(m_view));
    QHeaderView* header = m_view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    header->resizeSection(DocumentRankModel::RankColumn, 48);
    header->resizeSection(DocumentRankModel::PosteriorColumn, 72);
    header->resizeSection(DocumentRankModel::LogOddsColumn, 72);
    header->resizeSection(DocumentRankModel::SideColumn, 90);
    header->resizeSection(DocumentRankModel::LabelsColumn, 220);
    header->resizeSection(DocumentRankModel::SourceColumn, 80);
    m_detail = new QTextBrowser(this);
    m_detail->setAccessibleName(tr("Document text"));
    m_detail->setPlaceholderText(tr("Select a document to read its text and its words"));
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    layout->addWidget(splitter, 1);

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(120); // coalesces the solutions of a slider drag
    connect(m_refreshTimer, &QTimer::timeout, this, &DocumentBrowser::refresh);
    connect(m_topics, &QAbstractItemModel::modelReset, this, &DocumentBrowser::scheduleRefresh);
    connect(m_topics, &QAbstractItemModel::headerDataChanged, this,
            &DocumentBrowser::scheduleRefresh);
    connect(m_topic, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_updatingChoices && index >= 0) {
            setComponent(m_topic->itemData(index).toInt());
        }
    });
    connect(m_poolCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0) {
            setPool(static_cast<Pool>(m_poolCombo->itemData(index).toInt()));
        }
    });
    connect(m_search, &QLineEdit::textChanged, this, &DocumentBrowser::setSearch);
    connect(m_export, &QPushButton::clicked, this, &DocumentBrowser::exportTsv);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                showDocument(current.isValid() ? current.row() : -1);
            });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_detail->clear();
        m_export->setEnabled(m_model->shownCount() > 0);
    });
    resize(1000, 640);
}

void DocumentBrowser::setPools(std::vector<std::int64_t> foreground,
                               std::vector<std::int64_t> background,
                               const cx::ScorerSmoothing& smoothing) {
    m_foreground = std::move(foreground);
    m_background = std::move(background);
    m_smoothing = smoothing;
    m_postResult.reset();
    scheduleRefresh();
}

void DocumentBrowser::setComponent(int component) {
    m_component = component;
    m_identity = m_topics->identityOf(component);
    refresh();
}

void DocumentBrowser::setPool(Pool pool) {
    if (pool == m_pool) {
        return;
    }
    m_pool = pool;
    const int index = m_poolCombo->findData(static_cast<int>(pool));
    if (index >= 0 && m_poolCombo->currentIndex() != index) {
        m_poolCombo->setCurrentIndex(index);
    }
    refresh();
}

void DocumentBrowser::setSearch(const QString& text) {
    if (m_search->text() != text) {
        m_search->setText(text); // calls back here through textChanged
        return;
    }
    m_model->setSearch(text);
    m_title->setText(titleText());
}

void DocumentBrowser::scheduleRefresh() {
    if (isVisible()) {
        m_refreshTimer->start();
    }
}

void DocumentBrowser::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
}

QString DocumentBrowser::topicName(int component) const {
    for (int column = 0; column < m_topics->columnCount(); ++column) {
        if (m_topics->componentOf(column) == component) {
            return m_topics->componentName(column);
        }
    }
    return m_topics->nameOfComponent(component);
}

void DocumentBrowser::rebuildTopicChoices() {
    m_updatingChoices = true;
    m_topic->clear();
    const TopicSolution& solution = m_topics->solution();
    if (solution.isValid()) {
        const cx::TopicModelResult& result = *solution.result;
        // Foreground-specific components first (the table's order), then the others.
        for (int pass = 0; pass < 2; ++pass) {
            for (int t = 0; t < result.numComponents(); ++t) {
                const bool specific = result.foregroundSpecific[static_cast<size_t>(t)];
                if (specific == (pass == 0)) {
                    const bool admissible =
                        m_topics->admissibility().verdicts.size() > static_cast<size_t>(t) &&
                        m_topics->admissibility().admissible(t);
                    m_topic->addItem((admissible ? QString() : QStringLiteral("⚠ ")) + topicName(t),
                                     t);
                }
            }
        }
    }
    const int index = m_topic->findData(m_component);
    m_topic->setCurrentIndex(index);
    m_updatingChoices = false;
}

void DocumentBrowser::refresh() {
    m_refreshTimer->stop();
    const TopicSolution& solution = m_topics->solution();
    if (!solution.isValid() || !solution.corpus) {
        m_component = -1;
        m_postResult.reset();
        m_model->clear();
        rebuildTopicChoices();
        m_title->setText(tr("Compute topics to see the documents behind them."));
        return;
    }
    const cx::TopicModelResult& result = *solution.result;
    // Follow the topic's identity along γ; else keep its index; else the first topic.
    if (m_identity >= 0) {
        for (int t = 0; t < result.numComponents(); ++t) {
            if (m_topics->identityOf(t) == m_identity) {
                m_component = t;
            }
        }
    }
    if (m_component < 0 || m_component >= result.numComponents()) {
        m_component = result.numForegroundSpecific() > 0 || result.numComponents() > 0 ? 0 : -1;
    }
    if (m_topics->identityOf(m_component) >= 0) {
        m_identity = m_topics->identityOf(m_component);
    }
    rebuildTopicChoices();
    rankComponent();
}

void DocumentBrowser::rankComponent() {
    const TopicSolution& solution = m_topics->solution();
    const cx::Corpus& corpus = *solution.corpus;
    if (m_postResult != solution.result || m_postPool != m_pool) {
        std::vector<std::int64_t> documents =
            m_pool == Pool::Background ? m_background : m_foreground;
        if (m_pool == Pool::Both) {
            documents.insert(documents.end(), m_background.begin(), m_background.end());
            std::sort(documents.begin(), documents.end());
            documents.erase(std::unique(documents.begin(), documents.end()), documents.end());
        }
        // Rows outside this corpus (pools of another engine) are dropped.
        documents.erase(
            std::remove_if(documents.begin(), documents.end(),
                           [&](std::int64_t d) { return d < 0 || d >= corpus.numDocuments(); }),
            documents.end());
        m_postDocuments = std::move(documents);
        m_posteriors.resize(0, 0);
        m_logOdds.resize(0, 0);
        if (!m_postDocuments.empty() && solution.result->topics.rows() == corpus.counts.numCols) {
            m_posteriors = cx::documentPosteriors(corpus.counts, m_postDocuments, *solution.result,
                                                  m_smoothing, &m_logOdds);
        }
        m_postResult = solution.result;
        m_postPool = m_pool;
    }
    if (m_component < 0 || m_posteriors.cols() == 0) {
        m_model->clear();
        m_title->setText(
            m_postDocuments.empty()
                ? tr("No %1 documents: choose a foreground and background and compute.")
                      .arg(tr(poolName(m_pool)).toLower())
                : tr("No topic to show."));
        return;
    }
    std::vector<cx::RankedDocument> ranked =
        cx::rankDocuments(m_posteriors, m_postDocuments, m_component,
                          static_cast<std::int64_t>(m_postDocuments.size()), &m_logOdds);
    std::vector<char> sides(static_cast<size_t>(corpus.numDocuments()), 0);
    for (std::int64_t d : m_foreground) {
        if (d >= 0 && d < corpus.numDocuments()) {
            sides[static_cast<size_t>(d)] |= DocumentRankModel::Foreground;
        }
    }
    for (std::int64_t d : m_background) {
        if (d >= 0 && d < corpus.numDocuments()) {
            sides[static_cast<size_t>(d)] |= DocumentRankModel::Background;
        }
    }
    std::vector<std::string> marked;
    const auto& top = solution.topWords[static_cast<size_t>(m_component)];
    for (size_t rank = 0; rank < top.size() && static_cast<int>(rank) < m_topics->topWordCount();
         ++rank) {
        marked.push_back(corpus.vocabulary[static_cast<size_t>(top[rank])]);
    }
    m_model->setDocuments(solution.corpus, std::move(ranked), std::move(sides), std::move(marked));
    m_title->setText(titleText());
}

QString DocumentBrowser::titleText() const {
    const TopicSolution& solution = m_topics->solution();
    if (!solution.isValid() || m_component < 0 || m_model->poolSize() == 0) {
        return m_title ? m_title->text() : QString();
    }
    const cx::TopicModelResult& result = *solution.result;
    const bool admissible =
        m_topics->admissibility().verdicts.size() > static_cast<size_t>(m_component) &&
        m_topics->admissibility().admissible(m_component);
    QString text = tr("%1 documents ranked by the posterior of %2 (ω = %3, γ = %4)")
                       .arg(QLocale().toString(m_model->poolSize()), topicName(m_component),
                            formatWeight(result.signedWeights[m_component]),
                            QString::number(solution.gamma, 'g', 4));
    if (!m_model->search().isEmpty()) {
        text += tr(" · %1 match “%2”")
                    .arg(QLocale().toString(m_model->shownCount()), m_model->search());
    }
    if (!admissible) {
        text += tr(" · ⚠ inadmissible: no topic of the model, a blend of several");
    }
    return text;
}

QString DocumentBrowser::tsvText() const {
    const TopicSolution& solution = m_topics->solution();
    if (!solution.isValid() || m_component < 0) {
        return {};
    }
    const bool admissible =
        m_topics->admissibility().verdicts.size() > static_cast<size_t>(m_component) &&
        m_topics->admissibility().admissible(m_component);
    return m_model->tsv(topicName(m_component),
                        solution.result->foregroundSpecific[static_cast<size_t>(m_component)],
                        admissible);
}

void DocumentBrowser::exportTsv() {
    if (m_model->shownCount() == 0) {
        return;
    }
    exportTextInteractively(this, tr("Documents behind a topic"), QStringLiteral("topic_docs"),
                            {tr("Tab-separated values (*.tsv)")},
                            [this](const QString&) { return tsvText(); });
}

QString DocumentBrowser::documentHtml(int row) const {
    if (row < 0 || row >= m_model->shownCount() || !m_model->corpus()) {
        return {};
    }
    const cx::Corpus& corpus = *m_model->corpus();
    const cx::RankedDocument& ranked = m_model->entry(row);
    const auto document = static_cast<size_t>(ranked.document);
    const std::set<std::string> marked(m_model->markedWords().begin(),
                                       m_model->markedWords().end());
    QString html = tr("<p><b>%1</b> · rank %2 · posterior %3 · log-odds %4 · %5<br>%6</p>")
                       .arg(m_model->sourceOf(ranked.document).toHtmlEscaped())
                       .arg(m_model->rankOf(row) + 1)
                       .arg(ranked.score, 0, 'f', 4)
                       .arg(ranked.logOdds, 0, 'f', 1)
                       .arg(m_model->index(row, DocumentRankModel::SideColumn).data().toString())
                       .arg(m_model->labelsOf(ranked.document).toHtmlEscaped());
    if (document < corpus.documentExcerpts.size()) {
        const std::string text =
            cx::documentSnippet(corpus, ranked.document, m_model->markedWords(), cx::kExcerptBytes);
        html +=
            tr("<p><i>Text</i> (the reader keeps the first %1 bytes of each document):<br>%2</p>")
                .arg(cx::kExcerptBytes)
                .arg(DocumentRankModel::markedToHtml(QString::fromStdString(text)));
    }
    const auto words = cx::documentWordCounts(corpus, ranked.document);
    double tokens = 0;
    for (const auto& [word, count] : words) {
        tokens += count;
    }
    html += tr("<p><i>Words and counts</i> (%1 tokens, %2 distinct words in the vocabulary; the "
               "topic's top words in bold):<br>")
                .arg(tokens, 0, 'f', 0)
                .arg(words.size());
    QStringList items;
    for (const auto& [word, count] : words) {
        const QString item = QString::fromStdString(word).toHtmlEscaped() + QStringLiteral("×") +
                             QString::number(count, 'g', 6);
        items << (marked.count(word) > 0 ? QStringLiteral("<b style='background-color:#fde68a'>") +
                                               item + QStringLiteral("</b>")
                                         : item);
    }
    return html + items.join(QStringLiteral(" ")) + QStringLiteral("</p>");
}

void DocumentBrowser::showDocument(int row) {
    m_detail->setHtml(documentHtml(row));
}

} // namespace cx::ui
