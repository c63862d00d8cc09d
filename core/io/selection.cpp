#include "core/io/selection.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/io/tokenizer.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace cx {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string ruleText(const SelectionRule& rule) {
    return "rule '" + rule.text + "': ";
}

} // namespace

SelectionRule SelectionRule::parse(const std::string& text) {
    SelectionRule rule;
    rule.text = text;
    const std::string_view trimmed = trimAscii(text);
    if (trimmed.empty() || trimmed == "*") {
        return rule;
    }
    const size_t n = text.size();
    size_t i = 0;
    const auto fail = [&](size_t position, const std::string& problem) {
        throw InputError("rule '" + text + "': " + problem + " at position " +
                         std::to_string(position + 1));
    };
    const auto skipSpace = [&] {
        while (i < n && isSpace(text[i])) {
            ++i;
        }
    };
    for (;;) {
        skipSpace();
        if (i == n) {
            break; // a trailing ';' is fine
        }
        if (text[i] == ';') {
            fail(i, "empty clause");
        }
        RuleClause clause;
        if (text[i] == '!') {
            clause.negated = true;
            ++i;
            skipSpace();
        }
        if (i < n && text[i] == '*') {
            fail(i, "'*' must be the whole rule");
        }
        const size_t fieldStart = i;
        while (i < n && text[i] != '=' && text[i] != ';' && text[i] != ',' && text[i] != '!') {
            ++i;
        }
        clause.field =
            toLowerAscii(trimAscii(std::string_view(text).substr(fieldStart, i - fieldStart)));
        if (clause.field.empty()) {
            fail(fieldStart, i < n && text[i] == '!' ? "unexpected '!'" : "expected a field name");
        }
        if (i == n || text[i] != '=') {
            fail(i, "expected '=' after field '" + clause.field + "'");
        }
        ++i;
        for (;;) {
            skipSpace();
            const size_t valueStart = i;
            while (i < n && text[i] != ',' && text[i] != ';' && text[i] != '=') {
                ++i;
            }
            if (i < n && text[i] == '=') {
                fail(i, "unexpected '='");
            }
            std::string value =
                toLowerAscii(trimAscii(std::string_view(text).substr(valueStart, i - valueStart)));
            if (value.empty()) {
                fail(valueStart, "expected a value for field '" + clause.field + "'");
            }
            if (std::find(clause.values.begin(), clause.values.end(), value) ==
                clause.values.end()) {
                clause.values.push_back(std::move(value));
            }
            if (i < n && text[i] == ',') {
                ++i;
                continue;
            }
            break;
        }
        rule.clauses.push_back(std::move(clause));
        if (i == n) {
            break;
        }
        ++i; // ';'
    }
    return rule;
}

std::string SelectionRule::toString() const {
    if (clauses.empty()) {
        return "*";
    }
    std::string out;
    for (size_t c = 0; c < clauses.size(); ++c) {
        if (c > 0) {
            out += ';';
        }
        const RuleClause& clause = clauses[c];
        out += (clause.negated ? "!" : "") + toLowerAscii(clause.field) + "=";
        for (size_t v = 0; v < clause.values.size(); ++v) {
            out += (v > 0 ? "," : "") + toLowerAscii(clause.values[v]);
        }
    }
    return out;
}

Selection selectDocuments(const Corpus& corpus, const SelectionRule& rule) {
    const std::int64_t numDocuments = corpus.numDocuments();
    std::vector<char> keep(static_cast<size_t>(numDocuments), 1);
    Selection selection;
    for (const RuleClause& clause : rule.clauses) {
        const int index = corpus.labelFieldIndex(std::string(trimAscii(clause.field)));
        if (index < 0) {
            std::vector<std::string> names;
            for (const LabelField& field : corpus.labels) {
                names.push_back(field.name);
            }
            throw InputError(ruleText(rule) + "unknown field '" + clause.field + "' " +
                             (names.empty() ? std::string("(this corpus has no label fields)")
                                            : "(fields: " + quotedList(names) + ")"));
        }
        const LabelField& field = corpus.labels[static_cast<size_t>(index)];
        if (static_cast<std::int64_t>(field.offsets.size()) != numDocuments + 1) {
            throw std::invalid_argument("selectDocuments: label field '" + field.name + "' has " +
                                        std::to_string(field.offsets.size()) + " offsets for " +
                                        std::to_string(numDocuments) + " documents");
        }
        const bool haveCounts = field.valueDocumentCounts.size() == field.values.size();
        std::vector<char> wanted(field.values.size(), 0);
        std::vector<std::string> missing;
        bool any = false;
        for (const std::string& raw : clause.values) {
            const std::string value = toLowerAscii(trimAscii(raw));
            const auto found = std::lower_bound(field.values.begin(), field.values.end(), value);
            const bool present =
                found != field.values.end() && *found == value &&
                (!haveCounts || field.valueDocumentCounts[found - field.values.begin()] > 0);
            if (present) {
                wanted[static_cast<size_t>(found - field.values.begin())] = 1;
                any = true;
            } else {
                missing.push_back(value);
            }
        }
        if (!any) {
            throw InputError(ruleText(rule) +
                             (missing.size() == 1
                                  ? "value " + quotedList(missing) + " does not occur"
                                  : "none of the values " + quotedList(missing) + " occurs") +
                             " in field '" + field.name + "' of any document");
        }
        for (const std::string& value : missing) {
            selection.warnings.push_back(ruleText(rule) + "value '" + value +
                                         "' occurs in no document (field '" + field.name + "')");
        }
        for (std::int64_t d = 0; d < numDocuments; ++d) {
            bool has = false;
            for (std::int64_t p = field.offsets[d]; p < field.offsets[d + 1] && !has; ++p) {
                has = wanted[static_cast<size_t>(field.valueIds[p])] != 0;
            }
            if (has == clause.negated) {
                keep[static_cast<size_t>(d)] = 0;
            }
        }
    }
    for (std::int64_t d = 0; d < numDocuments; ++d) {
        if (keep[static_cast<size_t>(d)] != 0) {
            selection.documents.push_back(d);
        }
    }
    if (selection.documents.empty()) {
        selection.warnings.push_back(ruleText(rule) + "selects no documents");
    }
    return selection;
}

std::vector<std::pair<std::string, std::int64_t>> topValues(const LabelField& field, size_t limit) {
    std::vector<std::int64_t> counts = field.valueDocumentCounts;
    if (counts.size() != field.values.size()) {
        counts.assign(field.values.size(), 0);
        for (const std::int32_t id : field.valueIds) {
            if (id >= 0 && static_cast<size_t>(id) < counts.size()) {
                ++counts[static_cast<size_t>(id)];
            }
        }
    }
    std::vector<size_t> order;
    for (size_t v = 0; v < counts.size(); ++v) {
        if (counts[v] > 0) {
            order.push_back(v);
        }
    }
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (counts[a] != counts[b]) {
            return counts[a] > counts[b];
        }
        return field.values[a] < field.values[b];
    });
    if (limit > 0 && order.size() > limit) {
        order.resize(limit);
    }
    std::vector<std::pair<std::string, std::int64_t>> out;
    out.reserve(order.size());
    for (const size_t v : order) {
        out.emplace_back(field.values[v], counts[v]);
    }
    return out;
}

ForegroundBackground selectForegroundBackground(const Corpus& corpus,
                                                const std::string& foregroundRule,
                                                BackgroundMode mode,
                                                const std::string& backgroundRule) {
    ForegroundBackground out;
    Selection foreground = selectDocuments(corpus, SelectionRule::parse(foregroundRule));
    out.foreground = std::move(foreground.documents);
    out.foregroundWarnings = std::move(foreground.warnings);
    if (mode == BackgroundMode::Rule) {
        Selection background = selectDocuments(corpus, SelectionRule::parse(backgroundRule));
        out.background = std::move(background.documents);
        out.backgroundWarnings = std::move(background.warnings);
    } else {
        for (std::int64_t document = 0; document < corpus.numDocuments(); ++document) {
            if (mode == BackgroundMode::All ||
                !std::binary_search(out.foreground.begin(), out.foreground.end(), document)) {
                out.background.push_back(document);
            }
        }
    }
    std::vector<std::int64_t> common;
    std::set_intersection(out.foreground.begin(), out.foreground.end(), out.background.begin(),
                          out.background.end(), std::back_inserter(common));
    out.overlap = static_cast<std::int64_t>(common.size());
    return out;
}

std::vector<bool> matchForeground(const Corpus& corpus, const std::vector<std::int64_t>& foreground,
                                  const std::string& positiveRule) {
    const Selection positives = selectDocuments(corpus, SelectionRule::parse(positiveRule));
    std::vector<bool> flags;
    flags.reserve(foreground.size());
    for (const std::int64_t document : foreground) {
        flags.push_back(
            std::binary_search(positives.documents.begin(), positives.documents.end(), document));
    }
    return flags;
}

} // namespace cx
