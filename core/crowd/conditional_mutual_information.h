#pragma once

#include "core/io/crowd_labels.h"

#include <Eigen/Dense>

#include <utility>
#include <vector>

namespace cx {

/// Pairwise conditional mutual information of the hybrid distribution (Zhao & Zucker 2015, Def. 3.1
/// and eq. 13): Q(x, k) = (1/N) Σ_n δ(x = x_n)·q_nk, with q the current responsibilities.
///
///   entry(i, j, k) = Q(k)·I_Q(x_i; x_j | z = k),    Σ_k entry(i, j, k) = I_Q(x_i; x_j | z).
///
/// Missing labels are the model's own category, label-independent and frozen (Zhao & Zucker 2015,
/// §4), so the pair's joint factorises into P(both observed)·Q(x_i, x_j | k, both observed) and the
/// information carried by *which* items a worker answered is excluded:
///   entry(i, j, k) = (W_ijk / N)·I(x_i; x_j | k, items both labelled),
/// W_ijk = Σ_{n: both labelled} q_nk. Only this part can be reduced by the model. The diagonal
/// (i = j) is 0.
struct CmiTensor {
    int numWorkers = 0;
    int numComponents = 0;
    std::vector<double> values; ///< (i·numWorkers + j)·numComponents + k
    /// 2·W_ijk·I under independence is χ² with (C_i − 1)(C_j − 1) degrees of freedom
    /// (C = categories both workers actually used on the common items); kept per entry.
    std::vector<int> degreesOfFreedom; ///< i·numWorkers + j

    double at(int i, int j, int k) const {
        return values[(static_cast<size_t>(i) * static_cast<size_t>(numWorkers) +
                       static_cast<size_t>(j)) *
                          static_cast<size_t>(numComponents) +
                      static_cast<size_t>(k)];
    }
    /// I_Q(x_i; x_j | z) for every pair (numWorkers × numWorkers, symmetric, zero diagonal).
    Eigen::MatrixXd summed() const;
    /// max over i ≠ j, k of entry(i, j, k); 0 for fewer than two workers.
    double maxEntry() const;
};

/// Every pair of labels given to the same item, indexed once per data set: pair (i < j) gets a
/// slot, and each item lists its (slot, label pair) entries. Size O(Σ_n L_n²) for L_n labels of
/// item n, so sparse crowds stay cheap.
class LabelPairs {
public:
    explicit LabelPairs(const CrowdLabels& data);
    int numSlots() const { return static_cast<int>(m_slotWorkers.size()); }

private:
    friend CmiTensor conditionalMutualInformation(const CrowdLabels&, const LabelPairs&,
                                                  const Eigen::MatrixXd&);
    std::vector<std::pair<int, int>> m_slotWorkers; ///< slot → (i, j), i < j
    std::vector<int> m_itemOffsets;                 ///< item n's entries [offsets[n], offsets[n+1])
    std::vector<int> m_entrySlot;
    std::vector<int> m_entryCell; ///< a·C + b for labels a (worker i) and b (worker j)
};

/// Computes every entry from the label pairs and responsibilities (numItems × K). Cost
/// O(K·Σ_n L_n² + K·pairs·C²); memory O(W²·K) for the result.
CmiTensor conditionalMutualInformation(const CrowdLabels& data, const LabelPairs& pairs,
                                       const Eigen::MatrixXd& posterior);
/// Convenience: builds the LabelPairs first.
CmiTensor conditionalMutualInformation(const CrowdLabels& data, const Eigen::MatrixXd& posterior);

/// Brute force over the definition, pair by pair (tests): the same numbers as above.
double conditionalMutualInformationEntry(const CrowdLabels& data, const Eigen::MatrixXd& posterior,
                                         int i, int j, int k);

/// Dependence of each worker's labels on the latent component under the hybrid distribution:
/// the C × K table T_m(c, k) = Σ_{n: m labelled n} q_nk·[x_nm = c] (the M-step's counts) gives
///
///   entry[m] = (W_m / N)·I_T(x_m; z),   W_m = Σ_c,k T_m(c, k) = labels of m,
///
/// on the same scale as the CMI entries (2·N·entry = the G statistic of T_m, χ² with
/// (C_m − 1)(K_m − 1) degrees of freedom under independence, C_m and K_m the used rows and
/// columns). A worker whose labels are independent of the class (Zhao & Zucker 2015's uninformative
/// feature: θ_m(·, k) the same in every component) has entry ≈ 0. Unlike a pair's CMI, which
/// rests on the items the two workers share, it uses every label of the worker.
struct WorkerDependence {
    std::vector<double> values;        ///< per worker
    std::vector<int> degreesOfFreedom; ///< per worker
};
WorkerDependence workerComponentInformation(const CrowdLabels& data,
                                            const Eigen::MatrixXd& posterior);

/// Quantile of the χ² distribution: the x with P(χ²_df ≤ x) = probability (regularised lower
/// incomplete gamma by series/continued fraction, then bisection). \pre 0 < probability < 1,
/// df ≥ 1.
double chiSquareQuantile(double probability, int degreesOfFreedom);

/// Upper tail P(χ²_df > x) (1 for x ≤ 0). \pre df ≥ 1.
double chiSquareUpperTail(double x, int degreesOfFreedom);

/// Multiple-testing procedures over a family of hypotheses given their p-values.
enum class MultipleTesting {
    /// Holm's step-down (controls the family-wise error rate at α, uniformly more powerful than
    /// Bonferroni): sort p ascending, reject H_(1..r) for the largest r with
    /// p_(i) ≤ α / (m − i + 1) for every i ≤ r.
    Holm,
    /// Benjamini–Hochberg step-up (controls the false-discovery rate at α for independent or
    /// positively dependent tests): reject H_(1..r) for the largest r with p_(r) ≤ r·α / m.
    BenjaminiHochberg,
};

/// "holm", "bh".
const char* multipleTestingName(MultipleTesting procedure);
/// The hypotheses rejected at level α, as indices into pValues ordered by p ascending (ties:
/// larger `strength` first, then lower index). `familySize` m ≥ pValues.size() counts
/// hypotheses that could not be tested (p = 1); 0 = pValues.size(). strength may be empty.
std::vector<int> rejectedHypotheses(const std::vector<double>& pValues,
                                    const std::vector<double>& strength, double alpha,
                                    MultipleTesting procedure, int familySize = 0);

} // namespace cx
