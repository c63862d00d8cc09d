#include "core/tensor/tensor_power_method.h"

#include "core/common/parallel.h"
#include "core/common/random.h"
#include "core/tensor/jennrich.h"
#include "core/tensor/power_trials.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace cx {

using power_trials::deflatePacked;
using power_trials::directionChange;
using power_trials::iterateTrials;
using power_trials::KDeflations;
using power_trials::pairProducts;
using power_trials::Trial;
using power_trials::TrialBatch;

void validatePowerMethodOptions(const PowerMethodOptions& options, Eigen::Index n,
                                const char* function) {
    if (options.numComponents < 1 || options.numComponents > n) {
        throw std::invalid_argument(std::string(function) +
                                    ": numComponents = " + std::to_string(options.numComponents) +
                                    " must lie in [1, " + std::to_string(n) + "]");
    }
    if (options.iterations < 1 || options.restarts < 1) {
        throw std::invalid_argument(std::string(function) +
                                    ": iterations and restarts must be >= 1 "
                                    "(got " +
                                    std::to_string(options.iterations) + ", " +
                                    std::to_string(options.restarts) + ")");
    }
}

namespace {

/// Picks the median-|λ̂| trial (lower median for an even count; ties keep trial order).
const Trial& medianTrial(const std::vector<Trial>& trials) {
    std::vector<size_t> order;
    for (size_t i = 0; i < trials.size(); ++i) {
        if (!trials[i].degenerate) {
            order.push_back(i);
        }
    }
    if (order.empty()) {
        return trials.front();
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return std::abs(trials[a].lambda) < std::abs(trials[b].lambda);
    });
    return trials[order[(order.size() - 1) / 2]];
}

/// Random start g ∈ ℝᴷ for trial `trial` of component `component`.
Eigen::VectorXd randomStart(std::uint64_t seed, int component, int trial, int restarts, int k) {
    Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(component) *
                                     static_cast<std::uint64_t>(restarts) +
                                 static_cast<std::uint64_t>(trial)));
    return rng.normalVector(k);
}

PowerMethodResult finish(const std::vector<Trial>& kept, const Eigen::VectorXd& values,
                         Eigen::Index n) {
    PowerMethodResult result;
    const int k = static_cast<int>(kept.size());
    result.components.resize(n, k);
    result.lambdas.resize(k);
    result.m2Eigenvalues = values;
    bool allConverged = true;
    bool anyDegenerate = false;
    for (int t = 0; t < k; ++t) {
        result.components.col(t) = kept[static_cast<size_t>(t)].a;
        result.lambdas[t] = kept[static_cast<size_t>(t)].lambda;
        result.iterations.push_back(kept[static_cast<size_t>(t)].iterations);
        result.converged.push_back(kept[static_cast<size_t>(t)].converged);
        allConverged = allConverged && kept[static_cast<size_t>(t)].converged;
        anyDegenerate = anyDegenerate || kept[static_cast<size_t>(t)].degenerate;
    }
    for (const Trial& trial : kept) {
        result.degenerate.push_back(trial.degenerate);
    }
    result.status = anyDegenerate  ? Status::NumericalIssue
                    : allConverged ? Status::Successful
                                   : Status::NotConverged;
    return result;
}

/// The operations that distinguish the implicit and the dense forms of Alg. 2. Both iterate on
/// x = V_Kᵀu (normalised), since M2⁺u = V_K Λ⁻¹ x depends on u only through x.
struct Algorithm2Steps {
    /// y = Λ⁻¹x ↦ V_Kᵀ T(I, V_K y, V_K y) with the current deflations.
    std::function<Eigen::VectorXd(const Eigen::VectorXd&)> step;
    /// y ↦ u = T(I, V_K y, V_K y) in ℝⁿ with the current deflations.
    std::function<Eigen::VectorXd(const Eigen::VectorXd&)> formU;
    /// â ↦ λ̂ = T(M2⁺â, M2⁺â, M2⁺â) with the current deflations.
    std::function<double(const Eigen::VectorXd&)> lambdaOf;
    /// Records the kept (â, |λ̂|) so later steps deflate it.
    std::function<void(const Eigen::VectorXd&, double)> deflate;
};

/// One trial of Alg. 2 from x⁽⁰⁾ (K coordinates): power iterations with early stopping, then
/// â = u/|⟨u, M2⁺u⟩|^{1/2} and λ̂; degenerate when the iterate vanishes or λ̂ is inadmissible.
Trial runTrial(Eigen::VectorXd x, const SymmetricLowRank& low, const Eigen::VectorXd& inverse,
               const PowerMethodOptions& options, const Algorithm2Steps& steps) {
    Trial trial;
    const Eigen::Index n = low.vectors.rows();
    x.normalize();
    Eigen::VectorXd yLast;
    for (int it = 0; it < options.iterations; ++it) {
        const Eigen::VectorXd y = inverse.asDiagonal() * x; // V_Kᵀ M2⁺ u
        Eigen::VectorXd next = steps.step(y);
        const double norm = next.norm();
        trial.iterations = it + 1;
        if (!(norm > 0) || !std::isfinite(norm)) {
            trial.degenerate = true;
            break;
        }
        yLast = y;
        next /= norm;
        const double change = directionChange(x, next);
        x = next;
        if (change < options.tolerance) {
            trial.converged = true;
            break;
        }
    }
    trial.a = Eigen::VectorXd::Zero(n);
    if (trial.degenerate) {
        return trial;
    }
    const Eigen::VectorXd u = steps.formU(yLast);
    const Eigen::VectorXd coords = low.vectors.transpose() * u;
    const double quadratic = coords.dot(inverse.asDiagonal() * coords); // ⟨u, M2⁺u⟩
    if (!(std::abs(quadratic) > 0) || !std::isfinite(quadratic)) {
        trial.degenerate = true;
        return trial;
    }
    trial.a = u / std::sqrt(std::abs(quadratic));
    trial.lambda = steps.lambdaOf(trial.a);
    if (!std::isfinite(trial.lambda) || std::abs(trial.lambda) < options.minAbsLambda) {
        // Outside what the model allows: not a component (see minAbsLambda).
        trial.degenerate = true;
        trial.a.setZero();
    }
    return trial;
}

/// The loop of Alg. 2 shared by both forms: per component, trials (see runTrial), the
/// median-|λ̂| trial, deflation. `warmStarts` (K × S, K coordinates) replaces the random trials
/// of component t < S by one trial from its column; if that trial is degenerate the random
/// trials run instead.
PowerMethodResult runAlgorithm2(const SymmetricLowRank& low, const PowerMethodOptions& options,
                                const Algorithm2Steps& steps, const CancelToken& cancel,
                                const Eigen::MatrixXd& warmStarts = Eigen::MatrixXd()) {
    const Eigen::Index n = low.vectors.rows();
    const int k = options.numComponents;
    const Eigen::VectorXd inverse = low.values.cwiseInverse();
    std::vector<Trial> kept;
    for (int t = 0; t < k; ++t) {
        std::vector<Trial> trials;
        if (t < warmStarts.cols() && warmStarts.col(t).norm() > 1e-12) {
            throwIfCancelled(cancel);
            trials.push_back(runTrial(warmStarts.col(t), low, inverse, options, steps));
        }
        if (trials.empty() || trials.front().degenerate) {
            trials.clear();
            for (int trialIndex = 0; trialIndex < options.restarts; ++trialIndex) {
                throwIfCancelled(cancel);
                trials.push_back(
                    runTrial(randomStart(options.seed, t, trialIndex, options.restarts, k), low,
                             inverse, options, steps));
            }
        }
        const Trial& best = medianTrial(trials);
        kept.push_back(best);
        if (!best.degenerate) {
            steps.deflate(best.a, std::abs(best.lambda));
        }
    }
    return finish(kept, low.values, n);
}

} // namespace

int numericalRank(const Eigen::VectorXd& eigenvalues, double relativeTolerance) {
    if (eigenvalues.size() == 0) {
        return 0;
    }
    const double largest = eigenvalues.cwiseAbs().maxCoeff();
    if (!(largest > 0)) {
        return 0;
    }
    int rank = 0;
    for (Eigen::Index i = 0; i < eigenvalues.size(); ++i) {
        if (std::abs(eigenvalues[i]) > relativeTolerance * largest) {
            ++rank;
        }
    }
    return rank;
}

PowerMethodResult generalizedPowerMethod(const SymmetricLowRank& m2, const TensorContraction& m3,
                                         const PowerMethodOptions& options,
                                         const CancelToken& cancel) {
    const Eigen::Index n = m2.vectors.rows();
    const int k = static_cast<int>(m2.vectors.cols());
    validatePowerMethodOptions(options, n, "generalizedPowerMethod");
    if (k != options.numComponents || m2.values.size() != k) {
        throw std::invalid_argument(
            "generalizedPowerMethod: M2 factor has " + std::to_string(k) +
            " columns, numComponents = " + std::to_string(options.numComponents));
    }
    const Eigen::MatrixXd& v = m2.vectors;
    std::vector<std::pair<Eigen::VectorXd, double>> deflations; // (â, |λ̂|)
    // Deflated contraction: T(I, w, w) = M3(I, w, w) − Σ_τ |λ̂_τ| â_τ ⟨â_τ, w⟩².
    auto deflated = [&](const Eigen::VectorXd& w) {
        Eigen::VectorXd out = m3(w);
        for (const auto& [a, absLambda] : deflations) {
            const double dot = a.dot(w);
            out -= absLambda * dot * dot * a;
        }
        return out;
    };
    Algorithm2Steps steps;
    steps.step = [&](const Eigen::VectorXd& y) {
        return Eigen::VectorXd(v.transpose() * deflated(v * y));
    };
    steps.formU = [&](const Eigen::VectorXd& y) { return deflated(v * y); };
    steps.lambdaOf = [&](const Eigen::VectorXd& a) {
        const Eigen::VectorXd z = v * (m2.values.cwiseInverse().asDiagonal() * (v.transpose() * a));
        return z.dot(deflated(z));
    };
    steps.deflate = [&](const Eigen::VectorXd& a, double absLambda) {
        deflations.emplace_back(a, absLambda);
    };
    return runAlgorithm2(m2, options, steps, cancel);
}

PowerMethodResult generalizedPowerMethod(const Eigen::MatrixXd& m2, const SymmetricTensor3& m3,
                                         const PowerMethodOptions& options,
                                         const CancelToken& cancel) {
    const Eigen::Index n = m2.rows();
    if (m2.cols() != n || m3.dimension() != n) {
        throw std::invalid_argument("generalizedPowerMethod: M2 is " + std::to_string(m2.rows()) +
                                    "x" + std::to_string(m2.cols()) + ", M3 has dimension " +
                                    std::to_string(m3.dimension()));
    }
    validatePowerMethodOptions(options, n, "generalizedPowerMethod");
    return generalizedPowerMethod(truncatedSymmetricEigen(m2, options.numComponents), m3, options,
                                  cancel);
}

PowerMethodResult generalizedPowerMethod(const SymmetricLowRank& low, const SymmetricTensor3& m3,
                                         const PowerMethodOptions& options,
                                         const CancelToken& cancel) {
    return DensePowerMethod(low, m3).run(options, cancel);
}

namespace {

void validateFactor(const SymmetricLowRank& low, Eigen::Index tensorDimension) {
    const Eigen::Index n = low.vectors.rows();
    if (tensorDimension != n) {
        throw std::invalid_argument("generalizedPowerMethod: M2 factor has " + std::to_string(n) +
                                    " rows, M3 has dimension " + std::to_string(tensorDimension));
    }
    if (low.values.size() != low.vectors.cols()) {
        throw std::invalid_argument("generalizedPowerMethod: M2 factor has " +
                                    std::to_string(low.vectors.cols()) + " columns but " +
                                    std::to_string(low.values.size()) + " values");
    }
}

void validateRun(const SymmetricLowRank& low, const PowerMethodOptions& options,
                 const Eigen::MatrixXd& starts) {
    const Eigen::Index n = low.vectors.rows();
    validatePowerMethodOptions(options, n, "generalizedPowerMethod");
    if (low.vectors.cols() != options.numComponents) {
        throw std::invalid_argument(
            "generalizedPowerMethod: M2 factor has " + std::to_string(low.vectors.cols()) +
            " columns, numComponents = " + std::to_string(options.numComponents));
    }
    if (starts.cols() > 0 && starts.rows() != n) {
        throw std::invalid_argument("generalizedPowerMethod: warm starts have " +
                                    std::to_string(starts.rows()) + " rows, expected " +
                                    std::to_string(n));
    }
}

/// Packs the columns (j, l), j ≤ l, of a symmetric-in-(j, l) unfolding rows × K² into
/// rows × K(K+1)/2, off-diagonal pairs doubled (exact: a power of two). The unfolding may be an
/// expression such as a transpose, read column by column without being formed.
template <typename Derived>
Eigen::MatrixXd packPairs(const Eigen::MatrixBase<Derived>& unfolding, Eigen::Index k) {
    Eigen::MatrixXd packed(unfolding.rows(), k * (k + 1) / 2);
    Eigen::Index p = 0;
    for (Eigen::Index l = 0; l < k; ++l) {
        for (Eigen::Index j = 0; j <= l; ++j, ++p) {
            packed.col(p) = unfolding.col(j + k * l);
            if (j < l) {
                packed.col(p) *= 2.0;
            }
        }
    }
    return packed;
}

} // namespace

DensePowerMethod::DensePowerMethod(SymmetricLowRank low, const SymmetricTensor3& m3)
    : m_low(std::move(low)) {
    validateFactor(m_low, m3.dimension());
    adopt(contractSymmetric(m3, m_low.vectors));
}

DensePowerMethod::DensePowerMethod(SymmetricLowRank low, const SymmetricTensor3& a, double alpha,
                                   const SymmetricTensor3& b)
    : m_low(std::move(low)) {
    validateFactor(m_low, a.dimension());
    validateFactor(m_low, b.dimension());
    adopt(contractSymmetric(a, m_low.vectors, alpha, &b));
}

void DensePowerMethod::adopt(SymmetricContraction contraction) {
    const Eigen::Index k = m_low.vectors.cols();
    m_core = std::move(contraction.core);
    m_corePacked = PaddedRows::of(packPairs(m_core, k));
    m_partialPacked = packPairs(contraction.partialT.transpose(), k);
}

namespace {

/// Components at or above this K split their trials into two fixed groups that run on up to
/// two threads. The split depends on K and the trial count only, never on the thread count.
constexpr int kGroupedTrialsFromK = 16;

} // namespace

PowerMethodResult DensePowerMethod::run(const PowerMethodOptions& options,
                                        const CancelToken& cancel,
                                        const Eigen::MatrixXd& starts) const {
    validateRun(m_low, options, starts);
    const Eigen::Index n = m_low.vectors.rows();
    const int k = options.numComponents;
    const Eigen::MatrixXd& v = m_low.vectors;
    const Eigen::VectorXd inverse = m_low.values.cwiseInverse();
    const Eigen::MatrixXd warm =
        starts.cols() > 0 ? Eigen::MatrixXd(v.transpose() * starts) : Eigen::MatrixXd();
    KDeflations deflations;
    deflations.alpha.resize(k, k);
    deflations.weight.resize(k);
    // The packed core with every deflation so far subtracted, and its single-precision copy.
    Eigen::MatrixXd deflatedCore;
    PaddedRowsSingle deflatedSingle;
    if (options.singlePrecisionSteps) {
        deflatedCore = m_corePacked.values.topRows(k);
        deflatedSingle = PaddedRowsSingle::of(deflatedCore);
    }
    // The trials of component t from the columns of x0 (K × m), in fixed column groups: the
    // first (smaller) group on a helper thread that lives for the whole run.
    std::optional<HelperThread> helper;
    if (k >= kGroupedTrialsFromK && threadCount() > 1) {
        helper.emplace();
    }
    auto runTrials = [&](const Eigen::MatrixXd& x0) {
        const Eigen::Index m = x0.cols();
        const Eigen::Index groups = (k >= kGroupedTrialsFromK && m >= 2) ? 2 : 1;
        std::vector<TrialBatch> parts(static_cast<size_t>(groups));
        auto runGroup = [&](std::int64_t g) {
            const Eigen::Index begin = m * g / groups;
            const Eigen::Index end = m * (g + 1) / groups;
            parts[static_cast<size_t>(g)] =
                iterateTrials({m_corePacked, deflatedSingle}, deflations, inverse, options,
                              x0.middleCols(begin, end - begin), cancel);
        };
        if (groups == 1) {
            runGroup(0);
            return std::move(parts.front());
        }
        if (helper) {
            // The helper takes the first group, never the larger (m/2 rounded down): it starts
            // after waking up, so the calling thread runs the group that takes longer.
            helper->post([&] { runGroup(0); });
            try {
                runGroup(1);
            } catch (...) {
                try { // the helper's group uses this frame: let it finish first
                    helper->wait();
                } catch (...) { // NOLINT(bugprone-empty-catch): the first error is rethrown
                }
                throw;
            }
            helper->wait();
        } else {
            runGroup(0);
            runGroup(1);
        }
        TrialBatch all;
        all.yLast.resize(k, m);
        all.coords.resize(k, m);
        all.scales.resize(m);
        Eigen::Index offset = 0;
        for (TrialBatch& part : parts) {
            const auto width = static_cast<Eigen::Index>(part.trials.size());
            all.yLast.middleCols(offset, width) = part.yLast;
            all.coords.middleCols(offset, width) = part.coords;
            all.scales.segment(offset, width) = part.scales;
            all.trials.insert(all.trials.end(), part.trials.begin(), part.trials.end());
            offset += width;
        }
        return all;
    };

    std::vector<Trial> kept;
    Eigen::MatrixXd keptY = Eigen::MatrixXd::Zero(k, k); // y of each kept trial's last step
    Eigen::VectorXd keptScale = Eigen::VectorXd::Zero(k);
    for (int t = 0; t < k; ++t) {
        throwIfCancelled(cancel);
        TrialBatch batch;
        if (t < warm.cols() && warm.col(t).norm() > 1e-12) {
            batch = runTrials(warm.col(t));
        }
        if (batch.trials.empty() || batch.trials.front().degenerate) {
            Eigen::MatrixXd x0(k, options.restarts);
            for (int trialIndex = 0; trialIndex < options.restarts; ++trialIndex) {
                x0.col(trialIndex) = randomStart(options.seed, t, trialIndex, options.restarts, k);
            }
            batch = runTrials(x0);
        }
        const Trial& best = medianTrial(batch.trials);
        const auto index = static_cast<Eigen::Index>(&best - batch.trials.data());
        kept.push_back(best);
        if (!best.degenerate) {
            keptY.col(t) = batch.yLast.col(index);
            keptScale[t] = batch.scales[index];
            // V_Kᵀâ = scale·V_Kᵀu: the deflation of the next components, in K coordinates.
            deflations.alpha.col(deflations.count) = batch.scales[index] * batch.coords.col(index);
            deflations.weight[deflations.count] = std::abs(best.lambda);
            if (options.singlePrecisionSteps) {
                deflatePacked(std::abs(best.lambda), deflations.alpha.col(deflations.count),
                              deflatedCore, deflatedSingle);
            }
            ++deflations.count;
        }
    }
    // â_t = scale_t·(T(I, V_K y_t, V_K y_t) − Σ_{τ<t} |λ̂_τ|⟨α_τ, y_t⟩²â_τ) in ℝⁿ: one GEMM for
    // the kept trials only, then the deflation terms in order.
    Eigen::MatrixXd pairs;
    pairProducts(keptY, pairs);
    const Eigen::MatrixXd u = m_partialPacked * pairs;   // n × K
    Eigen::MatrixXd keptA = Eigen::MatrixXd::Zero(n, k); // â of the non-degenerate kept, in order
    Eigen::Index done = 0;
    for (int t = 0; t < k; ++t) {
        Trial& trial = kept[static_cast<size_t>(t)];
        trial.a = Eigen::VectorXd::Zero(n);
        if (trial.degenerate) {
            continue;
        }
        Eigen::VectorXd a = u.col(t);
        if (done > 0) {
            a -= deflations.term(keptY.col(t), keptA.leftCols(done), done);
        }
        trial.a = keptScale[t] * a;
        keptA.col(done) = trial.a;
        ++done;
    }
    return finish(kept, m_low.values, n);
}

PowerMethodResult denseReferencePowerMethod(const SymmetricLowRank& low, const SymmetricTensor3& m3,
                                            const PowerMethodOptions& options,
                                            const CancelToken& cancel,
                                            const Eigen::MatrixXd& starts) {
    validateFactor(low, m3.dimension());
    validateRun(low, options, starts);
    const Eigen::Index n = low.vectors.rows();
    const int k = options.numComponents;
    const Eigen::MatrixXd& v = low.vectors;
    // T(I, V, V) (n × K²) and its K×K×K core t = T(V, V, V).
    const Eigen::MatrixXd partial = m3.contractModes23(v);
    const Eigen::MatrixXd core = v.transpose() * partial; // K × K², unfolding of t

    struct Deflation {
        Eigen::VectorXd a;     // â in ℝⁿ
        Eigen::VectorXd alpha; // V_Kᵀ â
        double absLambda;
    };
    std::vector<Deflation> deflations;
    // Contraction of the K-dimensional core with y⊗y: t(I, y, y) minus the deflated terms.
    auto coreContract = [&](const Eigen::VectorXd& y) {
        Eigen::VectorXd out = Eigen::VectorXd::Zero(k);
        for (int c = 0; c < k; ++c) {
            out.noalias() += y[c] * (core.middleCols(c * k, k) * y);
        }
        for (const Deflation& d : deflations) {
            const double dot = d.alpha.dot(y);
            out -= d.absLambda * dot * dot * d.alpha;
        }
        return out;
    };
    Algorithm2Steps steps;
    steps.step = coreContract;
    // u⁽ᴺ⁾ = T(I, V y, V y) − deflation, formed once per trial in ℝⁿ.
    steps.formU = [&](const Eigen::VectorXd& y) {
        Eigen::VectorXd u = Eigen::VectorXd::Zero(n);
        for (int c = 0; c < k; ++c) {
            u.noalias() += y[c] * (partial.middleCols(c * k, k) * y);
        }
        for (const Deflation& d : deflations) {
            const double dot = d.alpha.dot(y);
            u -= d.absLambda * dot * dot * d.a;
        }
        return u;
    };
    steps.lambdaOf = [&](const Eigen::VectorXd& a) {
        const Eigen::VectorXd z = low.values.cwiseInverse().asDiagonal() * (v.transpose() * a);
        return z.dot(coreContract(z));
    };
    steps.deflate = [&](const Eigen::VectorXd& a, double absLambda) {
        deflations.push_back({a, v.transpose() * a, absLambda});
    };
    const Eigen::MatrixXd warm =
        starts.cols() > 0 ? Eigen::MatrixXd(v.transpose() * starts) : Eigen::MatrixXd();
    return runAlgorithm2(low, options, steps, cancel, warm);
}

} // namespace cx
