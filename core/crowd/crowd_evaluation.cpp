#include "core/crowd/crowd_evaluation.h"

#include <algorithm>

namespace cx {

std::vector<int> crowdCmiWorkerOrder(const CrowdLabels& data, const CrowdResult& result) {
    std::vector<int> order(result.informativeOrder.begin(), result.informativeOrder.end());
    std::vector<int> rest;
    for (int m = 0; m < data.numWorkers; ++m) {
        if (std::find(order.begin(), order.end(), m) == order.end()) {
            rest.push_back(m);
        }
    }
    std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
        return result.workers[static_cast<size_t>(a)].accuracy >
               result.workers[static_cast<size_t>(b)].accuracy;
    });
    order.insert(order.end(), rest.begin(), rest.end());
    return order;
}

CrowdConfusion crowdConfusion(const CrowdLabels& data, const CrowdResult& result) {
    CrowdConfusion out;
    out.fractions = Eigen::MatrixXd::Zero(data.numClasses, data.numClasses);
    out.totals = Eigen::VectorXd::Zero(data.numClasses);
    for (int n = 0; n < data.numItems && static_cast<size_t>(n) < data.gold.size(); ++n) {
        const int gold = data.gold[static_cast<size_t>(n)];
        if (gold != CrowdLabels::kMissingLabel) {
            out.fractions(gold, result.predicted[static_cast<size_t>(n)]) += 1;
            out.totals[gold] += 1;
        }
    }
    for (int c = 0; c < data.numClasses; ++c) {
        if (out.totals[c] > 0) {
            out.fractions.row(c) /= out.totals[c];
        }
    }
    return out;
}

std::vector<int> crowdDisagreements(int numItems, const std::vector<const CrowdResult*>& results) {
    std::vector<int> items;
    if (results.empty()) {
        return items;
    }
    for (int n = 0; n < numItems; ++n) {
        const int first = results.front()->predicted[static_cast<size_t>(n)];
        if (std::any_of(results.begin(), results.end(), [&](const CrowdResult* result) {
                return result->predicted[static_cast<size_t>(n)] != first;
            })) {
            items.push_back(n);
        }
    }
    return items;
}

} // namespace cx
