#pragma once

#include "core/common/cancel.h"
#include "core/topics/contrastive_topic_model.h"
#include "core/topics/topic_evaluation.h"
#include "core/topics/topic_path.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace cx {

/// Options of the bootstrap over documents.
struct BootstrapOptions {
    int replicates = 20;    ///< B resamples
    std::uint64_t seed = 1; ///< replicate b draws from deriveSeed(seed, b)
    double level = 0.95;    ///< central percentile interval of the bands
};

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
};

/// Components with stability below this are flagged unstable in every view.
constexpr double kMinStability = 0.5;

/// Runs the bootstrap of `path` (which must come from solveTopicPath on `engine` with
/// `options`). `positive` (one flag per foreground document, or empty) enables the AUC bands.
/// `progress(done, total)` is called after each replicate. Deterministic for a given seed.
/// \throws Cancelled; std::invalid_argument for fewer than 2 replicates or a level outside (0, 1).
PathBootstrap bootstrapPath(const ContrastiveTopicEngine& engine, const TopicPath& path,
                            const std::vector<bool>& positive, const TopicModelOptions& options,
                            const BootstrapOptions& bootstrap,
                            const ScorerSmoothing& smoothing = {}, const CancelToken& cancel = {},
                            const std::function<void(int, int)>& progress = {});

/// Suggestions drawn from a sweep (and its bootstrap, if any).
struct TopicSuggestions {
    /// γ values where the set of foreground-specific topics changes (foregroundSetChanges).
    std::vector<double> setChanges;
    /// Grid γ of the largest AUC among the γ the app stands behind (judgeSweep; NaN when there
    /// is none with an AUC).
    double bestGamma = 0;
    /// Trusted grid γ values whose AUC is within the band of the maximum: AUC ≥ the lower band
    /// edge at bestGamma (without a bootstrap: bestGamma alone).
    std::vector<double> nearBest;
    /// Suggested K: eigen-directions of M2f − γ·M2b above their noise level at bestGamma (at
    /// γ = 0 without an AUC), capped by the engine's rank.
    int suggestedK = 0;
};

/// \param bootstrap nullptr when none was run; else from bootstrapPath on sweep.path.
TopicSuggestions suggestTopics(const SpecificitySweep& sweep, const PathBootstrap* bootstrap,
                               int maxK);

} // namespace cx
