// The UCI bag-of-words and Reuters-21578 readers, and every reader under mutated input.
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

// ---- UCI bag-of-words -----------------------------------------------------------------------

// uci/: D = 4, W = 6 (cherry apple the banana date elder), NNZ = 11, labels.tiny.tsv.
void expectTinyUci(const Corpus& corpus) {
    expectWellFormed(corpus);
    // "the" is a stop word; date and elder occur in one document only.
    EXPECT_EQ(corpus.vocabulary, (Strings{"apple", "banana", "cherry"}));
    EXPECT_EQ(corpus.report.documentsRead, 4);
    EXPECT_EQ(corpus.report.documentsKept, 3);
    EXPECT_EQ(corpus.report.documentsSkippedShort, 1); // doc 4: apple x1
    EXPECT_EQ(corpus.report.tokensKept, 10);
    EXPECT_EQ(row(corpus, 0), (WordCounts{{"apple", 1}, {"cherry", 2}}));
    EXPECT_EQ(row(corpus, 1), (WordCounts{{"apple", 2}, {"banana", 1}}));
    EXPECT_EQ(row(corpus, 2), (WordCounts{{"banana", 3}, {"cherry", 1}}));
    EXPECT_EQ(corpus.documentIds, (Strings{"1", "2", "3"}));
    ASSERT_EQ(corpus.labels.size(), 2u);
    EXPECT_EQ(labelsOf(corpus, "class", 1), (Strings{"fruit", "red"}));
    EXPECT_EQ(valueCounts(corpus, "class"),
              (std::map<std::string, std::int64_t>{{"berry", 1}, {"fruit", 2}, {"red", 1}}));
    EXPECT_EQ(valueCounts(corpus, "source"),
              (std::map<std::string, std::int64_t>{{"news", 1}, {"web", 1}}));
}

TEST(CorpusLoader, ReadsUciWithLabels) {
    const Corpus corpus = loadCorpus(corpusFixture("uci/docword.tiny.txt"));
    expectTinyUci(corpus);
    EXPECT_EQ(corpus.report.files.size(), 3u);
}

TEST(CorpusLoader, FolderWithOneDocwordFileIsReadAsUci) {
    // As `contrast-cli generate --out DIR` writes it: the folder alone names the corpus.
    ScratchFolder scratch;
    for (const char* name : {"docword.tiny.txt", "vocab.tiny.txt", "labels.tiny.tsv"}) {
        scratch.write(name, readBytes(corpusFixture(std::string("uci/") + name)));
    }
    expectTinyUci(loadCorpus(scratch.root()));

    scratch.write("docword.other.txt", readBytes(corpusFixture("uci/docword.tiny.txt")));
    expectInputError([&] { loadCorpus(scratch.root()); }, {"several docword", "name the one"});
}

TEST(CorpusLoader, UciGzipMatchesPlainAndAcceptsPathPairs) {
    ScratchFolder scratch;
    scratch.writeGzip("docword.tiny.txt.gz", readBytes(corpusFixture("uci/docword.tiny.txt")));
    scratch.write("vocab.tiny.txt", readBytes(corpusFixture("uci/vocab.tiny.txt")));
    scratch.writeGzip("labels.tiny.tsv.gz", readBytes(corpusFixture("uci/labels.tiny.tsv")));
    const Corpus zipped = loadCorpus(scratch.path("docword.tiny.txt.gz"));
    expectTinyUci(zipped);
    expectSameCorpus(loadCorpus(corpusFixture("uci/docword.tiny.txt")), zipped);

    // "DOCWORD,VOCAB" with any names; no labels then.
    const std::string docword =
        scratch.write("counts.dat", readBytes(corpusFixture("uci/docword.tiny.txt")));
    const std::string vocab =
        scratch.write("words.dat", readBytes(corpusFixture("uci/vocab.tiny.txt")));
    CorpusLoadOptions options;
    const Corpus pair = loadCorpus(docword + " , " + vocab, options); // a list: UCI
    EXPECT_EQ(pair.vocabulary, zipped.vocabulary);
    EXPECT_EQ(pair.counts.colIdx, zipped.counts.colIdx);
    EXPECT_TRUE(pair.labels.empty());
    // "DOCWORD,VOCAB,LABELS".
    const Corpus triple =
        loadCorpus(docword + "," + vocab + "," + corpusFixture("uci/labels.tiny.tsv"), options);
    expectTinyUci(triple);
}

TEST(CorpusLoader, UciHandlesUnsortedDocumentsAndWords) {
    ScratchFolder scratch;
    // The entries of uci/docword.tiny.txt shuffled: documents interleaved, words unsorted.
    scratch.write("docword.tiny.txt", "4\n6\n11\n3 5 1\n1 3 5\n2 4 1\n4 6 1\n1 1 2\n3 1 1\n"
                                      "2 2 2\n3 4 3\n1 2 1\n4 2 1\n2 3 1\n");
    scratch.write("vocab.tiny.txt", readBytes(corpusFixture("uci/vocab.tiny.txt")));
    scratch.write("labels.tiny.tsv", readBytes(corpusFixture("uci/labels.tiny.tsv")));
    const Corpus corpus = loadCorpus(scratch.path("docword.tiny.txt"));
    expectTinyUci(corpus);
    expectSameCorpus(loadCorpus(corpusFixture("uci/docword.tiny.txt")), corpus);
}

TEST(CorpusLoader, UciMergesRepeatedEntriesAndWords) {
    ScratchFolder scratch;
    // (1, apple) listed twice; vocabulary line 5 repeats "apple".
    scratch.write("docword.rep.txt", "2\n5\n6\n1 1 2\n1 1 3\n1 2 1\n2 5 4\n2 1 1\n2 3 1\n");
    scratch.write("vocab.rep.txt", "apple\ncocoa\nprices\nrose\napple\n");
    CorpusLoadOptions options = loose();
    const Corpus corpus = loadCorpus(scratch.path("docword.rep.txt"), options);
    expectWellFormed(corpus);
    EXPECT_EQ(corpus.vocabulary, (Strings{"apple", "cocoa", "prices"}));
    EXPECT_EQ(row(corpus, 0), (WordCounts{{"apple", 5}, {"cocoa", 1}}));
    EXPECT_EQ(row(corpus, 1), (WordCounts{{"apple", 5}, {"prices", 1}}));
    ASSERT_FALSE(corpus.report.warnings.empty());
    EXPECT_NE(corpus.report.warnings[0].find("vocab.rep.txt:5:"), std::string::npos);
}

TEST(CorpusLoader, UciRejectsBadHeaders) {
    ScratchFolder scratch;
    scratch.write("vocab.h.txt", "a\nb\n");
    const auto load = [&](const std::string& docword) {
        scratch.write("docword.h.txt", docword);
        loadCorpus(scratch.path("docword.h.txt"));
    };
    expectInputError([&] { load(""); }, {"docword.h.txt:1:", "empty file"});
    expectInputError([&] { load("2\ntwo\n1\n1 1 1\n"); }, {"docword.h.txt:2:", "W", "'two'"});
    expectInputError([&] { load("2\n2\n"); }, {"docword.h.txt:3:", "NNZ"});
    expectInputError([&] { load("0\n2\n0\n"); }, {"docword.h.txt:1:", "D = 0"});
    expectInputError([&] { load("1\n3\n1\n1 1 1\n"); },
                     {"vocab.h.txt:2:", "has 2 words but W = 3"});
    expectInputError([&] { load("1\n1\n1\n1 1 1\n"); },
                     {"vocab.h.txt:2:", "more words than W = 1"});
}

TEST(CorpusLoader, UciRejectsBadEntries) {
    ScratchFolder scratch;
    scratch.write("vocab.e.txt", "alpha\nbeta\ngamma\n");
    const auto load = [&](const std::string& entries) {
        scratch.write("docword.e.txt", "2\n3\n2\n1 1 1\n" + entries);
        loadCorpus(scratch.path("docword.e.txt"));
    };
    expectInputError([&] { load("3 1 1\n"); },
                     {"docword.e.txt:5:", "docID 3 is out of range 1..2"});
    expectInputError([&] { load("1 0 1\n"); },
                     {"docword.e.txt:5:", "wordID 0 is out of range 1..3"});
    expectInputError([&] { load("1 4 1\n"); }, {"docword.e.txt:5:", "wordID 4"});
    expectInputError([&] { load("1 2 0\n"); }, {"docword.e.txt:5:", "count 0"});
    expectInputError([&] { load("1 2 1.5\n"); }, {"docword.e.txt:5:", "count '1.5'"});
    expectInputError([&] { load("1 2 -1\n"); }, {"docword.e.txt:5:", "count '-1'"});
    expectInputError([&] { load("1 2\n"); }, {"docword.e.txt:5:", "expected 3 numbers", "found 2"});
    expectInputError([&] { load("1 2 1 7\n"); }, {"docword.e.txt:5:", "found 4"});
    expectInputError([&] { load("1 2 1\n2 2 1\n"); },
                     {"docword.e.txt:6:", "more entries than NNZ = 2"});
    expectInputError([] { loadCorpus(corpusFixture("bad/docword.truncated.txt")); },
                     {"docword.truncated.txt:6:", "NNZ = 4", "has 3 entries"});
}

TEST(CorpusLoader, UciAcceptsBlankLinesAndTabs) {
    ScratchFolder scratch;
    scratch.write("vocab.b.txt", "alpha\r\nbeta\r\n\r\n");
    scratch.write("docword.b.txt", "2\r\n2\r\n3\r\n1\t1\t2\r\n\r\n 2 1 1 \r\n2 2 3");
    const Corpus corpus = loadCorpus(scratch.path("docword.b.txt"), loose());
    EXPECT_EQ(corpus.vocabulary, (Strings{"alpha", "beta"}));
    EXPECT_EQ(row(corpus, 1), (WordCounts{{"alpha", 1}, {"beta", 3}}));
}

TEST(CorpusLoader, UciRejectsBadLabelsAndMissingVocabulary) {
    ScratchFolder scratch;
    scratch.write("docword.l.txt", readBytes(corpusFixture("uci/docword.tiny.txt")));
    expectInputError([&] { loadCorpus(scratch.path("docword.l.txt")); },
                     {"docword.l.txt", "vocab.l.txt"});
    scratch.write("vocab.l.txt", readBytes(corpusFixture("uci/vocab.tiny.txt")));
    scratch.write("labels.l.tsv", "class\tsource\nfruit\tweb\nberry\tweb\n");
    expectInputError([&] { loadCorpus(scratch.path("docword.l.txt")); },
                     {"labels.l.tsv:3:", "has 2 label rows but D = 4"});
    scratch.write("labels.l.tsv", "class\tsource\nfruit\tweb\nberry\n");
    expectInputError([&] { loadCorpus(scratch.path("docword.l.txt")); },
                     {"labels.l.tsv:3:", "expected 2 fields", "found 1"});
    scratch.write("labels.l.tsv", "class\na\nb\nc\nd\ne\n");
    expectInputError([&] { loadCorpus(scratch.path("docword.l.txt")); },
                     {"labels.l.tsv:6:", "more label rows than D = 4"});
}

// ---- Reuters-21578 SGML ---------------------------------------------------------------------

// reuters/reut2-000.sgm: NEWID 1 (normal), 2 (BRIEF: title only), 3 (UNPROC: raw text);
// reut2-001.sgm: NEWID 4 (normal, one 0xFC byte), 5 (BRIEF, two tokens). other.sgm is ignored.
void expectReutersFixture(const Corpus& corpus) {
    expectWellFormed(corpus);
    EXPECT_EQ(corpus.report.documentsRead, 5);
    EXPECT_EQ(corpus.report.documentsKept, 4);
    EXPECT_EQ(corpus.report.documentsSkippedShort, 1); // NEWID 5: "bank", "japan"
    EXPECT_EQ(corpus.report.invalidBytes, 1);
    EXPECT_EQ(corpus.report.tokensKept, 12 + 4 + 11 + 12);
    EXPECT_EQ(corpus.report.vocabularySize, 28);
    EXPECT_EQ(corpus.documentIds, (Strings{"1", "2", "3", "4"}));
    // TITLE + BODY; DATELINE, UNKNOWN and &#N; references are not text; &lt;BAHIA> is.
    EXPECT_EQ(row(corpus, 0), (WordCounts{{"arrivals", 1},
                                          {"bahia", 3},
                                          {"cocoa", 2},
                                          {"continued", 1},
                                          {"reuter", 1},
                                          {"review", 1},
                                          {"rose", 1},
                                          {"showers", 1},
                                          {"zone", 1}}));
    EXPECT_EQ(row(corpus, 1),
              (WordCounts{{"cocoa", 1}, {"prices", 1}, {"rose", 1}, {"volcker", 1}}));
    EXPECT_EQ(row(corpus, 2), (WordCounts{{"26", 1},
                                          {"425", 1},
                                          {"680", 1},
                                          {"bank", 1},
                                          {"borrowings", 1},
                                          {"feb", 1},
                                          {"federal", 1},
                                          {"report", 1},
                                          {"reserve", 1},
                                          {"reuter", 1},
                                          {"weekly", 1}}));
    EXPECT_EQ(row(corpus, 3), (WordCounts{{"accord", 2},
                                          {"cocoa", 1},
                                          {"growth", 1},
                                          {"lawson", 2},
                                          {"louvre", 2},
                                          {"nchen", 1},
                                          {"reuter", 1},
                                          {"worked", 2}}));
    ASSERT_EQ(corpus.labels.size(), 6u);
    const Strings names = {"topics", "places", "people", "orgs", "exchanges", "lewissplit"};
    for (size_t i = 0; i < names.size(); ++i) {
        EXPECT_EQ(corpus.labels[i].name, names[i]);
    }
    EXPECT_EQ(labelsOf(corpus, "places", 0), (Strings{"el-salvador", "usa"}));
    EXPECT_EQ(labelsOf(corpus, "topics", 1), Strings{});
    EXPECT_EQ(labelsOf(corpus, "topics", 3), (Strings{"interest", "money-fx"}));
    EXPECT_EQ(valueCounts(corpus, "places"),
              (std::map<std::string, std::int64_t>{
                  {"el-salvador", 1}, {"uk", 1}, {"usa", 3}, {"west-germany", 1}}));
    EXPECT_EQ(valueCounts(corpus, "people"),
              (std::map<std::string, std::int64_t>{{"lawson", 1}, {"volcker", 1}}));
    EXPECT_EQ(valueCounts(corpus, "orgs"), (std::map<std::string, std::int64_t>{{"fed", 1}}));
    EXPECT_EQ(valueCounts(corpus, "exchanges"), (std::map<std::string, std::int64_t>{{"lse", 1}}));
    EXPECT_EQ(valueCounts(corpus, "lewissplit"),
              (std::map<std::string, std::int64_t>{{"not-used", 1}, {"test", 1}, {"train", 2}}));
}

TEST(CorpusLoader, ReadsReutersFixtureFolder) {
    CorpusLoadOptions options;
    options.minDocumentFrequency = 1;
    options.removeNumbers = false; // the fixture's counts include its numbers
    const Corpus corpus = loadCorpus(corpusFixture("reuters"), options);
    expectReutersFixture(corpus);
    EXPECT_EQ(corpus.report.files, (Strings{corpusFixture("reuters/reut2-000.sgm"),
                                            corpusFixture("reuters/reut2-001.sgm")}));

    const Corpus defaults = loadCorpus(corpusFixture("reuters"));
    expectWellFormed(defaults);
    EXPECT_EQ(defaults.vocabulary, (Strings{"bank", "cocoa", "reuter", "rose"}));
    EXPECT_EQ(defaults.documentIds, Strings{"1"});
}

TEST(CorpusLoader, ReutersFileListsAndGzipMatchTheFolder) {
    ScratchFolder scratch;
    const std::string first = corpusFixture("reuters/reut2-000.sgm");
    const std::string second =
        scratch.writeGzip("reut2-001.sgm.gz", readBytes(corpusFixture("reuters/reut2-001.sgm")));
    CorpusLoadOptions options;
    options.minDocumentFrequency = 1;
    options.removeNumbers = false; // the fixture's counts include its numbers
    const Corpus listed = loadCorpus(first + "," + second, options);
    expectReutersFixture(listed);
    expectSameCorpus(loadCorpus(corpusFixture("reuters"), options), listed);
    // A single file is read on its own.
    const Corpus single = loadCorpus(second, loose());
    EXPECT_EQ(single.report.documentsRead, 2);
}

TEST(CorpusLoader, ReutersRejectsUnterminatedBlock) {
    expectInputError([] { loadCorpus(corpusFixture("bad/reut2-900.sgm")); },
                     {"reut2-900.sgm:5:", "not closed"});
    ScratchFolder scratch;
    const std::string path = scratch.write(
        "reut2-902.sgm", "<REUTERS NEWID=\"1\">\n<TEXT><BODY>one</BODY></TEXT>\n"
                         "<REUTERS NEWID=\"2\">\n<TEXT><BODY>two</BODY></TEXT>\n</REUTERS>\n");
    expectInputError([&] { loadCorpus(path); }, {"reut2-902.sgm:1:", "not closed", "line 3"});
}

TEST(CorpusLoader, ReutersRejectsFileWithoutBlocks) {
    expectInputError([] { loadCorpus(corpusFixture("bad/reut2-901.sgm")); },
                     {"reut2-901.sgm", "no <REUTERS> block"});
    ScratchFolder scratch;
    const std::string empty = scratch.write("reut2-903.sgm", "");
    expectInputError([&] { loadCorpus(empty); }, {"reut2-903.sgm", "empty file"});
    const std::string folder = scratch.path("nothing");
    scratch.write("nothing/reut2-000.txt", "not sgml\n");
    CorpusLoadOptions options;
    options.format = CorpusFormat::Reuters;
    expectInputError([&] { loadCorpus(folder, options); }, {"nothing", "no reut2-*.sgm"});
}

TEST(CorpusLoader, ReutersBlocksMayShareLines) {
    ScratchFolder scratch;
    const std::string path = scratch.write(
        "reut2-904.sgm",
        "<REUTERS NEWID=\"7\" LEWISSPLIT=\"TRAIN\"><TOPICS><D>Grain</D></TOPICS><TEXT><BODY>wheat "
        "corn wheat</BODY></TEXT></REUTERS><REUTERS NEWID=\"8\"><TEXT>corn &amp; wheat "
        "harvest</TEXT></REUTERS>");
    const Corpus corpus = loadCorpus(path, loose());
    EXPECT_EQ(corpus.documentIds, (Strings{"7", "8"}));
    EXPECT_EQ(row(corpus, 0), (WordCounts{{"corn", 1}, {"wheat", 2}}));
    EXPECT_EQ(row(corpus, 1), (WordCounts{{"corn", 1}, {"harvest", 1}, {"wheat", 1}}));
    EXPECT_EQ(labelsOf(corpus, "topics", 0), Strings{"grain"});
    EXPECT_EQ(labelsOf(corpus, "lewissplit", 1), Strings{});
}

// The real collection (shared/data/reuters21578); counts from its README.
TEST(CorpusLoader, ReadsReutersFolder) {
    const std::string folder = test::sharedReutersFolder();
    if (folder.empty()) {
        GTEST_SKIP() << "shared Reuters-21578 data not found under " << CX_SHARED_DATA_DIR;
    }
    const Corpus corpus = loadCorpus(folder);
    expectWellFormed(corpus);
    EXPECT_EQ(corpus.report.files.size(), 22u);
    EXPECT_EQ(corpus.report.documentsRead, 21578);
    EXPECT_EQ(corpus.report.invalidBytes, 1); // the 0xFC in reut2-017
    EXPECT_GT(corpus.report.documentsKept, 20000);
    EXPECT_GT(corpus.report.vocabularySize, 10000);
    EXPECT_LT(corpus.report.vocabularySize, 40000);
    // Document ids are NEWIDs in file order.
    EXPECT_TRUE(std::is_sorted(
        corpus.documentIds.begin(), corpus.documentIds.end(),
        [](const std::string& a, const std::string& b) { return std::stoll(a) < std::stoll(b); }));
    EXPECT_EQ(corpus.documentIds.front(), "1");
    EXPECT_FALSE(std::binary_search(corpus.vocabulary.begin(), corpus.vocabulary.end(), "the"));
    // "reute" only occurs in <UNKNOWN> ("&#31;reute"), which is not document text.
    EXPECT_FALSE(std::binary_search(corpus.vocabulary.begin(), corpus.vocabulary.end(), "reute"));
    EXPECT_TRUE(std::binary_search(corpus.vocabulary.begin(), corpus.vocabulary.end(), "reuter"));
    EXPECT_TRUE(std::binary_search(corpus.vocabulary.begin(), corpus.vocabulary.end(), "cocoa"));
}

TEST(CorpusLoader, ReutersLabelDistributionsMatchReadme) {
    const std::string folder = test::sharedReutersFolder();
    if (folder.empty()) {
        GTEST_SKIP() << "shared Reuters-21578 data not found under " << CX_SHARED_DATA_DIR;
    }
    CorpusLoadOptions options;
    options.minTokens = 0; // keep every document read, so label counts are over all 21,578
    const Corpus corpus = loadCorpus(folder, options);
    ASSERT_EQ(corpus.numDocuments(), 21578);
    EXPECT_EQ(corpus.documentIds.back(), "21578");

    const auto perDocument = [&](const std::string& name) {
        std::map<std::int64_t, std::int64_t> histogram; // 5 stands for ">= 5"
        const LabelField& f = field(corpus, name);
        for (std::int64_t d = 0; d < corpus.numDocuments(); ++d) {
            ++histogram[std::min<std::int64_t>(5, f.offsets[d + 1] - f.offsets[d])];
        }
        return histogram;
    };
    // The README counts <D> elements; a LabelField holds each value once per document. The two
    // differ where a story repeats a value: NEWID 19918 lists topic "trade" twice (so one story
    // moves from 2 topics to 1), NEWID 5467 lists "corn" twice; 14 stories repeat a place, e.g.
    // NEWID 9323 "usa, usa" and NEWID 6404 "iraq, iraq" (2 stories move from 2 places to 1).
    EXPECT_EQ(perDocument("topics"),
              (std::map<std::int64_t, std::int64_t>{
                  {0, 10211}, {1, 9494 + 1}, {2, 1334 - 1}, {3, 310}, {4, 104}, {5, 125}}));
    EXPECT_EQ(perDocument("places"),
              (std::map<std::int64_t, std::int64_t>{
                  {0, 2780}, {1, 16143 + 2}, {2, 2098 - 2}, {3, 300}, {4, 85}, {5, 172}}));
    EXPECT_EQ(field(corpus, "topics").values.size(), 120u);
    EXPECT_EQ(field(corpus, "places").values.size(), 147u);
    const auto topics = valueCounts(corpus, "topics");
    EXPECT_EQ(topics.at("earn"), 3987);
    EXPECT_EQ(topics.at("acq"), 2448);
    EXPECT_EQ(topics.at("money-fx"), 801);
    EXPECT_EQ(topics.at("crude"), 634);
    EXPECT_EQ(topics.at("grain"), 628);
    // README occurrences minus the repeats within one story (usa: NEWID 9323; uk: 759, 9216,
    // 13657, 13963; japan: 8588, 14882).
    const auto places = valueCounts(corpus, "places");
    EXPECT_EQ(places.at("usa"), 12542 - 1);
    EXPECT_EQ(places.at("uk"), 1489 - 4);
    EXPECT_EQ(places.at("japan"), 1138 - 2);
    EXPECT_EQ(places.at("canada"), 1104);
    EXPECT_EQ(places.at("west-germany"), 567);
    EXPECT_EQ(
        valueCounts(corpus, "lewissplit"),
        (std::map<std::string, std::int64_t>{{"not-used", 722}, {"test", 6188}, {"train", 14668}}));

    // Selections agree with the same numbers.
    EXPECT_EQ(selectDocuments(corpus, "places=usa").documents.size(), 12541u);
    EXPECT_EQ(selectDocuments(corpus, "!places=usa").documents.size(), 21578u - 12541u);
    std::int64_t topicAndPlace = 0;
    const LabelField& t = field(corpus, "topics");
    const LabelField& p = field(corpus, "places");
    for (std::int64_t d = 0; d < corpus.numDocuments(); ++d) {
        topicAndPlace += (t.offsets[d + 1] > t.offsets[d] && p.offsets[d + 1] > p.offsets[d]);
    }
    EXPECT_EQ(topicAndPlace, 10596);
    const auto top = topValues(t, 5);
    ASSERT_EQ(top.size(), 5u);
    EXPECT_EQ(top[0], (std::pair<std::string, std::int64_t>{"earn", 3987}));
    EXPECT_EQ(top[4], (std::pair<std::string, std::int64_t>{"grain", 628}));
}

// ---- Robustness -----------------------------------------------------------------------------

/// A random edit of `text`: flip, insert or delete bytes (favouring bytes that matter to the
/// parsers), cut the end off, or repeat a slice.
std::string mutate(std::string text, std::mt19937& rng) {
    static const std::string special = std::string("\t\n\r\",;<>&#/=0123456789 \xFC\0", 26);
    const auto pick = [&](size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); };
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
        const size_t at = pick(text.size() + 1);
        switch (rng() % 5) {
        case 0:
            if (at < text.size()) {
                text[at] = special[pick(special.size())];
            }
            break;
        case 1:
            text.insert(at, 1,
                        rng() % 2 ? special[pick(special.size())] : static_cast<char>(rng()));
            break;
        case 2:
            text.erase(at, 1 + pick(8));
            break;
        case 3:
            text.resize(at);
            break;
        default:
            text.insert(at, text.substr(pick(text.size()), 1 + pick(40)));
            break;
        }
    }
    return text;
}

TEST(CorpusLoader, SurvivesMutatedInputs) {
    // Every outcome must be a corpus or an InputError: no crash, no other exception.
    ScratchFolder scratch;
    std::mt19937 rng(20240611);
    const std::string uciLabels = readBytes(corpusFixture("uci/labels.tiny.tsv"));
    const std::string uciVocab = readBytes(corpusFixture("uci/vocab.tiny.txt"));
    const std::string uciDocword = readBytes(corpusFixture("uci/docword.tiny.txt"));
    struct Case {
        std::string name;
        std::string content;
    };
    const std::vector<Case> cases = {
        {"m.tsv", readBytes(corpusFixture("labelled.tsv"))},
        {"m.csv", readBytes(corpusFixture("labelled.csv"))},
        {"reut2-000.sgm", readBytes(corpusFixture("reuters/reut2-000.sgm"))},
        {"reut2-001.sgm", readBytes(corpusFixture("reuters/reut2-001.sgm"))},
        {"docword.m.txt", uciDocword},
        {"vocab.m.txt", uciVocab},
        {"labels.m.tsv", uciLabels},
    };
    int loaded = 0;
    int rejected = 0;
    for (int round = 0; round < 80; ++round) {
        for (const Case& c : cases) {
            const std::string folder = "r" + std::to_string(round) + "_" + c.name;
            const std::string path = scratch.write(folder + "/" + c.name, mutate(c.content, rng));
            if (c.name == "docword.m.txt" || c.name == "vocab.m.txt" || c.name == "labels.m.tsv") {
                // Complete the UCI triple with the unmutated other two files.
                for (const auto& [name, content] :
                     {std::pair<std::string, std::string>{"docword.m.txt", uciDocword},
                      {"vocab.m.txt", uciVocab},
                      {"labels.m.tsv", uciLabels}}) {
                    if (name != c.name) {
                        scratch.write(folder + "/" + name, content);
                    }
                }
            }
            const std::string target = c.name == "vocab.m.txt" || c.name == "labels.m.tsv"
                                           ? scratch.path(folder + "/docword.m.txt")
                                           : path;
            for (const CorpusLoadOptions& options : {CorpusLoadOptions{}, loose()}) {
                try {
                    const Corpus corpus = loadCorpus(target, options);
                    expectWellFormed(corpus);
                    ++loaded;
                } catch (const InputError&) {
                    ++rejected;
                } catch (const std::exception& error) {
                    ADD_FAILURE() << c.name << " round " << round << ": " << error.what();
                }
            }
        }
    }
    EXPECT_GT(loaded, 0);
    EXPECT_GT(rejected, 0);
}

} // namespace
} // namespace cx
