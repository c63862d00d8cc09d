#pragma once

#include "ui/topics/topic_types.h"

#include "core/topics/topic_admissibility.h"

#include <QAbstractTableModel>
#include <QColor>

#include <vector>

namespace cx::ui {

/// Top words of a decomposition: one column per component, one row per rank. By default only
/// the foreground-specific components (λ̂ > 0) are columns, heaviest first; with showAll every
/// component is a column with its signed weight. The data comes precomputed from the worker
/// (TopicSolution::topWords), so a reset is O(columns × rows) on the GUI thread.
class TopicWordsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles {
        ValueRole = Qt::UserRole + 1, ///< word probability in the topic (double)
        RelativeValueRole,            ///< probability / the column's largest probability
        SignedWeightRole,             ///< sign(λ̂)/λ̂² of the column's component
        ForegroundSpecificRole,       ///< bool: λ̂ > 0
        ComponentRole,                ///< component index in the result
        AdmissibleRole,               ///< bool: ω ∈ [−γ, 1] (topic_admissibility.h)
    };

    using QAbstractTableModel::QAbstractTableModel;

    /// Verdicts by the point rule until setWeightBands gives bootstrap bands.
    void setSolution(const TopicSolution& solution);
    const TopicSolution& solution() const { return m_solution; }
    /// Bootstrap bands of the solution's signed weights (one per component, NaN = none; e.g.
    /// cx::bandsOnPath): a component is then inadmissible only when its whole band lies
    /// outside [−γ, 1]. Empty vectors (or a size other than K) clear them.
    void setWeightBands(const std::vector<double>& low, const std::vector<double>& high);
    /// Path identities of the solution's components (one per component, −1 = none; e.g.
    /// cx::identitiesOnPath) and their colours (as in the weights-vs-γ chart): the headers then
    /// name each topic by its identity ("Topic T7") with its colour swatch, the same id and colour
    /// along γ and in every view. Empty vectors (or a size other than K) clear them; a new
    /// solution clears them too.
    void setIdentities(const std::vector<int>& ids, const std::vector<QColor>& colours);
    /// Identity of a component (−1 when unknown).
    int identityOf(int component) const;
    /// ω ∈ [−γ, 1] verdicts of the solution's components.
    const cx::ComponentAdmissibility& admissibility() const { return m_admissibility; }
    /// "⚠ inadmissible: ω = 2.31 > 1 …" for a component ("" when admissible).
    QString inadmissibleNote(int component) const;
    void setShowAll(bool showAll);
    bool showAll() const { return m_showAll; }
    void setTopWordCount(int count);
    int topWordCount() const { return m_topWordCount; }

    /// Result column of a model column.
    int componentOf(int column) const;
    /// "Topic 1", or "Component 7" for components that are not foreground-specific; with a
    /// path identity "Topic T7" / "Component T7" (the id of the weights-vs-γ chart).
    QString componentName(int column) const;
    /// componentName of result component `component` (shown as a column or not).
    QString componentNameOf(int component) const;

    /// MALLET-like topic keys of the shown columns: "index<TAB>weight<TAB>w1 w2 …" per line.
    QString topicKeysText() const;
    /// Long-format table of the shown columns (as contrast-cli's top_words.tsv):
    /// component, foreground_specific, weight, rank, word, probability, admissible.
    QString longTable(QChar separator) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void rebuildColumns();
    void updateAdmissibility();
    QString word(int component, int rank) const;
    double probability(int component, int rank) const;

    TopicSolution m_solution;
    std::vector<double> m_bandLow, m_bandHigh;
    std::vector<int> m_identities;
    std::vector<QColor> m_identityColours;
    cx::ComponentAdmissibility m_admissibility;
    bool m_showAll = false;
    int m_topWordCount = 15;
    std::vector<int> m_columns; ///< result components shown, in order
    int m_rows = 0;
};

/// Formats a weight compactly with its sign ("0.0213", "−0.0041", "1.2e-05").
QString formatWeight(double weight);

} // namespace cx::ui
