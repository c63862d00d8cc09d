#include "ui/topics/document_rank_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <cmath>

namespace cx::ui {

void DocumentRankModel::setDocuments(std::shared_ptr<const cx::Corpus> corpus,
                                     std::vector<cx::RankedDocument> ranked,
                                     std::vector<char> sides, std::vector<std::string> marked) {
    beginResetModel();
    m_corpus = std::move(corpus);
    m_ranked = std::move(ranked);
    m_sides = std::move(sides);
    m_marked = std::move(marked);
    m_snippets.assign(m_ranked.size(), QString());
    applySearch();
    endResetModel();
}

void DocumentRankModel::clear() {
    setDocuments(nullptr, {}, {}, {});
}

void DocumentRankModel::setSearch(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed == m_search) {
        return;
    }
    beginResetModel();
    m_search = trimmed;
    applySearch();
    endResetModel();
}

void DocumentRankModel::applySearch() {
    m_rows.clear();
    m_rows.reserve(m_ranked.size());
    for (size_t i = 0; i < m_ranked.size(); ++i) {
        if (m_search.isEmpty()) {
            m_rows.push_back(static_cast<int>(i));
            continue;
        }
        const std::int64_t document = m_ranked[i].document;
        if (snippet(i).contains(m_search, Qt::CaseInsensitive) ||
            labelsOf(document).contains(m_search, Qt::CaseInsensitive) ||
            sourceOf(document).contains(m_search, Qt::CaseInsensitive)) {
            m_rows.push_back(static_cast<int>(i));
        }
    }
}

const cx::RankedDocument& DocumentRankModel::entry(int row) const {
    return m_ranked[static_cast<size_t>(m_rows[static_cast<size_t>(row)])];
}

int DocumentRankModel::rankOf(int row) const {
    return m_rows[static_cast<size_t>(row)];
}

DocumentRankModel::Side DocumentRankModel::sideOf(std::int64_t document) const {
    const auto row = static_cast<size_t>(document);
    return row < m_sides.size() && m_sides[row] != 0 ? static_cast<Side>(m_sides[row]) : Foreground;
}

QString DocumentRankModel::labelsOf(std::int64_t document) const {
    if (!m_corpus) {
        return {};
    }
    QStringList parts;
    for (const cx::LabelField& field : m_corpus->labels) {
        const std::string values = cx::documentLabelValues(field, document);
        if (!values.empty()) {
            parts << QString::fromStdString(field.name) + QStringLiteral(": ") +
                         QString::fromStdString(values);
        }
    }
    return parts.join(QStringLiteral(" · "));
}

QString DocumentRankModel::sourceOf(std::int64_t document) const {
    const auto row = static_cast<size_t>(document);
    return m_corpus && row < m_corpus->documentIds.size()
               ? QString::fromStdString(m_corpus->documentIds[row])
               : QString::number(document);
}

QString DocumentRankModel::snippet(size_t rankIndex) const {
    QString& cached = m_snippets[rankIndex];
    if (cached.isNull() && m_corpus) {
        cached = QString::fromStdString(
            cx::documentSnippet(*m_corpus, m_ranked[rankIndex].document, m_marked));
    }
    return cached;
}

QString DocumentRankModel::markedToHtml(const QString& marked) {
    QString out;
    int i = 0;
    while (i < marked.size()) {
        const int open = marked.indexOf(QLatin1Char('['), i);
        const int close = open < 0 ? -1 : marked.indexOf(QLatin1Char(']'), open + 1);
        if (open < 0 || close < 0) {
            out += marked.mid(i).toHtmlEscaped();
            break;
        }
        out += marked.mid(i, open - i).toHtmlEscaped();
        out += QStringLiteral("<b style='background-color:#fde68a'>") +
               marked.mid(open + 1, close - open - 1).toHtmlEscaped() + QStringLiteral("</b>");
        i = close + 1;
    }
    return out;
}

QString DocumentRankModel::tsv(const QString& topicName, bool foregroundSpecific,
                               bool admissible) const {
    if (!m_corpus) {
        return {};
    }
    std::string out = cx::topicDocumentHeader(*m_corpus);
    for (int row = 0; row < shownCount(); ++row) {
        out += cx::topicDocumentRow(*m_corpus, topicName.toStdString(), rankOf(row) + 1, entry(row),
                                    foregroundSpecific, admissible, m_marked);
    }
    return QString::fromStdString(out);
}

int DocumentRankModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : shownCount();
}

int DocumentRankModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DocumentRankModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= shownCount()) {
        return {};
    }
    const cx::RankedDocument& ranked = entry(index.row());
    const auto rankIndex = static_cast<size_t>(rankOf(index.row()));
    if (role == DocumentRole) {
        return static_cast<qint64>(ranked.document);
    }
    if (role == SnippetHtmlRole) {
        return markedToHtml(snippet(rankIndex));
    }
    if (role == Qt::TextAlignmentRole && index.column() <= LogOddsColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole && index.column() == LogOddsColumn) {
        return tr("log(r / (1 − r)): how much more the document's words favour this topic than "
                  "all others together; it orders documents whose posterior rounds to 1");
    }
    if (role == Qt::ToolTipRole && index.column() == SnippetColumn) {
        return QStringLiteral("<p>") + markedToHtml(snippet(rankIndex)) + QStringLiteral("</p>");
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case RankColumn:
        return rankOf(index.row()) + 1;
    case PosteriorColumn:
        return QString::number(ranked.score, 'f', 4);
    case LogOddsColumn:
        return std::isfinite(ranked.logOdds) ? QString::number(ranked.logOdds, 'f', 1)
                                             : QStringLiteral("–");
    case SideColumn: {
        const Side side = sideOf(ranked.document);
        return side == Both ? tr("both") : side == Background ? tr("background") : tr("foreground");
    }
    case LabelsColumn:
        return labelsOf(ranked.document);
    case SourceColumn:
        return sourceOf(ranked.document);
    case SnippetColumn: {
        QString text = snippet(rankIndex);
        return text.remove(QLatin1Char('[')).remove(QLatin1Char(']'));
    }
    default:
        return {};
    }
}

QVariant DocumentRankModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case PosteriorColumn:
        return tr("Posterior");
    case LogOddsColumn:
        return tr("Log-odds");
    case SideColumn:
        return tr("Side");
    case LabelsColumn:
        return tr("Labels");
    case SourceColumn:
        return tr("Source");
    case SnippetColumn:
        return tr("Snippet (top words in bold)");
    default:
        return {};
    }
}

} // namespace cx::ui
