#pragma once

#include "core/io/corpus.h"
#include "core/topics/topic_documents.h"

#include <QAbstractTableModel>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace cx::ui {

/// The documents behind one topic, ranked by its posterior (cx::rankDocuments, ties by the
/// log-odds): one row per document of the pool — rank, posterior, log-odds, foreground or
/// background, the document's labels, its source and a snippet with the topic's top words
/// marked. A search keeps the rows whose snippet, labels or source contain the text
/// (case-insensitive); ranks stay those of the whole pool.
class DocumentRankModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        PosteriorColumn,
        LogOddsColumn,
        SideColumn,
        LabelsColumn,
        SourceColumn,
        SnippetColumn,
        ColumnCount
    };
    enum Roles {
        SnippetHtmlRole = Qt::UserRole + 1, ///< the snippet with marked words in <b>
        DocumentRole,                       ///< corpus row (qint64)
    };
    /// Where a ranked document comes from.
    enum Side : char { Foreground = 1, Background = 2, Both = 3 };

    using QAbstractTableModel::QAbstractTableModel;

    /// `ranked` is the whole pool in rank order; `sides` one Side per corpus row (or empty);
    /// `marked` the topic's top words.
    void setDocuments(std::shared_ptr<const cx::Corpus> corpus,
                      std::vector<cx::RankedDocument> ranked, std::vector<char> sides,
                      std::vector<std::string> marked);
    void clear();
    void setSearch(const QString& text);
    const QString& search() const { return m_search; }

    /// Rows shown (after the search) and the pool's size.
    int shownCount() const { return static_cast<int>(m_rows.size()); }
    int poolSize() const { return static_cast<int>(m_ranked.size()); }
    /// The ranked entry of a shown row (rank = its position in the pool, 0-based).
    const cx::RankedDocument& entry(int row) const;
    int rankOf(int row) const;
    std::int64_t documentOf(int row) const { return entry(row).document; }
    Side sideOf(std::int64_t document) const;
    const std::vector<std::string>& markedWords() const { return m_marked; }
    const std::shared_ptr<const cx::Corpus>& corpus() const { return m_corpus; }
    /// "places: usa · topics: earn" for a corpus row.
    QString labelsOf(std::int64_t document) const;
    QString sourceOf(std::int64_t document) const;
    /// topic_docs.tsv (cx::topicDocumentHeader/Row, the CLI's columns) of the shown rows,
    /// `topicName` in the topic column.
    QString tsv(const QString& topicName, bool foregroundSpecific, bool admissible) const;

    /// "[word]" marks of cx::documentSnippet as HTML <b> (the rest escaped).
    static QString markedToHtml(const QString& marked);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString snippet(size_t rankIndex) const;
    void applySearch();

    std::shared_ptr<const cx::Corpus> m_corpus;
    std::vector<cx::RankedDocument> m_ranked;
    std::vector<char> m_sides;
    std::vector<std::string> m_marked;
    QString m_search;
    std::vector<int> m_rows;                 ///< indices into m_ranked shown
    mutable std::vector<QString> m_snippets; ///< per m_ranked entry, filled on demand
};

} // namespace cx::ui
