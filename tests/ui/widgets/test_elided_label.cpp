// A status line narrower than its text shortens it with "…" (whole in the tooltip) instead of
// clipping it mid-word, and never widens its row.
#include "ui/widgets/elided_label.h"

#include <gtest/gtest.h>

TEST(ElidedLabel, ShortensWithAnEllipsisWhenNarrowAndShowsAllWhenWide) {
    cx::ui::ElidedLabel label;
    const QString text = QStringLiteral("solve 1.2 ms on the γ path · view +3 ms · moments 0.05 s");
    label.setText(text);
    EXPECT_EQ(label.minimumSizeHint().width(), 0);
    label.resize(label.fontMetrics().horizontalAdvance(text) + 10, 20);
    EXPECT_FALSE(label.isElided());
    EXPECT_EQ(label.shownText(), text);
    label.resize(80, 20);
    EXPECT_TRUE(label.isElided());
    EXPECT_TRUE(label.shownText().endsWith(QChar(0x2026))) << label.shownText().toStdString();
    EXPECT_TRUE(text.startsWith(label.shownText().chopped(1)));
    EXPECT_LE(label.fontMetrics().horizontalAdvance(label.shownText()), 80);
}
