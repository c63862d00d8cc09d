// Text-folder reader: every *.txt (or *.txt.gz) file under a folder, recursively, in sorted path
// order, one document each. Label field `folder` = the file's parent folder relative to the
// root ("comp.graphics" for root/comp.graphics/1.txt), so a 20-newsgroups-style layout gets its
// class labels; files directly in the root have no value.

#include "core/common/error.h"
#include "core/io/corpus_builder.h"
#include "core/io/tokenizer.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace cx {

namespace {

bool isTextFile(const std::filesystem::path& path) {
    const std::string name = toLowerAscii(path.filename().string());
    const auto endsWith = [&](std::string_view suffix) {
        return name.size() > suffix.size() &&
               name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return endsWith(".txt") || endsWith(".txt.gz");
}

} // namespace

RawCorpus readTextFolder(const std::string& folder, const CorpusLoadOptions& options,
                         const CancelToken& cancel, const ProgressFn& progress) {
    namespace fs = std::filesystem;
    const fs::path root(folder);
    std::vector<std::string> relativePaths;
    std::error_code error;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error);
    if (error) {
        throw InputError(folder, 0, "cannot list the folder: " + error.message());
    }
    for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
        if (error) {
            throw InputError(folder, 0, "cannot list the folder: " + error.message());
        }
        std::error_code typeError;
        if (it->is_regular_file(typeError) && isTextFile(it->path())) {
            relativePaths.push_back(it->path().lexically_relative(root).generic_string());
        }
    }
    if (error) {
        throw InputError(folder, 0, "cannot list the folder: " + error.message());
    }
    if (relativePaths.empty()) {
        throw InputError(folder, 0, "no .txt files found in the folder or its subfolders");
    }
    std::sort(relativePaths.begin(), relativePaths.end());

    RawCorpus raw;
    raw.labels = LabelTable({"folder"});
    std::vector<std::string> fullPaths;
    fullPaths.reserve(relativePaths.size());
    for (const std::string& relative : relativePaths) {
        fullPaths.push_back((root / fs::path(relative)).string());
    }
    raw.report.files = fullPaths;
    ReadProgress tracker(cancel, progress, totalFileSize(fullPaths));
    TokenCounter counter(options.removeStopWords);
    std::string text;
    for (size_t i = 0; i < fullPaths.size(); ++i) {
        LineReader reader(fullPaths[i]);
        TextLineCheck check(raw.report.invalidBytes);
        text.clear();
        std::string_view line;
        while (reader.next(line)) {
            check.check(line, reader);
            tracker.tick(reader);
            text.append(line);
            text.push_back('\n');
        }
        counter.addDocument(text);
        const std::string parent = fs::path(relativePaths[i]).parent_path().generic_string();
        raw.labels.addValue(0, parent);
        raw.labels.endRow();
        raw.documentIds.push_back(toValidUtf8(relativePaths[i]));
        tracker.fileDone(reader.fileSize());
    }
    raw.words = std::move(counter.words);
    raw.excerpts = std::move(counter.excerpts);
    raw.counts = counter.takeCounts();
    return raw;
}

} // namespace cx
