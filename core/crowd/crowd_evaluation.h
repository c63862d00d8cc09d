#pragma once

// What a crowd fit says beyond its predictions, for the Crowd workspace's views and the CLI:
// the order of workers in the conditional-mutual-information heatmap, the confusion against
// gold and the items on which several fits disagree. Qt-free.

#include "core/crowd/crowd_methods.h"
#include "core/io/crowd_labels.h"

#include <Eigen/Dense>

#include <vector>

namespace cx {

/// The workers in the CMI heatmap's order: the informative set in the order its workers
/// entered it, then every other worker by estimated accuracy (descending; ties keep index order).
std::vector<int> crowdCmiWorkerOrder(const CrowdLabels& data, const CrowdResult& result);

/// The confusion against gold: row g, column p = the fraction of the items of gold class g
/// predicted as p (a row of zeros when class g has no gold item); `totals[g]` = gold items of g.
struct CrowdConfusion {
    Eigen::MatrixXd fractions;
    Eigen::VectorXd totals;
};
/// \pre data.hasGold()
CrowdConfusion crowdConfusion(const CrowdLabels& data, const CrowdResult& result);

/// The items (ascending) on which the predictions of `results` are not all the same.
std::vector<int> crowdDisagreements(int numItems, const std::vector<const CrowdResult*>& results);

} // namespace cx
