#pragma once

// How identities (topics, chromatin states, cell types) are told apart in one view: a colour
// each, from a colour-blind-aware categorical palette or from a preferred (semantic) colour,
// and a line pattern as the second channel once colours run out. Qt-free, so every workspace's
// views and exports (ui/charts, ui/views) assign styles by one rule.

#include <cstdint>
#include <vector>

namespace cx {

/// A colour as 8-bit sRGB.
struct Rgb {
    std::uint8_t red = 127;
    std::uint8_t green = 127;
    std::uint8_t blue = 127;

    bool operator==(const Rgb&) const = default;
};

/// Line patterns of the second channel, in the order they are used. The plain dashed line is
/// not among them: charts draw the flagged pieces of a line (e.g. an inadmissible topic) dashed.
enum class LinePattern { Solid = 0, Dotted, DashDot, DashDotDot };
constexpr int kLinePatternCount = 4;

/// What tells one identity from the others in a view.
struct IdentityStyle {
    Rgb colour;
    LinePattern pattern = LinePattern::Solid;

    bool operator==(const IdentityStyle&) const = default;
};

/// Number of colours of the categorical palette (12).
int categoricalPaletteSize();
/// The categorical palette: Okabe & Ito's colour-blind-safe set (without its yellow and black)
/// followed by Tol's "muted" colours that differ from it; every colour dark enough to be drawn
/// as a line on white unchanged. `index` cycles.
Rgb categoricalColour(int index);
/// Identity `id` (0, 1, …) of a categorical view (topics): colour id mod 12, pattern id / 12
/// (cycling through the patterns), so 48 identities differ before a style repeats.
IdentityStyle categoricalStyle(int id);

/// The colour a line of `colour` is drawn in on white: very light colours (luma > 0.75, e.g. a
/// quiescent state's near-white) are darkened (every channel / 1.7), the rest unchanged.
Rgb lineColour(const Rgb& colour);
/// Euclidean distance of two colours in 8-bit sRGB (0 … 441).
double colourDistance(const Rgb& a, const Rgb& b);
/// Below this distance two colours read as one (in a swatch or as lines on white).
constexpr double kMinColourDistance = 28.0;
/// Two styles a reader cannot tell apart: the same pattern and colours closer than
/// kMinColourDistance, as swatches or as drawn lines (lineColour).
bool stylesClash(const IdentityStyle& a, const IdentityStyle& b);
/// Whether two swatch colours (no pattern) read as one.
bool coloursClash(const Rgb& a, const Rgb& b);

/// Styles for identities with preferred (semantic) colours, first come first served: each gets
/// its preferred colour when no earlier identity (nor any of `taken`) clashes with it, else the
/// nearest shade of it that clashes with none (lighter/darker and slightly rotated hues; for a
/// grey, then faint tints), and
/// only when no shade is free the same search with the next line pattern. Deterministic: the
/// same preferences in the same order give the same styles. Never two clashing styles among
/// the result and `taken` while shades and patterns last (4 patterns × some 10–40 distinct
/// shades of a colour); past that an identity gets its preferred colour as it is.
std::vector<IdentityStyle> distinctStyles(const std::vector<Rgb>& preferred,
                                          const std::vector<IdentityStyle>& taken = {});

} // namespace cx
