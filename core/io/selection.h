#pragma once

#include "core/io/corpus.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cx {

/// One clause of a selection rule: documents whose field `field` has any of `values`
/// (negated: has none of them).
struct RuleClause {
    std::string field;
    std::vector<std::string> values;
    bool negated = false;
};

/// A document selection rule: clauses joined with AND.
///   "places=usa"                  documents labelled usa in field places
///   "topics=gnp,cpi,trade"        any of the three
///   "!topics=earn"                none of them
///   "places=usa;!topics=earn"     both conditions
///   "*" or ""                     every document
/// Field names and values are matched case-insensitively; surrounding spaces are ignored.
///
/// Grammar:
///   rule   := "" | "*" | clause { ";" clause } [ ";" ]
///   clause := [ "!" ] field "=" value { "," value }
/// A field name may hold any character but '=', ';', ',' and '!'; a value any character but
/// ',', ';' and '='. Positions in error messages count characters of the rule text from 1.
struct SelectionRule {
    std::vector<RuleClause> clauses;
    std::string text; ///< the rule as the user wrote it

    /// \throws InputError("rule 'TEXT': PROBLEM at position N") on a syntax error.
    static SelectionRule parse(const std::string& text);
    /// Canonical text (fields and values lower case, ';' joined).
    std::string toString() const;
};

/// Result of applying a rule: the selected documents in increasing order, plus warnings
/// (e.g. values that occur in no document).
struct Selection {
    std::vector<std::int64_t> documents;
    std::vector<std::string> warnings;
};

/// Applies a rule to a corpus. \throws InputError when a field does not exist (the message lists
/// the fields that do) or when none of a clause's values occurs in the corpus.
Selection selectDocuments(const Corpus& corpus, const SelectionRule& rule);
inline Selection selectDocuments(const Corpus& corpus, const std::string& rule) {
    return selectDocuments(corpus, SelectionRule::parse(rule));
}

/// Where the background of a contrastive analysis comes from.
enum class BackgroundMode {
    Rule,          ///< documents matching the background rule
    NotForeground, ///< every document not in the foreground
    All,           ///< every document (foreground included)
};

/// The documents of a foreground/background choice and what the rules warned about.
struct ForegroundBackground {
    std::vector<std::int64_t> foreground; ///< increasing
    std::vector<std::int64_t> background; ///< increasing
    std::int64_t overlap = 0;             ///< documents in both
    std::vector<std::string> foregroundWarnings;
    std::vector<std::string> backgroundWarnings; ///< BackgroundMode::Rule only
};

/// Applies `foregroundRule` and the background choice (`backgroundRule` is used with
/// BackgroundMode::Rule only) to `corpus`: what the Topics workspace and `contrast-cli topics`
/// both analyse. Cost O(documents · labels). \throws InputError as selectDocuments.
ForegroundBackground selectForegroundBackground(const Corpus& corpus,
                                                const std::string& foregroundRule,
                                                BackgroundMode mode,
                                                const std::string& backgroundRule = {});

/// The positives of the specificity test: flag i is true when `foreground[i]` matches
/// `positiveRule`. Cost O(documents · labels + |foreground| log n). \throws InputError on a bad
/// rule.
std::vector<bool> matchForeground(const Corpus& corpus, const std::vector<std::int64_t>& foreground,
                                  const std::string& positiveRule);

/// The values of a label field with the number of documents carrying each, most frequent first
/// (ties alphabetical), at most `limit` of them (0 = all), for pickers in the GUI. Values
/// carried by no document are left out. Uses field.valueDocumentCounts when it is filled,
/// otherwise counts from the field's CSR arrays. Cost: O(V log V).
std::vector<std::pair<std::string, std::int64_t>> topValues(const LabelField& field, size_t limit);

} // namespace cx
