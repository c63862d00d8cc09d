// Moment refit of the spectral HMM states (refitMarkStates, ContrastiveHmmOptions::
// momentRefitSweeps) against exact synthetic truth with a dominant unmarked state.
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/moment_refit.h"
#include "core/hmm/sequence_moments.h"
#include "core/hmm/synthetic_hmm.h"
#include "core/io/bed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace cx {
namespace {

/// K states over M marks where state 0 is unmarked (all emissions 0.01) and covers about 80 %
/// of the bins, as in ENCODE chromosomes.
HmmParameters dominantEmptyHmm(int k, int m, std::uint64_t seed) {
    HmmParameters hmm = randomSyntheticHmm(k, m, seed, 0.85);
    hmm.emissions.row(0).setConstant(0.01);
    for (int i = 1; i < k; ++i) {
        hmm.transitions.row(i) *= 0.7;
        hmm.transitions(i, 0) += 0.3;
    }
    hmm.transitions.row(0).setConstant(0.03 / (k - 1));
    hmm.transitions(0, 0) = 0.97;
    hmm.start = stationaryDistribution(hmm.transitions);
    return hmm;
}

MarkMomentTargets exactTargets(const HmmParameters& hmm) {
    const ClassMoments pop = populationMoments(hmm);
    const auto m = hmm.emissions.cols();
    MarkMomentTargets t;
    t.mean = pop.m22.col(m).head(m);
    t.second = pop.m22.topLeftCorner(m, m);
    t.total = pop.m22(m, m);
    return t;
}

TEST(HmmMomentRefit, DominantEmptyStateHasMostOfTheBins) {
    const HmmParameters truth = dominantEmptyHmm(6, 8, 5);
    EXPECT_GT(truth.start[0], 0.6);
    EXPECT_NEAR(truth.start.sum(), 1.0, 1e-12);
}

TEST(HmmMomentRefit, ExactCandidatesGiveExactWeightsAndKeepTheTruth) {
    const HmmParameters truth = dominantEmptyHmm(6, 8, 5);
    const MarkMomentTargets targets = exactTargets(truth);
    EXPECT_NEAR(markMomentResidual(truth.start, truth.emissions, targets), 0.0, 1e-9);
    // Candidates: the truth in another order plus a junk row (all marks at 0.5).
    Eigen::MatrixXd candidates(7, 8);
    candidates << truth.emissions.bottomRows(5), Eigen::RowVectorXd::Constant(8, 0.5),
        truth.emissions.row(0);
    MomentRefitOptions options;
    options.numStates = 6;
    options.sweeps = 0; // weights only: exact emissions need no refinement
    const MomentRefitResult fit = refitMarkStates(candidates, targets, options);
    EXPECT_LT(fit.residualSelected, 1e-6);
    EXPECT_NEAR(fit.weights.sum(), 1.0, 1e-6);
    for (int h = 0; h < 6; ++h) {
        EXPECT_NE(fit.sourceCandidate[h], 5) << "the junk row was selected";
    }
    EXPECT_NEAR(fit.weights[0], truth.start[0], 1e-5); // the heaviest: the unmarked state
    EXPECT_LT(matchedMeanAbsoluteDifference(truth.emissions, fit.emissions), 1e-9);
}

TEST(HmmMomentRefit, MissingUnmarkedStateIsSuppliedAsTheRemainder) {
    const HmmParameters truth = dominantEmptyHmm(6, 8, 11);
    const MarkMomentTargets targets = exactTargets(truth);
    // The decomposition missed the unmarked state: only the five marked ones and a merged one.
    Eigen::MatrixXd candidates(6, 8);
    candidates << truth.emissions.bottomRows(5),
        0.5 * (truth.emissions.row(1) + truth.emissions.row(2));
    MomentRefitOptions options;
    options.numStates = 6;
    options.sweeps = 300;
    const MomentRefitResult fit = refitMarkStates(candidates, targets, options);
    EXPECT_NEAR(fit.weights.sum(), 1.0, 1e-3);
    EXPECT_EQ(fit.sourceCandidate[0], 6) << "the heaviest state should be the empty candidate";
    // The merged candidate must be split by the sweeps, which first and second moments do not
    // identify exactly (measured: weight 0.896 vs 0.914, emission MAD 0.031).
    EXPECT_NEAR(fit.weights[0], truth.start[0], 0.03);
    EXPECT_LT(fit.emissions.row(0).maxCoeff(), 0.05);
    EXPECT_LT(matchedMeanAbsoluteDifference(truth.emissions, fit.emissions), 0.05);
    EXPECT_LE(fit.residualFinal, fit.residualSelected);
}

TEST(HmmMomentRefit, JointSweepsNeverIncreaseTheResidual) {
    const HmmParameters truth = dominantEmptyHmm(5, 7, 23);
    const MarkMomentTargets targets = exactTargets(truth);
    Eigen::MatrixXd candidates = truth.emissions;
    candidates.array() += 0.08; // biased emissions
    candidates = candidates.cwiseMin(1.0);
    MomentRefitOptions options;
    options.numStates = 5;
    options.addEmptyCandidate = false;
    double previous = std::numeric_limits<double>::infinity();
    for (int sweeps : {0, 1, 5, 50}) {
        options.sweeps = sweeps;
        const MomentRefitResult fit = refitMarkStates(candidates, targets, options);
        EXPECT_LE(fit.residualFinal, previous * (1 + 1e-12)) << sweeps;
        previous = fit.residualFinal;
    }
}

TEST(HmmMomentRefit, SpectralSolveWithRefitRecoversDominantEmptyHmm) {
    const HmmParameters truth = dominantEmptyHmm(6, 8, 5);
    const SequenceMoments moments = populationContrastiveMoments(truth, truth, 0.0);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    options.momentRefitSweeps = 200;
    const ContrastiveHmmResult result = solveContrastiveHmm(moments, 0.0, options);
    EXPECT_NEAR(result.weights.sum(), 1.0, 1e-3);
    EXPECT_NEAR(result.weights[0], truth.start[0], 0.01);
    EXPECT_LT(matchedMeanAbsoluteDifference(truth.emissions, result.markProbabilities), 0.01);
    EXPECT_EQ(result.hmm.numStates(), 6);
    EXPECT_NEAR(result.hmm.transitions(0, 0), truth.transitions(0, 0), 0.02);
}

TEST(HmmMomentRefit, SampledDominantEmptyHmmAgreesWithTruth) {
    const HmmParameters truth = dominantEmptyHmm(6, 8, 5);
    const ChromatinData data = sampleChromatinData(truth, {400000}, 77);
    const BinClasses classes = classifyBins(data, nullptr, nullptr);
    const SequenceMoments moments = computeSequenceMoments(data, classes);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    const ContrastiveHmmResult plain = solveContrastiveHmm(moments, 0.0, options);
    options.momentRefitSweeps = 200;
    const ContrastiveHmmResult refit = solveContrastiveHmm(moments, 0.0, options);
    const double plainMad = matchedMeanAbsoluteDifference(truth.emissions, plain.markProbabilities);
    const double refitMad = matchedMeanAbsoluteDifference(truth.emissions, refit.markProbabilities);
    std::printf("sampled dominant-empty HMM: weight sum %.3f -> %.3f, MAD %.4f -> %.4f\n",
                plain.weights.sum(), refit.weights.sum(), plainMad, refitMad);
    EXPECT_NEAR(refit.weights.sum(), 1.0, 0.01);
    // The plain solve misses the unmarked state (weights sum 0.05) and is far from the truth;
    // the refit restores it but the other states stay ~0.2 away (measured 0.30 -> 0.20).
    EXPECT_LT(refitMad, plainMad - 0.05);
    EXPECT_LT(refit.markProbabilities.row(0).maxCoeff(), 0.05);
    EXPECT_NEAR(refit.weights[0], truth.start[0], 0.05);
}

TEST(HmmMomentRefit, ContrastWeightsSumToOneMinusGammaOnExactMoments) {
    // Foreground and background from the same HMM: M_f − γ·M_b = (1 − γ)·M, so the refit's
    // weights are (1 − γ)·π exactly (negative for γ > 1, never below −γ).
    const HmmParameters truth = dominantEmptyHmm(6, 8, 5);
    const SequenceMoments moments = populationContrastiveMoments(truth, truth, 0.0);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    options.momentRefitSweeps = 0;
    for (const double gamma : {0.5, 1.5}) {
        const ContrastiveHmmResult result = solveContrastiveHmm(moments, gamma, options);
        EXPECT_NEAR(result.weights.sum(), 1.0 - gamma, 1e-6) << gamma;
        EXPECT_GE(result.weights.minCoeff(), -gamma - 1e-9) << gamma;
        const auto match = matchStates(truth.emissions, result.markProbabilities);
        for (int h = 0; h < 6; ++h) {
            EXPECT_NEAR(result.weights[match[static_cast<size_t>(h)]],
                        (1.0 - gamma) * truth.start[h], 1e-4)
                << "γ " << gamma << ", state " << h;
        }
        EXPECT_LT(matchedMeanAbsoluteDifference(truth.emissions, result.markProbabilities), 1e-4);
        EXPECT_EQ(result.invalidMass, 0.0) << gamma;
    }
}

TEST(HmmMomentRefit, RefitStatesKeepTheValidityTestOfTheirExtractedComponent) {
    // Sampled moments, so extracted emissions leave [0, 1] by sampling error (clipping > 0).
    const HmmParameters truth = dominantEmptyHmm(6, 8, 5);
    const ChromatinData data = sampleChromatinData(truth, {100000}, 78);
    const BinClasses classes = classifyBins(data, nullptr, nullptr);
    const SequenceMoments moments = computeSequenceMoments(data, classes);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    options.extraComponents = 2;
    const ContrastiveHmmResult plain = solveContrastiveHmm(moments, 0.0, options);
    options.momentRefitSweeps = 0; // the emissions stay the extracted ones
    const ContrastiveHmmResult refit = solveContrastiveHmm(moments, 0.0, options);
    ASSERT_EQ(refit.decompositionRank, plain.decompositionRank);
    const double effective = 1.0 / (1.0 / static_cast<double>(moments.foreground.numTriples));
    double total = 0;
    int unmarked = 0;
    for (int h = 0; h < 6; ++h) {
        const Eigen::RowVectorXd row = refit.markProbabilities.row(h);
        double expected = -1;
        if (row.isZero(0)) {
            expected = 0; // the added all-zero candidate
            ++unmarked;
        }
        for (Eigen::Index c = 0; c < plain.markProbabilities.rows(); ++c) {
            if (row == plain.markProbabilities.row(c)) {
                expected = plain.emissionClipping[c];
            }
        }
        for (Eigen::Index c = 0; c < plain.droppedMarkProbabilities.rows(); ++c) {
            if (row == plain.droppedMarkProbabilities.row(c)) {
                expected = plain.droppedEmissionClipping[c];
            }
        }
        ASSERT_GE(expected, 0) << "state " << h << " is no extracted component";
        EXPECT_EQ(refit.emissionClipping[h], expected) << h;
        const double tolerance =
            options.validityZ * 0.5 / std::sqrt(effective * std::abs(refit.weights[h]));
        EXPECT_NEAR(refit.emissionTolerance[h], tolerance, 1e-12 * tolerance) << h;
        EXPECT_DOUBLE_EQ(refit.componentInvalidMass[h],
                         invalidStateMass(refit.weights[h], expected, tolerance, 0.0,
                                          options.validityZ * 0.5 / std::sqrt(effective)))
            << h;
        total += refit.componentInvalidMass[h];
    }
    EXPECT_LE(unmarked, 1);
    EXPECT_GT((plain.emissionClipping.array() > 0).count() +
                  (plain.droppedEmissionClipping.array() > 0).count(),
              0)
        << "no clipping to carry over: the test checks nothing";
    EXPECT_DOUBLE_EQ(refit.invalidMass, total);
}

// ---- Third-order moments (MarkMomentTargets::third) ----

/// Exact targets of a weighted product-Bernoulli mixture (rows of `o`), with the third block.
MarkMomentTargets mixtureTargets(const Eigen::VectorXd& w, const Eigen::MatrixXd& o, bool third) {
    const auto m = o.cols();
    MarkMomentTargets t;
    t.mean = o.transpose() * w;
    t.second = o.transpose() * w.asDiagonal() * o;
    t.total = w.sum();
    t.effectiveBins = 1e6;
    if (third) {
        t.third.resize(numMarkTriples(static_cast<int>(m)));
        for (int q = 0; q < t.third.size(); ++q) {
            const Eigen::Vector3i abc = markTriple(static_cast<int>(m), q);
            t.third[q] =
                (w.array() * o.col(abc[0]).array() * o.col(abc[1]).array() * o.col(abc[2]).array())
                    .sum();
        }
    }
    return t;
}

/// Two states (ω₁, c + d₁), (ω₂, c + d₂) with ω₁ + ω₂ = s, ω₁d₁ + ω₂d₂ = 0 and
/// ω₁d₁d₁ᵀ + ω₂d₂d₂ᵀ = v vᵀ have the same total, mean and pair moments for every ω₁ ∈ (0, s):
/// d₁ = v·√(ω₂/(ω₁s)), d₂ = −v·√(ω₁/(ω₂s)). Their third moments differ:
/// Σ ω d⊗d⊗d = v⊗v⊗v·(ω₂² − ω₁²)/(s^{3/2}√(ω₁ω₂)).
struct StatePair {
    Eigen::Vector2d weights;
    Eigen::MatrixXd emissions; // 2 × M
};

StatePair secondOrderTwin(double omega1, double s, const Eigen::RowVectorXd& c,
                          const Eigen::RowVectorXd& v) {
    const double omega2 = s - omega1;
    StatePair out;
    out.weights << omega1, omega2;
    out.emissions.resize(2, c.size());
    out.emissions.row(0) = c + v * std::sqrt(omega2 / (omega1 * s));
    out.emissions.row(1) = c - v * std::sqrt(omega1 / (omega2 * s));
    return out;
}

/// The truth: an unmarked state, a marked one and a pair (ω 0.03 and 0.09); the spurious
/// alternative: the same pair family at ω₁ = 0.004 (a light component with extreme marks, like
/// the "reserve" component of chr11) — identical first and second moments.
struct TwinCase {
    Eigen::VectorXd weights;   // 4
    Eigen::MatrixXd emissions; // 4 × 5
    StatePair spurious;
};

TwinCase twinCase() {
    const Eigen::RowVectorXd c = (Eigen::RowVectorXd(5) << 0.4, 0.4, 0.4, 0.6, 0.2).finished();
    const Eigen::RowVectorXd v = (Eigen::RowVectorXd(5) << 0.03, 0.03, 0.03, -0.03, 0.0).finished();
    const StatePair real = secondOrderTwin(0.03, 0.12, c, v);
    TwinCase out;
    out.spurious = secondOrderTwin(0.004, 0.12, c, v);
    out.weights.resize(4);
    out.weights << 0.7, 0.18, real.weights[0], real.weights[1];
    out.emissions.resize(4, 5);
    out.emissions.row(0).setConstant(0.01);
    out.emissions.row(1) << 0.1, 0.8, 0.05, 0.3, 0.9;
    out.emissions.bottomRows(2) = real.emissions;
    return out;
}

/// Reference for the subset selection, independent of refitMarkStates' NNLS: every K-subset of
/// `pool` gets its weights by unconstrained least squares of the documented objective (rows
/// divided by √(max(|value|, 1/N)/N), constant row weighted by the largest of them); returns
/// the subsets sorted by that residual.
std::vector<std::pair<double, std::vector<int>>>
bruteForceSubsets(const Eigen::MatrixXd& pool, const MarkMomentTargets& t, int k) {
    const auto m = pool.cols();
    const double n = t.effectiveBins;
    auto rho = [&](double value) {
        return 1.0 / std::sqrt(std::max(std::abs(value), 1.0 / n) / n);
    };
    std::vector<Eigen::VectorXd> rows;
    std::vector<double> rhs, weight;
    rows.emplace_back(Eigen::VectorXd::Ones(pool.rows()));
    rhs.push_back(t.total);
    weight.push_back(0); // set below
    for (Eigen::Index i = 0; i < m; ++i) {
        rows.emplace_back(pool.col(i));
        rhs.push_back(t.mean[i]);
        weight.push_back(rho(t.mean[i]));
        for (Eigen::Index j = i + 1; j < m; ++j) {
            rows.emplace_back(pool.col(i).cwiseProduct(pool.col(j)));
            rhs.push_back(t.second(i, j));
            weight.push_back(rho(t.second(i, j)));
        }
    }
    for (Eigen::Index q = 0; q < t.third.size(); ++q) {
        const Eigen::Vector3i abc = markTriple(static_cast<int>(m), static_cast<int>(q));
        rows.emplace_back(
            pool.col(abc[0]).cwiseProduct(pool.col(abc[1])).cwiseProduct(pool.col(abc[2])));
        rhs.push_back(t.third[q]);
        weight.push_back(rho(t.third[q]));
    }
    weight[0] = *std::max_element(weight.begin(), weight.end());
    std::vector<std::pair<double, std::vector<int>>> out;
    const int n_pool = static_cast<int>(pool.rows());
    std::vector<bool> pick(static_cast<size_t>(n_pool), false);
    std::fill(pick.begin(), pick.begin() + k, true);
    do {
        std::vector<int> subset;
        for (int c = 0; c < n_pool; ++c) {
            if (pick[static_cast<size_t>(c)]) {
                subset.push_back(c);
            }
        }
        Eigen::MatrixXd a(static_cast<Eigen::Index>(rows.size()), k);
        Eigen::VectorXd b(static_cast<Eigen::Index>(rows.size()));
        for (size_t r = 0; r < rows.size(); ++r) {
            for (int h = 0; h < k; ++h) {
                a(static_cast<Eigen::Index>(r), h) =
                    weight[r] * rows[r][subset[static_cast<size_t>(h)]];
            }
            b[static_cast<Eigen::Index>(r)] = weight[r] * rhs[r];
        }
        const Eigen::VectorXd w = a.colPivHouseholderQr().solve(b);
        out.emplace_back((a * w - b).norm(), subset);
    } while (std::prev_permutation(pick.begin(), pick.end()));
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<int> sortedSources(const MomentRefitResult& fit) {
    std::vector<int> out(fit.sourceCandidate.data(),
                         fit.sourceCandidate.data() + fit.sourceCandidate.size());
    std::sort(out.begin(), out.end());
    return out;
}

TEST(HmmMomentRefitThird, MarkTriplesAreLexicographic) {
    EXPECT_EQ(numMarkTriples(8), 56);
    EXPECT_EQ(numMarkTriples(2), 0);
    EXPECT_EQ(markTriple(5, 0), Eigen::Vector3i(0, 1, 2));
    EXPECT_EQ(markTriple(5, 1), Eigen::Vector3i(0, 1, 3));
    EXPECT_EQ(markTriple(5, 9), Eigen::Vector3i(2, 3, 4));
    EXPECT_THROW(markTriple(5, 10), std::invalid_argument);
}

TEST(HmmMomentRefitThird, TwinsShareSecondButNotThirdMoments) {
    const TwinCase tc = twinCase();
    ASSERT_GE(tc.spurious.emissions.minCoeff(), 0.0);
    ASSERT_LE(tc.spurious.emissions.maxCoeff(), 1.0);
    Eigen::VectorXd wSpurious = tc.weights;
    Eigen::MatrixXd oSpurious = tc.emissions;
    wSpurious.tail(2) = tc.spurious.weights;
    oSpurious.bottomRows(2) = tc.spurious.emissions;
    const MarkMomentTargets second = mixtureTargets(tc.weights, tc.emissions, false);
    const MarkMomentTargets third = mixtureTargets(tc.weights, tc.emissions, true);
    EXPECT_LT(markMomentResidual(wSpurious, oSpurious, second), 1e-9);
    EXPECT_LT(markMomentResidual(tc.weights, tc.emissions, third), 1e-9);
    // v⊗v⊗v·(ω₂² − ω₁²)/(s^{3/2}√(ω₁ω₂)) changes with ω₁: the third block sees the difference.
    // (markMomentResidual is in units of √N_eff standard errors: N_eff = 10⁶ here.)
    EXPECT_GT(markMomentResidual(wSpurious, oSpurious, third), 1e-3);
}

TEST(HmmMomentRefitThird, ThirdOrderSelectionRecoversExactWeights) {
    // Candidates: the four true states and the spurious pair; second moments cannot choose
    // (both subsets fit them exactly), the third-order fit gives the truth and its weights.
    const TwinCase tc = twinCase();
    Eigen::MatrixXd candidates(6, 5);
    candidates << tc.spurious.emissions, tc.emissions;
    const MarkMomentTargets targets = mixtureTargets(tc.weights, tc.emissions, true);
    MomentRefitOptions options;
    options.numStates = 4;
    options.sweeps = 0;
    options.addEmptyCandidate = false;
    const auto reference = bruteForceSubsets(candidates, targets, 4);
    EXPECT_EQ(reference[0].second, (std::vector<int>{2, 3, 4, 5}));
    EXPECT_LT(reference[0].first, 1e-8);
    EXPECT_GT(reference[1].first, 1.0);
    const MomentRefitResult fit = refitMarkStates(candidates, targets, options);
    EXPECT_EQ(sortedSources(fit), reference[0].second);
    EXPECT_LT(fit.residualSelected, 1e-6);
    const auto match = matchStates(tc.emissions, fit.emissions);
    for (int h = 0; h < 4; ++h) {
        EXPECT_NEAR(fit.weights[match[static_cast<size_t>(h)]], tc.weights[h], 1e-9) << h;
        EXPECT_EQ(fit.emissions.row(match[static_cast<size_t>(h)]), tc.emissions.row(h)) << h;
    }
    // With second moments only the two subsets tie at zero residual.
    const MarkMomentTargets second = mixtureTargets(tc.weights, tc.emissions, false);
    const auto tie = bruteForceSubsets(candidates, second, 4);
    EXPECT_LT(tie[0].first, 1e-8);
    EXPECT_LT(tie[1].first, 1e-8);
}

TEST(HmmMomentRefitThird, SecondOrderPicksTheSpuriousPairThirdOrderTheRealStates) {
    // As on real data: the extracted small state is slightly off (0.005 on two marks), and a
    // spurious light component with extreme marks fits the second moments exactly.
    const TwinCase tc = twinCase();
    Eigen::MatrixXd candidates(6, 5);
    candidates << tc.spurious.emissions, tc.emissions;
    candidates(4, 0) += 0.005;
    candidates(4, 4) -= 0.005;
    MomentRefitOptions options;
    options.numStates = 4;
    options.sweeps = 0;
    options.addEmptyCandidate = false;
    const MarkMomentTargets second = mixtureTargets(tc.weights, tc.emissions, false);
    const MarkMomentTargets third = mixtureTargets(tc.weights, tc.emissions, true);
    const auto reference2 = bruteForceSubsets(candidates, second, 4);
    const auto reference3 = bruteForceSubsets(candidates, third, 4);
    std::printf("second order: best %.3g, next %.3g; third order: best %.3g, next %.3g\n",
                reference2[0].first, reference2[1].first, reference3[0].first, reference3[1].first);
    EXPECT_EQ(reference2[0].second, (std::vector<int>{0, 1, 2, 3})) << "second order: spurious";
    EXPECT_EQ(reference3[0].second, (std::vector<int>{2, 3, 4, 5})) << "third order: real";
    const MomentRefitResult fit2 = refitMarkStates(candidates, second, options);
    const MomentRefitResult fit3 = refitMarkStates(candidates, third, options);
    EXPECT_EQ(sortedSources(fit2), reference2[0].second);
    EXPECT_EQ(sortedSources(fit3), reference3[0].second);
    EXPECT_LT(matchedMeanAbsoluteDifference(tc.emissions, fit3.emissions), 0.01);
    EXPECT_GT(matchedMeanAbsoluteDifference(tc.emissions, fit2.emissions), 0.05);
    // The sweeps with the third block move the perturbed state back (objective never grows).
    options.sweeps = 500;
    const MomentRefitResult swept = refitMarkStates(candidates, third, options);
    EXPECT_LE(swept.residualFinal, swept.residualSelected);
    EXPECT_LT(matchedMeanAbsoluteDifference(tc.emissions, swept.emissions),
              matchedMeanAbsoluteDifference(tc.emissions, fit3.emissions));
}

TEST(HmmMomentRefitThird, ThirdBlockOfTheWrongSizeIsAnError) {
    const TwinCase tc = twinCase();
    MarkMomentTargets targets = mixtureTargets(tc.weights, tc.emissions, true);
    targets.third.conservativeResize(3);
    MomentRefitOptions options;
    options.numStates = 4;
    EXPECT_THROW(refitMarkStates(tc.emissions, targets, options), std::invalid_argument);
}

TEST(HmmMomentRefitThird, WithinBinThirdMomentMatchesDirectAndPopulation) {
    const HmmParameters truth = dominantEmptyHmm(4, 5, 9);
    const ChromatinData data = sampleChromatinData(truth, {3000, 2000}, 31);
    const BinClasses classes = classifyBins(data, nullptr, nullptr);
    const SequenceMoments fast = computeSequenceMoments(data, classes);
    const SequenceMoments direct =
        computeSequenceMomentsDirect(data, classes, ObservationEncoding::MarkVector);
    ASSERT_EQ(fast.foreground.m222.dim(0), 6);
    EXPECT_LT(
        (fast.foreground.m222.matrix() - direct.foreground.m222.matrix()).cwiseAbs().maxCoeff(),
        1e-12);
    // m222(i, j, m) = m22(i, j) (constant coordinate) and x² = x.
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            EXPECT_NEAR(fast.foreground.m222(i, j, 5), fast.foreground.m22(i, j), 1e-12);
            EXPECT_NEAR(fast.foreground.m222(i, i, j), fast.foreground.m22(i, j), 1e-12);
        }
    }
    const ClassMoments pop = populationMoments(truth);
    const Eigen::VectorXd pi = stationaryDistribution(truth.transitions);
    double expected = 0;
    for (int h = 0; h < 4; ++h) {
        expected += pi[h] * truth.emissions(h, 0) * truth.emissions(h, 2) * truth.emissions(h, 3);
    }
    EXPECT_NEAR(pop.m222(0, 2, 3), expected, 1e-14);
    EXPECT_NEAR(pop.m222(3, 0, 2), expected, 1e-14);
    EXPECT_NEAR(pop.m222(1, 1, 5), pop.m22(1, 1), 1e-14);
    const SequenceMoments combos =
        computeSequenceMoments(data, classes, {ObservationEncoding::MarkCombination});
    EXPECT_EQ(combos.foreground.m222.dim(0), 0) << "combinations carry no within-bin tensor";
}

TEST(HmmMomentRefitThird, SpectralSolveWithThirdOrderRefitOnExactMoments) {
    const HmmParameters truth = dominantEmptyHmm(6, 8, 5);
    const SequenceMoments moments = populationContrastiveMoments(truth, truth, 0.0);
    ContrastiveHmmOptions options;
    options.numComponents = 6;
    options.momentRefitSweeps = 0;
    options.momentRefitOrder = 3;
    for (const double gamma : {0.0, 0.5}) {
        const ContrastiveHmmResult result = solveContrastiveHmm(moments, gamma, options);
        EXPECT_NEAR(result.weights.sum(), 1.0 - gamma, 1e-6) << gamma;
        EXPECT_LT(matchedMeanAbsoluteDifference(truth.emissions, result.markProbabilities), 1e-4);
        EXPECT_LT(result.momentResidualSelected, 1e-3) << gamma;
    }
    options.momentRefitOrder = 4;
    EXPECT_THROW(solveContrastiveHmm(moments, 0.0, options), std::invalid_argument);
}

} // namespace
} // namespace cx
