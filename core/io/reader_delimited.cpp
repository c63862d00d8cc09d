// TSV and CSV corpus reader: a header row naming a `text` column, every other column a label
// field.

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/io/corpus_builder.h"
#include "core/io/tokenizer.h"

#include <string>
#include <vector>

namespace cx {

namespace {

/// Reads records (rows) of a TSV (plain tab split) or CSV (RFC 4180) file. Blank lines between
/// records are skipped. Field strings are reused between records to avoid reallocation.
class RecordReader {
public:
    RecordReader(LineReader& reader, char separator, TextLineCheck& check, ReadProgress& tracker)
        : m_reader(reader), m_separator(separator), m_check(check), m_tracker(tracker) {}

    /// Next record into fields()[0 .. numFields()); false at end of file.
    bool next() {
        std::string_view line;
        do {
            if (!readLine(line)) {
                return false;
            }
        } while (trimAscii(line).empty());
        m_startLine = m_reader.lineNumber();
        m_numFields = 0;
        if (m_separator == '\t') {
            splitTsv(line);
        } else {
            parseCsv(line);
        }
        return true;
    }

    size_t numFields() const { return m_numFields; }
    std::string& field(size_t i) { return m_fields[i]; }
    std::int64_t startLine() const { return m_startLine; }

private:
    bool readLine(std::string_view& line) {
        if (!m_reader.next(line)) {
            return false;
        }
        m_check.check(line, m_reader);
        m_tracker.tick(m_reader);
        return true;
    }

    std::string& newField() {
        if (m_numFields == m_fields.size()) {
            m_fields.emplace_back();
        }
        std::string& out = m_fields[m_numFields++];
        out.clear();
        return out;
    }

    void splitTsv(std::string_view line) {
        size_t start = 0;
        for (;;) {
            const size_t tab = line.find('\t', start);
            std::string& out = newField();
            if (tab == std::string_view::npos) {
                out.assign(line.substr(start));
                return;
            }
            out.assign(line.substr(start, tab - start));
            start = tab + 1;
        }
    }

    // RFC 4180 with the usual leniencies: spaces before an opening quote are dropped, a quote
    // inside an unquoted field is an ordinary character, characters after a closing quote are
    // kept. Quoted fields may hold separators, doubled quotes and line breaks.
    void parseCsv(std::string_view line) {
        enum class State { FieldStart, Unquoted, Quoted, AfterQuote };
        State state = State::FieldStart;
        std::string* current = &newField();
        std::int64_t quoteLine = 0;
        for (;;) {
            for (size_t i = 0; i < line.size(); ++i) {
                const char c = line[i];
                switch (state) {
                case State::FieldStart:
                case State::Unquoted:
                    if (c == m_separator) {
                        current = &newField();
                        state = State::FieldStart;
                    } else if (c == '"' && trimAscii(*current).empty()) {
                        current->clear();
                        quoteLine = m_reader.lineNumber();
                        state = State::Quoted;
                    } else {
                        current->push_back(c);
                        state = State::Unquoted;
                    }
                    break;
                case State::Quoted:
                    if (c == '"') {
                        if (i + 1 < line.size() && line[i + 1] == '"') {
                            current->push_back('"');
                            ++i;
                        } else {
                            state = State::AfterQuote;
                        }
                    } else {
                        current->push_back(c);
                    }
                    break;
                case State::AfterQuote:
                    if (c == m_separator) {
                        current = &newField();
                        state = State::FieldStart;
                    } else if (c != ' ' && c != '\t') {
                        current->push_back(c);
                    }
                    break;
                }
            }
            if (state != State::Quoted) {
                return;
            }
            // A line break inside quotes belongs to the field; the record goes on.
            current->push_back('\n');
            if (!readLine(line)) {
                throw InputError(m_reader.path(), quoteLine,
                                 "unterminated quoted field: the quote opened on this line is "
                                 "never closed");
            }
        }
    }

    LineReader& m_reader;
    char m_separator;
    TextLineCheck& m_check;
    ReadProgress& m_tracker;
    std::vector<std::string> m_fields;
    size_t m_numFields = 0;
    std::int64_t m_startLine = 0;
};

} // namespace

RawCorpus readDelimited(const std::string& path, char separator, const CorpusLoadOptions& options,
                        const CancelToken& cancel, const ProgressFn& progress) {
    RawCorpus raw;
    raw.report.files = {path};
    LineReader reader(path);
    TextLineCheck check(raw.report.invalidBytes);
    ReadProgress tracker(cancel, progress, reader.fileSize());
    RecordReader records(reader, separator, check, tracker);

    if (!records.next()) {
        throw InputError(path, 0, "empty file (expected a header row naming a 'text' column)");
    }
    const std::int64_t headerLine = records.startLine();
    std::vector<std::string> headerCells;
    for (size_t i = 0; i < records.numFields(); ++i) {
        headerCells.push_back(records.field(i));
    }
    const std::vector<std::string> names =
        headerColumnNames(headerCells, raw.report, path, headerLine);
    size_t textColumn = names.size();
    std::vector<std::string> labelNames;
    std::vector<size_t> labelColumns;
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == "text") {
            textColumn = i;
        } else {
            labelNames.push_back(names[i]);
            labelColumns.push_back(i);
        }
    }
    if (textColumn == names.size()) {
        std::string problem =
            "no 'text' column in the header row (columns found: " + quotedList(names) +
            "); the first row must name the columns, one of them 'text'";
        if (names.size() == 1) {
            const char other = separator == '\t' ? ',' : '\t';
            if (names[0].find(other) != std::string::npos) {
                problem += separator == '\t' ? " (is this a CSV file? choose format csv)"
                                             : " (is this a TSV file? choose format tsv)";
            }
        }
        throw InputError(path, headerLine, problem);
    }

    raw.labels = LabelTable(labelNames);
    TokenCounter counter(options.removeStopWords);
    while (records.next()) {
        if (records.numFields() != names.size()) {
            throw InputError(path, records.startLine(),
                             "expected " + std::to_string(names.size()) +
                                 " fields (as in the header), found " +
                                 std::to_string(records.numFields()));
        }
        counter.addDocument(records.field(textColumn));
        for (size_t f = 0; f < labelColumns.size(); ++f) {
            raw.labels.addCell(f, records.field(labelColumns[f]));
        }
        raw.labels.endRow();
        raw.documentIds.push_back(std::to_string(records.startLine()));
    }
    if (counter.numDocuments() == 0) {
        throw InputError(path, reader.lineNumber(), "no data rows after the header row");
    }
    tracker.fileDone(reader.fileSize());
    raw.words = std::move(counter.words);
    raw.excerpts = std::move(counter.excerpts);
    raw.counts = counter.takeCounts();
    return raw;
}

} // namespace cx
