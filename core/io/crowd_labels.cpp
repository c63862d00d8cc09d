#include "core/io/crowd_labels.h"

#include "core/common/error.h"
#include "core/io/text_input.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace cx {

namespace {

constexpr int kMaxClasses = 64;

enum class Column { Item, Worker, Label, Gold, Other };

std::string trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return std::string(text);
}

/// Splits one line at `delimiter`. CSV fields may be double-quoted ("a,b" and "" inside);
/// LineReader already removed the line terminator. Returns false on an unterminated quote.
bool splitFields(std::string_view line, char delimiter, std::vector<std::string>& fields) {
    fields.clear();
    std::string field;
    bool quoted = false;
    bool wasQuoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < line.size() && line[i + 1] == '"') {
                    field.push_back('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field.push_back(c);
            }
        } else if (c == '"' && delimiter == ',' && trimmed(field).empty()) {
            quoted = true;
            wasQuoted = true;
            field.clear();
        } else if (c == delimiter) {
            fields.push_back(wasQuoted ? field : trimmed(field));
            field.clear();
            wasQuoted = false;
        } else {
            field.push_back(c);
        }
    }
    if (quoted) {
        return false;
    }
    fields.push_back(wasQuoted ? field : trimmed(field));
    return true;
}

Column columnKind(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    while (!name.empty() && name.front() == '!') {
        name.erase(name.begin());
    }
    static const std::map<std::string, Column> kinds = {
        {"question", Column::Item},
        {"item", Column::Item},
        {"task", Column::Item},
        {"orig_id", Column::Item},
        {"item_id", Column::Item},
        {"question_id", Column::Item},
        {"task_id", Column::Item},
        {"object", Column::Item},
        {"example", Column::Item},
        {"image", Column::Item},
        {"worker", Column::Worker},
        {"annotator", Column::Worker},
        {"worker_id", Column::Worker},
        {"annotator_id", Column::Worker},
        {"amt_worker_ids", Column::Worker},
        {"labeler", Column::Worker},
        {"rater", Column::Worker},
        {"performer", Column::Worker},
        {"user", Column::Worker},
        {"answer", Column::Label},
        {"label", Column::Label},
        {"response", Column::Label},
        {"annotation", Column::Label},
        {"rating", Column::Label},
        {"gold", Column::Gold},
        {"truth", Column::Gold},
        {"true_label", Column::Gold},
        {"golden", Column::Gold},
        {"gold_label", Column::Gold},
    };
    const auto it = kinds.find(name);
    return it == kinds.end() ? Column::Other : it->second;
}

/// Column positions of one file; -1 = absent.
struct Layout {
    int item = -1;
    int worker = -1;
    int label = -1;
    int gold = -1;
    size_t numFields = 0;
    bool hasHeader = false;
};

char detectDelimiter(std::string_view firstLine) {
    return firstLine.find('\t') != std::string_view::npos ? '\t' : ',';
}

bool looksBinary(std::string_view line) {
    return line.find('\0') != std::string_view::npos;
}

/// Interns strings to dense indices in first-seen order.
class Interner {
public:
    int index(const std::string& name, std::vector<std::string>& names) {
        const auto [it, inserted] = m_ids.emplace(name, static_cast<int>(names.size()));
        if (inserted) {
            names.push_back(name);
        }
        return it->second;
    }
    int find(const std::string& name) const {
        const auto it = m_ids.find(name);
        return it == m_ids.end() ? -1 : it->second;
    }

private:
    std::unordered_map<std::string, int> m_ids;
};

bool isInteger(const std::string& text, long long& value) {
    if (text.empty() || text.size() > 18) {
        return false;
    }
    size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
    if (i == text.size()) {
        return false;
    }
    long long v = 0;
    for (; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') {
            return false;
        }
        v = v * 10 + (text[i] - '0');
    }
    value = text[0] == '-' ? -v : v;
    return true;
}

/// Class order: numeric when every name is an integer, otherwise lexicographic. Returns the
/// permutation old index → new index and reorders `names`.
std::vector<int> sortClasses(std::vector<std::string>& names) {
    std::vector<int> order(names.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<int>(i);
    }
    bool numeric = true;
    std::vector<long long> values(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        numeric = numeric && isInteger(names[i], values[i]);
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return numeric ? values[static_cast<size_t>(a)] < values[static_cast<size_t>(b)]
                       : names[static_cast<size_t>(a)] < names[static_cast<size_t>(b)];
    });
    std::vector<int> newIndex(names.size());
    std::vector<std::string> sorted(names.size());
    for (size_t rank = 0; rank < order.size(); ++rank) {
        newIndex[static_cast<size_t>(order[rank])] = static_cast<int>(rank);
        sorted[rank] = names[static_cast<size_t>(order[rank])];
    }
    names = std::move(sorted);
    return newIndex;
}

Layout labelLayout(const std::string& path, const std::vector<std::string>& header) {
    Layout layout;
    layout.numFields = header.size();
    for (size_t c = 0; c < header.size(); ++c) {
        const Column kind = columnKind(header[c]);
        int* slot = kind == Column::Item     ? &layout.item
                    : kind == Column::Worker ? &layout.worker
                    : kind == Column::Label  ? &layout.label
                    : kind == Column::Gold   ? &layout.gold
                                             : nullptr;
        if (slot == nullptr) {
            continue;
        }
        if (*slot >= 0) {
            throw InputError(path, 1,
                             "header names two columns of the same kind: '" +
                                 header[static_cast<size_t>(*slot)] + "' and '" + header[c] + "'");
        }
        *slot = static_cast<int>(c);
        layout.hasHeader = true;
    }
    if (!layout.hasHeader) {
        if (header.size() != 3) {
            throw InputError(
                path, 1,
                "no header naming item/worker/label columns, and " + std::to_string(header.size()) +
                    " fields instead of the 3 of a headerless item, worker, label file");
        }
        layout.item = 0;
        layout.worker = 1;
        layout.label = 2;
        return layout;
    }
    const auto missing = [&](int slot, const char* what) {
        if (slot < 0) {
            throw InputError(path, 1,
                             std::string("header has no ") + what + " column (expected one of: " +
                                 (std::string(what) == "item"     ? "question, item, task, orig_id"
                                  : std::string(what) == "worker" ? "worker, annotator, worker_id"
                                                                  : "answer, label, response") +
                                 ")");
        }
    };
    missing(layout.item, "item");
    missing(layout.worker, "worker");
    missing(layout.label, "label");
    return layout;
}

struct RawLabels {
    std::vector<CrowdObservation> observations; // class index = order of first appearance
    std::vector<std::int64_t> lines;
    std::vector<std::string> classNames;
    Interner classes;
    std::vector<std::string> itemNames;
    std::vector<std::string> workerNames;
    Interner items;
    Interner workers;
    std::unordered_map<int, int> goldByItem; // item → class (first-appearance index)
};

int internClass(RawLabels& raw, const std::string& path, std::int64_t line,
                const std::string& name) {
    const int index = raw.classes.index(name, raw.classNames);
    if (static_cast<int>(raw.classNames.size()) > kMaxClasses) {
        throw InputError(path, line,
                         "more than " + std::to_string(kMaxClasses) +
                             " distinct labels (last new one: '" + name +
                             "'); is the label column right?");
    }
    return index;
}

/// The non-blank rows of a delimited label or gold file, split into fields; the delimiter is
/// detected on the first such row. Binary data and unterminated quotes are errors naming the line.
class DelimitedRows {
public:
    DelimitedRows(const std::string& path, const char* what)
        : m_path(path), m_what(what), m_reader(path) {}

    /// The next row into fields; false at the end of the file.
    bool next(std::vector<std::string>& fields) {
        std::string_view line;
        while (m_reader.next(line)) {
            const std::int64_t lineNumber = m_reader.lineNumber();
            if (looksBinary(line)) {
                throw InputError(m_path, lineNumber,
                                 std::string("binary data (NUL byte): not a text ") + m_what);
            }
            if (trimmed(line).empty()) {
                continue;
            }
            if (m_rows++ == 0) {
                m_delimiter = detectDelimiter(line);
            }
            if (!splitFields(line, m_delimiter, fields)) {
                throw InputError(m_path, lineNumber, "unterminated quoted field");
            }
            return true;
        }
        return false;
    }
    std::int64_t lineNumber() const { return m_reader.lineNumber(); }

private:
    const std::string& m_path;
    const char* m_what;
    LineReader m_reader;
    char m_delimiter = ',';
    std::int64_t m_rows = 0;
};

void readLabelFile(const std::string& path, RawLabels& raw) {
    DelimitedRows reader(path, "label file");
    std::vector<std::string> fields;
    Layout layout;
    bool first = true;
    std::unordered_map<std::uint64_t, std::int64_t> seenPairs;
    while (reader.next(fields)) {
        const std::int64_t lineNumber = reader.lineNumber();
        if (first) {
            first = false;
            layout = labelLayout(path, fields);
            if (layout.hasHeader) {
                continue;
            }
        }
        if (fields.size() != layout.numFields) {
            throw InputError(path, lineNumber,
                             std::to_string(fields.size()) + " fields, expected " +
                                 std::to_string(layout.numFields) + " as on the first line");
        }
        const std::string& itemName = fields[static_cast<size_t>(layout.item)];
        const std::string& workerName = fields[static_cast<size_t>(layout.worker)];
        const std::string& labelName = fields[static_cast<size_t>(layout.label)];
        if (itemName.empty() || workerName.empty() || labelName.empty()) {
            throw InputError(path, lineNumber,
                             std::string("empty ") + (itemName.empty()     ? "item id"
                                                      : workerName.empty() ? "worker id"
                                                                           : "label"));
        }
        CrowdObservation observation;
        observation.item = raw.items.index(itemName, raw.itemNames);
        observation.worker = raw.workers.index(workerName, raw.workerNames);
        observation.label = internClass(raw, path, lineNumber, labelName);
        const std::uint64_t key = (static_cast<std::uint64_t>(observation.item) << 32) |
                                  static_cast<std::uint32_t>(observation.worker);
        const auto [it, inserted] = seenPairs.emplace(key, lineNumber);
        if (!inserted) {
            throw InputError(path, lineNumber,
                             "worker '" + workerName + "' labels item '" + itemName +
                                 "' a second time (first on line " + std::to_string(it->second) +
                                 ")");
        }
        if (layout.gold >= 0) {
            const std::string& goldName = fields[static_cast<size_t>(layout.gold)];
            if (!goldName.empty()) {
                const int goldClass = internClass(raw, path, lineNumber, goldName);
                const auto [goldIt, fresh] = raw.goldByItem.emplace(observation.item, goldClass);
                if (!fresh && goldIt->second != goldClass) {
                    throw InputError(path, lineNumber,
                                     "gold label '" + goldName + "' of item '" + itemName +
                                         "' disagrees with '" +
                                         raw.classNames[static_cast<size_t>(goldIt->second)] +
                                         "' given on an earlier line");
                }
            }
        }
        raw.observations.push_back(observation);
        raw.lines.push_back(lineNumber);
    }
    if (raw.observations.empty()) {
        throw InputError(path, reader.lineNumber(),
                         first ? "empty file" : "no labels after the header");
    }
}

void readGoldFile(const std::string& path, RawLabels& raw, std::vector<std::string>& warnings) {
    DelimitedRows reader(path, "gold file");
    std::vector<std::string> fields;
    bool first = true;
    int itemColumn = 0;
    int truthColumn = 1;
    size_t numFields = 2;
    int unknownItems = 0;
    int known = 0;
    std::string firstUnknown;
    while (reader.next(fields)) {
        const std::int64_t lineNumber = reader.lineNumber();
        if (first) {
            first = false;
            numFields = fields.size();
            int item = -1;
            int truth = -1;
            for (size_t c = 0; c < fields.size(); ++c) {
                const Column kind = columnKind(fields[c]);
                if (kind == Column::Item) {
                    item = static_cast<int>(c);
                } else if (kind == Column::Gold || kind == Column::Label) {
                    truth = static_cast<int>(c);
                }
            }
            if (item >= 0 || truth >= 0) {
                if (item < 0 || truth < 0) {
                    throw InputError(path, lineNumber,
                                     "gold header needs an item column (question, item, …) and a "
                                     "truth column (truth, gold, label, …)");
                }
                itemColumn = item;
                truthColumn = truth;
                continue;
            }
            if (numFields != 2) {
                throw InputError(path, lineNumber,
                                 std::to_string(numFields) +
                                     " fields: a gold file without a header has 2 (item, truth)");
            }
        }
        if (fields.size() != numFields) {
            throw InputError(path, lineNumber,
                             std::to_string(fields.size()) + " fields, expected " +
                                 std::to_string(numFields) + " as on the first line");
        }
        const std::string& itemName = fields[static_cast<size_t>(itemColumn)];
        const std::string& truthName = fields[static_cast<size_t>(truthColumn)];
        if (itemName.empty() || truthName.empty()) {
            throw InputError(path, lineNumber, itemName.empty() ? "empty item id" : "empty truth");
        }
        const int item = raw.items.find(itemName);
        if (item < 0) {
            if (unknownItems++ == 0) {
                firstUnknown = itemName;
            }
            continue;
        }
        const int truth = internClass(raw, path, lineNumber, truthName);
        const auto [it, fresh] = raw.goldByItem.emplace(item, truth);
        if (!fresh && it->second != truth) {
            throw InputError(
                path, lineNumber,
                "gold for item '" + itemName + "' given twice with different labels ('" +
                    raw.classNames[static_cast<size_t>(it->second)] + "' and '" + truthName + "')");
        }
        ++known;
    }
    if (first) {
        throw InputError(path, reader.lineNumber(), "empty gold file");
    }
    if (known == 0) {
        throw InputError(path, reader.lineNumber(),
                         "no gold item is among the labelled items (first: '" + firstUnknown +
                             "')");
    }
    if (unknownItems > 0) {
        warnings.push_back(path + ": " + std::to_string(unknownItems) +
                           " gold items have no labels and were ignored (first: '" + firstUnknown +
                           "')");
    }
}

} // namespace

CrowdFileKind sniffCrowdFile(const std::string& path) {
    try {
        LineReader reader(path);
        std::string_view line;
        while (reader.next(line)) {
            if (trimmed(line).empty()) {
                continue;
            }
            std::vector<std::string> fields;
            if (looksBinary(line) || !splitFields(line, detectDelimiter(line), fields)) {
                return CrowdFileKind::NotCrowd;
            }
            bool item = false;
            bool worker = false;
            bool label = false;
            bool gold = false;
            for (const std::string& field : fields) {
                const Column kind = columnKind(field);
                item = item || kind == Column::Item;
                worker = worker || kind == Column::Worker;
                label = label || kind == Column::Label;
                gold = gold || kind == Column::Gold;
            }
            if (item && worker && label) {
                return CrowdFileKind::Labels;
            }
            return item && (gold || label) && !worker ? CrowdFileKind::Gold
                                                      : CrowdFileKind::NotCrowd;
        }
    } catch (const std::exception&) {
    }
    return CrowdFileKind::NotCrowd;
}

bool CrowdLabels::hasGold() const {
    return numGold() > 0;
}

int CrowdLabels::numGold() const {
    return static_cast<int>(
        std::count_if(gold.begin(), gold.end(), [](int g) { return g != kMissingLabel; }));
}

CrowdLabels crowdLabelsFromMatrix(int numItems, int numWorkers, int numClasses,
                                  const std::vector<int>& labels, const std::vector<int>& gold) {
    if (numItems < 1 || numWorkers < 1 || numClasses < 1 ||
        labels.size() != static_cast<size_t>(numItems) * static_cast<size_t>(numWorkers) ||
        (!gold.empty() && gold.size() != static_cast<size_t>(numItems))) {
        throw std::invalid_argument("crowdLabelsFromMatrix: sizes disagree (items " +
                                    std::to_string(numItems) + ", workers " +
                                    std::to_string(numWorkers) + ", labels " +
                                    std::to_string(labels.size()) + ")");
    }
    CrowdLabels data;
    data.numItems = numItems;
    data.numWorkers = numWorkers;
    data.numClasses = numClasses;
    data.labels = labels;
    data.gold = gold.empty()
                    ? std::vector<int>(static_cast<size_t>(numItems), CrowdLabels::kMissingLabel)
                    : gold;
    for (int n = 0; n < numItems; ++n) {
        data.itemNames.push_back("item" + std::to_string(n + 1));
        for (int m = 0; m < numWorkers; ++m) {
            const int label = data.at(n, m);
            if (label == CrowdLabels::kMissingLabel) {
                continue;
            }
            if (label < 0 || label >= numClasses) {
                throw std::invalid_argument("crowdLabelsFromMatrix: label " +
                                            std::to_string(label) + " outside [0, " +
                                            std::to_string(numClasses) + ")");
            }
            data.observations.push_back({n, m, label});
        }
    }
    for (int g : data.gold) {
        if (g != CrowdLabels::kMissingLabel && (g < 0 || g >= numClasses)) {
            throw std::invalid_argument("crowdLabelsFromMatrix: gold label " + std::to_string(g) +
                                        " outside [0, " + std::to_string(numClasses) + ")");
        }
    }
    for (int m = 0; m < numWorkers; ++m) {
        data.workerNames.push_back("worker" + std::to_string(m + 1));
    }
    for (int c = 0; c < numClasses; ++c) {
        data.classNames.push_back(std::to_string(c));
    }
    return data;
}

CrowdLabels readCrowdLabels(const std::string& labelsPath, const std::string& goldPath) {
    RawLabels raw;
    CrowdLabels data;
    readLabelFile(labelsPath, raw);
    if (!goldPath.empty()) {
        readGoldFile(goldPath, raw, data.warnings);
    }
    const std::vector<int> newClass = sortClasses(raw.classNames);
    data.labelsPath = labelsPath;
    data.goldPath = goldPath;
    data.numItems = static_cast<int>(raw.itemNames.size());
    data.numWorkers = static_cast<int>(raw.workerNames.size());
    data.numClasses = static_cast<int>(raw.classNames.size());
    data.itemNames = std::move(raw.itemNames);
    data.workerNames = std::move(raw.workerNames);
    data.classNames = std::move(raw.classNames);
    data.labels.assign(static_cast<size_t>(data.numItems) * static_cast<size_t>(data.numWorkers),
                       CrowdLabels::kMissingLabel);
    data.observations.reserve(raw.observations.size());
    for (CrowdObservation observation : raw.observations) {
        observation.label = newClass[static_cast<size_t>(observation.label)];
        data.labels[static_cast<size_t>(observation.item) * static_cast<size_t>(data.numWorkers) +
                    static_cast<size_t>(observation.worker)] = observation.label;
        data.observations.push_back(observation);
    }
    data.gold.assign(static_cast<size_t>(data.numItems), CrowdLabels::kMissingLabel);
    for (const auto& [item, goldClass] : raw.goldByItem) {
        data.gold[static_cast<size_t>(item)] = newClass[static_cast<size_t>(goldClass)];
    }
    if (data.numClasses < 2) {
        data.warnings.push_back(labelsPath + ": every label is '" + data.classNames.front() +
                                "': there is nothing to aggregate");
    }
    return data;
}

double goldAccuracy(const CrowdLabels& data, const std::vector<int>& predicted) {
    int total = 0;
    int correct = 0;
    for (int n = 0; n < data.numItems && static_cast<size_t>(n) < predicted.size(); ++n) {
        const int g = data.gold[static_cast<size_t>(n)];
        if (g == CrowdLabels::kMissingLabel) {
            continue;
        }
        ++total;
        correct += predicted[static_cast<size_t>(n)] == g ? 1 : 0;
    }
    return total == 0 ? std::numeric_limits<double>::quiet_NaN()
                      : static_cast<double>(correct) / total;
}

} // namespace cx
