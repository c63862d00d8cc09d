#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cx {

/// One observed crowd label: worker `worker` gave class `label` to item `item` (all 0-based
/// indices into CrowdLabels' name tables).
struct CrowdObservation {
    int item = 0;
    int worker = 0;
    int label = 0;
};

/// Crowdsourced labels as an items × workers matrix over a finite set of classes.
///
/// `labels[n * numWorkers + m]` is the class worker m gave item n, or kMissingLabel. `observations`
/// keeps the same labels in file order (majority vote breaks ties toward the first-seen answer).
/// `gold[n]` is the expert label of item n or kMissingLabel.
struct CrowdLabels {
    static constexpr int kMissingLabel = -1;

    int numItems = 0;
    int numWorkers = 0;
    int numClasses = 0;
    std::vector<int> labels;
    std::vector<CrowdObservation> observations;
    std::vector<int> gold;
    std::vector<std::string> itemNames;   ///< ids as written in the file, first-seen order
    std::vector<std::string> workerNames; ///< ids as written in the file, first-seen order
    /// Class names: numeric order when every label is an integer, otherwise lexicographic.
    std::vector<std::string> classNames;
    std::vector<std::string> warnings;
    std::string labelsPath;
    std::string goldPath;

    int at(int item, int worker) const {
        return labels[static_cast<size_t>(item) * static_cast<size_t>(numWorkers) +
                      static_cast<size_t>(worker)];
    }
    bool hasGold() const;
    int numGold() const;
};

/// Builds a CrowdLabels from an items × workers matrix (kMissingLabel = not labelled) with
/// generated names ("item1", "worker1", class names "0", "1", …); used by the synthetic
/// generator and tests. Observations are listed item by item, worker by worker.
/// \throws std::invalid_argument if a label is outside [0, numClasses) and not missing, or the
///   sizes disagree.
CrowdLabels crowdLabelsFromMatrix(int numItems, int numWorkers, int numClasses,
                                  const std::vector<int>& labels,
                                  const std::vector<int>& gold = {});

/// Reads a crowd label file (CSV or TSV, detected from the first line; CRLF tolerated; fields may
/// be double-quoted in CSV) and, if `goldPath` is not empty, a gold file.
///
/// Label file: a header naming the columns in any order — item (`question`, `item`, `task`,
/// `orig_id`, `item_id`, …), worker (`worker`, `annotator`, `worker_id`, `amt_worker_ids`, …),
/// label (`answer`, `label`, `response`, …) and optionally gold (`gold`, `truth`, …); a leading
/// `!` of a column name is ignored — or no header at all, then the columns are item, worker,
/// label. Ids and labels are arbitrary strings (integers included). Gold file: item and truth
/// columns, header optional. A gold item absent from the labels is counted in a warning.
///
/// \throws InputError(file, line, problem) on an empty or binary file, a row with the wrong
///   number of fields, an empty id or label, the same worker labelling an item twice, gold that
///   disagrees with itself, more than 64 distinct classes, or a gold file naming no labelled
///   item. Cost O(file size).
CrowdLabels readCrowdLabels(const std::string& labelsPath, const std::string& goldPath = {});

/// What a file's header line says it is: Labels when it names an item, a worker and a label
/// column; Gold when it names an item and a truth column but no worker; NotCrowd otherwise
/// (headerless files included). Reads one line; never throws.
enum class CrowdFileKind { NotCrowd, Labels, Gold };
CrowdFileKind sniffCrowdFile(const std::string& path);

/// Accuracy of `predicted` against the gold labels (items without gold are skipped); NaN when
/// no item has gold.
double goldAccuracy(const CrowdLabels& data, const std::vector<int>& predicted);

} // namespace cx
