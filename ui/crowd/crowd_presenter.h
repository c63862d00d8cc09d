#pragma once

#include "core/crowd/crowd_evaluation.h"
#include "ui/crowd/crowd_types.h"
#include "ui/framework/provenance.h"

#include <QString>

#include <vector>

namespace cx::ui {

/// Pure presenter functions of the Crowd workspace: what its views show, computed from the
/// labels and the results (no widgets; unit-tested in tests/ui/crowd/test_crowd_presenter.cpp).

/// The method's name in the method picker ("Stagewise EM + refine").
QString crowdMethodLabel(cx::CrowdMethod method);

/// The status line of a fit (rich text): method, error on gold (when there is gold), informative
/// workers, iterations, time and the method's notes.
QString crowdRunSummary(const cx::CrowdLabels& data, const cx::CrowdResult& result);

/// The data panel's summary (rich text): file, items, workers, labels, classes, density, gold
/// and the reader's warnings.
QString crowdDataSummary(const cx::CrowdLabels& data, const QString& labelsPath,
                         const QString& goldPath);

/// The inputs a crowd result comes from (for the stale marker): the labels and gold files and
/// the options every method uses (K, seed, restarts, EM and stagewise settings).
Provenance crowdProvenance(const QString& labelsPath, const QString& goldPath,
                           const cx::CrowdOptions& options);

} // namespace cx::ui
