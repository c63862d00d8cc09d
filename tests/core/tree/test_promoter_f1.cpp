#include "core/tree/promoter_evaluation.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace cx {
namespace {

using States = std::vector<std::vector<std::uint16_t>>; // [chrom][bin]

// One chromosome of 8 bins; TSS bins 0-1.
TssTruth truth() {
    TssTruth out;
    out.bins = {{1, 1, 0, 0, 0, 0, 0, 0}};
    out.positives = 2;
    return out;
}

TEST(PromoterF1, ScoresEveryCellWithTheFixedOrTheMostEnrichedState) {
    const std::vector<States> states = {
        States{{1, 1, 0, 0, 0, 0, 0, 0}}, // state 1 exactly on the TSS
        States{{2, 0, 0, 0, 0, 2, 0, 0}}, // state 2: one of its two bins on a TSS
    };
    const std::vector<PromoterF1Row> enriched =
        scorePromoterCells({"A", "B"}, states, truth(), 3, -1, "spectral-tree");
    ASSERT_EQ(enriched.size(), 2u);
    EXPECT_EQ(enriched[0].method, "spectral-tree");
    EXPECT_EQ(enriched[0].cell, "A");
    EXPECT_EQ(enriched[0].score.state, 1);
    EXPECT_DOUBLE_EQ(enriched[0].score.f1, 1.0);
    EXPECT_EQ(enriched[1].score.state, 2);
    EXPECT_DOUBLE_EQ(enriched[1].score.precision, 0.5);
    EXPECT_DOUBLE_EQ(enriched[1].score.recall, 0.5);

    const std::vector<PromoterF1Row> fixed =
        scorePromoterCells({"A", "B"}, states, truth(), 3, 0, "per-cell");
    EXPECT_EQ(fixed[0].score.state, 0);
    EXPECT_EQ(fixed[1].score.state, 0);
    EXPECT_DOUBLE_EQ(fixed[0].score.recall, 0.0);
}

TEST(PromoterF1, TsvNamesStatesByLabelWithSixDigits) {
    PromoterF1Row row{"spectral-tree", "K562", {}, {}};
    row.score.state = 1;
    row.score.precision = 0.5;
    row.score.recall = 0.25;
    row.score.f1 = 1.0 / 3;
    PromoterF1Row unlabelled{"per-cell", "HepG2", {}, {}};
    unlabelled.score.state = 7;
    EXPECT_EQ(promoterF1Tsv({row, unlabelled}, {"a", "b"}),
              "method\tcell\tstate\tprecision\trecall\tf1\n"
              "spectral-tree\tK562\tb\t0.5\t0.25\t0.333333\n"
              "per-cell\tHepG2\t\t0\t0\t0\n");
}

// A cell whose most TSS-enriched state is not a promoter state. One chromosome of 20 bins,
// TSS bins 0-5. State 1 (H3K4me3 + H3K27ac: an active promoter) covers TSS bins 0-4 and bins
// 10-14; state 2 (H3K4me1 + H3K27ac, no H3K4me3: an enhancer) covers only TSS bin 5, so its fold
// enrichment (1/1 vs 5/10) is the highest; state 0 (no marks) the rest.
struct EnhancerNearTss {
    States states{{1, 1, 1, 1, 1, 2, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}};
    TssTruth truth = [] {
        TssTruth t;
        t.bins = {{1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
        t.positives = 6;
        return t;
    }();
    std::vector<std::string> marks{"H3K4me1", "h3k4me3", "H3K27ac"};       // any case
    Eigen::MatrixXd profiles = (Eigen::MatrixXd(3, 3) << 0.02, 0.01, 0.01, //
                                0.30, 0.90, 0.70,                          //
                                0.90, 0.05, 0.60)
                                   .finished();
};

TEST(PromoterF1, PromoterRulePrefersAPromoterMarkedStateToAMoreTssEnrichedEnhancer) {
    const EnhancerNearTss c;
    EXPECT_EQ(promoterStateByEnrichment(c.states, c.truth, 3), 2); // TSS enrichment alone
    EXPECT_EQ(choosePromoterState(c.states, c.truth, 3, c.profiles, c.marks), 1);
    const auto rows =
        scorePromoterCells({"A"}, {c.states}, c.truth, 3, -1, "per-cell", {c.profiles}, c.marks);
    ASSERT_EQ(rows.size(), 1U);
    EXPECT_EQ(rows[0].score.state, 1);
    EXPECT_EQ(rows[0].choice, "marks+tss");
    EXPECT_NEAR(rows[0].score.f1, 2 * 0.5 * (5.0 / 6) / (0.5 + 5.0 / 6), 1e-12);
    // Named by the user: the rule is not asked.
    const auto named = scorePromoterCells({"A"}, {c.states}, c.truth, 3, 2, "spectral-tree",
                                          {c.profiles}, c.marks);
    EXPECT_EQ(named[0].score.state, 2);
    EXPECT_EQ(named[0].choice, "named");
}

TEST(PromoterF1, PromoterRuleChoosesByTssAmongSeveralPromoterLikeStates) {
    EnhancerNearTss c;
    // State 2 now carries H3K4me3 too (0.6 ≥ half of 0.9): both are candidates, TSS decides.
    c.profiles(2, 1) = 0.6;
    EXPECT_EQ(choosePromoterState(c.states, c.truth, 3, c.profiles, c.marks), 2);
    // A custom rule: the promoter marks named by the caller.
    PromoterRule rule;
    rule.marks = {"H3K4me1"};
    EXPECT_EQ(choosePromoterState(c.states, c.truth, 3, c.profiles, c.marks, rule), 2);
}

TEST(PromoterF1, PromoterRuleFallsBackToTssEnrichmentWithoutThePromoterMark) {
    const EnhancerNearTss c;
    const std::vector<std::string> noK4me3{"H3K4me1", "H3K36me3", "H3K27ac"};
    EXPECT_EQ(choosePromoterState(c.states, c.truth, 3, c.profiles, noK4me3), 2);
    const auto rows =
        scorePromoterCells({"A"}, {c.states}, c.truth, 3, -1, "per-cell", {c.profiles}, noK4me3);
    EXPECT_EQ(rows[0].choice, "tss");
    // Without profiles for the cell (or too few rows): TSS enrichment alone.
    const auto bare = scorePromoterCells({"A"}, {c.states}, c.truth, 3, -1, "em", {}, c.marks);
    EXPECT_EQ(bare[0].score.state, 2);
    EXPECT_EQ(bare[0].choice, "tss");
    EXPECT_EQ(choosePromoterState(c.states, c.truth, 3, c.profiles.topRows(2), c.marks), 2);
    // A profile whose columns are not the marks is a programming error.
    EXPECT_THROW(choosePromoterState(c.states, c.truth, 3, c.profiles.leftCols(2), c.marks),
                 std::invalid_argument);
    // No bins at all: no state.
    EXPECT_EQ(choosePromoterState({}, c.truth, 3, c.profiles, c.marks), -1);
}

} // namespace
} // namespace cx
