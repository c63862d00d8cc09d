// One answer from CLI and GUI: the Chromatin workspace's default computation
// (γ = 0, its default K and seed, Baum–Welch refinement of the γ = 0 model from the moment
// selection) and `contrast-cli hmm --k K --gamma 0` with the CLI's defaults give the same
// emissions, and the CLI's states.tsv names and colours them by the same core rule.
#include "chromatin_test_helpers.h"
#include "support/files.h"

#include "ui/chromatin/chromatin_analysis_panel.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_presenter.h"
#include "ui/chromatin/chromatin_workspace.h"

#include "core/hmm/state_catalog.h"
#include "core/hmm/synthetic_hmm.h"

#include <gtest/gtest.h>

#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using cx::ui::ChromatinWorkspace;
using cx::ui::test::sliceTracks;
using cx::ui::test::waitUntil;

TEST(ChromatinCliParity, GuiDefaultComputationEqualsCliDefaultsEmissionsAndNames) {
    ChromatinWorkspace chromatin;
    auto* controller = chromatin.controller();
    controller->setDecodeDelay(0);
    chromatin.openTracks(sliceTracks());
    ASSERT_TRUE(waitUntil([&] { return controller->refinement() != nullptr; }, 60000));
    const cx::ui::ChromatinModelParameters parameters = controller->parameters();
    ASSERT_GT(parameters.refineEm, 0) << "the GUI refines the γ = 0 model by default";
    ASSERT_EQ(controller->gamma(), 0.0);
    const cx::RefinedHmm& gui = controller->refinement()->model;

    // `contrast-cli hmm` on the slice at γ = 0 with the workspace's K and seed, and `extra`:
    // its standard error when it fails, else empty.
    const auto runCliHmm = [&](const QStringList& extra, const QString& out) {
        QProcess cli;
        cli.start(QStringLiteral(CX_CLI_PATH),
                  QStringList{QStringLiteral("hmm"), QStringLiteral("--tracks"),
                              sliceTracks().join(QLatin1Char(',')), QStringLiteral("--k"),
                              QString::number(parameters.numComponents), QStringLiteral("--gamma"),
                              QStringLiteral("0"), QStringLiteral("--seed"),
                              QString::number(parameters.seed)} +
                      extra + QStringList{QStringLiteral("--out"), out});
        if (!cli.waitForFinished(120000)) {
            return QStringLiteral("contrast-cli hmm did not finish");
        }
        return cli.exitCode() == 0 ? QString() : QString::fromUtf8(cli.readAllStandardError());
    };
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString failure = runCliHmm({QStringLiteral("--no-segments")}, dir.path());
    ASSERT_TRUE(failure.isEmpty()) << failure.toStdString();

    const auto emissions =
        cx::test::readTsv(dir.filePath(QStringLiteral("emissions.tsv")).toStdString());
    ASSERT_EQ(static_cast<Eigen::Index>(emissions.size()), gui.markProbabilities.rows() + 1);
    const auto& marks = controller->data().data->markNames;
    ASSERT_EQ(emissions[0].size(), marks.size() + 1);
    double worst = 0;
    for (Eigen::Index s = 0; s < gui.markProbabilities.rows(); ++s) {
        for (Eigen::Index m = 0; m < gui.markProbabilities.cols(); ++m) {
            const double cliValue =
                std::stod(emissions[static_cast<size_t>(s + 1)][static_cast<size_t>(m + 1)]);
            worst = std::max(worst, std::abs(cliValue - gui.markProbabilities(s, m)));
        }
    }
    EXPECT_LT(worst, 1e-5) << "CLI and GUI emissions differ";

    // Names: core's rule on the same emissions (the GUI's refined model, its occupancy).
    cx::StateCatalog catalog;
    catalog.update(gui.markProbabilities, cx::stationaryDistribution(gui.hmm.transitions), marks);
    const auto states = cx::test::readTsv(dir.filePath(QStringLiteral("states.tsv")).toStdString());
    ASSERT_EQ(states[0][4], "name");
    int named = 0;
    for (Eigen::Index s = 0; s < gui.markProbabilities.rows(); ++s) {
        const auto& row = states[static_cast<size_t>(s + 1)];
        ASSERT_GE(row.size(), 6u);
        const int slot = catalog.slotOfComponent(static_cast<int>(s));
        EXPECT_EQ(row[4], catalog.name(slot));
        // The colour the views draw the state in (its distinct style), not only its kind's.
        EXPECT_EQ(row[5], cx::rgbText(catalog.autoLabel(slot).style.colour)) << row[4];
        named += row[4].rfind("State ", 0) == 0 ? 0 : 1;
    }
    EXPECT_GT(named, 2) << "most states of the chr11 slice read as known chromatin states";

    // The segmentation: the workspace decodes the model its contrastive panel shows (the γ path's
    // plain solve, also at γ = 0), so its BED export is `hmm --gamma 0 --refine-em 0
    // --state-labels names` — the same runs under the same names in the same colours (only the
    // track lines' descriptions name the front end). The CLI's default at γ = 0 decodes the
    // refined model of the γ = 0 panel instead.
    QTemporaryDir namedDir;
    const QString namedFailure =
        runCliHmm({QStringLiteral("--refine-em"), QStringLiteral("0"),
                   QStringLiteral("--state-labels"), QStringLiteral("names")},
                  namedDir.path());
    ASSERT_TRUE(namedFailure.isEmpty()) << namedFailure.toStdString();
    QFile cliBed(namedDir.filePath(QStringLiteral("segments.bed")));
    ASSERT_TRUE(cliBed.open(QIODevice::ReadOnly));
    const auto runLines = [](const QString& text) {
        QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        lines.erase(std::remove_if(lines.begin(), lines.end(),
                                   [](const QString& line) {
                                       return line.startsWith(QStringLiteral("track "));
                                   }),
                    lines.end());
        return lines;
    };
    const QStringList fromCli = runLines(QString::fromUtf8(cliBed.readAll()));
    const QStringList fromGui = runLines(chromatin.segmentationBed());
    ASSERT_GT(fromGui.size(), 10);
    EXPECT_EQ(fromGui.size(), fromCli.size());
    for (qsizetype i = 0; i < std::min(fromGui.size(), fromCli.size()); ++i) {
        ASSERT_EQ(fromGui[i].toStdString(), fromCli[i].toStdString()) << "run " << i;
    }
}

// γ > 0: the tab shows the γ path's solution, and `hmm --gamma-path` over the tab's grid starts
// from the same kept start (the most likely of --starts at γ = 0), so at every grid point the
// CLI's path.tsv holds the tab's weights and emissions (same moment-fit setting: off).
TEST(ChromatinCliParity, GuiAtGammaEqualsTheCliPathAtThatGamma) {
    cx::ui::ChromatinController controller;
    cx::ui::ChromatinModelParameters parameters = controller.parameters();
    parameters.refineEm = 0;
    parameters.momentFit = -1;
    controller.setParameters(parameters);
    controller.setSweepGammas(cx::ui::chromatinSweepGrid(2.0));
    const double gamma = 0.5;
    ASSERT_TRUE(cx::ui::test::prepareSlice(controller, gamma));
    ASSERT_TRUE(waitUntil(
        [&] {
            return controller.isIdle() && controller.sweep().path &&
                   controller.solution().isValid() && controller.solution().onPath;
        },
        60000));
    ASSERT_EQ(controller.gamma(), gamma);
    const cx::ContrastiveHmmResult& gui = *controller.solution().result;

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QProcess cli;
    cli.start(QStringLiteral(CX_CLI_PATH),
              {QStringLiteral("hmm"),
               QStringLiteral("--tracks"),
               sliceTracks().join(QLatin1Char(',')),
               QStringLiteral("--fg-regions"),
               cx::ui::test::geneBed() + QLatin1Char(',') + cx::ui::test::tssBed(),
               QStringLiteral("--k"),
               QString::number(parameters.numComponents),
               QStringLiteral("--seed"),
               QString::number(parameters.seed),
               QStringLiteral("--starts"),
               QString::number(parameters.starts),
               QStringLiteral("--gamma"),
               QStringLiteral("0"),
               QStringLiteral("--refine-em"),
               QStringLiteral("0"),
               QStringLiteral("--moment-fit"),
               QStringLiteral("-1"),
               QStringLiteral("--gamma-path"),
               QStringLiteral("0:2:0.05"),
               QStringLiteral("--no-segments"),
               QStringLiteral("--out"),
               dir.path()});
    ASSERT_TRUE(cli.waitForFinished(120000));
    ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();

    const auto rows = cx::test::readTsv(dir.filePath(QStringLiteral("path.tsv")).toStdString());
    ASSERT_GT(rows.size(), 1u);
    const auto& header = rows[0];
    const auto column = [&](const std::string& name) {
        return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    const size_t firstMark = column("continued") + 1;
    int compared = 0;
    double worst = 0;
    for (size_t r = 1; r < rows.size(); ++r) {
        if (std::abs(std::stod(rows[r][column("gamma")]) - gamma) > 1e-9) {
            continue;
        }
        const Eigen::Index t = std::stoi(rows[r][column("component")]) - 1;
        ASSERT_LT(t, gui.weights.size());
        worst = std::max(worst, std::abs(std::stod(rows[r][column("weight")]) - gui.weights(t)));
        for (Eigen::Index m = 0; m < gui.markProbabilities.cols(); ++m) {
            worst =
                std::max(worst, std::abs(std::stod(rows[r][firstMark + static_cast<size_t>(m)]) -
                                         gui.markProbabilities(t, m)));
        }
        ++compared;
    }
    EXPECT_EQ(compared, gui.weights.size()) << "path.tsv has every component at γ = 0.5";
    EXPECT_LT(worst, 1e-5) << "the tab and the CLI's path differ at γ = 0.5";
}
