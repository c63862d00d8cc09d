#include "core/crowd/crowd_methods.h"

#include "core/common/error.h"
#include "core/common/timer.h"
#include "core/crowd/spectral_crowd.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cx {

const char* crowdMethodName(CrowdMethod method) {
    switch (method) {
    case CrowdMethod::MajorityVote:
        return "mv";
    case CrowdMethod::Em:
        return "em";
    case CrowdMethod::MvEm:
        return "mv-em";
    case CrowdMethod::SpectralEm:
        return "spectral-em";
    case CrowdMethod::Stagewise:
        return "stagewise";
    case CrowdMethod::StagewiseRefine:
        return "stagewise-refine";
    }
    return "?";
}

std::optional<CrowdMethod> parseCrowdMethod(const std::string& name) {
    for (CrowdMethod method : allCrowdMethods()) {
        if (name == crowdMethodName(method)) {
            return method;
        }
    }
    return std::nullopt;
}

const std::vector<CrowdMethod>& allCrowdMethods() {
    static const std::vector<CrowdMethod> all = {
        CrowdMethod::MajorityVote, CrowdMethod::MvEm,      CrowdMethod::SpectralEm,
        CrowdMethod::Em,           CrowdMethod::Stagewise, CrowdMethod::StagewiseRefine};
    return all;
}

int CrowdResult::informativeSetSize() const {
    return static_cast<int>(std::count_if(workers.begin(), workers.end(),
                                          [](const WorkerSummary& w) { return w.informative; }));
}

void wilsonInterval(double p, int n, double& low, double& high) {
    if (n <= 0) {
        low = 0;
        high = 1;
        return;
    }
    const double z = 1.959963984540054;
    const double z2n = z * z / n;
    const double centre = (p + z2n / 2) / (1 + z2n);
    const double half = z * std::sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
    low = std::max(0.0, centre - half);
    high = std::min(1.0, centre + half);
}

std::vector<WorkerSummary> summarizeWorkers(const CrowdLabels& data, const ProductMixture& model,
                                            const std::vector<int>& classOf) {
    const int numClasses = data.numClasses;
    // π_c and each class's confusion row: weight-averaged over the components mapped to it.
    Eigen::VectorXd prior = Eigen::VectorXd::Zero(numClasses);
    for (int k = 0; k < model.numComponents(); ++k) {
        prior[classOf[static_cast<size_t>(k)]] += model.weights[k];
    }
    std::vector<WorkerSummary> out(static_cast<size_t>(data.numWorkers));
    for (const CrowdObservation& o : data.observations) {
        ++out[static_cast<size_t>(o.worker)].numLabels;
    }
    for (int m = 0; m < data.numWorkers; ++m) {
        WorkerSummary& worker = out[static_cast<size_t>(m)];
        worker.confusion = Eigen::MatrixXd::Zero(numClasses, numClasses);
        for (int k = 0; k < model.numComponents(); ++k) {
            worker.confusion.row(classOf[static_cast<size_t>(k)]) +=
                model.weights[k] * model.conditionals[static_cast<size_t>(m)].col(k).transpose();
        }
        for (int c = 0; c < numClasses; ++c) {
            if (prior[c] > 0) {
                worker.confusion.row(c) /= prior[c];
            } else {
                worker.confusion.row(c).setConstant(1.0 / numClasses);
            }
        }
        worker.accuracy = prior.dot(worker.confusion.diagonal()) / std::max(1e-300, prior.sum());
        wilsonInterval(worker.accuracy, worker.numLabels, worker.accuracyLow, worker.accuracyHigh);
    }
    return out;
}

namespace {

void fillFromMixture(const CrowdLabels& data, const ProductMixture& model,
                     const Eigen::MatrixXd& posterior, CrowdResult& result) {
    const std::vector<int> classOf = componentClasses(model);
    result.posterior = classPosterior(posterior, classOf, data.numClasses);
    result.predicted = argmaxRows(result.posterior);
    result.workers = summarizeWorkers(data, model, classOf);
    result.classPrior = Eigen::VectorXd::Zero(data.numClasses);
    for (int k = 0; k < model.numComponents(); ++k) {
        result.classPrior[classOf[static_cast<size_t>(k)]] += model.weights[k];
    }
    const ItemObservations items(data);
    result.logLikelihood = logLikelihood(data, items, model);
}

void fillFromEm(const CrowdLabels& data, const EmFit& fit, CrowdResult& result) {
    fillFromMixture(data, fit.model, fit.posterior, result);
    for (double value : fit.logLikelihoods) {
        StagewiseIteration round;
        round.logLikelihood = value;
        round.numComponents = fit.model.numComponents();
        round.informativeSetSize = data.numWorkers;
        result.trace.push_back(round);
    }
    result.iterations = fit.iterations;
    result.status = fit.status;
}

} // namespace

CrowdResult runCrowdMethod(const CrowdLabels& data, CrowdMethod method, const CrowdOptions& options,
                           const CancelToken& cancel) {
    if (data.numClasses < 2) {
        throw InputError(data.labelsPath, 0,
                         "only one distinct label: there is nothing to aggregate");
    }
    const int numComponents = options.numComponents > 0 ? options.numComponents : data.numClasses;
    if (numComponents < 2 || numComponents > 64) {
        throw InputError("parameter K: " + std::to_string(numComponents) +
                         " components; must be in [2, 64]");
    }
    const Stopwatch watch;
    CrowdResult result;
    result.method = method;
    switch (method) {
    case CrowdMethod::MajorityVote: {
        result.predicted = majorityVoteRandomTieBreak(data, options.seed);
        result.posterior = majorityVoteFractions(data);
        result.classPrior = result.posterior.colwise().mean().transpose();
        // Worker accuracy against the vote itself (the only reference MV has).
        Eigen::MatrixXd oneHot = Eigen::MatrixXd::Zero(data.numItems, data.numClasses);
        for (int n = 0; n < data.numItems; ++n) {
            oneHot(n, result.predicted[static_cast<size_t>(n)]) = 1;
        }
        const ProductMixture agreement = mStep(data, oneHot, 0.0, missingRates(data));
        std::vector<int> identity(static_cast<size_t>(data.numClasses));
        for (int c = 0; c < data.numClasses; ++c) {
            identity[static_cast<size_t>(c)] = c;
        }
        result.workers = summarizeWorkers(data, agreement, identity);
        result.status = Status::Successful;
        break;
    }
    case CrowdMethod::MvEm: {
        Eigen::MatrixXd initial = majorityVoteFractions(data);
        if (numComponents != data.numClasses) {
            initial.conservativeResize(Eigen::NoChange, numComponents);
            if (numComponents > data.numClasses) {
                initial.rightCols(numComponents - data.numClasses).setConstant(1e-3);
            }
            initial = (initial.array().colwise() / initial.rowwise().sum().array()).matrix();
        }
        fillFromEm(data, emFromPosterior(data, initial, options.em, cancel), result);
        break;
    }
    case CrowdMethod::Em:
        fillFromEm(
            data,
            emWithRestarts(data, numComponents, options.restarts, options.seed, options.em, cancel),
            result);
        break;
    case CrowdMethod::SpectralEm: {
        const SpectralCrowdResult spectral =
            spectralCrowdInitialization(data, options.seed, cancel);
        if (spectral.status == Status::Successful && numComponents == data.numClasses) {
            fillFromEm(data, emFromModel(data, spectral.model, options.em, cancel), result);
        } else {
            result.notes.push_back(spectral.status == Status::Successful
                                       ? "spectral initialisation needs K = number of classes; "
                                         "started from majority vote instead"
                                       : spectral.note + "; started from majority vote instead");
            fillFromEm(data, emFromPosterior(data, majorityVoteFractions(data), options.em, cancel),
                       result);
        }
        break;
    }
    case CrowdMethod::Stagewise:
    case CrowdMethod::StagewiseRefine: {
        StagewiseOptions stagewise;
        stagewise.numComponents = numComponents;
        stagewise.maxIterations = options.stagewiseIterations;
        stagewise.smoothing = options.em.smoothing;
        stagewise.significance = options.significance;
        stagewise.extensionSignificance = options.extensionSignificance;
        stagewise.extensionProcedure = options.extensionProcedure;
        const StagewiseResult staged = stagewiseEm(data, stagewise, cancel);
        result.trace = staged.trace;
        result.iterations = staged.iterations;
        result.informativeOrder = staged.informativeOrder;
        if (method == CrowdMethod::Stagewise) {
            fillFromMixture(data, staged.model, staged.posterior, result);
            result.status = staged.status;
        } else {
            const EmFit refined = emFromModel(data, staged.model, options.em, cancel);
            fillFromMixture(data, refined.model, refined.posterior, result);
            for (double value : refined.logLikelihoods) {
                StagewiseIteration round;
                round.logLikelihood = value;
                round.numComponents = refined.model.numComponents();
                round.informativeSetSize = data.numWorkers;
                result.trace.push_back(round);
            }
            result.iterations += refined.iterations;
            result.status = refined.status;
        }
        for (size_t m = 0; m < result.workers.size(); ++m) {
            result.workers[m].informative = staged.informative[m] != 0;
        }
        if (staged.model.numComponents() < numComponents) {
            result.notes.push_back(
                "stagewise EM stopped at " + std::to_string(staged.model.numComponents()) + " of " +
                std::to_string(numComponents) + " components: no further significant dependence");
        }
        break;
    }
    }
    if (method == CrowdMethod::MajorityVote) {
        // The expectation over the random tie-breaks (a tied gold item counts 1/|tied| correct),
        // so the floor every method is compared with depends neither on the seed nor on luck.
        result.errorRate = majorityVoteRandomTies(data).expectedErrorRate;
        const auto tiedItems = std::count_if(
            result.posterior.rowwise().begin(), result.posterior.rowwise().end(),
            [](const auto& row) { return (row.array() == row.maxCoeff()).count() > 1; });
        if (tiedItems > 0) {
            result.notes.push_back(
                std::to_string(tiedItems) +
                " items tie for the most votes: their labels are drawn at random among the tied "
                "classes (seed " +
                std::to_string(options.seed) +
                "); the error rate counts a tied gold item as 1/|tied| correct, its expectation "
                "over the draws");
        }
    } else {
        result.errorRate = 1.0 - goldAccuracy(data, result.predicted);
    }
    result.elapsedMs = watch.elapsedMs();
    return result;
}

} // namespace cx
