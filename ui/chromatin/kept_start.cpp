#include "ui/chromatin/kept_start.h"

#include "core/hmm/hmm_starts.h"

#include <utility>

namespace cx::ui {

std::vector<cx::BinRun> foregroundRuns(const MomentsState& moments) {
    return moments.choice.isWholeGenome() || !moments.classes
               ? cx::wholeTrackRuns(*moments.data)
               : cx::runsWithFlag(*moments.data, *moments.classes, cx::kForegroundBin, false);
}

KeptStart::KeptStart(std::shared_ptr<const MomentsState> moments, cx::ContrastiveHmmOptions options,
                     int starts)
    : m_moments(std::move(moments)), m_options(std::move(options)), m_starts(starts) {}

cx::ContrastiveHmmOptions KeptStart::options(const cx::CancelToken& cancel) const {
    const std::lock_guard lock(m_mutex);
    if (!m_kept && (m_starts < 1 || !m_moments->data)) {
        m_kept = m_options; // nothing to choose by: the parameters' own seed
    }
    if (!m_kept) {
        m_kept = cx::keptStartOptions(*m_moments->moments, m_options, m_starts, *m_moments->data,
                                      foregroundRuns(*m_moments), cancel);
    }
    return *m_kept;
}

} // namespace cx::ui
