#include "core/crowd/conditional_mutual_information.h"
#include "core/crowd/crowd_em.h"
#include "core/crowd/crowd_methods.h"
#include "core/crowd/spectral_crowd.h"
#include "core/crowd/synthetic_crowd.h"

#include "core/common/error.h"
#include "core/common/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace {

/// A data set whose empirical distribution *is* the model: every (class, label pattern) appears
/// round(scale · P(class) Π P(label | class)) times (exact when the probabilities are multiples
/// of 1/scale's factors), so moment estimators see exact moments.
cx::SyntheticCrowd exactCrowd(const Eigen::VectorXd& prior,
                              const std::vector<Eigen::MatrixXd>& confusions, double scale) {
    const auto numClasses = static_cast<int>(prior.size());
    const auto numWorkers = static_cast<int>(confusions.size());
    int patterns = 1;
    for (int m = 0; m < numWorkers; ++m) {
        patterns *= numClasses;
    }
    std::vector<int> labels;
    std::vector<int> gold;
    int numItems = 0;
    for (int y = 0; y < numClasses; ++y) {
        for (int code = 0; code < patterns; ++code) {
            double probability = prior[y];
            std::vector<int> pattern;
            for (int m = 0, rest = code; m < numWorkers; ++m, rest /= numClasses) {
                pattern.push_back(rest % numClasses);
                probability *= confusions[static_cast<size_t>(m)](pattern.back(), y);
            }
            const auto copies = static_cast<int>(std::lround(scale * probability));
            EXPECT_NEAR(copies, scale * probability, 1e-6) << "scale does not make counts exact";
            for (int c = 0; c < copies; ++c) {
                labels.insert(labels.end(), pattern.begin(), pattern.end());
                gold.push_back(y);
                ++numItems;
            }
        }
    }
    cx::SyntheticCrowd out;
    out.data = cx::crowdLabelsFromMatrix(numItems, numWorkers, numClasses, labels, gold);
    out.truth.weights = prior;
    out.truth.conditionals = confusions;
    out.truth.missingRate = Eigen::VectorXd::Zero(numWorkers);
    return out;
}

Eigen::MatrixXd symmetricConfusion(int numClasses, double accuracy) {
    Eigen::MatrixXd theta =
        Eigen::MatrixXd::Constant(numClasses, numClasses, (1 - accuracy) / (numClasses - 1));
    theta.diagonal().setConstant(accuracy);
    return theta;
}

/// Five items, four workers, three classes (-1 = not labelled): item 0 a 1–1 tie of classes 0
/// and 2, item 1 a three-way tie, item 2 a clear majority (1, wrong), item 3 unlabelled (all
/// three tie), item 4 a 2–2 tie of 0 and 1 without gold.
const std::vector<int> kTiedLabels = {0,  2,  -1, -1, //
                                      0,  1,  2,  -1, //
                                      1,  1,  0,  -1, //
                                      -1, -1, -1, -1, //
                                      0,  0,  1,  1};

cx::CrowdLabels tiedCrowd() {
    return cx::crowdLabelsFromMatrix(5, 4, 3, kTiedLabels,
                                     {2, 1, 0, 0, cx::CrowdLabels::kMissingLabel});
}

} // namespace

TEST(MajorityVote, BreaksTiesTowardTheFirstSeenLabel) {
    // Item 0: labels 1, 0 (tie, 1 first); item 1: 0, 1, 1 (1 wins); item 2: unlabelled → 0.
    cx::CrowdLabels data = cx::crowdLabelsFromMatrix(3, 3, 2, {-1, 1, 0, 0, 1, 1, -1, -1, -1});
    // Observations are listed worker by worker within an item: for item 0 that is worker 1 (label
    // 1) then worker 2 (label 0).
    EXPECT_EQ(cx::majorityVote(data), (std::vector<int>{1, 1, 0}));
    std::swap(data.observations[0], data.observations[1]);
    EXPECT_EQ(cx::majorityVote(data)[0], 0);
    const Eigen::MatrixXd fractions = cx::majorityVoteFractions(data);
    EXPECT_DOUBLE_EQ(fractions(1, 1), 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(fractions(2, 0), 0.5);
}

TEST(MajorityVote, RandomTieBreakDrawsUniformlyAmongTheTiedClasses) {
    const cx::CrowdLabels data = tiedCrowd();
    const std::vector<std::vector<int>> tied = {{0, 2}, {0, 1, 2}, {1}, {0, 1, 2}, {0, 1}};
    constexpr int kSeeds = 3000;
    std::vector<std::vector<int>> counts(5, std::vector<int>(3, 0));
    double meanError = 0;
    for (int seed = 1; seed <= kSeeds; ++seed) {
        const std::vector<int> predicted = cx::majorityVoteRandomTieBreak(data, seed);
        ASSERT_EQ(predicted, cx::majorityVoteRandomTieBreak(data, seed)); // seeded
        for (size_t n = 0; n < 5; ++n) {
            ++counts[n][static_cast<size_t>(predicted[n])];
        }
        meanError += (1 - cx::goldAccuracy(data, predicted)) / kSeeds;
    }
    for (size_t n = 0; n < 5; ++n) {
        const double share = 1.0 / static_cast<double>(tied[n].size());
        const double sd = std::sqrt(kSeeds * share * (1 - share));
        for (int c = 0; c < 3; ++c) {
            const bool isTied = std::find(tied[n].begin(), tied[n].end(), c) != tied[n].end();
            if (!isTied) {
                EXPECT_EQ(counts[n][static_cast<size_t>(c)], 0) << "item " << n << " class " << c;
            } else if (tied[n].size() > 1) {
                EXPECT_NEAR(counts[n][static_cast<size_t>(c)], kSeeds * share, 5 * sd)
                    << "item " << n << " class " << c;
            }
        }
    }
    // The mv method: its labels are this draw, its error rate the exact expectation over draws
    // (seed-independent), which the average realised error approaches.
    cx::CrowdOptions options;
    options.seed = 7;
    const cx::CrowdResult mv = cx::runCrowdMethod(data, cx::CrowdMethod::MajorityVote, options);
    EXPECT_EQ(mv.predicted, cx::majorityVoteRandomTieBreak(data, 7));
    const double expected = cx::majorityVoteRandomTies(data).expectedErrorRate;
    EXPECT_DOUBLE_EQ(mv.errorRate, expected);
    options.seed = 8;
    EXPECT_DOUBLE_EQ(cx::runCrowdMethod(data, cx::CrowdMethod::MajorityVote, options).errorRate,
                     expected);
    EXPECT_NEAR(meanError, expected, 0.02);
    ASSERT_EQ(mv.notes.size(), 1U);
    EXPECT_NE(mv.notes[0].find("4 items tie"), std::string::npos) << mv.notes[0];
}

TEST(MajorityVote, RandomTieBreakingErrorMatchesEnumeration) {
    // Five items, four workers, three classes (-1 = not labelled): item 0 a 1–1 tie of classes 0
    // and 2, item 1 a three-way tie, item 2 a clear majority, item 3 unlabelled (all three tie),
    // item 4 a 2–2 tie without gold.
    const std::vector<int>& labels = kTiedLabels;
    const cx::CrowdLabels data = tiedCrowd();
    // Brute force: every combination of choices among the tied classes, equally likely.
    std::vector<std::vector<int>> choices(5);
    for (int n = 0; n < 5; ++n) {
        std::vector<int> counts(3, 0);
        for (int m = 0; m < 4; ++m) {
            if (labels[static_cast<size_t>(n * 4 + m)] >= 0) {
                ++counts[static_cast<size_t>(labels[static_cast<size_t>(n * 4 + m)])];
            }
        }
        const int best = *std::max_element(counts.begin(), counts.end());
        for (int c = 0; c < 3; ++c) {
            if (counts[static_cast<size_t>(c)] == best) {
                choices[static_cast<size_t>(n)].push_back(c);
            }
        }
    }
    double totalError = 0;
    int combinations = 0;
    std::vector<size_t> pick(5, 0);
    while (true) {
        std::vector<int> predicted(5);
        for (size_t n = 0; n < 5; ++n) {
            predicted[n] = choices[n][pick[n]];
        }
        totalError += 1 - cx::goldAccuracy(data, predicted);
        ++combinations;
        size_t n = 0;
        while (n < 5 && ++pick[n] == choices[n].size()) {
            pick[n++] = 0;
        }
        if (n == 5) {
            break;
        }
    }
    ASSERT_EQ(combinations, 2 * 3 * 1 * 3 * 2);
    const cx::MajorityVoteTies ties = cx::majorityVoteRandomTies(data);
    EXPECT_NEAR(ties.expectedErrorRate, totalError / combinations, 1e-12);
    // Expected correct: item 0 ½, item 1 ⅓, item 2 0 (the majority 1 is wrong), item 3 ⅓.
    EXPECT_NEAR(ties.expectedErrorRate, 1 - (0.5 + 1.0 / 3 + 0 + 1.0 / 3) / 4, 1e-12);
    EXPECT_EQ(ties.tiedGoldItems, 3); // items 0, 1, 3 (item 4 has no gold)
    // The deterministic rule takes the first-seen label: item 0 → 0 (wrong), item 1 → 0 (wrong),
    // item 2 → 1 (wrong), item 3 → 0 (right).
    EXPECT_NEAR(1 - cx::goldAccuracy(data, cx::majorityVote(data)), 0.75, 1e-12);
    // MV-EM's start is the soft vote: a tie is split evenly, not given to the first-seen label;
    // its first M-step in closed form for worker 1, who labels items 0 (2), 1 (1), 2 (1), 4 (0).
    const Eigen::MatrixXd soft = cx::majorityVoteFractions(data);
    EXPECT_DOUBLE_EQ(soft(0, 0), 0.5);
    EXPECT_DOUBLE_EQ(soft(0, 2), 0.5);
    EXPECT_DOUBLE_EQ(soft(1, 1), 1.0 / 3);
    EXPECT_DOUBLE_EQ(soft(4, 0), 0.5);
    const cx::ProductMixture start = cx::mStep(data, soft, 0.0, cx::missingRates(data));
    // Column k of worker 1: Σ_n soft(n, k)·e_{x_n1} over items 0, 1, 2, 4, normalised.
    Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(3, 3);
    expected.row(2) += soft.row(0);
    expected.row(1) += soft.row(1);
    expected.row(1) += soft.row(2);
    expected.row(0) += soft.row(4);
    for (int k = 0; k < 3; ++k) {
        expected.col(k) /= expected.col(k).sum();
    }
    EXPECT_LT((start.conditionals[1] - expected).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(CrowdEm, LogLikelihoodNeverDecreases) {
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.3, 0.6, 300, 30, 3, 5);
    spec.labelProbability = 0.6;
    const cx::SyntheticCrowd crowd = cx::generateSparseCrowd(spec);
    cx::EmOptions options;
    options.smoothing = 0; // the plain likelihood is what EM increases
    options.tolerance = 0;
    options.maxIterations = 60;
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        const cx::EmFit fit = cx::emWithRestarts(crowd.data, 3, 1, seed, options);
        ASSERT_EQ(fit.logLikelihoods.size(), 60u);
        for (size_t i = 1; i < fit.logLikelihoods.size(); ++i) {
            EXPECT_GE(fit.logLikelihoods[i],
                      fit.logLikelihoods[i - 1] - 1e-7 * std::abs(fit.logLikelihoods[i]))
                << "seed " << seed << " iteration " << i;
        }
    }
}

TEST(CrowdEm, FullLogLikelihoodMatchesBruteForceOverComponents) {
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.5, 0.8, 40, 6, 2, 9);
    spec.labelProbability = 0.7;
    const cx::SyntheticCrowd crowd = cx::generateSparseCrowd(spec);
    cx::ProductMixture model = crowd.truth;
    model.missingRate = cx::missingRates(crowd.data);
    double expected = 0;
    for (int n = 0; n < crowd.data.numItems; ++n) {
        double p = 0;
        for (int k = 0; k < 2; ++k) {
            double term = model.weights[k];
            for (int m = 0; m < crowd.data.numWorkers; ++m) {
                const int x = crowd.data.at(n, m);
                const double r = model.missingRate[m];
                term *= x < 0 ? r : (1 - r) * model.conditionals[static_cast<size_t>(m)](x, k);
            }
            p += term;
        }
        expected += std::log(p);
    }
    const cx::ItemObservations items(crowd.data);
    EXPECT_NEAR(cx::logLikelihood(crowd.data, items, model), expected, 1e-9 * std::abs(expected));
}

TEST(ConditionalMutualInformation, MatchesBruteForceWithMissingLabels) {
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.4, 0.7, 120, 10, 3, 11);
    spec.labelProbability = 0.7;
    const cx::SyntheticCrowd crowd = cx::generateSparseCrowd(spec);
    cx::Rng rng(3);
    Eigen::MatrixXd posterior(crowd.data.numItems, 2);
    for (int n = 0; n < crowd.data.numItems; ++n) {
        posterior.row(n) = rng.dirichlet(2, 1.0).transpose();
    }
    const cx::CmiTensor cmi = cx::conditionalMutualInformation(crowd.data, posterior);
    double largest = 0;
    for (int i = 0; i < 10; ++i) {
        for (int j = 0; j < 10; ++j) {
            for (int k = 0; k < 2; ++k) {
                const double brute =
                    cx::conditionalMutualInformationEntry(crowd.data, posterior, i, j, k);
                EXPECT_NEAR(cmi.at(i, j, k), brute, 1e-12) << i << "," << j << "," << k;
                largest = std::max(largest, brute);
            }
        }
    }
    EXPECT_GT(largest, 0.01); // the experts depend on each other under a random posterior
    EXPECT_NEAR(cmi.maxEntry(), largest, 1e-12);
    EXPECT_NEAR(cmi.summed()(0, 1), cmi.at(0, 1, 0) + cmi.at(0, 1, 1), 1e-15);
}

TEST(ConditionalMutualInformation, VanishesGivenTheTrueClassOfAnExactModel) {
    // Exact data from a 2-class model: conditionally on the true class (one-hot posterior) the
    // workers are exactly independent, so every entry is 0; with one component the entries are
    // the plain mutual information, positive between informative workers.
    const Eigen::Vector2d prior(0.5, 0.5);
    const std::vector<Eigen::MatrixXd> confusions = {
        symmetricConfusion(2, 0.8), symmetricConfusion(2, 0.7), symmetricConfusion(2, 0.6)};
    const cx::SyntheticCrowd crowd = exactCrowd(prior, confusions, 2000);
    Eigen::MatrixXd truth = Eigen::MatrixXd::Zero(crowd.data.numItems, 2);
    for (int n = 0; n < crowd.data.numItems; ++n) {
        truth(n, crowd.data.gold[static_cast<size_t>(n)]) = 1;
    }
    EXPECT_LT(cx::conditionalMutualInformation(crowd.data, truth).maxEntry(), 1e-12);
    const cx::CmiTensor marginal =
        cx::conditionalMutualInformation(crowd.data, Eigen::MatrixXd::Ones(crowd.data.numItems, 1));
    // I(x_0; x_1) for accuracies 0.8 and 0.7: P(agree) = 0.8·0.7 + 0.2·0.3 = 0.62.
    const double agree = 0.62;
    const double expected = 2 * (agree / 2) * std::log(agree / 2 / 0.25) +
                            2 * ((1 - agree) / 2) * std::log((1 - agree) / 2 / 0.25);
    EXPECT_NEAR(marginal.at(0, 1, 0), expected, 1e-12);
}

TEST(ChiSquareQuantile, MatchesTables) {
    EXPECT_NEAR(cx::chiSquareQuantile(0.95, 1), 3.841458820694124, 1e-8);
    EXPECT_NEAR(cx::chiSquareQuantile(0.95, 2), 5.991464547107979, 1e-8);
    EXPECT_NEAR(cx::chiSquareQuantile(0.99, 10), 23.20925115650462, 1e-7);
    EXPECT_NEAR(cx::chiSquareQuantile(0.5, 4), 3.356693980033322, 1e-8);
}

TEST(SpectralCrowd, RecoversConfusionsFromExactMoments) {
    // Three workers (one per group), three classes, probabilities in tenths: exact moments.
    const Eigen::Vector3d prior(0.2, 0.3, 0.5);
    Eigen::MatrixXd a(3, 3);
    a << 0.8, 0.1, 0.2, 0.1, 0.7, 0.1, 0.1, 0.2, 0.7;
    Eigen::MatrixXd b(3, 3);
    b << 0.6, 0.2, 0.1, 0.3, 0.6, 0.2, 0.1, 0.2, 0.7;
    Eigen::MatrixXd c(3, 3);
    c << 0.7, 0.1, 0.1, 0.2, 0.8, 0.3, 0.1, 0.1, 0.6;
    const cx::SyntheticCrowd crowd = exactCrowd(prior, {a, b, c}, 10000);
    const cx::SpectralCrowdResult result = cx::spectralCrowdInitialization(crowd.data, 7);
    ASSERT_EQ(result.status, cx::Status::Successful) << result.note;
    EXPECT_LT((result.model.weights - prior).cwiseAbs().maxCoeff(), 1e-6);
    for (int m = 0; m < 3; ++m) {
        EXPECT_LT((result.model.conditionals[static_cast<size_t>(m)] -
                   crowd.truth.conditionals[static_cast<size_t>(m)])
                      .cwiseAbs()
                      .maxCoeff(),
                  1e-6)
            << "worker " << m;
    }
}

TEST(SpectralCrowd, RecoversConfusionsOfSeveralWorkersPerGroupFromExactMoments) {
    // Six workers who label every item: groups by label count dealt round-robin = {0, 3},
    // {1, 4}, {2, 5}. Each worker is regressed on the sum of the other two groups' votes
    // (E[e_x (Z_a + Z_b)ᵀ] = C_m diag(w) (μ_a + μ_b)ᵀ); with exact moments (probabilities in
    // quarters, 4⁷ items) every confusion matrix and the class prior come out exactly.
    const Eigen::Vector2d prior(0.25, 0.75);
    auto confusion = [](double a, double b, double c, double d) {
        Eigen::MatrixXd theta(2, 2);
        theta << a, b, c, d; // column = true class
        return theta;
    };
    const std::vector<Eigen::MatrixXd> confusions = {
        confusion(0.75, 0.25, 0.25, 0.75), confusion(0.5, 0.25, 0.5, 0.75),
        confusion(0.75, 0.5, 0.25, 0.5),   confusion(0.75, 0.25, 0.25, 0.75),
        confusion(0.75, 0.25, 0.25, 0.75), confusion(0.5, 0.25, 0.5, 0.75)};
    const cx::SyntheticCrowd crowd = exactCrowd(prior, confusions, 16384);
    ASSERT_EQ(crowd.data.numItems, 16384);
    const cx::SpectralCrowdResult result = cx::spectralCrowdInitialization(crowd.data, 3);
    ASSERT_EQ(result.status, cx::Status::Successful) << result.note;
    EXPECT_LT((result.model.weights - prior).cwiseAbs().maxCoeff(), 1e-6);
    for (int m = 0; m < 6; ++m) {
        EXPECT_LT(
            (result.model.conditionals[static_cast<size_t>(m)] - confusions[static_cast<size_t>(m)])
                .cwiseAbs()
                .maxCoeff(),
            1e-6)
            << "worker " << m;
    }
    // Group means: E[Z_g | y] = the sum of the group's confusion matrices.
    EXPECT_LT((result.groupMeans[0] - confusions[0] - confusions[3]).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_LT((result.groupMeans[2] - confusions[2] - confusions[5]).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(SyntheticCrowd, BetaSparseGeneratorRecoversItsParameters) {
    // Large sample: the empirical confusion of each worker against the truth approaches the
    // generating one, and MV-initialised EM recovers it without the truth.
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.2, 0.6, 20000, 10, 3, 4);
    const cx::SyntheticCrowd crowd = cx::generateSparseCrowd(spec);
    ASSERT_EQ(std::count(crowd.informative.begin(), crowd.informative.end(), 1), 2);
    Eigen::MatrixXd truthPosterior = Eigen::MatrixXd::Zero(crowd.data.numItems, 3);
    for (int n = 0; n < crowd.data.numItems; ++n) {
        truthPosterior(n, crowd.data.gold[static_cast<size_t>(n)]) = 1;
    }
    const cx::ProductMixture empirical =
        cx::mStep(crowd.data, truthPosterior, 0.0, cx::missingRates(crowd.data));
    for (int m = 0; m < 10; ++m) {
        EXPECT_LT((empirical.conditionals[static_cast<size_t>(m)] -
                   crowd.truth.conditionals[static_cast<size_t>(m)])
                      .cwiseAbs()
                      .maxCoeff(),
                  0.025)
            << "worker " << m;
    }
    EXPECT_LT((empirical.weights - crowd.truth.weights).cwiseAbs().maxCoeff(), 0.015);
    cx::CrowdOptions options;
    const cx::CrowdResult fit = cx::runCrowdMethod(crowd.data, cx::CrowdMethod::MvEm, options);
    for (int m = 0; m < 2; ++m) {
        EXPECT_NEAR(fit.workers[static_cast<size_t>(m)].accuracy, 0.6, 0.03) << "worker " << m;
    }
}

TEST(CrowdMethods, EveryMethodIsSeededAndDeterministic) {
    // Twelve experts among twenty workers: enough for each of spectral-EM's three worker groups
    // (with 0.3, two experts per group, spectral-EM fails as in Zhao & Zucker 2015's sparse regime,
    // and whether it lands above or below chance then depends on rounding: -O1 vs -O3).
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.6, 0.7, 200, 20, 3, 21);
    spec.labelProbability = 0.8;
    const cx::SyntheticCrowd crowd = cx::generateSparseCrowd(spec);
    cx::CrowdOptions options;
    options.seed = 5;
    options.restarts = 3;
    for (cx::CrowdMethod method : cx::allCrowdMethods()) {
        const cx::CrowdResult first = cx::runCrowdMethod(crowd.data, method, options);
        const cx::CrowdResult second = cx::runCrowdMethod(crowd.data, method, options);
        EXPECT_EQ(first.predicted, second.predicted) << cx::crowdMethodName(method);
        EXPECT_EQ(first.posterior, second.posterior) << cx::crowdMethodName(method);
        EXPECT_LT(first.errorRate, 0.5) << cx::crowdMethodName(method); // chance: 2/3
        EXPECT_EQ(cx::parseCrowdMethod(cx::crowdMethodName(method)), method);
    }
    EXPECT_FALSE(cx::parseCrowdMethod("dawid-skene").has_value());
}

TEST(CrowdMethods, RejectsImpossibleComponentCounts) {
    const cx::CrowdLabels data = cx::crowdLabelsFromMatrix(2, 2, 2, {0, 1, 1, 1});
    cx::CrowdOptions options;
    options.numComponents = 1;
    EXPECT_THROW(cx::runCrowdMethod(data, cx::CrowdMethod::MvEm, options), cx::InputError);
    options.numComponents = 65;
    EXPECT_THROW(cx::runCrowdMethod(data, cx::CrowdMethod::Stagewise, options), cx::InputError);
    const cx::CrowdLabels single = cx::crowdLabelsFromMatrix(2, 2, 1, {0, 0, 0, 0});
    EXPECT_THROW(cx::runCrowdMethod(single, cx::CrowdMethod::MajorityVote, {}), cx::InputError);
}

TEST(CrowdMethods, WilsonIntervalContainsTheEstimate) {
    double low = 0;
    double high = 0;
    cx::wilsonInterval(0.9, 100, low, high);
    EXPECT_NEAR(low, 0.8256, 1e-3);
    EXPECT_NEAR(high, 0.9448, 1e-3);
    cx::wilsonInterval(1.0, 10, low, high);
    EXPECT_DOUBLE_EQ(high, 1.0);
    EXPECT_LT(low, 1.0);
}

TEST(WorkerComponentInformation, EqualsTheExactLabelClassInformation) {
    // Exact data, one-hot true posterior: entry(m) = I(x_m; class) = ln 2 − H(a_m) for a
    // balanced binary class and a symmetric worker of accuracy a_m; 0 for the coin (a = 0.5).
    const Eigen::Vector2d prior(0.5, 0.5);
    const std::vector<Eigen::MatrixXd> confusions = {
        symmetricConfusion(2, 0.8), symmetricConfusion(2, 0.7), symmetricConfusion(2, 0.5)};
    const cx::SyntheticCrowd crowd = exactCrowd(prior, confusions, 2000);
    Eigen::MatrixXd truth = Eigen::MatrixXd::Zero(crowd.data.numItems, 2);
    for (int n = 0; n < crowd.data.numItems; ++n) {
        truth(n, crowd.data.gold[static_cast<size_t>(n)]) = 1;
    }
    const cx::WorkerDependence dependence = cx::workerComponentInformation(crowd.data, truth);
    const auto information = [](double a) {
        return std::log(2.0) + a * std::log(a) + (1 - a) * std::log(1 - a);
    };
    EXPECT_NEAR(dependence.values[0], information(0.8), 1e-12);
    EXPECT_NEAR(dependence.values[1], information(0.7), 1e-12);
    EXPECT_NEAR(dependence.values[2], 0.0, 1e-12);
    EXPECT_EQ(dependence.degreesOfFreedom[0], 1);
    // One component: no dependence at all, and no degree of freedom to test.
    const cx::WorkerDependence flat =
        cx::workerComponentInformation(crowd.data, Eigen::MatrixXd::Ones(crowd.data.numItems, 1));
    EXPECT_NEAR(flat.values[0], 0.0, 1e-15);
    EXPECT_EQ(flat.degreesOfFreedom[0], 0);
}

TEST(WorkerComponentInformation, MatchesBruteForceWithMissingLabelsAndSoftPosteriors) {
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.4, 0.7, 150, 8, 3, 23);
    spec.labelProbability = 0.4;
    const cx::SyntheticCrowd crowd = cx::generateSparseCrowd(spec);
    cx::Rng rng(9);
    Eigen::MatrixXd posterior(crowd.data.numItems, 2);
    for (int n = 0; n < crowd.data.numItems; ++n) {
        posterior.row(n) = rng.dirichlet(2, 1.0).transpose();
    }
    const cx::WorkerDependence dependence = cx::workerComponentInformation(crowd.data, posterior);
    for (int m = 0; m < crowd.data.numWorkers; ++m) {
        // Q(x_m = c, z = k) over the items m labelled, from the definition.
        Eigen::MatrixXd joint = Eigen::MatrixXd::Zero(3, 2);
        for (int n = 0; n < crowd.data.numItems; ++n) {
            const int x = crowd.data.at(n, m);
            if (x != cx::CrowdLabels::kMissingLabel) {
                joint.row(x) += posterior.row(n) / crowd.data.numItems;
            }
        }
        const double mass = joint.sum();
        double information = 0;
        for (int c = 0; c < 3; ++c) {
            for (int k = 0; k < 2; ++k) {
                const double p = joint(c, k) / mass;
                if (p > 0) {
                    information +=
                        p * std::log(p / (joint.row(c).sum() / mass * joint.col(k).sum() / mass));
                }
            }
        }
        EXPECT_NEAR(dependence.values[static_cast<size_t>(m)], mass * information, 1e-12) << m;
    }
}

TEST(ChiSquareUpperTail, MatchesTablesAndInvertsTheQuantile) {
    EXPECT_NEAR(cx::chiSquareUpperTail(3.841458820694124, 1), 0.05, 1e-10);
    EXPECT_NEAR(cx::chiSquareUpperTail(5.991464547107979, 2), 0.05, 1e-10);
    EXPECT_NEAR(cx::chiSquareUpperTail(23.20925115650462, 10), 0.01, 1e-9);
    EXPECT_DOUBLE_EQ(cx::chiSquareUpperTail(0.0, 3), 1.0);
    EXPECT_NEAR(cx::chiSquareUpperTail(cx::chiSquareQuantile(0.999, 4), 4), 0.001, 1e-10);
}

TEST(CrowdEm, RestartsStartFromMajorityVoteThenRandomWeightedVotes) {
    cx::SparseCrowdSpec spec = cx::betaSparseSpec(0.3, 0.7, 200, 20, 3, 31);
    spec.labelProbability = 0.5;
    const cx::SyntheticCrowd crowd = cx::generateSparseCrowd(spec);
    // Unit weights are the majority vote; restart 0 is exactly MV-EM's start.
    const Eigen::MatrixXd vote = cx::majorityVoteFractions(crowd.data);
    EXPECT_LT((cx::weightedVoteFractions(crowd.data, Eigen::VectorXd::Ones(20)) - vote)
                  .cwiseAbs()
                  .maxCoeff(),
              1e-15);
    EXPECT_EQ(cx::restartResponsibilities(crowd.data, 3, 0, 7), vote);
    // A weighted vote by hand: worker 0 alone.
    Eigen::VectorXd only0 = Eigen::VectorXd::Zero(20);
    only0[0] = 2.5;
    const Eigen::MatrixXd single = cx::weightedVoteFractions(crowd.data, only0);
    for (int n = 0; n < crowd.data.numItems; ++n) {
        const int x = crowd.data.at(n, 0);
        for (int c = 0; c < 3; ++c) {
            EXPECT_DOUBLE_EQ(single(n, c), x < 0 ? 1.0 / 3 : (x == c ? 1.0 : 0.0));
        }
    }
    // Later restarts: seeded, distinct, rows on the simplex.
    const Eigen::MatrixXd r1 = cx::restartResponsibilities(crowd.data, 3, 1, 7);
    EXPECT_EQ(r1, cx::restartResponsibilities(crowd.data, 3, 1, 7));
    EXPECT_GT((r1 - vote).cwiseAbs().maxCoeff(), 1e-3);
    EXPECT_GT((r1 - cx::restartResponsibilities(crowd.data, 3, 2, 7)).cwiseAbs().maxCoeff(), 1e-3);
    EXPECT_LT((r1.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
    // K ≠ C keeps each class's mass: merged (K = 2) or shared among its copies (K = 5).
    const Eigen::MatrixXd merged = cx::restartResponsibilities(crowd.data, 2, 0, 7);
    EXPECT_LT((merged.col(0) - vote.col(0) - vote.col(2)).cwiseAbs().maxCoeff(), 1e-15);
    const Eigen::MatrixXd shared = cx::restartResponsibilities(crowd.data, 5, 3, 7);
    const Eigen::MatrixXd base = cx::restartResponsibilities(crowd.data, 3, 3, 7);
    EXPECT_LT((shared.col(0) + shared.col(3) - base.col(0)).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((shared.col(2) - base.col(2)).cwiseAbs().maxCoeff(), 1e-12);
    // Picking by likelihood: never below MV-EM (restart 0), and the best of all restarts.
    cx::EmOptions options;
    std::vector<double> perRestart;
    const cx::EmFit best = cx::emWithRestarts(crowd.data, 3, 6, 7, options, {}, &perRestart);
    ASSERT_EQ(perRestart.size(), 6u);
    const cx::EmFit mvEm = cx::emFromPosterior(crowd.data, vote, options);
    EXPECT_DOUBLE_EQ(perRestart[0], mvEm.finalLogLikelihood());
    EXPECT_DOUBLE_EQ(best.finalLogLikelihood(),
                     *std::max_element(perRestart.begin(), perRestart.end()));
    EXPECT_GE(best.finalLogLikelihood(), mvEm.finalLogLikelihood());
}
