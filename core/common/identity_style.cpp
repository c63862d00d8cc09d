#include "core/common/identity_style.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace cx {

namespace {

constexpr Rgb hexColour(int value) {
    return Rgb{static_cast<std::uint8_t>((value >> 16) & 0xff),
               static_cast<std::uint8_t>((value >> 8) & 0xff),
               static_cast<std::uint8_t>(value & 0xff)};
}

// Okabe & Ito (2008) without yellow and black, then Tol's "muted" scheme (2021) minus its
// colours too close to those or too light for a line on white.
constexpr std::array<Rgb, 12> kPalette = {
    hexColour(0x0072b2), hexColour(0xe69f00), hexColour(0x009e73), hexColour(0xcc79a7),
    hexColour(0x56b4e9), hexColour(0xd55e00), hexColour(0x332288), hexColour(0x999933),
    hexColour(0x882255), hexColour(0x44aa99), hexColour(0xcc6677), hexColour(0x117733)};

struct Hsl {
    double hue = 0;        ///< degrees
    double saturation = 0; ///< 0 … 1
    double lightness = 0;  ///< 0 … 1
};

Hsl toHsl(const Rgb& colour) {
    const double r = colour.red / 255.0;
    const double g = colour.green / 255.0;
    const double b = colour.blue / 255.0;
    const double high = std::max({r, g, b});
    const double low = std::min({r, g, b});
    Hsl out;
    out.lightness = (high + low) / 2;
    const double delta = high - low;
    if (delta <= 0) {
        return out;
    }
    out.saturation = delta / (1 - std::abs(2 * out.lightness - 1));
    if (high == r) {
        out.hue = 60 * std::fmod((g - b) / delta + 6, 6.0);
    } else if (high == g) {
        out.hue = 60 * ((b - r) / delta + 2);
    } else {
        out.hue = 60 * ((r - g) / delta + 4);
    }
    return out;
}

Rgb toRgb(const Hsl& hsl) {
    const double chroma = (1 - std::abs(2 * hsl.lightness - 1)) * hsl.saturation;
    const double hue = std::fmod(std::fmod(hsl.hue, 360.0) + 360.0, 360.0) / 60;
    const double x = chroma * (1 - std::abs(std::fmod(hue, 2.0) - 1));
    double r = 0;
    double g = 0;
    double b = 0;
    if (hue < 1) {
        r = chroma, g = x;
    } else if (hue < 2) {
        r = x, g = chroma;
    } else if (hue < 3) {
        g = chroma, b = x;
    } else if (hue < 4) {
        g = x, b = chroma;
    } else if (hue < 5) {
        r = x, b = chroma;
    } else {
        r = chroma, b = x;
    }
    const double m = hsl.lightness - chroma / 2;
    const auto channel = [&](double value) {
        return static_cast<std::uint8_t>(std::clamp(std::lround((value + m) * 255), 0L, 255L));
    };
    return Rgb{channel(r), channel(g), channel(b)};
}

/// Shades of `base` in the order they are tried: the colour itself, then lighter/darker steps
/// of 0.1 in HSL lightness combined with hue turns of 0, ±15°, ±30°, nearest first.
std::vector<Rgb> shades(const Rgb& base) {
    struct Step {
        double lightness;
        double hue;
        double cost;
    };
    std::vector<Step> steps;
    for (int l = -4; l <= 4; ++l) {
        for (int h = -2; h <= 2; ++h) {
            steps.push_back(
                {0.1 * l, 15.0 * h, std::abs(l) + 0.8 * std::abs(h) + (l > 0 ? 0.1 : 0)});
        }
    }
    std::stable_sort(steps.begin(), steps.end(),
                     [](const Step& a, const Step& b) { return a.cost < b.cost; });
    const Hsl hsl = toHsl(base);
    // A grey has no hue to turn: after its lighter and darker shades come faint tints of it.
    if (hsl.saturation < 0.15) {
        for (double tint : {210.0, 30.0, 120.0, 300.0, 170.0, 60.0}) {
            for (int l = 0; l <= 6; ++l) {
                const double lightness = (l % 2 == 0 ? 1 : -1) * 0.1 * ((l + 1) / 2);
                steps.push_back({lightness, tint, 100.0 + steps.size()});
            }
        }
    }
    std::vector<Rgb> out;
    for (const Step& step : steps) {
        if (step.lightness == 0 && step.hue == 0) {
            out.push_back(base); // exactly the preferred colour, no round trip
            continue;
        }
        Hsl shade = hsl;
        shade.lightness = std::clamp(hsl.lightness + step.lightness, 0.12, 0.92);
        shade.hue = hsl.hue + step.hue;
        if (step.cost >= 100) { // a tint of a grey: the step's hue, faintly
            shade.hue = step.hue;
            shade.saturation = 0.25;
        }
        out.push_back(toRgb(shade));
    }
    return out;
}

} // namespace

int categoricalPaletteSize() {
    return static_cast<int>(kPalette.size());
}

Rgb categoricalColour(int index) {
    const int n = categoricalPaletteSize();
    return kPalette[static_cast<size_t>(((index % n) + n) % n)];
}

IdentityStyle categoricalStyle(int id) {
    const int n = categoricalPaletteSize();
    const int round = std::max(0, id) / n;
    return IdentityStyle{categoricalColour(id),
                         static_cast<LinePattern>(round % kLinePatternCount)};
}

Rgb lineColour(const Rgb& colour) {
    const double luma =
        (0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue) / 255.0;
    if (luma <= 0.75) {
        return colour;
    }
    const auto dark = [](std::uint8_t value) {
        return static_cast<std::uint8_t>(std::lround(value / 1.7));
    };
    return Rgb{dark(colour.red), dark(colour.green), dark(colour.blue)};
}

double colourDistance(const Rgb& a, const Rgb& b) {
    const double dr = a.red - b.red;
    const double dg = a.green - b.green;
    const double db = a.blue - b.blue;
    return std::sqrt(dr * dr + dg * dg + db * db);
}

bool coloursClash(const Rgb& a, const Rgb& b) {
    return colourDistance(a, b) < kMinColourDistance ||
           colourDistance(lineColour(a), lineColour(b)) < kMinColourDistance;
}

bool stylesClash(const IdentityStyle& a, const IdentityStyle& b) {
    return a.pattern == b.pattern && coloursClash(a.colour, b.colour);
}

std::vector<IdentityStyle> distinctStyles(const std::vector<Rgb>& preferred,
                                          const std::vector<IdentityStyle>& taken) {
    std::vector<IdentityStyle> used = taken;
    std::vector<IdentityStyle> out;
    out.reserve(preferred.size());
    for (const Rgb& colour : preferred) {
        const std::vector<Rgb> candidates = shades(colour);
        IdentityStyle chosen{colour, LinePattern::Solid};
        bool found = false;
        for (int pattern = 0; pattern < kLinePatternCount && !found; ++pattern) {
            for (const Rgb& candidate : candidates) {
                const IdentityStyle style{candidate, static_cast<LinePattern>(pattern)};
                if (std::none_of(used.begin(), used.end(), [&](const IdentityStyle& other) {
                        return stylesClash(style, other);
                    })) {
                    chosen = style;
                    found = true;
                    break;
                }
            }
        }
        used.push_back(chosen);
        out.push_back(chosen);
    }
    return out;
}

} // namespace cx
