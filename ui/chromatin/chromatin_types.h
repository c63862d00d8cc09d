#pragma once

// Value types that cross the GUI ↔ worker thread boundary of the Chromatin workspace. As in
// topic_types.h, everything is copied by value through queued signals; large payloads (tracks,
// moments, segmentations) travel as shared_ptr<const T>, so a copy is a reference-count
// increment and nobody can mutate what another thread is reading.

#include "core/common/multi_start.h"
#include "core/hmm/contrastive_hmm.h"
#include "core/hmm/decoding.h"
#include "core/hmm/enrichment.h"
#include "core/hmm/hmm_bootstrap.h"
#include "core/hmm/hmm_model.h"
#include "core/hmm/hmm_refine.h"
#include "core/hmm/segmentation_analysis.h"
#include "core/hmm/sequence_moments.h"
#include "core/io/bed.h"
#include "core/io/binarize.h"
#include "core/io/chromhmm_reader.h"
#include "core/io/enrichment_inputs.h"
#include "ui/framework/reads_binarization.h"
#include "ui/views/segmentation_types.h"

#include <Eigen/Dense>

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cx::ui {

/// Loaded chromatin tracks (ChromHMM binarized files) and where they came from.
struct ChromatinDataHandle {
    std::shared_ptr<const cx::ChromatinData> data;
    QStringList paths;
    double loadMs = 0;
    /// The reads the tracks were binarized from (null: opened as binarized files).
    std::shared_ptr<const ReadsBinarization> reads;
    double binarizeMs = 0;

    bool isValid() const { return data != nullptr; }
};

/// One annotation BED file, or a ChromHMM ANCHORFILE (`chrom pos strand`), read once (off the
/// GUI thread) and shared read-only.
struct AnnotationSource {
    QString path;
    QString name; ///< short display name ("RefSeqGene" for RefSeqGene.hg18.bed.gz)
    /// The intervals (for an anchor file: one base at each anchor, so it can be a lane or a
    /// region too).
    std::shared_ptr<const cx::BedRegions> regions;
    /// The anchors of an ANCHORFILE (null for a BED file): a neighbourhood enrichment column
    /// set instead of an overlap column.
    std::shared_ptr<const std::vector<cx::AnchorRecord>> anchors;
    std::shared_ptr<const LaneIntervals> lanes;
    double loadMs = 0;

    bool isValid() const { return regions != nullptr; }
};

/// Which annotations make the foreground and the background (paths; unions of their
/// intervals). Both empty: the whole genome is the foreground and there is no background.
struct RegionChoice {
    QStringList foreground;
    QStringList background;

    bool operator==(const RegionChoice&) const = default;
    bool isWholeGenome() const { return foreground.isEmpty() && background.isEmpty(); }
};

/// Model parameters. The encoding changes the moments (a rebuild); K and the seed only the
/// (millisecond) solves.
struct ChromatinModelParameters {
    int numComponents = 7;
    std::uint64_t seed = 1;
    /// Seeded starts of the γ = 0 solve, the most likely kept (`hmm --starts`, a session's
    /// `model/starts`): every γ of the path starts from it (cx::keptStartOptions).
    int starts = cx::kDefaultStarts;
    cx::ObservationEncoding encoding = cx::ObservationEncoding::MarkVector;
    /// How the components are extracted: deflation (Alg. 3) or Jennrich (Blum 2015).
    cx::AsymmetricInit decomposition = cx::AsymmetricInit::Deflation;
    /// Sweeps of the moment refit (`hmm --moment-fit`, ContrastiveHmmOptions::momentRefitSweeps;
    /// marks encoding only); -1 = off.
    int momentFit = -1;
    /// Highest moment order of the refit (`hmm --moment-order`, 2 or 3): a session's
    /// `moment_order` (2 when the session has none).
    int momentOrder = 2;
    /// Baum–Welch refinement of the foreground-only (γ = 0) model (`hmm --refine-em`): at most
    /// this many rounds, 0 = off. On for new analyses (cx::kRefineMaxRounds with
    /// cx::kRefineTolerance, the stopping rule of the EM baseline); a session without the
    /// field opens with 0. γ > 0 has no likelihood, so the contrastive model stays spectral.
    int refineEm = cx::kRefineMaxRounds;
    /// The refinement stops when a round's relative log-likelihood gain is below this.
    double refineTolerance = cx::kRefineTolerance;

    bool operator==(const ChromatinModelParameters&) const = default;
    /// Equal up to the refinement fields (which change no spectral solve).
    bool sameSpectral(const ChromatinModelParameters& other) const;
    cx::ContrastiveHmmOptions toOptions() const;
};

/// Cached foreground/background moments of one region choice and encoding, with the bin
/// counts and warnings of the classification (the load report).
struct MomentsState {
    std::shared_ptr<const cx::SequenceMoments> moments;
    std::shared_ptr<const cx::ChromatinData> data;
    RegionChoice choice;
    cx::ObservationEncoding encoding = cx::ObservationEncoding::MarkVector;
    std::int64_t totalBins = 0;
    std::int64_t foregroundBins = 0;
    std::int64_t backgroundBins = 0;
    /// Foreground/background class of every bin (what the moments were computed on; the
    /// decoded contrast of a segmentation is measured on them).
    std::shared_ptr<const cx::BinClasses> classes;
    QStringList warnings;
    double classifyMs = 0;
    double momentsMs = 0;

    bool hasBackground() const { return moments && moments->background.numTriples > 0; }
};

/// One contrastive HMM shown in the views: the result at γ and, for the side-by-side
/// comparison, the foreground-only model (γ = 0) of the same moments and parameters.
struct HmmSolution {
    quint64 generation = 0; ///< request generation (monotonic per controller)
    quint64 epoch = 0;      ///< moments + K/seed epoch the request belonged to
    double gamma = 0;
    ChromatinModelParameters parameters;
    std::shared_ptr<const cx::ContrastiveHmmResult> result;
    /// γ = 0 on the same moments (computed once per epoch; shared by every solution of it).
    std::shared_ptr<const cx::ContrastiveHmmResult> reference;
    std::shared_ptr<const MomentsState> moments;
    double solveMs = 0;       ///< core time of the γ solve
    double workerMs = 0;      ///< everything the worker did for this request
    qint64 requestedAtMs = 0; ///< controller clock when the request was made (for latency)
    /// Solved on the γ path of its epoch (solveOnPath); false = from fresh starts (no path yet).
    bool onPath = false;
    /// The path kept the run continued from its nearest point (onPath only).
    bool continued = false;

    bool isValid() const { return result != nullptr; }
};

/// The Baum–Welch refinement of an epoch's foreground-only (γ = 0) model
/// (ChromatinController::refinement): started from the γ = 0 spectral solve with the moment
/// selection (marks encoding: ContrastiveHmmOptions::momentRefitSweeps ≥ 0, so the start has
/// the unmarked state and weights summing to 1; combinations: the plain solve), over the
/// foreground bins (every bin without regions), to the parameters' stopping rule.
struct ReferenceRefinement {
    quint64 epoch = 0;
    /// The γ = 0 spectral model it started from (states in the same order as model's).
    std::shared_ptr<const cx::ContrastiveHmmResult> start;
    cx::RefinedHmm model;
    int maxRounds = 0;
    double tolerance = 0;
};

/// Enrichment of the segmentation's states, ChromHMM-compatible (core/hmm/enrichment.h, the
/// numbers `contrast-cli enrichment` writes for the exported segmentation), laid out per
/// segmentation state for the views: fold(s, c) is state s's fold enrichment in column c (NaN
/// for a state the segmentation does not use), stateBins its bins. The overlap table has one
/// column per BED annotation; `neighborhoods` holds one table per anchor file, with the
/// offsets ("-2000" … "2000") as columns.
struct EnrichmentTable : cx::OverlapEnrichment {
    quint64 generation = 0;      ///< the segmentation's solution generation
    QStringList annotations;     ///< column labels (annotation names, or offsets)
    QStringList annotationPaths; ///< the annotation files (one anchor file for a neighbourhood)
    QString title;               ///< "Overlap enrichment", "Neighbourhood of TSS"
    /// The cell the table counts (the first track's; ChromHMM's tables are per segmentation
    /// file, i.e. per cell).
    QString cell;
    /// The table as core computed it (rows: states that occur, labelled E1…EK by state).
    cx::EnrichmentTable chromhmm;
    std::vector<EnrichmentTable> neighborhoods;
    double ms = 0;

    int numStates() const { return static_cast<int>(fold.rows()); }
    int numAnnotations() const { return static_cast<int>(fold.cols()); }
};

/// State weights over a γ grid, with the components tracked from one γ to the next by
/// matchStates (row t of every matrix is the same "track" of states).
struct WeightSweep {
    quint64 epoch = 0;
    QVector<double> gammas;
    std::vector<Eigen::VectorXd> weights;  ///< per γ: K weights in track order
    std::vector<Eigen::MatrixXd> profiles; ///< per γ: K × M mark probabilities in track order
    /// per γ: invalid mass of the foreground-specific components (> 0: no valid model there)
    std::vector<double> specificInvalidMass;
    /// The solved path (the γ solve continues from it when it belongs to the current epoch).
    std::shared_ptr<const cx::HmmPath> path;
    /// Block bootstrap of `path` (ChromatinController::startBootstrap), null until one ran:
    /// weight bands per γ and component, stability per identity.
    std::shared_ptr<const cx::HmmPathBootstrap> bootstrap;

    bool isEmpty() const { return gammas.isEmpty(); }
    int numTracks() const { return weights.empty() ? 0 : static_cast<int>(weights.front().size()); }
};

/// The kinds of long task the progress UI reports.
enum class ChromatinTaskKind { LoadTracks, Moments };

} // namespace cx::ui

Q_DECLARE_METATYPE(cx::ui::ChromatinDataHandle)
Q_DECLARE_METATYPE(cx::ui::AnnotationSource)
Q_DECLARE_METATYPE(cx::ui::MomentsState)
Q_DECLARE_METATYPE(cx::ui::HmmSolution)
Q_DECLARE_METATYPE(std::shared_ptr<const cx::ui::ReferenceRefinement>)
Q_DECLARE_METATYPE(cx::ui::EnrichmentTable)
Q_DECLARE_METATYPE(cx::ui::WeightSweep)
Q_DECLARE_METATYPE(cx::ui::ChromatinTaskKind)
