#pragma once

#include "core/common/cancel.h"
#include "core/topics/contrastive_topic_model.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cx {

/// Cosine similarity of two topics (word distributions) at which a component keeps the identity
/// of its match at the neighbouring γ; below it the component is new (gets a fresh id).
constexpr double kIdentityCosine = 0.5;

/// Solutions of Alg. 1 along an increasing γ grid, computed as a path: the first point from
/// fresh random starts, every later one continued from its neighbour's components and checked
/// against fresh starts (ContrastiveTopicEngine::solveFrom). Components keep one identity along
/// the path: consecutive solutions are matched by the Hungarian method on 1 − cosine of their
/// topics, a match with cosine ≥ kIdentityCosine inherits the identity, any other component
/// gets a new one (it appeared). Identities are 0, 1, 2, … in order of first appearance, so the
/// same seed gives the same path and the same ids.
struct TopicPath {
    std::vector<double> gammas;
    std::vector<TopicModelResult> solutions; ///< one per γ (empty result where `failures` says)
    std::vector<std::vector<int>> ids;       ///< ids[i][slot]: identity of component slot at γ_i
    std::vector<std::string> failures;       ///< per γ: "" or why no solution exists there
    /// One past the largest identity (ids are 0, 1, … without gaps on a path solved afresh;
    /// carryIdentities may leave gaps).
    int numIdentities = 0;
    /// After carryIdentities: canonicalIds[id] = the identity solveTopicPath gave (what the same
    /// path solved afresh calls it; −1 for an id the path does not use). Empty = the ids are
    /// the canonical ones. Sessions store names by canonical id, so reopening one (which solves
    /// afresh) finds them.
    std::vector<int> canonicalIds;

    /// Index of the grid point nearest to γ (−1 for an empty path).
    int nearest(double gamma) const;
    /// Signed weight of identity `id` at point i (NaN where it is absent or the point failed).
    double signedWeight(int i, int id) const;
    /// Slot of identity `id` at point i, −1 when absent.
    int slotOf(int i, int id) const;
};

/// Hungarian matching of the components of `next` to those of `previous` by cosine of their
/// topics: match[slot of next] = slot of previous, or −1 (cosine below `minCosine` or no
/// partner). Cost O(K³).
std::vector<int> matchComponents(const TopicModelResult& previous, const TopicModelResult& next,
                                 double minCosine = kIdentityCosine);

/// The path over `gammas` (must be non-decreasing, each finite and ≥ 0). A γ where Alg. 1
/// cannot run (e.g. K above the rank) is kept as a failure with its reason and the path
/// continues from the last solution. `onPoint(path, i)` is called after each point with the path
/// so far (points 0..i filled).
/// \throws InputError for an invalid grid; Cancelled.
TopicPath solveTopicPath(const ContrastiveTopicEngine& engine, const std::vector<double>& gammas,
                         const TopicModelOptions& options, const CancelToken& cancel = {},
                         const std::function<void(const TopicPath&, int)>& onPoint = {});

/// Identities of `result`'s components by matching them to the path point nearest its γ
/// (the slider's view of the path): one id per slot, −1 for a component the path lacks.
std::vector<int> identitiesOnPath(const TopicPath& path, const TopicModelResult& result);

/// The same contrast solved again with other settings (another K, another γ grid): gives each
/// identity of `next` the identity of `previous` it continues, so a topic that persists keeps
/// its id — and with it its name and colour — and the others get ids no identity of `previous`
/// has (from previous.numIdentities up, in `next`'s order). An identity is represented by its
/// mean topic over the points where it is present; the representatives are matched as
/// components along γ are (matchComponents: Hungarian on 1 − cosine, a match needs cosine ≥
/// `minCosine`). Fills next.canonicalIds (composed with next's own canonicalIds, if any). Cost
/// O(points × K × D + K³). Nothing changes when either path has no identity or their
/// vocabularies differ.
void carryIdentities(const TopicPath& previous, TopicPath& next,
                     double minCosine = kIdentityCosine);

/// The id a fresh solve of the same path gives identity `id` (canonicalIds; `id` itself when
/// the path was not carried; −1 when unknown).
int canonicalIdentity(const TopicPath& path, int id);
/// The identity of `path` whose canonical id is `canonical` (−1 when none).
int identityOfCanonical(const TopicPath& path, int canonical);

/// γ values (grid points of the path) where the set of foreground-specific identities differs
/// from the previous point's: where a foreground-specific topic appears or disappears.
std::vector<double> foregroundSetChanges(const TopicPath& path);

/// Path identities of the foreground-specific components at point i, sorted (the set whose
/// changes foregroundSetChanges lists).
std::vector<int> foregroundIdentities(const TopicPath& path, size_t i);

/// Bootstrap of a topic path over documents: each replicate draws the foreground and the
/// background documents with replacement (ContrastiveTopicEngine::resampled, same basis),
/// solves the same γ path and is compared with the original path point by point.
///
/// Per path point i and slot t of the original path:
/// - `stability[i][t]`: the fraction of replicates with a component matched to it (Hungarian on
///   topic cosine, ≥ kIdentityCosine) of the same sign — how often it reappears;
/// - `weightLo/Hi[i][t]`: percentile band of the matched replicate components' signed weights.
/// Per point: `aucLo/Hi` and `relativeLo/Hi`, percentile bands of the replicates' AUC (scored on
/// the original foreground documents) and of their AUC relative to their own γ = 0 (empty when
/// no positive labels were given). `identityStability[id]` is the mean stability of identity id
/// over the points where it exists. NaN where fewer than 2 replicates give a value.
struct PathBootstrap {
    int replicates = 0;
    double level = 0.95;
    std::vector<double> gammas;
    std::vector<double> aucLo, aucHi, relativeLo, relativeHi;
    std::vector<std::vector<double>> stability, weightLo, weightHi;
    std::vector<double> identityStability;
    /// True for splitHalfPath: the two "replicates" are the two halves of one seeded split.
    bool splitHalves = false;
};

} // namespace cx
