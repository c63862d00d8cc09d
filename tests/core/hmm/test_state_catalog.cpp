// Chromatin state naming and identity (core/hmm/state_catalog): the naming rule, the slots'
// order across permutations, K changes and re-sorting, user names and their drift rule, repeated
// kinds and path identities.
#include "core/hmm/state_catalog.h"

#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/hmm_path.h"

#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <set>
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

TEST(StateCatalog, RepeatedKindsAreToldApartByMarksAndUnnamedStatesCounted) {
    Eigen::MatrixXd profiles(3, 10);
    profiles.row(0) = profile({});
    profiles.row(1) = profile({{"H3K4me3", 0.95}, {"H3K27ac", 0.9}});
    profiles.row(2) = profile({{"H3K4me3", 0.9}, {"H3K27ac", 0.8}});
    StateCatalog catalog;
    catalog.update(profiles, Eigen::Vector3d(0.5, 0.3, 0.2), kMarks);
    EXPECT_EQ(catalog.names(),
              (std::vector<std::string>{"Quiescent", "Active promoter (high H3K27ac)",
                                        "Active promoter (low H3K27ac)"}));
    EXPECT_EQ(catalog.autoLabel(1).repeat, 1);
    EXPECT_EQ(catalog.autoLabel(2).repeat, 2);
    EXPECT_EQ(catalog.autoLabel(1).colour, catalog.autoLabel(2).colour); // one kind
    EXPECT_FALSE(stylesClash(catalog.autoLabel(1).style, catalog.autoLabel(2).style));
    EXPECT_EQ(catalog.autoLabel(1).style.colour, catalog.autoLabel(1).colour); // the first
    // Renaming to the automatic name, or to blanks, keeps the automatic name.
    catalog.rename(1, "  Active promoter (high H3K27ac) ");
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

TEST(StateNaming, NameStatesGivesTheViewsNamesAndDistinctColoursInComponentOrder) {
    // Components out of weight order: the catalogue's slots sort by weight, nameStates answers
    // per component.
    Eigen::MatrixXd profiles(3, 10);
    profiles.row(0) = profile({{"H3K4me3", 0.9}, {"H3K27ac", 0.8}});
    profiles.row(1) = profile({});
    profiles.row(2) = profile({{"H3K4me3", 0.95}, {"H3K27ac", 0.9}});
    const Eigen::Vector3d weights(0.2, 0.5, 0.3);
    const StateNaming naming = nameStates(profiles, weights, kMarks);
    StateCatalog catalog;
    catalog.update(profiles, weights, kMarks);
    ASSERT_EQ(naming.names.size(), 3u);
    for (int s = 0; s < 3; ++s) {
        const int slot = catalog.slotOfComponent(s);
        EXPECT_EQ(naming.names[static_cast<size_t>(s)], catalog.name(slot));
        EXPECT_EQ(naming.colours[static_cast<size_t>(s)], catalog.autoLabel(slot).style.colour);
    }
    EXPECT_EQ(naming.names[1], "Quiescent");
    EXPECT_EQ(naming.names[0], "Active promoter (low H3K27ac)");
    // Two active promoters: one kind, two colours (what the views draw them in).
    EXPECT_NE(naming.colours[0], naming.colours[2]);
    EXPECT_EQ(rgbText(Rgb{224, 27, 7}), "224,27,7");
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

    catalog.update(path->solutions[1].markProbabilities, Eigen::Vector2d(0.6, 0.4), kMarks, {2, 0});
    EXPECT_EQ(catalog.identityOfSlot(0), 2);
    EXPECT_EQ(catalog.name(1), "Active promoter"); // the identity's name, not "Weak promoter"
    catalog.rename(1, "Promoter X");
    EXPECT_TRUE(catalog.isIdentityRenamed(0));
    catalog.update(path->solutions[0].markProbabilities, Eigen::Vector2d(0.6, 0.4), kMarks, {0, 1});
    EXPECT_EQ(catalog.identityName(0), "Promoter X");
    EXPECT_EQ(catalog.name(catalog.slotOfComponent(0)), "Promoter X");
}

TEST(StateNaming, RepeatedNamesGetWhatDiffersNeverACounter) {
    const std::vector<std::string> marks = {"H3K4me3", "H3K27ac", "H3K4me1"};
    Eigen::MatrixXd p(6, 3);
    p << 0.9, 0.9, 0.3,  //  promoter with H3K4me1
        0.9, 0.9, 0.05,  // promoter without
        0.02, 0.01, 0.0, // quiescent (one of its name: unchanged)
        0.5, 0.1, 0.6,   // three enhancers: two alike on their most distinct mark
        0.5, 0.12, 0.4,  //
        0.1, 0.1, 0.9;
    const std::vector<std::string> names = {"Active promoter", "Active promoter", "Quiescent",
                                            "Weak enhancer",   "Weak enhancer",   "Weak enhancer"};
    const std::vector<std::string> out = qualifyRepeatedNames(names, p, marks);
    EXPECT_EQ(out[0], "Active promoter (high H3K4me1)");
    EXPECT_EQ(out[1], "Active promoter (low H3K4me1)");
    EXPECT_EQ(out[2], "Quiescent");
    EXPECT_EQ(std::set<std::string>(out.begin(), out.end()).size(), out.size())
        << out[3] << " | " << out[4] << " | " << out[5];
    for (size_t i = 3; i < 6; ++i) {
        EXPECT_EQ(out[i].rfind("Weak enhancer (", 0), 0u) << out[i];
        EXPECT_TRUE(out[i].find("H3K4me") != std::string::npos) << "names a mark: " << out[i];
    }
    // Identical profiles: primes, not numbers. Bad input (rows ≠ names): names unchanged.
    Eigen::MatrixXd same(2, 3);
    same << 0.1, 0.1, 0.1, 0.1, 0.1, 0.1;
    const auto twins = qualifyRepeatedNames({"Low signal", "Low signal"}, same, marks);
    EXPECT_NE(twins[0], twins[1]);
    EXPECT_EQ(twins[1].find_first_of("0123456789", twins[1].find(')')), std::string::npos);
    EXPECT_EQ(qualifyRepeatedNames({"A", "A"}, Eigen::MatrixXd(3, 3), marks),
              (std::vector<std::string>{"A", "A"}));
    EXPECT_TRUE(qualifyRepeatedNames({}, Eigen::MatrixXd(0, 3), marks).empty());
}

/// A path whose states keep changing identity (as on a small region): `kinds` identities that
/// all read as one of two classes, `seed` shifting their profiles.
std::shared_ptr<HmmPath> churningPath(int identities, int seed) {
    auto path = std::make_shared<HmmPath>();
    for (int i = 0; i < identities; ++i) {
        const double shift = 0.01 * ((seed * 7 + i * 13) % 9);
        ContrastiveHmmResult point;
        point.markProbabilities.resize(2, 10);
        point.markProbabilities.row(0) =
            i % 2 == 0 ? profile({{"H3K4me3", 0.9 - shift}, {"H3K27ac", 0.5 + 0.04 * i}})
                       : profile({{"H3K27me3", 0.02 + shift}, {"CTCF", 0.001 * i}});
        point.markProbabilities.row(1) = profile({{"H3K36me3", 0.8}});
        point.weights = Eigen::Vector2d(0.6, 0.4);
        path->gammas.push_back(0.05 * i);
        path->solutions.push_back(point);
        path->ids.push_back({i + 1, 0});
    }
    path->numIdentities = identities + 1;
    return path;
}

TEST(StateCatalog, RegionChangesNeverGrowSuffixes) {
    // Each region change brings a new path; the old rule numbered repeated kinds along the path
    // ("Quiescent 6", "Active promoter 8" with one of each on screen).
    const std::regex counter(R"(\s\d+$)");
    StateCatalog catalog;
    std::vector<std::string> firstNames;
    const auto pathA = churningPath(16, 1);
    for (int change = 0; change < 6; ++change) {
        const auto path = change % 3 == 0 ? pathA : churningPath(10 + change, change);
        catalog.setPath(path, kMarks);
        std::set<std::string> names;
        std::vector<IdentityStyle> styles;
        std::vector<std::string> all;
        for (int id = 0; id < catalog.numIdentities(); ++id) {
            const std::string name = catalog.identityName(id);
            EXPECT_FALSE(std::regex_search(name, counter)) << "change " << change << ": " << name;
            names.insert(name);
            all.push_back(name);
            styles.push_back(catalog.identityLabel(id).style);
        }
        EXPECT_EQ(names.size(), static_cast<size_t>(catalog.numIdentities())) << "unique names";
        for (size_t a = 0; a < styles.size(); ++a) {
            for (size_t b = a + 1; b < styles.size(); ++b) {
                EXPECT_FALSE(stylesClash(styles[a], styles[b])) << all[a] << " / " << all[b];
            }
        }
        if (path == pathA) {
            // The same states get the same names, whatever came before.
            if (firstNames.empty()) {
                firstNames = all;
            }
            EXPECT_EQ(all, firstNames) << "change " << change;
        }
        // Between region changes the shown solution names its rows by identity.
        catalog.update(path->solutions[0].markProbabilities, path->solutions[0].weights, kMarks,
                       path->ids[0]);
        EXPECT_EQ(catalog.name(catalog.slotOfComponent(0)), catalog.identityName(path->ids[0][0]));
    }
}

} // namespace
} // namespace cx
