// The Chromatin workspace in the shell, offscreen: opening the slice tracks and picking genes +
// TSS ± 2 kb as foreground, heatmap models against the core result, renaming a state, BED9
// export, a γ drag that must not stall the event loop, the bundled demo and its screenshot.
#include "chromatin_test_helpers.h"

#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/topics/topics_workspace.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/segmentation_track_view.h"
#include "ui/widgets/export_helpers.h"
#include "ui/widgets/gamma_control.h"
#include "ui/widgets/state_matrix_model.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSet>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

using cx::ui::AnnotationListModel;
using cx::ui::ChromatinWorkspace;
using cx::ui::MainWindow;
using cx::ui::test::countDark;
using cx::ui::test::distinctColours;
using cx::ui::test::dragSliderToMaximum;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::EventLoopGapMeter;
using cx::ui::test::exitedCleanly;
using cx::ui::test::geneBed;
using cx::ui::test::GuiRun;
using cx::ui::test::privateGuiEnvironment;
using cx::ui::test::runGui;
using cx::ui::test::samplePixels;
using cx::ui::test::sliceTracks;
using cx::ui::test::tssBed;
using cx::ui::test::waitUntil;

namespace {

using StateWeightsLine = cx::ui::StateWeightsChartView::Line;

bool settledWithModel(ChromatinWorkspace* chromatin) {
    return chromatin->isSettled() && chromatin->controller()->solution().isValid();
}

/// The shell with the slice tracks open and genes + TSS ± 2 kb ticked as foreground, the way a
/// user does it: open tracks, add the BEDs, tick Fg on both.
void openSliceLikeAUser(MainWindow& window, ChromatinWorkspace* chromatin) {
    window.setSettingsPersistent(false);
    window.resize(1440, 900);
    window.show();
    window.setCurrentWorkspace(QStringLiteral("chromatin"));
    chromatin->controller()->setDecodeDelay(0);
    chromatin->openTracks(sliceTracks());
    chromatin->addAnnotations({geneBed(), tssBed()});
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }, 30000));
    // Whole genome first: every state is foreground-specific, γ has no effect.
    EXPECT_TRUE(chromatin->controller()->moments()->choice.isWholeGenome());
    AnnotationListModel* annotations = chromatin->annotationModel();
    annotations->setChecked(geneBed(), AnnotationListModel::ForegroundColumn, true);
    annotations->setChecked(tssBed(), AnnotationListModel::ForegroundColumn, true);
    ASSERT_TRUE(waitUntil(
        [&] {
            return settledWithModel(chromatin) &&
                   chromatin->controller()->moments()->choice.foreground.size() == 2 &&
                   chromatin->controller()->segmentation();
        },
        30000));
}

} // namespace

TEST(ChromatinWorkspace, OpenTracksPickForegroundAndSeeStatesWhoseWeightsMoveWithGamma) {
    ErrorRecorder errors;
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    ASSERT_NE(chromatin, nullptr);
    openSliceLikeAUser(window, chromatin);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
    EXPECT_EQ(window.currentWorkspace(), chromatin);

    chromatin->setGamma(0.0);
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
    const QStringList atZero = chromatin->catalog().names();
    const auto weightsAtZero = chromatin->controller()->solution().result->weights;
    // Names are ChromHMM classes, with a qualifier when another identity along γ has the same
    // class ("Active promoter (H3K36me3 0.09)").
    const auto hasClass = [](const QStringList& names, const QString& name) {
        return std::any_of(names.begin(), names.end(), [&](const QString& shown) {
            return shown == name || shown.startsWith(name + QStringLiteral(" ("));
        });
    };
    EXPECT_TRUE(hasClass(atZero, QStringLiteral("Active promoter")))
        << atZero.join(", ").toStdString();
    EXPECT_TRUE(hasClass(atZero, QStringLiteral("Quiescent"))) << atZero.join(", ").toStdString();

    chromatin->setGamma(1.0);
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
    const auto& result = *chromatin->controller()->solution().result;
    const QStringList atOne = chromatin->catalog().names();
    // The recognisable states are there, and the contrast turns low-signal (quiescent)
    // chromatin into a background state (the most negative weight) while promoters stay
    // foreground-specific.
    int lowest = 0;
    int promoter = -1;
    for (int s = 0; s < chromatin->catalog().numSlots(); ++s) {
        if (chromatin->catalog().weight(s) < chromatin->catalog().weight(lowest)) {
            lowest = s;
        }
        // Names belong to the γ path's state identities (numbered when a kind recurs).
        if (chromatin->catalog().autoName(s).startsWith(QLatin1String("Active promoter"))) {
            promoter = s;
        }
    }
    ASSERT_GE(promoter, 0) << atOne.join(", ").toStdString();
    EXPECT_LT(chromatin->catalog().weight(lowest), 0);
    // Low signal: no mark above 0.3 in the most negative state (its name is that of the
    // identity where it first appeared along γ, which depends on the kept start).
    Eigen::Index mostNegative = 0;
    result.weights.minCoeff(&mostNegative);
    EXPECT_LT(result.weights(mostNegative), 0);
    EXPECT_LT(result.markProbabilities.row(mostNegative).maxCoeff(), 0.3)
        << chromatin->catalog().autoName(lowest).toStdString();
    EXPECT_GT(chromatin->catalog().weight(promoter), 0);
    EXPECT_NE(weightsAtZero, result.weights);
    std::printf("[ measure  ] slice, genes + TSS±2kb: γ=0 states %s\n[ measure  ] γ=1 states %s; "
                "weights %s\n",
                qPrintable(atZero.join(", ")), qPrintable(atOne.join(", ")),
                [&] {
                    QStringList w;
                    for (int s = 0; s < chromatin->catalog().numSlots(); ++s) {
                        w << QString::number(chromatin->catalog().weight(s), 'f', 3);
                    }
                    return w.join(' ');
                }()
                    .toUtf8()
                    .constData());

    // The views show them: emission rows = slots, reference = γ = 0, weight lines per state.
    EXPECT_EQ(chromatin->emissionModel()->rowCount(), 7);
    EXPECT_EQ(chromatin->emissionModel()->columnCount(), 10);
    EXPECT_EQ(chromatin->referenceModel()->rowCount(), 7);
    EXPECT_EQ(chromatin->transitionModel()->rowCount(), result.numSpecific);
    EXPECT_GT(chromatin->enrichmentModel()->rowCount(), 0);
    EXPECT_EQ(chromatin->enrichmentModel()->columnCount(), 2);
    ASSERT_TRUE(waitUntil([&] { return !chromatin->weightsChart()->lines().isEmpty(); }));
    // One line per state identity of the γ path.
    ASSERT_NE(chromatin->controller()->sweep().path, nullptr);
    EXPECT_EQ(chromatin->weightsChart()->lines().size(),
              chromatin->controller()->sweep().path->numIdentities);
    EXPECT_EQ(chromatin->trackView()->laneCount(), 1); // RefSeqGene ticked as a lane by default
    EXPECT_TRUE(chromatin->trackView()->segmentation());
}

TEST(ChromatinWorkspace, HeatmapModelsHoldTheCoreResultInDisplayOrder) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    chromatin->setGamma(0.8);
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
    const auto& solution = chromatin->controller()->solution();
    const auto& result = *solution.result;
    const auto& catalog = chromatin->catalog();
    const cx::ui::StateMatrixModel* emissions = chromatin->emissionModel();
    ASSERT_EQ(emissions->rowCount(), static_cast<int>(result.weights.size()));
    std::vector<bool> seen(static_cast<size_t>(result.weights.size()), false);
    for (int row = 0; row < emissions->rowCount(); ++row) {
        const int component = catalog.componentOfSlot(row);
        ASSERT_GE(component, 0);
        seen[static_cast<size_t>(component)] = true;
        for (int mark = 0; mark < emissions->columnCount(); ++mark) {
            EXPECT_DOUBLE_EQ(emissions->value(row, mark),
                             result.markProbabilities(component, mark));
        }
        EXPECT_DOUBLE_EQ(
            emissions->headerData(row, Qt::Vertical, cx::ui::StateMatrixModel::WeightRole)
                .toDouble(),
            result.weights[component]);
        EXPECT_EQ(
            emissions->headerData(row, Qt::Vertical, cx::ui::StateMatrixModel::DimmedRole).toBool(),
            result.weights[component] <= 0);
        EXPECT_EQ(emissions->headerData(row, Qt::Vertical).toString(), catalog.name(row));
        EXPECT_EQ(emissions->headerData(row, Qt::Vertical, cx::ui::StateMatrixModel::FlaggedRole)
                      .toBool(),
                  result.componentInvalidMass[component] > 0);
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
    // Transitions: the specific HMM's, rows and columns in display order, rows on the simplex.
    const cx::ui::StateMatrixModel* transitions = chromatin->transitionModel();
    for (int i = 0; i < transitions->rowCount(); ++i) {
        double sum = 0;
        const int from = catalog.componentOfSlot(
            transitions->headerData(i, Qt::Vertical, cx::ui::StateMatrixModel::SlotRole).toInt());
        for (int j = 0; j < transitions->columnCount(); ++j) {
            const int to = catalog.componentOfSlot(
                transitions->headerData(j, Qt::Vertical, cx::ui::StateMatrixModel::SlotRole)
                    .toInt());
            EXPECT_DOUBLE_EQ(transitions->value(i, j), result.hmm.transitions(from, to));
            sum += transitions->value(i, j);
        }
        EXPECT_NEAR(sum, 1.0, 1e-9);
    }
    // Reference (γ = 0): the core's γ = 0 rows — a new analysis refines the γ = 0 model with
    // Baum–Welch, so every refined state once, and spectral rows only for components that are
    // no state of the refined HMM (dimmed).
    const cx::ui::StateMatrixModel* reference = chromatin->referenceModel();
    ASSERT_TRUE(solution.reference);
    const auto refinement = chromatin->controller()->refinement();
    ASSERT_TRUE(refinement) << "new analyses refine the γ = 0 model";
    const Eigen::MatrixXd& refined = refinement->model.markProbabilities;
    auto rowOf = [&](int row, const Eigen::MatrixXd& rows) {
        for (int k = 0; k < rows.rows(); ++k) {
            bool same = true;
            for (int m = 0; m < reference->columnCount(); ++m) {
                same = same && reference->value(row, m) == rows(k, m);
            }
            if (same) {
                return k;
            }
        }
        return -1;
    };
    std::vector<int> shown(static_cast<size_t>(refined.rows()), 0);
    for (int row = 0; row < reference->rowCount(); ++row) {
        const int k = rowOf(row, refined);
        if (k >= 0) {
            ++shown[static_cast<size_t>(k)];
        } else {
            EXPECT_GE(rowOf(row, solution.reference->markProbabilities), 0) << "row " << row;
            EXPECT_TRUE(
                reference->headerData(row, Qt::Vertical, cx::ui::StateMatrixModel::DimmedRole)
                    .toBool())
                << "row " << row;
        }
    }
    EXPECT_EQ(shown, std::vector<int>(shown.size(), 1));
}

TEST(ChromatinWorkspace, GammaWithoutAValidModelIsFlaggedInTheHeatmapAndTheWeightsChart) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    ASSERT_TRUE(waitUntil([&] {
        return !chromatin->controller()->sweep().isEmpty() &&
               !chromatin->weightsChart()->lines().isEmpty();
    }));
    // The weights chart shades exactly the grid points without a valid model. On this slice
    // junk components appear where quiescent chromatin changes sign (README, chromatin results).
    const cx::ui::WeightSweep sweep = chromatin->controller()->sweep();
    const auto ranges = chromatin->weightsChart()->unreliableRanges();
    ASSERT_EQ(sweep.specificInvalidMass.size(), static_cast<size_t>(sweep.gammas.size()));
    int shaded = 0;
    double invalidGamma = -1;
    for (int i = 0; i < sweep.gammas.size(); ++i) {
        const double g = sweep.gammas[i];
        const bool inside = std::any_of(ranges.begin(), ranges.end(), [&](const auto& range) {
            return range.first <= g && g <= range.second;
        });
        const bool invalid = sweep.specificInvalidMass[static_cast<size_t>(i)] > 0;
        EXPECT_EQ(inside, invalid) << "γ = " << g;
        shaded += inside;
        if (invalid && invalidGamma < 0) {
            invalidGamma = g;
        }
    }
    ASSERT_GT(shaded, 0);
    EXPECT_LT(shaded, sweep.gammas.size());
    // The y-axis fits every weight of the sweep, junk inside the shaded bands included (issue
    // 9: curves used to leave the plot).
    const auto [yMin, yMax] = chromatin->weightsChart()->weightRange();
    for (const auto& line : chromatin->weightsChart()->lines()) {
        for (const QPointF& point : line.points) {
            if (std::isfinite(point.y()) && std::abs(point.y()) <= 2.0) {
                EXPECT_GE(point.y(), yMin) << "γ = " << point.x();
                EXPECT_LE(point.y(), yMax) << "γ = " << point.x();
            }
        }
    }

    // At such a γ the heatmap flags the foreground-specific state that is not a valid state.
    chromatin->setGamma(invalidGamma);
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
    const auto& result = *chromatin->controller()->solution().result;
    const cx::ui::StateMatrixModel* emissions = chromatin->emissionModel();
    int flagged = 0;
    for (int row = 0; row < emissions->rowCount(); ++row) {
        const int component = chromatin->catalog().componentOfSlot(row);
        const bool flag =
            emissions->headerData(row, Qt::Vertical, cx::ui::StateMatrixModel::FlaggedRole)
                .toBool();
        EXPECT_EQ(flag, result.componentInvalidMass[component] > 0);
        flagged += flag && result.weights[component] > 0;
    }
    EXPECT_GT(flagged, 0) << "γ = " << invalidGamma;
}

TEST(ChromatinWorkspace, BootstrapButtonDrawsWeightBandsAndShowsStabilityInTheHeatmap) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    ASSERT_TRUE(waitUntil([&] {
        return chromatin->controller()->sweep().path != nullptr &&
               !chromatin->weightsChart()->lines().isEmpty() && settledWithModel(chromatin);
    }));
    cx::ui::ChromatinAnalysisPanel* panel = chromatin->analysisPanel();
    for (QWidget* widget : std::initializer_list<QWidget*>{
             panel->replicatesSpin(), panel->bootstrapButton(), panel->cancelBootstrapButton(),
             panel->bootstrapProgress()}) {
        EXPECT_FALSE(widget->toolTip().isEmpty()) << widget->metaObject()->className();
    }
    ASSERT_TRUE(panel->bootstrapButton()->isEnabled());
    for (const auto& line : chromatin->weightsChart()->lines()) {
        EXPECT_TRUE(line.lower.isEmpty()); // no bands before a bootstrap
    }
    panel->replicatesSpin()->setValue(3);
    panel->bootstrapButton()->click();
    EXPECT_FALSE(panel->bootstrapButton()->isEnabled());
    EXPECT_FALSE(panel->cancelBootstrapButton()->isHidden());
    ASSERT_TRUE(
        waitUntil([&] { return chromatin->controller()->sweep().bootstrap != nullptr; }, 60000));
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
    EXPECT_TRUE(panel->bootstrapButton()->isEnabled());
    EXPECT_TRUE(panel->cancelBootstrapButton()->isHidden());
    EXPECT_TRUE(panel->bootstrapProgress()->isHidden());
    // Every line (one per state identity of the path) has a band wherever it has a weight,
    // inside the chart's y-range, and a gap where the identity does not exist.
    const auto sweep = chromatin->controller()->sweep();
    const auto [yMin, yMax] = chromatin->weightsChart()->weightRange();
    int wide = 0;
    for (const auto& line : chromatin->weightsChart()->lines()) {
        ASSERT_EQ(line.lower.size(), sweep.gammas.size());
        ASSERT_EQ(line.upper.size(), sweep.gammas.size());
        for (int i = 0; i < line.lower.size(); ++i) {
            EXPECT_EQ(std::isnan(line.points[i].y()), std::isnan(line.lower[i].y()));
            EXPECT_EQ(std::isnan(line.points[i].y()), std::isnan(line.upper[i].y()));
            if (std::isnan(line.points[i].y())) {
                continue;
            }
            EXPECT_LE(line.lower[i].y(), line.upper[i].y());
            wide += line.upper[i].y() > line.lower[i].y() ? 1 : 0;
            if (std::abs(line.lower[i].y()) <= 1.0 && std::abs(line.upper[i].y()) <= 1.0) {
                EXPECT_GE(line.lower[i].y(), yMin);
                EXPECT_LE(line.upper[i].y(), yMax);
            }
        }
    }
    EXPECT_GT(wide, 0);
    // For looking at it: CX_TEST_SCREENSHOT_DIR=/tmp cx_ui_tests --gtest_filter='*Bootstrap*'.
    if (const QString dir = qEnvironmentVariable("CX_TEST_SCREENSHOT_DIR"); !dir.isEmpty()) {
        window.resize(1024, 700);
        QApplication::processEvents();
        window.grab().save(dir + QStringLiteral("/chromatin_bootstrap.png"));
    }
    // The heatmap's notes carry each state's stability; unstable ones are flagged.
    const cx::ui::StateMatrixModel* emissions = chromatin->emissionModel();
    const QVector<double> stability = cx::ui::slotStabilities(
        sweep, chromatin->controller()->solution().gamma, chromatin->catalog());
    ASSERT_EQ(stability.size(), emissions->rowCount());
    const auto& result = *chromatin->controller()->solution().result;
    for (int row = 0; row < emissions->rowCount(); ++row) {
        const QString note = emissions->headerData(row, Qt::Vertical, Qt::ToolTipRole).toString();
        const bool flag =
            emissions->headerData(row, Qt::Vertical, cx::ui::StateMatrixModel::FlaggedRole)
                .toBool();
        const int component = chromatin->catalog().componentOfSlot(row);
        const bool unstable =
            std::isfinite(stability[row]) && stability[row] < cx::kMinStateStability;
        EXPECT_EQ(flag, unstable || result.componentInvalidMass[component] > 0) << row;
        if (std::isfinite(stability[row])) {
            EXPECT_TRUE(note.contains(unstable ? "unstable" : "bootstrap stability"))
                << note.toStdString();
        }
    }
}

// A foreground-specific state that the segmentation puts in the background at least as much
// as the model puts it in the foreground is named in the heatmap title and the status bar
// (before: "6 of 7 states foreground-specific" while one state covered 94 % of the bins).
// On the slice at γ = 2 no component is left for the unmarked bins and the decoding forces
// them into one specific state; at γ = 0 the decoded contrast is a share, never below −ω.
TEST(ChromatinWorkspace, SegmentationThatContradictsTheModelIsFlagged) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    QStringList messages;
    QObject::connect(chromatin, &cx::ui::Workspace::statusMessage,
                     [&](const QString& message, int) { messages << message; });
    for (const double gamma : {0.0, 2.0}) {
        messages.clear();
        chromatin->setGamma(gamma);
        ASSERT_TRUE(waitUntil([&] {
            const auto segmentation = chromatin->controller()->segmentation();
            return settledWithModel(chromatin) && segmentation &&
                   segmentation->generation == chromatin->controller()->solution().generation;
        }));
        const auto segmentation = chromatin->controller()->segmentation();
        const cx::DecodedContrast& contrast = segmentation->contrast;
        ASSERT_EQ(contrast.contrast.size(), static_cast<size_t>(segmentation->numStates));
        // Every share is a share, and the flags follow the rule.
        const auto& result = *chromatin->controller()->solution().result;
        std::vector<int> expected;
        for (size_t s = 0; s < contrast.contrast.size(); ++s) {
            EXPECT_GE(contrast.foregroundShare[s], 0.0);
            EXPECT_LE(contrast.foregroundShare[s], 1.0);
            const double omega = result.weights[static_cast<Eigen::Index>(s)];
            if (omega > 0 && contrast.contrast[s] < -omega - 3 * contrast.standardError[s]) {
                expected.push_back(static_cast<int>(s));
            }
        }
        EXPECT_EQ(contrast.contradicted, expected) << "γ = " << gamma;
        const QString subtitle = chromatin->emissionView()->subtitle();
        const bool warned = subtitle.contains(QStringLiteral("contradicts"));
        EXPECT_EQ(warned, !expected.empty()) << subtitle.toStdString();
        if (gamma == 2.0) {
            EXPECT_FALSE(expected.empty()) << "the forced state at γ = 2 is not flagged";
            EXPECT_TRUE(std::any_of(messages.begin(), messages.end(), [](const QString& m) {
                return m.contains(QStringLiteral("contradicts the model"));
            }));
        } else {
            EXPECT_TRUE(expected.empty()) << subtitle.toStdString();
        }
    }
}

// At γ = 0 the two heatmaps show the same model: every row has the same name, colour, numbers
// and validity flag on both sides (before: the same numbers, yet only one side flagged a
// state, and the γ = 0 side named states on its own).
TEST(ChromatinWorkspace, AtGammaZeroBothHeatmapsShowTheSameStatesAlike) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    // Both sides show the same (spectral) model only without the Baum–Welch refinement of the
    // γ = 0 side, which new analyses do by default (its identities: ProjectSession.
    // ChromatinBaumWelch…, ChromatinPresenter.RefinedReference…).
    chromatin->analysisPanel()->refineCheck()->setChecked(false);
    ASSERT_EQ(chromatin->controller()->parameters().refineEm, 0);
    // A renamed state keeps its name on both sides.
    chromatin->setGamma(0.0);
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
    ASSERT_TRUE(chromatin->emissionModel()->setHeaderData(0, Qt::Vertical, QStringLiteral("Mine"),
                                                          Qt::EditRole));
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
    const cx::ui::StateMatrixModel* right = chromatin->emissionModel();
    const cx::ui::StateMatrixModel* left = chromatin->referenceModel();
    ASSERT_EQ(left->rowCount(), right->rowCount());
    ASSERT_GT(right->rowCount(), 0);
    using Model = cx::ui::StateMatrixModel;
    // The γ = 0 panel keeps the γ = 0 model's own row order (it does not reorder as γ moves;
    //), so rows are matched by name.
    for (int row = 0; row < right->rowCount(); ++row) {
        const QVariant name = right->headerData(row, Qt::Vertical, Qt::DisplayRole);
        int match = -1;
        for (int other = 0; other < left->rowCount(); ++other) {
            if (left->headerData(other, Qt::Vertical, Qt::DisplayRole) == name) {
                match = other;
            }
        }
        ASSERT_GE(match, 0) << name.toString().toStdString() << " is missing on the γ = 0 side";
        for (const int role :
             {int(Model::ColourRole), int(Model::FlaggedRole), int(Model::WeightRole)}) {
            EXPECT_EQ(left->headerData(match, Qt::Vertical, role),
                      right->headerData(row, Qt::Vertical, role))
                << name.toString().toStdString() << ", role " << role;
        }
        for (int column = 0; column < right->columnCount(); ++column) {
            EXPECT_EQ(left->index(match, column).data(Qt::DisplayRole),
                      right->index(row, column).data(Qt::DisplayRole));
        }
    }
    EXPECT_EQ(right->headerData(0, Qt::Vertical, Qt::DisplayRole).toString(),
              QStringLiteral("Mine"));
}

TEST(ChromatinWorkspace, RenamedStateKeepsItsNameAcrossGammaAndInEveryView) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    ASSERT_TRUE(waitUntil(
        [&] { return settledWithModel(chromatin) && chromatin->controller()->solution().onPath; }));
    cx::ui::HeatmapView* view = chromatin->emissionView();
    const int row = 0;
    // The name goes to the state (its identity along the γ path), not to the row.
    const int identity = chromatin->catalog().identityOfSlot(row);
    ASSERT_GE(identity, 0);
    view->editRowLabel(row);
    QLineEdit* editor = view->rowEditor();
    ASSERT_NE(editor, nullptr);
    ASSERT_TRUE(editor->isVisible());
    editor->setText(QStringLiteral("Gene body"));
    QTest::keyClick(editor, Qt::Key_Return);
    EXPECT_EQ(chromatin->catalog().name(row), QStringLiteral("Gene body"));
    EXPECT_EQ(chromatin->emissionModel()->headerData(row, Qt::Vertical).toString(),
              QStringLiteral("Gene body"));
    for (double gamma : {0.9, 1.1, 0.95, 0.5, 1.0}) {
        chromatin->setGamma(gamma);
        ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
        EXPECT_EQ(chromatin->catalog().identityName(identity), QStringLiteral("Gene body"));
        // Shown under that name exactly where its identity is shown; the chart's line of the
        // identity carries it too.
        for (int s = 0; s < chromatin->catalog().numSlots(); ++s) {
            EXPECT_EQ(chromatin->catalog().name(s) == QStringLiteral("Gene body"),
                      chromatin->catalog().identityOfSlot(s) == identity)
                << "γ = " << gamma << ", row " << s;
        }
        int lines = 0;
        for (const auto& line : chromatin->weightsChart()->lines()) {
            lines += line.name.startsWith(QStringLiteral("Gene body")) ? 1 : 0;
        }
        EXPECT_EQ(lines, 1) << "γ = " << gamma;
    }
    const int slot = [&] {
        for (int s = 0; s < chromatin->catalog().numSlots(); ++s) {
            if (chromatin->catalog().identityOfSlot(s) == identity) {
                return s;
            }
        }
        return -1;
    }();
    if (slot >= 0 && chromatin->controller()
                             ->solution()
                             .result->weights[chromatin->catalog().componentOfSlot(slot)] > 0) {
        EXPECT_TRUE(chromatin->segmentationBed().contains(QStringLiteral("\tGene body\t")));
    }
}

// One state keeps one name and colour in every view as γ moves. γ is dragged over
// every point of the weights-vs-γ path, up and back down; at each point the heatmap row named X
// (colour C) must be the path identity that the weights chart draws as X (colour C) — the
// chart's line X has that identity's weight wherever the path has it and a gap elsewhere — the
// segmentation must use the same name and colour, and an identity must never be shown under
// another name or colour, nor a name given to two identities.
TEST(ChromatinWorkspace, OnePathIdentityKeepsOneNameAndColourInEveryViewAlongGamma) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    const auto onPath = [&] {
        const auto& solution = chromatin->controller()->solution();
        return settledWithModel(chromatin) && chromatin->controller()->sweep().path != nullptr &&
               solution.onPath;
    };
    ASSERT_TRUE(waitUntil(onPath, 60000));
    const auto path = chromatin->controller()->sweep().path;
    const int points = static_cast<int>(path->gammas.size());
    std::vector<int> order;
    for (int i = 0; i < points; ++i) {
        order.push_back(i);
    }
    for (int i = points - 2; i >= 0; i -= 3) {
        order.push_back(i); // back down, skipping points: another drag history
    }
    QMap<int, QPair<QString, QString>> shownAs; // identity → (name, colour)
    QMap<QString, int> identityOfName;
    // Problems by kind: the count and the first three of each.
    QMap<QString, QPair<int, QStringList>> problems;
    const auto problem = [&](const char* kind, const QString& text) {
        auto& entry = problems[QString::fromUtf8(kind)];
        ++entry.first;
        if (entry.second.size() < 3) {
            entry.second << text;
        }
    };
    for (int i : order) {
        const double gamma = path->gammas[static_cast<size_t>(i)];
        chromatin->setGamma(gamma);
        ASSERT_TRUE(waitUntil(
            [&] {
                const auto& solution = chromatin->controller()->solution();
                return onPath() && solution.gamma == gamma &&
                       chromatin->controller()->sweep().path == path;
            },
            30000))
            << "γ = " << gamma;
        const cx::ContrastiveHmmResult& result = *chromatin->controller()->solution().result;
        const cx::ContrastiveHmmResult& point = path->solutions[static_cast<size_t>(i)];
        ASSERT_TRUE(result.markProbabilities == point.markProbabilities)
            << "the slider shows the path's own solution at a grid γ (" << gamma << ")";
        const QString bed = chromatin->segmentationBed();
        const cx::ui::StateMatrixModel* emissions = chromatin->emissionModel();
        const auto lines = chromatin->weightsChart()->lines();
        for (int row = 0; row < emissions->rowCount(); ++row) {
            const QString name = emissions->headerData(row, Qt::Vertical).toString();
            const QColor colour =
                emissions->headerData(row, Qt::Vertical, cx::ui::StateMatrixModel::ColourRole)
                    .value<QColor>();
            const int component = chromatin->catalog().componentOfSlot(row);
            const int id = path->ids[static_cast<size_t>(i)][static_cast<size_t>(component)];
            const QString at = QStringLiteral("γ = %1: ").arg(gamma);
            if (shownAs.contains(id) && shownAs[id] != qMakePair(name, colour.name())) {
                problem(
                    "identity renamed or recoloured along γ",
                    at + QStringLiteral("path identity %1 is shown as “%2” %3, earlier as “%4” %5")
                             .arg(id)
                             .arg(name, colour.name(), shownAs[id].first, shownAs[id].second));
            }
            shownAs.insert(id, qMakePair(name, colour.name()));
            if (identityOfName.contains(name) && identityOfName[name] != id) {
                problem("one name for two identities",
                        at + QStringLiteral("“%1” names path identity %2, earlier identity %3")
                                 .arg(name)
                                 .arg(id)
                                 .arg(identityOfName[name]));
            }
            identityOfName.insert(name, id);
            // The chart's line of that name draws this identity along the whole path.
            const StateWeightsLine* line = nullptr;
            for (const auto& candidate : lines) {
                if (candidate.name == name ||
                    candidate.name.startsWith(name + QStringLiteral(" ⚠"))) {
                    line = &candidate;
                }
            }
            if (line == nullptr) {
                problem("no chart line",
                        at + QStringLiteral("no weights-chart line named “%1”").arg(name));
                continue;
            }
            if (line->colour != colour) {
                problem("chart colour differs",
                        at + QStringLiteral("“%1” is %2 in the heatmap and %3 on the chart")
                                 .arg(name, colour.name(), line->colour.name()));
            }
            for (int j = 0; j < points && j < line->points.size(); ++j) {
                const auto& ids = path->ids[static_cast<size_t>(j)];
                const auto found = std::find(ids.begin(), ids.end(), id);
                const double drawn = line->points[j].y();
                if (found == ids.end()) {
                    if (!std::isnan(drawn)) {
                        problem("chart line continues as another identity",
                                at + QStringLiteral("the line “%1” goes on at γ = %2 where its "
                                                    "identity %3 does not exist (another state)")
                                         .arg(name)
                                         .arg(path->gammas[static_cast<size_t>(j)])
                                         .arg(id));
                        break;
                    }
                    continue;
                }
                const double weight = path->solutions[static_cast<size_t>(j)]
                                          .weights[static_cast<Eigen::Index>(found - ids.begin())];
                if (drawn != weight) {
                    problem("chart line draws another weight",
                            at + QStringLiteral("the line “%1” draws %2 at γ = %3, its identity "
                                                "%4 has weight %5 there")
                                     .arg(name)
                                     .arg(drawn)
                                     .arg(path->gammas[static_cast<size_t>(j)])
                                     .arg(id)
                                     .arg(weight));
                    break;
                }
            }
            // The segmentation writes the same name and colour (foreground-specific states).
            if (!bed.isEmpty() && result.weights[component] > 0 &&
                bed.contains(QStringLiteral("\t%1\t").arg(name))) {
                const QString rgb = QStringLiteral("%1,%2,%3")
                                        .arg(colour.red())
                                        .arg(colour.green())
                                        .arg(colour.blue());
                if (!bed.contains(QStringLiteral("\t%1\t").arg(name)) ||
                    !bed.contains(
                        QRegularExpression(QStringLiteral("\\t%1\\t[^\\n]*\\t%2\\n")
                                               .arg(QRegularExpression::escape(name), rgb)))) {
                    problem("segmentation colour differs",
                            at + QStringLiteral("the segmentation draws “%1” not in %2")
                                     .arg(name, colour.name()));
                }
            }
        }
    }
    QString report;
    for (auto it = problems.cbegin(); it != problems.cend(); ++it) {
        report += QStringLiteral("%1 × %2, e.g.\n  %3\n")
                      .arg(it.value().first)
                      .arg(it.key(), it.value().second.join(QStringLiteral("\n  ")));
    }
    EXPECT_TRUE(problems.isEmpty()) << report.toStdString();
}

TEST(ChromatinWorkspace, SegmentationExportsAsParsableBed9) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    const QString bed = chromatin->segmentationBed();
    ASSERT_FALSE(bed.isEmpty());
    QStringList cells;
    qint64 covered = 0;
    qint64 previousEnd = 0;
    for (const QString& line : bed.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QStringLiteral("track "))) {
            EXPECT_TRUE(line.contains(QStringLiteral("itemRgb=\"On\"")));
            cells << line.section(QLatin1Char('"'), 1, 1);
            // Described by its cell and the model, as contrast-cli hmm's segments.bed.
            EXPECT_TRUE(line.contains(QStringLiteral("description=\"") + cells.back() +
                                      QStringLiteral(" contrastive spectral HMM, K=")))
                << line.toStdString();
            previousEnd = 0;
            continue;
        }
        const QStringList fields = line.split(QLatin1Char('\t'));
        ASSERT_EQ(fields.size(), 9) << line.toStdString();
        EXPECT_EQ(fields[0], QStringLiteral("chr11"));
        const qint64 start = fields[1].toLongLong();
        const qint64 end = fields[2].toLongLong();
        EXPECT_EQ(start, previousEnd) << "runs tile the track";
        EXPECT_GT(end, start);
        EXPECT_EQ(start % 200, 0);
        EXPECT_FALSE(fields[3].isEmpty());
        EXPECT_EQ(fields[4], QStringLiteral("0"));
        EXPECT_EQ(fields[5], QStringLiteral("."));
        EXPECT_EQ(fields[6], fields[1]);
        EXPECT_EQ(fields[7], fields[2]);
        const QStringList rgb = fields[8].split(QLatin1Char(','));
        ASSERT_EQ(rgb.size(), 3);
        for (const QString& c : rgb) {
            bool ok = false;
            const int v = c.toInt(&ok);
            EXPECT_TRUE(ok && v >= 0 && v <= 255);
        }
        covered += end - start;
        previousEnd = end;
    }
    EXPECT_EQ(cells, (QStringList{QStringLiteral("GM12878"), QStringLiteral("K562")}));
    EXPECT_EQ(covered, 2 * 20000 * 200);
    // The IGV batch script written next to an exported BED loads it and goes to the shown region.
    const QString script = chromatin->igvBatchScript(QStringLiteral("/data/out/segmentation.bed"));
    EXPECT_TRUE(script.startsWith(QStringLiteral("new\nload /data/out/segmentation.bed\n")))
        << script.toStdString();
    EXPECT_TRUE(script.contains(QStringLiteral("\ngoto chr11:"))) << script.toStdString();
}

namespace {

/// Drags γ across the slider at ~60 Hz on whatever `chromatin` shows and measures the longest
/// gap between event-loop turns and the latency from a γ change to the heatmaps showing it.
/// Printed for the report; the assertions are loose guards (timing limits belong in
/// benchmarks, SPEC §6).
void measureGammaDrag(ChromatinWorkspace* chromatin, const char* what) {
    std::vector<double> latencies;
    std::vector<double> solves;
    QObject::connect(chromatin->controller(), &cx::ui::ChromatinController::solutionChanged,
                     [&](const cx::ui::HmmSolution& solution) {
                         // Connected after the workspace: the heatmaps are already updated.
                         latencies.push_back(chromatin->lastUpdateLatencyMs());
                         solves.push_back(solution.workerMs);
                     });
    QSlider* slider = chromatin->analysisPanel()->gammaControl()->slider();
    EventLoopGapMeter meter;
    slider->setValue(0);
    ASSERT_TRUE(dragSliderToMaximum(slider, 2, 16));
    const qint64 dragEnded = meter.elapsedMs();
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }, 30000));
    const qint64 settled = meter.elapsedMs();
    meter.stop();
    const qint64 longestGap = meter.longestGapMs();
    const auto& stats = chromatin->controller()->statistics();
    std::sort(latencies.begin(), latencies.end());
    const double median = latencies.empty() ? -1 : latencies[latencies.size() / 2];
    std::sort(solves.begin(), solves.end());
    const double medianSolve = solves.empty() ? -1 : solves[solves.size() / 2];
    const double worst = latencies.empty() ? -1 : latencies.back();
    const auto segmentation = chromatin->controller()->segmentation();
    std::printf(
        "[ measure  ] %s γ drag: longest event-loop gap %lld ms; γ change → heatmaps "
        "updated: median %.0f ms (worker %.1f ms), max %.0f ms over %zu updates; %d requests, %d "
        "coalesced, %d stale dropped; drag end → segmentation + enrichment settled %lld "
        "ms (decode %.0f ms)\n",
        what, static_cast<long long>(longestGap), median, medianSolve, worst, latencies.size(),
        stats.solveRequests, stats.solvesCoalesced, stats.staleDropped,
        static_cast<long long>(settled - dragEnded), segmentation ? segmentation->decodeMs : -1.0);
    EXPECT_DOUBLE_EQ(chromatin->controller()->solution().gamma, slider->maximum() / 100.0);
    EXPECT_GT(stats.resultsShown, 3) << "dragging must update the heatmaps live";
    EXPECT_LT(longestGap, 1000);
}

} // namespace

TEST(ChromatinWorkspace, GammaDragNeverStallsTheEventLoop) {
    // The bundled demo: 2 × 150,000 bins.
    MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1440, 900);
    window.show();
    window.setCurrentWorkspace(QStringLiteral("chromatin"));
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    ASSERT_TRUE(window.openDemo());
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }, 60000));
    measureGammaDrag(chromatin, "chromatin demo (2 × 150k bins)");
}

TEST(ChromatinWorkspace, GammaDragOnTheWholeChr11) {
    // The full ChromHMM sample (2 × 672,261 bins), genes + TSS ± 2 kb as foreground.
    const QString data = QStringLiteral(CX_SHARED_DATA_DIR "/chromhmm_hg18_chr11");
    if (!QFileInfo::exists(data + QStringLiteral("/K562_chr11_binary.txt.gz"))) {
        GTEST_SKIP() << "shared data not found: " << data.toStdString();
    }
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString session = directory.filePath(QStringLiteral("chr11.json"));
    cx::ui::test::writeFile(
        session, QStringLiteral("{\"tracks\": [\"%1/GM12878_chr11_binary.txt.gz\", "
                                "\"%1/K562_chr11_binary.txt.gz\"], \"annotations\": ["
                                "{\"path\": \"%1/COORDS/hg18/RefSeqGene.hg18.bed.gz\", "
                                "\"foreground\": true, \"lane\": true}, "
                                "{\"path\": \"%1/COORDS/hg18/RefSeqTSS2kb.hg18.bed.gz\", "
                                "\"foreground\": true}], \"k\": 7, \"gamma\": 0}")
                     .arg(data)
                     .toUtf8());
    MainWindow window;
    window.setSettingsPersistent(false);
    window.resize(1440, 900);
    window.show();
    window.openPath(session);
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    EXPECT_EQ(window.currentWorkspace(), chromatin);
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }, 60000));
    EXPECT_EQ(chromatin->controller()->data().data->totalBins(), 2 * 672261);
    measureGammaDrag(chromatin, "whole chr11 (2 × 672k bins)");
}

TEST(ChromatinWorkspace, DemoOpensInBothWorkspacesAndBadDescriptorIsReported) {
    ErrorRecorder errors;
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    ASSERT_TRUE(window.openDemo());
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    EXPECT_EQ(window.currentWorkspace(),
              window.workspace<cx::ui::TopicsWorkspace>()); // Topics stays first
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }, 60000));
    EXPECT_EQ(chromatin->controller()->data().data->totalBins(), 300000);
    EXPECT_EQ(chromatin->annotationModel()->rowCount(), 7);
    EXPECT_EQ(chromatin->controller()->moments()->choice.foreground.size(), 2);
    EXPECT_DOUBLE_EQ(chromatin->controller()->solution().gamma, 1.0);
    ASSERT_TRUE(chromatin->controller()->enrichment().has_value());
    EXPECT_EQ(chromatin->enrichmentModel()->columnCount(), 7);
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
    const auto data = chromatin->controller()->data().data;

    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString broken = directory.filePath(QStringLiteral("analysis.json"));
    cx::ui::test::writeFile(broken, "{\n \"tracks\": [\"x_binary.txt\"],\n \"k\": \"seven\"\n");
    window.openPath(broken);
    ASSERT_FALSE(errors.messages.isEmpty());
    EXPECT_TRUE(errors.messages.last().contains(QStringLiteral("analysis.json:")))
        << errors.messages.last().toStdString();
    EXPECT_EQ(chromatin->controller()->data().data, data);
    // A track that does not exist: named, nothing lost.
    const QString missing = directory.filePath(QStringLiteral("gone_binary.txt.gz"));
    cx::ui::test::writeFile(directory.filePath(QStringLiteral("ok.json")),
                            "{\"tracks\": [\"gone_binary.txt.gz\"]}");
    window.openPath(directory.filePath(QStringLiteral("ok.json")));
    ASSERT_TRUE(waitUntil([&] { return errors.messages.size() >= 2; }));
    EXPECT_TRUE(errors.messages.last().contains(QStringLiteral("gone_binary.txt.gz")))
        << errors.messages.last().toStdString();
    ASSERT_TRUE(waitUntil([&] { return chromatin->isSettled(); }));
    EXPECT_EQ(chromatin->controller()->data().data, data);
    EXPECT_TRUE(chromatin->controller()->solution().isValid());
}

TEST(ChromatinWorkspace, FiguresExportInEveryFormat) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    for (const char* suffix : {"png", "svg", "pdf"}) {
        cx::ui::ImageExportSettings settings;
        settings.format = cx::ui::ImageExportSettings::formatFromPath(
            QStringLiteral("x.") + suffix, cx::ui::ImageExportSettings::Format::Png);
        settings.pixels = QSize(1600, 900);
        settings.dpi = 200;
        const QString path = directory.filePath(QStringLiteral("emissions.") + suffix);
        QString error;
        ASSERT_TRUE(cx::ui::exportFigure(
            path, settings,
            [&](QPainter& painter, const QRectF& target) {
                chromatin->emissionView()->paintFigure(painter, target);
            },
            &error))
            << error.toStdString();
        EXPECT_GT(QFileInfo(path).size(), 1000);
    }
    const QImage image(directory.filePath(QStringLiteral("emissions.png")));
    ASSERT_FALSE(image.isNull());
    EXPECT_GT(distinctColours(image, 4).size(), 50);
}

TEST(Screenshot, ChromatinTabRendersANonBlankWindow) {
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("chromatin.png"));
    const GuiRun run = runGui({QStringLiteral("--demo"), QStringLiteral("--tab"),
                               QStringLiteral("chromatin"), QStringLiteral("--screenshot"), path,
                               QStringLiteral("--size"), QStringLiteral("1440x900")},
                              privateGuiEnvironment(directory));
    ASSERT_TRUE(exitedCleanly(run));
    EXPECT_FALSE(run.errors.contains(QStringLiteral("timeout"))) << run.errors.toStdString();
    QImage image(path);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1440, 900));
    image = image.convertToFormat(QImage::Format_RGB32);
    const QList<QRgb> pixels = samplePixels(image, 2);
    const QSet<QRgb> colours(pixels.begin(), pixels.end());
    const qsizetype dark = countDark(pixels);
    // Heatmap cells: saturated blue of the probability scale.
    const qsizetype blue = std::count_if(pixels.begin(), pixels.end(), [](QRgb pixel) {
        return qBlue(pixel) > 120 && qRed(pixel) < 90;
    });
    const qsizetype samples = pixels.size();
    EXPECT_GT(colours.size(), 300);
    EXPECT_GT(dark, samples / 500);
    EXPECT_LT(dark, samples / 4);
    EXPECT_GT(blue, samples / 400) << "no heatmap cells";
}

TEST(ChromatinWorkspace, TrackViewZoomsScrollsAndReadsStatesFromTheRuns) {
    MainWindow window;
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    openSliceLikeAUser(window, chromatin);
    cx::ui::SegmentationTrackView* view = chromatin->trackView();
    ASSERT_EQ(view->chromosomes(), QStringList{QStringLiteral("chr11")});
    EXPECT_EQ(view->chromosomeLength(), 20000 * 200);
    EXPECT_EQ(view->rangeStart(), 0);
    EXPECT_EQ(view->rangeEnd(), 4000000);
    ASSERT_EQ(view->rowTracks().size(), 2u);
    // Zoom in around the centre, scroll, clamp at the ends, never below 20 bins.
    view->zoomBy(0.25);
    EXPECT_EQ(view->rangeEnd() - view->rangeStart(), 1000000);
    EXPECT_EQ(view->rangeStart(), 1500000);
    view->scrollByFraction(-10);
    EXPECT_EQ(view->rangeStart(), 0);
    view->setRange(3999000, 3999100);
    EXPECT_EQ(view->rangeEnd(), 4000000);
    EXPECT_EQ(view->rangeEnd() - view->rangeStart(), 4000);
    // The wheel zooms and a drag scrolls.
    view->setRange(1000000, 2000000);
    view->resize(1000, 200);
    const QPointF centre(view->width() / 2.0, 60);
    QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
    EXPECT_LT(view->rangeEnd() - view->rangeStart(), 1000000);
    const qint64 before = view->rangeStart();
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, QPoint(600, 60));
    QTest::mouseMove(view, QPoint(400, 60));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, QPoint(400, 60));
    EXPECT_GT(view->rangeStart(), before) << "dragging left moves the view right";
    // stateAt agrees with the runs.
    const auto segmentation = chromatin->controller()->segmentation();
    ASSERT_TRUE(segmentation);
    for (const auto& run : segmentation->runs[1]) {
        EXPECT_EQ(view->stateAt(1, run.begin * 200), run.state);
        EXPECT_EQ(view->stateAt(1, run.end * 200 - 1), run.state);
    }
    // It paints at chromosome scale (shares per pixel) and zoomed in (runs).
    for (const auto& range : {std::pair<qint64, qint64>{0, 4000000}, {2000000, 2010000}}) {
        view->setRange(range.first, range.second);
        QImage image(view->size(), QImage::Format_RGB32);
        view->render(&image);
        QSet<QRgb> colours;
        for (int x = 0; x < image.width(); x += 3) {
            colours.insert(image.pixel(x, 45));
            colours.insert(image.pixel(x, 60));
        }
        EXPECT_GT(colours.size(), 3);
    }
}

TEST(ChromatinWorkspace, OpeningTracksOffersTheChromHmmCoordsFilesNextToThem) {
    ErrorRecorder errors;
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    QDir root(directory.path());
    ASSERT_TRUE(root.mkpath(QStringLiteral("COORDS/hg18")));
    const QString track = root.filePath(QStringLiteral("K562_chr11_binary.txt.gz"));
    ASSERT_TRUE(QFile::copy(cx::ui::test::hmmData("K562_chr11_slice.txt.gz"), track));
    ASSERT_TRUE(
        QFile::copy(geneBed(), root.filePath(QStringLiteral("COORDS/hg18/RefSeqGene.hg18.bed"))));
    ASSERT_TRUE(
        QFile::copy(tssBed(), root.filePath(QStringLiteral("COORDS/hg18/RefSeqTSS2kb.hg18.bed"))));
    MainWindow window;
    window.setSettingsPersistent(false);
    window.show();
    window.openPath(track); // routed to the Chromatin tab: a binarized track
    ChromatinWorkspace* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    EXPECT_EQ(window.currentWorkspace(), chromatin);
    ASSERT_TRUE(waitUntil([&] { return settledWithModel(chromatin); }));
    AnnotationListModel* model = chromatin->annotationModel();
    ASSERT_EQ(model->rowCount(), 2);
    EXPECT_EQ(model->entries()[0].name, QStringLiteral("RefSeqGene"));
    EXPECT_TRUE(model->entries()[0].lane);
    EXPECT_FALSE(model->entries()[1].lane); // TSS ± 2 kb: enrichment only
    EXPECT_TRUE(model->regionChoice().isWholeGenome()) << "nothing ticked by default";
    ASSERT_TRUE(waitUntil([&] { return chromatin->enrichmentModel()->columnCount() == 2; }));
    EXPECT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();
}
