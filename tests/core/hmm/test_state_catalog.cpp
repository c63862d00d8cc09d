// Chromatin state naming and identity (core/hmm/state_catalog): the naming rule, the slots'
// order across permutations, K changes and re-sorting, user names and their drift rule, repeated
// kinds and path identities.
#include "core/hmm/state_catalog.h"

#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/hmm_path.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace cx {
namespace {

const std::vector<std::string> kMarks = {"CTCF",    "H3K27ac", "H3K27me3", "H3K36me3", "H3K4me1",
                                         "H3K4me2", "H3K4me3", "H3K9ac",   "H4K20me1", "WCE"};

Eigen::RowVectorXd profile(std::initializer_list<std::pair<const char*, double>> values) {
    Eigen::RowVectorXd p = Eigen::RowVectorXd::Constant(10, 0.02);
    for (const auto& [name, value] : values) {
        for (size_t j = 0; j < kMarks.size(); ++j) {
            if (kMarks[j] == name) {
                p[static_cast<Eigen::Index>(j)] = value;
            }
        }
    }
    return p;
}

TEST(StateNaming, RecognisesTheCanonicalChromatinStates) {
    const auto name = [](const Eigen::RowVectorXd& p) {
        return classifyChromatinState(p, kMarks).name;
    };
    EXPECT_EQ(name(profile({{"H3K4me3", 0.95}, {"H3K27ac", 0.9}, {"H3K9ac", 0.9}})),
              "Active promoter");
    EXPECT_EQ(name(profile({{"H3K4me3", 0.6}, {"H3K27me3", 0.6}})), "Poised promoter");
    EXPECT_EQ(name(profile({{"H3K4me3", 0.6}})), "Weak promoter");
    EXPECT_EQ(name(profile({{"H3K4me1", 0.9}, {"H3K27ac", 0.45}, {"H3K4me3", 0.3}})),
              "Strong enhancer");
    EXPECT_EQ(name(profile({{"H3K4me1", 0.6}})), "Weak enhancer");
    EXPECT_EQ(name(profile({{"H3K36me3", 0.7}})), "Txn elongation");
    EXPECT_EQ(name(profile({{"H3K4me1", 0.5}, {"H4K20me1", 0.6}, {"H3K36me3", 0.38}})),
              "Txn transition");
    EXPECT_EQ(name(profile({{"H3K27me3", 0.45}})), "Polycomb repressed");
    EXPECT_EQ(name(profile({{"CTCF", 0.96}, {"H3K4me2", 0.39}})), "Insulator");
    EXPECT_EQ(name(profile({{"WCE", 0.8}, {"CTCF", 0.8}, {"H3K36me3", 0.6}})), "Repetitive/CNV");
    EXPECT_EQ(name(profile({})), "Quiescent");
    EXPECT_EQ(name(profile({{"H3K27me3", 0.2}})), "Low signal");
    // Without the marks a rule needs, it does not fire.
    const std::vector<std::string> other = {"A", "B"};
    EXPECT_TRUE(classifyChromatinState(Eigen::RowVector2d(0.9, 0.9), other).name.empty());
}

TEST(StateCatalog, KeepsRowsAcrossPermutationsAndNamesWhileTheStateMatches) {
    Eigen::MatrixXd profiles(4, 10);
    profiles.row(0) = profile({});
    profiles.row(1) = profile({{"H3K36me3", 0.7}});
    profiles.row(2) = profile({{"H3K4me3", 0.95}, {"H3K27ac", 0.9}});
    profiles.row(3) = profile({{"H3K4me1", 0.8}, {"H3K27ac", 0.4}});
    const Eigen::Vector4d weights(0.6, 0.2, 0.1, 0.05);
    StateCatalog catalog;
    catalog.update(profiles, weights, kMarks);
    ASSERT_EQ(catalog.numSlots(), 4);
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(catalog.componentOfSlot(s), s); // first time: weight order
    }
    EXPECT_EQ(catalog.name(2), "Active promoter");
    catalog.rename(2, "My promoter");

    // The core returns components in another order (weights changed with γ): rows stay.
    const std::vector<int> permutation = {2, 0, 3, 1};
    Eigen::MatrixXd shuffled(4, 10);
    Eigen::Vector4d shuffledWeights;
    for (int i = 0; i < 4; ++i) {
        shuffled.row(i) = profiles.row(permutation[static_cast<size_t>(i)]);
        shuffled.row(i).array() += 0.01; // a little movement
        shuffledWeights[i] = weights[permutation[static_cast<size_t>(i)]];
    }
    catalog.update(shuffled, shuffledWeights, kMarks);
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(permutation[static_cast<size_t>(catalog.componentOfSlot(s))], s);
        EXPECT_EQ(catalog.slotOfComponent(catalog.componentOfSlot(s)), s);
    }
    EXPECT_EQ(catalog.name(2), "My promoter");
    EXPECT_TRUE(catalog.isRenamed(2));
    EXPECT_EQ(catalog.autoLabel(2).name, "Active promoter");
    EXPECT_TRUE(catalog.takeDroppedNames().empty());

    // The renamed state turns into something else entirely: the name goes.
    Eigen::MatrixXd changed = profiles;
    changed.row(2) = Eigen::RowVectorXd::Constant(10, 0.9);
    catalog.update(changed, weights, kMarks);
    EXPECT_FALSE(catalog.isRenamed(2));
    EXPECT_EQ(catalog.takeDroppedNames(), std::vector<std::string>{"My promoter"});

    // K lowered: the remaining states keep their relative order; raised: new rows at the end.
    catalog.update(profiles, weights, kMarks);
    catalog.rename(3, "Enhancer A");
    Eigen::MatrixXd three(3, 10);
    three.row(0) = profiles.row(3);
    three.row(1) = profiles.row(1);
    three.row(2) = profiles.row(0);
    catalog.update(three, Eigen::Vector3d(0.3, 0.2, 0.1), kMarks);
    ASSERT_EQ(catalog.numSlots(), 3);
    EXPECT_EQ(catalog.componentOfSlot(0), 2); // quiescent, still first
    EXPECT_EQ(catalog.componentOfSlot(1), 1);
    EXPECT_EQ(catalog.componentOfSlot(2), 0);
    EXPECT_EQ(catalog.name(2), "Enhancer A");
    catalog.update(profiles, weights, kMarks);
    ASSERT_EQ(catalog.numSlots(), 4);
    EXPECT_EQ(catalog.componentOfSlot(3), 2); // the promoter comes back at the end
    EXPECT_EQ(catalog.name(2), "Enhancer A");

    // Sorting by weight keeps the user's names.
    catalog.sortByWeight();
    catalog.update(profiles, weights, kMarks);
    EXPECT_EQ(catalog.componentOfSlot(0), 0);
    EXPECT_EQ(catalog.name(3), "Enhancer A");
}

TEST(StateNaming, ColoursArePlainRgbAndMarkNamesAreCaseInsensitive) {
    const std::vector<std::string> lower = {"h3k4me3", "h3k27ac"};
    const StateClass promoter = classifyChromatinState(Eigen::RowVector2d(0.9, 0.9), lower);
    EXPECT_EQ(promoter.name, "Active promoter");
    EXPECT_EQ(promoter.colour, (Rgb{0xe0, 0x1b, 0x1b}));
    // The input control counts as control under any of its names.
    const std::vector<std::string> input = {"Input_1", "H3K4me1"};
    EXPECT_EQ(classifyChromatinState(Eigen::RowVector2d(0.5, 0.9), input).name, "Repetitive/CNV");
    // An unnamed state's colour is the BED palette's.
    EXPECT_EQ(unnamedStateColour(0), unnamedStateColour(20));
}

TEST(StateCatalog, RepeatedKindsAreNumberedAndUnnamedStatesCounted) {
    Eigen::MatrixXd profiles(3, 10);
    profiles.row(0) = profile({});
    profiles.row(1) = profile({{"H3K4me3", 0.95}, {"H3K27ac", 0.9}});
    profiles.row(2) = profile({{"H3K4me3", 0.9}, {"H3K27ac", 0.8}});
    StateCatalog catalog;
    catalog.update(profiles, Eigen::Vector3d(0.5, 0.3, 0.2), kMarks);
    EXPECT_EQ(catalog.names(), (std::vector<std::string>{"Quiescent", "Active promoter",
                                                         "Active promoter 2"}));
    EXPECT_EQ(catalog.autoLabel(1).repeat, 1);
    EXPECT_EQ(catalog.autoLabel(2).repeat, 2);
    EXPECT_EQ(catalog.autoLabel(1).colour, catalog.autoLabel(2).colour); // one kind, one colour
    // Renaming to the automatic name, or to blanks, keeps the automatic name.
    catalog.rename(1, "  Active promoter ");
    EXPECT_FALSE(catalog.isRenamed(1));
    catalog.rename(1, "  TSS  ");
    EXPECT_EQ(catalog.name(1), "TSS");
    catalog.rename(1, "   ");
    EXPECT_FALSE(catalog.isRenamed(1));

    // Marks no rule knows: "State k" by slot, palette colours.
    const std::vector<std::string> unknown = {"A", "B"};
    Eigen::MatrixXd two(2, 2);
    two << 0.9, 0.9, 0.8, 0.95;
    StateCatalog plain;
    plain.update(two, Eigen::Vector2d(0.6, 0.4), unknown);
    EXPECT_EQ(plain.names(), (std::vector<std::string>{"State 1", "State 2"}));
    EXPECT_EQ(plain.autoLabel(0).colour, unnamedStateColour(0));
    EXPECT_EQ(plain.autoLabel(1).colour, unnamedStateColour(1));
}

TEST(StateCatalog, PathIdentitiesKeepOneLabelAndTheUsersName) {
    // A two-point path: identity 0 (promoter) at both points, identity 1 (quiescent) at the
    // first, identity 2 (enhancer) at the second.
    auto path = std::make_shared<HmmPath>();
    path->gammas = {0.0, 0.5};
    path->solutions.resize(2);
    path->solutions[0].markProbabilities.resize(2, 10);
    path->solutions[0].markProbabilities.row(0) = profile({{"H3K4me3", 0.95}, {"H3K27ac", 0.9}});
    path->solutions[0].markProbabilities.row(1) = profile({});
    path->solutions[1].markProbabilities.resize(2, 10);
    path->solutions[1].markProbabilities.row(0) = profile({{"H3K4me1", 0.8}});
    path->solutions[1].markProbabilities.row(1) = profile({{"H3K4me3", 0.6}}); // reads "weak"
    path->ids = {{0, 1}, {2, 0}};
    path->numIdentities = 3;
    StateCatalog catalog;
    catalog.setPath(path, kMarks);
    ASSERT_EQ(catalog.numIdentities(), 3);
    EXPECT_EQ(catalog.identityLabel(0).name, "Active promoter");
    EXPECT_EQ(catalog.identityLabel(1).name, "Quiescent");
    EXPECT_EQ(catalog.identityLabel(2).name, "Weak enhancer");
    EXPECT_EQ(catalog.identityLabel(7).name, "");

    catalog.update(path->solutions[1].markProbabilities, Eigen::Vector2d(0.6, 0.4), kMarks,
                   {2, 0});
    EXPECT_EQ(catalog.identityOfSlot(0), 2);
    EXPECT_EQ(catalog.name(1), "Active promoter"); // the identity's name, not "Weak promoter"
    catalog.rename(1, "Promoter X");
    EXPECT_TRUE(catalog.isIdentityRenamed(0));
    catalog.update(path->solutions[0].markProbabilities, Eigen::Vector2d(0.6, 0.4), kMarks,
                   {0, 1});
    EXPECT_EQ(catalog.identityName(0), "Promoter X");
    EXPECT_EQ(catalog.name(catalog.slotOfComponent(0)), "Promoter X");
}

} // namespace
} // namespace cx
