#pragma once

#include "core/common/cancel.h"
#include "core/common/status.h"
#include "core/crowd/crowd_em.h"
#include "core/crowd/stagewise_em.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cx {

/// The label-aggregation methods: majority vote as the floor, plain EM with random
/// restarts, Dawid–Skene EM initialised by majority vote, spectral-initialised EM (Zhang et al.
/// 2014), stagewise EM (Zhao & Zucker 2015) and stagewise EM followed by a full EM ("refine").
enum class CrowdMethod { MajorityVote, Em, MvEm, SpectralEm, Stagewise, StagewiseRefine };

/// "mv", "em", "mv-em", "spectral-em", "stagewise", "stagewise-refine".
const char* crowdMethodName(CrowdMethod method);
std::optional<CrowdMethod> parseCrowdMethod(const std::string& name);
/// Every method, in the order of the comparison tables.
const std::vector<CrowdMethod>& allCrowdMethods();

struct CrowdOptions {
    int numComponents = 0; ///< 0 = number of classes
    std::uint64_t seed = 1;
    int restarts = 10; ///< plain EM (restart 0 from majority vote, the rest random weighted votes)
    EmOptions em;      ///< every EM run (also the refinement)
    int stagewiseIterations = 50;
    double significance = 0; ///< stagewise: see StagewiseOptions (0 = paper's rule)
    /// stagewise: see StagewiseOptions::extensionSignificance (0 = the paper's algorithm alone)
    double extensionSignificance = 0.05;
    /// stagewise: see StagewiseOptions::extensionProcedure
    MultipleTesting extensionProcedure = MultipleTesting::BenjaminiHochberg;
};

/// One worker as the fitted model sees it.
struct WorkerSummary {
    int numLabels = 0;
    bool informative = true; ///< stagewise: in S; other methods: every worker
    double accuracy = 0;     ///< Σ_c π_c·P(label = c | class c)
    double accuracyLow = 0;  ///< Wilson 95 % interval with numLabels trials
    double accuracyHigh = 0;
    Eigen::MatrixXd confusion; ///< C × C, row = true class, column = given label
};

struct CrowdResult {
    CrowdMethod method = CrowdMethod::MajorityVote;
    std::vector<int> predicted; ///< class per item
    Eigen::MatrixXd posterior;  ///< numItems × C, P(class | labels)
    Eigen::VectorXd classPrior; ///< π_c
    std::vector<WorkerSummary> workers;
    std::vector<int> informativeOrder; ///< stagewise: S in order of entry; else empty
    /// Per iteration: stagewise rounds; for EM methods logLikelihood only (the rest 0).
    std::vector<StagewiseIteration> trace;
    int iterations = 0;
    double logLikelihood = 0; ///< full log-likelihood of the final model (0 for mv)
    double errorRate = 0;     ///< against gold; NaN without gold
    double elapsedMs = 0;
    Status status = Status::NotComputed;
    std::vector<std::string> notes; ///< e.g. a spectral fallback, for the user

    int informativeSetSize() const;
};

/// Runs one method. \throws InputError if numComponents is below 2 or above 64, or the data
/// have fewer than 2 classes; Cancelled when the token is set.
CrowdResult runCrowdMethod(const CrowdLabels& data, CrowdMethod method, const CrowdOptions& options,
                           const CancelToken& cancel = {});

/// Worker summaries of a fitted mixture whose components map to classes by `classOf`.
std::vector<WorkerSummary> summarizeWorkers(const CrowdLabels& data, const ProductMixture& model,
                                            const std::vector<int>& classOf);

/// Wilson score interval (95 %) of a proportion p over n trials.
void wilsonInterval(double p, int n, double& low, double& high);

} // namespace cx
