#pragma once

#include "core/crowd/product_mixture.h"

#include <cstdint>
#include <vector>

namespace cx {

/// A sparse crowd (Zhao & Zucker 2015, §4): the first workers are informative ("experts") and give
/// the true label with their accuracy, otherwise a uniformly chosen wrong one; every other worker
/// answers from its own label distribution, drawn once from Dirichlet(1, …, 1) and independent
/// of the truth ("random with unknown probability"). True classes are uniform. Each worker
/// labels each item independently with probability labelProbability (1 = dense).
struct SparseCrowdSpec {
    int numItems = 1000;
    int numWorkers = 100;
    int numClasses = 3;
    std::vector<double> informativeAccuracy; ///< one per informative worker (workers 0, 1, …)
    double labelProbability = 1.0;
    std::uint64_t seed = 1;
};

struct SyntheticCrowd {
    CrowdLabels data;              ///< gold = the true class of every item
    ProductMixture truth;          ///< the generating model, component l = class l
    std::vector<char> informative; ///< per worker
};

/// Draws a data set. \throws std::invalid_argument on sizes < 1, more informative workers than
/// workers, fewer than 2 classes, or an accuracy or label probability outside [0, 1].
SyntheticCrowd generateSparseCrowd(const SparseCrowdSpec& spec);

/// The β-sparse crowd of Zhao & Zucker 2015's sweep: round(β·numWorkers) informative workers, all
/// with the same accuracy.
SparseCrowdSpec betaSparseSpec(double beta, double accuracy, int numItems, int numWorkers,
                               int numClasses, std::uint64_t seed);

/// Zhao & Zucker 2015's 0.3-sparse experiment: 30 of 100 workers informative with accuracies
/// falling linearly from `first` to `last` (0.7 → 0.45), 1,000 items, 3 classes.
SparseCrowdSpec decayingExpertsSpec(double first, double last, int numInformative, int numItems,
                                    int numWorkers, int numClasses, std::uint64_t seed);

} // namespace cx
