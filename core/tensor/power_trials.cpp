#include "core/tensor/power_trials.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace cx::power_trials {

double directionChange(const Eigen::VectorXd& previous, const Eigen::VectorXd& next) {
    return (next - previous).norm();
}

namespace {

/// Column c of out = [y_j y_l]_{j ≤ l} (pair (j, l) at l(l+1)/2 + j), each product rounded to
/// Out; written per l as one contiguous run so that it vectorises.
template <typename Out> void pairColumn(const double* yc, Eigen::Index k, Out* column) {
    for (Eigen::Index l = 0; l < k; ++l) {
        const double yl = yc[l];
        Out* run = column + l * (l + 1) / 2;
        for (Eigen::Index j = 0; j <= l; ++j) {
            run[j] = static_cast<Out>(yc[j] * yl);
        }
    }
}

/// Products per chunk of pairProductsSingle's runs (one AVX-512 vector of doubles).
constexpr Eigen::Index kPairChunk = 8;

} // namespace

/// Columns y ↦ [y_j y_l]_{j ≤ l} in the order of packPairs.
void pairProducts(const Eigen::MatrixXd& y, Eigen::MatrixXd& out) {
    const Eigen::Index k = y.rows();
    out.resize(k * (k + 1) / 2, y.cols());
    for (Eigen::Index c = 0; c < y.cols(); ++c) {
        pairColumn(y.col(c).data(), k, out.col(c).data());
    }
}

void pairProductsSingle(const Eigen::Ref<const Eigen::MatrixXd>& y, Eigen::MatrixXf& out) {
    const Eigen::Index k = y.rows();
    if (k < kPairChunk) {
        for (Eigen::Index c = 0; c < y.cols(); ++c) {
            pairColumn(y.col(c).data(), k, out.col(c).data());
        }
        return;
    }
    // Whole chunks of kPairChunk products per run, without a scalar tail: run l's last chunk
    // spills up to kPairChunk − 1 products into the start of run l + 1 (at least as long),
    // which is written after it; the last run of a column is written exactly. `padded` is y's
    // column followed by zeros, so that a chunk may read past row k − 1. The same products,
    // rounded the same way, as pairColumn.
    std::vector<double> padded(static_cast<size_t>(k + kPairChunk), 0.0);
    for (Eigen::Index c = 0; c < y.cols(); ++c) {
        std::copy_n(y.col(c).data(), k, padded.begin());
        const double* yc = padded.data();
        float* column = out.col(c).data();
        for (Eigen::Index l = 0; l + 1 < k; ++l) {
            const double yl = yc[l];
            float* run = column + l * (l + 1) / 2;
            for (Eigen::Index j0 = 0; j0 <= l; j0 += kPairChunk) {
                for (Eigen::Index q = 0; q < kPairChunk; ++q) {
                    run[j0 + q] = static_cast<float>(yc[j0 + q] * yl);
                }
            }
        }
        const double ylast = yc[k - 1];
        float* last = column + (k - 1) * k / 2;
        for (Eigen::Index j = 0; j < k; ++j) {
            last[j] = static_cast<float>(yc[j] * ylast);
        }
    }
}

Eigen::MatrixXd KDeflations::term(const Eigen::MatrixXd& ys,
                                  const Eigen::Ref<const Eigen::MatrixXd>& target,
                                  Eigen::Index used) const {
    Eigen::MatrixXd g = alpha.leftCols(used).transpose() * ys; // used × m
    g = (g.array().square().colwise() * weight.head(used).array()).matrix();
    return target * g;
}

void deflatePacked(double w, const Eigen::VectorXd& a, Eigen::MatrixXd& core,
                   PaddedRowsSingle& single) {
    const Eigen::Index k = a.size();
    const Eigen::VectorXd wa = w * a;
    Eigen::Index p = 0;
    for (Eigen::Index l = 0; l < k; ++l) {
        for (Eigen::Index j = 0; j <= l; ++j, ++p) {
            // packPairs' layout: an off-diagonal pair doubled (exact).
            const double pair = j < l ? 2.0 * (a[j] * a[l]) : a[j] * a[l];
            core.col(p) -= pair * wa;
            single.values.col(p).head(core.rows()) = core.col(p).cast<float>();
        }
    }
}

namespace {

/// t(I, y, y) with the deflations, for every column y of ys: one product of the packed core.
Eigen::MatrixXd contractPacked(const PaddedRows& corePacked, const KDeflations& deflations,
                               const Eigen::MatrixXd& ys, Eigen::MatrixXd& pairs) {
    pairProducts(ys, pairs);
    Eigen::MatrixXd out = skinnyProduct(corePacked, pairs);
    if (deflations.count > 0) {
        out -= deflations.term(ys, deflations.alpha.leftCols(deflations.count), deflations.count);
    }
    return out;
}

} // namespace

TrialBatch iterateTrials(const PackedCores& cores, const KDeflations& deflations,
                         const Eigen::VectorXd& inverse, const PowerMethodOptions& options,
                         Eigen::MatrixXd x, const CancelToken& cancel) {
    const Eigen::Index k = x.rows();
    const Eigen::Index m = x.cols();
    TrialBatch batch;
    batch.trials.resize(static_cast<size_t>(m));
    batch.yLast = Eigen::MatrixXd::Zero(k, m);
    batch.coords = Eigen::MatrixXd::Zero(k, m);
    batch.scales = Eigen::VectorXd::Zero(m);
    for (Eigen::Index c = 0; c < m; ++c) {
        x.col(c).normalize();
    }
    // inSingle[c]: trial c's next step contracts the single-precision core.
    std::vector<char> inSingle(static_cast<size_t>(m), options.singlePrecisionSteps ? 1 : 0);
    std::vector<Eigen::Index> active(static_cast<size_t>(m));
    std::iota(active.begin(), active.end(), Eigen::Index{0});
    std::vector<Eigen::Index> order;
    std::vector<Eigen::Index> running;
    Eigen::Index singles = 0;
    Eigen::MatrixXd y;
    Eigen::MatrixXd next(k, m);
    Eigen::MatrixXd pairs;
    // The single-precision steps' buffers, kept across steps; `previous` and `unit` keep the
    // direction change's operands in aligned vectors of their own (as before, so the same sums).
    Eigen::MatrixXf pairsSingle;
    Eigen::MatrixXf productSingle;
    if (options.singlePrecisionSteps) {
        pairsSingle.resize(k * (k + 1) / 2, m);
        productSingle.resize(cores.deflatedSingle.values.rows(), m);
    }
    Eigen::VectorXd previous(k);
    Eigen::VectorXd unit(k);
    for (int it = 0; it < options.iterations && !active.empty(); ++it) {
        throwIfCancelled(cancel);
        const bool lastStep = it + 1 == options.iterations;
        // The single-precision trials first (the first `singles`), then the double ones: one
        // product each.
        order.clear();
        for (const bool single : {true, false}) {
            for (const Eigen::Index c : active) {
                if ((inSingle[static_cast<size_t>(c)] != 0 && !lastStep) == single) {
                    order.push_back(c);
                }
            }
            if (single) {
                singles = static_cast<Eigen::Index>(order.size());
            }
        }
        const auto width = static_cast<Eigen::Index>(order.size());
        y.resize(k, width);
        for (Eigen::Index i = 0; i < width; ++i) {
            y.col(i) = inverse.cwiseProduct(x.col(order[static_cast<size_t>(i)])); // V_Kᵀ M2⁺ u
        }
        if (singles > 0) {
            pairProductsSingle(y.leftCols(singles), pairsSingle);
            skinnyProductInto(cores.deflatedSingle, pairsSingle.leftCols(singles),
                              productSingle.leftCols(singles));
            next.leftCols(singles) = productSingle.topLeftCorner(k, singles).cast<double>();
        }
        if (singles < width) {
            next.middleCols(singles, width - singles) =
                contractPacked(cores.full, deflations, y.rightCols(width - singles), pairs);
        }
        running.clear();
        for (Eigen::Index i = 0; i < width; ++i) {
            const Eigen::Index c = order[static_cast<size_t>(i)];
            Trial& trial = batch.trials[static_cast<size_t>(c)];
            trial.iterations = it + 1;
            const double norm = next.col(i).norm();
            if (!(norm > 0) || !std::isfinite(norm)) {
                trial.degenerate = true;
                continue;
            }
            batch.yLast.col(c) = y.col(i);
            batch.coords.col(c) = next.col(i);
            unit = next.col(i) / norm;
            previous = x.col(c);
            const double change = directionChange(previous, unit);
            x.col(c) = unit;
            // Near a fixed point the steps go on in double, elsewhere (again) in single.
            if (options.singlePrecisionSteps) {
                inSingle[static_cast<size_t>(c)] =
                    change < PowerMethodOptions::kSingleStepsUntil ? 0 : 1;
            }
            if (i >= singles && change < options.tolerance) { // only a double step converges
                trial.converged = true;
                continue;
            }
            running.push_back(c);
        }
        std::sort(running.begin(), running.end());
        active.swap(running);
    }
    // ⟨u, M2⁺u⟩ = coordsᵀΛ⁻¹coords; â = u·scale; λ̂ = t(z, z, z) with z = Λ⁻¹V_Kᵀâ.
    std::vector<Eigen::Index> valid;
    for (Eigen::Index c = 0; c < m; ++c) {
        Trial& trial = batch.trials[static_cast<size_t>(c)];
        if (trial.degenerate) {
            continue;
        }
        const double quadratic = batch.coords.col(c).dot(inverse.cwiseProduct(batch.coords.col(c)));
        if (!(std::abs(quadratic) > 0) || !std::isfinite(quadratic)) {
            trial.degenerate = true;
            continue;
        }
        batch.scales[c] = 1.0 / std::sqrt(std::abs(quadratic));
        valid.push_back(c);
    }
    if (!valid.empty()) {
        Eigen::MatrixXd z(k, static_cast<Eigen::Index>(valid.size()));
        for (size_t i = 0; i < valid.size(); ++i) {
            const Eigen::Index c = valid[i];
            z.col(static_cast<Eigen::Index>(i)) =
                batch.scales[c] * inverse.cwiseProduct(batch.coords.col(c));
        }
        const Eigen::MatrixXd tz = contractPacked(cores.full, deflations, z, pairs);
        for (size_t i = 0; i < valid.size(); ++i) {
            Trial& trial = batch.trials[static_cast<size_t>(valid[i])];
            trial.lambda =
                z.col(static_cast<Eigen::Index>(i)).dot(tz.col(static_cast<Eigen::Index>(i)));
            if (!std::isfinite(trial.lambda) || std::abs(trial.lambda) < options.minAbsLambda) {
                trial.degenerate = true; // outside what the model allows (see minAbsLambda)
            }
        }
    }
    return batch;
}

} // namespace cx::power_trials
