#include "ui/views/colour_scale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cx::ui {

namespace {

struct Stop {
    double at;
    QColor colour;
};

// ColorBrewer Blues (9 classes), white at 0.
const std::array<Stop, 6> kBlues = {{{0.0, QColor(0xff, 0xff, 0xff)},
                                     {0.15, QColor(0xde, 0xeb, 0xf7)},
                                     {0.35, QColor(0x9e, 0xca, 0xe1)},
                                     {0.6, QColor(0x42, 0x92, 0xc6)},
                                     {0.82, QColor(0x08, 0x51, 0x9c)},
                                     {1.0, QColor(0x08, 0x30, 0x6b)}}};

// Depletion side: white → warm orange (ColorBrewer Oranges, light half).
const std::array<Stop, 4> kOranges = {{{0.0, QColor(0xff, 0xff, 0xff)},
                                       {0.35, QColor(0xfe, 0xe6, 0xce)},
                                       {0.7, QColor(0xfd, 0xae, 0x6b)},
                                       {1.0, QColor(0xe6, 0x55, 0x0d)}}};

template <size_t N> QColor ramp(const std::array<Stop, N>& stops, double t) {
    t = std::clamp(t, 0.0, 1.0);
    for (size_t i = 1; i < N; ++i) {
        if (t <= stops[i].at) {
            const double span = stops[i].at - stops[i - 1].at;
            const double u = span > 0 ? (t - stops[i - 1].at) / span : 0;
            const QColor& a = stops[i - 1].colour;
            const QColor& b = stops[i].colour;
            return QColor::fromRgbF(static_cast<float>(a.redF() + u * (b.redF() - a.redF())),
                                    static_cast<float>(a.greenF() + u * (b.greenF() - a.greenF())),
                                    static_cast<float>(a.blueF() + u * (b.blueF() - a.blueF())));
        }
    }
    return stops[N - 1].colour;
}

} // namespace

ColourScale ColourScale::probability(const QString& title) {
    ColourScale scale;
    scale.kind = Kind::Sequential;
    scale.minimum = 0;
    scale.maximum = 1;
    scale.title = title;
    return scale;
}

ColourScale ColourScale::foldEnrichment(const QString& title, double log2Limit) {
    ColourScale scale;
    scale.kind = Kind::Log2Diverging;
    scale.log2Limit = log2Limit;
    scale.title = title;
    return scale;
}

double ColourScale::position(double value) const {
    if (!std::isfinite(value)) {
        return 0.5;
    }
    if (kind == Kind::Sequential) {
        const double span = maximum - minimum;
        return span > 0 ? std::clamp((value - minimum) / span, 0.0, 1.0) : 0.0;
    }
    const double x = value > 0 ? std::log2(value) : -log2Limit;
    return std::clamp((x + log2Limit) / (2 * log2Limit), 0.0, 1.0);
}

QColor ColourScale::colourAt(double value) const {
    if (!std::isfinite(value)) {
        return QColor(0xee, 0xef, 0xf1);
    }
    if (kind == Kind::Sequential) {
        return ramp(kBlues, position(value));
    }
    const double t = position(value) * 2 - 1; // −1 … 1, 0 at fold 1
    return t >= 0 ? ramp(kBlues, t * 0.9) : ramp(kOranges, -t);
}

QVector<double> ColourScale::ticks() const {
    if (kind == Kind::Sequential) {
        QVector<double> out;
        for (int i = 0; i <= 4; ++i) {
            out << minimum + (maximum - minimum) * i / 4.0;
        }
        return out;
    }
    QVector<double> out;
    const int limit = static_cast<int>(std::floor(log2Limit));
    const int step = limit > 4 ? 2 : 1;
    for (int e = -limit; e <= limit; ++e) {
        if (e % step == 0) {
            out << std::pow(2.0, e);
        }
    }
    return out;
}

QString ColourScale::tickLabel(double value) const {
    if (kind == Kind::Sequential) {
        return QString::number(value, 'g', 3);
    }
    if (value >= 1) {
        return QString::number(value, 'f', 0);
    }
    return QStringLiteral("1/%1").arg(std::lround(1.0 / value));
}

bool ColourScale::needsLightText(const QColor& background) {
    const double luminance =
        0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance < 0.5;
}

} // namespace cx::ui
