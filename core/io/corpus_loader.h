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
    TextFolder,    ///< a folder of .txt files, one document each, label field `folder`
};

/// Floor of the vocabulary-size rule (CorpusLoadOptions::capVocabularyAtDocuments): below this
/// the cut would remove ordinary language rather than noise.
constexpr std::int64_t kMinimumVocabularyCap = 1000;

/// Tokeniser and vocabulary options shared by every text reader. Defaults follow what a text
/// analyst expects from MALLET and gensim: stop words and pure numbers dropped.
struct CorpusLoadOptions {
    CorpusFormat format = CorpusFormat::Auto;
    bool removeStopWords = true;           ///< drop the bundled English stop-word list
    std::int64_t minDocumentFrequency = 2; ///< words in fewer documents are dropped
    /// Keep the most frequent words (by document frequency); 0 = the size rule below.
    std::int64_t maxVocabulary = 0;
    /// With maxVocabulary = 0: keep at most max(documents read, kMinimumVocabularyCap) words.
    /// The sampling noise of M2's spectrum grows like √(D/N) (D words, N documents), so more
    /// words than documents add noise directions faster than signal; a few thousand documents
    /// need the stricter vocabulary, a million do not notice it. false = no cap.
    bool capVocabularyAtDocuments = true;
    std::int64_t minTokens = 3; ///< shorter documents (after the vocabulary cut) are skipped
    /// Drop tokens made only of digits ("1987", "000"), which can dominate news topics' top
    /// words without naming a theme. Tokens mixing letters and digits ("g7") are always kept.
    bool removeNumbers = true;
    /// Drop words that occur in more than this fraction of the documents read (corpus
    /// boilerplate such as Reuters' "reuter" sign-off); 1 keeps every word.
    double maxDocumentFraction = 1.0;
};

/// Loads a corpus from a file or folder. Auto picks Reuters for reut2-*.sgm[.gz] files or a
/// folder holding them, UCI for docword.*.txt[.gz], TextFolder for any other folder, Csv for
/// *.csv[.gz] and Tsv otherwise. Plain and gzip files are both accepted everywhere. `path` may
/// also be a comma-separated list: several Reuters files, or "DOCWORD,VOCAB[,LABELS]" for UCI
/// files with any names (a list whose first file is not reut2-*/.tsv/.csv is taken as UCI).
///
/// Per format:
///  - Tsv/Csv: header row; the `text` column (any case) is the document, every other column a
///    label field named after its lower-cased header. documentIds = line number of the row.
///  - UciBagOfWords: docword (D, W, NNZ, then "docID wordID count", 1-based, any order) +
///    vocab.NAME.txt[.gz] (W lines) + optional labels.NAME.tsv[.gz] (header of field names,
///    then row i = document i). documentIds = docID. Repeated (docID, wordID) entries and
///    repeated vocabulary words are added up, with a warning.
///  - Reuters: one document per <REUTERS> block, text = TITLE + BODY (the raw TEXT content when
///    neither is marked up, as for TYPE="UNPROC"); fields topics, places, people, orgs,
///    exchanges (from the <D> lists) and lewissplit. documentIds = NEWID.
///  - TextFolder: every *.txt[.gz] below the folder in sorted path order; field `folder` = the
///    parent folder relative to the root ("comp.graphics", "a/b"; none for files in the root).
///    documentIds = relative paths.
/// Label values are trimmed and lower-cased; a cell may hold several, separated by ',' or ';'.
///
/// Tokens are maximal runs of ASCII letters and digits, lower-cased (UTF-8 letters outside ASCII
/// split tokens; invalid UTF-8 bytes are decoded as Latin-1 and counted in
/// report.invalidBytes). Pure numbers are dropped unless removeNumbers is false. UCI input is
/// already tokenised but gets the same stop-word and vocabulary cuts.
///
/// Vocabulary cut, in this order: stop words (if removeStopWords); words in fewer than
/// max(1, minDocumentFrequency) documents; if maxVocabulary > 0 (or, with maxVocabulary = 0 and
/// capVocabularyAtDocuments, max(documents read, kMinimumVocabularyCap)), all but that many words
/// of highest document frequency (ties alphabetical). The vocabulary is then sorted
/// alphabetically and the counts remapped. Finally documents with fewer than minTokens tokens
/// left are dropped (report.documentsSkippedShort); labels and documentIds stay aligned with the
/// kept documents, and label values carried by no kept document are dropped. Documents keep
/// input order.
///
/// Progress is reported as a fraction of the input bytes read; `cancel` is polled every few
/// thousand lines (throws Cancelled).
///
/// \throws InputError naming file, line and problem for unreadable, malformed, binary or empty
/// input, and when no word or no document survives the cuts.
/// Cost: one pass over the input text plus sorts of the vocabulary; memory for UCI input is the
/// CSR arrays (8 bytes per non-zero) plus O(D + W).
Corpus loadCorpus(const std::string& path, const CorpusLoadOptions& options = {},
                  const CancelToken& cancel = {}, const ProgressFn& progress = {});

/// "2904 words dropped by the vocabulary cap of 21578 (automatic …)" when the cap of
/// `report` dropped words, else "" — what the GUI's load report and the CLI print.
std::string vocabularyCapNote(const LoadReport& report);

/// Parses "auto|tsv|csv|uci|reuters|txt"; throws InputError on anything else.
CorpusFormat parseCorpusFormat(const std::string& text);
const char* toString(CorpusFormat format);

/// The bundled English stop-word list (lower case, sorted, unique): the SMART list (Salton and
/// Buckley; as used by Lewis et al. for RCV1) without its apostrophe contractions, which the
/// tokeniser can never produce, plus the fragments those leave ("didn", "ll", "ve", ...).
const std::vector<std::string>& englishStopWords();

} // namespace cx
