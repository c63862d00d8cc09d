// libFuzzer target: BED files (core/io/bed.h) and the bin classification that consumes them.
// Accepted intervals are classified against a small fixed two-track data set, so huge or odd
// coordinates reach classifyBins and runsWithFlag.
#include "core/io/bed.h"
#include "fuzz_support.h"

namespace {

const cx::ChromatinData& fixedTracks() {
    static const cx::ChromatinData data = [] {
        cx::ChromatinData tracks;
        std::string text = "CELL\tchr1\nA\tB\n";
        for (int i = 0; i < 50; ++i) {
            text += (i % 3 == 0 ? "1\t0\n" : (i % 7 == 0 ? "2\t1\n" : "0\t0\n"));
        }
        cx::appendChromHmmFile(tracks, cx::fuzz::writeScratch("fixed_binary.txt", text));
        return tracks;
    }();
    return data;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const auto parts = cx::fuzz::splitParts(data, size, 2);
    cx::BedRegions foreground;
    cx::BedRegions background;
    const auto fgPath = cx::fuzz::writeScratch("fg.bed", parts[0]);
    cx::fuzz::expectOnlyInputErrors([&] { cx::appendBedFile(foreground, fgPath); });
    if (parts.size() > 1) {
        const auto bgPath = cx::fuzz::writeScratch("bg.bed", parts[1]);
        cx::fuzz::expectOnlyInputErrors([&] { cx::appendBedFile(background, bgPath); });
    }
    const auto& tracks = fixedTracks();
    const auto classes = cx::classifyBins(tracks, &foreground, &background);
    cx::runsWithFlag(tracks, classes, cx::kForegroundBin, true);
    cx::runsWithFlag(tracks, classes, cx::kBackgroundBin, false);
    return 0;
}
