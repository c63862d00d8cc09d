#pragma once

#include "ui/topics/topic_types.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;

namespace cx::ui {

class AucChartView;

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
    void setGammaGrid(const QString& text);
    QString gammaGridText() const;

    AucChartView* chart() const { return m_chart; }

    void onSweepStarted(const QVector<double>& gammas);
    void onSweepPoint(const SweepPoint& point);
    void onSweepFinished();
    void onSweepFailed(const QString& message);

signals:
    /// Valid inputs changed.
    void sweepChanged();
    void exportRequested();

private:
    void validate();
    void pickPositive();
    void updateStatus();

    std::shared_ptr<const cx::Corpus> m_corpus;
    QLineEdit* m_positive = nullptr;
    QPushButton* m_pick = nullptr;
    QLineEdit* m_grid = nullptr;
    QLabel* m_problem = nullptr;
    QLabel* m_status = nullptr;
    AucChartView* m_chart = nullptr;
    QVector<double> m_gammas;
    bool m_valid = false;
    bool m_running = false;
    qint64 m_startedAtMs = 0;
    double m_elapsedMs = 0;
};

} // namespace cx::ui
