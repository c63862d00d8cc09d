#pragma once

#include "ui/topics/topic_types.h"

#include "core/io/corpus.h"

#include <cstdint>
#include <vector>

namespace cx::ui {

/// A foreground/background choice applied to a corpus.
struct ResolvedSelection {
    std::vector<std::int64_t> foreground; ///< sorted
    std::vector<std::int64_t> background; ///< sorted
    std::int64_t overlap = 0;
    QStringList warnings;
};

/// Applies `spec` to `corpus` (cx::selectForegroundBackground; warnings prefixed
/// "foreground: " / "background: "). Cost O(documents · labels). Call it off the GUI thread for big
/// corpora. \throws cx::InputError on a bad rule (the message names the rule and position) or
/// an unknown field.
ResolvedSelection resolveSelection(const cx::Corpus& corpus, const SelectionSpec& spec);

} // namespace cx::ui
