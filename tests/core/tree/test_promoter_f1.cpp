#include "core/tree/promoter_evaluation.h"

#include <gtest/gtest.h>

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
    PromoterF1Row row{"spectral-tree", "K562", {}};
    row.score.state = 1;
    row.score.precision = 0.5;
    row.score.recall = 0.25;
    row.score.f1 = 1.0 / 3;
    PromoterF1Row unlabelled{"per-cell", "HepG2", {}};
    unlabelled.score.state = 7;
    EXPECT_EQ(promoterF1Tsv({row, unlabelled}, {"a", "b"}),
              "method\tcell\tstate\tprecision\trecall\tf1\n"
              "spectral-tree\tK562\tb\t0.5\t0.25\t0.333333\n"
              "per-cell\tHepG2\t\t0\t0\t0\n");
}

} // namespace
} // namespace cx
