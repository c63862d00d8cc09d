#include "core/hmm/hmm_path.h"

#include "core/common/grid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace cx {

namespace {

/// Margin by which a fresh solve must beat the continued one (invalid mass in weight units,
/// residual relative): a better explanation of the data, not a tie.
constexpr double kPathTie = 0.01;

bool freshIsBetter(const ContrastiveHmmResult& fresh, const ContrastiveHmmResult& continued) {
    const bool freshValid = !(fresh.invalidMass > 0);
    const bool continuedValid = !(continued.invalidMass > 0);
    if (freshValid != continuedValid) {
        return freshValid;
    }
    if (fresh.invalidMass < continued.invalidMass - kPathTie) {
        return true;
    }
    if (fresh.invalidMass > continued.invalidMass + kPathTie) {
        return false;
    }
    return fresh.residual < continued.residual - kPathTie;
}

/// Solves at γ from fresh starts and, when `previous` has components to start from and the
/// method is deflation, also continued from them; returns the continued run unless the fresh
/// one is better (freshIsBetter). `continued` says which was kept.
ContrastiveHmmResult solveContinued(const SequenceMoments& moments, double gamma,
                                    const ContrastiveHmmOptions& options,
                                    const ContrastiveHmmResult* previous, const CancelToken& cancel,
                                    bool& continued) {
    ContrastiveHmmOptions fresh = options;
    fresh.warmStarts.resize(0, 0);
    ContrastiveHmmResult result = solveContrastiveHmm(moments, gamma, fresh, cancel);
    continued = false;
    if (previous != nullptr && options.initialization == AsymmetricInit::Deflation &&
        previous->warmStarts.size() > 0) {
        ContrastiveHmmOptions warm = fresh;
        warm.warmStarts = previous->warmStarts;
        ContrastiveHmmResult next = solveContrastiveHmm(moments, gamma, warm, cancel);
        if (!freshIsBetter(result, next)) {
            result = std::move(next);
            continued = true;
        }
    }
    return result;
}

} // namespace

int HmmPath::nearest(double gamma) const {
    return nearestIndex(gammas, gamma);
}

bool HmmPath::isValid(int i) const {
    const ContrastiveHmmResult& r = solutions.at(static_cast<size_t>(i));
    return r.numSpecific > 0 && !(r.specificInvalidMass() > 0);
}

int HmmPath::validPoints() const {
    int count = 0;
    for (size_t i = 0; i < solutions.size(); ++i) {
        count += isValid(static_cast<int>(i)) ? 1 : 0;
    }
    return count;
}

std::vector<std::pair<double, double>> HmmPath::validRanges() const {
    std::vector<std::pair<double, double>> ranges;
    bool open = false;
    for (size_t i = 0; i < solutions.size(); ++i) {
        if (isValid(static_cast<int>(i))) {
            if (!open) {
                ranges.emplace_back(gammas[i], gammas[i]);
                open = true;
            }
            ranges.back().second = gammas[i];
        } else {
            open = false;
        }
    }
    return ranges;
}

namespace {

int countNewIdentities(const HmmPath& path, bool specificOnly) {
    int changes = 0;
    for (size_t i = 1; i < path.ids.size(); ++i) {
        const std::vector<int>& before = path.ids[i - 1];
        for (size_t t = 0; t < path.ids[i].size(); ++t) {
            if (specificOnly && !(path.solutions[i].weights[static_cast<Eigen::Index>(t)] > 0)) {
                continue;
            }
            if (std::find(before.begin(), before.end(), path.ids[i][t]) == before.end()) {
                ++changes;
            }
        }
    }
    return changes;
}

} // namespace

int HmmPath::identityChanges() const {
    return countNewIdentities(*this, false);
}

int HmmPath::specificIdentityChanges() const {
    return countNewIdentities(*this, true);
}

std::vector<int> continueIdentities(const Eigen::MatrixXd& previous,
                                    const std::vector<int>& previousIds,
                                    const Eigen::MatrixXd& next, int& numIdentities) {
    if (previous.cols() != next.cols() ||
        previousIds.size() != static_cast<size_t>(previous.rows())) {
        throw std::invalid_argument("continueIdentities: profiles of different marks or ids");
    }
    std::vector<int> ids(static_cast<size_t>(next.rows()), -1);
    if (previous.rows() > 0 && next.rows() > 0) {
        // matchStates needs the reference to have at most as many rows as the estimate.
        const bool previousIsReference = previous.rows() <= next.rows();
        const std::vector<int> match =
            previousIsReference ? matchStates(previous, next) : matchStates(next, previous);
        for (size_t i = 0; i < match.size(); ++i) {
            const auto p = static_cast<Eigen::Index>(previousIsReference ? i : match[i]);
            const auto n = static_cast<Eigen::Index>(previousIsReference ? match[i] : i);
            if (p < 0 || n < 0) {
                continue;
            }
            const double change = (previous.row(p) - next.row(n)).cwiseAbs().maxCoeff();
            if (change <= kStateIdentityMaxMarkChange) {
                ids[static_cast<size_t>(n)] = previousIds[static_cast<size_t>(p)];
            }
        }
    }
    for (int& id : ids) {
        if (id < 0) {
            id = numIdentities++;
        }
    }
    return ids;
}

HmmPath solveHmmPath(const SequenceMoments& moments, const std::vector<double>& gammas,
                     const ContrastiveHmmOptions& options, HmmPathStarts starts,
                     const CancelToken& cancel,
                     const std::function<void(const HmmPath&, int)>& onPoint) {
    for (size_t i = 0; i < gammas.size(); ++i) {
        if (!std::isfinite(gammas[i]) || gammas[i] < 0 || (i > 0 && gammas[i] < gammas[i - 1])) {
            throw std::invalid_argument("solveHmmPath: the γ grid must be finite, >= 0 and "
                                        "non-decreasing (point " +
                                        std::to_string(i + 1) + ")");
        }
    }
    HmmPath path;
    for (size_t i = 0; i < gammas.size(); ++i) {
        throwIfCancelled(cancel);
        const double gamma = gammas[i];
        const bool fromNeighbour = i > 0 && starts == HmmPathStarts::Continued;
        bool continued = false;
        ContrastiveHmmResult result =
            solveContinued(moments, gamma, options,
                           fromNeighbour ? &path.solutions.back() : nullptr, cancel, continued);
        std::vector<int> ids;
        if (path.solutions.empty()) {
            ids = continueIdentities(Eigen::MatrixXd(0, result.markProbabilities.cols()), {},
                                     result.markProbabilities, path.numIdentities);
        } else {
            ids = continueIdentities(path.solutions.back().markProbabilities, path.ids.back(),
                                     result.markProbabilities, path.numIdentities);
        }
        path.gammas.push_back(gamma);
        path.solutions.push_back(std::move(result));
        path.ids.push_back(std::move(ids));
        path.continued.push_back(continued ? 1 : 0);
        if (onPoint) {
            onPoint(path, static_cast<int>(i));
        }
    }
    return path;
}

ContrastiveHmmResult solveOnPath(const SequenceMoments& moments, const HmmPath& path, double gamma,
                                 const ContrastiveHmmOptions& options, const CancelToken& cancel,
                                 bool* continued) {
    const int i = path.nearest(gamma);
    if (i >= 0 && std::abs(path.gammas[static_cast<size_t>(i)] - gamma) <= 1e-12) {
        if (continued != nullptr) {
            *continued = path.continued[static_cast<size_t>(i)] != 0;
        }
        return path.solutions[static_cast<size_t>(i)];
    }
    bool kept = false;
    ContrastiveHmmResult result =
        solveContinued(moments, gamma, options,
                       i >= 0 ? &path.solutions[static_cast<size_t>(i)] : nullptr, cancel, kept);
    if (continued != nullptr) {
        *continued = kept;
    }
    return result;
}

} // namespace cx
