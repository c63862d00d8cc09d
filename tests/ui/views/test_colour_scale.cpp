// ColourScale (ui/views): the heatmaps' colour scales.
#include "ui/views/colour_scale.h"

#include <gtest/gtest.h>

#include <QColor>

using cx::ui::ColourScale;

TEST(ColourScale, WhiteToBlueForProbabilitiesAndDivergingForFolds) {
    const ColourScale probability = ColourScale::probability(QStringLiteral("P"));
    EXPECT_EQ(probability.colourAt(0.0), QColor(Qt::white));
    const QColor high = probability.colourAt(1.0);
    EXPECT_GT(high.blue(), high.red());
    EXPECT_TRUE(ColourScale::needsLightText(high));
    EXPECT_FALSE(ColourScale::needsLightText(probability.colourAt(0.1)));
    const ColourScale fold = ColourScale::foldEnrichment(QStringLiteral("fold"), 5);
    EXPECT_EQ(fold.colourAt(1.0), QColor(Qt::white));
    EXPECT_GT(fold.colourAt(8.0).blue(), fold.colourAt(8.0).red());   // enriched: blue
    EXPECT_GT(fold.colourAt(0.25).red(), fold.colourAt(0.25).blue()); // depleted: orange
    EXPECT_DOUBLE_EQ(fold.position(1.0), 0.5);
    EXPECT_DOUBLE_EQ(fold.position(1e9), 1.0);
    EXPECT_DOUBLE_EQ(fold.position(0.0), 0.0);
    EXPECT_EQ(fold.tickLabel(0.25), QStringLiteral("1/4"));
}
