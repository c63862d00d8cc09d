#pragma once

#include <cstdint>

namespace cx {

/// Peak resident set size of this process so far (VmHWM from /proc/self/status), in bytes;
/// 0 where the platform does not report it.
std::int64_t peakResidentBytes();

} // namespace cx
