#pragma once

#include <filesystem>
#include <string_view>

namespace cx {

/// Replaces `target` by `content` atomically: the bytes go to a temporary file in the same
/// folder (".NAME.tmp-PID"), are flushed to disk, and the temporary is renamed over `target`.
/// A failure at any step (folder not writable, disk full, file size limit) removes the
/// temporary and throws cx::InputError naming `target` and the system's reason; `target` is
/// then exactly as it was before the call. Before writing, temporaries of `target` left by a
/// save that was killed (their process is gone) are removed; after the rename the folder is
/// flushed too (fsync), so the new name survives a power loss.
void writeFileAtomically(const std::filesystem::path& target, std::string_view content);

/// Removes the temporaries (".NAME.tmp-PID") of `target` whose process no longer runs: what a
/// killed writeFileAtomically leaves behind. A running writer's temporary is kept. Returns how
/// many were removed; never throws (a temporary that cannot be removed stays).
int removeStaleTemporaries(const std::filesystem::path& target);

} // namespace cx
