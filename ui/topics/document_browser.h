#pragma once

#include "ui/topics/document_rank_model.h"
#include "ui/topics/topic_types.h"

#include <Eigen/Dense>

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;
class QTimer;

namespace cx::ui {

class TopicWordsModel;

/// The documents behind a topic: pick a topic (or click its column in the
/// table) and read the documents ranked by its posterior under the single-topic model
/// (cx::documentPosteriors over the engine's foreground documents; background or both on the
/// Pool choice). Each row: rank, posterior, log-odds (the tie-break where posteriors round to
/// 1), side, labels, source and a snippet with the topic's top words in bold; the selected
/// document's text and its words with counts below; a search over snippet, labels and source;
/// Export TSV writes the CLI's topic_docs.tsv columns for the rows shown.
///
/// It reads the shown solution, topic names and identities from the table's TopicWordsModel
/// and follows the chosen topic's identity along γ (same id → its new component).
/// Posteriors are computed on the GUI thread when the solution or pool changes and the browser
/// is visible: O(nnz·K) of the pool, ~0.1 s for Reuters' 21,578 documents.
class DocumentBrowser : public QWidget {
    Q_OBJECT
public:
    enum class Pool { Foreground, Background, Both };

    explicit DocumentBrowser(TopicWordsModel* topics, QWidget* parent = nullptr);

    /// The engine's document sets (sorted corpus rows) and the scorer's smoothing.
    void setPools(std::vector<std::int64_t> foreground, std::vector<std::int64_t> background,
                  const cx::ScorerSmoothing& smoothing);
    /// Shows the documents of result component `component` (−1: the first topic).
    void setComponent(int component);
    int component() const { return m_component; }
    void setPool(Pool pool);
    Pool pool() const { return m_pool; }
    void setSearch(const QString& text);
    /// Recomputes from the topics model now (normally on a short timer after a change).
    void refresh();

    DocumentRankModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QTextBrowser* detail() const { return m_detail; }
    QComboBox* topicCombo() const { return m_topic; }
    QComboBox* poolCombo() const { return m_poolCombo; }
    QLineEdit* searchEdit() const { return m_search; }
    QPushButton* exportButton() const { return m_export; }
    /// The title line ("Foreground documents behind Topic T3 …").
    QString titleText() const;
    /// The shown rows as topic_docs.tsv text (what Export TSV writes).
    QString tsvText() const;
    /// HTML of a shown row's document: source, labels, posterior, text and word counts.
    QString documentHtml(int row) const;
    void showDocument(int row);
    void exportTsv();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void scheduleRefresh();
    void rebuildTopicChoices();
    void rankComponent();
    QString topicName(int component) const;

    TopicWordsModel* m_topics = nullptr;
    DocumentRankModel* m_model = nullptr;
    QLabel* m_title = nullptr;
    QComboBox* m_topic = nullptr;
    QComboBox* m_poolCombo = nullptr;
    QLineEdit* m_search = nullptr;
    QPushButton* m_export = nullptr;
    QTableView* m_view = nullptr;
    QTextBrowser* m_detail = nullptr;
    QTimer* m_refreshTimer = nullptr;

    std::vector<std::int64_t> m_foreground, m_background;
    cx::ScorerSmoothing m_smoothing;
    Pool m_pool = Pool::Foreground;
    int m_component = -1;
    int m_identity = -1; ///< path identity of m_component (−1: none known)

    // Posteriors of the pool under the shown solution (cache key: result and pool).
    std::shared_ptr<const cx::TopicModelResult> m_postResult;
    Pool m_postPool = Pool::Foreground;
    std::vector<std::int64_t> m_postDocuments;
    Eigen::MatrixXd m_posteriors, m_logOdds;
    bool m_updatingChoices = false;
};

} // namespace cx::ui
