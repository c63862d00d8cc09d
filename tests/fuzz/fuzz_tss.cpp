// libFuzzer target: TSS annotations for the promoter evaluation (core/tree/promoter_evaluation.h):
// a ChromHMM ANCHORFILES file (`chrom pos strand`) or a BED file, read against a fixed
// two-chromosome layout of 200 bp bins.
#include "core/tree/promoter_evaluation.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const auto path = cx::fuzz::writeScratch(
        "tss.txt", std::string_view(reinterpret_cast<const char*>(data), size));
    static const std::vector<std::string> chroms = {"chr20", "chr18"};
    static const std::vector<std::int64_t> chromBins = {50000, 1000};
    cx::fuzz::expectOnlyInputErrors([&] {
        const cx::TssTruth truth = cx::readTssTruth(path, chroms, chromBins, 200, 1000);
        if (truth.bins.size() != chroms.size() || truth.sites <= 0) {
            __builtin_trap();
        }
        std::int64_t marked = 0;
        for (size_t c = 0; c < chroms.size(); ++c) {
            if (truth.bins[c].size() != static_cast<size_t>(chromBins[c])) {
                __builtin_trap();
            }
            for (const auto b : truth.bins[c]) {
                marked += b != 0;
            }
        }
        if (marked != truth.positives) {
            __builtin_trap();
        }
    });
    return 0;
}
