#include "core/tensor/tensor_power_method.h"

#include "core/common/random.h"
#include "core/tensor/jennrich.h"

#include <algorithm>
#include <functional>
#include <utility>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace cx {

namespace {

void validate(const PowerMethodOptions& options, Eigen::Index n, const char* function) {
    if (options.numComponents < 1 || options.numComponents > n) {
        throw std::invalid_argument(std::string(function) + ": numComponents = " +
                                    std::to_string(options.numComponents) +
                                    " must lie in [1, " + std::to_string(n) + "]");
    }
    if (options.iterations < 1 || options.restarts < 1) {
        throw std::invalid_argument(std::string(function) + ": iterations and restarts must be >= 1 "
                                    "(got " + std::to_string(options.iterations) + ", " +
                                    std::to_string(options.restarts) + ")");
    }
}

struct Trial {
    Eigen::VectorXd a; // â (n-dimensional)
    double lambda = 0;
    int iterations = 0;
    bool converged = false;
    bool degenerate = false;
};

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

double directionChange(const Eigen::VectorXd& previous, const Eigen::VectorXd& next) {
    return (next - previous).norm();
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
    result.status = anyDegenerate   ? Status::NumericalIssue
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
                trials.push_back(runTrial(randomStart(options.seed, t, trialIndex,
                                                      options.restarts, k),
                                          low, inverse, options, steps));
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
    validate(options, n, "generalizedPowerMethod");
    if (k != options.numComponents || m2.values.size() != k) {
        throw std::invalid_argument("generalizedPowerMethod: M2 factor has " + std::to_string(k) +
                                    " columns, numComponents = " +
                                    std::to_string(options.numComponents));
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
    steps.step = [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(v.transpose() * deflated(v * y)); };
    steps.formU = [&](const Eigen::VectorXd& y) { return deflated(v * y); };
    steps.lambdaOf = [&](const Eigen::VectorXd& a) {
        const Eigen::VectorXd z = v * (m2.values.cwiseInverse().asDiagonal() * (v.transpose() * a));
        return z.dot(deflated(z));
    };
    steps.deflate = [&](const Eigen::VectorXd& a, double absLambda) { deflations.emplace_back(a, absLambda); };
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
    validate(options, n, "generalizedPowerMethod");
    return generalizedPowerMethod(truncatedSymmetricEigen(m2, options.numComponents), m3, options,
                                  cancel);
}

PowerMethodResult generalizedPowerMethod(const SymmetricLowRank& low, const SymmetricTensor3& m3,
                                         const PowerMethodOptions& options,
                                         const CancelToken& cancel) {
    return DensePowerMethod(low, m3).run(options, cancel);
}

DensePowerMethod::DensePowerMethod(SymmetricLowRank low, const SymmetricTensor3& m3)
    : m_low(std::move(low)) {
    const Eigen::Index n = m_low.vectors.rows();
    if (m3.dimension() != n) {
        throw std::invalid_argument("generalizedPowerMethod: M2 factor has " + std::to_string(n) +
                                    " rows, M3 has dimension " + std::to_string(m3.dimension()));
    }
    if (m_low.values.size() != m_low.vectors.cols()) {
        throw std::invalid_argument("generalizedPowerMethod: M2 factor has " +
                                    std::to_string(m_low.vectors.cols()) + " columns but " +
                                    std::to_string(m_low.values.size()) + " values");
    }
    // T(I, V, V) (n × K²) and its K×K×K core t = T(V, V, V).
    m_partial = m3.contractModes23(m_low.vectors);
    m_core = m_low.vectors.transpose() * m_partial; // K × K², unfolding of t
}

PowerMethodResult DensePowerMethod::run(const PowerMethodOptions& options,
                                        const CancelToken& cancel,
                                        const Eigen::MatrixXd& starts) const {
    const Eigen::Index n = m_low.vectors.rows();
    validate(options, n, "generalizedPowerMethod");
    const int k = options.numComponents;
    if (m_low.vectors.cols() != k) {
        throw std::invalid_argument("generalizedPowerMethod: M2 factor has " +
                                    std::to_string(m_low.vectors.cols()) + " columns, numComponents = " +
                                    std::to_string(k));
    }
    if (starts.cols() > 0 && starts.rows() != n) {
        throw std::invalid_argument("generalizedPowerMethod: warm starts have " +
                                    std::to_string(starts.rows()) + " rows, expected " +
                                    std::to_string(n));
    }
    const Eigen::MatrixXd& v = m_low.vectors;
    const Eigen::MatrixXd& partial = m_partial;
    const Eigen::MatrixXd& core = m_core;

    struct Deflation {
        Eigen::VectorXd a;      // â in ℝⁿ
        Eigen::VectorXd alpha;  // V_Kᵀ â
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
        const Eigen::VectorXd z = m_low.values.cwiseInverse().asDiagonal() * (v.transpose() * a);
        return z.dot(coreContract(z));
    };
    steps.deflate = [&](const Eigen::VectorXd& a, double absLambda) {
        deflations.push_back({a, v.transpose() * a, absLambda});
    };
    const Eigen::MatrixXd warm = starts.cols() > 0 ? Eigen::MatrixXd(v.transpose() * starts)
                                                   : Eigen::MatrixXd();
    return runAlgorithm2(m_low, options, steps, cancel, warm);
}

PowerMethodResult DensePowerMethod::runJennrich(const PowerMethodOptions& options) const {
    const Eigen::Index k = m_low.vectors.cols();
    validate(options, m_low.vectors.rows(), "runJennrich");
    if (options.numComponents != k) {
        throw std::invalid_argument("runJennrich: M2 factor has " + std::to_string(k) +
                                    " columns, numComponents = " +
                                    std::to_string(options.numComponents));
    }
    const Eigen::ArrayXd s = m_low.values.cwiseAbs().cwiseInverse().cwiseSqrt().array();
    const Eigen::ArrayXd sign = m_low.values.array().sign();
    SymmetricTensor3 whitened(k); // T_w(i, j, l) = t(i, j, l)·s_i·s_j·s_l
    for (Eigen::Index l = 0; l < k; ++l) {
        for (Eigen::Index j = 0; j < k; ++j) {
            whitened.unfolded().col(j + k * l) =
                (m_core.col(j + k * l).array() * s * (s[j] * s[l])).matrix();
        }
    }
    whitened.symmetrize(); // estimated moments are symmetric only up to rounding
    JennrichOptions jennrich;
    jennrich.rank = static_cast<int>(k);
    jennrich.slices = std::max(1, options.restarts);
    jennrich.seed = options.seed;
    const JennrichResult found = jennrichSymmetric(whitened, jennrich);

    PowerMethodResult out;
    out.components = Eigen::MatrixXd::Zero(m_low.vectors.rows(), k);
    out.lambdas = Eigen::VectorXd::Zero(k);
    out.iterations.assign(static_cast<size_t>(k), 0);
    out.converged.assign(static_cast<size_t>(k), true);
    out.degenerate.assign(static_cast<size_t>(k), false);
    out.m2Eigenvalues = m_low.values;
    const Eigen::ArrayXd rootAbs = m_low.values.cwiseAbs().cwiseSqrt().array();
    bool anyDegenerate = found.status != Status::Successful;
    for (Eigen::Index t = 0; t < k; ++t) {
        const Eigen::VectorXd v = found.a.col(t);
        const double norm = (v.array().square() * sign).sum(); // v_tᵀ S v_t
        const double w = found.weights[t];
        if (!(std::abs(norm) > 1e-12) || !std::isfinite(w) || w == 0 || !v.allFinite()) {
            out.degenerate[static_cast<size_t>(t)] = true;
            anyDegenerate = true;
            continue;
        }
        const double c = std::copysign(1.0 / std::sqrt(std::abs(norm)), w);
        const double lambda = std::copysign(std::abs(w) / std::pow(std::abs(c), 3.0), norm);
        if (std::abs(lambda) < options.minAbsLambda) {
            out.degenerate[static_cast<size_t>(t)] = true;
            anyDegenerate = true;
            continue;
        }
        out.lambdas[t] = lambda;
        out.components.col(t) = m_low.vectors * (rootAbs * (c * v).array()).matrix();
    }
    out.status = anyDegenerate ? Status::NumericalIssue : Status::Successful;
    return out;
}

double DensePowerMethod::whitenedResidual(const PowerMethodResult& result) const {
    const Eigen::Index k = m_low.vectors.cols();
    const Eigen::ArrayXd s = m_low.values.cwiseAbs().cwiseInverse().cwiseSqrt().array();
    // T_w(i, j + K·l) = t(i, j, l)·s_i·s_j·s_l.
    Eigen::MatrixXd residual(k, k * k);
    for (Eigen::Index l = 0; l < k; ++l) {
        for (Eigen::Index j = 0; j < k; ++j) {
            residual.col(j + k * l) = (m_core.col(j + k * l).array() * s * (s[j] * s[l])).matrix();
        }
    }
    const double total = residual.norm();
    if (!(total > 0)) {
        return 0.0;
    }
    for (Eigen::Index t = 0; t < result.lambdas.size(); ++t) {
        if (static_cast<size_t>(t) < result.degenerate.size() && result.degenerate[static_cast<size_t>(t)]) {
            continue;
        }
        const Eigen::VectorXd z = (s * (m_low.vectors.transpose() * result.components.col(t)).array()).matrix();
        // Deflation's convention: M3 = Σ |λ̂_t| â_t^{⊗3} (â carries the sign).
        const double lambda = std::abs(result.lambdas[t]);
        for (Eigen::Index l = 0; l < k; ++l) {
            for (Eigen::Index j = 0; j < k; ++j) {
                residual.col(j + k * l).noalias() -= (lambda * z[j] * z[l]) * z;
            }
        }
    }
    return residual.norm() / total;
}

} // namespace cx
