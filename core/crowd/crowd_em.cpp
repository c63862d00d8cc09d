#include "core/crowd/crowd_em.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cx {

std::vector<int> majorityVote(const CrowdLabels& data) {
    const auto numItems = static_cast<size_t>(data.numItems);
    const auto numClasses = static_cast<size_t>(data.numClasses);
    std::vector<int> counts(numItems * numClasses, 0);
    // firstSeen[n * C + c] = position in the file of item n's first label c.
    std::vector<size_t> firstSeen(numItems * numClasses, SIZE_MAX);
    for (size_t p = 0; p < data.observations.size(); ++p) {
        const CrowdObservation& o = data.observations[p];
        const size_t slot = static_cast<size_t>(o.item) * numClasses + static_cast<size_t>(o.label);
        ++counts[slot];
        firstSeen[slot] = std::min(firstSeen[slot], p);
    }
    std::vector<int> out(numItems, 0);
    for (size_t n = 0; n < numItems; ++n) {
        size_t best = 0;
        for (size_t c = 1; c < numClasses; ++c) {
            const size_t a = n * numClasses + c;
            const size_t b = n * numClasses + best;
            if (counts[a] > counts[b] || (counts[a] == counts[b] && firstSeen[a] < firstSeen[b])) {
                best = c;
            }
        }
        out[n] = static_cast<int>(best);
    }
    return out;
}

std::vector<int> majorityVoteRandomTieBreak(const CrowdLabels& data, std::uint64_t seed) {
    const auto numClasses = static_cast<size_t>(data.numClasses);
    std::vector<int> counts(static_cast<size_t>(data.numItems) * numClasses, 0);
    for (const CrowdObservation& o : data.observations) {
        ++counts[static_cast<size_t>(o.item) * numClasses + static_cast<size_t>(o.label)];
    }
    Rng rng(seed);
    std::vector<int> out(static_cast<size_t>(data.numItems), 0);
    std::vector<int> tied;
    for (size_t n = 0; n < out.size(); ++n) {
        const int* row = &counts[n * numClasses];
        const int best = *std::max_element(row, row + numClasses);
        tied.clear();
        for (size_t c = 0; c < numClasses; ++c) {
            if (row[c] == best) {
                tied.push_back(static_cast<int>(c));
            }
        }
        out[n] =
            tied.size() == 1
                ? tied.front()
                : tied[std::uniform_int_distribution<size_t>(0, tied.size() - 1)(rng.engine())];
    }
    return out;
}

MajorityVoteTies majorityVoteRandomTies(const CrowdLabels& data) {
    const auto numClasses = static_cast<size_t>(data.numClasses);
    std::vector<int> counts(static_cast<size_t>(data.numItems) * numClasses, 0);
    for (const CrowdObservation& o : data.observations) {
        ++counts[static_cast<size_t>(o.item) * numClasses + static_cast<size_t>(o.label)];
    }
    MajorityVoteTies out;
    double expectedCorrect = 0;
    int numGold = 0;
    for (int n = 0; n < data.numItems && static_cast<size_t>(n) < data.gold.size(); ++n) {
        const int g = data.gold[static_cast<size_t>(n)];
        if (g == CrowdLabels::kMissingLabel) {
            continue;
        }
        ++numGold;
        const int* row = &counts[static_cast<size_t>(n) * numClasses];
        const int best = *std::max_element(row, row + numClasses);
        const auto tied = std::count(row, row + numClasses, best);
        if (tied > 1) {
            ++out.tiedGoldItems;
        }
        if (row[g] == best) {
            expectedCorrect += 1.0 / static_cast<double>(tied);
        }
    }
    out.expectedErrorRate =
        numGold == 0 ? std::numeric_limits<double>::quiet_NaN() : 1.0 - expectedCorrect / numGold;
    return out;
}

Eigen::MatrixXd majorityVoteFractions(const CrowdLabels& data) {
    return weightedVoteFractions(data, Eigen::VectorXd::Ones(data.numWorkers));
}

namespace {

/// Shared EM loop starting from a model (E-step first).
EmFit runEm(const CrowdLabels& data, const ItemObservations& items, ProductMixture model,
            const EmOptions& options, const CancelToken& cancel) {
    EmFit fit;
    const double missingTerm = missingLabelLogLikelihood(data, model.missingRate);
    EStepResult e = eStep(items, model);
    double previous = e.logLikelihood + missingTerm;
    fit.status = Status::NotConverged;
    for (int iteration = 0; iteration < options.maxIterations; ++iteration) {
        throwIfCancelled(cancel);
        model = mStep(data, e.posterior, options.smoothing, model.missingRate);
        e = eStep(items, model);
        const double current = e.logLikelihood + missingTerm;
        fit.logLikelihoods.push_back(current);
        fit.iterations = iteration + 1;
        if (options.tolerance > 0 &&
            std::abs(current - previous) <= options.tolerance * std::max(1.0, std::abs(previous))) {
            fit.status = Status::Successful;
            break;
        }
        previous = current;
    }
    if (fit.logLikelihoods.empty()) {
        fit.logLikelihoods.push_back(previous);
    }
    fit.model = std::move(model);
    fit.posterior = std::move(e.posterior);
    return fit;
}

} // namespace

EmFit emFromModel(const CrowdLabels& data, const ProductMixture& initial, const EmOptions& options,
                  const CancelToken& cancel) {
    const ItemObservations items(data);
    return runEm(data, items, initial, options, cancel);
}

EmFit emFromPosterior(const CrowdLabels& data, const Eigen::MatrixXd& initialPosterior,
                      const EmOptions& options, const CancelToken& cancel) {
    const ItemObservations items(data);
    const ProductMixture initial =
        mStep(data, initialPosterior, options.smoothing, missingRates(data));
    return runEm(data, items, initial, options, cancel);
}

Eigen::MatrixXd weightedVoteFractions(const CrowdLabels& data,
                                      const Eigen::VectorXd& workerWeights) {
    if (workerWeights.size() != data.numWorkers) {
        throw std::invalid_argument(
            "weightedVoteFractions: " + std::to_string(workerWeights.size()) + " weights for " +
            std::to_string(data.numWorkers) + " workers");
    }
    Eigen::MatrixXd fractions = Eigen::MatrixXd::Zero(data.numItems, data.numClasses);
    for (const CrowdObservation& o : data.observations) {
        fractions(o.item, o.label) += workerWeights[o.worker];
    }
    for (Eigen::Index n = 0; n < fractions.rows(); ++n) {
        const double total = fractions.row(n).sum();
        if (total > 0) {
            fractions.row(n) /= total;
        } else {
            fractions.row(n).setConstant(1.0 / data.numClasses);
        }
    }
    return fractions;
}

Eigen::MatrixXd classFractionsToComponents(const Eigen::MatrixXd& fractions, int numComponents,
                                           Rng& rng) {
    const auto numClasses = static_cast<int>(fractions.cols());
    if (numComponents < 1) {
        throw std::invalid_argument("classFractionsToComponents: numComponents = " +
                                    std::to_string(numComponents));
    }
    if (numComponents == numClasses) {
        return fractions;
    }
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(fractions.rows(), numComponents);
    if (numComponents < numClasses) {
        for (int c = 0; c < numClasses; ++c) {
            out.col(c % numComponents) += fractions.col(c);
        }
        return out;
    }
    for (Eigen::Index n = 0; n < fractions.rows(); ++n) {
        for (int c = 0; c < numClasses; ++c) {
            const int copies = (numComponents - 1 - c) / numClasses + 1; // components c, c+C, … < K
            const Eigen::VectorXd share = rng.dirichlet(copies, 1.0);
            for (int t = 0; t < copies; ++t) {
                out(n, c + t * numClasses) = fractions(n, c) * share[t];
            }
        }
    }
    return out;
}

Eigen::MatrixXd restartResponsibilities(const CrowdLabels& data, int numComponents, int restart,
                                        std::uint64_t seed) {
    Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(restart)));
    Eigen::VectorXd weights = Eigen::VectorXd::Ones(data.numWorkers);
    if (restart > 0) {
        for (int m = 0; m < data.numWorkers; ++m) {
            weights[m] = -std::log(rng.uniformOpen()); // Exp(1)
        }
    }
    return classFractionsToComponents(weightedVoteFractions(data, weights), numComponents, rng);
}

EmFit emWithRestarts(const CrowdLabels& data, int numComponents, int restarts, std::uint64_t seed,
                     const EmOptions& options, const CancelToken& cancel,
                     std::vector<double>* restartLogLikelihoods) {
    if (numComponents < 1 || restarts < 1) {
        throw std::invalid_argument(
            "emWithRestarts: numComponents = " + std::to_string(numComponents) +
            ", restarts = " + std::to_string(restarts) + " (need ≥ 1)");
    }
    const ItemObservations items(data);
    const Eigen::VectorXd missing = missingRates(data);
    if (restartLogLikelihoods != nullptr) {
        restartLogLikelihoods->clear();
    }
    EmFit best;
    for (int restart = 0; restart < restarts; ++restart) {
        const Eigen::MatrixXd start = restartResponsibilities(data, numComponents, restart, seed);
        const ProductMixture initial = mStep(data, start, options.smoothing, missing);
        EmFit fit = runEm(data, items, initial, options, cancel);
        if (restartLogLikelihoods != nullptr) {
            restartLogLikelihoods->push_back(fit.finalLogLikelihood());
        }
        if (restart == 0 || fit.finalLogLikelihood() > best.finalLogLikelihood()) {
            best = std::move(fit);
        }
    }
    return best;
}

} // namespace cx
