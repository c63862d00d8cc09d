#pragma once

// Pure presenter functions of the Chromatin workspace: what its views show, computed from the
// controller's results and the StateCatalog (display order, names, colours of the states).
// No widgets, no threads, no controller: the workspace feeds the returned contents to its
// models and views, the tests call them directly.

#include "ui/charts/state_weights_chart_view.h"
#include "ui/chromatin/chromatin_types.h"
#include "ui/views/state_catalog.h"
#include "ui/widgets/state_matrix_model.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>
#include <string>
#include <vector>

namespace cx::ui {

/// γ grid of the weights-vs-γ chart: 0 … `maximum` in steps of `step`.
QVector<double> chromatinSweepGrid(double maximum, double step = 0.05);
/// Colour of an annotation lane, by its name (TSS, exons, CpG islands, lamina, other).
QColor annotationLaneColour(const QString& name);
/// A BED file (.bed, .bed.gz), by its name.
bool isBedPath(const QString& path);
/// A ChromHMM binarized track (.txt[.gz] with "binary" in the name), by its name.
bool isBinarizedPath(const QString& path);
/// "1.25 Mb", "12.5 kb", "200 bp".
QString formatGenomicWidth(qint64 bp);
/// The segmentation toolbar's text for the range [start, end) of `chrom` (length ≤ 0: none).
QString genomicRangeText(const QString& chrom, qint64 start, qint64 end, qint64 length);
/// ChromHMM's own layout: the *.bed[.gz] files of <tracks' folder>/COORDS/<assembly>/ (the
/// only assembly, or the one named in the first track's path), sorted by name.
QStringList discoverAnnotations(const QStringList& trackPaths);

/// Column labels of a states × marks heatmap: the marks' names.
QStringList markColumnLabels(const std::vector<std::string>& marks);
/// Appended to a heatmap row's tooltip when the state fails core's validity test.
QString invalidStateNote();

/// Heatmap rows of the contrastive model: every component in display-slot order, with
/// weights (dimmed when ω ≤ 0, flagged when not a valid state) and notes.
/// `stability` (optional, per display slot, NaN = unknown; slotStabilities) adds the bootstrap
/// stability to the notes and flags states below cx::kMinStateStability like invalid ones.
StateMatrixModel::Content emissionContent(const cx::ContrastiveHmmResult& result,
                                          const StateCatalog& catalog,
                                          const std::vector<std::string>& marks,
                                          const QVector<double>& stability = {});
/// Bootstrap stability (cx::HmmPathBootstrap::identityStability) of each display slot's state:
/// the slot is matched (matchStates, within cx::kStateIdentityMaxMarkChange) to a component of
/// the sweep path's point nearest `gamma`, whose identity's stability it gets. Empty without a
/// bootstrap; NaN for a slot without a partner.
QVector<double> slotStabilities(const WeightSweep& sweep, double gamma,
                                const StateCatalog& catalog);
/// " ⚠ 35 %" for an unstable state (stability below cx::kMinStateStability), else empty.
QString unstableSuffix(double stability);
/// Heatmap rows of the γ = 0 model, in the model's own order (it does not depend on γ, so
/// neither do its rows). With `identities` (per reference component, referenceIdentities) a row
/// shows its path identity's name and colour, as every other view does; without them a row
/// within the identity rule (cx::kStateIdentityMaxMarkChange) of a contrastive row after
/// matchStates shows that row's name and colour. Any other row is a state of the γ = 0 model
/// only: its class name with "(γ = 0 only)" (repeats told apart by cx::qualifyRepeatedNames),
/// coloured apart from every state shown (cx::distinctStyles). rowSlots: the contrastive row
/// showing the same state (−1: none).
StateMatrixModel::Content referenceContent(const cx::ContrastiveHmmResult& reference,
                                           const StateCatalog& catalog,
                                           const std::vector<std::string>& marks,
                                           const std::vector<int>& identities = {});
/// The γ = 0 rows of `spectral` (referenceContent's, display order) replaced by the refined
/// HMM's states. Identity rule (the path's, cx::kStateIdentityMaxMarkChange): refined states are
/// matched to the spectral rows by matchStates (Hungarian, L1 of the mark profiles); a refined
/// state keeps its row's name and colour when no mark's presence probability moved by more than
/// 0.5 (the note says when its marks now read as another class); otherwise it is another
/// state — its own class name with "(Baum–Welch only)", repeats told apart by
/// cx::qualifyRepeatedNames, in a colour no other row nor `otherColours` (the contrastive
/// panel's) has. Weights are the refined chain's stationary occupancy. A spectral row with no
/// refined partner (more rows than HMM states) stays, dimmed, with weight 0.
StateMatrixModel::Content refinedReferenceContent(const StateMatrixModel::Content& spectral,
                                                  const cx::RefinedHmm& refined,
                                                  const std::vector<std::string>& marks,
                                                  const QVector<QColor>& otherColours = {});
/// Path identities of the γ = 0 model's components: the ids of the path's first point when the
/// path starts at γ = 0 with this very solution; empty otherwise.
std::vector<int> referenceIdentities(const WeightSweep& sweep,
                                     const cx::ContrastiveHmmResult& reference);
/// Transitions between the foreground-specific states, in display order (empty: none).
StateMatrixModel::Content transitionContent(const cx::ContrastiveHmmResult& result,
                                            const StateCatalog& catalog);
/// Enrichment rows in display order for the states the segmentation used; `displaySlots[s]` is
/// the display slot of segmentation state s. None when the table is for another segmentation.
std::optional<StateMatrixModel::Content> enrichmentContent(const EnrichmentTable& table,
                                                           const SegmentationState& segmentation,
                                                           const std::vector<int>& displaySlots,
                                                           const StateCatalog& catalog);
/// Names of the foreground-specific states (ω > 0) that fail core's validity test.
QStringList invalidSpecificStates(const cx::ContrastiveHmmResult& result,
                                  const StateCatalog& catalog);
/// The foreground-specific states whose decoded contrast contradicts their weight
/// (cx::DecodedContrast::contradicted), as "name (x % of the foreground, y % of the background
/// bins)".
QStringList contradictedStates(const SegmentationState& segmentation, const StateCatalog& catalog);
/// The subtitle of the contrastive heatmap: how many states are foreground-specific, or what
/// is wrong — states that fail the validity test, foreground-specific states the bootstrap
/// finds unstable (`stability` per display slot, optional), then states the segmentation
/// contradicts.
QString contrastiveSubtitle(const cx::ContrastiveHmmResult& result, const StateCatalog& catalog,
                            const QStringList& contradicted, const QVector<double>& stability = {});
/// Display slot of every state of `segmentation` (as mapped by the catalog now).
std::vector<int> segmentationSlots(const SegmentationState& segmentation,
                                   const StateCatalog& catalog);

/// Path identity of each component of the shown `solution`, for StateCatalog::update:
/// the path's own ids when γ is a grid point of the path and the solution is that point's;
/// between grid points the ids of the nearest point continued (cx::continueIdentities), −1 for a
/// component the path does not have. Empty when the solution is not on the sweep's path (no
/// path yet, another epoch).
std::vector<int> shownIdentities(const WeightSweep& sweep, const HmmSolution& solution);

/// Lines of the weights-vs-γ chart.
struct WeightLines {
    std::vector<int> trackOfSlot; ///< sweep track drawn for each display slot
    QList<StateWeightsChartView::Line> lines;
    QList<StateWeightsChartView::GammaRange> unreliable;
    bool isValid() const { return !trackOfSlot.empty(); }
};
/// With path identities (the catalog's path is the sweep's): one line per identity, in its name
/// and colour, with its weight wherever the path has it and a gap (NaN) elsewhere, and its band
/// with a bootstrap; only identities present at the grid point nearest `gamma` are in the
/// legend; `trackOfSlot` holds each slot's identity. Otherwise (no path yet) one line per
/// display slot: the sweep track matched to the slot at the grid point nearest `gamma`. With a
/// bootstrap (sweep.bootstrap) each line gets its weight band (the band of the path component drawn
/// at each γ; the weight itself where fewer than 2 resamples matched) and unstable states get
/// unstableSuffix in their name. Invalid (empty) when the sweep and the catalog do not fit
/// together.
WeightLines weightLines(const WeightSweep& sweep, double gamma, const StateCatalog& catalog);

} // namespace cx::ui
