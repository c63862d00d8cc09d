#include "core/tree/tree_hmm.h"

#include "core/common/random.h"
#include "core/hmm/hmm_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cx {

namespace {

void checkDistribution(const Eigen::VectorXd& p, const char* where, const std::string& what) {
    if (!p.allFinite() || (p.array() < -1e-9).any() || std::abs(p.sum() - 1.0) > 1e-6) {
        throw std::invalid_argument(std::string(where) + ": " + what + " is not a distribution");
    }
}

/// Draws an index from a discrete distribution.
int draw(Rng& rng, const Eigen::Ref<const Eigen::RowVectorXd>& p) {
    double u = rng.uniform();
    for (Eigen::Index i = 0; i + 1 < p.size(); ++i) {
        u -= p[i];
        if (u < 0) {
            return static_cast<int>(i);
        }
    }
    return static_cast<int>(p.size() - 1);
}

} // namespace

void TreeHmmParameters::validate(const char* where) const {
    const int k = numStates;
    const auto n = static_cast<size_t>(numNodes());
    if (k < 1 || emissions.size() != n || childTransitions.size() != n || occupancy.size() != n ||
        rootStart.size() != k || rootTransitions.rows() != k || rootTransitions.cols() != k) {
        throw std::invalid_argument(std::string(where) + ": tree HMM shapes disagree");
    }
    checkDistribution(rootStart, where, "the root's start distribution");
    for (int i = 0; i < k; ++i) {
        checkDistribution(rootTransitions.row(i).transpose(), where, "a root transition row");
    }
    for (size_t v = 0; v < n; ++v) {
        if (emissions[v].rows() != k || emissions[v].cols() != numMarks() ||
            (emissions[v].array() < 0).any() || (emissions[v].array() > 1).any()) {
            throw std::invalid_argument(std::string(where) + ": emissions of " + tree.names[v] +
                                        " are not K x M probabilities");
        }
        if (v == 0) {
            continue;
        }
        if (childTransitions[v].size() != static_cast<size_t>(k)) {
            throw std::invalid_argument(std::string(where) + ": transitions of " + tree.names[v] +
                                        " need K matrices");
        }
        for (const auto& m : childTransitions[v]) {
            for (int i = 0; i < k; ++i) {
                checkDistribution(m.row(i).transpose(), where,
                                  "a transition row of " + tree.names[v]);
            }
        }
    }
}

TreeHmmParameters randomTreeHmm(const TreeSpec& tree, const SyntheticTreeOptions& options,
                                std::uint64_t seed) {
    const int k = options.numStates;
    const int m = options.numMarks;
    if (k < 1 || m < 1 || m > kMaxTreeMarks || tree.numNodes() < 1) {
        throw std::invalid_argument("randomTreeHmm: need K >= 1, 1 <= M <= 15 and a tree");
    }
    Rng rng(seed);
    TreeHmmParameters model;
    model.tree = tree;
    model.numStates = k;
    for (int j = 0; j < m; ++j) {
        model.markNames.push_back("M" + std::to_string(j + 1));
    }
    const auto n = static_cast<size_t>(tree.numNodes());
    model.emissions.resize(n);
    model.childTransitions.resize(n);
    model.occupancy.assign(n, Eigen::VectorXd::Constant(k, 1.0 / k));
    // Root emissions: each state has a few strong marks (a "profile") and weak others.
    Eigen::MatrixXd root(k, m);
    for (int s = 0; s < k; ++s) {
        for (int j = 0; j < m; ++j) {
            const bool strong = (j % k) == s || rng.uniform() < 0.15;
            root(s, j) = strong ? 0.6 + 0.35 * rng.uniform() : 0.02 + 0.12 * rng.uniform();
        }
    }
    model.emissions[0] = root;
    for (size_t v = 1; v < n; ++v) {
        const Eigen::MatrixXd& parent = model.emissions[static_cast<size_t>(tree.parent[v])];
        Eigen::MatrixXd e = parent;
        for (Eigen::Index i = 0; i < e.size(); ++i) {
            e.data()[i] = std::clamp(e.data()[i] + options.emissionNoise * (2 * rng.uniform() - 1),
                                     0.02, 0.98);
        }
        model.emissions[v] = e;
    }
    for (size_t v = 1; v < n; ++v) {
        model.emissions[v] =
            (0.5 + options.childSignal * (model.emissions[v].array() - 0.5)).matrix();
    }
    model.rootTransitions =
        Eigen::MatrixXd::Constant(k, k, k > 1 ? (1 - options.stay) / (k - 1) : 1.0);
    model.rootTransitions.diagonal().setConstant(k > 1 ? options.stay : 1.0);
    model.rootStart = Eigen::VectorXd::Constant(k, 1.0 / k);
    const double rest = std::max(0.0, 1.0 - options.follow - options.keep);
    for (size_t v = 1; v < n; ++v) {
        model.childTransitions[v].resize(static_cast<size_t>(k));
        for (int p = 0; p < k; ++p) {
            Eigen::MatrixXd t = Eigen::MatrixXd::Constant(k, k, rest / k);
            for (int i = 0; i < k; ++i) {
                t(i, p) += options.follow;
                t(i, i) += options.keep;
            }
            for (int i = 0; i < k; ++i) {
                t.row(i) /= t.row(i).sum();
            }
            model.childTransitions[v][static_cast<size_t>(p)] = t;
        }
    }
    return model;
}

MultiCellTracks sampleTreeTracks(const TreeHmmParameters& model,
                                 const std::vector<std::int64_t>& chromBins, std::uint64_t seed,
                                 std::vector<std::vector<std::vector<std::uint16_t>>>* states) {
    model.validate("sampleTreeTracks");
    Rng rng(seed);
    const auto n = static_cast<size_t>(model.numNodes());
    const int m = model.numMarks();
    MultiCellTracks out;
    out.cells = model.tree.names;
    out.markNames = model.markNames;
    out.chromBins = chromBins;
    for (size_t c = 0; c < chromBins.size(); ++c) {
        out.chroms.push_back("chr" + std::to_string(c + 1));
    }
    out.codes.assign(n, std::vector<std::vector<std::uint16_t>>(chromBins.size()));
    out.files.assign(n, std::vector<std::string>(chromBins.size(), "synthetic"));
    if (states) {
        states->assign(n, std::vector<std::vector<std::uint16_t>>(chromBins.size()));
    }
    std::vector<int> current(n, 0);
    for (size_t c = 0; c < chromBins.size(); ++c) {
        const auto length = static_cast<size_t>(chromBins[c]);
        for (size_t v = 0; v < n; ++v) {
            out.codes[v][c].resize(length);
            if (states) {
                (*states)[v][c].resize(length);
            }
        }
        for (size_t t = 0; t < length; ++t) {
            for (size_t v = 0; v < n; ++v) {
                if (t == 0) {
                    current[v] = v == 0 ? draw(rng, model.rootStart.transpose())
                                        : current[static_cast<size_t>(model.tree.parent[v])];
                } else if (v == 0) {
                    current[v] = draw(rng, model.rootTransitions.row(current[v]));
                } else {
                    const int parentNew = current[static_cast<size_t>(model.tree.parent[v])];
                    current[v] = draw(
                        rng,
                        model.childTransitions[v][static_cast<size_t>(parentNew)].row(current[v]));
                }
                std::uint16_t code = 0;
                for (int j = 0; j < m; ++j) {
                    if (rng.uniform() < model.emissions[v](current[v], j)) {
                        code = static_cast<std::uint16_t>(code | (1u << j));
                    }
                }
                out.codes[v][c][t] = code;
                if (states) {
                    (*states)[v][c][t] = static_cast<std::uint16_t>(current[v]);
                }
            }
        }
    }
    return out;
}

std::vector<double> codeLikelihoods(const Eigen::MatrixXd& emissions) {
    const int k = static_cast<int>(emissions.rows());
    const int m = static_cast<int>(emissions.cols());
    const size_t codes = size_t{1} << m;
    std::vector<double> table(codes * static_cast<size_t>(k));
    for (size_t code = 0; code < codes; ++code) {
        for (int s = 0; s < k; ++s) {
            double p = 1;
            for (int j = 0; j < m; ++j) {
                const double e =
                    std::clamp(emissions(s, j), kProbabilityFloor, 1 - kProbabilityFloor);
                p *= ((code >> j) & 1) ? e : 1 - e;
            }
            table[code * static_cast<size_t>(k) + static_cast<size_t>(s)] = p;
        }
    }
    return table;
}

} // namespace cx
