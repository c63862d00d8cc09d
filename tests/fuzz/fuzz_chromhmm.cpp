// libFuzzer target: ChromHMM binarized tracks (core/io/chromhmm_reader.h). The input is one
// binarized file; a second part after a NUL byte is read as a second track into the same data
// (mark order permutation, duplicate cell/chromosome checks).
#include "core/io/chromhmm_reader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const auto parts = cx::fuzz::splitParts(data, size, 2);
    cx::ChromatinData tracks;
    for (size_t i = 0; i < parts.size(); ++i) {
        const auto path =
            cx::fuzz::writeScratch("track" + std::to_string(i) + "_binary.txt", parts[i]);
        cx::fuzz::expectOnlyInputErrors([&] { cx::appendChromHmmFile(tracks, path); });
    }
    // Whatever was accepted must be consistent.
    for (const auto& track : tracks.tracks) {
        for (const auto pattern : track.bins) {
            if (pattern >= static_cast<std::uint32_t>(tracks.numPatterns())) {
                __builtin_trap();
            }
        }
    }
    return 0;
}
