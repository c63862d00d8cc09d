// libFuzzer target: a folder of .txt files (core/io/corpus_loader.h). The input holds up to six
// files separated by NUL bytes, spread over the root and two sub-folders.
#include "corpus_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    const auto root = cx::fuzz::scratchDirectory() / "folder";
    std::filesystem::remove_all(root);
    const auto parts = cx::fuzz::splitParts(data, size, 6);
    static const char* const kFolders[] = {"folder/", "folder/a.b/", "folder/c/d/"};
    for (size_t i = 0; i < parts.size(); ++i) {
        cx::fuzz::writeScratch(std::string(kFolders[i % 3]) + std::to_string(i) + ".txt", parts[i]);
    }
    cx::fuzz::loadAndCheck(root.string(),
                           cx::fuzz::permissiveOptions(cx::CorpusFormat::TextFolder, data, size));
    return 0;
}
