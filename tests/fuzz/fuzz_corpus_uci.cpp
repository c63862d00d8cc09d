// libFuzzer target: UCI bag-of-words (core/io/corpus_loader.h). The input holds up to three
// files separated by NUL bytes: docword, vocab and (optional) labels.
#include "corpus_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const auto parts = cx::fuzz::splitParts(data, size, 3);
    std::string list = cx::fuzz::writeScratch("docword.fuzz.txt", parts[0]);
    list += ',' + cx::fuzz::writeScratch("vocab.fuzz.txt", parts.size() > 1 ? parts[1] : "");
    if (parts.size() > 2) {
        list += ',' + cx::fuzz::writeScratch("labels.fuzz.tsv", parts[2]);
    }
    cx::fuzz::loadAndCheck(
        list, cx::fuzz::permissiveOptions(cx::CorpusFormat::UciBagOfWords, data, size));
    return 0;
}
