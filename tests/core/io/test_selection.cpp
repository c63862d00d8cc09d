#include "corpus_test_support.h"

#include "core/common/error.h"
#include "core/io/corpus_loader.h"
#include "core/io/selection.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cx {
namespace {

using test::corpusFixture;
using test::expectInputError;
using Documents = std::vector<std::int64_t>;

// labelled.tsv after loading: 4 documents.
//   doc  topics             author
//   0    animals, pets      alice
//   1    animals, pets      bob
//   2    finance            alice
//   3    finance, markets   carol
const Corpus& labelled() {
    static const Corpus corpus = loadCorpus(corpusFixture("labelled.tsv"));
    return corpus;
}

Documents select(const std::string& rule) {
    return selectDocuments(labelled(), rule).documents;
}

TEST(Selection, MatchesAnyValueOfAClause) {
    ASSERT_EQ(labelled().numDocuments(), 4);
    EXPECT_EQ(select("topics=pets"), (Documents{0, 1}));
    EXPECT_EQ(select("topics=finance,markets"), (Documents{2, 3}));
    EXPECT_EQ(select("topics=markets,pets"), (Documents{0, 1, 3}));
    EXPECT_EQ(select("author=carol"), (Documents{3}));
}

TEST(Selection, IsCaseInsensitiveAndWhitespaceTolerant) {
    EXPECT_EQ(select("  TOPICS = Finance ,  MARKETS  "), (Documents{2, 3}));
    EXPECT_EQ(select("Author=ALICE ; topics=Finance ;"), (Documents{2}));
}

TEST(Selection, NegatesClauses) {
    EXPECT_EQ(select("!topics=pets"), (Documents{2, 3}));
    EXPECT_EQ(select(" ! topics = finance"), (Documents{0, 1}));
    EXPECT_EQ(select("!topics=pets,markets"), (Documents{2}));
}

TEST(Selection, AndsClauses) {
    EXPECT_EQ(select("topics=finance;author=alice"), (Documents{2}));
    EXPECT_EQ(select("author=alice;!topics=markets"), (Documents{0, 2}));
    EXPECT_EQ(select("topics=pets;!topics=pets"), Documents{});
    const Selection none = selectDocuments(labelled(), "topics=pets;author=carol");
    EXPECT_TRUE(none.documents.empty());
    ASSERT_EQ(none.warnings.size(), 1u);
    EXPECT_NE(none.warnings[0].find("selects no documents"), std::string::npos);
}

TEST(Selection, StarOrEmptySelectsEverything) {
    EXPECT_EQ(select("*"), (Documents{0, 1, 2, 3}));
    EXPECT_EQ(select(""), (Documents{0, 1, 2, 3}));
    EXPECT_EQ(select("  *  "), (Documents{0, 1, 2, 3}));
    EXPECT_TRUE(SelectionRule::parse("*").clauses.empty());
}

TEST(Selection, ParsesIntoClausesAndCanonicalText) {
    const SelectionRule rule = SelectionRule::parse(" !Topics = Pets , Animals ; author=Bob ");
    ASSERT_EQ(rule.clauses.size(), 2u);
    EXPECT_TRUE(rule.clauses[0].negated);
    EXPECT_EQ(rule.clauses[0].field, "topics");
    EXPECT_EQ(rule.clauses[0].values, (std::vector<std::string>{"pets", "animals"}));
    EXPECT_FALSE(rule.clauses[1].negated);
    EXPECT_EQ(rule.toString(), "!topics=pets,animals;author=bob");
    EXPECT_EQ(rule.text, " !Topics = Pets , Animals ; author=Bob ");
    EXPECT_EQ(SelectionRule::parse("").toString(), "*");
    EXPECT_EQ(SelectionRule::parse(rule.toString()).toString(), rule.toString());
    // Values may hold spaces, dots, dashes and slashes.
    EXPECT_EQ(SelectionRule::parse("folder=rec.autos/sub, money-fx , new york").clauses[0].values,
              (std::vector<std::string>{"rec.autos/sub", "money-fx", "new york"}));
}

TEST(Selection, ReportsSyntaxErrorsWithPosition) {
    const auto parse = [](const std::string& text) {
        return [text] { SelectionRule::parse(text); };
    };
    expectInputError(parse("topics"), {"rule 'topics'", "expected '='", "position 7"});
    expectInputError(parse("=pets"), {"rule '=pets'", "expected a field name", "position 1"});
    expectInputError(parse("topics="), {"expected a value", "position 8"});
    expectInputError(parse("topics=a,,b"), {"expected a value", "position 10"});
    expectInputError(parse("topics=a=b"), {"unexpected '='", "position 9"});
    expectInputError(parse(";topics=a"), {"empty clause", "position 1"});
    expectInputError(parse("topics=a;;b=c"), {"empty clause", "position 10"});
    expectInputError(parse("*;topics=a"), {"'*' must be the whole rule", "position 1"});
    expectInputError(parse("!!topics=a"), {"unexpected '!'", "position 2"});
    expectInputError(parse("top!ics=a"), {"expected '='", "position 4"});
}

TEST(Selection, RejectsUnknownFieldListingTheFields) {
    expectInputError([] { select("colour=red"); },
                     {"rule 'colour=red'", "unknown field 'colour'", "'topics', 'author'"});
    Corpus bare;
    bare.counts.numRows = 1;
    bare.counts.rowPtr = {0, 0};
    expectInputError([&] { selectDocuments(bare, "topics=earn"); }, {"no label fields"});
}

TEST(Selection, WarnsAboutUnknownValuesAndFailsWhenNoneOccurs) {
    const Selection some = selectDocuments(labelled(), "topics=pets,unicorn");
    EXPECT_EQ(some.documents, (Documents{0, 1}));
    ASSERT_EQ(some.warnings.size(), 1u);
    EXPECT_NE(some.warnings[0].find("'unicorn'"), std::string::npos);
    EXPECT_NE(some.warnings[0].find("topics"), std::string::npos);

    expectInputError([] { select("topics=unicorn"); },
                     {"value 'unicorn' does not occur in field 'topics' of any document"});
    expectInputError([] { select("!topics=unicorn,dragon"); },
                     {"none of the values 'unicorn', 'dragon'", "field 'topics'"});
}

TEST(Selection, TopValuesSortsByDocumentCountThenName) {
    const LabelField& topics = labelled().labels[0];
    using Pairs = std::vector<std::pair<std::string, std::int64_t>>;
    EXPECT_EQ(topValues(topics, 0),
              (Pairs{{"animals", 2}, {"finance", 2}, {"pets", 2}, {"markets", 1}}));
    EXPECT_EQ(topValues(topics, 2), (Pairs{{"animals", 2}, {"finance", 2}}));
    // Without valueDocumentCounts the counts come from the CSR arrays.
    LabelField manual = topics;
    manual.valueDocumentCounts.clear();
    EXPECT_EQ(topValues(manual, 0), topValues(topics, 0));
}

TEST(Selection, ForegroundBackgroundByRuleComplementOrAll) {
    const ForegroundBackground byRule =
        selectForegroundBackground(labelled(), "topics=pets", BackgroundMode::Rule, "author=alice");
    EXPECT_EQ(byRule.foreground, (Documents{0, 1}));
    EXPECT_EQ(byRule.background, (Documents{0, 2}));
    EXPECT_EQ(byRule.overlap, 1);

    const ForegroundBackground rest = selectForegroundBackground(
        labelled(), "topics=pets", BackgroundMode::NotForeground, "ignored=rule");
    EXPECT_EQ(rest.background, (Documents{2, 3}));
    EXPECT_EQ(rest.overlap, 0);
    EXPECT_TRUE(rest.backgroundWarnings.empty());

    const ForegroundBackground all =
        selectForegroundBackground(labelled(), "topics=pets", BackgroundMode::All);
    EXPECT_EQ(all.background, (Documents{0, 1, 2, 3}));
    EXPECT_EQ(all.overlap, 2);
}

TEST(Selection, ForegroundBackgroundKeepsEachRulesWarnings) {
    const ForegroundBackground selected = selectForegroundBackground(
        labelled(), "topics=pets,unicorn", BackgroundMode::Rule, "author=carol,dragon");
    ASSERT_EQ(selected.foregroundWarnings.size(), 1u);
    EXPECT_NE(selected.foregroundWarnings[0].find("'unicorn'"), std::string::npos);
    ASSERT_EQ(selected.backgroundWarnings.size(), 1u);
    EXPECT_NE(selected.backgroundWarnings[0].find("'dragon'"), std::string::npos);
    expectInputError([] { selectForegroundBackground(labelled(), "topics=", BackgroundMode::All); },
                     {"rule 'topics='"});
}

TEST(Selection, MatchForegroundFlagsTheForegroundDocumentsTheRuleSelects) {
    // Foreground {0, 2, 3}; positives "author=alice" = {0, 2}.
    EXPECT_EQ(matchForeground(labelled(), {0, 2, 3}, "author=alice"),
              (std::vector<bool>{true, true, false}));
    EXPECT_EQ(matchForeground(labelled(), {}, "author=alice"), std::vector<bool>{});
    expectInputError([] { matchForeground(labelled(), {0}, "colour=red"); },
                     {"unknown field 'colour'"});
}

} // namespace
} // namespace cx
