// Journeys on the real MainWindow: one identity, one
// colour, one name. Topics with K ≥ 15 draw every identity in its own colour and line pattern;
// chromatin state names survive region changes without growing counters, the γ = 0 panel keeps
// its rows as γ moves, and one state has one colour in both heatmaps; the topics summary names
// an inadmissible topic as its column does.
#include "gui_test_helpers.h"
#include "journey_support.h"

#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/resource_locator.h"
#include "ui/topics/specificity_panel.h"
#include "ui/topics/topic_table_panel.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topics_analysis_panel.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"
#include "ui/widgets/state_matrix_model.h"

#include "core/common/identity_style.h"
#include "core/topics/topic_admissibility.h"
#include "core/topics/topic_evaluation.h"
#include "core/topics/topic_path.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QIcon>
#include <QImage>
#include <QLineSeries>
#include <QMap>
#include <QRegularExpression>

namespace {

using cx::ui::ChromatinWorkspace;
using cx::ui::MainWindow;
using cx::ui::StateMatrixModel;
using cx::ui::TopicsWorkspace;
using cx::ui::test::waitUntil;

cx::Rgb rgbOf(const QColor& colour) {
    return cx::Rgb{static_cast<std::uint8_t>(colour.red()),
                   static_cast<std::uint8_t>(colour.green()),
                   static_cast<std::uint8_t>(colour.blue())};
}

cx::LinePattern patternOf(Qt::PenStyle style) {
    switch (style) {
    case Qt::DotLine:
        return cx::LinePattern::Dotted;
    case Qt::DashDotLine:
        return cx::LinePattern::DashDot;
    case Qt::DashDotDotLine:
        return cx::LinePattern::DashDotDot;
    default:
        return cx::LinePattern::Solid;
    }
}

/// Every legend entry of the on-screen chart with the pen its solid (first) series is drawn
/// in: what the reader matches lines by. No two entries may look alike.
::testing::AssertionResult drawnLinesDistinct(cx::ui::StateWeightsChartView* chart) {
    QMap<QString, cx::IdentityStyle> styles;
    for (const auto& line : chart->lines()) {
        styles.insert(line.name, cx::IdentityStyle{rgbOf(line.colour), patternOf(line.pattern)});
    }
    if (styles.size() != chart->lines().size()) {
        return ::testing::AssertionFailure() << "two lines share a name";
    }
    const QStringList names = styles.keys();
    for (int a = 0; a < names.size(); ++a) {
        for (int b = a + 1; b < names.size(); ++b) {
            if (cx::stylesClash(styles[names[a]], styles[names[b]])) {
                return ::testing::AssertionFailure()
                       << names[a].toStdString() << " and " << names[b].toStdString()
                       << " are drawn alike";
            }
        }
    }
    // The drawn pens are the lines' (colour and pattern; flagged pieces of a solid line
    // dashed), so the screen shows what is checked.
    for (QAbstractSeries* series : chart->chart()->series()) {
        auto* drawn = qobject_cast<QLineSeries*>(series);
        if (!drawn || !styles.contains(drawn->name()) || drawn->points().size() < 2) {
            continue;
        }
        const cx::IdentityStyle expected = styles[drawn->name()];
        const QPen pen = drawn->pen();
        const QColor colour = cx::ui::weightLineColour(cx::ui::qColour(expected.colour));
        if (pen.color() != colour ||
            (pen.style() != Qt::DashLine && patternOf(pen.style()) != expected.pattern)) {
            return ::testing::AssertionFailure()
                   << drawn->name().toStdString() << " is drawn in another pen than its line's";
        }
    }
    return ::testing::AssertionSuccess();
}

bool topicsSettled(TopicsWorkspace* topics) {
    return topics->isSettled() && topics->controller()->solution().isValid();
}

bool identityChromatinReady(ChromatinWorkspace* chromatin) {
    const auto* controller = chromatin->controller();
    return chromatin->isSettled() && controller->solution().isValid() &&
           controller->sweep().path != nullptr && !controller->isSweepRunning() &&
           chromatin->catalog().path() == controller->sweep().path &&
           chromatin->referenceModel()->rowCount() > 0;
}

/// A name numbered by history ("Quiescent 6") or marked without saying why ("· new").
const QRegularExpression kCounter(QStringLiteral("(\\s\\d+$)|(· new)"));

} // namespace

TEST(IdentityJourneys, TopicsWithFifteenComponentsDrawEveryIdentityApart) {
    MainWindow window;
    window.setSettingsPersistent(false);
    ASSERT_TRUE(window.openDemo());
    TopicsWorkspace* topics = window.workspace<TopicsWorkspace>();
    ASSERT_TRUE(waitUntil([&] { return topicsSettled(topics); }, 90000));
    // K = 15 the way the spin box does it.
    cx::ui::ModelParameters parameters = topics->analysisPanel()->parameters();
    parameters.numComponents = 15;
    topics->analysisPanel()->setParameters(parameters);
    emit topics->analysisPanel()->parametersChanged(parameters);
    cx::ui::StateWeightsChartView* chart = topics->specificityPanel()->trajectoryChart();
    // The sweep of K = 15 done: one line per foreground identity of its path.
    ASSERT_TRUE(waitUntil(
        [&] {
            const auto sweep = topics->controller()->lastSweep();
            // K asked = components kept + components rejected for an inadmissible weight.
            const auto& result = topics->controller()->solution().result;
            return topicsSettled(topics) && !topics->controller()->isSweepRunning() && sweep &&
                   !sweep->path.solutions.empty() && result &&
                   result->numComponents() + result->numRejected == 15 && !chart->lines().isEmpty();
        },
        120000))
        << chart->lines().size() << " lines";
    // More identities than the old ten colours (T11 was T1's colour): what the rule must handle.
    ASSERT_GT(chart->lines().size(), 10);
    EXPECT_TRUE(drawnLinesDistinct(chart));
    // The table's swatches (all components shown) are the lines' colours, one per identity.
    topics->tablePanel()->setShowAll(true);
    const cx::ui::TopicWordsModel* model = topics->tablePanel()->model();
    QMap<int, QColor> byIdentity;
    for (int column = 0; column < model->columnCount(); ++column) {
        const int identity = model->identityOf(model->componentOf(column));
        if (identity >= 0) {
            byIdentity.insert(identity, cx::ui::weightLineColour(
                                            cx::ui::SpecificityPanel::identityColour(identity)));
        }
    }
    // No two identities' swatches alike (past twelve, the swatch shows the line's pattern).
    QMap<int, QImage> swatches;
    for (int column = 0; column < model->columnCount(); ++column) {
        const int identity = model->identityOf(model->componentOf(column));
        const QIcon icon =
            model->headerData(column, Qt::Horizontal, Qt::DecorationRole).value<QIcon>();
        if (identity >= 0 && !icon.isNull()) {
            swatches.insert(identity, icon.pixmap(12, 12).toImage());
        }
    }
    const QList<int> shownIds = swatches.keys();
    for (int a = 0; a < shownIds.size(); ++a) {
        for (int b = a + 1; b < shownIds.size(); ++b) {
            EXPECT_NE(swatches[shownIds[a]], swatches[shownIds[b]])
                << "T" << shownIds[a] + 1 << " and T" << shownIds[b] + 1;
        }
    }
    for (const auto& line : chart->lines()) {
        const QRegularExpressionMatch id =
            QRegularExpression(QStringLiteral("^T(\\d+) ")).match(line.name);
        ASSERT_TRUE(id.hasMatch()) << line.name.toStdString();
        const int identity = id.captured(1).toInt() - 1;
        if (byIdentity.contains(identity)) {
            EXPECT_EQ(byIdentity[identity], cx::ui::weightLineColour(line.colour));
        }
    }
}

TEST(IdentityJourneys, TopicsSummaryNamesAnInadmissibleTopicAsItsColumnDoes) {
    MainWindow window;
    window.setSettingsPersistent(false);
    ASSERT_TRUE(window.openDemo());
    TopicsWorkspace* topics = window.workspace<TopicsWorkspace>();
    ASSERT_TRUE(waitUntil([&] { return topicsSettled(topics); }, 90000));
    const double gamma = cx::ui::journeys::showInadmissibleForegroundTopic(topics);
    ASSERT_FALSE(std::isnan(gamma)) << "the demo shows an inadmissible topic on its γ grid";
    const cx::ui::TopicWordsModel* model = topics->tablePanel()->model();
    ASSERT_TRUE(waitUntil(
        [&] {
            return topicsSettled(topics) && topics->controller()->lastSweep() &&
                   std::abs(topics->controller()->solution().gamma - gamma) < 1e-6 &&
                   model->admissibility().inadmissible > 0 && model->columnCount() > 0 &&
                   model->identityOf(model->componentOf(0)) >= 0;
        },
        90000))
        << topics->tablePanel()->summaryText().toStdString();
    const QString summary = topics->tablePanel()->summaryText();
    int named = 0;
    for (int column = 0; column < model->columnCount(); ++column) {
        const int component = model->componentOf(column);
        if (!model->admissibility().admissible(component)) {
            const QString name = model->componentName(column);
            EXPECT_TRUE(name.contains(QStringLiteral("T"))) << name.toStdString();
            EXPECT_TRUE(summary.contains(name))
                << summary.toStdString() << " lacks " << name.toStdString();
            ++named;
        }
    }
    EXPECT_GT(named, 0) << summary.toStdString();
}

TEST(IdentityJourneys, ChromatinNamesAndColoursSurviveRegionChangesAndGamma) {
    MainWindow window;
    window.setSettingsPersistent(false);
    ASSERT_TRUE(window.openDemo());
    window.setCurrentWorkspace(QStringLiteral("chromatin"));
    ChromatinWorkspace* chromatin = window.workspace<ChromatinWorkspace>();
    chromatin->controller()->setDecodeDelay(0);
    ASSERT_TRUE(waitUntil([&] { return identityChromatinReady(chromatin); }, 120000));

    // What the user reads after each step: names unique in each panel, none numbered, and one
    // state (one name) in one colour across both heatmaps, two states never in one colour.
    const auto checkPanels = [&](const std::string& step) {
        const auto& left = chromatin->referenceModel()->content();
        const auto& right = chromatin->emissionModel()->content();
        QMap<QString, QColor> colourOf;
        for (const auto* content : {&left, &right}) {
            for (int r = 0; r < content->rowLabels.size(); ++r) {
                const QString& name = content->rowLabels[r];
                EXPECT_FALSE(kCounter.match(name).hasMatch()) << step << ": " << name.toStdString();
                EXPECT_EQ(content->rowLabels.count(name), 1) << step << ": " << name.toStdString();
                if (colourOf.contains(name)) {
                    EXPECT_EQ(colourOf[name], content->rowColours[r])
                        << step << ": " << name.toStdString() << " in two colours";
                }
                colourOf.insert(name, content->rowColours[r]);
            }
        }
        const QStringList names = colourOf.keys();
        for (int a = 0; a < names.size(); ++a) {
            for (int b = a + 1; b < names.size(); ++b) {
                EXPECT_FALSE(cx::coloursClash(rgbOf(colourOf[names[a]]), rgbOf(colourOf[names[b]])))
                    << step << ": " << names[a].toStdString() << " and " << names[b].toStdString()
                    << " share a colour";
            }
        }
        EXPECT_TRUE(drawnLinesDistinct(chromatin->weightsChart())) << step;
        for (const auto& line : chromatin->weightsChart()->lines()) {
            EXPECT_FALSE(kCounter.match(line.name).hasMatch())
                << step << ": " << line.name.toStdString();
        }
    };
    checkPanels("demo");

    // Region changes, as the Fg ticks do them.
    cx::ui::AnnotationListModel* annotations = chromatin->annotationModel();
    const auto pathOf = [&](const QString& fileName) {
        for (int row = 0; row < annotations->rowCount(); ++row) {
            const QString path =
                annotations->data(annotations->index(row, 0), cx::ui::AnnotationListModel::PathRole)
                    .toString();
            if (path.endsWith(fileName)) {
                return path;
            }
        }
        return QString();
    };
    const QString tss2kb = pathOf(QStringLiteral("RefSeqTSS2kb.chr11_0-30Mb.bed.gz"));
    const QString cpg = pathOf(QStringLiteral("CpGIsland.chr11_0-30Mb.bed.gz"));
    ASSERT_FALSE(tss2kb.isEmpty());
    ASSERT_FALSE(cpg.isEmpty());
    const std::vector<std::pair<QString, bool>> changes = {
        {tss2kb, false}, {cpg, true}, {tss2kb, true}, {cpg, false}};
    for (size_t i = 0; i < changes.size(); ++i) {
        const auto before = chromatin->controller()->sweep().path;
        annotations->setChecked(changes[i].first, cx::ui::AnnotationListModel::ForegroundColumn,
                                changes[i].second);
        ASSERT_TRUE(waitUntil(
            [&] {
                return identityChromatinReady(chromatin) &&
                       chromatin->controller()->sweep().path != before;
            },
            120000))
            << "region change " << i;
        checkPanels("region change " + std::to_string(i));
    }

    // γ moves: the γ = 0 panel keeps its rows (order, names, colours); every step as above.
    QStringList zeroRows;
    QVector<QColor> zeroColours;
    for (double gamma : {0.0, 0.6, 1.3, 1.95, 0.25}) {
        chromatin->setGamma(gamma);
        ASSERT_TRUE(waitUntil(
            [&] {
                return identityChromatinReady(chromatin) &&
                       std::abs(chromatin->controller()->solution().gamma - gamma) < 1e-6;
            },
            60000))
            << "γ " << gamma;
        checkPanels("γ " + std::to_string(gamma));
        const auto& left = chromatin->referenceModel()->content();
        if (zeroRows.isEmpty()) {
            zeroRows = left.rowLabels;
            zeroColours = left.rowColours;
        }
        EXPECT_EQ(left.rowLabels, zeroRows) << "γ " << gamma;
        EXPECT_EQ(left.rowColours, zeroColours) << "γ " << gamma;
    }
}
