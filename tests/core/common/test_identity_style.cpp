// Identity styles (core/common/identity_style): the categorical palette, the second channel
// past it, and distinct shades of preferred (semantic) colours — never two identities alike.
#include "core/common/identity_style.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cx {
namespace {

std::string describe(const IdentityStyle& style) {
    return std::to_string(style.colour.red) + "," + std::to_string(style.colour.green) + "," +
           std::to_string(style.colour.blue) + "/" +
           std::to_string(static_cast<int>(style.pattern));
}

void expectPairwiseDistinct(const std::vector<IdentityStyle>& styles) {
    for (size_t a = 0; a < styles.size(); ++a) {
        for (size_t b = a + 1; b < styles.size(); ++b) {
            EXPECT_FALSE(stylesClash(styles[a], styles[b]))
                << a << " " << describe(styles[a]) << " and " << b << " " << describe(styles[b]);
        }
    }
}

TEST(IdentityStyle, PaletteColoursAreDistinctAsSwatchesAndAsLines) {
    ASSERT_EQ(categoricalPaletteSize(), 12);
    for (int a = 0; a < categoricalPaletteSize(); ++a) {
        const Rgb colour = categoricalColour(a);
        EXPECT_EQ(lineColour(colour), colour) << "drawn unchanged on white: " << a;
        for (int b = a + 1; b < categoricalPaletteSize(); ++b) {
            EXPECT_FALSE(coloursClash(colour, categoricalColour(b))) << a << " vs " << b;
        }
    }
    EXPECT_EQ(categoricalColour(-1), categoricalColour(11)); // cycles, also for bad input
}

TEST(IdentityStyle, PastThePaletteTheLinePatternTellsIdentitiesApart) {
    // Fifteen topics (T1…T15): T11…T15 no longer repeat T1…T5 (the old 10-colour palette).
    std::vector<IdentityStyle> styles;
    for (int id = 0; id < 48; ++id) {
        styles.push_back(categoricalStyle(id));
    }
    expectPairwiseDistinct(styles);
    for (int id = 0; id < 12; ++id) {
        EXPECT_EQ(styles[static_cast<size_t>(id)].pattern, LinePattern::Solid) << id;
    }
    EXPECT_EQ(styles[12].colour, styles[0].colour);
    EXPECT_EQ(styles[12].pattern, LinePattern::Dotted);
    EXPECT_EQ(categoricalStyle(48), categoricalStyle(0)); // 4 patterns × 12 colours, then again
    EXPECT_EQ(categoricalStyle(-5).pattern, LinePattern::Solid);
}

TEST(IdentityStyle, DistinctStylesShadeRepeatedPreferencesAndKeepTheFirst) {
    const Rgb orange{0xf5, 0x9b, 0x00};
    const Rgb quiescent{0xdc, 0xdf, 0xe3};
    const Rgb grey{0x80, 0x80, 0x80};
    std::vector<Rgb> preferred(10, orange);
    preferred.insert(preferred.end(), 10, quiescent);
    preferred.push_back(grey); // draws like the darkened near-white quiescent as a line
    const std::vector<IdentityStyle> styles = distinctStyles(preferred);
    ASSERT_EQ(styles.size(), preferred.size());
    EXPECT_EQ(styles[0].colour, orange);
    EXPECT_EQ(styles[0].pattern, LinePattern::Solid);
    EXPECT_EQ(styles[10].colour, quiescent);
    EXPECT_NE(styles[20].colour, grey);
    expectPairwiseDistinct(styles);
    // Ten shades of one orange stay solid (colour first, pattern last).
    for (size_t i = 0; i < 10; ++i) {
        EXPECT_EQ(styles[i].pattern, LinePattern::Solid) << i;
    }
    // Deterministic, and styles already taken (another view's) are avoided.
    EXPECT_EQ(distinctStyles(preferred), styles);
    const std::vector<IdentityStyle> more = distinctStyles({orange}, {styles[0]});
    EXPECT_FALSE(stylesClash(more[0], styles[0]));
    EXPECT_TRUE(distinctStyles({}).empty());
}

TEST(IdentityStyle, ManyIdentitiesOfOneGreyFallBackToPatterns) {
    const std::vector<IdentityStyle> styles =
        distinctStyles(std::vector<Rgb>(100, Rgb{0x80, 0x80, 0x80}));
    expectPairwiseDistinct(styles);
    bool patterned = false;
    for (const IdentityStyle& style : styles) {
        patterned = patterned || style.pattern != LinePattern::Solid;
    }
    EXPECT_TRUE(patterned) << "a grey has too few shades and tints for 100 identities";
}

} // namespace
} // namespace cx
