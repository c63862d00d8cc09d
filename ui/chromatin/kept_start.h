#pragma once

// The start every solve of one Chromatin analysis begins from, chosen once per moments and
// parameters as `contrast-cli hmm` chooses it (cx::keptStartOptions), so the tab and the CLI
// give one answer.

#include "ui/chromatin/chromatin_types.h"

#include "core/common/cancel.h"
#include "core/hmm/contrastive_hmm.h"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace cx::ui {

/// The runs of foreground bins the likelihoods are over (every track's runs for the whole
/// genome), as `contrast-cli hmm` takes them. Cost O(bins).
std::vector<cx::BinRun> foregroundRuns(const MomentsState& moments);

/// The kept start of one analysis epoch. Shared by the worker, the γ path, the bootstrap and
/// the refinement: the first of them to ask computes it (the others wait for it), the rest
/// reuse it. Thread-safe.
class KeptStart {
public:
    /// \pre moments->moments set. Without moments->data or with starts < 1, options() is
    /// `options` itself.
    KeptStart(std::shared_ptr<const MomentsState> moments, cx::ContrastiveHmmOptions options,
              int starts);

    /// `options` with the kept start's seed (cx::keptStartOptions). A cancelled computation
    /// throws cx::Cancelled and is redone by the next caller. \throws what
    /// cx::solveContrastiveHmmStarts throws.
    cx::ContrastiveHmmOptions options(const cx::CancelToken& cancel) const;

private:
    std::shared_ptr<const MomentsState> m_moments;
    cx::ContrastiveHmmOptions m_options;
    int m_starts = 1;
    mutable std::mutex m_mutex;
    mutable std::optional<cx::ContrastiveHmmOptions> m_kept;
};

} // namespace cx::ui
