// "How many states" in the Chromatin tab: the dialog's chart and table show
// exactly what core's chooseStateCount computes (the rule lives in core), in the background.
#include "chromatin_test_helpers.h"

#include "ui/chromatin/chromatin_workspace.h"
#include "ui/chromatin/state_count_dialog.h"

#include "core/hmm/synthetic_hmm.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QTableWidget>

using cx::ui::StateCountDialog;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

TEST(ChromatinStateCount, DialogShowsCoresNumbersAndSuggestion) {
    const cx::HmmParameters truth = cx::randomSyntheticHmm(3, 5, 11, 0.9);
    auto data =
        std::make_shared<const cx::ChromatinData>(cx::sampleChromatinData(truth, {20000}, 5));
    cx::StateCountOptions options;
    options.minStates = 2;
    options.maxStates = 4;
    StateCountDialog dialog(data, options);
    dialog.start();
    ASSERT_TRUE(waitUntil([&] { return dialog.result().has_value(); }, 30000))
        << dialog.summary()->text().toStdString();
    const cx::StateCountResult expected = cx::chooseStateCount(*data, options);
    const cx::StateCountResult& shown = *dialog.result();
    ASSERT_EQ(shown.fits.size(), expected.fits.size());
    EXPECT_EQ(shown.suggestedStates, expected.suggestedStates);
    EXPECT_EQ(shown.suggestedStates, 3);
    for (size_t i = 0; i < expected.fits.size(); ++i) {
        EXPECT_EQ(shown.fits[i].heldOutResidual, expected.fits[i].heldOutResidual) << i;
    }
    // The chart: the residual per K (left), the rule's threshold, the likelihood (right).
    const auto lines = dialog.chart()->lines();
    ASSERT_EQ(lines.size(), 3);
    ASSERT_EQ(lines[0].points.size(), 3);
    EXPECT_EQ(lines[0].points[1], QPointF(3, expected.fits[1].heldOutResidual));
    EXPECT_TRUE(lines[2].rightAxis);
    EXPECT_EQ(dialog.table()->rowCount(), 3);
    EXPECT_EQ(dialog.table()->item(1, 0)->text(), QStringLiteral("3 (suggested)"));
    EXPECT_TRUE(dialog.summary()->text().startsWith(QStringLiteral("Suggested K = 3")))
        << dialog.summary()->text().toStdString();
}

TEST(ChromatinStateCount, WithoutTracksTheWorkspaceSaysSo) {
    ErrorRecorder errors;
    cx::ui::ChromatinWorkspace chromatin;
    EXPECT_EQ(chromatin.openStateCount(), nullptr);
    ASSERT_EQ(errors.messages.size(), 1);
    EXPECT_TRUE(errors.messages.front().contains(QStringLiteral("Open chromatin tracks")));
}
