#pragma once

// The plain point type of AucChartView: what a specificity sweep reports per γ (the Topics
// workspace computes it; the chart only draws it).

#include <QString>

#include <limits>

namespace cx::ui {

/// One point of the AUC-vs-γ sweep.
struct SweepPoint {
    double gamma = 0;
    double auc = 0;
    double relativeAuc = 0;
    int numForegroundSpecific = 0;
    /// Components whose weight is outside [−γ, 1] (topic_admissibility.h; the point rule while
    /// the sweep streams, the bootstrap's bands once they exist).
    int numInadmissible = 0;
    /// Why the AUC is missing at this γ ("" for a valid point): drawn as a gap with the reason.
    QString failure;
    /// Why the app does not stand behind the solution at this γ (cx::judgeSweep; "" = it does,
    /// or not judged yet): the point is kept and its γ range shaded.
    QString notTrusted = QString();
    /// Bootstrap band of the relative AUC (NaN until a bootstrap ran).
    double relativeLo = std::numeric_limits<double>::quiet_NaN();
    double relativeHi = std::numeric_limits<double>::quiet_NaN();
};

} // namespace cx::ui
