#include "core/hmm/hmm_model.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cx {

const char* toString(ObservationEncoding encoding) {
    switch (encoding) {
    case ObservationEncoding::MarkVector:
        return "marks";
    case ObservationEncoding::MarkCombination:
        return "combinations";
    }
    return "unknown";
}

ObservationEncoding parseObservationEncoding(const std::string& text) {
    if (text == "marks" || text == "vector" || text == "mark-vector") {
        return ObservationEncoding::MarkVector;
    }
    if (text == "combinations" || text == "combination" || text == "mark-combination") {
        return ObservationEncoding::MarkCombination;
    }
    throw InputError("parameter --encoding: '" + text + "' is not 'marks' or 'combinations'");
}

void HmmParameters::validate(const char* where) const {
    const auto k = start.size();
    auto fail = [&](const std::string& what) {
        throw std::invalid_argument(std::string(where) + ": " + what);
    };
    if (k < 1) {
        fail("HMM has no states");
    }
    if (transitions.rows() != k || transitions.cols() != k) {
        fail("transition matrix is " + std::to_string(transitions.rows()) + " x " +
             std::to_string(transitions.cols()) + ", expected " + std::to_string(k) + " x " +
             std::to_string(k));
    }
    if (emissions.rows() != k || emissions.cols() < 1) {
        fail("emission matrix has " + std::to_string(emissions.rows()) + " rows, expected " +
             std::to_string(k));
    }
    if (!start.allFinite() || !transitions.allFinite() || !emissions.allFinite()) {
        fail("parameters are not finite");
    }
    if ((start.array() < 0).any() || (transitions.array() < 0).any() ||
        (emissions.array() < 0).any()) {
        fail("negative probabilities");
    }
}

Eigen::MatrixXd markProbabilities(const HmmParameters& hmm, const ChromatinData& data) {
    if (hmm.encoding == ObservationEncoding::MarkVector) {
        return hmm.emissions;
    }
    const int k = hmm.numStates();
    const int m = data.numMarks();
    if (hmm.emissions.cols() != data.numPatterns()) {
        throw std::invalid_argument(
            "markProbabilities: emissions have " + std::to_string(hmm.emissions.cols()) +
            " pattern columns, data has " + std::to_string(data.numPatterns()));
    }
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(k, m);
    for (int p = 0; p < data.numPatterns(); ++p) {
        for (int j = 0; j < m; ++j) {
            if (data.value(p, j) == static_cast<std::uint8_t>(MarkValue::Present)) {
                out.col(j) += hmm.emissions.col(p);
            }
        }
    }
    return out;
}

Eigen::MatrixXd emissionLikelihoods(const HmmParameters& hmm, const ChromatinData& data) {
    const int k = hmm.numStates();
    const int numPatterns = data.numPatterns();
    const int m = data.numMarks();
    Eigen::MatrixXd table(k, numPatterns);
    if (hmm.encoding == ObservationEncoding::MarkVector) {
        if (hmm.emissions.cols() != m || hmm.emissions.rows() != k) {
            throw std::invalid_argument("emissionLikelihoods: emissions are " +
                                        std::to_string(hmm.emissions.rows()) + " x " +
                                        std::to_string(hmm.emissions.cols()) + ", expected " +
                                        std::to_string(k) + " x " + std::to_string(m) + " marks");
        }
        const Eigen::ArrayXXd e =
            hmm.emissions.array().max(kProbabilityFloor).min(1.0 - kProbabilityFloor);
        const Eigen::ArrayXXd logPresent = e.log();
        const Eigen::ArrayXXd logAbsent = (1.0 - e).log();
        for (int p = 0; p < numPatterns; ++p) {
            Eigen::ArrayXd logL = Eigen::ArrayXd::Zero(k);
            for (int j = 0; j < m; ++j) {
                const auto v = data.value(p, j);
                if (v == static_cast<std::uint8_t>(MarkValue::Present)) {
                    logL += logPresent.col(j);
                } else if (v == static_cast<std::uint8_t>(MarkValue::Absent)) {
                    logL += logAbsent.col(j);
                }
            }
            table.col(p) = logL.exp().matrix();
        }
    } else {
        if (hmm.emissions.cols() != numPatterns || hmm.emissions.rows() != k) {
            throw std::invalid_argument(
                "emissionLikelihoods: emissions are " + std::to_string(hmm.emissions.rows()) +
                " x " + std::to_string(hmm.emissions.cols()) + ", expected " + std::to_string(k) +
                " x " + std::to_string(numPatterns) + " patterns");
        }
        for (int p = 0; p < numPatterns; ++p) {
            if (data.patternHasMissing(p)) {
                table.col(p).setOnes();
            } else {
                table.col(p) = hmm.emissions.col(p).array().max(kProbabilityFloor * 1e-6).matrix();
            }
        }
    }
    return table;
}

} // namespace cx
