// The chart views on their own: every drawn weight line has a legend entry and its points in the
// figure's data; the convergence chart of a method without iterations says why instead of a
// blank plot with "0 0 0 0 0 1" ticks, and its ticks are whole iterations.
#include "gui_test_helpers.h"

#include "ui/charts/iteration_chart_view.h"
#include "ui/charts/state_weights_chart_view.h"

#include <QApplication>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <cmath>

namespace {

using namespace cx::ui;
using cx::ui::test::chartMessages;

TEST(WeightsChartLegend, EveryDrawnLineHasAnEntry) {
    StateWeightsChartView chart;
    StateWeightsChartView::Line shown{QStringLiteral("Active promoter"),
                                      QColor(224, 27, 27),
                                      Qt::SolidLine,
                                      {{0, 0.2}, {1, 0.3}},
                                      {},
                                      {},
                                      true,
                                      {}};
    // Absent at the current γ but drawn elsewhere: it still needs its name in the legend.
    StateWeightsChartView::Line elsewhere{QStringLiteral("Weak enhancer"),
                                          QColor(250, 160, 0),
                                          Qt::SolidLine,
                                          {{0, 0.1}, {1, std::nan("")}},
                                          {},
                                          {},
                                          false,
                                          {}};
    // Drawn nowhere: no entry.
    StateWeightsChartView::Line nowhere{QStringLiteral("Ghost"),
                                        QColor(0, 0, 0),
                                        Qt::SolidLine,
                                        {{0, std::nan("")}},
                                        {},
                                        {},
                                        false,
                                        {}};
    chart.setLines({shown, elsewhere, nowhere}, 0, 1);
    const QStringList labels = chart.legendLabels();
    EXPECT_TRUE(labels.contains(QStringLiteral("Active promoter")));
    EXPECT_TRUE(labels.contains(QStringLiteral("Weak enhancer"))) << labels.join('|').toStdString();
    EXPECT_FALSE(labels.contains(QStringLiteral("Ghost")));
    // The figure's data holds every point, the gap as an empty value.
    const QStringList lines = chart.figureData().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 1 + 2 + 2 + 1);
    EXPECT_EQ(lines[4], QStringLiteral("Weak enhancer\t1\t\t\t\t0"));
}

TEST(ConvergenceChart, NoIterationsShowsWhyAndTicksAreWholeIterations) {
    IterationChartView chart;
    chart.resize(400, 300);
    chart.setPlaceholder(QStringLiteral("MV does not iterate: no convergence to show"));
    // Majority vote: one line without points. Before: an empty plot, x ticks 0.2 apart, "%d".
    chart.setLines({{QStringLiteral("log-likelihood"), Qt::blue, {}, false, false}},
                   QStringLiteral("log-likelihood"), {});
    EXPECT_TRUE(chartMessages(chart).contains(
        QStringLiteral("MV does not iterate: no convergence to show")));
    EXPECT_FALSE(chart.chart()->legend()->isVisible());
    EXPECT_TRUE(chart.figureData().isEmpty());
    // One iteration: whole-number ticks only, and the single point is drawn as a marker.
    chart.setLines({{QStringLiteral("log-likelihood"), Qt::blue, {{1, -5.0}}, false, false}},
                   QStringLiteral("log-likelihood"), {});
    const auto axes = chart.chart()->axes(Qt::Horizontal);
    ASSERT_EQ(axes.size(), 1);
    const auto* x = qobject_cast<QValueAxis*>(axes.front());
    ASSERT_NE(x, nullptr);
    EXPECT_GE(x->tickInterval(), 1.0);
    EXPECT_EQ(x->tickInterval(), std::round(x->tickInterval()));
    EXPECT_EQ(chart.figureData(), QStringLiteral("line\titeration\tvalue\taxis\n"
                                                 "log-likelihood\t1\t-5\tleft\n"));
}

// Two lines of one colour, solid and dashed (Crowd: the stagewise fit, then its refinement):
// their legend entries are stretches of the lines themselves, so the dash tells them apart
// (before: two identical colour squares).
TEST(ConvergenceChart, ASolidAndADashedLineOfOneColourDifferInTheLegend) {
    IterationChartView chart;
    chart.resize(520, 320);
    const QColor blue(0x2b, 0x5c, 0xa8);
    chart.setLines({{QStringLiteral("stagewise"), blue, {{1, -5.0}, {2, -4.0}}, false, false},
                    {QStringLiteral("refine"), blue, {{2, -4.0}, {3, -3.5}}, false, true}},
                   QStringLiteral("log-likelihood"), {});
    chart.show();
    QApplication::processEvents();
    const auto markers = chart.chart()->legend()->markers();
    ASSERT_EQ(markers.size(), 2);
    // Each entry is drawn from its series (a stretch of its line, with the line's pen).
    EXPECT_EQ(chart.chart()->legend()->markerShape(), QLegend::MarkerShapeFromSeries);
    for (QLegendMarker* marker : markers) {
        EXPECT_EQ(marker->shape(), QLegend::MarkerShapeDefault) << "follows the legend's";
    }
    const auto* solid = qobject_cast<QLineSeries*>(markers[0]->series());
    const auto* dashed = qobject_cast<QLineSeries*>(markers[1]->series());
    ASSERT_TRUE(solid && dashed);
    EXPECT_EQ(solid->pen().color(), dashed->pen().color());
    EXPECT_EQ(solid->pen().style(), Qt::SolidLine);
    EXPECT_EQ(dashed->pen().style(), Qt::DashLine);
}

} // namespace
