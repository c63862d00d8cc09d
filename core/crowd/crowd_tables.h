#pragma once

#include "core/crowd/crowd_methods.h"

#include <string>

namespace cx {

/// The text tables of a crowd result, shared by `contrast-cli crowd --out` and the GUI's
/// exports (tab-separated, header first, numbers with 6 significant digits).

/// labels.tsv: item, predicted label, P(class | labels) per class (columns p_CLASS).
std::string crowdLabelsTable(const CrowdLabels& data, const CrowdResult& result);
/// workers.tsv: worker, labels, informative (0/1), estimated accuracy with its 95 % Wilson
/// interval, the confusion matrix row-major (p_GIVEN_given_TRUE).
std::string crowdWorkersTable(const CrowdLabels& data, const CrowdResult& result);
/// trace.tsv: per iteration the log-likelihood, max CMI, informative-set size and components.
std::string crowdTraceTable(const CrowdResult& result);
/// "%.6g".
std::string formatCrowdNumber(double value);

} // namespace cx
