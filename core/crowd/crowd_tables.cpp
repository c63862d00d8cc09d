#include "core/crowd/crowd_tables.h"

#include <cstdio>

namespace cx {

std::string formatCrowdNumber(double value) {
    char cell[32];
    std::snprintf(cell, sizeof cell, "%.6g", value);
    return cell;
}

std::string crowdLabelsTable(const CrowdLabels& data, const CrowdResult& result) {
    std::string out = "item\tpredicted";
    for (const std::string& name : data.classNames) {
        out += "\tp_" + name;
    }
    out += '\n';
    for (int n = 0; n < data.numItems; ++n) {
        out += data.itemNames[static_cast<size_t>(n)] + '\t' +
               data.classNames[static_cast<size_t>(result.predicted[static_cast<size_t>(n)])];
        for (int c = 0; c < data.numClasses; ++c) {
            out += '\t' + formatCrowdNumber(result.posterior(n, c));
        }
        out += '\n';
    }
    return out;
}

std::string crowdWorkersTable(const CrowdLabels& data, const CrowdResult& result) {
    std::string out = "worker\tlabels\tinformative\taccuracy\taccuracy_low\taccuracy_high";
    for (const std::string& truth : data.classNames) {
        for (const std::string& given : data.classNames) {
            out += "\tp_" + given + "_given_" + truth;
        }
    }
    out += '\n';
    for (int m = 0; m < data.numWorkers; ++m) {
        const WorkerSummary& worker = result.workers[static_cast<size_t>(m)];
        out += data.workerNames[static_cast<size_t>(m)] + '\t' + std::to_string(worker.numLabels) +
               '\t' + (worker.informative ? "1" : "0") + '\t' + formatCrowdNumber(worker.accuracy) +
               '\t' + formatCrowdNumber(worker.accuracyLow) + '\t' +
               formatCrowdNumber(worker.accuracyHigh);
        for (int c = 0; c < data.numClasses; ++c) {
            for (int l = 0; l < data.numClasses; ++l) {
                out += '\t' + formatCrowdNumber(worker.confusion(c, l));
            }
        }
        out += '\n';
    }
    return out;
}

std::string crowdTraceTable(const CrowdResult& result) {
    std::string out = "iteration\tlog_likelihood\tmax_cmi\tinformative_set_size\tcomponents\n";
    for (size_t i = 0; i < result.trace.size(); ++i) {
        const StagewiseIteration& round = result.trace[i];
        out += std::to_string(i + 1) + '\t' + formatCrowdNumber(round.logLikelihood) + '\t' +
               formatCrowdNumber(round.maxCmi) + '\t' + std::to_string(round.informativeSetSize) +
               '\t' + std::to_string(round.numComponents) + '\n';
    }
    return out;
}

} // namespace cx
