#pragma once

#include <QColor>
#include <QString>
#include <QVector>

namespace cx::ui {

/// One colour scale for every cell of a heatmap (so columns are comparable), with what its
/// legend needs.
///  - Sequential: white → blue over [minimum, maximum] (ColorBrewer "Blues"), the ChromHMM
///    convention for emission probabilities;
///  - Log2Diverging: for fold enrichments: log2(value) over [−limit, +limit], blue above 1
///    (enriched), warm orange below 1 (depleted), white at 1.
struct ColourScale {
    enum class Kind { Sequential, Log2Diverging };
    Kind kind = Kind::Sequential;
    double minimum = 0;
    double maximum = 1;
    double log2Limit = 5; ///< Log2Diverging: |log2 fold| where the colour saturates
    QString title;        ///< legend title, e.g. "P(mark present)"

    static ColourScale probability(const QString& title);
    static ColourScale foldEnrichment(const QString& title, double log2Limit = 5);

    /// The colour of `value` (NaN: a neutral light grey).
    QColor colourAt(double value) const;
    /// Position of `value` on the legend bar in [0, 1].
    double position(double value) const;
    /// Values labelled on the legend.
    QVector<double> ticks() const;
    QString tickLabel(double value) const;
    /// Whether text drawn on `background` should be white rather than dark.
    static bool needsLightText(const QColor& background);
};

} // namespace cx::ui
