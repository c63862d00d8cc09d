#include "core/io/corpus_loader.h"

#include "core/common/error.h"
#include "core/io/corpus_builder.h"
#include "core/io/tokenizer.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <new>
#include <string>
#include <vector>

namespace cx {

namespace {

namespace fs = std::filesystem;

/// Lower-case file name without a ".gz" suffix.
std::string plainName(const std::string& path) {
    std::string name = toLowerAscii(baseName(path));
    if (name.ends_with(".gz")) {
        name.resize(name.size() - 3);
    }
    return name;
}

bool isReutersName(const std::string& path) {
    const std::string name = plainName(path);
    return name.starts_with("reut2-") && name.ends_with(".sgm");
}

/// NAME of docword.NAME.txt[.gz], or "" if `path` is not named like that.
std::string docwordStem(const std::string& path) {
    std::string name = baseName(path);
    if (name.ends_with(".gz")) {
        name.resize(name.size() - 3);
    }
    const std::string lower = toLowerAscii(name);
    if (!lower.starts_with("docword.") || !lower.ends_with(".txt") || lower.size() <= 12) {
        return {};
    }
    return name.substr(8, name.size() - 12);
}

bool isFile(const std::string& path) {
    std::error_code error;
    return fs::is_regular_file(path, error);
}

bool isFolder(const std::string& path) {
    std::error_code error;
    return fs::is_directory(path, error);
}

bool exists(const std::string& path) {
    std::error_code error;
    return fs::exists(path, error);
}

/// "a,b,c" → {"a", "b", "c"} unless the whole text names an existing file or folder.
std::vector<std::string> splitPathList(const std::string& text) {
    const std::string trimmed(trimAscii(text));
    if (trimmed.empty()) {
        throw InputError("no corpus path given");
    }
    if (exists(trimmed) || trimmed.find(',') == std::string::npos) {
        return {trimmed};
    }
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= trimmed.size()) {
        size_t comma = trimmed.find(',', start);
        if (comma == std::string::npos) {
            comma = trimmed.size();
        }
        const std::string part(trimAscii(std::string_view(trimmed).substr(start, comma - start)));
        if (!part.empty()) {
            parts.push_back(part);
        }
        start = comma + 1;
    }
    return parts;
}

/// The reut2-*.sgm[.gz] files of a folder, sorted by name; where both NAME.sgm and NAME.sgm.gz
/// exist, only the uncompressed one.
std::vector<std::string> reutersFilesIn(const std::string& folder) {
    std::map<std::string, std::string> byStem; // plain lower-case name → path
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const std::string path = it->path().string();
        std::error_code typeError;
        if (!it->is_regular_file(typeError) || !isReutersName(path)) {
            continue;
        }
        const std::string stem = plainName(path);
        auto found = byStem.find(stem);
        if (found == byStem.end() || hasGzipSuffix(found->second)) {
            byStem[stem] = path;
        }
    }
    if (error) {
        throw InputError(folder, 0, "cannot list the folder: " + error.message());
    }
    std::vector<std::string> paths;
    for (const auto& entry : byStem) {
        paths.push_back(entry.second);
    }
    return paths;
}

/// The UCI docword.NAME.txt[.gz] files of a folder, sorted by name.
std::vector<std::string> docwordFilesIn(const std::string& folder) {
    std::vector<std::string> found;
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        if (!docwordStem(it->path().string()).empty()) {
            found.push_back(it->path().string());
        }
    }
    std::sort(found.begin(), found.end());
    return found;
}

/// A sibling of `path` named `name` (or `name`.gz), or "" if neither exists.
std::string sibling(const std::string& path, const std::string& name) {
    const fs::path folder = fs::path(path).parent_path();
    for (const std::string& candidate : {name, name + ".gz"}) {
        const std::string full = (folder / candidate).string();
        if (isFile(full)) {
            return full;
        }
    }
    return {};
}

CorpusFormat detectFormat(const std::vector<std::string>& parts) {
    const std::string& first = parts.front();
    if (parts.size() == 1 && isFolder(first)) {
        if (!reutersFilesIn(first).empty()) {
            return CorpusFormat::Reuters;
        }
        return !docwordFilesIn(first).empty() ? CorpusFormat::UciBagOfWords
                                              : CorpusFormat::TextFolder;
    }
    if (isReutersName(first)) {
        return CorpusFormat::Reuters;
    }
    const std::string name = plainName(first);
    const bool delimitedName = name.ends_with(".csv") || name.ends_with(".tsv");
    if (!docwordStem(first).empty() || (parts.size() > 1 && !delimitedName)) {
        // A list that is not Reuters files can only be "DOCWORD,VOCAB[,LABELS]".
        return CorpusFormat::UciBagOfWords;
    }
    return name.ends_with(".csv") ? CorpusFormat::Csv : CorpusFormat::Tsv;
}

void validate(const CorpusLoadOptions& options) {
    if (options.minDocumentFrequency < 0) {
        throw InputError("parameter min-df: must be >= 0, got " +
                         std::to_string(options.minDocumentFrequency));
    }
    if (options.maxVocabulary < 0) {
        throw InputError("parameter max-vocabulary: must be >= 0 (0 = no limit), got " +
                         std::to_string(options.maxVocabulary));
    }
    if (options.minTokens < 0) {
        throw InputError("parameter min-tokens: must be >= 0, got " +
                         std::to_string(options.minTokens));
    }
    if (!(options.maxDocumentFraction > 0.0) || !(options.maxDocumentFraction <= 1.0)) {
        throw InputError("parameter max-df: must lie in (0, 1], got " +
                         std::to_string(options.maxDocumentFraction));
    }
}

RawCorpus readUciParts(const std::vector<std::string>& parts, const CorpusLoadOptions& options,
                       const CancelToken& cancel, const ProgressFn& progress) {
    if (parts.size() > 3) {
        throw InputError(parts.front(), 0,
                         "a UCI corpus is 'DOCWORD', 'DOCWORD,VOCAB' or 'DOCWORD,VOCAB,LABELS'");
    }
    std::string docword = parts[0];
    if (isFolder(docword)) {
        const std::vector<std::string> found = docwordFilesIn(docword);
        if (found.size() != 1) {
            throw InputError(docword, 0,
                             found.empty() ? "no docword.NAME.txt file in the folder"
                                           : "several docword.*.txt files in the folder; "
                                             "name the one to load");
        }
        docword = found.front();
    }
    if (!isFile(docword)) {
        throw InputError(docword, 0, "not a file");
    }
    const std::string stem = docwordStem(docword);
    std::string vocab;
    if (parts.size() >= 2) {
        vocab = parts[1];
    } else if (stem.empty()) {
        throw InputError(docword, 0,
                         "cannot tell where the vocabulary is: name the files docword.NAME.txt "
                         "and vocab.NAME.txt, or give 'DOCWORD,VOCAB'");
    } else {
        vocab = sibling(docword, "vocab." + stem + ".txt");
        if (vocab.empty()) {
            throw InputError(docword, 0,
                             "cannot find the vocabulary vocab." + stem +
                                 ".txt next to it (or give 'DOCWORD,VOCAB')");
        }
    }
    if (!isFile(vocab)) {
        throw InputError(vocab, 0, "no such file (the vocabulary of " + baseName(docword) + ")");
    }
    std::string labels;
    if (parts.size() == 3) {
        labels = parts[2];
        if (!isFile(labels)) {
            throw InputError(labels, 0, "no such file (the labels of " + baseName(docword) + ")");
        }
    } else if (!stem.empty()) {
        labels = sibling(docword, "labels." + stem + ".tsv");
    }
    return readUci(docword, vocab, labels, options, cancel, progress);
}

RawCorpus readParts(const std::vector<std::string>& parts, CorpusFormat format,
                    const CorpusLoadOptions& options, const CancelToken& cancel,
                    const ProgressFn& progress) {
    const std::string& first = parts.front();
    if (parts.size() > 1 && format != CorpusFormat::Reuters &&
        format != CorpusFormat::UciBagOfWords) {
        throw InputError(first, 0,
                         "a comma-separated list of files is only accepted for Reuters "
                         "(several reut2-*.sgm files) and UCI ('DOCWORD,VOCAB')");
    }
    switch (format) {
    case CorpusFormat::Tsv:
    case CorpusFormat::Csv:
        if (!isFile(first)) {
            throw InputError(first, 0, isFolder(first) ? "is a folder, not a file" : "not a file");
        }
        return readDelimited(first, format == CorpusFormat::Tsv ? '\t' : ',', options, cancel,
                             progress);
    case CorpusFormat::UciBagOfWords:
        return readUciParts(parts, options, cancel, progress);
    case CorpusFormat::Reuters: {
        std::vector<std::string> files;
        for (const std::string& part : parts) {
            if (isFolder(part)) {
                const std::vector<std::string> inFolder = reutersFilesIn(part);
                if (inFolder.empty()) {
                    throw InputError(part, 0,
                                     "no reut2-*.sgm or reut2-*.sgm.gz files in the folder");
                }
                files.insert(files.end(), inFolder.begin(), inFolder.end());
            } else if (isFile(part)) {
                files.push_back(part);
            } else {
                throw InputError(part, 0, "not a file");
            }
        }
        return readReuters(files, options, cancel, progress);
    }
    case CorpusFormat::TextFolder:
        if (!isFolder(first)) {
            throw InputError(first, 0,
                             "not a folder (the text format reads a folder of .txt "
                             "files)");
        }
        return readTextFolder(first, options, cancel, progress);
    case CorpusFormat::Auto:
        break;
    }
    throw InputError(first, 0, "unknown corpus format");
}

} // namespace

Corpus loadCorpus(const std::string& path, const CorpusLoadOptions& options,
                  const CancelToken& cancel, const ProgressFn& progress) {
    validate(options);
    const std::vector<std::string> parts = splitPathList(path);
    for (const std::string& part : parts) {
        if (!exists(part)) {
            throw InputError(part, 0, "no such file or folder");
        }
    }
    const CorpusFormat format =
        options.format == CorpusFormat::Auto ? detectFormat(parts) : options.format;
    try {
        RawCorpus raw = readParts(parts, format, options, cancel, progress);
        return finishCorpus(std::move(raw), options, parts.size() == 1 ? parts.front() : path,
                            cancel, progress);
    } catch (const std::bad_alloc&) {
        throw InputError(path, 0, "not enough memory to load this corpus");
    } catch (const fs::filesystem_error& error) {
        throw InputError(error.path1().empty() ? path : error.path1().string(), 0,
                         error.code().message());
    }
}

CorpusFormat parseCorpusFormat(const std::string& text) {
    const std::string name = toLowerAscii(trimAscii(text));
    if (name == "auto" || name.empty()) {
        return CorpusFormat::Auto;
    }
    if (name == "tsv") {
        return CorpusFormat::Tsv;
    }
    if (name == "csv") {
        return CorpusFormat::Csv;
    }
    if (name == "uci") {
        return CorpusFormat::UciBagOfWords;
    }
    if (name == "reuters") {
        return CorpusFormat::Reuters;
    }
    if (name == "txt" || name == "text") {
        return CorpusFormat::TextFolder;
    }
    throw InputError("unknown corpus format '" + text +
                     "' (expected auto, tsv, csv, uci, reuters or txt)");
}

const char* toString(CorpusFormat format) {
    switch (format) {
    case CorpusFormat::Auto:
        return "auto";
    case CorpusFormat::Tsv:
        return "tsv";
    case CorpusFormat::Csv:
        return "csv";
    case CorpusFormat::UciBagOfWords:
        return "uci";
    case CorpusFormat::Reuters:
        return "reuters";
    case CorpusFormat::TextFolder:
        return "txt";
    }
    return "unknown";
}

std::string vocabularyCapNote(const LoadReport& report) {
    if (report.wordsDroppedByCap <= 0) {
        return {};
    }
    std::string note = std::to_string(report.wordsDroppedByCap) +
                       " words dropped by the vocabulary cap of " +
                       std::to_string(report.vocabularyCap);
    if (report.vocabularyCapAutomatic) {
        note +=
            " (automatic with max. vocabulary 0: at most one word per document read, at least " +
            std::to_string(kMinimumVocabularyCap) + "; a larger max. vocabulary, e.g. " +
            std::to_string(report.vocabularyCap + report.wordsDroppedByCap) + ", keeps them)";
    } else {
        note += " (max. vocabulary: the most frequent words by document frequency are kept)";
    }
    return note;
}

} // namespace cx
