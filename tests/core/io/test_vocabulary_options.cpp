#include "core/common/error.h"
#include "core/io/corpus_loader.h"
#include "corpus_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace cx {
namespace {

bool hasWord(const Corpus& corpus, const std::string& word) {
    return std::binary_search(corpus.vocabulary.begin(), corpus.vocabulary.end(), word);
}

const char* kNewsTsv =
    "text\ttopic\n"
    "reuter profit rose 1987 to 155 mln g7 talks\tearn\n"
    "reuter profit fell in 1987 mln g7\tearn\n"
    "reuter shares rose 155 mln\tacq\n"
    "reuter shares fell mln profit\tacq\n";

TEST(VocabularyOptions, NumbersKeptByDefaultDroppedOnRequest) {
    test::ScratchFolder folder;
    const std::string path = folder.write("news.tsv", kNewsTsv);
    CorpusLoadOptions options;
    options.minDocumentFrequency = 1;
    const Corpus kept = loadCorpus(path, options);
    EXPECT_TRUE(hasWord(kept, "1987"));
    EXPECT_TRUE(hasWord(kept, "155"));
    options.removeNumbers = true;
    const Corpus dropped = loadCorpus(path, options);
    EXPECT_FALSE(hasWord(dropped, "1987"));
    EXPECT_FALSE(hasWord(dropped, "155"));
    EXPECT_TRUE(hasWord(dropped, "g7")); // letters and digits together are a word
    EXPECT_EQ(dropped.report.tokensKept, kept.report.tokensKept - 4);
}

TEST(VocabularyOptions, MaxDocumentFractionDropsBoilerplate) {
    test::ScratchFolder folder;
    const std::string path = folder.write("news.tsv", kNewsTsv);
    CorpusLoadOptions options;
    options.minDocumentFrequency = 1;
    options.maxDocumentFraction = 0.75; // at most 3 of the 4 documents
    const Corpus corpus = loadCorpus(path, options);
    EXPECT_FALSE(hasWord(corpus, "reuter")); // in 4 of 4 documents
    EXPECT_FALSE(hasWord(corpus, "mln"));    // in 4 of 4
    EXPECT_TRUE(hasWord(corpus, "profit"));  // in 3 of 4
    options.maxDocumentFraction = 0.0;
    EXPECT_THROW(loadCorpus(path, options), InputError);
    options.maxDocumentFraction = 1.5;
    EXPECT_THROW(loadCorpus(path, options), InputError);
}

} // namespace
} // namespace cx
