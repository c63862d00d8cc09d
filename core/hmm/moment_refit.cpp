#include "core/hmm/moment_refit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace cx {

namespace {

/// Weighted residuals of the three moment blocks, kept up to date by the coordinate steps.
struct Residuals {
    Eigen::VectorXd rowWeight;            ///< ρ_i
    Eigen::MatrixXd pairWeight;           ///< ρ_ij
    double constWeight = 1;               ///< ρ_0
    Eigen::VectorXd tripleWeight;         ///< ρ_abc (empty: no third-order block)
    std::vector<Eigen::Vector3i> triples; ///< (a, b, c) of each third-order entry
    Eigen::VectorXd mean;                 ///< e_i = Σ ω o_i − mean_i (unweighted)
    Eigen::MatrixXd second;               ///< E_ij (unweighted, symmetric, diagonal unused)
    Eigen::VectorXd third;                ///< T_abc = Σ ω o_a o_b o_c − third_abc (unweighted)
    double total = 0;                     ///< e_0

    Residuals(const MarkMomentTargets& t) {
        const auto m = t.mean.size();
        const double n = std::max(t.effectiveBins, 1.0);
        const double floor = 1.0 / n;
        rowWeight.resize(m);
        pairWeight = Eigen::MatrixXd::Zero(m, m);
        double largest = 0;
        for (Eigen::Index i = 0; i < m; ++i) {
            rowWeight[i] = 1.0 / std::sqrt(std::max(std::abs(t.mean[i]), floor));
            largest = std::max(largest, rowWeight[i]);
            for (Eigen::Index j = 0; j < m; ++j) {
                if (i != j) {
                    pairWeight(i, j) = 1.0 / std::sqrt(std::max(std::abs(t.second(i, j)), floor));
                    largest = std::max(largest, pairWeight(i, j));
                }
            }
        }
        if (t.third.size() > 0) {
            const int count = numMarkTriples(static_cast<int>(m));
            tripleWeight.resize(count);
            triples.resize(static_cast<size_t>(count));
            for (int q = 0; q < count; ++q) {
                triples[static_cast<size_t>(q)] = markTriple(static_cast<int>(m), q);
                tripleWeight[q] = 1.0 / std::sqrt(std::max(std::abs(t.third[q]), floor));
                largest = std::max(largest, tripleWeight[q]);
            }
        }
        constWeight = largest;
    }

    bool hasThird() const { return tripleWeight.size() > 0; }

    /// o_ha·o_hb·o_hc of triple q.
    double tripleProduct(const Eigen::MatrixXd& o, Eigen::Index h, size_t q) const {
        const Eigen::Vector3i& abc = triples[q];
        return o(h, abc[0]) * o(h, abc[1]) * o(h, abc[2]);
    }

    void reset(const Eigen::VectorXd& w, const Eigen::MatrixXd& o, const MarkMomentTargets& t) {
        mean = o.transpose() * w - t.mean;
        second = o.transpose() * w.asDiagonal() * o - t.second;
        total = w.sum() - t.total;
        if (hasThird()) {
            third = -t.third;
            for (Eigen::Index h = 0; h < o.rows(); ++h) {
                for (size_t q = 0; q < triples.size(); ++q) {
                    third[static_cast<Eigen::Index>(q)] += w[h] * tripleProduct(o, h, q);
                }
            }
        }
    }

    double objective() const {
        double f = constWeight * constWeight * total * total;
        const auto m = mean.size();
        for (Eigen::Index i = 0; i < m; ++i) {
            f += rowWeight[i] * rowWeight[i] * mean[i] * mean[i];
            for (Eigen::Index j = i + 1; j < m; ++j) {
                f += pairWeight(i, j) * pairWeight(i, j) * second(i, j) * second(i, j);
            }
        }
        if (hasThird()) {
            f += tripleWeight.cwiseProduct(third).squaredNorm();
        }
        return f;
    }

    /// Exact minimisation over ω_h in [lo, hi].
    void stepWeight(Eigen::VectorXd& w, const Eigen::MatrixXd& o, Eigen::Index h, double lo,
                    double hi) {
        const auto m = mean.size();
        double num = constWeight * constWeight * total;
        double den = constWeight * constWeight;
        for (Eigen::Index i = 0; i < m; ++i) {
            const double a = o(h, i);
            const double r2 = rowWeight[i] * rowWeight[i];
            num += r2 * a * mean[i];
            den += r2 * a * a;
            for (Eigen::Index j = i + 1; j < m; ++j) {
                const double b = o(h, i) * o(h, j);
                const double p2 = pairWeight(i, j) * pairWeight(i, j);
                num += p2 * b * second(i, j);
                den += p2 * b * b;
            }
        }
        for (size_t q = 0; q < triples.size(); ++q) {
            const double c = tripleProduct(o, h, q);
            const double t2 = tripleWeight[static_cast<Eigen::Index>(q)] *
                              tripleWeight[static_cast<Eigen::Index>(q)];
            num += t2 * c * third[static_cast<Eigen::Index>(q)];
            den += t2 * c * c;
        }
        const double next = std::clamp(w[h] - num / den, lo, hi);
        const double delta = next - w[h];
        if (delta == 0) {
            return;
        }
        w[h] = next;
        total += delta;
        mean += delta * o.row(h).transpose();
        second += delta * o.row(h).transpose() * o.row(h);
        for (size_t q = 0; q < triples.size(); ++q) {
            third[static_cast<Eigen::Index>(q)] += delta * tripleProduct(o, h, q);
        }
    }

    /// ∂(o_ha o_hb o_hc)/∂o_hi for triple q (0 when i is not one of a, b, c).
    double tripleSlope(const Eigen::MatrixXd& o, Eigen::Index h, size_t q, Eigen::Index i) const {
        const Eigen::Vector3i& abc = triples[q];
        if (abc[0] == i) {
            return o(h, abc[1]) * o(h, abc[2]);
        }
        if (abc[1] == i) {
            return o(h, abc[0]) * o(h, abc[2]);
        }
        if (abc[2] == i) {
            return o(h, abc[0]) * o(h, abc[1]);
        }
        return 0.0;
    }

    /// Exact minimisation over o_hi in [0, 1].
    void stepEmission(const Eigen::VectorXd& w, Eigen::MatrixXd& o, Eigen::Index h,
                      Eigen::Index i) {
        const auto m = mean.size();
        const double wh = w[h];
        if (wh == 0) {
            return;
        }
        const double r2 = rowWeight[i] * rowWeight[i];
        double num = r2 * wh * mean[i];
        double den = r2 * wh * wh;
        for (Eigen::Index j = 0; j < m; ++j) {
            if (j == i) {
                continue;
            }
            const double b = wh * o(h, j);
            const double p2 = pairWeight(i, j) * pairWeight(i, j);
            num += p2 * b * second(i, j);
            den += p2 * b * b;
        }
        for (size_t q = 0; q < triples.size(); ++q) {
            const double c = wh * tripleSlope(o, h, q, i);
            if (c != 0) {
                const double t2 = tripleWeight[static_cast<Eigen::Index>(q)] *
                                  tripleWeight[static_cast<Eigen::Index>(q)];
                num += t2 * c * third[static_cast<Eigen::Index>(q)];
                den += t2 * c * c;
            }
        }
        if (!(den > 0)) {
            return;
        }
        const double next = std::clamp(o(h, i) - num / den, 0.0, 1.0);
        const double delta = next - o(h, i);
        if (delta == 0) {
            return;
        }
        // The model is linear in o_hi, so the slopes taken before the change stay exact.
        for (size_t q = 0; q < triples.size(); ++q) {
            third[static_cast<Eigen::Index>(q)] += wh * delta * tripleSlope(o, h, q, i);
        }
        o(h, i) = next;
        mean[i] += wh * delta;
        for (Eigen::Index j = 0; j < m; ++j) {
            if (j != i) {
                second(i, j) += wh * delta * o(h, j);
                second(j, i) = second(i, j);
            }
        }
    }
};

double binomial(int n, int k) {
    double out = 1;
    for (int i = 1; i <= k; ++i) {
        out = out * static_cast<double>(n - k + i) / static_cast<double>(i);
    }
    return out;
}

/// Lawson–Hanson non-negative least squares min ‖Ax − b‖, x ≥ 0 (exact in finitely many steps).
Eigen::VectorXd nonNegativeLeastSquares(const Eigen::MatrixXd& a, const Eigen::VectorXd& b) {
    const auto n = a.cols();
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    std::vector<bool> passive(static_cast<size_t>(n), false);
    const double tol = 1e-12 * std::max(1.0, a.norm() * b.norm());
    for (int outer = 0; outer < 3 * static_cast<int>(n) + 10; ++outer) {
        const Eigen::VectorXd grad = a.transpose() * (b - a * x);
        Eigen::Index add = -1;
        for (Eigen::Index j = 0; j < n; ++j) {
            if (!passive[static_cast<size_t>(j)] && grad[j] > tol &&
                (add < 0 || grad[j] > grad[add])) {
                add = j;
            }
        }
        if (add < 0) {
            break;
        }
        passive[static_cast<size_t>(add)] = true;
        for (int inner = 0; inner < 3 * static_cast<int>(n) + 10; ++inner) {
            std::vector<Eigen::Index> cols;
            for (Eigen::Index j = 0; j < n; ++j) {
                if (passive[static_cast<size_t>(j)]) {
                    cols.push_back(j);
                }
            }
            Eigen::MatrixXd sub(a.rows(), static_cast<Eigen::Index>(cols.size()));
            for (size_t c = 0; c < cols.size(); ++c) {
                sub.col(static_cast<Eigen::Index>(c)) = a.col(cols[c]);
            }
            const Eigen::VectorXd zs = sub.completeOrthogonalDecomposition().solve(b);
            Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
            for (size_t c = 0; c < cols.size(); ++c) {
                z[cols[c]] = zs[static_cast<Eigen::Index>(c)];
            }
            bool allPositive = true;
            double alpha = 1.0;
            for (Eigen::Index j : cols) {
                if (z[j] <= 0) {
                    allPositive = false;
                    alpha = std::min(alpha, x[j] / std::max(x[j] - z[j], 1e-300));
                }
            }
            if (allPositive) {
                x = z;
                break;
            }
            x += alpha * (z - x);
            for (Eigen::Index j : cols) {
                if (x[j] <= 1e-15) {
                    x[j] = 0;
                    passive[static_cast<size_t>(j)] = false;
                }
            }
        }
    }
    return x;
}

/// Weight-only fit of a fixed emission set: the weighted objective is linear in ω, so this is
/// a bounded least-squares problem, solved exactly by NNLS in ω − lo (the upper bound 1 is
/// applied afterwards). Returns the objective.
double fitWeights(Residuals& res, Eigen::VectorXd& w, const Eigen::MatrixXd& o,
                  const MarkMomentTargets& targets, double lo) {
    const auto k = o.rows();
    const auto m = o.cols();
    const auto triples = static_cast<Eigen::Index>(res.triples.size());
    const auto rows = 1 + m + m * (m - 1) / 2 + triples;
    Eigen::MatrixXd a(rows, k);
    Eigen::VectorXd b(rows);
    a.row(0).setConstant(res.constWeight);
    b[0] = res.constWeight * targets.total;
    Eigen::Index row = 1;
    for (Eigen::Index i = 0; i < m; ++i, ++row) {
        a.row(row) = res.rowWeight[i] * o.col(i).transpose();
        b[row] = res.rowWeight[i] * targets.mean[i];
    }
    for (Eigen::Index i = 0; i < m; ++i) {
        for (Eigen::Index j = i + 1; j < m; ++j, ++row) {
            a.row(row) = res.pairWeight(i, j) * o.col(i).cwiseProduct(o.col(j)).transpose();
            b[row] = res.pairWeight(i, j) * targets.second(i, j);
        }
    }
    for (Eigen::Index q = 0; q < triples; ++q, ++row) {
        for (Eigen::Index h = 0; h < k; ++h) {
            a(row, h) = res.tripleWeight[q] * res.tripleProduct(o, h, static_cast<size_t>(q));
        }
        b[row] = res.tripleWeight[q] * targets.third[q];
    }
    const Eigen::VectorXd shifted = nonNegativeLeastSquares(a, b - lo * a.rowwise().sum());
    w = (shifted.array() + lo).min(1.0).matrix();
    res.reset(w, o, targets);
    return res.objective();
}

} // namespace

int numMarkTriples(int numMarks) {
    return numMarks < 3 ? 0 : numMarks * (numMarks - 1) * (numMarks - 2) / 6;
}

Eigen::Vector3i markTriple(int numMarks, int t) {
    int q = 0;
    for (int a = 0; a < numMarks; ++a) {
        for (int b = a + 1; b < numMarks; ++b) {
            for (int c = b + 1; c < numMarks; ++c, ++q) {
                if (q == t) {
                    return {a, b, c};
                }
            }
        }
    }
    throw std::invalid_argument("markTriple: index " + std::to_string(t) + " out of range for " +
                                std::to_string(numMarks) + " marks");
}

double markMomentResidual(const Eigen::VectorXd& weights, const Eigen::MatrixXd& emissions,
                          const MarkMomentTargets& targets) {
    Residuals res(targets);
    res.reset(weights, emissions, targets);
    return std::sqrt(res.objective());
}

MomentRefitResult refitMarkStates(const Eigen::MatrixXd& candidates,
                                  const MarkMomentTargets& targets,
                                  const MomentRefitOptions& options) {
    const auto m = targets.mean.size();
    const int k = options.numStates;
    Eigen::MatrixXd pool = candidates;
    if (options.addEmptyCandidate) {
        pool.conservativeResize(candidates.rows() + 1, Eigen::NoChange);
        pool.row(candidates.rows()).setZero();
    }
    if (targets.third.size() != 0 && targets.third.size() != numMarkTriples(static_cast<int>(m))) {
        throw std::invalid_argument(
            "refitMarkStates: " + std::to_string(targets.third.size()) +
            " third-order targets for " + std::to_string(m) + " marks (need " +
            std::to_string(numMarkTriples(static_cast<int>(m))) + " or none)");
    }
    if (candidates.cols() != m || targets.second.rows() != m || targets.second.cols() != m ||
        k < 1 || pool.rows() < k) {
        throw std::invalid_argument("refitMarkStates: need " + std::to_string(k) +
                                    " >= 1 states from " + std::to_string(pool.rows()) +
                                    " candidates with " + std::to_string(m) + " marks");
    }
    pool = pool.array().max(0.0).min(1.0).matrix();
    const int n = static_cast<int>(pool.rows());
    Residuals res(targets);
    const double lo = options.minWeight;

    // (1) the best K-subset by its weight-only fit.
    std::vector<int> best(static_cast<size_t>(k));
    std::iota(best.begin(), best.end(), 0);
    double bestObjective = std::numeric_limits<double>::infinity();
    Eigen::VectorXd bestWeights;
    auto trySubset = [&](const std::vector<int>& subset) {
        Eigen::MatrixXd o(k, m);
        for (int h = 0; h < k; ++h) {
            o.row(h) = pool.row(subset[static_cast<size_t>(h)]);
        }
        Eigen::VectorXd w = Eigen::VectorXd::Constant(k, targets.total / k);
        const double f = fitWeights(res, w, o, targets, lo);
        if (f < bestObjective) {
            bestObjective = f;
            best = subset;
            bestWeights = w;
        }
    };
    if (binomial(n, k) <= 5000) {
        std::vector<bool> pick(static_cast<size_t>(n), false);
        std::fill(pick.begin(), pick.begin() + k, true);
        do {
            std::vector<int> subset;
            for (int c = 0; c < n; ++c) {
                if (pick[static_cast<size_t>(c)]) {
                    subset.push_back(c);
                }
            }
            trySubset(subset);
        } while (std::prev_permutation(pick.begin(), pick.end()));
    } else {
        trySubset(best);
    }

    // (2) joint coordinate descent over weights and emissions.
    Eigen::MatrixXd o(k, m);
    for (int h = 0; h < k; ++h) {
        o.row(h) = pool.row(best[static_cast<size_t>(h)]);
    }
    Eigen::VectorXd w = bestWeights;
    res.reset(w, o, targets);
    for (int s = 0; s < options.sweeps; ++s) {
        for (Eigen::Index h = 0; h < k; ++h) {
            res.stepWeight(w, o, h, lo, 1.0);
            for (Eigen::Index i = 0; i < m; ++i) {
                res.stepEmission(w, o, h, i);
            }
        }
    }
    MomentRefitResult out;
    out.residualSelected = std::sqrt(bestObjective);
    out.residualFinal = std::sqrt(res.objective());
    std::vector<int> order(static_cast<size_t>(k));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return w[a] > w[b]; });
    out.weights.resize(k);
    out.emissions.resize(k, m);
    out.sourceCandidate.resize(k);
    for (int h = 0; h < k; ++h) {
        const int src = order[static_cast<size_t>(h)];
        out.weights[h] = w[src];
        out.emissions.row(h) = o.row(src);
        out.sourceCandidate[h] = best[static_cast<size_t>(src)];
    }
    return out;
}

} // namespace cx
