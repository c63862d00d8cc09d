// libFuzzer target: the Tsv corpus reader through loadCorpus (core/io/corpus_loader.h).
#include "corpus_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const auto path =
        cx::fuzz::writeScratch("corpus.tsv", {reinterpret_cast<const char*>(data), size});
    cx::fuzz::loadAndCheck(path, cx::fuzz::permissiveOptions(cx::CorpusFormat::Tsv, data, size));
    return 0;
}
