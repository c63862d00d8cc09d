#pragma once

#include "ui/topics/topic_types.h"

#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"

#include <QWidget>

#include <map>
#include <memory>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace cx::ui {

class AucChartView;
class ChartPair;
class StateWeightsChartView;

/// The AUC-vs-γ chart with its inputs: which foreground documents count as "positive"
/// (foreground-only) for the specificity test (a rule, with a picker dialog) and the γ grid.
class SpecificityPanel : public QWidget {
    Q_OBJECT
public:
    explicit SpecificityPanel(QWidget* parent = nullptr);

    void setCorpus(std::shared_ptr<const cx::Corpus> corpus);
    /// The sweep the inputs describe (empty rule when invalid).
    SweepSpec sweep() const;
    void setPositiveRule(const QString& rule);
    /// The scorer's smoothing of the sweeps this panel asks for (from a session).
    /// A change asks for a new sweep (sweepChanged), as a changed rule or grid does.
    void setSmoothing(const cx::ScorerSmoothing& smoothing);
    /// SweepSpec::splitHalf (from the session); emits sweepChanged when it changes.
    void setSplitHalf(bool on);
    void setGammaGrid(const QString& text);
    QString gammaGridText() const;
    /// The last grid text that parsed into at least one γ (what a session saves while the box
    /// holds a draft that does not: a session reader refuses an empty grid, and with it the
    /// whole session).
    QString lastValidGammaGridText() const { return m_lastValidGrid; }

    AucChartView* chart() const { return m_chart; }
    /// Topic weight vs γ along the sweep's path (one line per identity).
    StateWeightsChartView* trajectoryChart() const { return m_trajectory; }
    /// The two charts' shared area (side by side, stacked or in tabs).
    ChartPair* chartPair() const { return m_charts; }
    /// The suggestions line (best γ, band, suggested K, set changes).
    QString suggestionText() const;

    void onSweepStarted(const QVector<double>& gammas);
    void onSweepPoint(const SweepPoint& point);
    void onSweepFinished();
    void onSweepFailed(const QString& message);
    /// The finished sweep's path: trajectories, set changes, suggestions.
    void onSweepPath(std::shared_ptr<const cx::SpecificitySweep> sweep);
    void onBootstrapStarted(int replicates);
    void onBootstrapProgress(int done, int total);
    void onBootstrapFinished(std::shared_ptr<const cx::PathBootstrap> bootstrap);
    void onBootstrapFailed(const QString& message);
    /// The resample count of the Bootstrap button (a reopened session's).
    void setBootstrapReplicates(int replicates);
    int bootstrapReplicates() const;
    void setCurrentGamma(double gamma);
    /// Colour of topic identity `id` (stable along the path).
    static QColor identityColour(int id);
    /// The user's topic names by identity: the weights chart's lines (and its export) use them.
    void setTopicNames(const std::map<int, QString>& names);
    /// "γ = 2.5: inadmissible foreground-specific component T3 (…)" for every γ of the last
    /// sweep the app does not stand behind (cx::judgeSweep, with the bootstrap if any).
    QStringList untrustedReasons() const;

signals:
    /// Valid inputs changed.
    void sweepChanged();
    void exportRequested();
    void bootstrapRequested(int replicates);
    void bootstrapCancelRequested();
    void gammaClicked(double gamma);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void validate();
    void setSuggestions(const QString& text);
    void showSuggestions();
    void updateArrangement();
    void pickPositive();
    void updateStatus();
    void updateTrajectories();
    /// The line above the charts (suggested γ and K, counts of flagged and shaded γ) and its
    /// tooltip (why each shaded γ is not stood behind), for the sweep shown.
    void showSweepSummary(int setChanges, int flaggedPoints, int noAdmissible, int untrustedPoints,
                          int judged);

    std::shared_ptr<const cx::Corpus> m_corpus;
    QLineEdit* m_positive = nullptr;
    QPushButton* m_pick = nullptr;
    QLineEdit* m_grid = nullptr;
    QString m_lastValidGrid;
    QLabel* m_problem = nullptr;
    QLabel* m_status = nullptr;
    AucChartView* m_chart = nullptr;
    StateWeightsChartView* m_trajectory = nullptr;
    ChartPair* m_charts = nullptr;
    QSpinBox* m_replicates = nullptr;
    QToolButton* m_bootstrap = nullptr;
    QToolButton* m_cancelBootstrap = nullptr;
    QProgressBar* m_bootstrapProgress = nullptr;
    QLabel* m_suggestions = nullptr;
    QString m_suggestionsText;
    QLabel* m_title = nullptr;
    std::shared_ptr<const cx::SpecificitySweep> m_sweep;
    std::shared_ptr<const cx::PathBootstrap> m_bands;
    std::map<int, QString> m_names;
    QVector<double> m_gammas;
    cx::ScorerSmoothing m_smoothing;
    bool m_splitHalf = true;
    bool m_valid = false;
    bool m_running = false;
    qint64 m_startedAtMs = 0;
    double m_elapsedMs = 0;
};

} // namespace cx::ui
