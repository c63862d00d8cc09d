#pragma once

#include "ui/crowd/crowd_types.h"

#include <Eigen/Dense>

#include <QString>

#include <vector>

namespace cx::ui {

/// Pure presenter functions of the Crowd workspace: what its views show, computed from the
/// labels and the results (no widgets; unit-tested in tests/ui/crowd/test_crowd_presenter.cpp).

/// The method's name in the method picker ("Stagewise EM + refine").
QString crowdMethodLabel(cx::CrowdMethod method);

/// The workers in the CMI heatmap's order: the informative set in the order its workers
/// entered it, then every other worker by estimated accuracy (descending; ties keep index order).
std::vector<int> crowdCmiWorkerOrder(const cx::CrowdLabels& data, const cx::CrowdResult& result);

/// The confusion against gold: row g, column p = the fraction of the items of gold class g
/// predicted as p (a row of zeros when class g has no gold item); `totals[g]` = gold items of g.
struct CrowdConfusion {
    Eigen::MatrixXd fractions;
    Eigen::VectorXd totals;
};
/// \pre data.hasGold()
CrowdConfusion crowdConfusion(const cx::CrowdLabels& data, const cx::CrowdResult& result);

/// The items (ascending) on which the predictions of `results` are not all the same.
std::vector<int> crowdDisagreements(int numItems,
                                    const std::vector<const cx::CrowdResult*>& results);

/// The status line of a fit (rich text): method, error on gold (when there is gold), informative
/// workers, iterations, time and the method's notes.
QString crowdRunSummary(const cx::CrowdLabels& data, const cx::CrowdResult& result);

/// The data panel's summary (rich text): file, items, workers, labels, classes, density, gold
/// and the reader's warnings.
QString crowdDataSummary(const cx::CrowdLabels& data, const QString& labelsPath,
                         const QString& goldPath);

} // namespace cx::ui
