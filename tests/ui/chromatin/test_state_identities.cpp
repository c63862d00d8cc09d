// StateCatalog with γ-path identities: one name and colour per path identity whatever
// the drag history, user names attached to identities (and carried to a new path), components
// the path does not have never take an identity's name, and the weights chart draws one line
// per identity with gaps where it does not exist. A synthetic three-point path with known ids.
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/views/state_catalog.h"

#include "core/hmm/hmm_bootstrap.h"
#include "core/hmm/hmm_path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>

using namespace cx::ui;

namespace {

const std::vector<std::string> kIdentityMarks = {"H3K4me3", "H3K27ac", "H3K36me3", "H3K4me1"};

Eigen::RowVectorXd profile(double me3, double ac, double k36, double me1) {
    Eigen::RowVectorXd p(4);
    p << me3, ac, k36, me1;
    return p;
}

const Eigen::RowVectorXd kQuiescent = profile(0.02, 0.01, 0.03, 0.02);
const Eigen::RowVectorXd kElongation = profile(0.05, 0.05, 0.75, 0.1);
const Eigen::RowVectorXd kPromoter = profile(0.95, 0.9, 0.1, 0.3);
const Eigen::RowVectorXd kEnhancer = profile(0.1, 0.5, 0.1, 0.85);
const Eigen::RowVectorXd kPromoterB = profile(0.9, 0.95, 0.1, 0.05);

cx::ContrastiveHmmResult point(std::initializer_list<Eigen::RowVectorXd> rows,
                               std::initializer_list<double> weights) {
    cx::ContrastiveHmmResult r;
    r.markProbabilities.resize(static_cast<Eigen::Index>(rows.size()), 4);
    Eigen::Index i = 0;
    for (const auto& row : rows) {
        r.markProbabilities.row(i++) = row;
    }
    r.weights = Eigen::Map<const Eigen::VectorXd>(weights.begin(),
                                                  static_cast<Eigen::Index>(weights.size()));
    return r;
}

/// γ = 0, 0.5, 1. Identities: 0 quiescent (all three points), 1 elongation (γ = 0 only),
/// 2 promoter (γ ≤ 0.5), 3 enhancer (γ ≥ 0.5), 4 a second promoter (γ = 1).
std::shared_ptr<const cx::HmmPath> syntheticPath() {
    auto path = std::make_shared<cx::HmmPath>();
    path->gammas = {0.0, 0.5, 1.0};
    path->solutions = {point({kQuiescent, kElongation, kPromoter}, {0.7, 0.2, 0.1}),
                       point({kPromoter, kQuiescent, kEnhancer}, {0.08, 0.3, 0.05}),
                       point({kQuiescent, kPromoterB, kEnhancer}, {-0.2, 0.06, 0.04})};
    path->ids = {{0, 1, 2}, {2, 0, 3}, {0, 4, 3}};
    path->continued = {0, 1, 1};
    path->numIdentities = 5;
    return path;
}

/// identity → (name, colour) as the catalog shows it after an update at `i`.
std::map<int, std::pair<QString, QString>> shown(StateCatalog& catalog, const cx::HmmPath& path,
                                                 size_t i) {
    const auto& r = path.solutions[i];
    catalog.update(r.markProbabilities, r.weights, kIdentityMarks, path.ids[i]);
    std::map<int, std::pair<QString, QString>> out;
    for (int s = 0; s < catalog.numSlots(); ++s) {
        const int id = path.ids[i][static_cast<size_t>(catalog.componentOfSlot(s))];
        EXPECT_EQ(catalog.identityOfSlot(s), id);
        out[id] = {catalog.name(s), catalog.colour(s).name()};
    }
    return out;
}

} // namespace

TEST(StateIdentities, OneNameAndColourPerIdentityWhateverTheDragHistory) {
    const auto path = syntheticPath();
    StateCatalog forward;
    forward.setPath(path, kIdentityMarks);
    ASSERT_EQ(forward.numIdentities(), 5);
    // Named from the profile where each identity first appears; a kind that recurs is told
    // apart by the mark that differs (H3K4me1 0.3 vs 0.05), never numbered.
    EXPECT_EQ(forward.identityAutoName(0).toStdString(), "Quiescent");
    EXPECT_EQ(forward.identityAutoName(1).toStdString(), "Txn elongation");
    EXPECT_EQ(forward.identityAutoName(2).toStdString(), "Active promoter (high H3K4me1)");
    EXPECT_EQ(forward.identityAutoName(3).toStdString(), "Strong enhancer");
    EXPECT_EQ(forward.identityAutoName(4).toStdString(), "Active promoter (low H3K4me1)");
    EXPECT_NE(forward.identityColour(2), forward.identityColour(4)); // told apart by shade

    std::map<int, std::pair<QString, QString>> seen;
    const auto collect = [&](StateCatalog& catalog, size_t i) {
        for (const auto& [id, appearance] : shown(catalog, *path, i)) {
            if (seen.count(id) != 0) {
                EXPECT_EQ(seen[id], appearance) << "identity " << id << " at point " << i;
            }
            seen[id] = appearance;
            EXPECT_EQ(appearance.first, catalog.identityName(id));
            EXPECT_EQ(appearance.second, catalog.identityColour(id).name());
        }
    };
    for (size_t i : {0, 1, 2, 1, 0, 2}) {
        collect(forward, i);
    }
    // Another catalog that jumps straight to γ = 1 shows the same names and colours.
    StateCatalog jump;
    jump.setPath(path, kIdentityMarks);
    collect(jump, 2);
    collect(jump, 0);
    EXPECT_EQ(seen.size(), 5u);
}

TEST(StateIdentities, UserNamesStayWithTheIdentityAndMoveToANewPath) {
    const auto path = syntheticPath();
    StateCatalog catalog;
    catalog.setPath(path, kIdentityMarks);
    shown(catalog, *path, 0);
    const int promoterSlot = catalog.slotOfComponent(2); // identity 2 at γ = 0
    catalog.rename(promoterSlot, QStringLiteral("My promoter"));
    EXPECT_EQ(catalog.identityName(2).toStdString(), "My promoter");
    EXPECT_TRUE(catalog.isIdentityRenamed(2));
    // At γ = 1 identity 2 is gone; the other promoter (identity 4), whatever row it lands in,
    // keeps its own name.
    auto at = shown(catalog, *path, 2);
    EXPECT_EQ(at[4].first.toStdString(), "Active promoter (low H3K4me1)");
    for (int s = 0; s < catalog.numSlots(); ++s) {
        EXPECT_NE(catalog.name(s).toStdString(), "My promoter");
    }
    at = shown(catalog, *path, 1);
    EXPECT_EQ(at[2].first.toStdString(), "My promoter");
    // Typing the automatic name again clears the user name.
    catalog.rename(catalog.slotOfComponent(0), QStringLiteral("Active promoter (high H3K4me1)"));
    EXPECT_FALSE(catalog.isIdentityRenamed(2));

    // A new path (other K, seed, regions…) renumbers the identities; the user's name follows
    // the row that carries it to the new path's identity there.
    catalog.rename(catalog.slotOfComponent(0), QStringLiteral("My promoter"));
    auto renumbered = std::make_shared<cx::HmmPath>(*path);
    renumbered->ids = {{2, 0, 1}, {1, 2, 3}, {2, 4, 3}}; // quiescent = 2, promoter = 1
    catalog.setPath(renumbered, kIdentityMarks);
    const auto& r = renumbered->solutions[1];
    catalog.update(r.markProbabilities, r.weights, kIdentityMarks, renumbered->ids[1]);
    EXPECT_EQ(catalog.identityName(1).toStdString(), "My promoter");
    EXPECT_EQ(catalog.name(catalog.slotOfComponent(0)).toStdString(), "My promoter");
}

TEST(StateIdentities, AComponentOffThePathNeverTakesAnIdentitysName) {
    const auto path = syntheticPath();
    StateCatalog catalog;
    catalog.setPath(path, kIdentityMarks);
    shown(catalog, *path, 0);
    // Between grid points a component the path does not have (−1): named from its marks and
    // said to be off the path, so never an identity's name.
    const auto r = point({kQuiescent, kPromoter, kPromoterB}, {0.6, 0.2, 0.1});
    catalog.update(r.markProbabilities, r.weights, kIdentityMarks, {0, 2, -1});
    const int off = catalog.slotOfComponent(2);
    EXPECT_EQ(catalog.identityOfSlot(off), -1);
    EXPECT_EQ(catalog.name(off).toStdString(), "Active promoter (off the γ path)");
    EXPECT_EQ(catalog.name(catalog.slotOfComponent(1)).toStdString(),
              "Active promoter (high H3K4me1)");
}

TEST(StateIdentities, WeightsChartDrawsOneLinePerIdentityWithGapsAndBands) {
    const auto path = syntheticPath();
    WeightSweep sweep;
    sweep.path = path;
    sweep.gammas = {0.0, 0.5, 1.0};
    for (const auto& solution : path->solutions) {
        sweep.weights.push_back(solution.weights);
        sweep.profiles.push_back(solution.markProbabilities);
        sweep.specificInvalidMass.push_back(0.0);
    }
    auto bands = std::make_shared<cx::HmmPathBootstrap>();
    bands->gammas = path->gammas;
    bands->replicates = 10;
    for (const auto& solution : path->solutions) {
        std::vector<double> lo, hi, stability;
        for (Eigen::Index c = 0; c < solution.weights.size(); ++c) {
            lo.push_back(solution.weights[c] - 0.01);
            hi.push_back(solution.weights[c] + 0.02);
            stability.push_back(0.9);
        }
        bands->weightLo.push_back(lo);
        bands->weightHi.push_back(hi);
        bands->stability.push_back(stability);
    }
    bands->identityStability = {0.9, 0.9, 0.3, 0.9, 0.9};
    sweep.bootstrap = bands;

    StateCatalog catalog;
    catalog.setPath(path, kIdentityMarks);
    shown(catalog, *path, 1);
    const WeightLines chart = weightLines(sweep, 0.5, catalog);
    ASSERT_TRUE(chart.isValid());
    ASSERT_EQ(chart.lines.size(), 5);
    for (int id = 0; id < 5; ++id) {
        const auto& line = chart.lines[id];
        EXPECT_TRUE(line.name.startsWith(catalog.identityName(id))) << line.name.toStdString();
        EXPECT_EQ(line.colour, catalog.identityColour(id));
        ASSERT_EQ(line.points.size(), 3);
        ASSERT_EQ(line.lower.size(), 3);
        for (size_t i = 0; i < 3; ++i) {
            const auto& ids = path->ids[i];
            const auto found = std::find(ids.begin(), ids.end(), id);
            if (found == ids.end()) {
                EXPECT_TRUE(std::isnan(line.points[static_cast<int>(i)].y()));
                EXPECT_TRUE(std::isnan(line.lower[static_cast<int>(i)].y()));
            } else {
                const double w =
                    path->solutions[i].weights[static_cast<Eigen::Index>(found - ids.begin())];
                EXPECT_EQ(line.points[static_cast<int>(i)].y(), w);
                EXPECT_DOUBLE_EQ(line.lower[static_cast<int>(i)].y(), w - 0.01);
                EXPECT_DOUBLE_EQ(line.upper[static_cast<int>(i)].y(), w + 0.02);
            }
        }
        // Only the identities at the shown γ (0.5: 2, 0, 3) are in the legend.
        EXPECT_EQ(line.inLegend, id == 0 || id == 2 || id == 3) << id;
    }
    EXPECT_TRUE(chart.lines[2].name.contains(QStringLiteral("⚠ 30 %")));
    // The heatmap rows get their identity's stability.
    const QVector<double> stability = slotStabilities(sweep, 0.5, catalog);
    ASSERT_EQ(stability.size(), 3);
    for (int s = 0; s < 3; ++s) {
        EXPECT_EQ(stability[s],
                  bands->identityStability[static_cast<size_t>(catalog.identityOfSlot(s))]);
    }
}

TEST(StateIdentities, ShownSolutionGetsThePathsIdsOnAndBetweenGridPoints) {
    const auto path = syntheticPath();
    WeightSweep sweep;
    sweep.path = path;
    sweep.epoch = 4;
    HmmSolution solution;
    solution.epoch = 4;
    solution.onPath = true;
    solution.gamma = 0.5;
    solution.result = std::make_shared<cx::ContrastiveHmmResult>(path->solutions[1]);
    EXPECT_EQ(shownIdentities(sweep, solution), path->ids[1]);
    // Between grid points: continued from the nearest point (small changes keep the id; a
    // component with a mark changed by more than 0.5 is none of the path's).
    solution.gamma = 0.6;
    solution.result = std::make_shared<cx::ContrastiveHmmResult>(point(
        {kQuiescent, kPromoter + profile(0.0, -0.05, 0.0, 0.0), kElongation}, {0.3, 0.08, 0.05}));
    EXPECT_EQ(shownIdentities(sweep, solution), (std::vector<int>{0, 2, -1}));
    // Not on this path: no identities.
    solution.epoch = 3;
    EXPECT_TRUE(shownIdentities(sweep, solution).empty());
    solution.epoch = 4;
    solution.onPath = false;
    EXPECT_TRUE(shownIdentities(sweep, solution).empty());
}
