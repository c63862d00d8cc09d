// libFuzzer target: selection rules (core/io/selection.h): parse, print, re-parse, and apply
// to the labelled test corpus.
#include "core/io/corpus_loader.h"
#include "core/io/selection.h"
#include "fuzz_support.h"

namespace {

const cx::Corpus& fixedCorpus() {
    static const cx::Corpus corpus = [] {
        cx::CorpusLoadOptions options;
        options.minDocumentFrequency = 1;
        options.minTokens = 1;
        return cx::loadCorpus(CX_TEST_DATA_DIR "/corpus/labelled.tsv", options);
    }();
    return corpus;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    cx::fuzz::expectOnlyInputErrors([&] {
        const auto rule = cx::SelectionRule::parse(text);
        // The canonical text must parse to the same rule.
        const auto again = cx::SelectionRule::parse(rule.toString());
        if (again.toString() != rule.toString()) {
            __builtin_trap();
        }
        const auto selection = cx::selectDocuments(fixedCorpus(), rule);
        for (const auto document : selection.documents) {
            if (document < 0 || document >= fixedCorpus().numDocuments()) {
                __builtin_trap();
            }
        }
    });
    return 0;
}
