#include "corpus_checks.h"

#include "core/common/cancel.h"
#include "core/common/error.h"
#include "core/io/corpus_loader.h"
#include "core/io/selection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace cx {
namespace {

using test::corpusFixture;
using test::expectInputError;
using test::expectSameCorpus;
using test::expectWellFormed;
using test::field;
using test::labelsOf;
using test::loose;
using test::readBytes;
using test::replaceAll;
using test::row;
using test::ScratchFolder;
using test::Strings;
using test::valueCounts;
using test::WordCounts;

// ---- TSV / CSV ------------------------------------------------------------------------------

/// The fixtures' expectations count their pure numbers ("5"): keep them (the default drops them).
CorpusLoadOptions keepingNumbers() {
    CorpusLoadOptions options;
    options.removeNumbers = false;
    return options;
}

TEST(CorpusLoader, ReadsLabelledTsv) {
    const Corpus corpus = loadCorpus(corpusFixture("labelled.tsv"), keepingNumbers());
    expectWellFormed(corpus);
    // Stop words go, then words in fewer than 2 documents, then documents under 3 tokens.
    EXPECT_EQ(corpus.vocabulary,
              (Strings{"5", "cat", "market", "mat", "percent", "sat", "stocks"}));
    EXPECT_EQ(corpus.report.documentsRead, 5);
    EXPECT_EQ(corpus.report.documentsKept, 4);
    EXPECT_EQ(corpus.report.documentsSkippedShort, 1); // "ok then": only stop words
    EXPECT_EQ(corpus.report.tokensKept, 15);
    EXPECT_EQ(corpus.report.vocabularySize, 7);
    EXPECT_EQ(corpus.report.invalidBytes, 0);
    EXPECT_EQ(corpus.report.files, Strings{corpusFixture("labelled.tsv")});
    EXPECT_EQ(row(corpus, 0), (WordCounts{{"cat", 2}, {"mat", 1}, {"sat", 1}}));
    EXPECT_EQ(row(corpus, 1), (WordCounts{{"cat", 1}, {"mat", 1}, {"sat", 1}}));
    EXPECT_EQ(row(corpus, 2), (WordCounts{{"5", 1}, {"market", 1}, {"percent", 1}, {"stocks", 1}}));
    EXPECT_EQ(row(corpus, 3), row(corpus, 2));
    // Header names are lower-cased; the text column is not a label field.
    ASSERT_EQ(corpus.labels.size(), 2u);
    EXPECT_EQ(corpus.labels[0].name, "topics");
    EXPECT_EQ(corpus.labels[1].name, "author");
    EXPECT_EQ(labelsOf(corpus, "topics", 0), (Strings{"animals", "pets"}));
    EXPECT_EQ(labelsOf(corpus, "topics", 1), (Strings{"animals", "pets"})); // "Pets;Animals"
    EXPECT_EQ(labelsOf(corpus, "topics", 3), (Strings{"finance", "markets"}));
    EXPECT_EQ(valueCounts(corpus, "topics"),
              (std::map<std::string, std::int64_t>{
                  {"animals", 2}, {"finance", 2}, {"markets", 1}, {"pets", 2}}));
    // bob's second row was skipped: counts are over kept documents.
    EXPECT_EQ(valueCounts(corpus, "author"),
              (std::map<std::string, std::int64_t>{{"alice", 2}, {"bob", 1}, {"carol", 1}}));
    EXPECT_EQ(corpus.documentIds, (Strings{"2", "3", "4", "5"})); // line numbers
}

TEST(CorpusLoader, ReadsLabelledCsvLikeTsv) {
    // Same rows as labelled.tsv, with quoting: separators, doubled quotes and a line break
    // inside quotes, and no newline after the last line.
    const Corpus tsv = loadCorpus(corpusFixture("labelled.tsv"));
    const Corpus csv = loadCorpus(corpusFixture("labelled.csv"));
    expectWellFormed(csv);
    expectSameCorpus(tsv, csv);
    EXPECT_EQ(csv.documentIds, (Strings{"2", "3", "5", "6"})); // row 2 spans lines 3-4
}

TEST(CorpusLoader, CsvUnquotesDoubledQuotesAndSeparators) {
    ScratchFolder scratch;
    const std::string path =
        scratch.write("q.csv", "text,tag\n\"say \"\"hello\"\", world\",  \"x, y\" \nplain,z\n");
    CorpusLoadOptions options = loose();
    options.removeStopWords = false;
    const Corpus corpus = loadCorpus(path, options);
    EXPECT_EQ(corpus.vocabulary, (Strings{"hello", "plain", "say", "world"}));
    EXPECT_EQ(labelsOf(corpus, "tag", 0), (Strings{"x", "y"}));
    EXPECT_EQ(labelsOf(corpus, "tag", 1), (Strings{"z"}));
}

TEST(CorpusLoader, CsvKeepsLineNumbersAfterQuotedLineBreaks) {
    ScratchFolder scratch;
    const std::string path = scratch.write(
        "multi.csv", "text,label\n\"first\nsecond\nthird\",a\nfine,b\ntoo,many,fields\n");
    expectInputError([&] { loadCorpus(path); }, {"multi.csv:6:", "expected 2 fields", "found 3"});
}

TEST(CorpusLoader, GzipAndPlainGiveTheSameCorpus) {
    ScratchFolder scratch;
    for (const std::string name : {"labelled.tsv", "labelled.csv"}) {
        const Corpus plain = loadCorpus(corpusFixture(name));
        const std::string gz = scratch.writeGzip(name + ".gz", readBytes(corpusFixture(name)));
        const Corpus zipped = loadCorpus(gz);
        expectSameCorpus(plain, zipped);
        EXPECT_EQ(plain.documentIds, zipped.documentIds);
    }
}

TEST(CorpusLoader, CrlfAndLfGiveTheSameCorpus) {
    ScratchFolder scratch;
    for (const std::string name : {"labelled.tsv", "labelled.csv"}) {
        const std::string crlf =
            scratch.write("crlf_" + name, replaceAll(readBytes(corpusFixture(name)), "\n", "\r\n"));
        const Corpus lf = loadCorpus(corpusFixture(name));
        const Corpus dos = loadCorpus(crlf);
        expectSameCorpus(lf, dos);
        EXPECT_EQ(lf.documentIds, dos.documentIds);
        EXPECT_EQ(field(dos, "author").values, (Strings{"alice", "bob", "carol"})); // no '\r'
    }
}

TEST(CorpusLoader, FinalLineWithoutNewlineIsRead) {
    ScratchFolder scratch;
    std::string text = readBytes(corpusFixture("labelled.tsv"));
    ASSERT_EQ(text.back(), '\n');
    text.pop_back();
    const Corpus withNewline = loadCorpus(corpusFixture("labelled.tsv"));
    const Corpus without = loadCorpus(scratch.write("no_final_newline.tsv", text));
    expectSameCorpus(withNewline, without);
    // And the last row really is read (it is the only row here).
    const Corpus single = loadCorpus(scratch.write("one.tsv", "text\ncocoa prices rose"), loose());
    EXPECT_EQ(single.vocabulary, (Strings{"cocoa", "prices", "rose"}));
}

TEST(CorpusLoader, CountsAndDecodesNonUtf8Bytes) {
    ScratchFolder scratch;
    // Latin-1 é (0xE9) in the text and in a label; a valid UTF-8 é in another label.
    const std::string path = scratch.write(
        "latin1.tsv",
        "text\tlabel\ncaf\xE9 latte cocoa\tb\xE9ta\ncocoa latte\t\xC3\xA9t\xC3\xA9\n");
    const Corpus corpus = loadCorpus(path, loose());
    EXPECT_EQ(corpus.report.invalidBytes, 2);
    EXPECT_EQ(corpus.vocabulary, (Strings{"caf", "cocoa", "latte"}));
    EXPECT_EQ(field(corpus, "label").values, (Strings{"b\xC3\xA9ta", "\xC3\xA9t\xC3\xA9"}));
}

TEST(CorpusLoader, RejectsEmptyFile) {
    expectInputError([] { loadCorpus(corpusFixture("bad/empty.tsv")); },
                     {"empty.tsv", "empty file"});
    ScratchFolder scratch;
    const std::string blank = scratch.write("blank.csv", "\n\n  \n");
    expectInputError([&] { loadCorpus(blank); }, {"blank.csv", "empty file"});
}

TEST(CorpusLoader, RejectsHeaderWithoutTextColumn) {
    expectInputError([] { loadCorpus(corpusFixture("bad/no_text_column.tsv")); },
                     {"no_text_column.tsv:1:", "no 'text' column", "'title', 'author'"});
    // A CSV read as TSV: one column whose name holds commas gets a hint.
    ScratchFolder scratch;
    const std::string path = scratch.write("x.tsv", "text,label\nabc,d\n");
    expectInputError([&] { loadCorpus(path); }, {"x.tsv:1:", "'text,label'", "csv"});
}

TEST(CorpusLoader, RejectsRaggedRow) {
    expectInputError([] { loadCorpus(corpusFixture("bad/ragged.tsv")); },
                     {"ragged.tsv:3:", "expected 2 fields", "found 1"});
}

TEST(CorpusLoader, RejectsUnterminatedQuote) {
    expectInputError([] { loadCorpus(corpusFixture("bad/unterminated_quote.csv")); },
                     {"unterminated_quote.csv:3:", "unterminated quoted field"});
}

TEST(CorpusLoader, RejectsBinaryFile) {
    expectInputError([] { loadCorpus(corpusFixture("bad/binary.tsv")); },
                     {"binary.tsv:2:", "looks binary"});
    ScratchFolder scratch;
    const std::string gz = scratch.writeGzip("binary.tsv.gz", std::string("text\n\0\0\0\0", 9));
    expectInputError([&] { loadCorpus(gz); }, {"binary.tsv.gz:2:", "looks binary"});
}

TEST(CorpusLoader, RejectsDuplicateColumnAndHeaderOnly) {
    ScratchFolder scratch;
    const std::string duplicate = scratch.write("dup.tsv", "text\tTag\ttag\na\tb\tc\n");
    expectInputError([&] { loadCorpus(duplicate); },
                     {"dup.tsv:1:", "duplicate column name 'tag'", "columns 2 and 3"});
    const std::string headerOnly = scratch.write("header.tsv", "text\tlabel\n");
    expectInputError([&] { loadCorpus(headerOnly); }, {"header.tsv", "no data rows"});
}

TEST(CorpusLoader, MaxVocabularyKeepsMostFrequentWordsTiesAlphabetical) {
    CorpusLoadOptions options = keepingNumbers();
    options.maxVocabulary = 3;
    options.minTokens = 1;
    // All seven words of labelled.tsv have document frequency 2: ties go alphabetically.
    const Corpus corpus = loadCorpus(corpusFixture("labelled.tsv"), options);
    expectWellFormed(corpus);
    EXPECT_EQ(corpus.vocabulary, (Strings{"5", "cat", "market"}));
    EXPECT_EQ(corpus.report.documentsKept, 4);

    ScratchFolder scratch;
    const std::string path = scratch.write(
        "df.tsv", "text\nzebra apple\nzebra apple mango\nzebra mango kiwi\nzebra kiwi\n");
    options.maxVocabulary = 2;
    options.minDocumentFrequency = 1;
    const Corpus byFrequency = loadCorpus(path, options);
    // zebra (4) first, then apple/kiwi/mango (2 each) tie: apple wins.
    EXPECT_EQ(byFrequency.vocabulary, (Strings{"apple", "zebra"}));
}

TEST(CorpusLoader, ThrowsWhenNoDocumentSurvives) {
    CorpusLoadOptions options = keepingNumbers();
    options.maxVocabulary = 3; // leaves every document with fewer than 3 tokens
    expectInputError(
        [&] { loadCorpus(corpusFixture("labelled.tsv"), options); },
        {"labelled.tsv", "no document has 3 or more tokens after the vocabulary cut", "min-df 2"});
    ScratchFolder scratch;
    const std::string unique = scratch.write("unique.tsv", "text\nalpha beta\ngamma delta\n");
    expectInputError([&] { loadCorpus(unique); }, {"unique.tsv", "no word occurs in 2 or more"});
    const std::string stops = scratch.write("stops.tsv", "text\nthe and of\nit is\n");
    expectInputError([&] { loadCorpus(stops); }, {"stops.tsv", "stop words"});
}

TEST(CorpusLoader, StopWordsCanBeKept) {
    CorpusLoadOptions options;
    options.removeStopWords = false;
    const Corpus corpus = loadCorpus(corpusFixture("labelled.tsv"), options);
    expectWellFormed(corpus);
    EXPECT_TRUE(std::binary_search(corpus.vocabulary.begin(), corpus.vocabulary.end(), "the"));
    EXPECT_EQ(corpus.report.documentsKept, 4); // "ok then" is still one word per document
}

TEST(CorpusLoader, MinTokensZeroKeepsEmptyDocuments) {
    CorpusLoadOptions options;
    options.minTokens = 0;
    const Corpus corpus = loadCorpus(corpusFixture("labelled.tsv"), options);
    expectWellFormed(corpus);
    EXPECT_EQ(corpus.report.documentsKept, 5);
    EXPECT_EQ(row(corpus, 4), WordCounts{});
    EXPECT_EQ(valueCounts(corpus, "author").at("bob"), 2);
}

TEST(CorpusLoader, RejectsBadOptionsAndPaths) {
    CorpusLoadOptions options;
    options.minDocumentFrequency = -1;
    expectInputError([&] { loadCorpus(corpusFixture("labelled.tsv"), options); }, {"min-df"});
    options = {};
    options.minTokens = -2;
    expectInputError([&] { loadCorpus(corpusFixture("labelled.tsv"), options); }, {"min-tokens"});
    options = {};
    options.maxVocabulary = -5;
    expectInputError([&] { loadCorpus(corpusFixture("labelled.tsv"), options); },
                     {"max-vocabulary"});
    expectInputError([] { loadCorpus("/no/such/corpus.tsv"); },
                     {"/no/such/corpus.tsv", "no such file"});
    expectInputError(
        [] { loadCorpus(corpusFixture("labelled.tsv") + "," + corpusFixture("labelled.csv")); },
        {"comma-separated list"});
}

TEST(CorpusLoader, ParsesFormatNames) {
    for (const CorpusFormat format :
         {CorpusFormat::Auto, CorpusFormat::Tsv, CorpusFormat::Csv, CorpusFormat::UciBagOfWords,
          CorpusFormat::Reuters, CorpusFormat::TextFolder}) {
        EXPECT_EQ(parseCorpusFormat(toString(format)), format);
    }
    EXPECT_EQ(parseCorpusFormat(" UCI "), CorpusFormat::UciBagOfWords);
    expectInputError([] { parseCorpusFormat("xml"); }, {"'xml'", "tsv"});
}

TEST(CorpusLoader, ForcedFormatOverridesFileName) {
    ScratchFolder scratch;
    const std::string path = scratch.write("data.txt", "text,label\ncocoa beans,a\ncocoa,b\n");
    CorpusLoadOptions options = loose();
    options.format = CorpusFormat::Csv;
    const Corpus corpus = loadCorpus(path, options);
    EXPECT_EQ(corpus.vocabulary, (Strings{"beans", "cocoa"}));
    EXPECT_EQ(field(corpus, "label").values, (Strings{"a", "b"}));
}

TEST(CorpusLoader, ReportsProgressAndHonoursCancel) {
    std::vector<double> fractions;
    const ProgressFn progress = [&](double fraction, const char*) {
        fractions.push_back(fraction);
    };
    loadCorpus(corpusFixture("reuters"), loose(), {}, progress);
    ASSERT_FALSE(fractions.empty());
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_GE(fractions.front(), 0.0);
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);

    const CancelToken cancel = CancelToken::create();
    cancel.cancel();
    EXPECT_THROW(loadCorpus(corpusFixture("labelled.tsv"), {}, cancel), Cancelled);
}

// ---- Text folder ----------------------------------------------------------------------------

TEST(CorpusLoader, ReadsTextFolderWithFolderLabels) {
    const Corpus corpus = loadCorpus(corpusFixture("textfolder"));
    expectWellFormed(corpus);
    EXPECT_EQ(corpus.documentIds, (Strings{"comp.graphics/1.txt", "comp.graphics/2.txt",
                                           "rec.autos/3.txt", "rec.autos/sub/4.txt", "top.txt"}));
    EXPECT_EQ(corpus.vocabulary,
              (Strings{"car", "engine", "oil", "polygons", "rendering", "shaders"}));
    EXPECT_EQ(corpus.report.documentsRead, 5);
    EXPECT_EQ(corpus.report.documentsKept, 5);
    EXPECT_EQ(corpus.report.tokensKept, 19);
    EXPECT_EQ(row(corpus, 0), (WordCounts{{"polygons", 2}, {"rendering", 1}, {"shaders", 1}}));
    EXPECT_EQ(row(corpus, 2), (WordCounts{{"car", 1}, {"engine", 2}, {"oil", 2}}));
    EXPECT_EQ(valueCounts(corpus, "folder"),
              (std::map<std::string, std::int64_t>{
                  {"comp.graphics", 2}, {"rec.autos", 1}, {"rec.autos/sub", 1}}));
    EXPECT_EQ(labelsOf(corpus, "folder", 4), Strings{}); // top.txt sits in the root
    EXPECT_EQ(corpus.report.files.size(), 5u);
}

TEST(CorpusLoader, TextFolderRejectsEmptyFolderAndBinaryFiles) {
    ScratchFolder scratch;
    scratch.write("empty/notes.md", "no text files here\n");
    expectInputError([&] { loadCorpus(scratch.path("empty")); }, {"empty", "no .txt files"});
    scratch.write("mixed/a.txt", "fine text here\n");
    scratch.write("mixed/b.txt", std::string("\x7f"
                                             "ELF\0\0\0\0",
                                             8));
    expectInputError([&] { loadCorpus(scratch.path("mixed")); }, {"b.txt:1:", "looks binary"});
    CorpusLoadOptions options;
    options.format = CorpusFormat::TextFolder;
    expectInputError([&] { loadCorpus(corpusFixture("labelled.tsv"), options); },
                     {"labelled.tsv", "not a folder"});
}

} // namespace
} // namespace cx
