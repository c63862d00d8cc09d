#pragma once

#include <cstddef>
#include <cstdint>

namespace cx {

/// Peak resident set size of this process so far (VmHWM from /proc/self/status), in bytes;
/// 0 where the platform does not report it.
std::int64_t peakResidentBytes();

/// Asks the kernel to back the 2 MB-aligned interior of [data, data + bytes) with huge pages
/// (Linux madvise(MADV_HUGEPAGE), honoured where transparent huge pages are "madvise" or
/// "always"), before the memory is first written: a large array then takes one page fault per
/// 2 MB instead of per 4 KB, which matters where faults are slow (virtual machines). Contents
/// and results are unchanged; nothing happens for arrays under 4 MB or on other platforms.
void adviseHugePages(const void* data, std::size_t bytes);

} // namespace cx
