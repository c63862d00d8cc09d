// The document browser and topic names (part 3) on a hand-made model: ranks,
// ties by log-odds, sides, search, the pool toggle, TSV export with the CLI's columns, the
// document view, names following identities, bad input.
#include "ui/topics/document_browser.h"
#include "ui/topics/document_rank_model.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topic_worker.h"

#include "core/topics/topic_documents.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTextBrowser>

using cx::ui::DocumentBrowser;
using cx::ui::DocumentRankModel;
using cx::ui::TopicSolution;
using cx::ui::TopicWordsModel;

namespace {

std::shared_ptr<cx::Corpus> smallCorpus() {
    auto corpus = std::make_shared<cx::Corpus>();
    corpus->vocabulary = {"alpha", "beta", "delta", "epsilon", "gamma"};
    // Rows: 0 and 1 about alpha (1 ten times longer: both posteriors round to 1), 2 about
    // delta/epsilon, 3 about beta (the background one).
    const std::vector<std::vector<float>> rows = {
        {60, 10, 0, 0, 1}, {600, 100, 0, 0, 10}, {1, 0, 3, 4, 0}, {0, 5, 0, 0, 1}};
    for (const auto& row : rows) {
        for (size_t w = 0; w < row.size(); ++w) {
            if (row[w] > 0) {
                corpus->counts.colIdx.push_back(static_cast<std::int32_t>(w));
                corpus->counts.counts.push_back(row[w]);
            }
        }
        corpus->counts.rowPtr.push_back(corpus->counts.nnz());
    }
    corpus->counts.numRows = 4;
    corpus->counts.numCols = 5;
    corpus->documentIds = {"a.txt", "b.txt", "c.txt", "d.txt"};
    corpus->documentExcerpts = {"Alpha rises; beta too.", "ALPHA alpha alpha, much more alpha.",
                                "Delta and epsilon meet.", "Beta only."};
    cx::LabelField kind;
    kind.name = "kind";
    kind.values = {"fruit", "tool"};
    kind.offsets = {0, 1, 2, 3, 4};
    kind.valueIds = {0, 0, 1, 1};
    corpus->labels.push_back(kind);
    return corpus;
}

TopicSolution browserSolution(std::shared_ptr<cx::Corpus> corpus, bool swapped = false) {
    auto result = std::make_shared<cx::TopicModelResult>();
    result->gamma = 1.5;
    result->topics.resize(5, 3);
    Eigen::VectorXd alpha(5), delta(5), beta(5);
    alpha << 0.7, 0.1, 0.05, 0.05, 0.1;
    delta << 0.05, 0.05, 0.4, 0.45, 0.05;
    beta << 0.1, 0.7, 0.05, 0.05, 0.1;
    result->topics.col(0) = swapped ? delta : alpha;
    result->topics.col(1) = swapped ? alpha : delta;
    result->topics.col(2) = beta;
    result->signedWeights =
        swapped ? Eigen::Vector3d(0.3, 0.4, -0.8) : Eigen::Vector3d(0.4, 0.3, -0.8);
    result->lambdas = Eigen::Vector3d(1.6, 1.8, -1.1);
    result->weights = Eigen::Vector3d(result->signedWeights[0], result->signedWeights[1], 0.0);
    result->clippedMass = Eigen::Vector3d::Zero();
    result->foregroundSpecific = {true, true, false};
    result->status = cx::Status::Successful;
    TopicSolution s;
    s.generation = 1;
    s.gamma = 1.5;
    s.topWords = cx::ui::TopicWorker::topWords(*result, 3);
    s.result = result;
    s.corpus = corpus;
    return s;
}

} // namespace

TEST(DocumentBrowser, RanksTheForegroundByPosteriorWithLogOddsTies) {
    TopicWordsModel topics;
    topics.setTopWordCount(2);
    DocumentBrowser browser(&topics);
    const auto corpus = smallCorpus();
    topics.setSolution(browserSolution(corpus));
    browser.setPools({0, 1, 2}, {3}, cx::ScorerSmoothing(0.01));
    browser.setComponent(0);
    DocumentRankModel* model = browser.model();
    ASSERT_EQ(model->rowCount(), 3);
    // Both alpha documents have posterior 1; the longer one has the larger log-odds and ranks
    // first (not the lower index).
    EXPECT_EQ(model->documentOf(0), 1);
    EXPECT_EQ(model->documentOf(1), 0);
    EXPECT_EQ(model->entry(0).score, 1.0);
    EXPECT_EQ(model->entry(1).score, 1.0);
    EXPECT_GT(model->entry(0).logOdds, model->entry(1).logOdds);
    // The same order as core's ranking of a fresh computation (what contrast-cli writes).
    Eigen::MatrixXd logOdds;
    const std::vector<std::int64_t> pool{0, 1, 2};
    const Eigen::MatrixXd posteriors = cx::documentPosteriors(
        corpus->counts, pool, *topics.solution().result, cx::ScorerSmoothing(0.01), &logOdds);
    const auto expected = cx::rankDocuments(posteriors, pool, 0, 3, &logOdds);
    for (int row = 0; row < 3; ++row) {
        EXPECT_EQ(model->documentOf(row), expected[static_cast<size_t>(row)].document);
    }
    // Row contents: rank, side, labels, source, snippet with the top words in bold.
    EXPECT_EQ(model->index(0, DocumentRankModel::RankColumn).data().toInt(), 1);
    EXPECT_EQ(model->index(0, DocumentRankModel::SideColumn).data().toString(),
              QStringLiteral("foreground"));
    EXPECT_EQ(model->index(0, DocumentRankModel::LabelsColumn).data().toString(),
              QStringLiteral("kind: fruit"));
    EXPECT_EQ(model->index(0, DocumentRankModel::SourceColumn).data().toString(),
              QStringLiteral("b.txt"));
    EXPECT_TRUE(model->index(0, DocumentRankModel::SnippetColumn)
                    .data(DocumentRankModel::SnippetHtmlRole)
                    .toString()
                    .contains(QStringLiteral(">ALPHA</b>")));
    EXPECT_FALSE(model->index(0, DocumentRankModel::SnippetColumn).data().toString().contains('['));
    EXPECT_TRUE(browser.titleText().contains(QStringLiteral("Topic 1")))
        << browser.titleText().toStdString();

    // The document: its text and its words with counts, the top words in bold.
    browser.showDocument(0);
    const QString html = browser.documentHtml(0);
    EXPECT_TRUE(html.contains(QStringLiteral("alpha×600"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("gamma×10")));
    EXPECT_TRUE(browser.detail()->toPlainText().contains(QStringLiteral("Words and counts")));
    EXPECT_TRUE(browser.documentHtml(99).isEmpty());

    // Search over snippet, labels and source; ranks stay those of the pool.
    browser.setSearch(QStringLiteral("epsilon"));
    ASSERT_EQ(model->rowCount(), 1);
    EXPECT_EQ(model->documentOf(0), 2);
    EXPECT_EQ(model->index(0, DocumentRankModel::RankColumn).data().toInt(), 3);
    browser.setSearch(QStringLiteral("tool"));
    EXPECT_EQ(model->rowCount(), 1);
    browser.setSearch(QStringLiteral("no such text"));
    EXPECT_EQ(model->rowCount(), 0);
    browser.setSearch(QString());
    EXPECT_EQ(model->rowCount(), 3);

    // Background on the toggle.
    browser.setPool(DocumentBrowser::Pool::Background);
    ASSERT_EQ(model->rowCount(), 1);
    EXPECT_EQ(model->index(0, DocumentRankModel::SideColumn).data().toString(),
              QStringLiteral("background"));
    browser.setPool(DocumentBrowser::Pool::Both);
    EXPECT_EQ(model->rowCount(), 4);
    browser.setPool(DocumentBrowser::Pool::Foreground);

    // Export: the CLI's columns, the topic's name in the topic column.
    QString tsv = browser.tsvText();
    QStringList lines = tsv.split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 4);
    EXPECT_EQ(lines[0], QString::fromStdString(cx::topicDocumentHeader(*corpus)).trimmed());
    EXPECT_TRUE(lines[1].startsWith(QStringLiteral("Topic 1\t1\t1\tb.txt\t1\t")))
        << lines[1].toStdString();
    EXPECT_TRUE(topics.setTopicName(0, QStringLiteral("Alpha news")));
    tsv = browser.tsvText();
    EXPECT_TRUE(tsv.split('\n')[1].startsWith(QStringLiteral("Alpha news\t1\t")));
}

TEST(DocumentBrowser, NamesAndTheBrowserFollowIdentitiesAlongGamma) {
    TopicWordsModel topics;
    DocumentBrowser browser(&topics);
    const auto corpus = smallCorpus();
    topics.setSolution(browserSolution(corpus));
    topics.setIdentities({4, 7, 9}, {Qt::red, Qt::green, Qt::blue});
    browser.setPools({0, 1, 2}, {3}, cx::ScorerSmoothing(0.01));
    browser.setComponent(0); // identity 4: the alpha topic
    QSignalSpy renamed(&topics, &TopicWordsModel::namesChanged);
    ASSERT_TRUE(topics.setTopicName(0, QStringLiteral("  Alpha   news ")));
    EXPECT_EQ(renamed.count(), 1);
    EXPECT_EQ(topics.componentName(0), QStringLiteral("Alpha news"));
    EXPECT_TRUE(
        topics.headerData(0, Qt::Horizontal).toString().startsWith(QStringLiteral("Alpha news\n")));
    EXPECT_EQ(topics.identityNames().at(4), QStringLiteral("Alpha news"));

    // Next γ: the components come in another order; identity 4 is now component 1.
    topics.setSolution(browserSolution(corpus, true));
    topics.setIdentities({7, 4, 9}, {Qt::green, Qt::red, Qt::blue});
    EXPECT_EQ(topics.nameOfComponent(1), QStringLiteral("Alpha news"));
    EXPECT_EQ(topics.nameOfComponent(0), QStringLiteral("Topic T8"));
    browser.refresh();
    EXPECT_EQ(browser.component(), 1);
    EXPECT_EQ(browser.model()->documentOf(0), 1);
    EXPECT_EQ(browser.topicCombo()->currentText(), QStringLiteral("Alpha news"));

    // An empty name restores the default; bad components are refused.
    EXPECT_TRUE(topics.setTopicName(1, QString()));
    EXPECT_EQ(topics.nameOfComponent(1), QStringLiteral("Topic T5"));
    EXPECT_TRUE(topics.identityNames().empty());
    EXPECT_FALSE(topics.setTopicName(5, QStringLiteral("x")));
    EXPECT_FALSE(topics.setTopicName(-1, QStringLiteral("x")));
    // Without identities a name lasts until the next solution.
    topics.setSolution(browserSolution(corpus));
    ASSERT_TRUE(topics.setTopicName(0, QStringLiteral("Alpha")));
    EXPECT_EQ(topics.nameOfComponent(0), QStringLiteral("Alpha"));
    topics.setSolution(browserSolution(corpus));
    EXPECT_EQ(topics.nameOfComponent(0), QStringLiteral("Topic 1"));
}

TEST(DocumentBrowser, BadInputLeavesItEmptyOrFallsBack) {
    TopicWordsModel topics;
    DocumentBrowser browser(&topics);
    browser.refresh(); // no solution
    EXPECT_EQ(browser.model()->rowCount(), 0);
    EXPECT_TRUE(browser.tsvText().isEmpty());
    const auto corpus = smallCorpus();
    topics.setSolution(browserSolution(corpus));
    // Pools with rows outside the corpus (another engine's) are cut to the corpus.
    browser.setPools({0, 1, 2, 17, -3}, {}, cx::ScorerSmoothing(0.01));
    browser.setComponent(42); // no such component: the first topic
    EXPECT_EQ(browser.component(), 0);
    EXPECT_EQ(browser.model()->rowCount(), 3);
    // No background documents: an empty list that says so.
    browser.setPool(DocumentBrowser::Pool::Background);
    EXPECT_EQ(browser.model()->rowCount(), 0);
    EXPECT_TRUE(browser.titleText().contains(QStringLiteral("No background documents")))
        << browser.titleText().toStdString();
    EXPECT_FALSE(browser.exportButton()->isEnabled());
}
