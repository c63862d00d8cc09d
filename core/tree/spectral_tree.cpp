#include "core/tree/spectral_tree.h"

#include "core/common/error.h"
#include "core/common/multi_start.h"
#include "core/common/parallel.h"
#include "core/common/timer.h"
#include "core/hmm/contrastive_hmm.h" // matchedMeanAbsoluteDifference
#include "core/hmm/moment_refit.h"
#include "core/tensor/linalg.h"
#include "core/tensor/tensor_power_method.h"
#include "core/tree/count_table.h"

#include <Eigen/SVD>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace cx {

namespace {

constexpr std::uint32_t kNoId = std::numeric_limits<std::uint32_t>::max();

/// φ(code) = (bits…, 1) for every code, D × 2^M.
Eigen::MatrixXd featureTable(int m) {
    const Eigen::Index codes = Eigen::Index{1} << m;
    Eigen::MatrixXd f(m + 1, codes);
    for (Eigen::Index c = 0; c < codes; ++c) {
        for (int j = 0; j < m; ++j) {
            f(j, c) = static_cast<double>((c >> j) & 1);
        }
        f(m, c) = 1.0;
    }
    return f;
}

/// Σ_keys count·φ(a)φ(b)ᵀ / total for keys (a << 16 | b).
Eigen::MatrixXd pairMoment(const CountTable& counts, const Eigen::MatrixXd& phi) {
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(phi.rows(), phi.rows());
    double total = 0;
    counts.forEach([&](std::uint64_t key, std::int64_t count) {
        const auto a = static_cast<Eigen::Index>(key >> 16);
        const auto b = static_cast<Eigen::Index>(key & 0xFFFF);
        out.noalias() += static_cast<double>(count) * phi.col(a) * phi.col(b).transpose();
        total += static_cast<double>(count);
    });
    return total > 0 ? Eigen::MatrixXd(out / total) : out;
}

/// Row normalised and rounded onto the simplex (uniform when it carries no mass), then kept
/// at least `floor` in every entry: (1 − K·floor)·p + floor. Rounding gives exact zeros, but a
/// probability estimated from N bin pairs is only resolved to about 1/N, and an exact zero in
/// an HMM says "impossible": it makes states absorbing or unreachable for the decoder.
Eigen::RowVectorXd simplexRow(const Eigen::RowVectorXd& row, double floor) {
    const auto k = static_cast<double>(row.size());
    Eigen::RowVectorXd out;
    const double sum = row.sum();
    if (!(sum > 1e-300) || !row.allFinite()) {
        const Eigen::VectorXd clipped = row.transpose().cwiseMax(0.0);
        if (clipped.allFinite() && clipped.sum() > 0) {
            out = (clipped / clipped.sum()).transpose();
        } else {
            out = Eigen::RowVectorXd::Constant(row.size(), 1.0 / k);
        }
    } else {
        out = projectToSimplex((row / sum).transpose()).transpose();
    }
    const double f = std::clamp(floor, 0.0, 1.0 / k);
    return ((1.0 - k * f) * out.array() + f).matrix();
}

/// Hierarchical numbering of the distinct observations of the path root … u.
struct PathIds {
    std::vector<std::vector<std::uint32_t>> ids; ///< per chromosome, per bin (kNoId: missing)
    Eigen::MatrixXd z;                           ///< metaDim × numIds product projections
};

PathIds buildPathIds(const MultiCellTracks& data, int u, const PathIds* parent,
                     const Eigen::MatrixXd& ownProjection) {
    PathIds out;
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    std::vector<std::pair<std::uint32_t, std::uint16_t>> parts;
    out.ids.resize(static_cast<size_t>(data.numChroms()));
    for (int k = 0; k < data.numChroms(); ++k) {
        const auto& codes = data.codes[static_cast<size_t>(u)][static_cast<size_t>(k)];
        auto& ids = out.ids[static_cast<size_t>(k)];
        ids.resize(codes.size());
        for (size_t t = 0; t < codes.size(); ++t) {
            const std::uint32_t up = parent ? parent->ids[static_cast<size_t>(k)][t] : 0;
            if (codes[t] == kMissingObservation || up == kNoId) {
                ids[t] = kNoId;
                continue;
            }
            const std::uint64_t key = (static_cast<std::uint64_t>(up) << 16) | codes[t];
            auto it = index.find(key);
            if (it == index.end()) {
                it = index.emplace(key, static_cast<std::uint32_t>(parts.size())).first;
                parts.emplace_back(up, codes[t]);
            }
            ids[t] = it->second;
        }
    }
    if (parts.size() >= (std::size_t{1} << 24)) {
        throw InputError("tree: more than 2^24 distinct path observations at " +
                         data.cells[static_cast<size_t>(u)]);
    }
    const Eigen::Index m = ownProjection.rows();
    const Eigen::Index upDim = parent ? parent->z.rows() : 1;
    out.z.resize(upDim * m, static_cast<Eigen::Index>(parts.size()));
    for (size_t i = 0; i < parts.size(); ++i) {
        const auto own = ownProjection.col(parts[i].second);
        for (Eigen::Index a = 0; a < upDim; ++a) {
            const double w = parent ? parent->z(a, parts[i].first) : 1.0;
            out.z.col(static_cast<Eigen::Index>(i)).segment(a * m, m) = w * own;
        }
    }
    return out;
}

/// What the skeletensor of one node yields: R candidate states.
struct NodeCandidates {
    Eigen::MatrixXd emissions; ///< R × M, clipped to [0, 1]
    Eigen::VectorXd weights;   ///< R, 1/λ² (unnormalised occupancy)
};

/// The whitened skeletensor of one node and what undoes the whitening.
struct NodeTensor {
    SymmetricTensor3 tensor{1};
    Eigen::MatrixXd wPinvT; ///< (Wᵀ)⁺ = V |Λ|^{1/2}, D × k
    int rank = 0;           ///< k
};

/// Skeletensor of node u at rank R = `rank`, whitened. `phi` holds the middle view's features
/// (D × codes, scaled by `scale`: φ̃ = diag(scale)·φ).
NodeTensor skeletensor(const MultiCellTracks& data, int u, const PathIds& path,
                       const Eigen::MatrixXd& phi, int rank, int minRank,
                       SpectralTreeNodeReport& report, double& momentMs) {
    int k = rank;
    Stopwatch timer;
    CountTable triples(1 << 16);
    std::int64_t positions = 0;
    for (int c = 0; c < data.numChroms(); ++c) {
        const auto& ids = path.ids[static_cast<size_t>(c)];
        const auto& codes = data.codes[static_cast<size_t>(u)][static_cast<size_t>(c)];
        for (size_t t = 1; t + 1 < ids.size(); ++t) {
            if (ids[t - 1] == kNoId || ids[t] == kNoId || ids[t + 1] == kNoId) {
                continue;
            }
            const std::uint64_t key = (static_cast<std::uint64_t>(ids[t - 1]) << 40) |
                                      (static_cast<std::uint64_t>(codes[t]) << 24) | ids[t + 1];
            triples.add(key);
            ++positions;
        }
    }
    report.positions = positions;
    report.distinctTriples = static_cast<std::int64_t>(triples.size());
    report.metaDim = static_cast<int>(path.z.rows());
    if (positions == 0) {
        throw InputError("tree: cell " + data.cells[static_cast<size_t>(u)] +
                         " has no three consecutive bins without a missing mark");
    }
    const double total = static_cast<double>(positions);
    // Count matrices: N13 (ids × ids), N12 (ids × codes), N32 (ids × codes).
    const Eigen::Index numIds = path.z.cols();
    const Eigen::Index numCodes = phi.cols();
    std::vector<Eigen::Triplet<double>> t13, t12, t32;
    t13.reserve(triples.size());
    t12.reserve(triples.size());
    t32.reserve(triples.size());
    triples.forEach([&](std::uint64_t key, std::int64_t count) {
        const auto a = static_cast<Eigen::Index>(key >> 40);
        const auto code = static_cast<Eigen::Index>((key >> 24) & 0xFFFF);
        const auto b = static_cast<Eigen::Index>(key & 0xFFFFFF);
        const double w = static_cast<double>(count) / total;
        t13.emplace_back(a, b, w);
        t12.emplace_back(a, code, w);
        t32.emplace_back(b, code, w);
    });
    Eigen::SparseMatrix<double> n13(numIds, numIds), n12(numIds, numCodes), n32(numIds, numCodes);
    n13.setFromTriplets(t13.begin(), t13.end());
    n12.setFromTriplets(t12.begin(), t12.end());
    n32.setFromTriplets(t32.begin(), t32.end());
    const Eigen::MatrixXd& z = path.z;
    const Eigen::MatrixXd e13 = z * (n13 * z.transpose());   // E[v1 v3ᵀ]
    const Eigen::MatrixXd e12 = z * (n12 * phi.transpose()); // E[v1 v2ᵀ]
    const Eigen::MatrixXd e32 = z * (n32 * phi.transpose()); // E[v3 v2ᵀ]
    // Symmetrisation: S1 = E[v2 v3ᵀ] E[v1 v3ᵀ]⁺, S3 = E[v2 v1ᵀ] E[v3 v1ᵀ]⁺.
    // Pseudo-inverse of E[v1 v3ᵀ] restricted to the directions above its sampling noise:
    // singular values σ_i ≤ 3σ_1/√N are indistinguishable from the noise of an average over N
    // positions (the three-sigma rule; never fewer than K). Path meta-states that the data
    // hardly visit (a child that mostly follows its parent) give such directions, and inverting
    // them amplifies noise into the symmetrised views (Assumption 2 holds only approximately).
    Eigen::JacobiSVD<Eigen::MatrixXd> svd13(e13, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::VectorXd sigma = svd13.singularValues();
    int rank13 = 0;
    while (rank13 < sigma.size() && sigma[rank13] > 3.0 * sigma[0] / std::sqrt(total)) {
        ++rank13;
    }
    rank13 = std::clamp(rank13, std::min<int>(k, static_cast<int>(sigma.size())),
                        static_cast<int>(sigma.size()));
    report.symmetrizationRank = rank13;
    const Eigen::MatrixXd pinv13 = svd13.matrixV().leftCols(rank13) *
                                   sigma.head(rank13).cwiseInverse().asDiagonal() *
                                   svd13.matrixU().leftCols(rank13).transpose();
    const Eigen::MatrixXd s1 = e32.transpose() * pinv13;
    const Eigen::MatrixXd s3 = e12.transpose() * pinv13.transpose();
    Eigen::MatrixXd m2 = s1 * e13 * s3.transpose();
    m2 = 0.5 * (m2 + m2.transpose()).eval();
    // Reserve components only where M2 has them: its eigenvalues beyond the K-th count when
    // |λ| > 3|λ₁|/√N (the same three-sigma rule), so the moments of a K-state model stay at
    // rank K (a whitened noise direction would corrupt every component).
    if (k > minRank) {
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(m2, Eigen::EigenvaluesOnly);
        Eigen::VectorXd mags = eig.eigenvalues().cwiseAbs();
        std::sort(mags.data(), mags.data() + mags.size(), std::greater<>());
        int significant = 0;
        while (significant < mags.size() && mags[significant] > 3.0 * mags[0] / std::sqrt(total)) {
            ++significant;
        }
        k = std::clamp(significant, minRank, k);
    }
    report.decompositionRank = k;
    const SymmetricLowRank low = truncatedSymmetricEigen(m2, k);
    Eigen::MatrixXd w = low.vectors;      // D × K
    Eigen::MatrixXd wPinvT = low.vectors; // (Wᵀ)⁺ = V |Λ|^{1/2}
    for (int h = 0; h < k; ++h) {
        const double s = std::sqrt(std::max(std::abs(low.values[h]), 1e-300));
        w.col(h) /= s;
        wPinvT.col(h) *= s;
    }
    const Eigen::MatrixXd p = w.transpose() * s1 * z; // K × ids
    const Eigen::MatrixXd q = w.transpose() * phi;    // K × codes
    const Eigen::MatrixXd r = w.transpose() * s3 * z; // K × ids
    SymmetricTensor3 tensor(k);
    Eigen::MatrixXd& unfolded = tensor.unfolded();
    Eigen::VectorXd qr(static_cast<Eigen::Index>(k) * k);
    triples.forEach([&](std::uint64_t key, std::int64_t count) {
        const auto a = static_cast<Eigen::Index>(key >> 40);
        const auto code = static_cast<Eigen::Index>((key >> 24) & 0xFFFF);
        const auto b = static_cast<Eigen::Index>(key & 0xFFFFFF);
        const double weight = static_cast<double>(count) / total;
        for (int c3 = 0; c3 < k; ++c3) {
            qr.segment(c3 * k, k) = (weight * r(c3, b)) * q.col(code);
        }
        unfolded.noalias() += p.col(a) * qr.transpose();
    });
    tensor.symmetrize();
    momentMs += timer.elapsedMs();
    return NodeTensor{std::move(tensor), std::move(wPinvT), k};
}

/// One start of the decomposition of node u's whitened skeletensor (power method or Jennrich
/// seeded by `seed`): R candidate states; the recovered columns are unscaled by `scale` before
/// the constant coordinate is normalised to 1. Sets the report's status, residual, clipping.
NodeCandidates decomposeNode(const MultiCellTracks& data, int u, const NodeTensor& node,
                             const Eigen::VectorXd& scale, std::uint64_t seed,
                             const SpectralTreeOptions& options, SpectralTreeNodeReport& report) {
    const int k = node.rank;
    const int m = data.numMarks();
    const SymmetricTensor3& tensor = node.tensor;
    const Eigen::MatrixXd& wPinvT = node.wPinvT;
    Eigen::MatrixXd vectors(k, k);
    Eigen::VectorXd lambdas(k);
    if (options.decomposition == Decomposition::Jennrich) {
        JennrichOptions jo;
        jo.rank = k;
        jo.slices = std::max(1, options.trials);
        jo.seed = seed;
        const JennrichResult j = jennrichSymmetric(tensor, jo);
        report.status = j.status;
        report.residual = j.residual;
        if (j.status != Status::Successful) {
            throw InputError("tree: Jennrich's algorithm found no real spectrum at " +
                             data.cells[static_cast<size_t>(u)] + " (try the power decomposition)");
        }
        vectors = j.a;
        lambdas = j.weights;
    } else {
        PowerMethodOptions po;
        po.numComponents = k;
        po.iterations = options.iterations;
        po.restarts = options.trials;
        po.seed = seed;
        const PowerMethodResult pm =
            generalizedPowerMethod(Eigen::MatrixXd(Eigen::MatrixXd::Identity(k, k)), tensor, po);
        report.status = pm.status;
        vectors = pm.components;
        lambdas = pm.lambdas;
        SymmetricTensor3 residual = tensor;
        for (int h = 0; h < k; ++h) {
            residual.addRankOne(-lambdas[h], vectors.col(h));
        }
        report.residual = residual.unfolded().norm() / std::max(tensor.unfolded().norm(), 1e-300);
    }
    NodeCandidates out;
    out.emissions.resize(k, m);
    out.weights.resize(k);
    report.clipping = 0;
    for (int h = 0; h < k; ++h) {
        Eigen::VectorXd col = lambdas[h] * (wPinvT * vectors.col(h));
        col = col.cwiseQuotient(scale);
        const double constant = col[m];
        if (std::abs(constant) > 1e-12) {
            col /= constant;
        }
        for (int j = 0; j < m; ++j) {
            report.clipping = std::max({report.clipping, -col[j], col[j] - 1.0});
            out.emissions(h, j) = std::clamp(col[j], 0.0, 1.0);
        }
        out.weights[h] = lambdas[h] != 0 ? 1.0 / (lambdas[h] * lambdas[h]) : 0.0;
    }
    return out;
}

/// Targets of the moment refit of one node: its own first and second mark moments from the
/// same-bin code histogram `single` (counts per code).
MarkMomentTargets nodeMomentTargets(const std::vector<double>& single, const Eigen::MatrixXd& phi,
                                    int m) {
    MarkMomentTargets targets;
    targets.mean = Eigen::VectorXd::Zero(m);
    targets.second = Eigen::MatrixXd::Zero(m, m);
    double bins = 0;
    for (size_t code = 0; code < single.size(); ++code) {
        if (single[code] == 0) {
            continue;
        }
        const Eigen::VectorXd x = phi.col(static_cast<Eigen::Index>(code)).head(m);
        targets.mean += single[code] * x;
        targets.second += single[code] * x * x.transpose();
        bins += single[code];
    }
    targets.mean /= std::max(bins, 1.0);
    targets.second /= std::max(bins, 1.0);
    targets.total = 1.0;
    targets.effectiveBins = std::max(bins, 1.0);
    return targets;
}

/// A node's K states (emissions K × M, unnormalised occupancy K) in its local order.
struct NodeFit {
    Eigen::MatrixXd emissions;
    Eigen::VectorXd occupancy;
};

/// Node u's states from options.starts seeded decompositions of its skeletensor (start i:
/// startSeed(options.seed, i) + u, so one start is the single-start fit), each followed by the
/// moment refit when `targets` is given (core/hmm/moment_refit.h: K of the R candidates and the
/// all-zero unmarked state, weights and emissions fitted to the node's own first and
/// off-diagonal second mark moments, so the occupancies sum to 1 and a dominant unmarked
/// state is kept even when the rank-K truncation merged it away). The start of lowest moment
/// residual is kept — with the refit its final weighted mark-moment residual, else the
/// decomposition's relative residual — and the report is that start's, with report.starts.
NodeFit fitNodeStarts(const MultiCellTracks& data, int u, const NodeTensor& node,
                      const Eigen::VectorXd& scale, const MarkMomentTargets* targets, int k,
                      const SpectralTreeOptions& options, SpectralTreeNodeReport& report,
                      const CancelToken& cancel) {
    StartSpread spread;
    spread.criterion = StartCriterion::MomentResidual;
    NodeFit kept;
    SpectralTreeNodeReport keptReport = report;
    std::vector<Eigen::MatrixXd> all;
    for (int i = 0; i < options.starts; ++i) {
        throwIfCancelled(cancel);
        SpectralTreeNodeReport trial = report;
        const std::uint64_t seed = startSeed(options.seed, i) + static_cast<std::uint64_t>(u);
        const NodeCandidates candidates = decomposeNode(data, u, node, scale, seed, options, trial);
        NodeFit fit;
        double value = trial.residual;
        if (targets) {
            MomentRefitOptions refit;
            refit.numStates = k;
            refit.sweeps = options.momentFitSweeps;
            const MomentRefitResult refitted =
                refitMarkStates(candidates.emissions, *targets, refit);
            fit.emissions = refitted.emissions;
            fit.occupancy = refitted.weights.cwiseMax(0.0);
            trial.momentResidualSelected = refitted.residualSelected;
            trial.momentResidualFinal = refitted.residualFinal;
            value = refitted.residualFinal;
        } else {
            fit.emissions = candidates.emissions;
            fit.occupancy = candidates.weights;
        }
        spread.seeds.push_back(seed);
        spread.values.push_back(value);
        all.push_back(fit.emissions);
        if (i == 0 || spread.better(value, spread.values[static_cast<size_t>(spread.chosen)])) {
            spread.chosen = i;
            kept = std::move(fit);
            keptReport = trial;
        }
    }
    for (const Eigen::MatrixXd& other : all) {
        spread.emissionSpread =
            std::max(spread.emissionSpread, matchedMeanAbsoluteDifference(kept.emissions, other));
    }
    report = keptReport;
    report.starts = std::move(spread);
    return kept;
}

} // namespace

SpectralTreeResult learnSpectralTree(const MultiCellTracks& data, const TreeSpec& tree,
                                     const SpectralTreeOptions& options, const CancelToken& cancel,
                                     const ProgressFn& progress) {
    Stopwatch total;
    if (data.cells != tree.names) {
        throw InputError("tree: the tracks' cell types are not the tree's nodes in order");
    }
    const int k = options.numStates;
    const int m = data.numMarks();
    if (k < 1 || k > m + 1) {
        throw InputError("parameter K: " + std::to_string(k) +
                         " states need 1 <= K <= " + std::to_string(m + 1) + " (shared marks + 1)");
    }
    if (options.starts < 1) {
        throw InputError("parameter starts: " + std::to_string(options.starts) +
                         " starts must be >= 1");
    }
    if (options.reserveComponents < 0) {
        throw InputError("parameter reserve: " + std::to_string(options.reserveComponents) +
                         " reserve components must be >= 0");
    }
    // Rank of each node's decomposition: K, or K + E candidates for the moment refit.
    const int rank =
        options.momentFitSweeps >= 0 ? std::min(k + options.reserveComponents, m + 1) : k;
    const int proj = options.projectionDim > 0 ? options.projectionDim : rank;
    if (proj > m + 1) {
        throw InputError("parameter projection: m = " + std::to_string(proj) +
                         " exceeds the feature dimension " + std::to_string(m + 1));
    }
    const auto n = static_cast<size_t>(tree.numNodes());
    const Eigen::MatrixXd phi = featureTable(m);
    SpectralTreeResult result;
    result.nodes.resize(n);
    std::vector<Eigen::MatrixXd> mus(n), emissions(n), ownPairs(n), sameBin(n);
    std::vector<Eigen::VectorXd> occupancy(n);
    std::vector<double> pairCount(n, 1.0); // bin pairs of the node's transition moments
    std::vector<DenseTensor3> transitionTriples(n);
    std::vector<PathIds> paths(n);
    std::vector<double> momentMs(n, 0.0), decompositionMs(n, 0.0);
    // One node: its moments, product projection, path ids, skeletensor and fit. A node needs
    // only its parent's path ids, so the nodes of one depth run side by side (each writes its
    // own slots; the computation of a node does not depend on which thread runs it).
    auto learnNode = [&](size_t u) {
        throwIfCancelled(cancel);
        Stopwatch timer;
        const int parent = tree.parent[u];
        // Own pair, same-bin pair with the parent, and the transition triple, by counting.
        CountTable own, cross, trans;
        std::vector<double> single(std::size_t{1} << m, 0.0); // same-bin code histogram
        for (int c = 0; c < data.numChroms(); ++c) {
            const auto& x = data.codes[u][static_cast<size_t>(c)];
            const auto* y = parent >= 0
                                ? &data.codes[static_cast<size_t>(parent)][static_cast<size_t>(c)]
                                : nullptr;
            for (size_t t = 0; t < x.size(); ++t) {
                if (x[t] == kMissingObservation) {
                    continue;
                }
                single[x[t]] += 1;
                if (y && (*y)[t] != kMissingObservation) {
                    cross.add((static_cast<std::uint64_t>(x[t]) << 16) | (*y)[t]);
                }
                if (t + 1 < x.size() && x[t + 1] != kMissingObservation) {
                    own.add((static_cast<std::uint64_t>(x[t]) << 16) | x[t + 1]);
                    if (y && (*y)[t + 1] != kMissingObservation) {
                        trans.add((static_cast<std::uint64_t>(x[t]) << 32) |
                                  (static_cast<std::uint64_t>(x[t + 1]) << 16) | (*y)[t + 1]);
                    }
                }
            }
        }
        ownPairs[u] = pairMoment(own, phi);
        {
            double pairs = 0;
            (parent >= 0 ? trans : own).forEach([&](std::uint64_t, std::int64_t c) {
                pairs += static_cast<double>(c);
            });
            pairCount[u] = std::max(pairs, 1.0);
        }
        if (parent >= 0) {
            sameBin[u] = pairMoment(cross, phi);
            DenseTensor3 t3(m + 1, m + 1, m + 1);
            double count = 0;
            trans.forEach([&](std::uint64_t key, std::int64_t c) {
                t3.addRankOne(static_cast<double>(c), phi.col(static_cast<Eigen::Index>(key >> 32)),
                              phi.col(static_cast<Eigen::Index>((key >> 16) & 0xFFFF)),
                              phi.col(static_cast<Eigen::Index>(key & 0xFFFF)));
                count += static_cast<double>(c);
            });
            t3.matrix() /= std::max(count, 1.0);
            transitionTriples[u] = std::move(t3);
        }
        // Feature scaling of this node's observation (FeatureScaling::InverseSqrtMean of the
        // chromatin engine): mark i scaled by 1/√E[x_i] so that rare marks are not drowned by
        // the constant coordinate and the frequent marks; every moment of the node is taken in
        // these coordinates and the recovered emission columns are unscaled afterwards.
        Eigen::VectorXd scale = Eigen::VectorXd::Ones(m + 1);
        if (options.featureScaling) {
            const Eigen::VectorXd mean = ownPairs[u].col(m);
            double bins = 0;
            for (double c : single) {
                bins += c;
            }
            for (int j = 0; j < m; ++j) { // a mark never present: floor 1/N
                scale[j] = 1.0 / std::sqrt(std::max(mean[j], 1.0 / std::max(bins, 1.0)));
            }
        }
        const Eigen::MatrixXd phiScaled = scale.asDiagonal() * phi;
        // Product projection of this node: U_vᵀφ̃ for every code.
        Eigen::BDCSVD<Eigen::MatrixXd> svd(scale.asDiagonal() * ownPairs[u] * scale.asDiagonal(),
                                           Eigen::ComputeThinU);
        const Eigen::MatrixXd projection = svd.matrixU().leftCols(proj).transpose() * phiScaled;
        paths[u] =
            buildPathIds(data, static_cast<int>(u),
                         parent >= 0 ? &paths[static_cast<size_t>(parent)] : nullptr, projection);
        momentMs[u] += timer.elapsedMs();
        SpectralTreeNodeReport& report = result.nodes[u];
        report.cell = tree.names[u];
        report.pathLength = static_cast<int>(tree.pathFromRoot(static_cast<int>(u)).size());
        const NodeTensor node = skeletensor(data, static_cast<int>(u), paths[u], phiScaled, rank, k,
                                            report, momentMs[u]);
        if (tree.children(static_cast<int>(u)).empty()) {
            paths[u] = PathIds(); // a leaf's path ids are no one's parent ids
        }
        Stopwatch decompositionTimer;
        MarkMomentTargets targets;
        if (options.momentFitSweeps >= 0) {
            targets = nodeMomentTargets(single, phi, m);
        }
        NodeFit fit = fitNodeStarts(data, static_cast<int>(u), node, scale,
                                    options.momentFitSweeps >= 0 ? &targets : nullptr, k, options,
                                    report, cancel);
        decompositionMs[u] += decompositionTimer.elapsedMs();
        emissions[u] = std::move(fit.emissions);
        occupancy[u] = std::move(fit.occupancy);
        occupancy[u] /= std::max(occupancy[u].sum(), 1e-300);
        mus[u].resize(m + 1, k);
        mus[u].topRows(m) = emissions[u].transpose();
        mus[u].row(m).setOnes();
    };
    // Breadth-first order: the nodes of one depth are consecutive.
    for (size_t first = 0; first < n;) {
        const auto depth = tree.pathFromRoot(static_cast<int>(first)).size();
        size_t last = first + 1;
        while (last < n && tree.pathFromRoot(static_cast<int>(last)).size() == depth) {
            ++last;
        }
        parallelFor(static_cast<std::int64_t>(last - first),
                    [&](std::int64_t i) { learnNode(first + static_cast<size_t>(i)); });
        first = last;
        if (progress) {
            progress(static_cast<double>(first) / static_cast<double>(n), "learning cell types");
        }
    }
    for (size_t u = 0; u < n; ++u) { // CPU time summed over the nodes
        result.momentMs += momentMs[u];
        result.decompositionMs += decompositionMs[u];
    }
    paths.clear();
    Stopwatch transitionTimer;
    // Node-local transitions and same-bin joints.
    std::vector<Eigen::MatrixXd> pinv(n);
    for (size_t u = 0; u < n; ++u) {
        pinv[u] = mus[u].completeOrthogonalDecomposition().pseudoInverse(); // K × D
    }
    const Eigen::MatrixXd rootJoint = pinv[0] * ownPairs[0] * pinv[0].transpose();
    std::vector<Eigen::MatrixXd> joint(n);
    std::vector<DenseTensor3> transJoint(n);
    for (size_t u = 1; u < n; ++u) {
        const auto p = static_cast<size_t>(tree.parent[u]);
        joint[u] = pinv[u] * sameBin[u] * pinv[p].transpose(); // K(child) × K(parent)
        transJoint[u] = transitionTriples[u].transformed(pinv[u].transpose(), pinv[u].transpose(),
                                                         pinv[p].transpose());
    }
    // Global labels: root states by decreasing occupancy; each child's state takes the label
    // of the parent state it co-occurs with most (Hungarian on the recovered joint).
    std::vector<std::vector<int>> order(n); // order[u][label] = local state
    order[0].resize(static_cast<size_t>(k));
    std::iota(order[0].begin(), order[0].end(), 0);
    std::stable_sort(order[0].begin(), order[0].end(),
                     [&](int a, int b) { return occupancy[0][a] > occupancy[0][b]; });
    for (size_t u = 1; u < n; ++u) {
        const auto p = static_cast<size_t>(tree.parent[u]);
        Eigen::MatrixXd cost(k, k); // rows: parent label, cols: child local state
        for (int f = 0; f < k; ++f) {
            for (int i = 0; i < k; ++i) {
                cost(f, i) = -joint[u](i, order[p][static_cast<size_t>(f)]);
            }
        }
        order[u] = hungarianAssignment(cost);
        double diagonal = 0, mass = 0;
        for (int f = 0; f < k; ++f) {
            diagonal -= cost(f, order[u][static_cast<size_t>(f)]);
        }
        mass = joint[u].cwiseMax(0.0).sum();
        result.nodes[u].agreement = mass > 0 ? std::clamp(diagonal / mass, 0.0, 1.0) : 0.0;
    }
    TreeHmmParameters& model = result.model;
    model.tree = tree;
    model.numStates = k;
    model.markNames = data.markNames;
    model.emissions.resize(n);
    model.occupancy.resize(n);
    model.childTransitions.resize(n);
    for (size_t u = 0; u < n; ++u) {
        model.emissions[u].resize(k, m);
        model.occupancy[u].resize(k);
        for (int f = 0; f < k; ++f) {
            const int local = order[u][static_cast<size_t>(f)];
            model.emissions[u].row(f) = emissions[u].row(local);
            model.occupancy[u][f] = occupancy[u][local];
        }
    }
    model.rootStart = model.occupancy[0];
    model.rootTransitions.resize(k, k);
    for (int f = 0; f < k; ++f) {
        Eigen::RowVectorXd row(k);
        for (int g = 0; g < k; ++g) {
            row[g] = rootJoint(order[0][static_cast<size_t>(f)], order[0][static_cast<size_t>(g)]);
        }
        model.rootTransitions.row(f) = simplexRow(row, 1.0 / pairCount[0]);
    }
    for (size_t u = 1; u < n; ++u) {
        const auto p = static_cast<size_t>(tree.parent[u]);
        model.childTransitions[u].assign(static_cast<size_t>(k), Eigen::MatrixXd(k, k));
        for (int kp = 0; kp < k; ++kp) {
            const int parentLocal = order[p][static_cast<size_t>(kp)];
            for (int f = 0; f < k; ++f) {
                Eigen::RowVectorXd row(k);
                for (int g = 0; g < k; ++g) {
                    row[g] = transJoint[u](order[u][static_cast<size_t>(f)],
                                           order[u][static_cast<size_t>(g)], parentLocal);
                }
                model.childTransitions[u][static_cast<size_t>(kp)].row(f) =
                    simplexRow(row, 1.0 / pairCount[u]);
            }
        }
    }
    result.transitionMs = transitionTimer.elapsedMs();
    result.elapsedMs = total.elapsedMs();
    return result;
}

} // namespace cx
