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

/// The one-sample check of each foreground-specific component: the documents of each side are
/// split in two seeded random halves (ContrastiveTopicEngine::half), the same γ path is solved
/// on each half, and each half is compared with `path` as a bootstrap replicate would be
/// (`stability` = 0, ½ or 1: found in no half, one or both). A component fitted to one sample's
/// noise — or a small weight the data cannot tell from 0 — does not come back in both halves;
/// judgeSweep does not stand behind a γ where a foreground-specific component is missing from
/// either (stored as SpecificitySweep::halves). Cost: the path solved twice on half the
/// documents (no AUC bands).
/// Deterministic for a given seed. \throws Cancelled; InputError when a side has < 2 documents.
PathBootstrap splitHalfPath(const ContrastiveTopicEngine& engine, const TopicPath& path,
                            const TopicModelOptions& options, std::uint64_t seed,
                            const CancelToken& cancel = {},
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
