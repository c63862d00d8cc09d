// Chromatin's Export ▸ Emission Heatmaps draws the γ = 0 panel beside the contrastive one as one
// figure: its print size holds both panels' layouts, and its data file (NAME.tsv, written by
// ImageExportDialog::exportInteractively as for every single figure) holds both panels' values.
#include "ui/views/heatmap_pair.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/state_matrix_model.h"

#include <gtest/gtest.h>

#include <QStringList>

#include <algorithm>

namespace {

cx::ui::StateMatrixModel::Content content(int states, double offset) {
    cx::ui::StateMatrixModel::Content c;
    c.columnLabels = {QStringLiteral("H3K4me3"), QStringLiteral("H3K27me3")};
    c.values.resize(states, 2);
    for (int r = 0; r < states; ++r) {
        c.rowLabels << QStringLiteral("E%1").arg(r + 1);
        c.rowColours << QColor(40 * r, 100, 200);
        c.values(r, 0) = offset + 0.1 * r;
        c.values(r, 1) = 0.05 * r;
    }
    return c;
}

TEST(HeatmapPair, DataHoldsBothPanelsAndTheSizeBothLayouts) {
    cx::ui::StateMatrixModel reference, contrastive;
    reference.setContent(content(3, 0.5));
    contrastive.setContent(content(2, 0.2));
    cx::ui::HeatmapView left, right;
    left.setModel(&reference);
    right.setModel(&contrastive);
    left.setTitle(QStringLiteral("γ = 0 (foreground only)"));
    right.setTitle(QStringLiteral("Contrastive γ = 1.5"));

    const QStringList lines =
        cx::ui::heatmapPairFigureData(left, right).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList leftLines = left.figureData().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList rightLines = right.figureData().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // One header (both panels plot the same marks), then 3 + 2 rows, each named by its panel.
    ASSERT_EQ(lines.size(), 1 + 3 + 2) << lines.join(QLatin1Char('\n')).toStdString();
    EXPECT_EQ(lines[0], QStringLiteral("panel\t") + leftLines[0]);
    EXPECT_EQ(lines[1], QStringLiteral("γ = 0 (foreground only)\t") + leftLines[1]);
    EXPECT_EQ(lines[3], QStringLiteral("γ = 0 (foreground only)\t") + leftLines[3]);
    EXPECT_EQ(lines[4], QStringLiteral("Contrastive γ = 1.5\t") + rightLines[1]);
    EXPECT_EQ(lines[5], QStringLiteral("Contrastive γ = 1.5\t") + rightLines[2]);

    const QSizeF size = cx::ui::heatmapPairFigureSize(left, right);
    EXPECT_DOUBLE_EQ(size.width(), left.figureSize().width() + right.figureSize().width());
    EXPECT_DOUBLE_EQ(size.height(),
                     std::max(left.figureSize().height(), right.figureSize().height()));

    // Other columns in the second panel: its rows follow their own header line.
    auto other = content(2, 0.2);
    other.columnLabels = {QStringLiteral("H3K4me1"), QStringLiteral("H3K36me3")};
    contrastive.setContent(other);
    const QStringList mixed =
        cx::ui::heatmapPairFigureData(left, right).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(mixed.size(), 1 + 3 + 1 + 2);
    EXPECT_TRUE(mixed[4].startsWith(QStringLiteral("panel\t"))) << mixed[4].toStdString();
    EXPECT_TRUE(mixed[4].contains(QStringLiteral("H3K36me3")));

    // A panel with nothing plotted adds nothing; neither: no data (no file is written).
    contrastive.setContent({});
    EXPECT_EQ(cx::ui::heatmapPairFigureData(left, right)
                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                  .size(),
              1 + 3);
    reference.setContent({});
    EXPECT_TRUE(cx::ui::heatmapPairFigureData(left, right).isEmpty());
}

} // namespace
