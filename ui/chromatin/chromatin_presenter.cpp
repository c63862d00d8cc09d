#include "ui/chromatin/chromatin_presenter.h"
#include "ui/chromatin/chromatin_tr.h"

#include "core/hmm/hmm_path.h"

#include "core/hmm/contrastive_hmm.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cx::ui {

namespace {

using chromatin_text::tr;

QString formatBp(qint64 bp) {
    return QLocale().toString(bp);
}

} // namespace

QVector<double> chromatinSweepGrid(double maximum, double step) {
    QVector<double> gammas;
    const int steps = static_cast<int>(std::lround(maximum / step));
    for (int i = 0; i <= steps; ++i) {
        gammas << i * step;
    }
    return gammas;
}

QColor annotationLaneColour(const QString& name) {
    const QString lower = name.toLower();
    if (lower.contains(QLatin1String("tss"))) {
        return QColor(0xb0, 0x3a, 0x2e);
    }
    if (lower.contains(QLatin1String("exon"))) {
        return QColor(0x2b, 0x6c, 0xb0);
    }
    if (lower.contains(QLatin1String("cpg"))) {
        return QColor(0x2f, 0x85, 0x5a);
    }
    if (lower.contains(QLatin1String("lad")) || lower.contains(QLatin1String("lamin"))) {
        return QColor(0x7b, 0x6d, 0x8d);
    }
    return QColor(0x2b, 0x3a, 0x55);
}

bool isBedPath(const QString& path) {
    const QString name = QFileInfo(path).fileName().toLower();
    return name.endsWith(QLatin1String(".bed")) || name.endsWith(QLatin1String(".bed.gz"));
}

bool isBinarizedPath(const QString& path) {
    const QString name = QFileInfo(path).fileName().toLower();
    return (name.endsWith(QLatin1String(".txt")) || name.endsWith(QLatin1String(".txt.gz"))) &&
           name.contains(QLatin1String("binary"));
}

QString formatGenomicWidth(qint64 bp) {
    if (bp >= 1000000) {
        return QStringLiteral("%1 Mb").arg(QLocale().toString(bp / 1e6, 'f', 2));
    }
    if (bp >= 1000) {
        return QStringLiteral("%1 kb").arg(QLocale().toString(bp / 1e3, 'f', 1));
    }
    return QStringLiteral("%1 bp").arg(bp);
}

QString genomicRangeText(const QString& chrom, qint64 start, qint64 end, qint64 length) {
    if (length <= 0) {
        return tr("Drag to scroll, wheel or +/− to zoom");
    }
    return tr("%1:%2–%3 (%4) · drag to scroll, wheel to zoom")
        .arg(chrom, formatBp(start), formatBp(end), formatGenomicWidth(end - start));
}

QStringList discoverAnnotations(const QStringList& trackPaths) {
    // ChromHMM's own layout: <data>/COORDS/<assembly>/*.bed.gz next to the binarized files.
    if (trackPaths.isEmpty()) {
        return {};
    }
    const QFileInfo first(trackPaths.front());
    const QDir coords(first.absoluteDir().absoluteFilePath(QStringLiteral("COORDS")));
    if (!coords.exists()) {
        return {};
    }
    const QStringList assemblies = coords.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QString chosen;
    if (assemblies.size() == 1) {
        chosen = assemblies.front();
    } else {
        for (const QString& assembly : assemblies) {
            if (first.absoluteFilePath().contains(assembly, Qt::CaseInsensitive)) {
                chosen = assembly;
            }
        }
    }
    if (chosen.isEmpty()) {
        return {};
    }
    const QDir folder(coords.absoluteFilePath(chosen));
    QStringList out;
    for (const QString& name : folder.entryList(
             {QStringLiteral("*.bed"), QStringLiteral("*.bed.gz")}, QDir::Files, QDir::Name)) {
        out << folder.absoluteFilePath(name);
    }
    return out;
}

QString invalidStateNote() {
    return tr(" · ⚠ not a valid state: its emission leaves [0, 1] or its weight leaves [−γ, 1] "
              "by more than sampling error");
}

QStringList markColumnLabels(const std::vector<std::string>& marks) {
    QStringList columns;
    for (const std::string& mark : marks) {
        columns << QString::fromStdString(mark);
    }
    return columns;
}

QString unstableSuffix(double stability) {
    return std::isfinite(stability) && stability < cx::kMinStateStability
               ? tr(" ⚠ %1 %").arg(qRound(100 * stability))
               : QString();
}

std::vector<int> shownIdentities(const WeightSweep& sweep, const HmmSolution& solution) {
    if (!sweep.path || !solution.isValid() || !solution.onPath || solution.epoch != sweep.epoch) {
        return {};
    }
    const cx::HmmPath& path = *sweep.path;
    const int nearest = path.nearest(solution.gamma);
    if (nearest < 0) {
        return {};
    }
    const auto point = static_cast<size_t>(nearest);
    const Eigen::MatrixXd& shown = solution.result->markProbabilities;
    const Eigen::MatrixXd& profiles = path.solutions[point].markProbabilities;
    if (shown.cols() != profiles.cols()) {
        return {};
    }
    if (shown.rows() == profiles.rows() && shown == profiles) {
        return path.ids[point]; // the path's own solution
    }
    int next = path.numIdentities;
    std::vector<int> ids = cx::continueIdentities(profiles, path.ids[point], shown, next);
    for (int& id : ids) {
        if (id >= path.numIdentities) {
            id = -1; // a state the path does not have
        }
    }
    return ids;
}

QVector<double> slotStabilities(const WeightSweep& sweep, double gamma,
                                const StateCatalog& catalog) {
    QVector<double> out;
    if (!sweep.bootstrap || !sweep.path || sweep.bootstrap->gammas != sweep.path->gammas) {
        return out;
    }
    if (catalog.path() == sweep.path) {
        // Path identities: each row's own identity.
        out.fill(std::numeric_limits<double>::quiet_NaN(), catalog.numSlots());
        for (int s = 0; s < catalog.numSlots(); ++s) {
            if (catalog.identityOfSlot(s) >= 0) {
                out[s] = sweep.bootstrap->stabilityOf(catalog.identityOfSlot(s));
            }
        }
        return out;
    }
    const cx::HmmPath& path = *sweep.path;
    const int nearest = path.nearest(gamma);
    if (nearest < 0) {
        return out;
    }
    const Eigen::MatrixXd& profiles =
        path.solutions[static_cast<size_t>(nearest)].markProbabilities;
    const Eigen::MatrixXd& shown = catalog.profiles();
    out.fill(std::numeric_limits<double>::quiet_NaN(), catalog.numSlots());
    if (shown.rows() != catalog.numSlots() || shown.cols() != profiles.cols() ||
        shown.rows() > profiles.rows() || shown.rows() == 0) {
        return out;
    }
    const std::vector<int> match = cx::matchStates(shown, profiles);
    for (int s = 0; s < catalog.numSlots(); ++s) {
        const int c = match[static_cast<size_t>(s)];
        if (c < 0 || (shown.row(s) - profiles.row(c)).cwiseAbs().maxCoeff() >
                         cx::kStateIdentityMaxMarkChange) {
            continue;
        }
        out[s] = sweep.bootstrap->stabilityOf(
            path.ids[static_cast<size_t>(nearest)][static_cast<size_t>(c)]);
    }
    return out;
}

StateMatrixModel::Content emissionContent(const cx::ContrastiveHmmResult& result,
                                          const StateCatalog& catalog,
                                          const std::vector<std::string>& marks,
                                          const QVector<double>& stability) {
    const int shownSlots = catalog.numSlots();
    StateMatrixModel::Content current;
    current.values.resize(shownSlots, result.markProbabilities.cols());
    current.columnLabels = markColumnLabels(marks);
    current.valueName = tr("P(mark present)");
    for (int s = 0; s < shownSlots; ++s) {
        const int component = catalog.componentOfSlot(s);
        current.values.row(s) = result.markProbabilities.row(component);
        current.rowLabels << catalog.name(s);
        current.rowColours << catalog.colour(s);
        const double weight = result.weights[component];
        current.rowWeights << weight;
        current.rowDimmed << (weight <= 0);
        current.rowSlots << s;
        QString note = weight > 0
                           ? tr("foreground-specific (ω = %1)").arg(weight, 0, 'g', 3)
                           : tr("background-like at this γ (ω = %1 ≤ 0)").arg(weight, 0, 'g', 3);
        if (catalog.isRenamed(s)) {
            note += tr(" · automatic name: %1").arg(catalog.autoName(s));
        }
        if (const int identity = catalog.identityOfSlot(s); identity >= 0) {
            // The name is the identity's along the whole γ path (from its marks where it first
            // appears); say so when its marks here read otherwise.
            const StateClass here =
                classifyChromatinState(result.markProbabilities.row(component), marks);
            if (!here.name.isEmpty() && !catalog.identityAutoName(identity).startsWith(here.name)) {
                note += tr(" · named where it first appears on the γ path; its marks here read "
                           "as “%1”")
                            .arg(here.name);
            }
        }
        const bool invalid = !result.isValidComponent(component);
        const double stable = stability.value(s, std::numeric_limits<double>::quiet_NaN());
        const bool unstable = std::isfinite(stable) && stable < cx::kMinStateStability;
        current.rowFlagged << (invalid || unstable);
        if (invalid) {
            note += invalidStateNote();
        }
        if (unstable) {
            note += tr(" · ⚠ unstable: reappears in only %1 % of the bootstrap resamples")
                        .arg(qRound(100 * stable));
        } else if (std::isfinite(stable)) {
            note += tr(" · bootstrap stability %1 %").arg(qRound(100 * stable));
        }
        current.rowNotes << note;
    }
    return current;
}

StateMatrixModel::Content transitionContent(const cx::ContrastiveHmmResult& result,
                                            const StateCatalog& catalog) {
    // Specific states only (the HMM's states), in display order.
    std::vector<int> shownSlots;
    for (int s = 0; s < catalog.numSlots(); ++s) {
        if (catalog.componentOfSlot(s) < result.numSpecific) {
            shownSlots.push_back(s);
        }
    }
    StateMatrixModel::Content content;
    const auto n = static_cast<Eigen::Index>(shownSlots.size());
    content.values.resize(n, n);
    content.valueName = tr("P(next bin's state)");
    content.rowHeader = tr("from \\ to");
    for (Eigen::Index i = 0; i < n; ++i) {
        const int from = catalog.componentOfSlot(shownSlots[static_cast<size_t>(i)]);
        for (Eigen::Index j = 0; j < n; ++j) {
            const int to = catalog.componentOfSlot(shownSlots[static_cast<size_t>(j)]);
            content.values(i, j) = result.hmm.transitions(from, to);
        }
        const int slot = shownSlots[static_cast<size_t>(i)];
        content.rowLabels << catalog.name(slot);
        content.columnLabels << catalog.name(slot);
        content.rowColours << catalog.colour(slot);
        content.rowSlots << slot;
    }
    return content;
}

std::optional<StateMatrixModel::Content> enrichmentContent(const EnrichmentTable& table,
                                                           const SegmentationState& segmentation,
                                                           const std::vector<int>& displaySlots,
                                                           const StateCatalog& catalog) {
    if (table.generation != segmentation.generation ||
        displaySlots.size() != static_cast<size_t>(table.numStates())) {
        return std::nullopt;
    }
    StateMatrixModel::Content content;
    // Rows in display order, for the states the segmentation used (background-like states
    // that labelled no run are left out).
    std::vector<int> order;
    for (int state = 0; state < table.numStates(); ++state) {
        if (table.stateBins[static_cast<size_t>(state)] > 0) {
            order.push_back(state);
        }
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return displaySlots[static_cast<size_t>(a)] < displaySlots[static_cast<size_t>(b)];
    });
    content.values.resize(static_cast<Eigen::Index>(order.size()), table.numAnnotations());
    content.columnLabels = table.annotations;
    content.valueName = tr("fold enrichment");
    content.decimals = 1;
    for (size_t r = 0; r < order.size(); ++r) {
        const int state = order[r];
        const int slot = displaySlots[static_cast<size_t>(state)];
        const bool background = state >= segmentation.numSpecific;
        if (table.numAnnotations() > 0) { // row() of a 0-column matrix offsets a null pointer
            content.values.row(static_cast<Eigen::Index>(r)) = table.fold.row(state);
        }
        content.rowLabels << catalog.name(slot);
        content.rowColours << catalog.colour(slot);
        const double share =
            table.totalBins > 0
                ? 100.0 * static_cast<double>(table.stateBins[static_cast<size_t>(state)]) /
                      static_cast<double>(table.totalBins)
                : 0.0;
        content.rowWeights << share;
        content.rowDimmed << background;
        content.rowSlots << slot;
        content.rowNotes << tr("%1 bins (%2 % of all)%3")
                                .arg(QLocale().toString(static_cast<qint64>(
                                    table.stateBins[static_cast<size_t>(state)])))
                                .arg(share, 0, 'f', 2)
                                .arg(background ? tr(" · background-like: runs this component "
                                                     "explains better than the specific HMM's "
                                                     "state")
                                                : QString());
    }
    return content;
}

QStringList invalidSpecificStates(const cx::ContrastiveHmmResult& result,
                                  const StateCatalog& catalog) {
    QStringList invalidStates;
    for (int s = 0; s < catalog.numSlots(); ++s) {
        const int component = catalog.componentOfSlot(s);
        if (!result.isValidComponent(component) && result.weights[component] > 0) {
            invalidStates << catalog.name(s);
        }
    }
    return invalidStates;
}

QStringList contradictedStates(const SegmentationState& segmentation, const StateCatalog& catalog) {
    QStringList states;
    const cx::DecodedContrast& contrast = segmentation.contrast;
    for (int state : contrast.contradicted) {
        const auto s = static_cast<size_t>(state);
        if (s >= contrast.foregroundShare.size()) {
            continue;
        }
        const int slot = catalog.slotOfComponent(state);
        states << tr("%1 (%2 % of the foreground, %3 % of the "
                     "background bins)")
                      .arg(slot >= 0 ? catalog.name(slot) : QString::number(state + 1))
                      .arg(100.0 * contrast.foregroundShare[s], 0, 'f', 0)
                      .arg(100.0 * contrast.backgroundShare[s], 0, 'f', 0);
    }
    return states;
}

QString contrastiveSubtitle(const cx::ContrastiveHmmResult& result, const StateCatalog& catalog,
                            const QStringList& contradicted, const QVector<double>& stability) {
    const QStringList invalid = invalidSpecificStates(result, catalog);
    QStringList warnings;
    if (!invalid.isEmpty()) {
        warnings << tr("⚠ not a valid state here: %1").arg(invalid.join(QStringLiteral(", ")));
    }
    QStringList unstable;
    for (int s = 0; s < catalog.numSlots() && s < stability.size(); ++s) {
        const int component = catalog.componentOfSlot(s);
        if (component >= 0 && component < result.weights.size() && result.weights[component] > 0 &&
            !unstableSuffix(stability[s]).isEmpty()) {
            unstable << catalog.name(s);
        }
    }
    if (!unstable.isEmpty()) {
        warnings
            << tr("⚠ unstable under the bootstrap: %1").arg(unstable.join(QStringLiteral(", ")));
    }
    if (!contradicted.isEmpty()) {
        warnings << tr("⚠ segmentation contradicts the model: %1")
                        .arg(contradicted.join(QStringLiteral(", ")));
    }
    if (!warnings.isEmpty()) {
        return warnings.join(QStringLiteral(" · "));
    }
    return tr("%1 of %2 states foreground-specific")
        .arg(result.numSpecific)
        .arg(result.weights.size());
}

std::vector<int> segmentationSlots(const SegmentationState& segmentation,
                                   const StateCatalog& catalog) {
    std::vector<int> displaySlots;
    for (int s = 0; s < segmentation.numStates; ++s) {
        displaySlots.push_back(std::max(0, catalog.slotOfComponent(s)));
    }
    return displaySlots;
}

namespace {

/// weightLines with path identities: one line per identity of the path.
WeightLines identityLines(const WeightSweep& sweep, double gamma, const StateCatalog& catalog) {
    WeightLines out;
    const cx::HmmPath& path = *sweep.path;
    const bool banded = sweep.bootstrap && sweep.bootstrap->gammas == path.gammas;
    const int nearest = path.nearest(gamma);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int s = 0; s < catalog.numSlots(); ++s) {
        out.trackOfSlot.push_back(catalog.identityOfSlot(s));
    }
    for (int id = 0; id < path.numIdentities; ++id) {
        StateWeightsChartView::Line line;
        line.name = catalog.identityName(id) +
                    unstableSuffix(banded ? sweep.bootstrap->stabilityOf(id) : nan);
        line.colour = catalog.identityColour(id);
        line.pattern = penStyle(catalog.identityStyle(id).pattern);
        bool present = false;
        for (size_t i = 0; i < path.gammas.size(); ++i) {
            const auto& ids = path.ids[i];
            const auto found = std::find(ids.begin(), ids.end(), id);
            double weight = nan;
            double lo = nan;
            double hi = nan;
            if (found != ids.end()) {
                const auto c = static_cast<size_t>(found - ids.begin());
                weight = path.solutions[i].weights[static_cast<Eigen::Index>(c)];
                lo = weight;
                hi = weight;
                if (banded && std::isfinite(sweep.bootstrap->weightLo[i][c]) &&
                    std::isfinite(sweep.bootstrap->weightHi[i][c])) {
                    lo = sweep.bootstrap->weightLo[i][c]; // the percentile band as it is
                    hi = sweep.bootstrap->weightHi[i][c];
                }
                present = present || static_cast<int>(i) == nearest;
            }
            line.points << QPointF(path.gammas[i], weight);
            if (banded) {
                line.lower << QPointF(path.gammas[i], lo);
                line.upper << QPointF(path.gammas[i], hi);
            }
        }
        line.inLegend = present;
        out.lines << line;
    }
    out.unreliable = unreliableRanges(sweep.gammas, sweep.specificInvalidMass);
    return out;
}

} // namespace

WeightLines weightLines(const WeightSweep& sweep, double gamma, const StateCatalog& catalog) {
    WeightLines out;
    if (sweep.isEmpty() || sweep.numTracks() != catalog.numSlots()) {
        return out;
    }
    if (catalog.path() && catalog.path() == sweep.path &&
        sweep.path->gammas.size() == static_cast<size_t>(sweep.gammas.size())) {
        return identityLines(sweep, gamma, catalog);
    }
    // Which sweep track is which display slot: match at the grid point nearest the shown γ.
    int nearest = 0;
    for (int i = 0; i < sweep.gammas.size(); ++i) {
        if (std::abs(sweep.gammas[i] - gamma) < std::abs(sweep.gammas[nearest] - gamma)) {
            nearest = i;
        }
    }
    const Eigen::MatrixXd& profiles = sweep.profiles[static_cast<size_t>(nearest)];
    if (profiles.cols() != catalog.profiles().cols()) {
        return out;
    }
    out.trackOfSlot = cx::matchStates(catalog.profiles(), profiles);
    // Bands: the sweep's rows are copies of the path's components, so the component drawn at
    // γ_i is the path row equal to it.
    const bool banded = sweep.bootstrap && sweep.path &&
                        sweep.path->gammas.size() == static_cast<size_t>(sweep.gammas.size()) &&
                        sweep.bootstrap->gammas == sweep.path->gammas;
    const QVector<double> stability = slotStabilities(sweep, gamma, catalog);
    for (int s = 0; s < catalog.numSlots(); ++s) {
        StateWeightsChartView::Line line;
        line.name = catalog.name(s) + unstableSuffix(stability.value(s, std::nan("")));
        line.colour = catalog.colour(s);
        line.pattern = penStyle(catalog.style(s).pattern);
        const int track = out.trackOfSlot[static_cast<size_t>(s)];
        for (int i = 0; i < sweep.gammas.size(); ++i) {
            const double weight = sweep.weights[static_cast<size_t>(i)][track];
            line.points << QPointF(sweep.gammas[i], weight);
            if (!banded) {
                continue;
            }
            const auto point = static_cast<size_t>(i);
            const Eigen::MatrixXd& components = sweep.path->solutions[point].markProbabilities;
            const Eigen::RowVectorXd row = sweep.profiles[point].row(track);
            double lo = weight;
            double hi = weight;
            for (Eigen::Index c = 0; c < components.rows(); ++c) {
                if (components.row(c) == row && sweep.path->solutions[point].weights[c] == weight) {
                    const double l = sweep.bootstrap->weightLo[point][static_cast<size_t>(c)];
                    const double h = sweep.bootstrap->weightHi[point][static_cast<size_t>(c)];
                    if (std::isfinite(l) && std::isfinite(h)) {
                        lo = l; // the percentile band as it is (it need not contain ω)
                        hi = h;
                    }
                    break;
                }
            }
            line.lower << QPointF(sweep.gammas[i], lo);
            line.upper << QPointF(sweep.gammas[i], hi);
        }
        out.lines << line;
    }
    out.unreliable = unreliableRanges(sweep.gammas, sweep.specificInvalidMass);
    return out;
}

} // namespace cx::ui
