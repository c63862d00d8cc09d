#pragma once

#include "ui/topics/topic_types.h"

#include "core/topics/topic_admissibility.h"
#include "core/topics/topic_bootstrap.h"

#include <QAbstractTableModel>
#include <QColor>

#include <map>
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
    /// Bootstrap bands of the solution's signed weights and the components' stability (one per
    /// component, NaN = none; e.g. cx::bandsOnPath). The bands never clear a point estimate's
    /// flag (cx::weightAdmissibility); they and the stability are shown in every header's
    /// tooltip. Empty vectors (or a size other than K) clear them.
    void setWeightBands(const std::vector<double>& low, const std::vector<double>& high,
                        const std::vector<double>& stability = {});
    /// "95 % band 0.8 – 1.6 · stable in 85 % of 20 resamples" for a component ("" without a
    /// bootstrap).
    QString bootstrapNote(int component) const;
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
    /// The name of a model column's component (nameOfComponent).
    QString componentName(int column) const;
    /// The user's name of a component (setTopicName), else "Topic 1", or "Component 7" for
    /// components that are not foreground-specific; with a path identity "Topic T7" /
    /// "Component T7" (the id of the weights-vs-γ chart).
    QString nameOfComponent(int component) const;
    /// The default name (nameOfComponent without the user's name).
    QString defaultName(int component) const;
    /// Names a component; an empty name restores the default. With a path
    /// identity the name belongs to the identity and follows it along γ (and into sessions);
    /// without one it lasts until the next solution. Emits namesChanged. Returns false for a
    /// component outside the solution.
    bool setTopicName(int component, const QString& name);
    /// The user's names by path identity (what a session saves) and their restoration.
    const std::map<int, QString>& identityNames() const { return m_identityNames; }
    void setIdentityNames(const std::map<int, QString>& names);
    /// NPMI coherence of a component (TopicSolution::npmi; NaN when unknown).
    double npmi(int component) const;

    /// MALLET-like topic keys of the shown columns: "index<TAB>weight<TAB>w1 w2 …" per line.
    QString topicKeysText() const;
    /// Long-format table of the shown columns (as contrast-cli's top_words.tsv):
    /// component, foreground_specific, weight, rank, word, probability, admissible, npmi, name.
    QString longTable(QChar separator) const;

signals:
    /// A topic was renamed (or names were restored from a session).
    void namesChanged();

public:
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
    std::vector<double> m_bandLow, m_bandHigh, m_stability;
    std::vector<int> m_identities;
    std::vector<QColor> m_identityColours;
    std::map<int, QString> m_identityNames;  ///< user's names by path identity
    std::map<int, QString> m_componentNames; ///< names of components without identity
    cx::ComponentAdmissibility m_admissibility;
    bool m_showAll = false;
    int m_topWordCount = 15;
    std::vector<int> m_columns; ///< result components shown, in order
    int m_rows = 0;
};

/// Formats a weight compactly with its sign ("0.0213", "−0.0041", "1.2e-05").
QString formatWeight(double weight);

} // namespace cx::ui
