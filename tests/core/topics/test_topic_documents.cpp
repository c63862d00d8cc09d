#include "core/common/random.h"
#include "core/io/corpus_loader.h"
#include "core/topics/topic_coherence.h"
#include "core/topics/topic_documents.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>

namespace cx {
namespace {

/// A CSR matrix from dense rows.
CountMatrix denseCounts(const std::vector<std::vector<float>>& rows) {
    CountMatrix m;
    m.numRows = static_cast<std::int64_t>(rows.size());
    m.numCols = static_cast<std::int64_t>(rows.front().size());
    for (const auto& row : rows) {
        for (size_t i = 0; i < row.size(); ++i) {
            if (row[i] > 0) {
                m.colIdx.push_back(static_cast<std::int32_t>(i));
                m.counts.push_back(row[i]);
            }
        }
        m.rowPtr.push_back(m.nnz());
    }
    return m;
}

/// Three topics over four words; the third a background one (ω < 0).
TopicModelResult threeTopics() {
    TopicModelResult r;
    r.gamma = 1;
    r.topics.resize(4, 3);
    r.topics.col(0) << 0.7, 0.2, 0.1, 0.0;
    r.topics.col(1) << 0.0, 0.1, 0.3, 0.6;
    r.topics.col(2) << 0.25, 0.25, 0.25, 0.25;
    r.signedWeights.resize(3);
    r.signedWeights << 0.5, 0.3, -0.4;
    r.lambdas = r.signedWeights.unaryExpr(
        [](double w) { return (w > 0 ? 1.0 : -1.0) / std::sqrt(std::abs(w)); });
    r.weights = r.signedWeights.cwiseMax(0.0);
    r.foregroundSpecific = {true, true, false};
    r.clippedMass = Eigen::VectorXd::Zero(3);
    r.status = Status::Successful;
    return r;
}

TEST(TopicDocuments, PosteriorIsTheNormalisedProductOfSmoothedTopics) {
    const CountMatrix counts =
        denseCounts({{3, 1, 0, 0}, {0, 0, 2, 4}, {1, 1, 1, 1}, {0, 0, 0, 0}});
    const TopicModelResult model = threeTopics();
    const std::vector<std::int64_t> documents{0, 1, 2, 3};
    const double alpha = 0.01; // fixed additive smoothing: μ̃ = (μ + α)/(1 + Dα)
    const Eigen::MatrixXd posterior = documentPosteriors(counts, documents, model, alpha);
    ASSERT_EQ(posterior.rows(), 3);
    ASSERT_EQ(posterior.cols(), 4);
    const double total = 0.5 + 0.3 + 0.4;
    for (int n = 0; n < 4; ++n) {
        // Brute force in linear space.
        Eigen::Vector3d product;
        for (int k = 0; k < 3; ++k) {
            double p = std::abs(model.signedWeights[k]) / total;
            for (std::int64_t q = counts.rowPtr[n]; q < counts.rowPtr[n + 1]; ++q) {
                const double mu = (model.topics(counts.colIdx[q], k) + alpha) / (1 + 4 * alpha);
                p *= std::pow(mu, counts.counts[q]);
            }
            product[k] = p;
        }
        product /= product.sum();
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(posterior(k, n), product[k], 1e-12) << "document " << n << " topic " << k;
        }
        EXPECT_NEAR(posterior.col(n).sum(), 1.0, 1e-12);
    }
    // An empty document keeps the prior.
    EXPECT_NEAR(posterior(2, 3), 0.4 / total, 1e-12);
}

TEST(TopicDocuments, PosteriorStaysFiniteForLongDocuments) {
    // 20,000 tokens: the linear-space product underflows; log space must not.
    const CountMatrix counts = denseCounts({{10000, 10000, 0, 0}, {0, 0, 5000, 15000}});
    const Eigen::MatrixXd posterior =
        documentPosteriors(counts, {0, 1}, threeTopics(), ScorerSmoothing{});
    EXPECT_TRUE(posterior.allFinite());
    EXPECT_NEAR(posterior(0, 0), 1.0, 1e-9);
    EXPECT_NEAR(posterior(1, 1), 1.0, 1e-9);
}

TEST(TopicDocuments, LogOddsMatchThePosteriorAndBreakSaturatedTies) {
    // Documents 0 and 1 both favour topic 0 so strongly that r_0 rounds to exactly 1; the
    // longer one (1) has the larger log-odds and must rank first (not by index).
    const CountMatrix counts =
        denseCounts({{400, 100, 0, 0}, {4000, 1000, 0, 0}, {2, 1, 1, 0}, {0, 0, 1, 3}});
    const std::vector<std::int64_t> documents{0, 1, 2, 3};
    Eigen::MatrixXd logOdds;
    const Eigen::MatrixXd posterior =
        documentPosteriors(counts, documents, threeTopics(), 0.01, &logOdds);
    ASSERT_EQ(logOdds.rows(), 3);
    ASSERT_EQ(logOdds.cols(), 4);
    EXPECT_EQ(posterior(0, 0), 1.0);
    EXPECT_EQ(posterior(0, 1), 1.0);
    EXPECT_GT(logOdds(0, 1), logOdds(0, 0));
    EXPECT_GT(logOdds(0, 0), 100.0);
    // Where the posterior is not saturated, log-odds = log(r / (1 − r)).
    for (int n = 2; n < 4; ++n) {
        for (int k = 0; k < 3; ++k) {
            const double r = posterior(k, n);
            EXPECT_NEAR(logOdds(k, n), std::log(r / (1 - r)), 1e-9) << n << " " << k;
        }
    }
    const auto ranked = rankDocuments(posterior, documents, 0, 4, &logOdds);
    ASSERT_EQ(ranked.size(), 4u);
    EXPECT_EQ(ranked[0].document, 1);
    EXPECT_EQ(ranked[1].document, 0);
    EXPECT_DOUBLE_EQ(ranked[0].logOdds, logOdds(0, 1));
    // Without log-odds: the lower index first.
    EXPECT_EQ(rankDocuments(posterior, documents, 0, 4)[0].document, 0);
    EXPECT_TRUE(std::isnan(rankDocuments(posterior, documents, 0, 4)[0].logOdds));
    // Bad input: log-odds of another shape.
    const Eigen::MatrixXd wrong = Eigen::MatrixXd::Zero(3, 2);
    EXPECT_THROW(rankDocuments(posterior, documents, 0, 4, &wrong), std::invalid_argument);
}

TEST(TopicDocuments, TableRowsAndWordCounts) {
    Corpus corpus;
    corpus.vocabulary = {"cat", "dog", "mat"};
    corpus.counts = denseCounts({{2, 1, 3}, {0, 3, 1}});
    corpus.documentIds = {"a.txt", "b\ttab.txt"};
    LabelField field;
    field.name = "kind";
    field.values = {"pet", "rug"};
    field.offsets = {0, 2, 3};
    field.valueIds = {0, 1, 0};
    corpus.labels.push_back(field);
    EXPECT_EQ(documentLabelValues(corpus.labels[0], 0), "pet,rug");
    EXPECT_EQ(documentLabelValues(corpus.labels[0], 1), "pet");
    EXPECT_EQ(documentLabelValues(corpus.labels[0], 7), "");
    const auto words = documentWordCounts(corpus, 0);
    ASSERT_EQ(words.size(), 3u);
    EXPECT_EQ(words[0].first, "mat");
    EXPECT_EQ(words[1].first, "cat");
    EXPECT_EQ(words[2].second, 1.0);
    EXPECT_THROW(documentWordCounts(corpus, 2), std::invalid_argument);
    EXPECT_EQ(topicDocumentHeader(corpus),
              "topic\trank\tdocument\tsource\tscore\tlog_odds\tkind\tforeground_specific\t"
              "admissible\tsnippet\n");
    const std::string row =
        topicDocumentRow(corpus, "Pets\tand rugs", 2, {1, 0.75, 1.5}, true, false, {"dog"});
    EXPECT_EQ(row, "Pets and rugs\t2\t1\tb tab.txt\t0.75\t1.5\tpet\t1\t0\t[dog]×3 mat×1\n");
}

TEST(TopicDocuments, RanksByPosteriorThenIndex) {
    Eigen::MatrixXd posterior(2, 4);
    posterior << 0.2, 0.9, 0.5, 0.9, 0.8, 0.1, 0.5, 0.1;
    const std::vector<std::int64_t> documents{10, 11, 12, 13};
    const auto top = rankDocuments(posterior, documents, 0, 3);
    ASSERT_EQ(top.size(), 3u);
    EXPECT_EQ(top[0].document, 11); // tie with 13: the lower index first
    EXPECT_EQ(top[1].document, 13);
    EXPECT_EQ(top[2].document, 12);
    EXPECT_DOUBLE_EQ(top[2].score, 0.5);
    EXPECT_EQ(rankDocuments(posterior, documents, 1, 100).size(), 4u);
    EXPECT_TRUE(rankDocuments(posterior, documents, 1, 0).empty());
    EXPECT_THROW(rankDocuments(posterior, documents, 2, 1), std::invalid_argument);
    EXPECT_THROW(rankDocuments(posterior, {1, 2}, 0, 1), std::invalid_argument);
}

TEST(TopicDocuments, SnippetMarksTopWordsAndIsOneTsvField) {
    Corpus corpus;
    corpus.vocabulary = {"cat", "dog", "mat"};
    corpus.counts = denseCounts({{2, 1, 1}, {0, 3, 1}});
    corpus.documentExcerpts = {"The Cat sat\ton the mat.\nCats like mats", "a dog"};
    const std::string snippet = documentSnippet(corpus, 0, {"cat", "mat"});
    EXPECT_EQ(snippet, "The [Cat] sat on the [mat]. Cats like mats");
    EXPECT_EQ(snippet.find('\t'), std::string::npos);
    EXPECT_EQ(snippet.find('\n'), std::string::npos);
    // Cut after 10 characters, marked with an ellipsis.
    EXPECT_EQ(documentSnippet(corpus, 0, {"cat"}, 10), "The [Cat] sa\u2026");
    EXPECT_EQ(tsvField("a\tb\r\nc"), "a b  c");
    // Without text: words by count, marked.
    corpus.documentExcerpts.clear();
    EXPECT_EQ(documentSnippet(corpus, 1, {"dog"}), "[dog]\u00d73 mat\u00d71");
    EXPECT_THROW(documentSnippet(corpus, 2, {}), std::invalid_argument);
}

TEST(TopicDocuments, TextReadersKeepAnExcerptBagOfWordsNone) {
    const std::string data = std::string(CX_TEST_DATA_DIR) + "/corpus/";
    const Corpus tsv = loadCorpus(data + "labelled.tsv");
    ASSERT_EQ(tsv.documentExcerpts.size(), static_cast<size_t>(tsv.numDocuments()));
    EXPECT_EQ(tsv.documentExcerpts[0], "The cat sat on the mat. Cats like mats, the cat said.");
    // The CSV's quoted line break is collapsed to a space.
    const Corpus csv = loadCorpus(data + "labelled.csv");
    EXPECT_EQ(csv.documentExcerpts[1], "A dog sat on the mat; the cat chased the \"dog\"");
    const Corpus reuters = loadCorpus(data + "reuters");
    ASSERT_EQ(reuters.documentExcerpts.size(), static_cast<size_t>(reuters.numDocuments()));
    for (const std::string& excerpt : reuters.documentExcerpts) {
        EXPECT_LE(excerpt.size(), kExcerptBytes);
        EXPECT_EQ(excerpt.find('\n'), std::string::npos);
    }
    EXPECT_TRUE(loadCorpus(data + "uci/docword.tiny.txt").documentExcerpts.empty());
}

/// NPMI of a word list by brute force over dense document sets.
double bruteForceNpmi(const std::vector<std::vector<float>>& rows, const std::vector<int>& words) {
    const double n = static_cast<double>(rows.size());
    double total = 0;
    int pairs = 0;
    for (size_t a = 0; a < words.size(); ++a) {
        for (size_t b = a + 1; b < words.size(); ++b) {
            double ni = 0;
            double nj = 0;
            double nij = 0;
            for (const auto& row : rows) {
                const bool i = row[static_cast<size_t>(words[a])] > 0;
                const bool j = row[static_cast<size_t>(words[b])] > 0;
                ni += i;
                nj += j;
                nij += i && j;
            }
            const double pij = nij / n;
            total += pij == 0   ? -1.0
                     : pij == 1 ? 1.0
                                : std::log(pij / ((ni / n) * (nj / n))) / -std::log(pij);
            ++pairs;
        }
    }
    return total / pairs;
}

TEST(TopicCoherence, NpmiMatchesBruteForce) {
    const std::vector<std::vector<float>> rows = {{1, 2, 0, 0, 1}, {1, 1, 0, 0, 1}, {0, 1, 1, 0, 1},
                                                  {0, 0, 3, 1, 1}, {1, 0, 0, 1, 1}, {2, 1, 0, 0, 1},
                                                  {0, 0, 1, 1, 1}, {0, 0, 0, 0, 1}};
    const CountMatrix counts = denseCounts(rows);
    const std::vector<std::int64_t> all{0, 1, 2, 3, 4, 5, 6, 7};
    for (const std::vector<int>& words :
         std::vector<std::vector<int>>{{0, 1}, {0, 1, 2}, {2, 3, 0, 1}, {0, 4}, {1, 3, 4}}) {
        const std::vector<Eigen::Index> list(words.begin(), words.end());
        EXPECT_NEAR(npmiCoherence(counts, all, list), bruteForceNpmi(rows, words), 1e-12);
    }
    // Conventions: never together → −1; together in every document → 1.
    const CountMatrix apart = denseCounts({{1, 0}, {0, 1}});
    EXPECT_DOUBLE_EQ(npmiCoherence(apart, {0, 1}, {0, 1}), -1.0);
    const CountMatrix always = denseCounts({{1, 1}, {2, 1}});
    EXPECT_DOUBLE_EQ(npmiCoherence(always, {0, 1}, {0, 1}), 1.0);
    EXPECT_TRUE(std::isnan(npmiCoherence(counts, all, {0})));
    EXPECT_THROW(npmiCoherence(counts, all, {0, 9}), std::invalid_argument);
    // A subset of documents changes the probabilities.
    const std::vector<std::vector<float>> firstFour(rows.begin(), rows.begin() + 4);
    EXPECT_NEAR(npmiCoherence(counts, {0, 1, 2, 3}, {0, 1, 2}),
                bruteForceNpmi(firstFour, {0, 1, 2}), 1e-12);
}

TEST(TopicCoherence, PerTopicUsesTheTopWords) {
    const std::vector<std::vector<float>> rows = {
        {1, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 1, 1}, {1, 0, 1, 0}};
    const CountMatrix counts = denseCounts(rows);
    const TopicModelResult model = threeTopics();
    const std::vector<double> npmi = topicCoherence(counts, {0, 1, 2, 3}, model, 2);
    ASSERT_EQ(npmi.size(), 3u);
    EXPECT_NEAR(npmi[0], bruteForceNpmi(rows, {0, 1}), 1e-12); // topic 1: words 0, 1
    EXPECT_NEAR(npmi[1], bruteForceNpmi(rows, {3, 2}), 1e-12); // topic 2: words 3, 2
}

// All topics' co-occurrence counts come from one pass over the documents, split over the
// reduction slots: every topic's value is the single-list one and the brute force, with top
// words shared between topics and a word listed twice.
TEST(TopicCoherence, AllTopicsInOnePassEqualEachTopicAlone) {
    Rng rng(17);
    std::vector<std::vector<float>> rows(9000, std::vector<float>(8, 0.0f));
    for (auto& row : rows) {
        for (float& c : row) {
            c = rng.below(3) == 0 ? static_cast<float>(1 + rng.below(3)) : 0.0f;
        }
    }
    const CountMatrix counts = denseCounts(rows);
    std::vector<std::int64_t> all(rows.size());
    for (size_t d = 0; d < all.size(); ++d) {
        all[d] = static_cast<std::int64_t>(d);
    }
    TopicModelResult model = threeTopics();
    model.topics.resize(8, 3);
    model.topics.col(0) << 0.30, 0.25, 0.20, 0.15, 0.10, 0.0, 0.0, 0.0;
    model.topics.col(1) << 0.05, 0.30, 0.0, 0.25, 0.0, 0.20, 0.20, 0.0;
    model.topics.col(2) << 0.0, 0.0, 0.05, 0.0, 0.15, 0.20, 0.25, 0.35;
    const std::vector<double> npmi = topicCoherence(counts, all, model, 4);
    ASSERT_EQ(npmi.size(), 3u);
    const std::vector<std::vector<int>> top = {{0, 1, 2, 3}, {1, 3, 5, 6}, {7, 6, 5, 4}};
    for (size_t t = 0; t < 3; ++t) {
        const std::vector<Eigen::Index> list(top[t].begin(), top[t].end());
        EXPECT_EQ(npmi[t], npmiCoherence(counts, all, list)) << "topic " << t;
        EXPECT_NEAR(npmi[t], bruteForceNpmi(rows, top[t]), 1e-12) << "topic " << t;
    }
    EXPECT_NEAR(npmiCoherence(counts, all, {2, 5, 2}), bruteForceNpmi(rows, {2, 5, 2}), 1e-12);
}

} // namespace
} // namespace cx
