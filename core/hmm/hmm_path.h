#pragma once

// Contrastive HMM solutions along γ computed as a path, with state identities that persist.

#include "core/common/cancel.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/sequence_moments.h"

#include <functional>
#include <utility>
#include <vector>

namespace cx {

/// A state keeps its identity from one γ of a path to the next when it is matched (Hungarian on
/// the L1 distance of the mark profiles, matchStates) to a state whose presence probability
/// differs by at most this in EVERY mark. A larger change means a mark appeared or vanished
/// (e.g. "Quiescent" turning into "Active promoter"): a different chromatin state, which gets a
/// new identity. Probabilities, so the rule does not depend on the data set's size.
constexpr double kStateIdentityMaxMarkChange = 0.5;

/// How each point after the first is started.
enum class HmmPathStarts {
    /// From the previous point's components (ContrastiveHmmOptions::warmStarts), checked
    /// against a fresh solve: the continued solution is kept unless the fresh one is a valid
    /// model where it is not, or (both valid or both invalid) has an invalid mass smaller by
    /// more than 0.01 or a deflation residual smaller by more than 0.01.
    Continued,
    /// Every γ solved on its own from random starts (what a slider without a path shows).
    Fresh,
};

/// Solutions of the contrastive HMM on an increasing γ grid (one moment set), with identities:
/// ids[i][t] is the identity of component t (row t of solutions[i].markProbabilities) at γ_i.
/// Identities are 0, 1, 2, … in order of first appearance (components of one point in row
/// order), so the same seed gives the same path and the same ids.
struct HmmPath {
    std::vector<double> gammas;
    std::vector<ContrastiveHmmResult> solutions;
    std::vector<std::vector<int>> ids;
    std::vector<char> continued; ///< point i kept the run continued from point i − 1
    int numIdentities = 0;

    /// Index of the grid point nearest to γ (−1 for an empty path).
    int nearest(double gamma) const;
    /// Point i is a valid model: at least one foreground-specific state and none invalid
    /// (ContrastiveHmmResult::specificInvalidMass() = 0).
    bool isValid(int i) const;
    /// Number of valid points.
    int validPoints() const;
    /// Maximal runs of consecutive valid points as [γ_first, γ_last].
    std::vector<std::pair<double, double>> validRanges() const;
    /// How many times a component changes identity along the path: components of points
    /// i ≥ 1 whose identity did not exist at point i − 1.
    int identityChanges() const;
    /// The same, counting only foreground-specific components (ω > 0).
    int specificIdentityChanges() const;
};

/// The path over `gammas` (non-decreasing, finite, ≥ 0). The first point is solved from random
/// starts; later points as `starts` says. `onPoint(path, i)` is called after each point.
/// Cost: one solve per point (two with Continued), about a millisecond each for K ≤ 10.
/// \throws std::invalid_argument for an invalid grid or options (solveContrastiveHmm's
///         preconditions); Cancelled.
HmmPath solveHmmPath(const SequenceMoments& moments, const std::vector<double>& gammas,
                     const ContrastiveHmmOptions& options,
                     HmmPathStarts starts = HmmPathStarts::Continued,
                     const CancelToken& cancel = {},
                     const std::function<void(const HmmPath&, int)>& onPoint = {});

/// The solution at γ as the path gives it (what a slider over the path shows): the path's own
/// solution when γ is one of its points (within 1e-12); otherwise continued from the components
/// of the nearest point and checked against a fresh solve by the path's rule; the fresh solve
/// for an empty path. `options` must be the ones the path was solved with. `continued`, when
/// given, says whether the result is the continued run (or the path's own continued point).
/// \throws std::invalid_argument (solveContrastiveHmm's preconditions); Cancelled.
ContrastiveHmmResult solveOnPath(const SequenceMoments& moments, const HmmPath& path, double gamma,
                                 const ContrastiveHmmOptions& options,
                                 const CancelToken& cancel = {}, bool* continued = nullptr);

/// Identities of the components of `next` given those of `previous` (same number of marks):
/// each component matched by matchStates within kStateIdentityMaxMarkChange inherits its
/// partner's id; the others get numIdentities, numIdentities + 1, … (row order), and
/// numIdentities grows accordingly.
std::vector<int> continueIdentities(const Eigen::MatrixXd& previous,
                                    const std::vector<int>& previousIds,
                                    const Eigen::MatrixXd& next, int& numIdentities);

} // namespace cx
