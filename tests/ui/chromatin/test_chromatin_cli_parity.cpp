// One answer from CLI and GUI: the Chromatin workspace's default computation
// (γ = 0, its default K and seed, Baum–Welch refinement of the γ = 0 model from the moment
// selection) and `contrast-cli hmm --k K --gamma 0` with the CLI's defaults give the same
// emissions, and the CLI's states.tsv names them by the same core rule.
#include "chromatin_test_helpers.h"
#include "support/files.h"

#include "ui/chromatin/chromatin_analysis_panel.h"
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

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QProcess cli;
    cli.start(QStringLiteral(CX_CLI_PATH),
              {QStringLiteral("hmm"), QStringLiteral("--tracks"),
               sliceTracks().join(QLatin1Char(',')), QStringLiteral("--k"),
               QString::number(parameters.numComponents), QStringLiteral("--gamma"),
               QStringLiteral("0"), QStringLiteral("--seed"), QString::number(parameters.seed),
               QStringLiteral("--no-segments"), QStringLiteral("--out"), dir.path()});
    ASSERT_TRUE(cli.waitForFinished(120000));
    ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();

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
        EXPECT_EQ(row[4], catalog.name(catalog.slotOfComponent(static_cast<int>(s))));
        named += row[4].rfind("State ", 0) == 0 ? 0 : 1;
    }
    EXPECT_GT(named, 2) << "most states of the chr11 slice read as known chromatin states";
}
