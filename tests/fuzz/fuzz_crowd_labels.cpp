// libFuzzer target: crowd label files (core/io/crowd_labels.h). The input is a label file (CSV
// or TSV); after a NUL byte, a gold file.
#include "core/io/crowd_labels.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const auto parts = cx::fuzz::splitParts(data, size, 2);
    const auto labels = cx::fuzz::writeScratch("answers.csv", parts[0]);
    const auto gold = parts.size() > 1 ? cx::fuzz::writeScratch("gold.csv", parts[1]) : "";
    cx::fuzz::expectOnlyInputErrors([&] {
        const cx::CrowdLabels crowd = cx::readCrowdLabels(labels, gold);
        // Whatever was accepted must be consistent.
        if (crowd.labels.size() !=
                static_cast<size_t>(crowd.numItems) * static_cast<size_t>(crowd.numWorkers) ||
            crowd.classNames.size() != static_cast<size_t>(crowd.numClasses)) {
            __builtin_trap();
        }
        for (const int label : crowd.labels) {
            if (label != cx::CrowdLabels::kMissingLabel &&
                (label < 0 || label >= crowd.numClasses)) {
                __builtin_trap();
            }
        }
    });
    return 0;
}
