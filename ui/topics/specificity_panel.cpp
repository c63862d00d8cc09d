#include "ui/topics/specificity_panel.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/topics/chart_pair.h"
#include "ui/topics/selection_picker.h"

#include "core/io/selection.h"
#include "core/topics/topic_admissibility.h"
#include "core/topics/topic_trust.h"

#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace cx::ui {

SpecificityPanel::SpecificityPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 6, 14, 4);
    layout->setSpacing(4);

    auto* header = new QHBoxLayout;
    header->setSpacing(8);
    auto* title = new QLabel(tr("Specificity AUC and topic weights vs γ"), this);
    title->setObjectName(QStringLiteral("panelTitle"));
    title->setToolTip(
        tr("<p>For each γ on the grid: decompose, score every foreground document by "
           "its per-token likelihood under the foreground-specific topics, and "
           "compute the AUC for separating the positive documents from the other "
           "foreground documents. Shown relative to γ = 0.</p><p>A point ringed in red has a "
           "component whose weight lies outside [−γ, 1] (no topic of the model; hover "
           "the point for the count).</p>"));
    header->addWidget(title);
    m_title = title;
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("hint"));
    header->addWidget(m_status, 1);
    auto* positiveLabel = new QLabel(tr("Positive"), this);
    positiveLabel->setObjectName(QStringLiteral("fieldLabel"));
    m_positive = new QLineEdit(this);
    m_positive->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_positive->setPlaceholderText(tr("rule, e.g. !topics=earn"));
    m_positive->setToolTip(tr("Foreground documents matching this rule are the positives "
                              "(the foreground-only group) of the specificity test"));
    m_positive->setMinimumWidth(140);
    m_positive->setClearButtonEnabled(true);
    positiveLabel->setBuddy(m_positive);
    m_pick = new QPushButton(tr("Pick…"), this);
    m_pick->setToolTip(tr("Choose the positive documents from the label values"));
    auto* gridLabel = new QLabel(tr("γ grid"), this);
    gridLabel->setObjectName(QStringLiteral("fieldLabel"));
    m_grid = new QLineEdit(QStringLiteral("0:10:0.25"), this);
    m_grid->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_grid->setToolTip(tr("start:stop:step, or a list such as 0,0.5,1,2,4"));
    m_grid->setMinimumWidth(110);
    m_grid->setMaximumWidth(150);
    gridLabel->setBuddy(m_grid);
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Export the chart as PNG, SVG or PDF (Ctrl+E)"));
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    header->addWidget(exportButton);
    layout->addLayout(header);
    auto* inputs = new QHBoxLayout;
    inputs->setSpacing(8);
    inputs->addWidget(positiveLabel);
    inputs->addWidget(m_positive, 1);
    inputs->addWidget(m_pick);
    inputs->addSpacing(10);
    inputs->addWidget(gridLabel);
    inputs->addWidget(m_grid);
    layout->addLayout(inputs);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("inlineError"));
    m_problem->setWordWrap(true);
    m_problem->hide();
    layout->addWidget(m_problem);

    m_chart = new AucChartView(this);

    // Bootstrap over documents of the sweep's path, and the suggestions it supports.
    auto* bands = new QHBoxLayout;
    bands->setSpacing(8);
    m_suggestions = new QLabel(this);
    m_suggestions->setObjectName(QStringLiteral("hint"));
    m_suggestions->setWordWrap(true);
    m_suggestions->setTextFormat(Qt::PlainText);
    m_suggestions->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    bands->addWidget(m_suggestions, 1);
    m_replicates = new QSpinBox(this);
    m_replicates->setRange(2, 1000);
    m_replicates->setValue(20);
    m_replicates->setSuffix(tr(" resamples"));
    m_replicates->setToolTip(tr("Bootstrap over documents: resample the foreground and the "
                                "background with replacement and solve the same path"));
    bands->addWidget(m_replicates);
    m_bootstrap = new QToolButton(this);
    m_bootstrap->setText(tr("Bootstrap"));
    m_bootstrap->setToolTip(tr("Bands on AUC and topic weights, and a stability score per topic "
                               "(how often it reappears across resamples)"));
    m_bootstrap->setEnabled(false);
    bands->addWidget(m_bootstrap);
    m_bootstrapProgress = new QProgressBar(this);
    m_bootstrapProgress->setMaximumWidth(120);
    m_bootstrapProgress->hide();
    bands->addWidget(m_bootstrapProgress);
    m_cancelBootstrap = new QToolButton(this);
    m_cancelBootstrap->setText(tr("Cancel"));
    m_cancelBootstrap->hide();
    bands->addWidget(m_cancelBootstrap);
    layout->addLayout(bands);

    m_trajectory = new StateWeightsChartView(this);
    m_trajectory->setTexts(tr("topic weight ω"), tr("Topic weights ω vs contrast γ"));
    m_trajectory->setMessage(tr("Topic weights along γ appear when the sweep has finished"));
    m_trajectory->setToolTip(
        tr("<p>Each line is one topic followed along the γ path (same colour and name at every γ); "
           "dotted lines mark where the set of foreground-specific topics changes. Click to set "
           "γ.</p><p><b>Inadmissible weights.</b> A topic's weight is ω = w<sub>f</sub> − "
           "γ·w<sub>b</sub> ∈ [−γ, 1] (dash-dotted lines): a foreground topic cannot weigh more "
           "than 1, a background topic not less than −γ. Where a component lies outside, its line "
           "is dashed with a hollow red marker and its name carries ⚠: it is no topic of the "
           "model, typically a blend of several. A bootstrap never clears the flag (its 95 % band "
           "is shown beside it); it also flags a point whose whole band lies outside. Shaded: γ "
           "the app does not stand behind — a "
           "foreground-specific topic there is inadmissible, is not found in both of two seeded "
           "halves of the documents, or, after a bootstrap, is unstable (it reappears in fewer "
           "than half of the resamples); or the contrastive signal is below the split-half noise. "
           "The suggested γ is never one of them.</p>"));
    m_trajectory->setFlagName(tr("⚠ inadmissible ω ∉ [−γ, 1]"));
    m_trajectory->setUnreliableName(tr("not stood behind (inadmissible or unstable topic)"));
    m_trajectory->setAdmissibleBounds(tr("bounds ω = 1, ω = −γ"));
    // Side by side, stacked or in tabs, whatever the room (ChartPair).
    m_charts = new ChartPair(m_chart, tr("Specificity AUC vs γ"), m_trajectory,
                             tr("Topic weights ω vs γ"), this);
    QTabBar* tabs = m_charts->tabBar();
    tabs->setTabToolTip(0, title->toolTip());
    tabs->setTabToolTip(1, tr("Topic weights ω along the γ path, with the whole legend beside "
                              "the plot"));
    // When the room is short the charts take turns: their tabs replace the title.
    header->insertWidget(1, tabs);
    layout->addWidget(m_charts, 1);
    connect(m_charts, &ChartPair::arrangementChanged, this, [this] { updateArrangement(); });
    m_suggestions->installEventFilter(this);
    updateArrangement();
    connect(m_trajectory, &StateWeightsChartView::gammaClicked, this,
            &SpecificityPanel::gammaClicked);
    connect(m_bootstrap, &QToolButton::clicked, this,
            [this] { emit bootstrapRequested(m_replicates->value()); });
    connect(m_cancelBootstrap, &QToolButton::clicked, this,
            &SpecificityPanel::bootstrapCancelRequested);

    connect(m_positive, &QLineEdit::textChanged, this, &SpecificityPanel::validate);
    connect(m_grid, &QLineEdit::textChanged, this, &SpecificityPanel::validate);
    connect(m_pick, &QPushButton::clicked, this, &SpecificityPanel::pickPositive);
    connect(exportButton, &QToolButton::clicked, this, &SpecificityPanel::exportRequested);
    validate();
}

void SpecificityPanel::setCorpus(std::shared_ptr<const cx::Corpus> corpus) {
    m_corpus = std::move(corpus);
    m_pick->setEnabled(m_corpus && !m_corpus->labels.empty());
    validate();
}

SweepSpec SpecificityPanel::sweep() const {
    SweepSpec spec;
    if (m_valid) {
        spec.positiveRule = m_positive->text().trimmed();
        spec.gammas = m_gammas;
    }
    spec.smoothing = m_smoothing;
    spec.splitHalf = m_splitHalf;
    return spec;
}

void SpecificityPanel::setSplitHalf(bool on) {
    if (on == m_splitHalf) {
        return;
    }
    m_splitHalf = on;
    emit sweepChanged();
}

void SpecificityPanel::setPositiveRule(const QString& rule) {
    m_positive->setText(rule);
    m_positive->setCursorPosition(0); // show the start of a long rule
}

void SpecificityPanel::setSmoothing(const cx::ScorerSmoothing& smoothing) {
    if (smoothing == m_smoothing) {
        return;
    }
    m_smoothing = smoothing;
    emit sweepChanged();
}

void SpecificityPanel::setGammaGrid(const QString& text) {
    m_grid->setText(text);
}

QString SpecificityPanel::gammaGridText() const {
    return m_grid->text();
}

void SpecificityPanel::validate() {
    QStringList problems;
    QString gridError;
    const QVector<double> typed = parseGammaGrid(m_grid->text(), &gridError);
    if (gridError.isEmpty() && !typed.isEmpty()) {
        m_gammas = typed;
        m_lastValidGrid = m_grid->text();
    } else {
        // A grid being typed (cleared, "0:4:") is a draft: the last grid that parsed stays in
        // use — the path, its identities and the chart stay, as a session saves that grid.
        problems << (m_lastValidGrid.isEmpty() ? tr("γ grid: %1").arg(gridError)
                                               : tr("γ grid: %1; the last grid, %2, stays in use")
                                                     .arg(gridError, m_lastValidGrid));
    }
    // A grid draft is only reported; the rule's problems stop the sweep.
    QStringList ruleProblems;
    const QString rule = m_positive->text().trimmed();
    if (!rule.isEmpty()) {
        try {
            const cx::SelectionRule parsed = cx::SelectionRule::parse(rule.toStdString());
            if (m_corpus) {
                for (const cx::RuleClause& clause : parsed.clauses) {
                    if (m_corpus->labelFieldIndex(clause.field) < 0) {
                        ruleProblems << tr("positive rule: no field '%1'")
                                            .arg(QString::fromStdString(clause.field));
                    }
                }
            }
        } catch (const std::exception& error) {
            ruleProblems << QString::fromStdString(error.what());
        }
    }
    problems << ruleProblems;
    m_problem->setText(problems.join(QLatin1Char('\n')));
    m_problem->setVisible(!problems.isEmpty());
    m_valid = ruleProblems.isEmpty() && !rule.isEmpty() && !m_gammas.isEmpty();
    if (rule.isEmpty()) {
        m_chart->setIdleMessage(tr("Set the positive documents (e.g. the foreground-only ones) "
                                   "to chart the specificity AUC over γ"));
    }
    emit sweepChanged();
}

void SpecificityPanel::pickPositive() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Positive Documents"));
    dialog.resize(380, 480);
    auto* layout = new QVBoxLayout(&dialog);
    auto* hint = new QLabel(tr("Foreground documents matching this choice are the positives of "
                               "the specificity test; the other foreground documents are the "
                               "negatives."),
                            &dialog);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    auto* picker = new SelectionPicker(SelectionPicker::Role::Positive, &dialog);
    picker->setCorpus(m_corpus);
    picker->setRule(m_positive->text());
    layout->addWidget(picker, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    if (dialog.exec() == QDialog::Accepted && picker->isValid()) {
        m_positive->setText(picker->rule());
    }
}

void SpecificityPanel::onSweepStarted(const QVector<double>& gammas) {
    m_sweep.reset();
    m_bands.reset();
    m_bootstrap->setEnabled(false);
    updateTrajectories();
    m_running = !gammas.isEmpty();
    m_startedAtMs = QDateTime::currentMSecsSinceEpoch();
    m_elapsedMs = 0;
    m_chart->startSweep(gammas);
    updateStatus();
}

void SpecificityPanel::onSweepPoint(const SweepPoint& point) {
    m_chart->addPoint(point);
    updateStatus();
}

void SpecificityPanel::onSweepFinished() {
    m_running = false;
    m_elapsedMs = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_startedAtMs);
    m_chart->finishSweep();
    updateStatus();
}

void SpecificityPanel::onSweepFailed(const QString& message) {
    m_running = false;
    m_chart->failSweep(message);
    updateStatus();
}

void SpecificityPanel::updateStatus() {
    const int done = static_cast<int>(m_chart->points().size());
    if (m_running) {
        m_status->setText(tr("computing… %1 of %2 points").arg(done).arg(m_gammas.size()));
    } else if (done > 0) {
        m_status->setText(tr("%1 points · %2 s").arg(done).arg(m_elapsedMs / 1000.0, 0, 'f', 2));
    } else {
        m_status->clear();
    }
}

} // namespace cx::ui

namespace cx::ui {

QColor SpecificityPanel::identityColour(int id) {
    // The shared categorical rule (cx::categoricalStyle): distinct on white, stable per identity.
    return categoricalLineStyle(id).first;
}

void SpecificityPanel::onSweepPath(std::shared_ptr<const cx::SpecificitySweep> sweep) {
    m_sweep = std::move(sweep);
    m_bands.reset();
    m_bootstrap->setEnabled(m_sweep != nullptr);
    updateTrajectories();
}

void SpecificityPanel::onBootstrapStarted(int replicates) {
    m_bootstrapProgress->setRange(0, replicates);
    m_bootstrapProgress->setValue(0);
    m_bootstrapProgress->show();
    m_cancelBootstrap->show();
    m_bootstrap->setEnabled(false);
}

void SpecificityPanel::onBootstrapProgress(int done, int total) {
    m_bootstrapProgress->setRange(0, total);
    m_bootstrapProgress->setValue(done);
}

void SpecificityPanel::onBootstrapFinished(std::shared_ptr<const cx::PathBootstrap> bootstrap) {
    m_bands = std::move(bootstrap);
    m_bootstrapProgress->hide();
    m_cancelBootstrap->hide();
    m_bootstrap->setEnabled(m_sweep != nullptr);
    if (m_bands && m_sweep) {
        m_chart->setBands(QVector<double>(m_bands->gammas.begin(), m_bands->gammas.end()),
                          QVector<double>(m_bands->relativeLo.begin(), m_bands->relativeLo.end()),
                          QVector<double>(m_bands->relativeHi.begin(), m_bands->relativeHi.end()));
    }
    updateTrajectories();
}

void SpecificityPanel::setBootstrapReplicates(int replicates) {
    m_replicates->setValue(replicates);
}

int SpecificityPanel::bootstrapReplicates() const {
    return m_replicates->value();
}

void SpecificityPanel::onBootstrapFailed(const QString& message) {
    m_bootstrapProgress->hide();
    m_cancelBootstrap->hide();
    m_bootstrap->setEnabled(m_sweep != nullptr);
    if (!message.isEmpty()) {
        setSuggestions(tr("Bootstrap failed: %1").arg(message));
    }
}

void SpecificityPanel::setCurrentGamma(double gamma) {
    m_chart->setCurrentGamma(gamma);
    m_trajectory->setCurrentGamma(gamma);
}

QString SpecificityPanel::suggestionText() const {
    return m_suggestionsText;
}

void SpecificityPanel::setSuggestions(const QString& text) {
    m_suggestionsText = text;
    m_suggestions->setToolTip(text);
    showSuggestions();
}

void SpecificityPanel::showSuggestions() {
    // In tabs (little height) one line, elided, the whole text in the tooltip; else wrapped.
    const bool oneLine = m_charts && m_charts->arrangement() == ChartPair::Arrangement::Tabs;
    m_suggestions->setWordWrap(!oneLine);
    const QString shown =
        oneLine ? m_suggestions->fontMetrics().elidedText(m_suggestionsText, Qt::ElideRight,
                                                          std::max(0, m_suggestions->width() - 2))
                : m_suggestionsText;
    if (m_suggestions->text() != shown) {
        m_suggestions->setText(shown);
    }
}

void SpecificityPanel::updateArrangement() {
    const bool tabs = m_charts->arrangement() == ChartPair::Arrangement::Tabs;
    m_title->setVisible(!tabs);
    showSuggestions();
}

bool SpecificityPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_suggestions && event->type() == QEvent::Resize) {
        showSuggestions();
    }
    return QWidget::eventFilter(watched, event);
}

void SpecificityPanel::updateTrajectories() {
    if (!m_sweep) {
        m_trajectory->setLines({}, 0, 1);
        m_trajectory->setMarkers({}, QString());
        setSuggestions(QString());
        return;
    }
    const cx::TopicPath& path = m_sweep->path;
    const cx::Corpus* corpus = m_corpus.get();
    // One line per identity that is foreground-specific somewhere on the path; its name is the
    // top words where its weight is largest, so a topic reads the same at every γ.
    QList<StateWeightsChartView::Line> lines;
    double gammaMax = 1.0;
    for (double g : path.gammas) {
        gammaMax = std::max(gammaMax, g);
    }
    // Weight admissibility ω ∈ [−γ, 1] per point (with the bootstrap's bands once they exist).
    std::vector<cx::ComponentAdmissibility> admissibility;
    std::vector<double> noAdmissibleForeground;
    int flaggedPoints = 0;
    // Whether the app stands behind each γ (cx::judgeSweep): the shaded ranges.
    const std::vector<cx::GammaVerdict> verdicts = cx::judgeSweep(*m_sweep, m_bands.get());
    std::vector<double> untrusted(path.gammas.size(), 0.0);
    int untrustedPoints = 0;
    QVector<double> verdictGammas;
    QStringList verdictReasons;
    for (const cx::GammaVerdict& verdict : verdicts) {
        verdictGammas << verdict.gamma;
        verdictReasons << QString::fromStdString(verdict.reason);
        const int i = path.nearest(verdict.gamma);
        if (!verdict.trusted && i >= 0) {
            untrusted[static_cast<size_t>(i)] = 1.0;
            ++untrustedPoints;
        }
    }
    QVector<double> countGammas;
    QVector<int> counts;
    for (size_t i = 0; i < path.gammas.size(); ++i) {
        admissibility.push_back(cx::checkPathPoint(path, static_cast<int>(i), m_bands.get()));
        noAdmissibleForeground.push_back(admissibility.back().noAdmissibleForeground() ? 1.0 : 0.0);
        flaggedPoints += admissibility.back().inadmissible > 0 ? 1 : 0;
        countGammas << path.gammas[i];
        counts << admissibility.back().inadmissible;
    }
    m_chart->setInadmissibleCounts(countGammas, counts);
    m_chart->setNotTrusted(verdictGammas, verdictReasons); // shaded as in the weights chart
    for (int id = 0; id < path.numIdentities; ++id) {
        bool foreground = false;
        int bestPoint = -1;
        int bestSlot = -1;
        double bestWeight = -INFINITY;
        StateWeightsChartView::Line line;
        bool aboveOne = false;
        bool belowMinusGamma = false;
        for (size_t i = 0; i < path.gammas.size(); ++i) {
            const int slot = path.slotOf(static_cast<int>(i), id);
            const double w = path.signedWeight(static_cast<int>(i), id);
            line.points << QPointF(path.gammas[i], w);
            const cx::Admissibility verdict =
                slot >= 0 ? admissibility[i].verdicts[static_cast<size_t>(slot)]
                          : cx::Admissibility::Admissible;
            line.flagged << !cx::isAdmissible(verdict);
            aboveOne = aboveOne || verdict == cx::Admissibility::AboveOne;
            belowMinusGamma = belowMinusGamma || verdict == cx::Admissibility::BelowMinusGamma;
            if (slot >= 0) {
                const cx::TopicModelResult& s = path.solutions[i];
                foreground = foreground || s.foregroundSpecific[static_cast<size_t>(slot)];
                if (w > bestWeight) {
                    bestWeight = w;
                    bestPoint = static_cast<int>(i);
                    bestSlot = slot;
                }
                if (m_bands && i < m_bands->weightLo.size() &&
                    static_cast<size_t>(slot) < m_bands->weightLo[i].size() &&
                    std::isfinite(m_bands->weightLo[i][static_cast<size_t>(slot)])) {
                    line.lower << QPointF(path.gammas[i],
                                          m_bands->weightLo[i][static_cast<size_t>(slot)]);
                    line.upper << QPointF(path.gammas[i],
                                          m_bands->weightHi[i][static_cast<size_t>(slot)]);
                }
            }
        }
        if (!foreground || bestPoint < 0) {
            continue;
        }
        QStringList words;
        if (corpus) {
            const auto& topic = path.solutions[static_cast<size_t>(bestPoint)].topics.col(bestSlot);
            for (auto w : cx::topEntries(topic, 3)) {
                words << QString::fromStdString(corpus->vocabulary[static_cast<size_t>(w)]);
            }
        }
        const auto named = m_names.find(id);
        line.name = tr("T%1 %2").arg(id + 1).arg(
            named != m_names.end() ? named->second : words.join(QLatin1Char(' ')));
        if (aboveOne || belowMinusGamma) {
            line.name += aboveOne && belowMinusGamma ? tr(" ⚠ ω ∉ [−γ, 1]")
                         : aboveOne                  ? tr(" ⚠ ω > 1")
                                                     : tr(" ⚠ ω < −γ");
        }
        if (m_bands && static_cast<size_t>(id) < m_bands->identityStability.size()) {
            const double stability = m_bands->identityStability[static_cast<size_t>(id)];
            line.name += stability < cx::kMinStability ? tr(" ⚠ %1 %").arg(qRound(100 * stability))
                                                       : tr(" · %1 %").arg(qRound(100 * stability));
        }
        line.colour = identityColour(id);
        line.pattern = categoricalLineStyle(id).second; // past twelve identities, colours repeat
        if (line.lower.size() != line.upper.size() || line.lower.size() < 2) {
            line.lower.clear();
            line.upper.clear();
        }
        lines << line;
    }
    const std::vector<double> changes = cx::foregroundSetChanges(path);
    m_trajectory->setWeightLimit(std::max(1.0, gammaMax));
    m_trajectory->setLines(
        lines, path.gammas.front(), path.gammas.back(),
        unreliableRanges(QVector<double>(path.gammas.begin(), path.gammas.end()), untrusted));
    m_trajectory->setMarkers(QList<double>(changes.begin(), changes.end()),
                             tr("foreground set changes"));

    const auto none = std::count(noAdmissibleForeground.begin(), noAdmissibleForeground.end(), 1.0);
    showSweepSummary(static_cast<int>(changes.size()), flaggedPoints, static_cast<int>(none),
                     untrustedPoints, static_cast<int>(verdicts.size()));
}

void SpecificityPanel::showSweepSummary(int setChanges, int flaggedPoints, int noAdmissible,
                                        int untrustedPoints, int judged) {
    const cx::TopicSuggestions s = cx::suggestTopics(*m_sweep, m_bands.get(), 1000);
    QStringList parts;
    if (std::isfinite(s.bestGamma)) {
        QString best = tr("suggested γ %1").arg(s.bestGamma, 0, 'g', 3);
        if (m_bands && s.nearBest.size() > 1) {
            best += tr(" (within its band: %1–%2)")
                        .arg(s.nearBest.front(), 0, 'g', 3)
                        .arg(s.nearBest.back(), 0, 'g', 3);
        }
        parts << best;
    }
    parts << tr("suggested K %1 (directions above noise)").arg(s.suggestedK);
    parts << tr("foreground set changes at %1 γ").arg(setChanges);
    int failed = 0;
    for (const cx::SpecificityPoint& p : m_sweep->points) {
        failed += p.failure.empty() ? 0 : 1;
    }
    if (failed > 0) {
        parts << tr("%1 γ without AUC (hover the red squares)").arg(failed);
    }
    if (flaggedPoints > 0) {
        // Short: the line must fit two lines beside the Bootstrap button at 1024 × 700.
        QString text = tr("⚠ ω ∉ [−γ, 1] at %1 γ (dashed)").arg(flaggedPoints);
        if (noAdmissible > 0) {
            text += tr(", no admissible foreground topic at %1 γ").arg(noAdmissible);
        }
        parts << text;
    }
    if (untrustedPoints > 0) {
        parts << tr("not stood behind at %1 of %2 γ (shaded; reasons on hover)")
                     .arg(untrustedPoints)
                     .arg(judged);
    }
    if (m_bands) {
        int unstable = 0;
        for (double v : m_bands->identityStability) {
            unstable += std::isfinite(v) && v < cx::kMinStability ? 1 : 0;
        }
        parts << tr("bootstrap %1 resamples: %2 unstable topics (⚠)")
                     .arg(m_bands->replicates)
                     .arg(unstable);
    }
    setSuggestions(parts.join(QStringLiteral(" · ")));
    const QStringList reasons = untrustedReasons();
    if (!reasons.isEmpty()) {
        // The tooltip lists why the app does not stand behind each shaded γ.
        const qsizetype shown = std::min<qsizetype>(reasons.size(), 25);
        QStringList escaped;
        for (qsizetype i = 0; i < shown; ++i) {
            escaped << reasons[i].toHtmlEscaped();
        }
        m_suggestions->setToolTip(m_suggestionsText.toHtmlEscaped() + QStringLiteral("<br><br>") +
                                  escaped.join(QStringLiteral("<br>")) +
                                  (reasons.size() > shown
                                       ? tr("<br>… and %1 more").arg(reasons.size() - shown)
                                       : QString()));
    }
}

void SpecificityPanel::setTopicNames(const std::map<int, QString>& names) {
    if (names == m_names) {
        return;
    }
    m_names = names;
    updateTrajectories();
}

QStringList SpecificityPanel::untrustedReasons() const {
    QStringList out;
    if (!m_sweep) {
        return out;
    }
    for (const cx::GammaVerdict& verdict : cx::judgeSweep(*m_sweep, m_bands.get())) {
        if (!verdict.trusted) {
            out << QStringLiteral("γ = %1: %2")
                       .arg(verdict.gamma, 0, 'g', 4)
                       .arg(QString::fromStdString(verdict.reason));
        }
    }
    return out;
}

} // namespace cx::ui
