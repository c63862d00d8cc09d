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

const char* kNewsTsv = "text\ttopic\n"
                       "reuter profit rose 1987 to 155 mln g7 talks\tearn\n"
                       "reuter profit fell in 1987 mln g7\tearn\n"
                       "reuter shares rose 155 mln\tacq\n"
                       "reuter shares fell mln profit\tacq\n";

TEST(VocabularyOptions, NumbersDroppedByDefaultKeptOnRequest) {
    test::ScratchFolder folder;
    const std::string path = folder.write("news.tsv", kNewsTsv);
    CorpusLoadOptions options;
    options.minDocumentFrequency = 1;
    const Corpus dropped = loadCorpus(path, options); // the default, as in MALLET and gensim
    options.removeNumbers = false;
    const Corpus kept = loadCorpus(path, options);
    EXPECT_TRUE(hasWord(kept, "1987"));
    EXPECT_TRUE(hasWord(kept, "155"));
    EXPECT_FALSE(hasWord(dropped, "1987"));
    EXPECT_FALSE(hasWord(dropped, "155"));
    EXPECT_TRUE(hasWord(dropped, "g7")); // letters and digits together are a word
    EXPECT_EQ(dropped.report.tokensKept, kept.report.tokensKept - 4);
}

TEST(VocabularyOptions, VocabularyIsCappedByTheNumberOfDocuments) {
    // 1,200 documents over 1,500 distinct words (each in 2 documents) plus one common word:
    // the size rule keeps max(1,200, 1,000) = 1,200 words, the most frequent first.
    std::string tsv = "text\tgroup\n";
    for (int d = 0; d < 1200; ++d) {
        tsv += "common w" + std::to_string(d % 1500) + "x w" + std::to_string((d + 600) % 1500) +
               "x w" + std::to_string((d + 1100) % 1500) + "x\tg\n";
    }
    test::ScratchFolder folder;
    const std::string path = folder.write("many.tsv", tsv);
    CorpusLoadOptions options;
    options.minDocumentFrequency = 1;
    const Corpus capped = loadCorpus(path, options);
    EXPECT_EQ(capped.vocabulary.size(), 1200u);
    EXPECT_TRUE(hasWord(capped, "common"));
    // The report says what the cap dropped and why.
    EXPECT_EQ(capped.report.vocabularyCap, 1200);
    EXPECT_TRUE(capped.report.vocabularyCapAutomatic);
    EXPECT_EQ(capped.report.wordsDroppedByCap, 301);
    const std::string note = vocabularyCapNote(capped.report);
    EXPECT_NE(note.find("301 words dropped by the vocabulary cap of 1200"), std::string::npos)
        << note;
    EXPECT_NE(note.find("automatic"), std::string::npos) << note;
    EXPECT_NE(note.find("1501"), std::string::npos) << note; // the setting that keeps them
    options.maxVocabulary = 1501; // what the note suggests keeps every word
    EXPECT_EQ(loadCorpus(path, options).vocabulary.size(), 1501u);
    EXPECT_EQ(loadCorpus(path, options).report.wordsDroppedByCap, 0);
    EXPECT_EQ(vocabularyCapNote(loadCorpus(path, options).report), "");
    options.maxVocabulary = 0;
    options.capVocabularyAtDocuments = false;
    const Corpus uncapped = loadCorpus(path, options);
    EXPECT_EQ(uncapped.vocabulary.size(), 1501u);
    EXPECT_EQ(uncapped.report.vocabularyCap, 0);
    EXPECT_EQ(uncapped.report.wordsDroppedByCap, 0);
    options.maxVocabulary = 100; // an explicit cap wins
    const Corpus explicitCap = loadCorpus(path, options);
    EXPECT_EQ(explicitCap.vocabulary.size(), 100u);
    EXPECT_FALSE(explicitCap.report.vocabularyCapAutomatic);
    EXPECT_EQ(explicitCap.report.wordsDroppedByCap, 1401);
    EXPECT_NE(vocabularyCapNote(explicitCap.report).find("1401 words dropped"), std::string::npos);
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
