// libFuzzer target: the Reuters corpus reader through loadCorpus (core/io/corpus_loader.h).
#include "corpus_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const auto path =
        cx::fuzz::writeScratch("reut2-000.sgm", {reinterpret_cast<const char*>(data), size});
    cx::fuzz::loadAndCheck(path,
                           cx::fuzz::permissiveOptions(cx::CorpusFormat::Reuters, data, size));
    return 0;
}
