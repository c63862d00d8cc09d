// Exact joint decoding against brute force: the node-by-node meta-chain (every K and node count,
// deep and wide trees, missing bins) equals a forward–backward over the explicit K^n × K^n
// transition matrix built from the tree HMM's definition.
#include "core/tree/tree_decoding.h"

#include "core/common/cancel.h"
#include "core/common/parallel.h"
#include "core/tree/tree_hmm.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace cx {
namespace {

/// The digits of meta-state i (node v's state is digit v, node 0 least significant).
std::vector<int> digitsOf(std::int64_t i, int k, int nodes) {
    std::vector<int> digits(static_cast<size_t>(nodes));
    for (int v = 0; v < nodes; ++v) {
        digits[static_cast<size_t>(v)] = static_cast<int>(i % k);
        i /= k;
    }
    return digits;
}

struct BruteForce {
    std::vector<std::vector<std::uint16_t>> states; ///< [node][bin]: argmax of the marginal
    std::vector<std::vector<double>> margin;        ///< [node][bin]: best − second posterior
    double logLikelihood = 0;
};

/// Scaled forward–backward over every joint state of every node, with the transition matrix
/// written out from the definition: P(h' | h) = root(h₀, h'₀) · Π_children child[h'_parent](h_u,
/// h'_u); start = rootStart · Π occupancy; emission = Π_v (code missing ? 1 : Bernoulli).
BruteForce bruteForce(const TreeHmmParameters& model, const MultiCellTracks& tracks, int chrom) {
    const int k = model.numStates;
    const int nodes = model.numNodes();
    std::int64_t size = 1;
    for (int v = 0; v < nodes; ++v) {
        size *= k;
    }
    const auto n = static_cast<Eigen::Index>(size);
    Eigen::MatrixXd transition(n, n);
    Eigen::VectorXd start(n);
    for (Eigen::Index from = 0; from < n; ++from) {
        const std::vector<int> old = digitsOf(from, k, nodes);
        start(from) = model.rootStart(old[0]);
        for (int v = 1; v < nodes; ++v) {
            start(from) *= model.occupancy[static_cast<size_t>(v)](old[static_cast<size_t>(v)]);
        }
        for (Eigen::Index to = 0; to < n; ++to) {
            const std::vector<int> now = digitsOf(to, k, nodes);
            double p = model.rootTransitions(old[0], now[0]);
            for (int v = 1; v < nodes; ++v) {
                const int parent = model.tree.parent[static_cast<size_t>(v)];
                p *= model.childTransitions[static_cast<size_t>(v)][static_cast<size_t>(
                    now[static_cast<size_t>(parent)])](old[static_cast<size_t>(v)],
                                                       now[static_cast<size_t>(v)]);
            }
            transition(from, to) = p;
        }
    }
    std::vector<std::vector<double>> tables;
    for (int v = 0; v < nodes; ++v) {
        tables.push_back(codeLikelihoods(model.emissions[static_cast<size_t>(v)]));
    }
    const auto length = static_cast<size_t>(tracks.chromBins[static_cast<size_t>(chrom)]);
    auto emission = [&](size_t t) {
        Eigen::VectorXd e = Eigen::VectorXd::Ones(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const std::vector<int> h = digitsOf(i, k, nodes);
            for (int v = 0; v < nodes; ++v) {
                const std::uint16_t code =
                    tracks.codes[static_cast<size_t>(v)][static_cast<size_t>(chrom)][t];
                if (code != kMissingObservation) {
                    e(i) *= tables[static_cast<size_t>(v)]
                                  [static_cast<size_t>(code) * static_cast<size_t>(k) +
                                   static_cast<size_t>(h[static_cast<size_t>(v)])];
                }
            }
        }
        return e;
    };
    BruteForce out;
    std::vector<Eigen::VectorXd> alpha(length);
    for (size_t t = 0; t < length; ++t) {
        Eigen::VectorXd a = t == 0 ? start : Eigen::VectorXd(transition.transpose() * alpha[t - 1]);
        a = a.cwiseProduct(emission(t));
        const double sum = a.sum();
        out.logLikelihood += std::log(sum);
        alpha[t] = a / sum;
    }
    out.states.assign(static_cast<size_t>(nodes), std::vector<std::uint16_t>(length));
    out.margin.assign(static_cast<size_t>(nodes), std::vector<double>(length));
    Eigen::VectorXd beta = Eigen::VectorXd::Ones(n);
    for (size_t tt = length; tt-- > 0;) {
        if (tt + 1 < length) {
            beta = transition * beta.cwiseProduct(emission(tt + 1));
            // Where α = 0 the posterior is 0 whatever β is, and no reachable state of the bin
            // before has a transition there: β = 0 changes nothing, and keeps the unreachable
            // states' β (which can grow bin by bin) from pushing the others below double range.
            beta = (alpha[tt].array() > 0).select(beta, 0.0);
            beta /= beta.maxCoeff();
        }
        Eigen::VectorXd posterior = alpha[tt].cwiseProduct(beta);
        posterior /= posterior.sum();
        for (int v = 0; v < nodes; ++v) {
            std::vector<double> marginal(static_cast<size_t>(k), 0.0);
            for (Eigen::Index i = 0; i < n; ++i) {
                marginal[static_cast<size_t>(digitsOf(i, k, nodes)[static_cast<size_t>(v)])] +=
                    posterior(i);
            }
            int best = 0;
            for (int s = 1; s < k; ++s) {
                best = marginal[static_cast<size_t>(s)] > marginal[static_cast<size_t>(best)]
                           ? s
                           : best;
            }
            double second = 0;
            for (int s = 0; s < k; ++s) {
                if (s != best) {
                    second = std::max(second, marginal[static_cast<size_t>(s)]);
                }
            }
            out.states[static_cast<size_t>(v)][tt] = static_cast<std::uint16_t>(best);
            out.margin[static_cast<size_t>(v)][tt] = marginal[static_cast<size_t>(best)] - second;
        }
    }
    return out;
}

/// Structural zeros: every cell type's last state cannot be entered from another state (its
/// column is 0 but for staying) nor started in, so the meta-states with a last state in any
/// digit are unreachable for good while the others mix (the forward pass's α = 0 there).
TreeHmmParameters withStructuralZeros(TreeHmmParameters model) {
    const int k = model.numStates;
    auto closeLastState = [k](Eigen::MatrixXd& m) {
        for (int i = 0; i + 1 < k; ++i) {
            m(i, k - 1) = 0;
            m.row(i) /= m.row(i).sum();
        }
    };
    closeLastState(model.rootTransitions);
    model.rootStart(k - 1) = 0;
    model.rootStart /= model.rootStart.sum();
    for (int v = 1; v < model.numNodes(); ++v) {
        for (Eigen::MatrixXd& m : model.childTransitions[static_cast<size_t>(v)]) {
            closeLastState(m);
        }
        Eigen::VectorXd& occupancy = model.occupancy[static_cast<size_t>(v)];
        occupancy(k - 1) = 0;
        occupancy /= occupancy.sum();
    }
    return model;
}

/// The root turns 0 → 1 → … → K−1 → 0 for sure and starts in 0: the reachable meta-states
/// change at every bin and never settle (two-thread decoding falls back to one thread).
TreeHmmParameters withCyclingRoot(TreeHmmParameters model) {
    const int k = model.numStates;
    model.rootTransitions.setZero();
    for (int i = 0; i < k; ++i) {
        model.rootTransitions(i, (i + 1) % k) = 1;
    }
    model.rootStart.setZero();
    model.rootStart(0) = 1;
    return model;
}

/// A random tree HMM on `spec` with K states, sampled on short chromosomes, a few bins of each
/// cell missing; joint decoding must equal brute force bin for bin (where the marginal's best
/// state leads by more than rounding) and in log-likelihood. One chromosome on two threads
/// decodes it on two threads (MetaChain::runOnTwoThreads).
void expectJointEqualsBruteForce(const std::string& spec, int k, std::uint64_t seed,
                                 const std::vector<std::int64_t>& bins = {60, 45},
                                 TreeHmmParameters (*change)(TreeHmmParameters) = nullptr) {
    SCOPED_TRACE(spec + " K=" + std::to_string(k) + " chromosomes " + std::to_string(bins.size()) +
                 (change != nullptr ? ", changed" : ""));
    const TreeSpec tree = parseTreeSpec(spec);
    SyntheticTreeOptions options;
    options.numStates = k;
    options.numMarks = 4;
    options.childSignal = 0.6; // weak children: their marginals lean on the tree
    TreeHmmParameters model = randomTreeHmm(tree, options, seed);
    if (change != nullptr) {
        model = change(model);
    }
    MultiCellTracks tracks = sampleTreeTracks(model, bins, seed + 1);
    std::mt19937_64 random(seed + 2);
    for (auto& cell : tracks.codes) {
        for (auto& chrom : cell) {
            for (int m = 0; m < 4; ++m) {
                chrom[random() % chrom.size()] = kMissingObservation;
            }
        }
    }
    TreeDecodingOptions joint;
    joint.mode = TreeDecodingMode::Joint;
    const TreeSegmentation decoded = decodeTree(tracks, model, joint);
    ASSERT_EQ(decoded.mode, TreeDecodingMode::Joint);
    double logLikelihood = 0;
    int compared = 0;
    for (int c = 0; c < tracks.numChroms(); ++c) {
        const BruteForce truth = bruteForce(model, tracks, c);
        logLikelihood += truth.logLikelihood;
        for (int v = 0; v < model.numNodes(); ++v) {
            const auto& got = decoded.states[static_cast<size_t>(v)][static_cast<size_t>(c)];
            for (size_t t = 0; t < got.size(); ++t) {
                if (truth.margin[static_cast<size_t>(v)][t] < 1e-9) {
                    continue; // a tie up to rounding: either state is right
                }
                ++compared;
                ASSERT_EQ(got[t], truth.states[static_cast<size_t>(v)][t])
                    << "cell " << tracks.cells[static_cast<size_t>(v)] << ", chromosome " << c
                    << ", bin " << t;
            }
        }
    }
    std::int64_t total = 0;
    for (const std::int64_t b : bins) {
        total += b;
    }
    EXPECT_GT(compared, total * model.numNodes() * 8 / 10); // ties to rounding are rare
    EXPECT_NEAR(decoded.logLikelihood, logLikelihood, 1e-9 * std::abs(logLikelihood));
}

TEST(TreeDecoding, JointEqualsBruteForceOnWideAndDeepTrees) {
    expectJointEqualsBruteForce("R>A,B,C", 3, 11);       // 4 nodes: the general meta-chain
    expectJointEqualsBruteForce("R>A,B;A>C;C>D", 2, 12); // parents at every depth
    expectJointEqualsBruteForce("R>A;A>B;B>C", 3, 13);   // a path of 4
    expectJointEqualsBruteForce("R>A,B", 4, 14);         // 3 nodes: the compile-time chain
    expectJointEqualsBruteForce("R>A", 9, 15);           // K beyond the compile-time cases
    expectJointEqualsBruteForce("R>A,B,C", 6, 16);       // the demo's shape (1,296 states)
}

TEST(TreeDecoding, OneChromosomeOnTwoThreadsEqualsBruteForceAndOneThread) {
    const test::ScopedThreadCount two(2);
    expectJointEqualsBruteForce("R>A,B,C", 3, 41, {150});
    expectJointEqualsBruteForce("R>A,B;A>C;C>D", 3, 42, {151}, withStructuralZeros); // 32 of 243
    expectJointEqualsBruteForce("R>A,B,C", 3, 43, {3}, withStructuralZeros);
    expectJointEqualsBruteForce("R>A,B,C", 3, 47, {90}, withCyclingRoot);
    expectJointEqualsBruteForce("R>A,B", 9, 44, {40}); // K beyond the compile-time cases
    // The same recursions on one thread: the same log-likelihood bit for bit, the same states.
    const TreeHmmParameters model =
        withStructuralZeros(randomTreeHmm(parseTreeSpec("R>A,B,C"), SyntheticTreeOptions{}, 45));
    const MultiCellTracks tracks = sampleTreeTracks(model, {2000}, 46);
    TreeDecodingOptions joint;
    joint.mode = TreeDecodingMode::Joint;
    const TreeSegmentation split = decodeTree(tracks, model, joint);
    setThreadCount(1);
    const TreeSegmentation whole = decodeTree(tracks, model, joint);
    EXPECT_EQ(split.logLikelihood, whole.logLikelihood);
    EXPECT_EQ(split.states, whole.states);
}

TEST(TreeDecoding, PathMarginalEqualsBruteForceOnThePath) {
    // Path decoding of a cell is joint decoding of its root path alone (Lemma 1): compare the
    // deepest cell of a 5-node tree with the brute force over the 4-node path model.
    const TreeSpec tree = parseTreeSpec("R>A,B;A>C;C>D");
    SyntheticTreeOptions options;
    options.numStates = 3;
    options.numMarks = 4;
    const TreeHmmParameters model = randomTreeHmm(tree, options, 21);
    const MultiCellTracks tracks = sampleTreeTracks(model, {80}, 22);
    TreeDecodingOptions path;
    path.mode = TreeDecodingMode::PathMarginal;
    const TreeSegmentation decoded = decodeTree(tracks, model, path);
    ASSERT_EQ(decoded.mode, TreeDecodingMode::PathMarginal);
    // The path R → A → C → D as a tree HMM of its own (the nodes renumbered along the path).
    const std::vector<int> nodes = model.tree.pathFromRoot(model.tree.numNodes() - 1);
    ASSERT_EQ(nodes.size(), 4U);
    TreeHmmParameters sub;
    sub.tree = parseTreeSpec("R>A;A>C;C>D");
    sub.numStates = model.numStates;
    sub.markNames = model.markNames;
    sub.rootStart = model.rootStart;
    sub.rootTransitions = model.rootTransitions;
    MultiCellTracks subTracks = tracks;
    subTracks.codes.clear();
    subTracks.cells = sub.tree.names;
    for (const int v : nodes) {
        sub.emissions.push_back(model.emissions[static_cast<size_t>(v)]);
        sub.childTransitions.push_back(model.childTransitions[static_cast<size_t>(v)]);
        sub.occupancy.push_back(model.occupancy[static_cast<size_t>(v)]);
        subTracks.codes.push_back(tracks.codes[static_cast<size_t>(v)]);
    }
    const BruteForce truth = bruteForce(sub, subTracks, 0);
    const auto& got = decoded.states[static_cast<size_t>(nodes.back())][0];
    int compared = 0;
    for (size_t t = 0; t < got.size(); ++t) {
        if (truth.margin[3][t] >= 1e-9) {
            ++compared;
            ASSERT_EQ(got[t], truth.states[3][t]) << "bin " << t;
        }
    }
    EXPECT_GT(compared, 70);
}

TEST(TreeDecoding, ACancelledTokenStopsEveryChain) {
    // A long single chromosome: decoding polls the token inside it (not only between jobs), in
    // the general chain (4 nodes) and the compile-time one (paths of ≤ 3 nodes).
    const TreeSpec tree = parseTreeSpec("R>A,B,C");
    SyntheticTreeOptions options;
    options.numStates = 3;
    const TreeHmmParameters model = randomTreeHmm(tree, options, 31);
    const MultiCellTracks tracks = sampleTreeTracks(model, {20000}, 32);
    const CancelToken cancel = CancelToken::create();
    cancel.cancel();
    for (const TreeDecodingMode mode : {TreeDecodingMode::Joint, TreeDecodingMode::PathMarginal}) {
        TreeDecodingOptions decoding;
        decoding.mode = mode;
        EXPECT_THROW(decodeTree(tracks, model, decoding, cancel), Cancelled) << toString(mode);
    }
}

} // namespace
} // namespace cx
