#pragma once

#include <filesystem>
#include <string_view>

namespace cx {

/// Replaces `target` by `content` atomically: the bytes go to a temporary file in the same
/// folder (".NAME.tmp-PID"), are flushed to disk, and the temporary is renamed over `target`.
/// A failure at any step (folder not writable, disk full, file size limit) removes the
/// temporary and throws cx::InputError naming `target` and the system's reason; `target` is
/// then exactly as it was before the call.
void writeFileAtomically(const std::filesystem::path& target, std::string_view content);

} // namespace cx
