#pragma once

#include "core/common/cancel.h"
#include "core/io/corpus.h"

#include <cstdint>
#include <string>

namespace cx {

enum class CorpusFormat {
    Auto,          ///< decided from the path (see loadCorpus)
    Tsv,           ///< header row, a `text` column, every other column a label field
    Csv,           ///< as Tsv, comma separated, RFC 4180 quoting
    UciBagOfWords, ///< docword.*.txt[.gz] + vocab.*.txt next to it
    Reuters,       ///< Reuters-21578 SGML: reut2-*.sgm[.gz] files or their folder
    TextFolder,    ///< a folder of .txt files, one document each, no labels
};

/// Tokeniser and vocabulary options shared by every text reader.
struct CorpusLoadOptions {
    CorpusFormat format = CorpusFormat::Auto;
    bool removeStopWords = true;          ///< drop the bundled English stop-word list
    std::int64_t minDocumentFrequency = 2; ///< words in fewer documents are dropped
    std::int64_t maxVocabulary = 0;        ///< keep the most frequent (by document frequency); 0 = all
    std::int64_t minTokens = 3;            ///< shorter documents (after the vocabulary cut) are skipped
};

/// Loads a corpus from a file or folder. Auto picks Reuters for reut2-*.sgm[.gz] files or a
/// folder holding them, UCI for docword.*.txt[.gz], TextFolder for any other folder, Csv for
/// *.csv[.gz] and Tsv otherwise. Plain and gzip files are both accepted everywhere.
///
/// Tokens are maximal runs of ASCII letters and digits, lower-cased (UTF-8 letters outside ASCII
/// split tokens; invalid UTF-8 bytes are decoded as Latin-1 and counted in
/// report.invalidBytes). The vocabulary is sorted alphabetically. Documents keep input order.
///
/// \throws InputError naming file, line and problem for unreadable, malformed or empty input.
/// Cost: one pass over the input text plus a sort of the vocabulary.
Corpus loadCorpus(const std::string& path, const CorpusLoadOptions& options = {},
                  const CancelToken& cancel = {}, const ProgressFn& progress = {});

/// Parses "auto|tsv|csv|uci|reuters|txt"; throws InputError on anything else.
CorpusFormat parseCorpusFormat(const std::string& text);
const char* toString(CorpusFormat format);

/// The bundled English stop-word list (lower case, sorted).
const std::vector<std::string>& englishStopWords();

} // namespace cx
