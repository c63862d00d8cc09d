// Inadmissible topic weights (ω outside [−γ, 1]) are flagged alike in the top-words table, its
// summary and placeholder, the exported table, and the topic-weights-vs-γ chart.
#include "gui_test_helpers.h"

#include "ui/charts/auc_chart_view.h"
#include "ui/charts/state_weights_chart_view.h"
#include "ui/shell/main_window.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topic_worker.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"

#include "core/topics/topic_admissibility.h"
#include "core/topics/topic_bootstrap.h"
#include "core/topics/topic_evaluation.h"
#include "core/topics/topic_path.h"

#include <gtest/gtest.h>

#include <QAreaSeries>
#include <QChart>
#include <QDoubleSpinBox>
#include <QLineSeries>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

using cx::ui::SpecificityPanel;
using cx::ui::StateWeightsChartView;
using cx::ui::TopicSolution;
using cx::ui::TopicTablePanel;
using cx::ui::TopicWordsModel;

namespace {

/// Components over a 6-word vocabulary at γ with these signed weights (point-mass topics).
std::shared_ptr<cx::TopicModelResult> result(double gamma, const std::vector<double>& weights) {
    const auto k = static_cast<Eigen::Index>(weights.size());
    auto r = std::make_shared<cx::TopicModelResult>();
    r->gamma = gamma;
    r->topics = Eigen::MatrixXd::Constant(6, k, 0.02);
    r->lambdas.resize(k);
    r->weights.resize(k);
    r->signedWeights.resize(k);
    r->clippedMass = Eigen::VectorXd::Zero(k);
    for (Eigen::Index t = 0; t < k; ++t) {
        const double w = weights[static_cast<size_t>(t)];
        r->topics(t, t) = 0.9;
        r->topics.col(t) /= r->topics.col(t).sum();
        r->signedWeights[t] = w;
        r->lambdas[t] = (w > 0 ? 1.0 : -1.0) / std::sqrt(std::abs(w));
        r->weights[t] = w > 0 ? w : 0.0;
        r->foregroundSpecific.push_back(w > 0);
    }
    r->status = cx::Status::Successful;
    return r;
}

std::shared_ptr<cx::Corpus> corpus() {
    auto c = std::make_shared<cx::Corpus>();
    c->vocabulary = {"loss", "cts", "net", "dlrs", "bank", "rate"};
    return c;
}

TopicSolution admissibilitySolution(double gamma, const std::vector<double>& weights) {
    TopicSolution s;
    s.generation = 1;
    s.gamma = gamma;
    s.result = result(gamma, weights);
    s.corpus = corpus();
    s.topWords = cx::ui::TopicWorker::topWords(*s.result, 3);
    return s;
}

} // namespace

TEST(TopicAdmissibilityViews, TableFlagsAWeightAboveOne) {
    TopicWordsModel model;
    model.setTopWordCount(3);
    model.setSolution(admissibilitySolution(2.0, {2.6, 0.3, -0.5}));
    ASSERT_EQ(model.columnCount(), 2);
    EXPECT_TRUE(
        model.headerData(0, Qt::Horizontal).toString().startsWith(QStringLiteral("⚠ Topic 1")));
    EXPECT_TRUE(
        model.headerData(1, Qt::Horizontal).toString().startsWith(QStringLiteral("Topic 2")));
    EXPECT_FALSE(model.headerData(0, Qt::Horizontal, TopicWordsModel::AdmissibleRole).toBool());
    EXPECT_TRUE(model.headerData(1, Qt::Horizontal, TopicWordsModel::AdmissibleRole).toBool());
    EXPECT_FALSE(model.data(model.index(0, 0), TopicWordsModel::AdmissibleRole).toBool());
    const QString tip = model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("inadmissible"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("2.6 &gt; 1"))) << tip.toStdString();
    EXPECT_TRUE(model.data(model.index(0, 0), Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("[−γ, 1]")));
    // The exported table carries the flag.
    const QStringList rows =
        model.longTable(QLatin1Char('\t')).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(rows.size(), 7);
    EXPECT_TRUE(rows[0].endsWith(QStringLiteral("\tadmissible\tnpmi\tname")));
    EXPECT_TRUE(rows[1].startsWith(QStringLiteral("c1\t")) &&
                rows[1].contains(QStringLiteral("\t0\tnan\t")));
    EXPECT_TRUE(rows[4].startsWith(QStringLiteral("c2\t")) &&
                rows[4].contains(QStringLiteral("\t1\tnan\t")));

    // A bootstrap band that reaches into [−γ, 1] keeps the flag, and the
    // tooltip shows the band and the stability.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    model.setWeightBands({0.8, nan, nan}, {3.4, nan, nan}, {0.3, nan, nan});
    EXPECT_FALSE(model.headerData(0, Qt::Horizontal, TopicWordsModel::AdmissibleRole).toBool());
    EXPECT_TRUE(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("reaches into")));
    EXPECT_TRUE(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("30 % of the resamples (unstable)")));
    model.setWeightBands({1.9, nan, nan}, {3.4, nan, nan});
    EXPECT_FALSE(model.headerData(0, Qt::Horizontal, TopicWordsModel::AdmissibleRole).toBool());
    EXPECT_TRUE(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("whole bootstrap band")));
    // A new solution drops the old bands.
    model.setSolution(admissibilitySolution(2.0, {0.4, 0.3}));
    EXPECT_EQ(model.admissibility().inadmissible, 0);
}

TEST(TopicAdmissibilityViews, NegativeSideAndGammaZero) {
    TopicWordsModel model;
    model.setShowAll(true);
    model.setSolution(admissibilitySolution(1.0, {0.5, -0.4, -1.7}));
    ASSERT_EQ(model.columnCount(), 3);
    EXPECT_TRUE(model.headerData(1, Qt::Horizontal, TopicWordsModel::AdmissibleRole).toBool());
    EXPECT_FALSE(model.headerData(2, Qt::Horizontal, TopicWordsModel::AdmissibleRole).toBool());
    EXPECT_TRUE(model.headerData(2, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("&lt; −γ")));
    model.setSolution(admissibilitySolution(0.0, {0.5, -0.05}));
    EXPECT_FALSE(model.headerData(1, Qt::Horizontal, TopicWordsModel::AdmissibleRole).toBool());
}

TEST(TopicAdmissibilityViews, SummaryCountsAndNoAdmissibleTopicMessage) {
    TopicTablePanel panel;
    panel.resize(800, 400);
    panel.setSolution(admissibilitySolution(2.0, {2.6, 0.3, 0.2, -0.5}));
    const QString summary = panel.summaryText();
    EXPECT_TRUE(summary.contains(QStringLiteral("3 of 4 components foreground-specific")))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("⚠ 1 inadmissible (Topic 1)")))
        << summary.toStdString();
    EXPECT_TRUE(panel.placeholderText().isEmpty());

    // Every foreground-specific component inadmissible: the panel says so instead of a table.
    panel.setSolution(admissibilitySolution(3.0, {2.2, 1.4, -0.5}));
    EXPECT_TRUE(panel.placeholderText().contains(
        QStringLiteral("No admissible foreground-specific topic at γ = 3.00")))
        << panel.placeholderText().toStdString();
    EXPECT_TRUE(
        panel.summaryText().contains(QStringLiteral("no admissible foreground-specific topic")));
    // Showing all components presents them (flagged) for inspection.
    panel.setShowAll(true);
    EXPECT_TRUE(panel.placeholderText().isEmpty());
    EXPECT_EQ(panel.model()->columnCount(), 3);
    panel.setShowAll(false);
    // Bootstrap bands that reach into the interval do not lift the flag: the weight shown is
    // still outside it; the band adds its range.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    panel.setWeightBands({0.7, 0.9, nan}, {3.0, 1.8, nan});
    EXPECT_FALSE(panel.placeholderText().isEmpty());
    EXPECT_TRUE(panel.summaryText().contains(QStringLiteral("inadmissible")));
}

namespace {

/// A path over γ = 0, 1, 2, 3 with two identities: T1 (foreground, ω 0.4 → 1.6 → 2.5 → 2.8)
/// and T2 (background-like, ω −0.1 → −0.5 → −1 → −1.2).
std::shared_ptr<cx::SpecificitySweep> sweep() {
    auto s = std::make_shared<cx::SpecificitySweep>();
    const std::vector<double> gammas = {0.0, 1.0, 2.0, 3.0};
    const std::vector<std::vector<double>> weights = {
        {0.4, -0.1}, {1.6, -0.5}, {2.5, -1.0}, {2.8, -1.2}};
    s->path.gammas = gammas;
    s->path.numIdentities = 2;
    for (size_t i = 0; i < gammas.size(); ++i) {
        s->path.solutions.push_back(*result(gammas[i], weights[i]));
        s->path.ids.push_back({0, 1});
        s->path.failures.push_back("");
        cx::SpecificityPoint p;
        p.gamma = gammas[i];
        p.auc = 0.7;
        p.relativeAuc = 1.0;
        p.numForegroundSpecific = 1;
        s->points.push_back(p);
    }
    s->baselineAuc = 0.7;
    return s;
}

} // namespace

TEST(TopicAdmissibilityViews, TrajectoryChartDashesAndMarksInadmissiblePoints) {
    SpecificityPanel panel;
    panel.resize(900, 600);
    panel.setCorpus(corpus());
    const auto path = sweep();
    // The AUC chart streams the points with their point-rule counts, as the sweep does.
    panel.onSweepStarted({0.0, 1.0, 2.0, 3.0});
    for (const cx::SpecificityPoint& p : path->points) {
        cx::ui::SweepPoint point{p.gamma, p.auc, p.relativeAuc, p.numForegroundSpecific, 0, {}};
        point.numInadmissible =
            cx::checkPathPoint(path->path, path->path.nearest(p.gamma)).inadmissible;
        panel.onSweepPoint(point);
    }
    panel.onSweepFinished();
    EXPECT_EQ(panel.chart()->flaggedPointCount(), 4);
    panel.onSweepPath(path);
    const StateWeightsChartView* chart = panel.trajectoryChart();
    ASSERT_EQ(chart->lines().size(), 1); // T1 only: T2 is never foreground-specific
    const StateWeightsChartView::Line& line = chart->lines().front();
    EXPECT_EQ(line.flagged, (QList<bool>{false, true, true, true}));
    EXPECT_TRUE(line.name.contains(QStringLiteral("⚠ ω > 1"))) << line.name.toStdString();
    EXPECT_EQ(chart->flaggedPointCount(), 3);
    // Points 0 (ω = −0.1 < 0 at γ = 0), 1, 2, 3 each have an inadmissible component; from γ = 1
    // on there is no admissible foreground-specific topic: one shaded range from 0.5 to 3.
    ASSERT_EQ(chart->unreliableRanges().size(), 1);
    EXPECT_DOUBLE_EQ(chart->unreliableRanges().front().first, 0.5);
    EXPECT_DOUBLE_EQ(chart->unreliableRanges().front().second, 3.0);
    const QString text = panel.suggestionText();
    EXPECT_TRUE(text.contains(QStringLiteral("⚠ ω ∉ [−γ, 1] at 4 γ (dashed)")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("no admissible foreground topic at 3 γ")));

    // Drawn: dashed pieces, one hollow marker series, the bounds.
    int dashed = 0;
    int markers = 0;
    for (QAbstractSeries* series : chart->chart()->series()) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            markers += static_cast<int>(scatter->count());
            EXPECT_TRUE(scatter->name().contains(QStringLiteral("inadmissible")));
        } else if (auto* l = qobject_cast<QLineSeries*>(series)) {
            dashed += l->pen().style() == Qt::DashLine && l->name() == line.name ? 1 : 0;
        }
    }
    EXPECT_EQ(markers, 3);
    EXPECT_GE(dashed, 1);

    // With bootstrap bands that reach below 1 at γ = 1, that point stays flagged (a band never
    // clears an estimate outside [−γ, 1]).
    auto bands = std::make_shared<cx::PathBootstrap>();
    bands->replicates = 10;
    bands->gammas = {0.0, 1.0, 2.0, 3.0};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    bands->weightLo = {{0.3, nan}, {0.9, -0.6}, {2.1, -1.1}, {2.2, -1.3}};
    bands->weightHi = {{0.5, nan}, {2.0, -0.4}, {2.9, -0.9}, {3.1, -1.1}};
    bands->stability = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    bands->identityStability = {1.0, 1.0};
    panel.onBootstrapFinished(bands);
    EXPECT_EQ(panel.trajectoryChart()->lines().front().flagged,
              (QList<bool>{false, true, true, true}));
    // The AUC chart's rings keep it too.
    EXPECT_EQ(panel.chart()->flaggedPointCount(), 4);
    EXPECT_EQ(panel.chart()->points()[1].numInadmissible, 1);
}

// The workspace gives the table the bootstrap's weight bands of the shown γ: its verdicts are
// the band rule's (cx::bandsOnPath + cx::checkComponents), which never clears a point flag.
TEST(TopicAdmissibilityViews, WorkspaceTableUsesTheBootstrapBandsOfTheShownGamma) {
    using cx::ui::test::waitUntil;
    cx::ui::test::ErrorRecorder errors;
    cx::ui::MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(window.openDemo());
    cx::ui::TopicsWorkspace* topics = window.workspace<cx::ui::TopicsWorkspace>();
    cx::ui::TopicsController* controller = topics->controller();
    ASSERT_TRUE(waitUntil(
        [&] {
            return topics->isSettled() && controller->solution().isValid() &&
                   controller->lastSweep() != nullptr;
        },
        90000));
    emit topics->specificityPanel()->bootstrapRequested(10);
    ASSERT_TRUE(waitUntil([&] { return controller->lastBootstrap() != nullptr; }, 120000));

    const auto expectBandVerdicts = [&](double gamma) {
        const TopicSolution& shown = topics->tablePanel()->model()->solution();
        ASSERT_TRUE(shown.isValid());
        ASSERT_NEAR(shown.gamma, gamma, 1e-12);
        std::vector<double> low, high;
        cx::bandsOnPath(controller->lastSweep()->path, *controller->lastBootstrap(), *shown.result,
                        low, high);
        EXPECT_TRUE(std::any_of(low.begin(), low.end(), [](double v) { return std::isfinite(v); }))
            << "a grid γ has bands";
        const cx::ComponentAdmissibility expected = cx::checkComponents(*shown.result, low, high);
        EXPECT_EQ(topics->tablePanel()->model()->admissibility().verdicts, expected.verdicts)
            << "gamma " << gamma;
        EXPECT_EQ(topics->tablePanel()->summaryText().contains(QStringLiteral("inadmissible")),
                  expected.inadmissible > 0);
    };
    expectBandVerdicts(controller->gamma());
    // Every grid γ: the bands keep each flag of the point rule.
    const cx::TopicPath& path = controller->lastSweep()->path;
    for (int i = 0; i < static_cast<int>(path.gammas.size()); ++i) {
        const cx::ComponentAdmissibility point = cx::checkPathPoint(path, i);
        const cx::ComponentAdmissibility banded =
            cx::checkPathPoint(path, i, controller->lastBootstrap().get());
        for (size_t t = 0; t < point.verdicts.size(); ++t) {
            EXPECT_TRUE(cx::isAdmissible(point.verdicts[t]) ||
                        !cx::isAdmissible(banded.verdicts[t]))
                << "γ " << path.gammas[static_cast<size_t>(i)] << " component " << t;
        }
    }
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}

// The AUC chart shades the γ the app does not stand behind, as the weights
// chart does, keeps their points, and gives the reason (tooltip text, exported data).
TEST(TopicAdmissibilityViews, AucChartShadesGammaNotStoodBehind) {
    cx::ui::AucChartView chart;
    chart.resize(500, 300);
    chart.startSweep({0.0, 1.0, 2.0, 3.0});
    for (double g : {0.0, 1.0, 2.0, 3.0}) {
        cx::ui::SweepPoint point;
        point.gamma = g;
        point.auc = 0.7 + 0.05 * g;
        point.relativeAuc = point.auc / 0.7;
        point.numForegroundSpecific = 1;
        chart.addPoint(point);
    }
    chart.finishSweep();
    EXPECT_TRUE(chart.notTrustedRanges().isEmpty());
    // γ 1 and 2 are not stood behind; a γ off the grid and a missing reason are ignored.
    chart.setNotTrusted({1.0, 2.0, 3.0, 7.0},
                        {QStringLiteral("inadmissible foreground-specific component T1"),
                         QStringLiteral("contrastive signal below the split-half noise"), QString(),
                         QStringLiteral("off the grid")});
    const QList<std::pair<double, double>> ranges = chart.notTrustedRanges();
    ASSERT_EQ(ranges.size(), 1);
    EXPECT_DOUBLE_EQ(ranges[0].first, 0.5);
    EXPECT_DOUBLE_EQ(ranges[0].second, 2.5);
    // Every point is still drawn (a dot per γ).
    EXPECT_EQ(chart.points().size(), 4);
    EXPECT_EQ(chart.points()[1].notTrusted,
              QStringLiteral("inadmissible foreground-specific component T1"));
    // The shading is drawn: an area whose upper edge steps over the range.
    bool shaded = false;
    for (QAbstractSeries* series : chart.chart()->series()) {
        if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            shaded = shaded || area->upperSeries()->count() == 4;
        }
    }
    EXPECT_TRUE(shaded);
    const QString data = chart.figureData();
    EXPECT_TRUE(data.section('\n', 0, 0).endsWith(QStringLiteral("\tnot_trusted_because")));
    EXPECT_TRUE(data.section('\n', 3, 3)
                    .endsWith(QStringLiteral("\tcontrastive signal below the split-half noise")));
    EXPECT_TRUE(data.section('\n', 4, 4).endsWith(QStringLiteral("\t")));
    // A γ listed again takes its new reason, the others keep theirs (as the inadmissible
    // counts); mismatched lists stop at the shorter.
    chart.setNotTrusted({1.0, 2.0}, {QString()});
    ASSERT_EQ(chart.notTrustedRanges().size(), 1);
    EXPECT_DOUBLE_EQ(chart.notTrustedRanges()[0].first, 1.5);
    // A new sweep starts unshaded.
    chart.startSweep({0.0, 1.0});
    EXPECT_TRUE(chart.notTrustedRanges().isEmpty());
}
