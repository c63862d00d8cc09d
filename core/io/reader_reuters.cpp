// Reuters-21578 SGML reader (reut2-*.sgm[.gz]). SGML, not XML: parsed by simple tag matching.
// One document per <REUTERS> block; text = TITLE + BODY (or the raw TEXT content when neither
// is marked up, as in TYPE="UNPROC" stories); labels from the TOPICS, PLACES, PEOPLE, ORGS and
// EXCHANGES elements (<D>value</D> lists) plus the LEWISSPLIT attribute.

#include "core/common/error.h"
#include "core/io/corpus_builder.h"
#include "core/io/tokenizer.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cx {

namespace {

constexpr std::array<const char*, 5> kLabelElements = {"TOPICS", "PLACES", "PEOPLE", "ORGS",
                                                       "EXCHANGES"};
constexpr size_t kLewisSplitField = kLabelElements.size();

char upper(char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

/// Case-insensitive find of an upper-case ASCII `needle`.
size_t findNoCase(std::string_view haystack, std::string_view needle, size_t from = 0) {
    if (needle.empty() || needle.size() > haystack.size()) {
        return std::string_view::npos;
    }
    const bool literalFirst = !(needle[0] >= 'A' && needle[0] <= 'Z');
    for (size_t i = from; i + needle.size() <= haystack.size(); ++i) {
        if (literalFirst) {
            // Every needle here starts with '<': jump straight to the next one.
            i = haystack.find(needle[0], i);
            if (i == std::string_view::npos || i + needle.size() > haystack.size()) {
                return std::string_view::npos;
            }
        }
        size_t j = 0;
        while (j < needle.size() && upper(haystack[i + j]) == needle[j]) {
            ++j;
        }
        if (j == needle.size()) {
            return i;
        }
    }
    return std::string_view::npos;
}

bool isNameChar(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
}

/// Position of the start tag "<NAME" (followed by '>' or attributes) at or after `from`.
size_t findStartTag(std::string_view text, std::string_view name, size_t from = 0) {
    const std::string open = "<" + std::string(name);
    for (size_t at = findNoCase(text, open, from); at != std::string_view::npos;
         at = findNoCase(text, open, at + 1)) {
        const size_t after = at + open.size();
        if (after >= text.size() || !isNameChar(text[after])) {
            return at;
        }
    }
    return std::string_view::npos;
}

/// Content of the element NAME at or after `from`: between the end of its start tag and its
/// end tag. Returns false if there is no start tag; `closed` says whether the end tag was found
/// (if not, the content runs to the end of `text`).
bool findElement(std::string_view text, std::string_view name, std::string_view& content,
                 size_t& contentBegin, bool& closed, size_t from = 0) {
    const size_t start = findStartTag(text, name, from);
    if (start == std::string_view::npos) {
        return false;
    }
    const size_t tagEnd = text.find('>', start);
    if (tagEnd == std::string_view::npos) {
        return false;
    }
    contentBegin = tagEnd + 1;
    const size_t close = findNoCase(text, "</" + std::string(name) + ">", contentBegin);
    closed = close != std::string_view::npos;
    content = text.substr(contentBegin, (closed ? close : text.size()) - contentBegin);
    return true;
}

/// Value of attribute `name` (upper case) in a start tag such as
/// <REUTERS TOPICS="YES" NEWID="1">, or "" if absent.
std::string attribute(std::string_view tag, std::string_view name) {
    size_t i = tag.find_first_of(" \t\r\n");
    while (i != std::string_view::npos && i < tag.size()) {
        while (i < tag.size() &&
               (tag[i] == ' ' || tag[i] == '\t' || tag[i] == '\r' || tag[i] == '\n')) {
            ++i;
        }
        const size_t nameStart = i;
        while (i < tag.size() && isNameChar(tag[i])) {
            ++i;
        }
        const std::string_view attributeName = tag.substr(nameStart, i - nameStart);
        if (attributeName.empty()) {
            return {};
        }
        while (i < tag.size() && tag[i] == ' ') {
            ++i;
        }
        std::string_view value;
        if (i < tag.size() && tag[i] == '=') {
            ++i;
            while (i < tag.size() && tag[i] == ' ') {
                ++i;
            }
            if (i < tag.size() && (tag[i] == '"' || tag[i] == '\'')) {
                const size_t close = tag.find(tag[i], i + 1);
                const size_t stop = close == std::string_view::npos ? tag.size() : close;
                value = tag.substr(i + 1, stop - i - 1);
                i = stop + 1;
            } else {
                const size_t valueStart = i;
                while (i < tag.size() && tag[i] != ' ' && tag[i] != '>') {
                    ++i;
                }
                value = tag.substr(valueStart, i - valueStart);
            }
        }
        if (findNoCase(attributeName, name) == 0 && attributeName.size() == name.size()) {
            return std::string(value);
        }
    }
    return {};
}

/// Decodes &lt; &gt; &amp; &quot; and numeric references; control-character references such
/// as &#2; and &#3; (which bracket every story) are dropped. Anything else is copied.
void decodeEntities(std::string_view text, std::string& out) {
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c != '&') {
            out.push_back(c);
            continue;
        }
        const size_t semicolon = text.find(';', i + 1);
        if (semicolon == std::string_view::npos || semicolon - i > 10) {
            out.push_back(c);
            continue;
        }
        const std::string_view name = text.substr(i + 1, semicolon - i - 1);
        if (name == "lt") {
            out.push_back('<');
        } else if (name == "gt") {
            out.push_back('>');
        } else if (name == "amp") {
            out.push_back('&');
        } else if (name == "quot") {
            out.push_back('"');
        } else if (name.size() >= 2 && name[0] == '#' &&
                   name.find_first_not_of("0123456789", 1) == std::string_view::npos) {
            long code = std::stol(std::string(name.substr(1, 7)));
            if (code >= 32 && code < 127) {
                out.push_back(static_cast<char>(code));
            } else if (code >= 160 && code < 256) {
                out.push_back(static_cast<char>(0xC0 | (code >> 6))); // Latin-1 as UTF-8
                out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
            }
            // Control characters (and anything stranger) are dropped.
        } else {
            out.push_back(c);
            continue;
        }
        i = semicolon;
    }
}

/// Appends `text` with SGML tags (<...>) removed.
void stripTags(std::string_view text, std::string& out) {
    size_t i = 0;
    while (i < text.size()) {
        const size_t open = text.find('<', i);
        if (open == std::string_view::npos) {
            out.append(text.substr(i));
            return;
        }
        out.append(text.substr(i, open - i));
        const size_t close = text.find('>', open);
        if (close == std::string_view::npos) {
            return;
        }
        out.push_back(' ');
        i = close + 1;
    }
}

class ReutersParser {
public:
    ReutersParser(const CorpusLoadOptions& options, RawCorpus& raw)
        : m_raw(raw), m_counter(options.removeStopWords) {
        std::vector<std::string> names;
        for (const char* element : kLabelElements) {
            names.push_back(toLowerAscii(element));
        }
        names.emplace_back("lewissplit");
        m_raw.labels = LabelTable(names);
    }

    void readFile(const std::string& path, ReadProgress& tracker) {
        LineReader reader(path);
        TextLineCheck check(m_raw.report.invalidBytes);
        const std::int64_t blocksBefore = m_counter.numDocuments();
        std::string block;
        std::int64_t blockLine = 0;
        bool inBlock = false;
        bool justOpened = false; // the current line holds the start tag of the open block
        std::string_view line;
        while (reader.next(line)) {
            check.check(line, reader);
            tracker.tick(reader);
            size_t pos = 0;
            justOpened = false;
            while (pos <= line.size()) {
                if (!inBlock) {
                    const size_t start = findStartTag(line, "REUTERS", pos);
                    if (start == std::string_view::npos) {
                        break;
                    }
                    inBlock = true;
                    justOpened = true;
                    blockLine = reader.lineNumber();
                    block.clear();
                    pos = start;
                    continue;
                }
                const size_t close = findNoCase(line, "</REUTERS>", pos);
                const size_t nested = findStartTag(line, "REUTERS", justOpened ? pos + 1 : pos);
                if (nested != std::string_view::npos &&
                    (close == std::string_view::npos || nested < close)) {
                    throw InputError(path, blockLine,
                                     "<REUTERS> block is not closed (a new block starts on line " +
                                         std::to_string(reader.lineNumber()) +
                                         " before </REUTERS>)");
                }
                if (close == std::string_view::npos) {
                    block.append(line.substr(pos));
                    block.push_back('\n');
                    break;
                }
                block.append(line.substr(pos, close - pos));
                parseBlock(block, path, blockLine);
                inBlock = false;
                justOpened = false;
                pos = close + 10;
            }
        }
        if (inBlock) {
            throw InputError(path, blockLine,
                             "<REUTERS> block is not closed (no </REUTERS> before the end of the "
                             "file)");
        }
        if (m_counter.numDocuments() == blocksBefore) {
            throw InputError(path, 0,
                             reader.lineNumber() == 0
                                 ? "empty file"
                                 : "no <REUTERS> block found (is this a Reuters-21578 .sgm file?)");
        }
    }

    TokenCounter& counter() { return m_counter; }

private:
    std::int64_t lineAt(std::string_view block, size_t offset, std::int64_t blockLine) const {
        std::int64_t line = blockLine;
        for (size_t i = 0; i < offset && i < block.size(); ++i) {
            line += block[i] == '\n' ? 1 : 0;
        }
        return line;
    }

    void parseBlock(std::string_view block, const std::string& path, std::int64_t blockLine) {
        const size_t tagEnd = block.find('>');
        const std::string_view startTag =
            block.substr(0, tagEnd == std::string_view::npos ? block.size() : tagEnd);
        const std::string newId = attribute(startTag, "NEWID");
        const std::string lewisSplit = attribute(startTag, "LEWISSPLIT");
        if (newId.empty()) {
            addWarning(m_raw.report, path, blockLine, "<REUTERS> block has no NEWID attribute");
        }
        m_raw.documentIds.push_back(newId.empty() ? baseName(path) + ":" + std::to_string(blockLine)
                                                  : toValidUtf8(newId));

        // Labels live before <TEXT>; searching only there keeps story text out of it.
        const size_t textStart = findStartTag(block, "TEXT");
        const std::string_view head = block.substr(0, textStart);
        for (size_t field = 0; field < kLabelElements.size(); ++field) {
            std::string_view content;
            size_t contentBegin = 0;
            bool closed = false;
            if (!findElement(head, kLabelElements[field], content, contentBegin, closed)) {
                continue;
            }
            if (!closed) {
                addWarning(m_raw.report, path, lineAt(block, contentBegin, blockLine),
                           std::string("<") + kLabelElements[field] + "> is not closed");
            }
            size_t from = 0;
            std::string_view value;
            size_t valueBegin = 0;
            bool valueClosed = false;
            while (findElement(content, "D", value, valueBegin, valueClosed, from)) {
                m_decoded.clear();
                decodeEntities(value, m_decoded);
                m_raw.labels.addValue(field, m_decoded);
                from = valueBegin + value.size();
            }
        }
        m_raw.labels.addValue(kLewisSplitField, lewisSplit);
        m_raw.labels.endRow();

        m_text.clear();
        if (textStart != std::string_view::npos) {
            std::string_view text;
            size_t textBegin = 0;
            bool closed = false;
            findElement(block, "TEXT", text, textBegin, closed, textStart);
            if (!closed) {
                addWarning(m_raw.report, path, lineAt(block, textBegin, blockLine),
                           "<TEXT> is not closed");
            }
            std::string_view title;
            std::string_view body;
            size_t at = 0;
            bool titleClosed = true;
            bool bodyClosed = true;
            const bool hasTitle = findElement(text, "TITLE", title, at, titleClosed);
            const bool hasBody = findElement(text, "BODY", body, at, bodyClosed);
            if (hasTitle || hasBody) {
                decodeEntities(title, m_text);
                m_text.push_back('\n');
                decodeEntities(body, m_text);
            } else {
                m_untagged.clear();
                stripTags(text, m_untagged);
                decodeEntities(m_untagged, m_text);
            }
        }
        m_counter.addDocument(m_text);
    }

    RawCorpus& m_raw;
    TokenCounter m_counter;
    std::string m_text;
    std::string m_untagged;
    std::string m_decoded;
};

} // namespace

RawCorpus readReuters(const std::vector<std::string>& paths, const CorpusLoadOptions& options,
                      const CancelToken& cancel, const ProgressFn& progress) {
    RawCorpus raw;
    raw.report.files = paths;
    ReutersParser parser(options, raw);
    ReadProgress tracker(cancel, progress, totalFileSize(paths));
    for (const std::string& path : paths) {
        parser.readFile(path, tracker);
        tracker.fileDone(totalFileSize({path}));
    }
    raw.words = std::move(parser.counter().words);
    raw.excerpts = std::move(parser.counter().excerpts);
    raw.counts = parser.counter().takeCounts();
    return raw;
}

} // namespace cx
