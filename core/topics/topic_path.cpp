#include "core/topics/topic_path.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/common/grid.h"
#include "core/tensor/linalg.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cx {

int TopicPath::nearest(double gamma) const {
    return nearestIndex(gammas, gamma);
}

int TopicPath::slotOf(int i, int id) const {
    if (i < 0 || static_cast<size_t>(i) >= ids.size()) {
        return -1;
    }
    const auto& row = ids[static_cast<size_t>(i)];
    const auto it = std::find(row.begin(), row.end(), id);
    return it == row.end() ? -1 : static_cast<int>(it - row.begin());
}

double TopicPath::signedWeight(int i, int id) const {
    const int slot = slotOf(i, id);
    if (slot < 0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return solutions[static_cast<size_t>(i)].signedWeights[slot];
}

std::vector<int> matchComponents(const TopicModelResult& previous, const TopicModelResult& next,
                                 double minCosine) {
    const Eigen::Index kPrev = previous.numComponents();
    const Eigen::Index kNext = next.numComponents();
    std::vector<int> match(static_cast<size_t>(kNext), -1);
    if (kPrev == 0 || kNext == 0 || previous.topics.rows() != next.topics.rows()) {
        return match;
    }
    auto normalised = [](const Eigen::MatrixXd& topics) {
        Eigen::MatrixXd out = topics;
        for (Eigen::Index t = 0; t < out.cols(); ++t) {
            const double norm = out.col(t).norm();
            if (norm > 0) {
                out.col(t) /= norm;
            }
        }
        return out;
    };
    const Eigen::MatrixXd cosine =
        normalised(next.topics).transpose() * normalised(previous.topics);
    // Square cost (padding with cost 1 = cosine 0) so that every next slot gets a column.
    const Eigen::Index n = std::max(kPrev, kNext);
    Eigen::MatrixXd cost = Eigen::MatrixXd::Ones(n, n);
    cost.topLeftCorner(kNext, kPrev) = 1.0 - cosine.array();
    const std::vector<int> assignment = hungarianAssignment(cost);
    for (Eigen::Index t = 0; t < kNext; ++t) {
        const int p = assignment[static_cast<size_t>(t)];
        if (p >= 0 && p < kPrev && cosine(t, p) >= minCosine) {
            match[static_cast<size_t>(t)] = p;
        }
    }
    return match;
}

TopicPath solveTopicPath(const ContrastiveTopicEngine& engine, const std::vector<double>& gammas,
                         const TopicModelOptions& options, const CancelToken& cancel,
                         const std::function<void(const TopicPath&, int)>& onPoint) {
    for (size_t i = 0; i < gammas.size(); ++i) {
        validateGamma(gammas[i]);
        if (i > 0 && gammas[i] < gammas[i - 1]) {
            throw InputError("parameter gammas: a path needs a non-decreasing grid (" +
                             formatNumber(gammas[i - 1]) + " is followed by " +
                             formatNumber(gammas[i]) + ")");
        }
    }
    TopicPath path;
    path.gammas = gammas;
    path.solutions.resize(gammas.size());
    path.ids.resize(gammas.size());
    path.failures.resize(gammas.size());
    int last = -1; // the last point with a solution
    for (size_t i = 0; i < gammas.size(); ++i) {
        throwIfCancelled(cancel);
        TopicModelResult& solution = path.solutions[i];
        try {
            solution = last < 0
                           ? engine.solve(gammas[i], options, cancel)
                           : engine.solveFrom(gammas[i], options,
                                              path.solutions[static_cast<size_t>(last)], cancel);
        } catch (const InputError& error) {
            path.failures[i] = error.what();
            solution = TopicModelResult{};
            solution.gamma = gammas[i];
            if (onPoint) {
                onPoint(path, static_cast<int>(i));
            }
            continue;
        }
        if (solution.numForegroundSpecific() == 0) {
            path.failures[i] =
                "no foreground-specific component at gamma = " + formatNumber(gammas[i]);
        }
        std::vector<int>& ids = path.ids[i];
        ids.assign(static_cast<size_t>(solution.numComponents()), -1);
        if (last >= 0) {
            const std::vector<int> match =
                matchComponents(path.solutions[static_cast<size_t>(last)], solution);
            for (size_t t = 0; t < match.size(); ++t) {
                if (match[t] >= 0) {
                    ids[t] = path.ids[static_cast<size_t>(last)][static_cast<size_t>(match[t])];
                }
            }
        }
        for (int& id : ids) {
            if (id < 0) {
                id = path.numIdentities++;
            }
        }
        last = static_cast<int>(i);
        if (onPoint) {
            onPoint(path, static_cast<int>(i));
        }
    }
    return path;
}

std::vector<int> identitiesOnPath(const TopicPath& path, const TopicModelResult& result) {
    std::vector<int> ids(static_cast<size_t>(result.numComponents()), -1);
    const int i = path.nearest(result.gamma);
    if (i < 0 || path.solutions[static_cast<size_t>(i)].numComponents() == 0) {
        return ids;
    }
    const std::vector<int> match = matchComponents(path.solutions[static_cast<size_t>(i)], result);
    for (size_t t = 0; t < match.size(); ++t) {
        if (match[t] >= 0) {
            ids[t] = path.ids[static_cast<size_t>(i)][static_cast<size_t>(match[t])];
        }
    }
    return ids;
}

namespace {

/// Each identity's mean topic over the points where it is present (columns 0 … numIdentities −
/// 1; zero for an unused id), as a result matchComponents can take. Empty when no point has a
/// solution.
TopicModelResult identityRepresentatives(const TopicPath& path) {
    TopicModelResult out;
    Eigen::Index rows = 0;
    for (const TopicModelResult& s : path.solutions) {
        rows = std::max(rows, s.topics.rows());
    }
    if (rows == 0 || path.numIdentities <= 0) {
        return out;
    }
    out.topics = Eigen::MatrixXd::Zero(rows, path.numIdentities);
    out.lambdas = Eigen::VectorXd::Zero(path.numIdentities);
    for (size_t i = 0; i < path.solutions.size() && i < path.ids.size(); ++i) {
        const TopicModelResult& s = path.solutions[i];
        if (s.topics.rows() != rows) {
            continue;
        }
        for (size_t slot = 0; slot < path.ids[i].size(); ++slot) {
            const int id = path.ids[i][slot];
            if (id >= 0 && id < path.numIdentities &&
                static_cast<Eigen::Index>(slot) < s.topics.cols()) {
                out.topics.col(id) += s.topics.col(static_cast<Eigen::Index>(slot));
            }
        }
    }
    return out;
}

} // namespace

void carryIdentities(const TopicPath& previous, TopicPath& next, double minCosine) {
    const TopicModelResult before = identityRepresentatives(previous);
    const TopicModelResult after = identityRepresentatives(next);
    if (before.numComponents() == 0 || after.numComponents() == 0 ||
        before.topics.rows() != after.topics.rows()) {
        return;
    }
    // Unused ids of `previous` (gaps) have a zero column: cosine 0, never matched. The mean is
    // a sum here: the cosine does not see the scale.
    const std::vector<int> match = matchComponents(before, after, minCosine);
    std::vector<int> relabel(static_cast<size_t>(next.numIdentities), -1);
    int fresh = previous.numIdentities;
    for (size_t id = 0; id < relabel.size(); ++id) {
        relabel[id] = match[id] >= 0 ? match[id] : fresh++;
    }
    std::vector<int> canonical(static_cast<size_t>(fresh), -1);
    for (size_t id = 0; id < relabel.size(); ++id) {
        int original = static_cast<int>(id);
        if (!next.canonicalIds.empty()) {
            original = id < next.canonicalIds.size() ? next.canonicalIds[id] : -1;
        }
        canonical[static_cast<size_t>(relabel[id])] = original;
    }
    for (std::vector<int>& row : next.ids) {
        for (int& id : row) {
            if (id >= 0 && static_cast<size_t>(id) < relabel.size()) {
                id = relabel[static_cast<size_t>(id)];
            }
        }
    }
    next.numIdentities = fresh;
    next.canonicalIds = std::move(canonical);
}

int canonicalIdentity(const TopicPath& path, int id) {
    if (path.canonicalIds.empty()) {
        return id;
    }
    return id >= 0 && static_cast<size_t>(id) < path.canonicalIds.size()
               ? path.canonicalIds[static_cast<size_t>(id)]
               : -1;
}

int identityOfCanonical(const TopicPath& path, int canonical) {
    if (path.canonicalIds.empty()) {
        return canonical;
    }
    const auto it = std::find(path.canonicalIds.begin(), path.canonicalIds.end(), canonical);
    return canonical < 0 || it == path.canonicalIds.end()
               ? -1
               : static_cast<int>(it - path.canonicalIds.begin());
}

std::vector<double> foregroundSetChanges(const TopicPath& path) {
    std::vector<double> out;
    std::vector<int> previous;
    bool havePrevious = false;
    for (size_t i = 0; i < path.gammas.size(); ++i) {
        if (path.solutions[i].numComponents() == 0) {
            continue;
        }
        std::vector<int> current = foregroundIdentities(path, i);
        if (havePrevious && current != previous) {
            out.push_back(path.gammas[i]);
        }
        previous = std::move(current);
        havePrevious = true;
    }
    return out;
}

std::vector<int> foregroundIdentities(const TopicPath& path, size_t i) {
    std::vector<int> out;
    const TopicModelResult& s = path.solutions[i];
    for (int t = 0; t < s.numComponents(); ++t) {
        const auto slot = static_cast<size_t>(t);
        if (slot < s.foregroundSpecific.size() && s.foregroundSpecific[slot] &&
            slot < path.ids[i].size()) {
            out.push_back(path.ids[i][slot]);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace cx
